#!/bin/bash
# The merged tree (main after rb-fast, st-fast, inside-fast and the memory
# check) on the GPU machine: the GPU tests, bench_inside with CGAL,
# bench_cpu (CPU engines only) with CGAL at 1, 2, 16 threads and the
# world map, bench_memory at 16 threads.
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc; lscpu | grep "Model name"
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('world.xgd.xz'), open('/tmp/world.xgd','wb'))"
for t in gpu_iv_t inside_gpu_t redblue_gpu_t delaunay_gpu_t regions_gpu_t; do
  el $t; XG_GPU_T_SMALL=1 timeout -s KILL 60 ./bin/$t > $OUT/$t.log 2>&1
  echo "$t rc=$? ok $(grep -c '^ok' $OUT/$t.log) notok $(grep -c '^not ok' $OUT/$t.log)"; grep '^not ok' $OUT/$t.log | head -3
done
el gpu_t small; XG_GPU_T_SMALL=1 timeout -s KILL 60 ./bin/gpu_t > $OUT/gpu_t.log 2>&1
echo "gpu_t rc=$? ok $(grep -c '^ok' $OUT/gpu_t.log) notok $(grep -c '^not ok' $OUT/gpu_t.log)"
el bench_inside; timeout -s KILL 130 ./bin/bench_inside -p ./bin/cgal_inside > $OUT/bench_inside.txt 2>&1; echo rc=$?; cat $OUT/bench_inside.txt
el bench_cpu; timeout -s KILL 230 ./bin/bench_cpu -n 2 -t 1,2,16 --world /tmp/world.xgd --cgal ./bin/cgal_pairs > $OUT/bench_cpu.txt 2>&1; echo rc=$?; cat $OUT/bench_cpu.txt
el bench_memory; timeout -s KILL 45 ./bin/bench_memory -S 1 -t 16 > $OUT/bench_memory.txt 2>&1; echo rc=$?; cat $OUT/bench_memory.txt
el done
