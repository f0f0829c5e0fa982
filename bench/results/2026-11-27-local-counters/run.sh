#!/bin/bash
# s29 resumed: per-thread slots written once (pair_engine.c's box pass:
# hulls, counters, skips; delaunay_strips.c's strip counters) against
# main f449b0a, alternated twice in one call on the 16-thread GPU host:
# bench_cpu (four shapes, 2 and 16 threads, fastest of 3, every cpu run
# checked against seq) and bench_delaunay's cpu and gpu at 10^6 and 10^7
# uniform points.  lib_old/ holds f449b0a's libexactgeo.so.0, lib/ the
# change's; bench_delaunay(_old) link the library statically.
B=${1:-gpurun}; cd "$B"; export PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep "Model name"
for v in old new old new; do
  L=$PWD/lib; D=./bin/bench_delaunay; [ $v = old ] && { L=$PWD/lib_old; D=./bin/bench_delaunay_old; }
  el "bench_cpu $v"; LD_LIBRARY_PATH=$L:$PWD/lib timeout -s KILL 100 ./bin/bench_cpu -n 3 -t 2,16 > $OUT/c.txt 2>&1; echo rc=$?
  grep -E "^[a-z]+: [0-9]|^  cpu" $OUT/c.txt | cut -c1-100; cat $OUT/c.txt >> $OUT/bench_cpu_$v.txt
  el "bench_delaunay $v"; LD_LIBRARY_PATH=$PWD/lib timeout -s KILL 100 $D -n 1000000,10000000 -s uniform -S 0 -P 0 -Q 0 -A 0 > $OUT/d.txt 2>&1; echo rc=$?
  grep -E "points|ours|cpu|gpu" $OUT/d.txt | cut -c1-110 | head -10; cat $OUT/d.txt >> $OUT/bench_delaunay_$v.txt
done
el done
