#!/bin/sh
# Speed of tgsi's interpreter and JIT against Mesa softpipe and llvmpipe on the same
# shaders, measured in one run and printed as one table with the ratios.
#
#   scripts/bench-render.sh [--size WxH] [--reps N] [--min-time S] [--markdown] [CASE_DIR...]
#
# CASE_DIR is an fsref case (shader.frag + uniforms.txt), a texref case (plus textures.txt)
# or a csref case (shader.comp + bindings.txt); default: every case of
# crates/tgsi-jit/benches/shaders/. For each fragment case:
#
#  1. shared/tools/fsref (texref) renders the GLSL on softpipe at the bench size, writes the
#     TGSI softpipe ran and its constants for that size, and measures Mpix/s of softpipe,
#     llvmpipe with LP_NUM_THREADS=1 and llvmpipe with its default thread count (one per
#     core), each the median of --reps runs of at least --min-time seconds (fsref; texref
#     measures softpipe and llvmpipe 1 thread only, once, so "all" is "-" for it);
#  2. `tgsi render --engine interp` and `--engine jit` render that TGSI at the same size;
#     both images must equal softpipe's bit for bit (column "exact": yes, or which engine
#     differs);
#  3. `tgsi bench --engine all --threads 1 --json` and `--threads 0` (all cores) time our
#     interpreter and JIT on the same TGSI and constants (at least --min-time seconds), and
#     `tgsi bench --engine jit --approx-math --threads 1` the JIT with approximate
#     transcendentals (column jit-am-1t; not bit-exact, so not part of "exact").
#
# After the cases, the same run times the text paths on the generated 16 MiB shader
# (`big_shader --time`: the library, thread CPU time; `scripts/bench-parse.sh`: `tgsi fmt`
# and `tgsi asm` as whole processes) and prints them as a second table beside the issue's
# targets and Mesa's figure (Mesa's parser cannot be timed here: its symbols are not
# exported by swrast_dri.so or libvirglrenderer). --no-text leaves that table out.
#
# A compute case is dispatched once by shared/tools/csref (its grid, not --size), which
# times softpipe and llvmpipe 1 thread (mean of at least 0.3 s); `tgsi run` must leave
# softpipe's bytes in every output buffer, and `tgsi bench` times the same dispatch. Its
# row gives M invocations/s instead of Mpix/s.
#
# Columns: Mpix/s of softpipe, llvmpipe (1 thread, all threads), our interpreter and JIT
# (1 thread, all threads), our JIT with --approx-math (1 thread); int/sp = interp 1t /
# softpipe, jit/sp = jit 1t / softpipe, jit/lp1 = jit 1t / llvmpipe 1t;
# jit-ms = the JIT's compile time in ms (Cranelift, from `tgsi bench`); "*" after a JIT
# speed means the JIT fell back to the interpreter for that shader; lp-ms = llvmpipe's
# compile time in ms, taken from outside by tools/lpcompile (Mesa 22.3 as packaged by
# Debian is a release build without GALLIVM_DEBUG=perf or LP_DEBUG): the first draw or
# dispatch of a freshly linked program less the fastest of the next five (llvmpipe
# generates its code at the first draw; its GLSL link takes as long as softpipe's), median
# of 5 programs, MESA_SHADER_CACHE_DISABLE=true, LP_NUM_THREADS=1. It covers everything
# llvmpipe compiles for the draw (the fragment or compute shader with its sampling code,
# the draw module's vertex code); jit-ms covers the shader's code, not the sampling
# kernels the JIT compiles once per process (about 1.6 ms each).
#
# Mesa's drivers read their environment: `LP_NATIVE_VECTOR_WIDTH=128 scripts/bench-render.sh`
# measures llvmpipe with 128-bit vectors (its default on this machine is 256: AVX2), the
# width of the JIT's vectors (Cranelift 0.135 has no 256-bit ones), so that jit/lp1
# compares the two compilers at one vector width.
#
# Options:
#   --size WxH      bench size (default 256x256)
#   --reps N        fsref repetitions per driver, median taken (default 3)
#   --min-time S    seconds per measurement, fsref and tgsi bench (default 1)
#   --markdown      print the tables in Markdown (for the README)
#   --no-text       skip the text paths
#
# Needs: build-essential libegl-dev libgl-dev libgl1-mesa-dri (Debian 12, Mesa 22.3), bc,
# python3 (texref and csref cases).
set -eu

