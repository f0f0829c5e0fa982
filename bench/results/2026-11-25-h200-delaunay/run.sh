#!/bin/bash
# Issue 14 at c76fa84 on the H200: the GPU test (with 10^5 points on a
# circle, timed), memcheck (small), bench_delaunay with CuPy at 10^7, and
# 10^8 uniform points.
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc; lscpu | grep "Model name"
el delaunay_gpu_t; timeout -s KILL 120 ./bin/delaunay_gpu_t > $OUT/delaunay_gpu_t.txt 2>&1; echo "rc=$? ok $(grep -c '^ok' $OUT/delaunay_gpu_t.txt) notok $(grep -c '^not ok' $OUT/delaunay_gpu_t.txt)"; grep '^not ok\|^# .*circle' $OUT/delaunay_gpu_t.txt | head -8
el memcheck; XG_GPU_T_SMALL=1 timeout -s KILL 90 compute-sanitizer --tool memcheck --error-exitcode 9 ./bin/delaunay_gpu_t > $OUT/memcheck.txt 2>&1; echo "rc=$? ok $(grep -c '^ok' $OUT/memcheck.txt) notok $(grep -c '^not ok' $OUT/memcheck.txt)"; tail -2 $OUT/memcheck.txt
el bench; timeout -s KILL 300 ./bin/bench_delaunay -t 16 -n 1e6,1e7 -S 1e6 -P 1e7 -Q 1e7 -H 1e6 -A 1e6 -L 60 -c ./bin/cgal_delaunay -y ./bin/peers_delaunay.py -w /tmp > $OUT/bench_delaunay.txt 2>&1; echo rc=$?; grep -E "^[a-z]|ours|CGAL DT2 \(|CuPy|audit" $OUT/bench_delaunay.txt | cut -c1-150
el 1e8; timeout -s KILL 100 ./bin/bench_delaunay -t 16 -n 1e8 -s uniform -S 0 -P 0 -Q 0 -A 0 > $OUT/bench_1e8.txt 2>&1; echo rc=$?; cat $OUT/bench_1e8.txt
el done
