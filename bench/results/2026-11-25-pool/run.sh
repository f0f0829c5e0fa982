#!/bin/bash
# s29 final call 2 (main a0bf144): bench_inside with CGAL (median of 5), then the thread pool's A/B
# (bench_nopool: the same code linked with c7ea3c2's thread.c), alternated, inside and delaunay
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name --format=csv,noheader; lscpu | grep "Model name"
el bench_inside; timeout -s KILL 400 ./bin/bench_inside -r 5 -p ./bin/cgal_inside > $OUT/bench_inside.txt 2>&1; echo rc=$?; cat $OUT/bench_inside.txt
for v in nopool pool nopool pool; do b=./bin/bench_inside; [ $v = nopool ] && b=./bin/bench_nopool; el "inside $v"; timeout -s KILL 60 $b -g -r 5 > $OUT/b.txt 2>&1; echo rc=$?; grep -E "ours gpu|median|prepare" $OUT/b.txt | cut -c1-130; cat $OUT/b.txt >> $OUT/ab_inside_$v.txt; done
for v in nopool pool nopool pool; do b=./bin/bench_delaunay; [ $v = nopool ] && b=./bin/bench_delaunay_nopool; el "delaunay $v"; timeout -s KILL 100 $b -n 1000000,10000000 -s uniform -S 0 -P 0 -Q 0 -A 0 > $OUT/d.txt 2>&1; echo rc=$?; grep -E "points|ours" $OUT/d.txt | cut -c1-100; cat $OUT/d.txt >> $OUT/ab_delaunay_$v.txt; done
el done
