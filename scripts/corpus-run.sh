#!/usr/bin/env bash
# Run every corpus shader the way a new user would: fragment shaders through
# `tgsi render --size 8x8`, vertex shaders through `tgsi run --count 4`, compute shaders
# through `tgsi run --grid 1,1,1` (no bindings: unbound slots read zero), geometry shaders
# through `tgsi run --count 4` (4 input primitives, inputs 0). Prints, per stage,
# how many ran and the most common errors.
# Usage: scripts/corpus-run.sh [CORPUS_DIR ...]   (default: ../shared/corpus/{mesa,virgl})
set -uo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p tgsi-cli
bin=target/release/tgsi
dirs=("$@")
[ ${#dirs[@]} -eq 0 ] && dirs=(../shared/corpus/mesa ../shared/corpus/virgl)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find "${dirs[@]}" -name '*.tgsi' | sort > "$tmp/files"
while read -r f; do
  stage=$(grep -m1 -oE '^(FRAG|VERT|COMP|GEOM|TESS_CTRL|TESS_EVAL)' "$f")
  case "$stage" in
    FRAG) cmd=("$bin" render "$f" --size 8x8 --raw /dev/null) ;;
    VERT) cmd=("$bin" run "$f" --count 4 -o /dev/null) ;;
    COMP) cmd=("$bin" run "$f" --grid 1,1,1) ;;
    GEOM) cmd=("$bin" run "$f" --count 4 -o /dev/null) ;;
    *) continue ;;
  esac
  if err=$(timeout 20 "${cmd[@]}" 2>&1 >/dev/null); then
    echo "$stage ok" >> "$tmp/results"
  else
    echo "$stage fail $(echo "$err" | grep -m1 error | sed -E 's/^[^:]*:([0-9]+:[0-9]+: )?//; s/instruction [0-9]+: //')" >> "$tmp/results"
  fi
done < "$tmp/files"
for s in FRAG VERT COMP GEOM; do
  ok=$(grep -c "^$s ok" "$tmp/results")
  all=$(grep -c "^$s " "$tmp/results")
  echo "$s: $ok / $all ran"
  grep "^$s fail" "$tmp/results" | cut -d' ' -f3- | sort | uniq -c | sort -rn | head -5
done
