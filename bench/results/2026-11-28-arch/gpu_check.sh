#!/bin/bash
# Issue 32, branch cuda, on the GPU machine (one H100 or H200; Ubuntu
# 24.04, CUDA 13, GMP; no GDAL): from the root of a copy of the working
# tree that carries .carry/arch/ (made by prep.sh beside this script on
# the build machine: this tree's and the reference's binaries).
#   tests     the GPU tests: gpu_iv_t, inside_gpu_t, redblue_gpu_t,
#             delaunay_gpu_t, regions_gpu_t, gpu_t (with the paper's set at
#             1x: every strategy against cpu), and the tests of make check
#             that run the gpu engine when there is one (gpu_ctx_t,
#             inside_t, pair_engine_t);
#   memcheck  compute-sanitizer --tool memcheck on each GPU test (their
#             small cases: XG_GPU_T_SMALL, XG_INSIDE_GPU_T_SMALL);
#   bench     the GPU benchmarks of bench/results' last runs, this tree
#             (new) and the reference (base) alternated: bench_gpu at 1x
#             (-n 5 -g 100,100,100) and 10x (-n 3 -g 316,316,100; as
#             2026-11-22-s4), bench_redblue (maps of 500, 3 runs, as
#             2026-11-22-final), bench_inside -g -r 5 (as
#             2026-11-27-selfx), bench_delaunay at 10^6 and 10^7 uniform
#             points (as 2026-11-27-dt-cells);
#   digest    every operation's answer on the benchmark sets hashed
#             (bench/bench_digest.c, as bench/same_output.sh runs it, at
#             10 times its default sizes, and redblue on the maps of 500),
#             engines cpu, cpu in 3 regions and gpu, with this tree's
#             library and the reference's: the two outputs must be the
#             same, and each set's records and digest the same for every
#             engine;
#   all       the four, in this order (about 20 minutes on an H200: give
#             each its own call where a call is limited to 10).
#   bash bench/results/2026-11-28-arch/gpu_check.sh [tests|memcheck|bench|digest|all]
# Logs to $OUT (default /tmp/out); exit 1 when a test, memcheck or digest
# check failed.
MODE=${1:-all}
R=$(pwd)
C=$R/.carry/arch
W=${XG_WORK:-/tmp/xg_arch}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" "$W"
[ -f "$C/pack.tar.xz" ] || { echo "gpu_check: no $C/pack.tar.xz (prep.sh)"; exit 2; }
[ -d "$W/bin" ] || xz -dc "$C/pack.tar.xz" | tar xf - -C "$W" || exit 2
export PATH=$PATH:/usr/local/cuda/bin LD_LIBRARY_PATH=$W/lib
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
status=0
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "cores $(nproc); $(lscpu | grep 'Model name' | sed 's/  */ /g');" \
     "new $(cat "$C/new.commit"), base $(cat "$C/base.commit")"

data() {   # the benchmark sets, once
    [ -f "$W/p10.xgdump" ] && return
    el "data: the paper's set at 1x and 10x, the maps"
    "$W/bin/gen_paper" --scale 1 -o "$W/p1.xgdump" > "$OUT/gen.log" 2>&1 &
    "$W/bin/gen_paper" --scale 10 -o "$W/p10.xgdump" >> "$OUT/gen.log" 2>&1 &
    LD_LIBRARY_PATH=$W/new:$W/lib "$W/bin/gen_maps" "$W/m.xgd" 500 >> "$OUT/gen.log" 2>&1 &
    wait
}

tap() {    # name, log: the TAP counts
    echo "$1 rc=$2 ok $(grep -c '^ok' "$3") notok $(grep -c '^not ok' "$3")" \
         "$(grep -m1 -o 'SKIP.*' "$3")"
    grep '^not ok' "$3" | head -5
    if [ "$2" != 0 ] || grep -q '^not ok' "$3"; then status=1; fi
}

if [ "$MODE" = tests ] || [ "$MODE" = all ]; then
    data
    for t in gpu_iv_t inside_gpu_t redblue_gpu_t delaunay_gpu_t regions_gpu_t \
             gpu_ctx_t inside_t pair_engine_t gpu_t; do
        el "$t"
        if [ $t = gpu_t ]; then
            XG_PAPER_DUMP=$W/p1.xgdump timeout -s KILL 240 "$W/bin/$t" > "$OUT/$t.log" 2>&1
        else
            timeout -s KILL 180 "$W/bin/$t" > "$OUT/$t.log" 2>&1
        fi
        tap $t $? "$OUT/$t.log"
    done
    grep -E 'paper-scale: gpu .* equals' "$OUT/gpu_t.log" | cut -c1-150
