#!/bin/sh
# Speed of `tgsi render` against Mesa softpipe, in the same run, as a ratio.
#
#   scripts/bench-render.sh CASE_DIR [SIZE] [REPS]
#
# CASE_DIR is an fsref case (shader.frag + uniforms.txt, e.g. ../shared/corpus/fsref/demos-mandel256).
# The script renders it SIZE×SIZE (default 256) with shared/tools/fsref on softpipe, which
# also measures softpipe's Mpix/s (median of REPS runs, default 3) and writes the TGSI and
# constants for that size; then it renders the same TGSI with `tgsi render --threads 1`
# REPS times, checks the image is bit-identical to softpipe's, and prints both speeds.
#
# Needs: build-essential libegl-dev libgl-dev libgl1-mesa-dri (Debian 12) for fsref.
set -eu
case_dir=$(cd "$1" && pwd)
size=${2:-256}
reps=${3:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${TGSI_SHARED:-$root/../shared}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp "$shared/tools/fsref/fsref.c" "$work/"
cc -O2 -o "$work/fsref" "$work/fsref.c" -lEGL -lOpenGL -lm
cargo build --release -q -p tgsi-cli --manifest-path "$root/Cargo.toml"
tgsi="$root/target/release/tgsi"

echo "softpipe: $case_dir at ${size}x${size} ($reps runs)" >&2
"$work/fsref" -f "$case_dir/shader.frag" -u "$case_dir/uniforms.txt" \
    -W "$size" -H "$size" -B "${size}x${size}" -r "$reps" "$work/case" >"$work/fsref.log" 2>&1
sp=$(sed -n 's/.*"mpix_s_softpipe": *\([0-9.]*\).*/\1/p' "$work/case/meta.json")

times=""
i=0
while [ "$i" -lt "$reps" ]; do
    start=$(date +%s.%N)
    "$tgsi" render "$work/case/shader.tgsi" --size "${size}x${size}" \
        --consts "$work/case/consts.txt" --clear=-1,-2,-3,-4 --raw "$work/out.f32" \
        --threads 1 -o "$work/out.png"
    end=$(date +%s.%N)
    times="$times $(echo "$end - $start" | bc -l)"
    i=$((i + 1))
done
cmp -s "$work/out.f32" "$work/case/ref.f32" && exact=bit-exact || exact=DIFFERENT
median=$(printf '%s\n' $times | sort -g | sed -n "$(( (reps + 1) / 2 ))p")
ours=$(echo "$size * $size / $median / 1000000" | bc -l)
printf 'softpipe     %8.3f Mpix/s\n' "$sp"
printf 'tgsi render  %8.3f Mpix/s (1 thread, median of %s, %s)\n' "$ours" "$reps" "$exact"
printf 'ratio        %8.2fx\n' "$(echo "$ours / $sp" | bc -l)"
