#!/bin/bash
# Issue 31, item 3: makes the folder run.sh runs on the GPU machine (from
# a built tree with CUDA, sm_90, static CUDA runtime, as configure sets it
# up): this tree's bench_inside and the tests that touch the self-crossing
# check, the base's bench_inside (a built tree of 2c57d1c, before the
# check), and the two shared libraries they need.
#   bash bench/results/2026-11-27-selfx/prep.sh [FOLDER]    (default gpurun)
#   BASE=/path/to/built/base  (default /work/base)
set -e
R=$(cd "$(dirname "$0")/../../.." && pwd)
BASE=${BASE:-/work/base}
G=${1:-$R/gpurun}
make -C "$R" -j2 bench/bench_inside tests/inside_t tests/inside_gpu_t tests/selfx_t > /dev/null
rm -rf "$G"
mkdir -p "$G/bin" "$G/lib"
cp "$R/bench/bench_inside" "$G/bin/bench_inside"
cp "$BASE/bench/bench_inside" "$G/bin/bench_inside_base"
for t in inside_t inside_gpu_t selfx_t; do cp "$R/tests/$t" "$G/bin/"; done
strip "$G"/bin/*
cp /lib/x86_64-linux-gnu/libgmp.so.10 /lib/x86_64-linux-gnu/libstdc++.so.6 "$G/lib/"
echo "$(git -C "$R" rev-parse --short HEAD) and base $(git -C "$BASE" rev-parse --short HEAD) in $G ($(du -sh "$G" | cut -f1))"
