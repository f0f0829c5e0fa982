#!/bin/sh
# regions-core on the GPU, second run: the test and memcheck again (after
# the selection change), bench_regions at 1x and 10x the paper's segtri
# (6 and 2 regions) and inside at 10^7 points.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/../lib PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc
t0=$(date +%s); el() { echo "=== [$(($(date +%s) - t0)) s] $*"; }
el test
timeout -s KILL 60 ./regions_gpu_t > "$OUT/regions_gpu_t.txt" 2>&1; echo "regions_gpu_t exit $?"
echo "ok $(grep -c '^ok' "$OUT/regions_gpu_t.txt"), not ok $(grep -c '^not ok' "$OUT/regions_gpu_t.txt")"
XG_REGIONS_GPU_T_SMALL=1 timeout -s KILL 60 compute-sanitizer --tool memcheck --leak-check full ./regions_gpu_t > "$OUT/memcheck.txt" 2>&1; echo "memcheck exit $?"
tail -2 "$OUT/memcheck.txt"
el gen
./gen_paper --scale 1 -o /tmp/p1.xgdump > /dev/null 2>&1 &
./gen_paper --scale 10 -o /tmp/p10.xgdump > /dev/null 2>&1 &
wait
el bench
{
timeout -s KILL 40 ./bench_regions --gpus 0,0 -n 3 /tmp/p1.xgdump
timeout -s KILL 60 ./bench_regions --gpus 0,0 -n 3 /tmp/p10.xgdump
timeout -s KILL 40 ./bench_regions --gpus 0,0 --regions 2 -n 3 --no-cpu /tmp/p10.xgdump
timeout -s KILL 40 ./bench_regions --gpus 0,0 -n 3 --no-cpu --inside 10000000
} 2>&1 | tee "$OUT/bench.txt"
el done
