#!/bin/bash
# Issue 31, item 3, on the GPU machine.
#  tests: the tests that touch the self-crossing check (selfx_t, inside_t
#    with its gpu engine rows, inside_gpu_t), inside_t 20 times in a row
#    on 2 cores, compute-sanitizer memcheck on inside_gpu_t (its small
#    cases) and on inside_t; both tools (new/, base/) on data/'s demo.
#  bench: inside's benchmark before (bench_inside_base: 2c57d1c, no check)
#    and after, alternated twice, `-g -r 5` (the cpu engine and ours on
#    the GPU: the median of 5 after a warm-up); the new one also prints
#    the check alone (best of 3 on the prepared solids) and the cpu and
#    gpu calls without it (solids_checked), in the same process; after
#    each, ab_inside with the same tree's library (the cpu and gpu calls,
#    medians of 5, the new one alternated with solids_checked: the base's
#    bench_inside -g prints no cpu figure).  selfx_time: the check as the
#    tool's reader makes it, per solid (best and median of 5).  Then
#    inside through files (e2e): gen_gpkg writes case (a)'s and (b)'s
#    solids (102,400 and 991,232 triangles, one TIN Z a solid) and E2E_N
#    of each case's block centroids as GeoPackages; `exactgeo inside` to a
#    GeoPackage, engines cpu and gpu, the new tool with the check, with
#    --solids-checked, and the base, alternated (the order turned each
#    round), E2E_REPS rounds: the wall of the whole process and --stats'
#    read, compute (its stages) write, close; the records of each variant
#    hashed (e2e_table.py: medians, the check's cost against the wall).
# Without a GPU the gpu parts are left out.
#   bash bench/results/2026-11-27-selfx/prep.sh         (on the build machine)
#   bash gpurun/run.sh gpurun [tests|bench|selfx|e2e|all] (on the GPU machine;
#                            bench: bench_inside, ab_inside, selfx_time, e2e)
#   E2E_N (default 2000000), E2E_REPS (3), E2E_STOP (no e2e round begun
#   past this many seconds), BENCH_D (bench_inside and ab_inside -d: 1)
B=${1:-gpurun}; MODE=${2:-all}; cd "$B" || exit 1
[ -d bin ] || xz -dc pack.tar.xz | tar xf - || exit 1
export LD_LIBRARY_PATH=$PWD/lib GDAL_DATA=$PWD/share/gdal PROJ_DATA=$PWD/share/proj \
    PROJ_LIB=$PWD/share/proj GDAL_DRIVER_PATH=disable PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
N=${E2E_N:-2000000}; REPS=${E2E_REPS:-3}; BD=${BENCH_D:-1}
W=${E2E_DIR:-/tmp/xg_e2e}
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }'; }
t0=$(date +%s); el() { echo "=== [$(( $(date +%s) - t0 )) s] $*"; }
gpu=0; nvidia-smi -L > /dev/null 2>&1 && gpu=1
[ $gpu = 1 ] && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "cores $(nproc); $(lscpu | grep 'Model name' | sed 's/  */ /g'); new $(cat new.commit), base $(cat base.commit); /tmp: $(df -T /tmp | awk 'NR==2{print $2}')"
xg() { local v=$1; shift; LD_LIBRARY_PATH=$PWD/$v:$PWD/lib ./$v/exactgeo "$@"; }

if [ "$MODE" = tests ] || [ "$MODE" = all ]; then
    T=$OUT/tests.txt; : > "$T"
    for t in selfx_t inside_t inside_gpu_t; do
        el $t; echo "### $t" >> "$T"
        timeout -s KILL 180 ./bin/$t > "$OUT/t.txt" 2>&1; rc=$?
        cat "$OUT/t.txt" >> "$T"
        echo "$t rc=$rc ok $(grep -c '^ok' "$OUT/t.txt") notok $(grep -c '^not ok' "$OUT/t.txt") $(grep -m1 -o 'SKIP.*' "$OUT/t.txt")"
        grep -E '^not ok' "$OUT/t.txt" | head -12
    done
    el "inside_t 20 times on 2 cores"; bad=0
    for i in $(seq 20); do
        if ! taskset -c 0,1 timeout -s KILL 120 ./bin/inside_t > "$OUT/t.txt" 2>&1 ||
           grep -q '^not ok' "$OUT/t.txt"; then
            bad=$((bad + 1)); { echo "### inside_t, 2 cores, run $i"; cat "$OUT/t.txt"; } >> "$T"
        fi
    done
    echo "inside_t runs with a failure: $bad of 20"; rm -f "$OUT/t.txt"
    if [ $gpu = 1 ]; then
        M=$OUT/memcheck.txt; : > "$M"
        for t in inside_gpu_t inside_t; do
            el "memcheck $t"; echo "### memcheck $t (XG_INSIDE_GPU_T_SMALL=1)" >> "$M"
            XG_INSIDE_GPU_T_SMALL=1 timeout -s KILL 240 compute-sanitizer --tool memcheck \
                --error-exitcode 9 ./bin/$t >> "$M" 2>&1
            echo "memcheck $t rc=$? ok $(sed -n "/### memcheck $t/,\$p" "$M" | grep -c '^ok')" \
                "notok $(sed -n "/### memcheck $t/,\$p" "$M" | grep -c '^not ok')" \
                "$(sed -n "/### memcheck $t/,\$p" "$M" | grep -m1 'ERROR SUMMARY')"
        done
    fi
    el "the tools on data/'s demo"
    xg new --version; xg base --version
    for v in new base; do
        for e in cpu $([ $gpu = 1 ] && echo gpu); do
            xg $v inside -overwrite /tmp/demo_$v$e.gpkg ../data/blocks.gpkg ../data/orebodies.gpkg \
                --engine $e -bcopy rock_type | grep -E 'engine|contacts|seconds'
        done
    done
