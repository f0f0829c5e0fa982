#!/bin/bash
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
el test; timeout -s KILL ${TT:-150} ./delaunay_gpu_t > $OUT/t.log 2>&1; echo "rc=$? ok $(grep -c '^ok' $OUT/t.log) notok $(grep -c '^not ok' $OUT/t.log)"; grep '^not ok' $OUT/t.log | head -5; tail -3 $OUT/t.log
if [ -n "$BENCH" ]; then el bench; XG_DT_PROFILE=1 timeout -s KILL ${TB:-150} ./delaunay_gpu_t bench $BENCH_N 2>&1 | tee $OUT/bench.log; fi
if [ -n "$MC" ]; then el memcheck; XG_GPU_T_SMALL=1 timeout -s KILL ${TM:-200} compute-sanitizer --tool memcheck --error-exitcode 9 ./delaunay_gpu_t > $OUT/mc.log 2>&1; echo "rc=$?"; grep -c '^ok' $OUT/mc.log; grep -v '^ok' $OUT/mc.log | tail -5; fi
el done
