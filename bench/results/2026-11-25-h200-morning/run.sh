#!/bin/bash
# Baseline on the H200 at session start (main 166b179): issue 14 with CuPy at
# 10^7 in the same run, and issue 13's bench_inside.
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc; lscpu | grep "Model name"
python3 -c "import cupy; print('cupy', cupy.__version__)"
el bench_inside; timeout -s KILL 200 ./bin/bench_inside -p ./bin/cgal_inside > $OUT/bench_inside.txt 2>&1; echo rc=$?; cat $OUT/bench_inside.txt
el bench_delaunay; timeout -s KILL 330 ./bin/bench_delaunay -t 16 -n 1e6,1e7 -S 1e6 -P 1e7 -Q 1e7 -H 1e6 -A 1e6 -L 60 -c ./bin/cgal_delaunay -y ./bin/peers_delaunay.py -w /tmp > $OUT/bench_delaunay.txt 2>&1; echo rc=$?; cat $OUT/bench_delaunay.txt
el done
