#!/bin/bash
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc
el 1e8; timeout -s KILL 250 ./bin/bench_delaunay -n 1e8 -s lattice,clustered -S 0 -P 0 -Q 0 -A 0 > $OUT/bench_delaunay_1e8b.txt 2>&1; echo "rc=$?"; cat $OUT/bench_delaunay_1e8b.txt
el audit 1e7; timeout -s KILL 320 ./bin/bench_delaunay -n 1e7 -S 0 -P 0 -Q 0 -A 1e7 > $OUT/bench_delaunay_audit.txt 2>&1; echo "rc=$?"; cat $OUT/bench_delaunay_audit.txt
el done
