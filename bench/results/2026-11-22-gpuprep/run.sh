#!/bin/bash
# gpuprep device run: tests (paper-scale comparison), Table 11.3 at 1x and 10x
cd "$(dirname "$0")"
set -u
export LD_LIBRARY_PATH=$PWD PATH=$PATH:/usr/local/cuda/bin
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,memory.total --format=csv | tee $OUT/gpu.txt
./gen_paper --scale 1 -o /tmp/p1.xgdump > /dev/null 2>&1 &
./gen_paper --scale 10 -o /tmp/p10.xgdump > /dev/null 2>&1 &
wait
el redblue_gpu_t
timeout -s KILL 60 ./redblue_gpu_t > $OUT/tests.log 2>&1; echo "redblue_gpu_t rc=$?"
el gpu_t with paper set
XG_PAPER_DUMP=/tmp/p1.xgdump timeout -s KILL 100 ./gpu_t >> $OUT/tests.log 2>&1; echo "gpu_t rc=$?"
echo "ok: $(grep -c '^ok' $OUT/tests.log)  not ok: $(grep -c '^not ok' $OUT/tests.log)"; grep "^not ok" $OUT/tests.log | head -8; grep "prepared on the GPU" $OUT/tests.log | head -4
el bench_gpu 1x
timeout -s KILL 120 ./bench_gpu -n 3 -g 100,100,100 /tmp/p1.xgdump > $OUT/bench1.log 2>&1; echo "bench1 rc=$?"
el bench_gpu 10x
timeout -s KILL 170 ./bench_gpu -n 1 -g 316,316,100 /tmp/p10.xgdump > $OUT/bench10.log 2>&1; echo "bench10 rc=$?"
el done
echo "######## 1x"; sed -n '/^grid/,$p' $OUT/bench1.log | grep -v "relaunch\|count pass\|interval pass\|filter failures"
echo "######## 10x"; sed -n '/^grid/,$p' $OUT/bench10.log | grep -v "relaunch\|count pass\|interval pass\|filter failures"
