#!/bin/sh
# Texture sampling and compute dispatch speed of `tgsi bench` against Mesa softpipe and
# llvmpipe (one thread each), in the same run, as ratios.
#
#   scripts/bench-texture.sh [SECONDS]
#
# Makes three reference cases with shared/tools/texref and shared/tools/csref, which also
# time softpipe and llvmpipe (LP_NUM_THREADS=1) on them:
#   bilinear   256x256 pixels, 8 bilinear 2-D samples each (RGBA8 256x256, no mipmaps)
#   trilinear  256x256 pixels, 8 trilinear 2-D samples each (RGBA8 256x256, 9 levels)
#   transpose  a compute shader: 64 workgroups of 256 invocations, a vec4 tile transposed
#              through shared memory and a tree reduction with 9 barriers
# then checks that `tgsi render`/`tgsi run` reproduce softpipe's results bit for bit and
# times `tgsi bench --engine all --threads 1` (interpreter and JIT) on the same TGSI,
# constants and bindings (at least SECONDS seconds each, default 1). Samples/s = 8 x pixels/s.
# KEEP_WORK=1 keeps the cases (in $TMPDIR) for profiling.
#
# Needs: build-essential libegl-dev libgl-dev libgl1-mesa-dri (Debian 12), python3.
set -eu
secs=${1:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${TGSI_SHARED:-$root/../shared}
work=$(mktemp -d)
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT

for tool in texref csref; do
    cp "$shared/tools/$tool/$tool.c" "$shared/tools/$tool/refcommon.h" "$work/"
    cc -O2 -Wall -Wno-unused-function -o "$work/$tool" "$work/$tool.c" -lEGL -lOpenGL -lm
done
cargo build --release -q -p tgsi-cli --manifest-path "$root/Cargo.toml"
tgsi="$root/target/release/tgsi"

frag() { # frag NAME MIN_FILTER LEVELS SCALE
    mkdir -p "$work/in/$1"
    cat >"$work/in/$1/shader.frag" <<EOF
#version 450
uniform vec2 WinSize;
out vec4 color;
layout(binding = 0) uniform sampler2D t;
void main()
{
   vec2 uv = gl_FragCoord.xy / WinSize * $4;
   vec4 c = vec4(0.0);
   for (int k = 0; k < 8; k++)
      c += texture(t, uv + vec2(float(k) * 0.013, float(k) * 0.007));
   color = c;
}
EOF
    printf 'texture 0\ntarget 2D\nformat RGBA8\nsize 256 256\nlevels %s\nmin_filter %s\nmag_filter LINEAR\nwrap REPEAT\n' \
        "$3" "$2" >"$work/in/$1/textures.txt"
    echo "vec2 WinSize W H" >"$work/in/$1/uniforms.txt"
    echo "texref: $1 (softpipe and llvmpipe)" >&2
    "$work/texref" -f "$work/in/$1/shader.frag" -x "$work/in/$1/textures.txt" \
        -u "$work/in/$1/uniforms.txt" -W 256 -H 256 -B 256x256 -t "$secs" "$work/$1" \
        >"$work/$1.log" 2>&1
    python3 "$root/scripts/ref2bindings.py" "$work/$1" >"$work/$1.json"
    "$tgsi" render "$work/$1/shader.tgsi" --size 256x256 --consts "$work/$1/consts.txt" \
        --bindings "$work/$1.json" --clear=-1,-2,-3,-4 --raw "$work/$1.f32"
    cmp -s "$work/$1.f32" "$work/$1/ref.f32" && exact=bit-exact || exact=DIFFERENT
    "$tgsi" bench "$work/$1/shader.tgsi" --size 256x256 --consts "$work/$1/consts.txt" \
        --bindings "$work/$1.json" --engine all --threads 1 --min-time "$secs" --json \
        >"$work/$1.bench"
    interp=$(sed -n 's/.*"engine":"interp".*"mpix_per_s":\([0-9.]*\).*/\1/p' "$work/$1.bench")
    jit=$(sed -n 's/.*"engine":"jit".*"mpix_per_s":\([0-9.]*\).*/\1/p' "$work/$1.bench")
    sp=$(sed -n 's/.*"mpix_s_softpipe": *\([0-9.]*\).*/\1/p' "$work/$1/meta.json")
    lp=$(sed -n 's/.*"mpix_s_llvmpipe_1thread": *\([0-9.]*\).*/\1/p' "$work/$1/meta.json")
    printf '%-10s %12.2f %12.2f %12.2f %12.2f %9.2fx %9.2fx  %s\n' "$1" \
        "$(echo "$sp * 8" | bc -l)" "$(echo "$lp * 8" | bc -l)" "$(echo "$interp * 8" | bc -l)" \
        "$(echo "$jit * 8" | bc -l)" "$(echo "$interp / $sp" | bc -l)" \
        "$(echo "$jit / $lp" | bc -l)" "$exact" >>"$work/table"
}

compute() {
    mkdir -p "$work/in/transpose"
    cat >"$work/in/transpose/shader.comp" <<'EOF'
#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer In { vec4 m[]; } inp;
layout(std430, binding = 1) writeonly buffer Out { vec4 m[]; } outp;
shared vec4 tile[16][17];
shared float red[256];
void main()
{
   uvec2 l = gl_LocalInvocationID.xy, g = gl_WorkGroupID.xy;
   uint w = gl_NumWorkGroups.x * 16u;
   vec4 x = inp.m[(g.y * 16u + l.y) * w + g.x * 16u + l.x];
   tile[l.y][l.x] = x;
   red[gl_LocalInvocationIndex] = dot(x, vec4(1.0, -0.5, 0.25, 2.0));
   barrier();
   for (uint s = 128u; s > 0u; s >>= 1) {
      if (gl_LocalInvocationIndex < s) red[gl_LocalInvocationIndex] += red[gl_LocalInvocationIndex + s];
      barrier();
   }
   outp.m[(g.x * 16u + l.y) * w + g.y * 16u + l.x] = tile[l.x][l.y] + vec4(red[0]);
}
EOF
    printf 'grid 8 8 1\nssbo binding=0 name=in bytes=262144 content=f32 seed=5\nssbo binding=1 name=out bytes=262144 content=zero\n' \
        >"$work/in/transpose/bindings.txt"
    echo "csref: transpose (softpipe and llvmpipe)" >&2
    "$work/csref" -c "$work/in/transpose/shader.comp" -b "$work/in/transpose/bindings.txt" \
        -t "$secs" "$work/transpose" >"$work/transpose.log" 2>&1
    mkdir -p "$work/run"
    python3 "$root/scripts/ref2bindings.py" "$work/transpose" "$work/run" >"$work/transpose.json"
    "$tgsi" run "$work/transpose/shader.tgsi" --bindings "$work/transpose.json" 2>/dev/null
    cmp -s "$work/run/out_out.bin" "$work/transpose/out_out.bin" && exact=bit-exact || exact=DIFFERENT
    ours=$("$tgsi" bench "$work/transpose/shader.tgsi" --bindings "$work/transpose.json" \
        --engine interp --threads 1 --min-time "$secs" --json 2>/dev/null |
        sed -n 's/.*"us_per_dispatch":\([0-9.]*\).*/\1/p')
    sp=$(sed -n 's/.*"us_per_dispatch_softpipe": *\([0-9.]*\).*/\1/p' "$work/transpose/meta.json")
    lp=$(sed -n 's/.*"us_per_dispatch_llvmpipe_1thread": *\([0-9.]*\).*/\1/p' "$work/transpose/meta.json")
    printf '%-10s %12.1f %12.1f %12.1f %12s %9.2fx %9.2fx  %s\n' transpose "$sp" "$lp" "$ours" - \
        "$(echo "$sp / $ours" | bc -l)" "$(echo "$lp / $ours" | bc -l)" "$exact" >>"$work/table"
}

frag bilinear LINEAR 1 1.0
frag trilinear LINEAR_MIPMAP_LINEAR 9 2.7
compute
printf '%-10s %12s %12s %12s %12s %10s %10s\n' case softpipe llvmpipe-1t interp-1t jit-1t \
    interp/sp jit/lp1
printf '%-10s %s\n' "" "(Msamples/s; transpose: us per dispatch, interpreter only: the JIT leaves compute to it)"
cat "$work/table"
