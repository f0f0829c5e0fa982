#!/bin/sh
# regions-core on the GPU: regions_gpu_t, bench_regions (segtri 1x paper,
# inside 10^7 points), compute-sanitizer memcheck on regions_gpu_t (small).
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/../lib PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc
t0=$(date +%s); el() { echo "=== [$(($(date +%s) - t0)) s] $*"; }
el test
timeout -s KILL 100 ./regions_gpu_t > "$OUT/regions_gpu_t.log" 2>&1; echo "regions_gpu_t exit $?"
echo "ok $(grep -c '^ok' "$OUT/regions_gpu_t.log"), not ok $(grep -c '^not ok' "$OUT/regions_gpu_t.log")"
grep '^not ok\|SKIP' "$OUT/regions_gpu_t.log" | head -8 | cut -c1-220
el gen; ./gen_paper --scale 1 -o /tmp/p1.xgdump > /dev/null 2>&1 || echo gen failed
el bench segtri
timeout -s KILL 70 ./bench_regions --gpus 0,0 -n 3 /tmp/p1.xgdump 2>&1 | tee "$OUT/bench_segtri.txt"
el bench inside
timeout -s KILL 50 ./bench_regions --gpus 0,0 -n 3 --no-cpu --inside 10000000 2>&1 | tee "$OUT/bench_inside.txt"
el memcheck
XG_REGIONS_GPU_T_SMALL=1 timeout -s KILL 110 compute-sanitizer --tool memcheck --leak-check full ./regions_gpu_t > "$OUT/memcheck.log" 2>&1; echo "memcheck exit $?"
grep -c '^ok' "$OUT/memcheck.log"; grep '^not ok' "$OUT/memcheck.log" | head -3; tail -4 "$OUT/memcheck.log"
el done