usage() {
    sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit "${1:-0}"
}

size=256x256
reps=3
secs=1
markdown=0
text=1
while [ $# -gt 0 ]; do
    case $1 in
    --size) size=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --min-time) secs=$2; shift 2 ;;
    --markdown) markdown=1; shift ;;
    --no-text) text=0; shift ;;
    -h | --help) usage 0 ;;
    --) shift; break ;;
    -*) echo "bench-render.sh: unknown option $1" >&2; usage 2 >&2 ;;
    *) break ;;
    esac
done
case $size in
*x*) w=${size%x*}; h=${size#*x} ;;
*) w=$size; h=$size ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
shared=${TGSI_SHARED:-$root/../shared}
if [ $# -eq 0 ]; then
    set -- "$root"/crates/tgsi-jit/benches/shaders/*/
fi
for dir in "$@"; do
    if [ ! -f "$dir/shader.frag" ] && [ ! -f "$dir/shader.comp" ]; then
        echo "bench-render.sh: $dir is not a case directory (no shader.frag or shader.comp)" >&2
        usage 2 >&2
    fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

for tool in fsref texref csref; do
    cp "$shared/tools/$tool/$tool.c" "$work/"
done
cp "$shared/tools/texref/refcommon.h" "$work/"
for tool in fsref texref csref; do
    cc -O2 -w -o "$work/$tool" "$work/$tool.c" -lEGL -lOpenGL -lm
done
cc -O2 -w -o "$work/lpcompile" "$root/tools/lpcompile/lpcompile.c" -lEGL -lOpenGL
cargo build --release -q -p tgsi-cli --manifest-path "$root/Cargo.toml"
tgsi="$root/target/release/tgsi"

# json FILE ENGINE KEY: the number KEY of the line of FILE whose engine is ENGINE.
json() {
    sed -n "/\"engine\":\"$2\"/s/.*\"$3\":\\([-0-9.a-z]*\\).*/\\1/p" "$1"
}
# lp_ms -f|-c SHADER: llvmpipe's compile time in ms (tools/lpcompile), or "-".
lp_ms() {
    MESA_SHADER_CACHE_DISABLE=true GALLIUM_DRIVER=llvmpipe LP_NUM_THREADS=1 \
        "$work/lpcompile" "$1" "$2" 2>/dev/null |
        sed -n 's/.*"compile_ms":\([-0-9.]*\).*/\1/p' | grep . || echo -
}
# meta FILE KEY: the number KEY of a meta.json.
meta() {
    sed -n "s/.*\"$2\": *\\([0-9.]*\\).*/\\1/p" "$1" | head -n 1
}

