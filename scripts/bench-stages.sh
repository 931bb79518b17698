#!/usr/bin/env bash
# Speed of geometry and tessellation chains: tgsi's interpreter against Mesa softpipe and
# llvmpipe (one thread) on the same shaders and draw, measured in one run, as one table.
#
#   scripts/bench-stages.sh [--min-time S] [--markdown]
#
# Geometry: the gsref cases amplify-strip-24, invocations-4-primid and lines-to-points of
# crates/tgsi-exec/tests/data/gsref (their GLSL for Mesa, the TGSI softpipe made of it for
# tgsi), drawn with 3,000 input vertices. Tessellation: the tessref cases tri-equal-const,
# quad-equal-const and isolines-equal-const of ../shared/corpus/tessref (skipped when it is
# absent; softpipe has no tessellation, so llvmpipe only), 1,000 patches. Mesa is timed by
# tools/stageref (rasterizer discard, transform feedback of the last stage, glFinish per
# draw); tgsi by `tgsi bench VS [TCS TES] [GS] --json` (release build), the same work
# captured in memory. Both repeat the draw for at least --min-time seconds (default 1) after
# a warm-up draw and count the last stage's primitives and vertices (strips decomposed)
# the same way; the table gives thousands of primitives per second and the ratios.
#
# Needs: build-essential libegl-dev libgl-dev libgl1-mesa-dri (Debian 12, Mesa 22.3), python3.
set -eu
secs=1
markdown=0
while [ $# -gt 0 ]; do
    case $1 in
    --min-time) secs=$2; shift 2 ;;
    --markdown) markdown=1; shift ;;
    -h | --help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${TGSI_SHARED:-$root/../shared}
stageref=$root/tools/stageref/stageref
[ -x "$stageref" ] || "$root/tools/stageref/build.sh" >/dev/null
cargo build --release -q -p tgsi-cli --manifest-path "$root/Cargo.toml"
tgsi=$root/target/release/tgsi
export MESA_GL_VERSION_OVERRIDE=4.5 MESA_GLSL_VERSION_OVERRIDE=450 LP_NUM_THREADS=1

field() { python3 -c "import json,sys; print(json.loads(sys.stdin.read())['$1'])"; }
kps() { python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print('%.1f' % (d['primitives'] * d['draws'] / d['seconds'] / 1e3))"; }
ratio() { python3 -c "print('%.2f' % ($1 / $2) if '$2' not in ('-', '0') else '-')"; }

if [ "$markdown" = 1 ]; then
    echo "| case | stages | primitives/draw | softpipe kprim/s | llvmpipe 1t kprim/s | tgsi kprim/s | tgsi/sp | tgsi/lp |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|"
else
    printf '%-24s %-12s %9s %10s %10s %10s %8s %8s\n' case stages prims/draw softpipe llvmpipe tgsi tgsi/sp tgsi/lp
fi
row() {
    if [ "$markdown" = 1 ]; then
        echo "| \`$1\` | $2 | $3 | $4 | $5 | $6 | $7 | $8 |"
    else
        printf '%-24s %-12s %9s %10s %10s %10s %8s %8s\n' "$@"
    fi
}

for name in amplify-strip-24 invocations-4-primid lines-to-points; do
    c=$root/crates/tgsi-exec/tests/data/gsref/$name
    mode=$(python3 -c "import json; print(json.load(open('$c/meta.json'))['draw']['mode'][3:].lower())")
    varyings=$(python3 -c "import json; print(','.join(json.load(open('$c/case.json'))['varyings']))")
    count=3000
    sp=$(GALLIUM_DRIVER=softpipe "$stageref" time "$mode" $count 0 "$secs" "$varyings" "$c/shader.vert" - - "$c/shader.geom")
    lp=$(GALLIUM_DRIVER=llvmpipe "$stageref" time "$mode" $count 0 "$secs" "$varyings" "$c/shader.vert" - - "$c/shader.geom")
    ours=$("$tgsi" bench "$c/vs.tgsi" "$c/gs.tgsi" --prim "$mode" --count $count --min-time "$secs" --json)
    p_sp=$(echo "$sp" | field primitives)
    p_ours=$(echo "$ours" | field primitives)
    [ "$p_sp" = "$p_ours" ] || { echo "$name: softpipe generates $p_sp primitives, tgsi $p_ours" >&2; exit 1; }
    k_sp=$(echo "$sp" | kps); k_lp=$(echo "$lp" | kps)
    k_ours=$(python3 -c "import json; print('%.1f' % (json.loads('''$ours''')['primitives_per_s'] / 1e3))")
    row "$name" "VS GS" "$p_ours" "$k_sp" "$k_lp" "$k_ours" "$(ratio "$k_ours" "$k_sp")" "$(ratio "$k_ours" "$k_lp")"
done

for name in tri-equal-const quad-equal-const isolines-equal-const; do
    c=$shared/corpus/tessref/$name
    [ -d "$c" ] || { echo "skipped $name: $c is absent" >&2; continue; }
    pv=$(python3 -c "import json; print(json.load(open('$c/meta.json'))['patch_vertices'])")
    varyings=$(sed -n 's/^capture //p' "$c/case.txt" | tr ' ' ',')
    count=$((1000 * pv))
    lp=$(GALLIUM_DRIVER=llvmpipe "$stageref" time patches $count "$pv" "$secs" "$varyings" "$c/shader.vert" "$c/shader.tesc" "$c/shader.tese" -)
    ours=$("$tgsi" bench "$c/vs.tgsi" "$c/tcs.tgsi" "$c/tes.tgsi" --patch-vertices "$pv" --count $count --min-time "$secs" --json)
    p_lp=$(echo "$lp" | field primitives)
    p_ours=$(echo "$ours" | field primitives)
    [ "$p_lp" = "$p_ours" ] || { echo "$name: llvmpipe generates $p_lp primitives, tgsi $p_ours" >&2; exit 1; }
    k_lp=$(echo "$lp" | kps)
    k_ours=$(python3 -c "import json; print('%.1f' % (json.loads('''$ours''')['primitives_per_s'] / 1e3))")
    row "$name" "VS TCS TES" "$p_ours" "-" "$k_lp" "$k_ours" "-" "$(ratio "$k_ours" "$k_lp")"
done
