#!/bin/sh
# Text speed of the `tgsi` binary on one large generated shader, in MB/s (10^6 bytes).
#
#   scripts/bench-parse.sh [MEGABYTES] [REPS] [TGSI]
#
# Writes the benchmark shader of `crates/tgsi/benches/support/big_shader.rs` (MEGABYTES,
# default 16: declarations, immediates, ALU ops with swizzles, masks, modifiers, indirect and
# 2-D operands, nested IF/ELSE and loops with labels, texture ops), then times
# `tgsi fmt FILE` (text -> IR -> text) and `tgsi asm FILE -o OUT` (text -> tokens) REPS times
# (default 5) each and prints the best run: whole-process wall time, reading and writing
# included. TGSI (default: this checkout's release build) is the binary to time.
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

# Best wall time of REPS runs of the command, in seconds.
best() {
    best=""
    i=0
    while [ "$i" -lt "$reps" ]; do
        start=$(date +%s.%N)
        "$@" >/dev/null
        end=$(date +%s.%N)
        t=$(echo "$end - $start" | bc -l)
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
        i=$((i + 1))
    done
    echo "$best"
}

echo "shader: $bytes bytes, best of $reps runs, one thread"
for cmd in fmt asm; do
    case $cmd in
        fmt) t=$(best "$tgsi" fmt "$work/big.tgsi") ;;
        asm) t=$(best "$tgsi" asm "$work/big.tgsi" -o "$work/big.tokens") ;;
    esac
    printf 'tgsi %s  %8.1f MB/s  (%.3f s)\n' "$cmd" "$(echo "$bytes / $t / 1000000" | bc -l)" "$t"
done