rows="$work/rows"
: >"$rows"
for dir in "$@"; do
    dir=$(cd "$dir" && pwd)
    name=$(basename "$dir")
    out="$work/$name"
    if [ -f "$dir/shader.comp" ]; then
        echo "$name: Mesa, one dispatch" >&2
        uniforms=""
        [ -s "$dir/uniforms.txt" ] && uniforms=yes
        "$work/csref" -c "$dir/shader.comp" -b "$dir/bindings.txt" \
            ${uniforms:+-u "$dir/uniforms.txt"} -t "$secs" "$out" >"$work/$name.log" 2>&1
        mkdir -p "$work/run"
        python3 "$root/scripts/ref2bindings.py" "$out" "$work/run" >"$work/$name.json"
        echo "$name: tgsi run and bench" >&2
        "$tgsi" run "$out/shader.tgsi" --bindings "$work/$name.json" >/dev/null 2>&1
        exact=yes
        for f in "$out"/out_*.bin; do
            cmp -s "$f" "$work/run/$(basename "$f")" || exact=interp
        done
        for threads in 1 0; do
            "$tgsi" bench "$out/shader.tgsi" --bindings "$work/$name.json" --engine all \
                --threads "$threads" --min-time "$secs" --json >"$work/bench$threads" 2>/dev/null
        done
        inv=$(meta "$out/meta.json" invocations)
        sp=$(echo "$inv / $(meta "$out/meta.json" us_per_dispatch_softpipe)" | bc -l)
        lp1=$(echo "$inv / $(meta "$out/meta.json" us_per_dispatch_llvmpipe_1thread)" | bc -l)
        i1=$(json "$work/bench1" interp minvocations_per_s)
        j1=$(json "$work/bench1" jit minvocations_per_s)
        i0=$(json "$work/bench0" interp minvocations_per_s)
        j0=$(json "$work/bench0" jit minvocations_per_s)
        fb=$(json "$work/bench1" jit fallback)
        ms=$(json "$work/bench1" jit compile_ms)
        lms=$(lp_ms -c "$dir/shader.comp")
        echo "$name(Minv/s) $sp $lp1 - $i1 $j1 $i0 $j0 $fb $ms - $exact $lms" >>"$rows"
        continue
    fi
    echo "$name: Mesa at ${w}x$h" >&2
    if [ -f "$dir/textures.txt" ]; then
        "$work/texref" -f "$dir/shader.frag" -x "$dir/textures.txt" -u "$dir/uniforms.txt" \
            -W "$w" -H "$h" -B "${w}x$h" -t "$secs" "$out" >"$work/$name.log" 2>&1
        python3 "$root/scripts/ref2bindings.py" "$out" >"$work/$name.json"
        bindings="$work/$name.json"
    else
        "$work/fsref" -f "$dir/shader.frag" -u "$dir/uniforms.txt" \
            -W "$w" -H "$h" -B "${w}x$h" -r "$reps" -t "$secs" "$out" >"$work/$name.log" 2>&1
        bindings=""
    fi
    sp=$(meta "$out/meta.json" mpix_s_softpipe)
    lp1=$(meta "$out/meta.json" mpix_s_llvmpipe_1thread)
    lpn=$(meta "$out/meta.json" mpix_s_llvmpipe_default_threads)

    echo "$name: tgsi render and bench" >&2
    exact=yes
    for engine in interp jit; do
        "$tgsi" render "$out/shader.tgsi" --size "${w}x$h" --consts "$out/consts.txt" ${bindings:+--bindings "$bindings"} \
            --engine "$engine" --clear=-1,-2,-3,-4 --raw "$work/$engine.f32" -o "$work/out.png"
        if ! cmp -s "$work/$engine.f32" "$out/ref.f32"; then
            [ "$exact" = yes ] && exact=$engine || exact="$exact+$engine"
        fi
    done
    for threads in 1 0; do
        "$tgsi" bench "$out/shader.tgsi" --size "${w}x$h" --consts "$out/consts.txt" ${bindings:+--bindings "$bindings"} \
            --engine all --threads "$threads" --min-time "$secs" --json >"$work/bench$threads"
    done
    i1=$(json "$work/bench1" interp mpix_per_s)
    j1=$(json "$work/bench1" jit mpix_per_s)
    i0=$(json "$work/bench0" interp mpix_per_s)
    j0=$(json "$work/bench0" jit mpix_per_s)
    fb=$(json "$work/bench1" jit fallback)
    ms=$(json "$work/bench1" jit compile_ms)
    "$tgsi" bench "$out/shader.tgsi" --size "${w}x$h" --consts "$out/consts.txt" ${bindings:+--bindings "$bindings"} \
        --engine jit --approx-math --threads 1 --min-time "$secs" --json >"$work/bench_am"
    am=$(json "$work/bench_am" jit mpix_per_s)
    lms=$(lp_ms -f "$dir/shader.frag")
    echo "$name ${sp:--} ${lp1:--} ${lpn:--} $i1 $j1 $i0 $j0 $fb $ms $am $exact $lms" >>"$rows"
done

