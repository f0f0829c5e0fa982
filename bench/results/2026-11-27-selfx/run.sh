#!/bin/bash
# Issue 31, item 3, on the GPU machine: the tests that touch the
# self-crossing check (selfx_t, inside_t with its gpu engine rows,
# inside_gpu_t), inside_t 20 times in a row on 2 cores, then inside's
# benchmark before (bench_inside_base: 2c57d1c, no check) and after,
# alternated twice, all engines (no CGAL peer here; -r 5: the gpu median
# of 5 after a warm-up), and 10^9 points.  The new bench_inside also prints the
# check alone (best of 3 on the prepared solids) and the cpu and gpu
# calls without it (solids_checked), in the same process.
#   bash bench/results/2026-11-27-selfx/prep.sh         (on the build machine)
#   bash bench/results/2026-11-27-selfx/run.sh gpurun   (on the GPU machine)
B=${1:-gpurun}; cd "$B" || exit 1
export LD_LIBRARY_PATH=$PWD/lib PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc; lscpu | grep "Model name"
for t in selfx_t inside_t inside_gpu_t; do
    el $t; timeout -s KILL 180 ./bin/$t > "$OUT/$t.txt" 2>&1
    echo "$t rc=$? ok $(grep -c '^ok' "$OUT/$t.txt") notok $(grep -c '^not ok' "$OUT/$t.txt")"
    grep -E '^not ok|crossing' "$OUT/$t.txt" | head -12
done
el "inside_t 20 times on 2 cores"; bad=0
for i in $(seq 20); do
    taskset -c 0,1 timeout -s KILL 120 ./bin/inside_t > "$OUT/rep.txt" 2>&1 || bad=$((bad + 1))
done
echo "inside_t runs with a failure: $bad of 20"
for v in base new base new; do
    b=./bin/bench_inside; [ $v = base ] && b=./bin/bench_inside_base
    el "bench_inside -r 5 ($v)"
    timeout -s KILL 240 $b -r 5 > "$OUT/b.txt" 2>&1; echo rc=$?
    grep -E '^== |^cpu|^ours gpu|median of|prepare|self-crossing|  ours gpu' "$OUT/b.txt" | cut -c1-200
    cat "$OUT/b.txt" >> "$OUT/bench_$v.txt"
done
el done
