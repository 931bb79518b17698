#!/usr/bin/env bash
# Regenerate crates/tgsi-exec/tests/data/tessellator: the domain points llvmpipe's tessellator
# produces (gl_TessCoord captured by transform feedback) for every primitive mode, spacing,
# vertex order and point mode over a set of default levels, one patch each, no control shader.
# MANIFEST.tsv: name, mode, spacing, order, point mode, outer0..3, inner0..1, primitives.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../../crates/tgsi-exec/tests/data/tessellator"
[ -x "$here/stageref" ] || "$here/build.sh"
export GALLIUM_DRIVER=llvmpipe MESA_GL_VERSION_OVERRIDE=4.5 MESA_GLSL_VERSION_OVERRIDE=450
rm -f "$out"/*.bin
levels=(
  "1 1 1 1 1 1"
  "2 3 4 5 3 5"
  "1.5 2.7 3.3 4.9 2.2 3.8"
  "5 1 7 2 1 4"
  "0.3 2 3 2 0.7 0.2"
  "7.5 6.25 9 3 6.5 7.1"
  "0 2 2 2 2 2"
  "2 2 2 2 0 2"
  "20 17 19 16 18.5 15"
  "33 64 70 12 63.5 64"
)
printf 'name\tmode\tspacing\torder\tpoints\touter0\touter1\touter2\touter3\tinner0\tinner1\tprimitives\n' > "$out/MANIFEST.tsv"
for mode in triangles quads isolines; do
  for spacing in equal_spacing fractional_even_spacing fractional_odd_spacing; do
    for order in ccw cw; do
      for points in 0 1; do
        for i in "${!levels[@]}"; do
          # The large level sets only for ccw non-point patches (they test the same walk),
          # and the one clamped at 64 only with equal spacing outside isolines (size).
          if [ "$i" -ge 8 ] && { [ "$order" = cw ] || [ "$points" = 1 ]; }; then continue; fi
          if [ "$i" = 9 ] && [ "$mode" != isolines ] && [ "$spacing" != equal_spacing ]; then continue; fi
          read -r o0 o1 o2 o3 i0 i1 <<< "${levels[$i]}"
          name="${mode}-${spacing%_spacing}-${order}-p${points}-L${i}"
          n=$("$here/stageref" coords "$mode" "$spacing" "$order" "$points" $o0 $o1 $o2 $o3 $i0 $i1 "$out/$name.bin" | sed 's/generated //')
          printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$mode" "$spacing" "$order" "$points" $o0 $o1 $o2 $o3 $i0 $i1 "$n" >> "$out/MANIFEST.tsv"
        done
      done
    done
  done
done
echo "$(($(wc -l < "$out/MANIFEST.tsv") - 1)) cases, $(du -sh "$out" | cut -f1)"
