#!/bin/bash
# Session 4 final device run: GPU tests (paper-scale), memcheck, racecheck,
# Table 11.3 at 1x (5 runs) and 10x (3 runs).
cd "$(dirname "$0")"
set -u
export LD_LIBRARY_PATH=$PWD PATH=$PATH:/usr/local/cuda/bin
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.mem,memory.total --format=csv | tee $OUT/gpu.txt
nproc | tee -a $OUT/gpu.txt
./gen_paper --scale 1 -o /tmp/p1.xgdump > $OUT/gen.log 2>&1 &
./gen_paper --scale 10 -o /tmp/p10.xgdump >> $OUT/gen.log 2>&1 &
wait
el tests
timeout -s KILL 90 ./redblue_gpu_t > $OUT/tests.log 2>&1; echo "redblue_gpu_t rc=$?"
XG_PAPER_DUMP=/tmp/p1.xgdump timeout -s KILL 150 ./gpu_t >> $OUT/tests.log 2>&1; echo "gpu_t rc=$?"
echo "ok: $(grep -c '^ok' $OUT/tests.log)  not ok: $(grep -c '^not ok' $OUT/tests.log)"; grep "^not ok" $OUT/tests.log | head -5
grep -E "double-double|packed multi-block equals" $OUT/tests.log | head -8
el bench 1x
timeout -s KILL 150 ./bench_gpu -n 5 -g 100,100,100 /tmp/p1.xgdump > $OUT/bench1.log 2>&1; echo "rc=$?"
sed -n '/^grid/,$p' $OUT/bench1.log
el bench 10x
timeout -s KILL 240 ./bench_gpu -n 3 -g 316,316,100 /tmp/p10.xgdump > $OUT/bench10.log 2>&1; echo "rc=$?"
sed -n '/^grid/,$p' $OUT/bench10.log | grep -E "^(grid|  |Preproc|Memory|Intersection|Rationals|Ensure|Total|same|speedup|floor|candidate|box pairs, owned|interval-pass|points)"
el memcheck
XG_PAPER_DUMP= XG_GPU_T_SMALL=1 timeout -s KILL 90 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 ./gpu_t > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -2 $OUT/memcheck.log
el racecheck   # 277 s with 65 KB of staging per packed block: it ran in a call of its own
XG_PAPER_DUMP= XG_GPU_T_SMALL=1 timeout -s KILL 570 compute-sanitizer --tool racecheck --error-exitcode 9 ./gpu_t > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -1 $OUT/racecheck.log
el done