awk -v md="$markdown" -v size="${w}x$h" '
function f(x) {
    if (x == "-") return "-"
    return sprintf(x >= 100 ? "%.0f" : x >= 10 ? "%.1f" : x >= 1 ? "%.2f" : "%.3f", x)
}
function r(a, b) { return (a == "-" || b == "-" || b == 0) ? "-" : f(a / b) "x" }
BEGIN {
    n = split("case softpipe llvmpipe-1t llvmpipe-all interp-1t jit-1t interp-all jit-all jit-am-1t int/sp jit/sp jit/lp1 jit-ms lp-ms exact", head, " ")
    if (md) {
        printf "Mpix/s at %s (compute rows: M invocations/s; 1t: one thread, all: all cores)\n\n", size
        line = "|"; sep = "|"
        for (i = 1; i <= n; i++) { line = line " " head[i] " |"; sep = sep (i == 1 ? "---|" : "---:|") }
        print line; print sep
    } else {
        printf "Mpix/s at %s (compute rows: M invocations/s; 1t: one thread, all: all cores)\n", size
        fmt = "%-15s %9s %11s %12s %9s %9s %10s %9s %9s %7s %7s %7s %6s %6s %s\n"
        printf fmt, head[1], head[2], head[3], head[4], head[5], head[6], head[7], head[8], head[9], head[10], head[11], head[12], head[13], head[14], head[15]
    }
}
{
    fb = $9 == "true" ? "*" : ""
    c[1] = $1; c[2] = f($2); c[3] = f($3); c[4] = f($4); c[5] = f($5); c[6] = f($6) fb
    c[7] = f($7); c[8] = f($8) fb; c[9] = f($11); c[10] = r($5, $2); c[11] = r($6, $2)
    c[12] = r($6, $3); c[13] = sprintf("%.1f", $10)
    c[14] = $13 == "-" ? "-" : sprintf("%.0f", $13); c[15] = $12
    if (md) {
        line = "|"
        for (i = 1; i <= n; i++) line = line " " c[i] " |"
        print line
    } else {
        printf fmt, c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14], c[15]
    }
    if (fb != "") fell = 1
}
END { if (fell) print (md ? "\n" : "") "`*`: the JIT left this shader to the interpreter (shaders most of whose instructions it would hand to the interpreter anyway, compute dispatches that keep the 4-lane machines of softpipe, barriers inside control flow); jit-ms is then the time to decide" }
' "$rows"

[ "$text" = 1 ] || exit 0
echo "text paths: big_shader --time, bench-parse.sh" >&2
cargo build --release -q -p tgsi --example big_shader --manifest-path "$root/Cargo.toml"
"$root/target/release/examples/big_shader" --time 16 >"$work/text"
bash "$root/scripts/bench-parse.sh" 16 5 "$tgsi" >>"$work/text"
awk -v md="$markdown" '
# "NAME  X MB/s ..." lines: the path and its MB/s (the first figure; CPU time for tgsi fmt/asm).
/MB\/s/ {
    for (i = 1; i < NF; i++) if ($(i + 1) == "MB/s") break
    name = $1; for (k = 2; k < i; k++) name = name " " $k
    target = ""
    if (name == "text -> IR -> text") target = ">= 200"
    if (name == "text -> tokens (assemble)") target = ">= 350"
    mesa = name == "text -> tokens (assemble)" ? "116 (tgsi_text_translate, the issue\047s figure)" : ""
    rows[++n] = name; mbs[n] = $i; targets[n] = target; mesas[n] = mesa
}
END {
    if (md) {
        print "\nText paths on the generated 16 MiB shader, MB/s of text, one thread (library: thread CPU time, best of 9 samples; tgsi fmt/asm: whole process, CPU time, best of 5)\n"
        print "| path | MB/s | target | Mesa 22.3 |"
        print "|---|---:|---|---|"
        for (i = 1; i <= n; i++) printf "| %s | %s | %s | %s |\n", rows[i], mbs[i], targets[i], mesas[i]
    } else {
        print "\nText paths on the generated 16 MiB shader, MB/s of text, one thread"
        for (i = 1; i <= n; i++) printf "%-28s %8s  %-7s %s\n", rows[i], mbs[i], targets[i], mesas[i]
    }
}
' "$work/text"