fi

if [ "$MODE" = bench ] || [ "$MODE" = all ]; then
    : > "$OUT/bench_base.txt"; : > "$OUT/bench_new.txt"
    for v in base new base new; do
        b=./bin/bench_inside; [ $v = base ] && b=./bin/bench_inside_base
        el "bench_inside -g -r 5 -d $BD ($v)"
        timeout -s KILL 150 $b -g -r 5 -d "$BD" > "$OUT/b.txt" 2>&1; echo rc=$?
        grep -E '^== |^cpu|^ours gpu|median of|self-crossing|  ours gpu' "$OUT/b.txt" | cut -c1-220
        cat "$OUT/b.txt" >> "$OUT/bench_$v.txt"
        el "ab_inside -r 5 -d $BD $([ $v = new ] && printf -- -n) ($v)"
        LD_LIBRARY_PATH=$PWD/$v:$PWD/lib timeout -s KILL 150 ./bin/ab_inside -r 5 -d "$BD" \
            $([ $v = new ] && printf -- -n) > "$OUT/b.txt" 2>&1; echo rc=$?
        cat "$OUT/b.txt"; cat "$OUT/b.txt" >> "$OUT/bench_$v.txt"
    done
    rm -f "$OUT/b.txt"
fi

if [ "$MODE" = bench ] || [ "$MODE" = selfx ] || [ "$MODE" = all ]; then
    el "selfx_time -r 5: the check per solid, as the tool's reader makes it"
    LD_LIBRARY_PATH=$PWD/new:$PWD/lib timeout -s KILL 120 ./bin/selfx_time -r 5 | tee "$OUT/selfx_time.txt"
fi

if [ "$MODE" != tests ] && [ "$MODE" != selfx ]; then
    el "e2e: gen_gpkg, $N points a case"; rm -rf "$W"; mkdir -p "$W"
    for c in a b; do
        s=$(date +%s.%N)
        ./bin/gen_gpkg $c "$N" "$W/pts_$c.gpkg" "$W/solids_$c.gpkg" 2>&1 | grep -v 'non-standard gpkg_geom_TIN'
        echo "  $(since "$s") s; $(du -m "$W/pts_$c.gpkg" | cut -f1) + $(du -m "$W/solids_$c.gpkg" | cut -f1) MB"
    done
    J=$OUT/e2e.jsonl; : > "$J"
    vs=(new chk base)
    for r in $(seq "$REPS"); do
        # a round takes about 100 s on the GPU machine: none begun past
        # E2E_STOP seconds, so that the call ends inside its limit
        [ $(( $(date +%s) - t0 )) -gt "${E2E_STOP:-999999}" ] && { el "e2e: no round $r (time)"; break; }
        el "e2e round $r"
        for c in a b; do
            for e in cpu $([ $gpu = 1 ] && echo gpu); do
                for k in 0 1 2; do
                    v=${vs[$(( (k + r - 1) % 3 ))]}
                    tool=$v; opt=; [ $v = chk ] && tool=new opt=--solids-checked
                    rm -f "$W/out.gpkg" "$W/s.json"
                    s=$(date +%s.%N)
                    xg $tool inside -q "$W/out.gpkg" "$W/pts_$c.gpkg" "$W/solids_$c.gpkg" \
                        --engine $e $opt --stats "$W/s.json"; rc=$?
                    w=$(since "$s")
                    h=null; [ "$r" = 1 ] && h=\"$(python3 -c "
import sqlite3, hashlib, sys
h = hashlib.sha1()
for row in sqlite3.connect(sys.argv[1]).execute('select * from contacts order by fid'):
    h.update(repr(row).encode())
print(h.hexdigest()[:16])" "$W/out.gpkg")\"
                    echo "{\"case\": \"$c\", \"engine\": \"$e\", \"variant\": \"$v\", \"round\": $r, \"rc\": $rc, \"wall\": $w, \"hash\": $h, \"stats\": $(cat "$W/s.json" 2>/dev/null || echo null)}" \
                        | tr -d '\n' >> "$J"; echo >> "$J"
                done
            done
        done
    done
    el "e2e table"
    python3 e2e_table.py "$J" | tee "$OUT/e2e.txt"
    rm -rf "$W"
fi
el done
