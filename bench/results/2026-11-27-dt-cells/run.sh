#!/bin/bash
# s29 resumed: the slow proof's grid cells in ascending order
# (delaunay_strips.c's cell_sort_worker) against main d6c8f38 (old),
# on the 16-thread GPU host: delaunay_gpu_t, then bench_delaunay's cpu
# and gpu at 10^6 and 10^7 uniform points, alternated twice; the cpu
# engine's predicate count must not move between runs of the new binary.
B=${1:-gpurun}; cd "$B"; export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name --format=csv,noheader; nproc
el delaunay_gpu_t; timeout -s KILL 200 ./bin/delaunay_gpu_t > $OUT/delaunay_gpu_t.txt 2>&1
echo "rc=$? ok $(grep -c '^ok' $OUT/delaunay_gpu_t.txt) notok $(grep -c '^not ok' $OUT/delaunay_gpu_t.txt)"; grep '^not ok' $OUT/delaunay_gpu_t.txt | head -3
for v in old new old new; do D=./bin/bench_delaunay; [ $v = old ] && D=./bin/bench_delaunay_old
  el "bench_delaunay $v"; timeout -s KILL 100 $D -n 1000000,10000000 -s uniform -S 0 -P 0 -Q 0 -A 0 > $OUT/d.txt 2>&1; echo rc=$?
  grep -E "ours|identical" $OUT/d.txt | cut -c1-120; cat $OUT/d.txt >> $OUT/bench_delaunay_$v.txt
done
el done
