#!/bin/bash
# Session 4 experiment: the packed count kernel's pair split without a
# division (A: 2048 pairs/block), and 1024 pairs/block with more blocks
# per SM (B: k_packed 4/SM, k_plist capped at 3/SM; C: k_packed 5/SM).
# Built from temporary edits of cuda/segtri_kernels.cu (XG_GPU_PACK_PAIRS
# and the two launch bounds); the code kept A's split and B's k_plist cap.
cd "$(dirname "$0")"
set -u
export LD_LIBRARY_PATH=$PWD PATH=$PATH:/usr/local/cuda/bin
./gen_paper --scale 1 -o /tmp/p1.xgdump > /dev/null 2>&1
for v in base A B C; do
  d=.; [ $v = base ] || d=$v
  echo "=== $v"
  XG_PAPER_DUMP=/tmp/p1.xgdump timeout -s KILL 150 $d/gpu_t > $OUT/tests_$v.log 2>&1; echo "gpu_t rc=$? ok $(grep -c '^ok' $OUT/tests_$v.log) notok $(grep -c '^not ok' $OUT/tests_$v.log)"
  timeout -s KILL 150 $d/bench_gpu -n 5 -g 100,100,100 /tmp/p1.xgdump > $OUT/bench_$v.log 2>&1; echo "rc=$?"
  grep -E "^(Intersection|Total|  count k|  interval k|same|count-pass bound|box pairs, owned)" $OUT/bench_$v.log
done
