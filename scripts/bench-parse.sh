#!/usr/bin/env bash
# Text speed of the `tgsi` binary on one large generated shader, in MB/s (10^6 bytes).
#
#   scripts/bench-parse.sh [MEGABYTES] [REPS] [TGSI]
#
# Writes the benchmark shader of `crates/tgsi/benches/support/big_shader.rs` (MEGABYTES,
# default 16: declarations, immediates, ALU ops with swizzles, masks, modifiers, indirect and
# 2-D operands, nested IF/ELSE and loops with labels, texture ops), then times
# `tgsi fmt FILE` (text -> IR -> text) and `tgsi asm FILE -o OUT` (text -> tokens) REPS times
# (default 5) each and prints the best run, whole process (reading and writing included):
# CPU time (user + system, what one core spends; steady on a shared machine) and wall
# time. TGSI (default: this checkout's release build) is the binary to time.
# The library paths alone: `cargo bench -p tgsi --bench text_speed`.
set -eu
megabytes=${1:-16}
reps=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release -q -p tgsi-cli --manifest-path "$root/Cargo.toml"
tgsi=${3:-$root/target/release/tgsi}
cargo run --release -q -p tgsi --example big_shader --manifest-path "$root/Cargo.toml" \
    -- "$megabytes" >"$work/big.tgsi"
bytes=$(wc -c <"$work/big.tgsi")

# Best CPU and wall seconds of REPS runs of the command: "cpu wall".
best() {
    local best_cpu="" best_wall="" i=0 out cpu wall
    TIMEFORMAT='%3U %3S %3R'
    while [ "$i" -lt "$reps" ]; do
        out=$( { time "$@" >/dev/null 2>&1; } 2>&1 )
        read -r user sys wall <<<"$out"
        cpu=$(echo "$user + $sys" | bc -l)
        if [ -z "$best_cpu" ] || [ "$(echo "$cpu < $best_cpu" | bc -l)" = 1 ]; then best_cpu=$cpu; fi
        if [ -z "$best_wall" ] || [ "$(echo "$wall < $best_wall" | bc -l)" = 1 ]; then best_wall=$wall; fi
        i=$((i + 1))
    done
    echo "$best_cpu $best_wall"
}

echo "shader: $bytes bytes, best of $reps runs, one thread"
for cmd in fmt asm; do
    case $cmd in
        fmt) read -r cpu wall <<<"$(best "$tgsi" fmt "$work/big.tgsi")" ;;
        asm) read -r cpu wall <<<"$(best "$tgsi" asm "$work/big.tgsi" -o "$work/big.tokens")" ;;
    esac
    printf 'tgsi %s  %7.1f MB/s CPU (%.3f s)  %7.1f MB/s wall (%.3f s)\n' "$cmd" \
        "$(echo "$bytes / $cpu / 1000000" | bc -l)" "$cpu" \
        "$(echo "$bytes / $wall / 1000000" | bc -l)" "$wall"
done
