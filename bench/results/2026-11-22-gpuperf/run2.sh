#!/bin/bash
# diagnosis: is the 10x preparation slow because many threads first-touch fresh memory?
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
./gen_paper --scale 10 -o /tmp/p10.xgdump > /dev/null 2>&1
grep -i "memtotal\|memfree" /proc/meminfo; cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag
el "10x, -t 1"
timeout -s KILL 150 ./bench_gpu -n 1 -t 1 -g 316,316,100 /tmp/p10.xgdump > $OUT/b10t1.log 2>&1; echo rc=$?
el "10x, -t 16 again (machine memory grown now)"
timeout -s KILL 150 ./bench_gpu -n 2 -g 316,316,100 /tmp/p10.xgdump > $OUT/b10t16.log 2>&1; echo rc=$?
el done
grep -i "memtotal\|memfree" /proc/meminfo
for f in b10t1 b10t16; do echo "## $f"; sed -n '/^grid/,/^Total/p' $OUT/$f.log; grep "run \|warm" $OUT/$f.log; done
