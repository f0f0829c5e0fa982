#!/bin/bash
# rb-world2 (issue 16, world map), call 2: bench_cpu world only, before
# (lib_main = final4's, main c400856) and after (lib_new = branch
# rb-world2), then drv2 (xg_redblue cpu, fastest of 10, stage split) on
# variants: main, new, noscan (SCAN_THREADS 1), big4 (BIG 4 MiB).
cd "$(dirname "$0")"; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
nproc; lscpu | grep -E "Model name"; uptime
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('../final3/world.xgd.xz'), open('/tmp/world.xgd','wb'))"
b() { echo "=== bench_cpu $1"; LD_LIBRARY_PATH=$PWD/lib_$1:$PWD/lib timeout -s KILL 40 ./bin/bench_cpu -s '' -n 5 -t 1,2,16 --world /tmp/world.xgd --cgal ./bin/cgal_pairs > $OUT/bench_$1$2.txt 2>&1; grep -E "^  (cpu|seq)|checks" $OUT/bench_$1$2.txt; }
b main; b new
echo "=== drv2 variants"
for r in 1 2; do for t in 2 16 1; do for v in main new noscan big4; do
  echo "$v T$t $(LD_LIBRARY_PATH=$PWD/lib_$v:$PWD/lib timeout -s KILL 10 ./bin/drv2 /tmp/world.xgd $t 10 | tail -1)"
done; done; done 2>&1 | tee $OUT/drv2.txt
b new _2; b main _2
