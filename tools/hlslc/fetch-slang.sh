#!/usr/bin/env bash
# Puts Slang's compiler library where tools/hlslc and tgsi-naga's tests look for it:
# DIR/libslang-compiler.so (DIR: the first argument, or target/slang of the repository).
# Slang ships it, with the SPIRV-Tools library it loads (libslang-glslang), in the slangpy
# wheel on PyPI; only those two files are kept (about 40 MB).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${1:-$root/target/slang}"
version=0.43.1
if [ -f "$dir/libslang-compiler.so" ]; then
    echo "Slang is already in $dir"
    exit 0
fi
mkdir -p "$dir/wheel"
python3 -m pip download --quiet --no-deps --only-binary :all: --python-version 3.11 \
    --platform manylinux_2_34_x86_64 -d "$dir/wheel" "slangpy==$version"
python3 - "$dir" <<'PY'
import glob, os, sys, zipfile
out = sys.argv[1]
wheel = glob.glob(os.path.join(out, "wheel", "slangpy-*.whl"))[0]
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        base = os.path.basename(name)
        if base.startswith("libslang-compiler.so"):
            target = "libslang-compiler.so"
        elif base.startswith("libslang-glslang-"):
            target = base
        else:
            continue
        with z.open(name) as src, open(os.path.join(out, target), "wb") as dst:
            dst.write(src.read())
PY
rm -rf "$dir/wheel"
ls -l "$dir"
