#!/bin/sh
# cuda/gpu-verify.sh -- the GPU verification, on the GPU machine, from the
# root of a build tree (or a copy of it carrying the programs below, all
# static in libexactgeo and the CUDA runtime; no GDAL needed):
#   1. the GPU tests: tests/redblue_gpu_t, tests/inside_gpu_t,
#      tests/gpu_iv_t (intervals and incircle against MPFR and GMP), and
#      tests/gpu_t with the paper-scale set (every strategy compared with
#      the cpu engine);
#   2. compute-sanitizer memcheck on tests/gpu_t and tests/inside_gpu_t
#      (small cases);
#   3. bench/bench_gpu as bench/results' latest run (2026-11-22-s4):
#      Table 11.3 at 1x (5 runs) and 10x (3 runs), contacts and times.
# The same steps as bench/results/2026-11-22-s4/run.sh, from a build tree.
#
#   sh cuda/gpu-verify.sh [LOGDIR]        (default $OUT, else /tmp/xg-gpu)
#
# Exit status 0 when every test passed and memcheck is clean.
set -u
out=${1:-${OUT:-/tmp/xg-gpu}}
mkdir -p "$out"
PATH=$PATH:/usr/local/cuda/bin
export PATH
t0=$(date +%s)
step() { echo "=== [$(($(date +%s) - t0)) s] $*"; }
# memcheck TEST LOG LABEL [VAR=VALUE...]: compute-sanitizer memcheck on
# TEST (leaks too) with those variables set, its log in $out/LOG, its
# verdict printed as LABEL; a failure sets status.
memcheck() {
    mc_test=$1 mc_log=$2 mc_label=$3
    shift 3
    step "compute-sanitizer memcheck on $mc_test (small cases)"
    env "$@" timeout -s KILL 150 compute-sanitizer \
        --tool memcheck --leak-check full --error-exitcode 9 "$mc_test" \
        > "$out/$mc_log" 2>&1
    rc=$?
    tail -n 2 "$out/$mc_log"
    if [ $rc -eq 0 ]; then
        echo "$mc_label: clean"
    else
        echo "$mc_label: FAILED (exit $rc)"
        status=1
    fi
}
status=0

for p in tests/gpu_t tests/gpu_iv_t tests/redblue_gpu_t tests/inside_gpu_t bench/bench_gpu bench/gen_paper; do
    if [ ! -x "$p" ] || ! head -c 4 "$p" | grep -q ELF; then
        echo "gpu-verify: $p: not a built program (configure with CUDA, make, make check TESTS=)"
        exit 2
    fi
    if ldd "$p" 2>/dev/null | grep 'not found'; then
        echo "gpu-verify: $p: libraries missing (carry them, set LD_LIBRARY_PATH)"
        exit 2
    fi
done
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.mem,memory.total \
    --format=csv,noheader
echo "$(nproc) CPU threads"

step "data: the paper's set at 1x and 10x"
bench/gen_paper --scale 1 -o /tmp/xg-p1.xgdump > "$out/gen.log" 2>&1 &
bench/gen_paper --scale 10 -o /tmp/xg-p10.xgdump >> "$out/gen.log" 2>&1 &
wait

step "tests"
timeout -s KILL 120 tests/redblue_gpu_t > "$out/tests.log" 2>&1 ||
    { echo "redblue_gpu_t failed (exit $?)"; status=1; }
timeout -s KILL 120 tests/inside_gpu_t >> "$out/tests.log" 2>&1 ||
    { echo "inside_gpu_t failed (exit $?)"; status=1; }
timeout -s KILL 120 tests/gpu_iv_t >> "$out/tests.log" 2>&1 ||
    { echo "gpu_iv_t failed (exit $?)"; status=1; }
XG_PAPER_DUMP=/tmp/xg-p1.xgdump timeout -s KILL 240 tests/gpu_t \
    >> "$out/tests.log" 2>&1 || { echo "gpu_t failed (exit $?)"; status=1; }
echo "ok: $(grep -c '^ok' "$out/tests.log")  not ok: $(grep -c '^not ok' "$out/tests.log")"
grep '^not ok' "$out/tests.log" | head -5
grep -E 'paper-scale: gpu (packed multi-block|multi-block) equals' \
    "$out/tests.log" | cut -c1-160

memcheck tests/gpu_t memcheck.log memcheck \
    XG_PAPER_DUMP='' XG_GPU_T_SMALL=1
memcheck tests/inside_gpu_t memcheck-inside.log "memcheck (inside)" \
    XG_INSIDE_GPU_T_SMALL=1

step "bench_gpu 1x: -n 5 -g 100,100,100"
timeout -s KILL 150 bench/bench_gpu -n 5 -g 100,100,100 /tmp/xg-p1.xgdump \
    > "$out/bench1.log" 2>&1 || echo "bench_gpu 1x: exit $?"
sed -n '/^grid/,$p' "$out/bench1.log" | cut -c1-120

step "bench_gpu 10x: -n 3 -g 316,316,100"
timeout -s KILL 240 bench/bench_gpu -n 3 -g 316,316,100 /tmp/xg-p10.xgdump \
    > "$out/bench10.log" 2>&1 || echo "bench_gpu 10x: exit $?"
sed -n '/^grid/,$p' "$out/bench10.log" |
    grep -E '^(grid|  |Preproc|Memory|Intersection|Rationals|Ensure|Total|same|speedup|candidate|box pairs|count-pass|interval-pass|relaunches|contacts|points)' |
    cut -c1-120
step "done (exit $status)"
exit $status
