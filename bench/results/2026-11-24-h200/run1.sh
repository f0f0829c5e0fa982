#!/bin/bash
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc; python3 -c "import cupy, scipy; print('cupy', cupy.__version__, 'scipy', scipy.__version__)"
el gen; ./bin/gen_paper --scale 1 -o /tmp/p1.xgdump > /dev/null 2>&1 || echo gen failed
for t in gpu_iv_t redblue_gpu_t inside_gpu_t delaunay_gpu_t regions_gpu_t; do el $t; timeout -s KILL 120 ./tests/$t > $OUT/$t.log 2>&1; echo "rc=$? ok $(grep -c '^ok' $OUT/$t.log) notok $(grep -c '^not ok' $OUT/$t.log)"; grep '^not ok' $OUT/$t.log | head -3; done
el gpu_t paper; XG_PAPER_DUMP=/tmp/p1.xgdump timeout -s KILL 150 ./tests/gpu_t > $OUT/gpu_t.log 2>&1; echo "rc=$? ok $(grep -c '^ok' $OUT/gpu_t.log) notok $(grep -c '^not ok' $OUT/gpu_t.log)"
for t in regions_gpu_t delaunay_gpu_t; do el memcheck $t; XG_REGIONS_GPU_T_SMALL=1 XG_GPU_T_SMALL=1 timeout -s KILL 100 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 ./tests/$t > $OUT/mc_$t.log 2>&1; echo "rc=$? ok $(grep -c '^ok' $OUT/mc_$t.log)"; tail -2 $OUT/mc_$t.log; done
el bench_delaunay; timeout -s KILL 330 ./bin/bench_delaunay -n 1e6,1e7 -S 1e6 -P 1e7 -Q 1e7 -H 1e6 -A 1e6 -L 60 -c ./bin/cgal_delaunay -y ./bin/peers_delaunay.py -w /tmp > $OUT/bench_delaunay.txt 2>&1; echo "rc=$?"
el done
