#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer on stable Rust (SanitizerCoverage via RUSTFLAGS; no
# cargo-fuzz / nightly needed) and runs one of them.
#
#   fuzz/run.sh TARGET SECONDS [extra libFuzzer flags...]
#
# TARGET is parse_text, decode_tokens, roundtrip_structured, exec_text, exec_bindings, jit_text
# or translate_text. The corpus lives in
# fuzz/corpus/TARGET (seeded from ../shared/corpus on first use: .tgsi files for text,
# golden/**/*.tokens for tokens); crashes go to fuzz/artifacts/TARGET/.
set -euo pipefail

target=${1:?usage: run.sh TARGET SECONDS}
seconds=${2:?usage: run.sh TARGET SECONDS}
shift 2

here=$(cd "$(dirname "$0")" && pwd)
shared=${TGSI_SHARED:-$here/../../shared}
triple=x86_64-unknown-linux-gnu

export RUSTFLAGS="-Cpasses=sancov-module \
  -Cllvm-args=-sanitizer-coverage-level=4 \
  -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
  -Cllvm-args=-sanitizer-coverage-pc-table \
  -Cllvm-args=-sanitizer-coverage-trace-compares \
  --cfg fuzzing -Cdebug-assertions -Coverflow-checks"
# --target keeps RUSTFLAGS away from build scripts (else: undefined __sanitizer_cov_*).
cargo build --release --target "$triple" --manifest-path "$here/Cargo.toml" --bin "$target" \
  -j "${FUZZ_JOBS:-2}"

corpus=$here/corpus/$target
artifacts=$here/artifacts/$target
mkdir -p "$corpus" "$artifacts"
if [ -z "$(ls -A "$corpus")" ] && [ -d "$shared/corpus" ]; then
  case $target in
    parse_text|exec_text|jit_text|translate_text)
      find "$shared/corpus" -name '*.tgsi' -not -path '*/golden*' -print0 |
        while IFS= read -r -d '' f; do cp "$f" "$corpus/$(sha1sum <"$f" | cut -c1-40)"; done ;;
    decode_tokens)
      find "$shared/corpus/golden" -name '*.tokens' -print0 |
        while IFS= read -r -d '' f; do cp "$f" "$corpus/$(sha1sum <"$f" | cut -c1-40)"; done ;;
    exec_bindings)
      # Every texref/csref case of the repo: its bindings (data files dropped), NUL, its
      # shader, NUL, the first 256 bytes of its first data file.
      for case in "$here"/../crates/tgsi-exec/tests/data/{texref,csref}/*/; do
        python3 - "$case" "$here/../scripts/ref2bindings.py" >"$corpus/case-$(basename "$case")" <<'PY'
import glob, json, os, subprocess, sys
case, conv = sys.argv[1], sys.argv[2]
doc = json.loads(subprocess.run([sys.executable, conv, case, "/tmp"], capture_output=True,
                                check=True, text=True).stdout)
data = [r.pop("data", None) for r in doc["resources"]]
for r in doc["resources"]:
    r.pop("out", None)
first = next((d for d in data if d), None)
fill = open(first, "rb").read(256) if first else b""
out = sys.stdout.buffer
out.write(json.dumps(doc).encode() + b"\0" + open(os.path.join(case, "shader.tgsi"), "rb").read() + b"\0" + fill)
PY
      done ;;
    *) ;; # roundtrip_structured starts from nothing: its input is generator bytes.
  esac
  # The hand-written hostile inputs make good seeds too.
  hostile=$here/../crates/tgsi/tests/hostile
  if [ -d "$hostile" ]; then
    case $target in
      parse_text|exec_text|jit_text|translate_text) for f in "$hostile"/*.tgsi; do [ -e "$f" ] && cp "$f" "$corpus/hostile-$(basename "$f")"; done ;;
      decode_tokens) for f in "$hostile"/*.bin; do [ -e "$f" ] && cp "$f" "$corpus/hostile-$(basename "$f")"; done ;;
    esac
  fi
fi

exec "$here/target/$triple/release/$target" "$corpus" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$artifacts/" -print_final_stats=1 "$@"
