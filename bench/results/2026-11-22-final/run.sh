#!/bin/bash
# Final device run: GPU tests (paper-scale comparison), memcheck, Table 11.3 at 1x and 10x, red/blue.
cd "$(dirname "$0")"
set -u
export LD_LIBRARY_PATH=$PWD PATH=$PATH:/usr/local/cuda/bin
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,memory.total --format=csv | tee $OUT/gpu.txt
nproc
./gen_paper --scale 1 -o /tmp/p1.xgdump > $OUT/gen.log 2>&1 &
./gen_maps /tmp/m.xgd 500 >> $OUT/gen.log 2>&1 &
./gen_paper --scale 10 -o /tmp/p10.xgdump >> $OUT/gen.log 2>&1 &
wait
ls -la /tmp/*.xgd*; tail -3 $OUT/gen.log
el redblue_gpu_t
timeout -s KILL 90 ./redblue_gpu_t > $OUT/tests.log 2>&1; echo "rc=$?"
el gpu_t with paper set
XG_PAPER_DUMP=/tmp/p1.xgdump timeout -s KILL 120 ./gpu_t >> $OUT/tests.log 2>&1; echo "rc=$?"
echo "ok: $(grep -c '^ok' $OUT/tests.log)  not ok: $(grep -c '^not ok' $OUT/tests.log)"; grep "^not ok" $OUT/tests.log | head -5
el memcheck
XG_PAPER_DUMP= XG_GPU_T_SMALL=1 timeout -s KILL 70 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 ./gpu_t > $OUT/memcheck.log 2>&1; echo "memcheck gpu_t rc=$?"; tail -2 $OUT/memcheck.log
el bench_gpu 1x
timeout -s KILL 100 ./bench_gpu -n 3 -g 100,100,100 /tmp/p1.xgdump > $OUT/bench1.log 2>&1; echo "rc=$?"
el bench_gpu 10x
timeout -s KILL 150 ./bench_gpu -n 1 -g 316,316,100 /tmp/p10.xgdump > $OUT/bench10.log 2>&1; echo "rc=$?"
el bench_redblue
timeout -s KILL 100 ./bench_redblue /tmp/m.xgd 3 > $OUT/redblue.log 2>&1; echo "rc=$?"
el done
echo "######## red/blue"; grep -v "^  " $OUT/redblue.log | tail -12
echo "######## 1x"; sed -n '/^grid/,$p' $OUT/bench1.log
echo "######## 10x"; sed -n '/^grid/,$p' $OUT/bench10.log | tail -30
