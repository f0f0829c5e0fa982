#!/bin/bash
# s29 final call 1 (the commit's code): GPU tests, memcheck, inside_gpu_t 10 times on 2 cores, the CPU test programs on a GPU machine
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc; lscpu | grep "Model name"
for t in gpu_iv_t inside_gpu_t redblue_gpu_t delaunay_gpu_t regions_gpu_t gpu_t; do
  el $t; if [ $t = gpu_t ]; then export XG_GPU_T_SMALL=1; fi
  timeout -s KILL 120 ./bin/$t > $OUT/$t.txt 2>&1
  echo "$t rc=$? ok $(grep -c '^ok' $OUT/$t.txt) notok $(grep -c '^not ok' $OUT/$t.txt)"; grep '^not ok' $OUT/$t.txt | head -3
done
unset XG_GPU_T_SMALL
for t in inside_gpu_t redblue_gpu_t gpu_t; do
  el memcheck $t; XG_INSIDE_GPU_T_SMALL=1 XG_GPU_T_SMALL=1 timeout -s KILL 150 compute-sanitizer --tool memcheck --error-exitcode 9 ./bin/$t > $OUT/mc_$t.txt 2>&1
  echo "rc=$? ok $(grep -c '^ok' $OUT/mc_$t.txt) notok $(grep -c '^not ok' $OUT/mc_$t.txt)"; grep "ERROR SUMMARY" $OUT/mc_$t.txt
done
el "inside_gpu_t x10 on 2 cores"; bad=0; for i in $(seq 10); do taskset -c 0,1 timeout -s KILL 120 ./bin/inside_gpu_t > $OUT/rep.txt 2>&1 || bad=$((bad+1)); grep -q '^not ok' $OUT/rep.txt && bad=$((bad+1)); done; echo "runs with a failure: $bad of 10 ($(grep -c '^ok' $OUT/rep.txt) ok in the last)"
el "CPU test programs (auto engine = gpu here)"; tar xJf cpu.tar.xz -C /tmp; R=$PWD; cd ../..
for t in $R/bin/inside_t /tmp/cpu/*; do
  n=$(basename $t); timeout -s KILL 300 stdbuf -oL $t > $OUT/c_$n.txt 2>&1; rc=$?
  echo "$n rc=$rc ok $(grep -c '^ok' $OUT/c_$n.txt) notok $(grep -c '^not ok' $OUT/c_$n.txt)"; grep '^not ok' $OUT/c_$n.txt | head -3
done
el "thread_t 50 times on 2 cores"; bad=0; for i in $(seq 50); do taskset -c 0,1 /tmp/cpu/thread_t > $OUT/tt.txt 2>&1 || bad=$((bad+1)); done; echo "thread_t runs with a failure: $bad of 50"
cd $OUT && tar czf tests.tgz *.txt && rm -f *.txt
el done
