#!/bin/bash
# Final GPU call 1 (main 086c1d0): the GPU tests, memcheck of inside's and
# delaunay's, bench_inside with CGAL, bench_delaunay at 10^6 and the 10^7
# lattice (the cpu engine's fix) with CGAL.
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc; lscpu | grep "Model name"
for t in gpu_iv_t inside_gpu_t redblue_gpu_t delaunay_gpu_t regions_gpu_t gpu_t; do
  el $t; if [ $t = gpu_t ]; then export XG_GPU_T_SMALL=1; fi
  timeout -s KILL 90 ./bin/$t > $OUT/$t.log 2>&1
  echo "$t rc=$? ok $(grep -c '^ok' $OUT/$t.log) notok $(grep -c '^not ok' $OUT/$t.log)"; grep '^not ok' $OUT/$t.log | head -3
done
unset XG_GPU_T_SMALL
for t in inside_gpu_t delaunay_gpu_t; do
  el memcheck $t; XG_GPU_T_SMALL=1 timeout -s KILL 90 compute-sanitizer --tool memcheck --error-exitcode 9 ./bin/$t > $OUT/memcheck_$t.log 2>&1
  echo "rc=$? ok $(grep -c '^ok' $OUT/memcheck_$t.log) notok $(grep -c '^not ok' $OUT/memcheck_$t.log)"; grep "ERROR SUMMARY" $OUT/memcheck_$t.log
done
el bench_inside; timeout -s KILL 150 ./bin/bench_inside -p ./bin/cgal_inside > $OUT/bench_inside.txt 2>&1; echo rc=$?; cat $OUT/bench_inside.txt
el bench_delaunay; timeout -s KILL 150 ./bin/bench_delaunay -t 16 -n 1e6 -S 1e6 -P 1e7 -Q 0 -A 1e6 -c ./bin/cgal_delaunay > $OUT/bench_delaunay_1e6.txt 2>&1; echo rc=$?; grep -E "^[a-z]|ours|CGAL DT2 \(" $OUT/bench_delaunay_1e6.txt | cut -c1-200
timeout -s KILL 90 ./bin/bench_delaunay -t 16 -n 1e7 -s lattice -S 0 -P 1e7 -Q 0 -A 0 -c ./bin/cgal_delaunay > $OUT/bench_delaunay_lattice1e7.txt 2>&1; echo rc=$?; grep -E "^[a-z]|ours|CGAL DT2 \(" $OUT/bench_delaunay_lattice1e7.txt | cut -c1-230
el done
