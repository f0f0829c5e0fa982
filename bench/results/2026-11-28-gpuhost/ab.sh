#!/bin/bash
# Issue 32, branch gpuhost, on the GPU machine, from the root of a tree
# that carries .carry/ab (ab_prep.sh; or C=the folder): the two builds' GPU engines
# alternated, each in its own process (ab.c: one warm-up, RUNS timed
# calls), ROUNDS rounds, the order flipped every round (base new, new
# base, ...):
#   segtri, the paper's set at 10x, grid 316x316x100 (bench_gpu's 10x);
#   delaunay, 10^7 uniform points (bench_delaunay's 10^7).
#   bash bench/results/2026-11-28-gpuhost/ab.sh [ROUNDS] [RUNS]
ROUNDS=${1:-5}
RUNS=${2:-7}
C=${C:-$(pwd)/.carry/ab}
W=/tmp/xg_ab
OUT=${OUT:-/tmp/out}
mkdir -p "$W" "$OUT"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "cores $(nproc); new $(cat "$C/new/commit") ($(cat "$C/new/changed")" \
     "files changed), base $(cat "$C/base/commit")"
t0=$(date +%s)
[ -f "$W/p10.xgdump" ] || "$C/gen_paper" --scale 10 -o "$W/p10.xgdump" \
    > "$OUT/gen.log" 2>&1 || { echo "gen_paper failed"; exit 2; }
echo "data: $(( $(date +%s) - t0 )) s"
for r in $(seq 1 "$ROUNDS"); do
    order="base new"; [ $((r % 2)) = 0 ] && order="new base"
    for v in $order; do
        for op in segtri delaunay; do
            if [ $op = segtri ]; then a="$W/p10.xgdump 316,316,100"; else a=1e7; fi
            LD_LIBRARY_PATH=$C/$v timeout -s KILL 120 "$C/$v/ab" $op $a \
                "$RUNS" > "$W/r.txt" 2>&1
            echo "round $r $v $op rc=$? $(tail -1 "$W/r.txt")"
            sed "s/^/$r $v $op /" "$W/r.txt" >> "$OUT/ab_runs.txt"
        done
    done
done
echo "total $(( $(date +%s) - t0 )) s"
# per (tree, op): the median of every timed call, and of the rounds' medians
for op in segtri delaunay; do
    for v in base new; do
        all=$(awk -v v=$v -v op=$op '$2 == v && $3 == op && $4 == "run" {print $6}' \
              "$OUT/ab_runs.txt" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)], NR}')
        med=$(awk -v v=$v -v op=$op '$2 == v && $3 == op && /median/ {print $(NF-4)}' \
              "$OUT/ab_runs.txt" | sort -g | tr '\n' ' ')
        echo "$op $v: median of all calls (count) $all; rounds' medians $med"
    done
done
