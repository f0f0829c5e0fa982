#!/bin/bash
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc
el delaunay_gpu_t; timeout -s KILL 150 ./tests/delaunay_gpu_t > $OUT/delaunay_gpu_t.txt 2>&1; echo "rc=$? ok $(grep -c '^ok' $OUT/delaunay_gpu_t.txt) notok $(grep -c '^not ok' $OUT/delaunay_gpu_t.txt)"; grep '^not ok' $OUT/delaunay_gpu_t.txt | head -5
el memcheck; XG_GPU_T_SMALL=1 timeout -s KILL 100 compute-sanitizer --tool memcheck --error-exitcode 9 ./tests/delaunay_gpu_t > $OUT/memcheck.txt 2>&1; echo "rc=$? ok $(grep -c '^ok' $OUT/memcheck.txt)"; tail -2 $OUT/memcheck.txt
el bench; timeout -s KILL 270 ./bench/bench_delaunay -n 1e6,1e7 -S 1e6 -P 1e7 -Q 1e6 -A 1e6 -L 60 -c ./bench/cgal_delaunay -y ../bench/peers_delaunay.py -w /tmp > $OUT/bench_delaunay.txt 2>&1; echo "rc=$?"
el 1e8; timeout -s KILL 120 ./bench/bench_delaunay -n 1e8 -s uniform -S 0 -P 0 -A 0 >> $OUT/bench_delaunay.txt 2>&1; echo "rc=$?"
el done