fi

if [ "$MODE" = memcheck ] || [ "$MODE" = all ]; then
    for t in gpu_iv_t inside_gpu_t redblue_gpu_t delaunay_gpu_t regions_gpu_t gpu_t; do
        el "memcheck $t"
        XG_PAPER_DUMP= XG_GPU_T_SMALL=1 XG_INSIDE_GPU_T_SMALL=1 timeout -s KILL 240 \
            compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
            "$W/bin/$t" > "$OUT/memcheck_$t.log" 2>&1
        rc=$?
        tap "memcheck $t" $rc "$OUT/memcheck_$t.log"
        grep -m1 'ERROR SUMMARY' "$OUT/memcheck_$t.log"
    done
fi

# One run of tree v's (new, base) benchmark prog with its arguments,
# under a limit of lim seconds: the lines matching pat shown, the whole
# output appended to $OUT/log_v.txt.
one() {    # v log lim pat prog args...
    local v=$1 log=$2 lim=$3 pat=$4 prog=$5 d=$W/bin
    shift 5
    [ "$v" = base ] && d=$W/base
    el "$prog $* ($v)"
    timeout -s KILL "$lim" "$d/$prog" "$@" > "$W/b.txt" 2>&1
    echo "rc=$?"
    grep -E "$pat" "$W/b.txt" | cut -c1-200
    cat "$W/b.txt" >> "$OUT/${log}_$v.txt"
}

if [ "$MODE" = bench ] || [ "$MODE" = all ]; then
    data
    G='^(grid|Preprocessing|Memory|Intersection|Total|contacts|same as seq|speedup over seq, (cpu|gpu-packed))'
    for v in base new base new; do
        one $v bench_gpu1 150 "$G" bench_gpu -n 5 -g 100,100,100 "$W/p1.xgdump"
    done
    for v in base new; do
        one $v bench_gpu10 240 "$G" bench_gpu -n 3 -g 316,316,100 "$W/p10.xgdump"
    done
    for v in base new base new; do
        one $v bench_redblue 120 '^[a-zA-Z]' bench_redblue "$W/m.xgd" 3 nogeos
        one $v bench_inside 150 '^== |^ours gpu|median of|  ours gpu|identical|differ' \
            bench_inside -g -r 5
        one $v bench_delaunay 120 'ours|identical|differ' bench_delaunay \
            -n 1000000,10000000 -s uniform -S 0 -P 0 -Q 0 -A 0
    done
    rm -f "$W/b.txt"
fi

if [ "$MODE" = digest ] || [ "$MODE" = all ]; then
    data
    for v in new base; do
        el "bench_digest -s 10 ($v's library)"
        LD_LIBRARY_PATH=$W/$v timeout -s KILL 400 "$W/bin/digest_$v" -s 10 \
            -e cpu,regions,gpu -m "$W/m.xgd" > "$OUT/digest_$v.txt" 2>&1
        echo "rc=$? $(grep -c 'digest=' "$OUT/digest_$v.txt") runs," \
             "$(grep -c 'error' "$OUT/digest_$v.txt") errors"
        grep 'error' "$OUT/digest_$v.txt" | head -5
        grep -q 'error' "$OUT/digest_$v.txt" && status=1
    done
    if cmp -s "$OUT/digest_new.txt" "$OUT/digest_base.txt"; then
        echo "digest: new and base the same"
    else
        echo "digest: new and base DIFFER"
        diff "$OUT/digest_base.txt" "$OUT/digest_new.txt" | head -20
        status=1
    fi
    # every engine the same records: one (records, digest) per set
    for v in new base; do
        n=$(awk '/digest=/ {print $1, $2, $(NF-1), $NF}' "$OUT/digest_$v.txt" |
            sort -u | awk '{print $1, $2}' | uniq -d | wc -l)
        echo "digest ($v): sets whose engines disagree: $n"
        [ "$n" = 0 ] || status=1
    done
fi
el "done (exit $status)"
exit $status
