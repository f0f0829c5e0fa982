#!/bin/bash
# s29: the first machine of several GPUs lent (4 GPUs): regions_gpu_t on
# distinct devices (the kept worker threads of thread.c on every device),
# memcheck of its small sets, then bench_regions over 1, 2 and 4 devices:
# segtri at 1x, 10x and 100x the paper's scale, inside at 10^8 points.
# Programs from main (6ea1604 + regions_gpu_t's device configurations),
# built on the 2-core VM for sm_90, static CUDA runtime; run as
#   bash bench/results/2026-11-27-multigpu/run.sh gpurun
B=${1:-gpurun}; cd "$B"; export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin
export NCCL_NVLS_ENABLE=0
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; nproc; lscpu | grep "Model name"
nvidia-smi topo -m 2>&1 | head -8
el regions_gpu_t; timeout -s KILL 150 ./bin/regions_gpu_t > $OUT/regions_gpu_t.txt 2>&1
echo "rc=$? ok $(grep -c '^ok' $OUT/regions_gpu_t.txt) notok $(grep -c '^not ok' $OUT/regions_gpu_t.txt)"; grep -E '^not ok|^# ' $OUT/regions_gpu_t.txt | head -5
el "memcheck regions_gpu_t (small)"; XG_REGIONS_GPU_T_SMALL=1 timeout -s KILL 150 compute-sanitizer --tool memcheck --error-exitcode 9 ./bin/regions_gpu_t > $OUT/mc_regions_gpu_t.txt 2>&1
echo "rc=$? ok $(grep -c '^ok' $OUT/mc_regions_gpu_t.txt) notok $(grep -c '^not ok' $OUT/mc_regions_gpu_t.txt)"; grep "ERROR SUMMARY" $OUT/mc_regions_gpu_t.txt
el gen; ./bin/gen_paper --scale 1 -o /tmp/p1.xgdump > /dev/null & ./bin/gen_paper --scale 10 -o /tmp/p10.xgdump > /dev/null & ./bin/gen_paper --scale 100 -o /tmp/p100.xgdump > /dev/null & wait
b() { local l=$1 t=$2; shift 2; el "$l"; timeout -s KILL $t ./bin/bench_regions --no-cpu --regions 12 "$@" 2>&1 | tee -a $OUT/bench.txt; }
b "segtri 1x, 4 devices" 40 --gpus 0,1,2,3 -n 3 /tmp/p1.xgdump
b "segtri 1x, 2 devices" 40 --gpus 0,1 -n 3 /tmp/p1.xgdump
b "segtri 10x, 4 devices" 60 --gpus 0,1,2,3 -n 3 /tmp/p10.xgdump
b "segtri 10x, 2 devices" 60 --gpus 0,1 -n 3 /tmp/p10.xgdump
b "inside 10^8, 4 devices" 90 --gpus 0,1,2,3 -n 1 --inside 100000000
b "segtri 100x, 4 devices" 150 --gpus 0,1,2,3 -n 1 /tmp/p100.xgdump
b "segtri 100x, 2 devices" 100 --gpus 0,1 -n 1 /tmp/p100.xgdump
el done
