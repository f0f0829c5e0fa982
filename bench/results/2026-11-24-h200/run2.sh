#!/bin/bash
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc
el 1e8; timeout -s KILL 200 ./bin/bench_delaunay -n 1e8 -s uniform -S 0 -P 0 -A 0 > $OUT/bench_delaunay_1e8.txt 2>&1; echo "rc=$?"; cat $OUT/bench_delaunay_1e8.txt
el bench_cpu; gunzip -c data/world.xgd.gz > /tmp/world.xgd; timeout -s KILL 330 ./bin/bench_cpu -n 2 -t 1,2,16 --world /tmp/world.xgd --cgal ./bin/cgal_pairs > $OUT/bench_cpu_16.txt 2>&1; echo "rc=$?"
el done
