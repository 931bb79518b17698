#!/bin/sh
# Build stageref (Debian 12: build-essential libegl-dev libgl-dev; Mesa's libgl1-mesa-dri).
set -e
cd "$(dirname "$0")"
cc -O2 -Wall -o stageref stageref.c -lEGL -lOpenGL
echo "built $(pwd)/stageref"
