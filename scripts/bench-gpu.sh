#!/bin/sh
# Speed of the GPU engine (tgsi-naga's translation through wgpu on the machine's Vulkan
# driver, e.g. Mesa's lavapipe) beside the interpreter and the JIT, on the benchmark shaders.
#
#   scripts/bench-gpu.sh [--size WxH] [--min-time S] [CASE_DIR...]
#
# CASE_DIR is a benchmark case (shader.tgsi, consts.txt, optionally tgsi-bindings.json);
# default: every case of crates/tgsi-jit/benches/shaders/. Each case is timed with
# `tgsi bench --json` (release build): the interpreter and the JIT on one thread and on all
# cores, the GPU with the driver's threads (lavapipe: LP_NUM_THREADS, default all cores).
# A GPU frame includes reading the RGBA32F image back. The cases' constants were made for
# 64x64 (WinSize), so at another size the pattern is stretched, not the work per pixel.
# Prints a Markdown table of Mpix/s (compute rows: M invocations/s).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
size=256x256
secs=1
while [ $# -gt 0 ]; do
    case $1 in
    --size) size=$2; shift 2 ;;
    --min-time) secs=$2; shift 2 ;;
    -*) echo "bench-gpu.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || set -- "$root"/crates/tgsi-jit/benches/shaders/*/
cargo build --release -q -p tgsi-cli --manifest-path "$root/Cargo.toml"
tgsi=$root/target/release/tgsi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# num FILE ENGINE: the rate of the line of FILE whose engine is ENGINE ("-" when absent).
num() {
    sed -n "s/.*\"engine\":\"$2\".*\"\(mpix_per_s\|minvocations_per_s\)\":\([0-9.]*\).*/\2/p" "$1" |
        head -n 1 | grep . || echo -
}

echo "| case | interp-1t | jit-1t | interp-all | jit-all | gpu |"
echo "|---|---:|---:|---:|---:|---:|"
for dir in "$@"; do
    dir=${dir%/}
    [ -f "$dir/shader.tgsi" ] || continue
    name=$(basename "$dir")
    set --
    [ -f "$dir/consts.txt" ] && set -- "$@" --consts "$dir/consts.txt"
    if [ -f "$dir/tgsi-bindings.json" ]; then
        mkdir -p "$work/run"
        # Outputs go to run/ beside the data (the bindings name them so); keep them out.
        sed "s#\"run/#\"$work/run/#g" "$dir/tgsi-bindings.json" >"$work/b.json"
        sed -i "s#\"data\": \"#\"data\": \"$dir/#g" "$work/b.json"
        set -- "$@" --bindings "$work/b.json"
    fi
    for t in 1 0; do
        "$tgsi" bench "$dir/shader.tgsi" --size "$size" --min-time "$secs" --engine all \
            --threads "$t" --json "$@" >"$work/cpu$t" 2>/dev/null || true
    done
    "$tgsi" bench "$dir/shader.tgsi" --size "$size" --min-time "$secs" --engine gpu \
        --json "$@" >"$work/gpu" 2>"$work/gpu.err" || true
    g=$(num "$work/gpu" gpu)
    [ "$g" = - ] && g="- ($(grep -o 'error: .*' "$work/gpu.err" | head -n 1 | cut -c8-80))"
    echo "| $name | $(num "$work/cpu1" interp) | $(num "$work/cpu1" jit) | $(num "$work/cpu0" interp) | $(num "$work/cpu0" jit) | $g |"
done
