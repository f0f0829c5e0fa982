#!/bin/sh
# bench/run.sh -- generate the paper-scale data set (once) and benchmark
# xg_segtri's seq and cpu engines on it.
#
#   bench/run.sh [SCALE [RUNS [THREADS]]]
#
# SCALE 1 (default) is the paper's size (1e6 triangles, 7,846 segments)
# on a 100^3 grid; SCALE S uses a grid of the same cell size (the data's
# square grows by sqrt(S) per side).  Run from the build directory (where
# bench/gen_paper and bench/bench_segtri were built by `make`).
set -eu
scale=${1:-1}
runs=${2:-3}
threads=${3:-0}
dump=bench/data/paper-x$scale.xgdump
mkdir -p bench/data
if [ ! -f "$dump" ]; then
    bench/gen_paper --scale "$scale" -o "$dump"
fi
nxy=$(awk -v s="$scale" 'BEGIN { printf "%d", 100 * sqrt(s) + 0.5 }')
exec bench/bench_segtri -n "$runs" -t "$threads" -g "$nxy,$nxy,100" "$dump"
