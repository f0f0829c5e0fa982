#!/bin/bash
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc
el gen; ./bench/gen_paper --scale 1 -o /tmp/p1.xgdump > $OUT/gen.log 2>&1
for t in gpu_iv_t redblue_gpu_t inside_gpu_t; do el $t; timeout -s KILL 120 ./tests/$t > $OUT/$t.log 2>&1; echo "rc=$? ok $(grep -c '^ok' $OUT/$t.log) notok $(grep -c '^not ok' $OUT/$t.log)"; grep '^not ok' $OUT/$t.log | head -3; done
el gpu_t paper; XG_PAPER_DUMP=/tmp/p1.xgdump timeout -s KILL 150 ./tests/gpu_t > $OUT/gpu_t.log 2>&1; echo "rc=$? ok $(grep -c '^ok' $OUT/gpu_t.log) notok $(grep -c '^not ok' $OUT/gpu_t.log)"
for t in gpu_t inside_gpu_t gpu_iv_t; do el memcheck $t; XG_PAPER_DUMP= XG_GPU_T_SMALL=1 timeout -s KILL 120 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 ./tests/$t > $OUT/mc_$t.log 2>&1; echo "rc=$?"; tail -1 $OUT/mc_$t.log; done
el done
