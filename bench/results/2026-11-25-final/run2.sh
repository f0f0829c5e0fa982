#!/bin/bash
# Final call 2 (main 086c1d0): issue 16's bench_cpu, CPU engines only, at
# 1, 2 and 16 threads, every shape and the world map, fastest of 3; then
# bench_inside of main before in-gpu (c400856, "old") and after ("new"),
# alternated, without the CGAL peer.
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD/lib
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nproc; lscpu | grep "Model name"
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('../final3/world.xgd.xz'), open('/tmp/world.xgd','wb'))"
el bench_cpu; timeout -s KILL 330 ./bin/bench_cpu -n 3 -t 1,2,16 --world /tmp/world.xgd --cgal ./bin/cgal_pairs > $OUT/bench_cpu.txt 2>&1; echo rc=$?; cat $OUT/bench_cpu.txt
for v in old new old new; do
  b=./bin/bench_inside; [ $v = old ] && b=./bin/bench_inside_old
  el "bench_inside $v"; timeout -s KILL 70 $b > $OUT/bench_inside_$v.txt 2>&1; echo rc=$?; grep -E "^== case|ours gpu|prepare|^cpu" $OUT/bench_inside_$v.txt | grep -v generating | cut -c1-110 >> $OUT/inside_ab.txt; grep -E "^== case|ours gpu|prepare" $OUT/bench_inside_$v.txt | cut -c1-110
done
el done
