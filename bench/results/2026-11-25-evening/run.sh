#!/bin/bash
# Issue 16 and 13 after the 25 Nov afternoon merges: bench_cpu (CPU engines,
# CGAL peer) at 1, 2, 16 threads with the world map; bench_inside (cpu and
# CGAL; gpu where built); the GPU tests where built.
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc; lscpu | grep "Model name"
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('../final3/world.xgd.xz'), open('/tmp/world.xgd','wb'))"
for t in gpu_iv_t inside_gpu_t redblue_gpu_t delaunay_gpu_t regions_gpu_t gpu_t; do
  [ -x bin/$t ] || continue
  el $t; XG_GPU_T_SMALL=1 timeout -s KILL 60 ./bin/$t > $OUT/$t.log 2>&1
  echo "$t rc=$? ok $(grep -c '^ok' $OUT/$t.log) notok $(grep -c '^not ok' $OUT/$t.log)"; grep '^not ok' $OUT/$t.log | head -3
done
el bench_cpu; timeout -s KILL 280 ./bin/bench_cpu -n ${RUNS:-3} -t 1,2,16 --world /tmp/world.xgd --cgal ./bin/cgal_pairs > $OUT/bench_cpu.txt 2>&1; echo rc=$?; cat $OUT/bench_cpu.txt
el bench_inside; timeout -s KILL 150 ./bin/bench_inside -p ./bin/cgal_inside $INSIDE_ARGS > $OUT/bench_inside.txt 2>&1; echo rc=$?; cat $OUT/bench_inside.txt
el done
