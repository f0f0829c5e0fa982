#!/bin/sh
# bench_e2e.sh -- the data plane, end to end through files (issue 33): the
# tool's runs of the issue, from GeoPackage to each output format, on two
# builds side by side, with the stage split, peak memory, the floors, and
# whether the new build's output is the reference's, feature for feature.
# A benchmark that prints figures, not a timed test.
#
#   bench/bench_e2e.sh REF NEW [ROUNDS]
#
# REF, NEW: two built trees (the tool at REF/exactgeo); ROUNDS: runs of
# each case per tree (default 3), alternating REF and NEW, back to back;
# the table gives medians.  Prints one markdown table on stdout, progress
# on stderr.  Exit 0 when every output is the same, 1 otherwise.
#
# The cases: delaunay of 10^6 survey points (data/make_survey.py) to GPKG
# (default options: with its spatial index), GPKG -lco SPATIAL_INDEX=NO,
# FlatGeobuf, Shapefile, CSV; inside -outside of 2*10^6 block centroids
# (a lattice over the 8 solids: the 4 demo ore bodies and a copy of them
# beside, bench/e2e_bodies.py; the points by bench/gpu_e2e/gen_gpkg.c)
# to GPKG, with and without the index; inside -bcopy rock_type to GPKG;
# redblue of QGIS's world map, countries x states_provinces, to GPKG, with
# and without the index.
# Columns: the features written (--stats), wall (the whole run, start to exit), the stages of --stats
# FILE's "seconds" (read, write, close; compute = total - read - write -
# close), peak RSS (/usr/bin/time %M), NEW/REF of the wall; floor: the
# read of the inputs through GDAL's own Arrow stream (bench/arrow_floor.c)
# and, where bench/sqlite_floor.c is there, the insert of NEW's rows
# through one SQLite writer; same: NEW's output against REF's (bytes,
# else bench/e2e_same.py, which leaves out the GeoPackage's index).
#
# Environment:
#   XG_E2E_DATA    where the inputs are made once and kept
#                  (default /tmp/xg_e2e); outputs go to a temporary
#                  folder beside, removed at the end
#   XG_E2E_POINTS  survey points (default 1000000)
#   XG_E2E_BLOCKS  block centroids (default 2000000)
#   XG_E2E_CASES   an awk regular expression: only the cases whose name
#                  it matches (default all; names in the table), e.g.
#                  'tin' or 'gpkg$'
# Outputs are written with OGR_CURRENT_DATE pinned, so that two runs of
# one build write the same bytes.  Nothing here is timed under nice: run
# it on a quiet machine, or say how loaded it was.
set -u
[ $# -ge 2 ] || { echo "usage: bench_e2e.sh REF NEW [ROUNDS]" >&2; exit 2; }
REF=$(cd "$1" && pwd) NEW=$(cd "$2" && pwd) ROUNDS=${3:-3}
S=$(cd "$(dirname "$0")/.." && pwd)
D=${XG_E2E_DATA:-/tmp/xg_e2e}
P=${XG_E2E_POINTS:-1000000}
NB=${XG_E2E_BLOCKS:-2000000}
CASES=${XG_E2E_CASES:-.}
PY=/usr/bin/python3
WORLD=/usr/share/qgis/resources/data/world_map.gpkg
mkdir -p "$D" || exit 2
W=$(mktemp -d "$D/run.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT
export OGR_CURRENT_DATE=2000-01-01T00:00:00Z
say() { echo "bench_e2e $(date -u +%H:%M:%S): $*" >&2; }

# The helpers, built once into $D/bin from this checkout's sources.
mkdir -p "$D/bin"
build() {  # build NAME SOURCE FLAGS...: compile SOURCE unless up to date
    n=$1 src=$2; shift 2
    # shellcheck disable=SC3013  # -nt: dash and bash have it
    [ "$D/bin/$n" -nt "$src" ] && return 0
    # shellcheck disable=SC2068
    cc -std=c11 -D_DEFAULT_SOURCE -O2 -Wall -ffp-contract=off "$src" \
        -o "$D/bin/$n" $@ || { echo "bench_e2e: cannot build $n" >&2; exit 2; }
}
build gen_gpkg "$S/bench/gpu_e2e/gen_gpkg.c" -lsqlite3 -lm
build arrow_floor "$S/bench/arrow_floor.c" "$(gdal-config --cflags)" \
    "$(gdal-config --libs)"
HAVE_SQLITE_FLOOR=0
if [ -f "$S/bench/sqlite_floor.c" ]; then
    build sqlite_floor "$S/bench/sqlite_floor.c" -lsqlite3 && HAVE_SQLITE_FLOOR=1
fi

# The inputs, made once per size.
SURVEY=$D/survey-$P/survey.gpkg
if [ ! -f "$SURVEY" ]; then
    say "making $P survey points"
    mkdir -p "$D/survey-$P.tmp" &&
        "$PY" "$S/data/make_survey.py" --out "$D/survey-$P.tmp" --points "$P" \
            > /dev/null && mv "$D/survey-$P.tmp" "$D/survey-$P" || exit 2
fi
BODIES=$D/bodies8.gpkg BOX=$D/bodies8.box
if [ ! -f "$BODIES" ]; then
    say "making the 8 solids"
    rm -f "$D/bodies8.tmp.gpkg"
    "$PY" "$S/bench/e2e_bodies.py" "$S/data/orebodies.gpkg" "$D/bodies8.tmp.gpkg" \
        > "$BOX" && mv "$D/bodies8.tmp.gpkg" "$BODIES" || exit 2
fi
BLOCKS=$D/blocks-$NB.gpkg
if [ ! -f "$BLOCKS" ]; then
    say "making $NB block centroids"
    rm -f "$BLOCKS.tmp"
    # shellcheck disable=SC2046
    GEN_SRS_EPSG=32634 GEN_SRS_WKT=$(gdalsrsinfo -o wkt1 EPSG:32634 | tr -d '\n') \
        "$D/bin/gen_gpkg" lattice "$BLOCKS.tmp" blocks "$NB" $(cat "$BOX") &&
        mv "$BLOCKS.tmp" "$BLOCKS" || exit 2
fi

# The cases: NAME, output extension, inputs for the floor (FILE:LAYER,
# comma-separated), the tool's arguments (OUT: the output).
cases() {
    for f in gpkg gpkg-noidx fgb shp csv; do
        case $f in gpkg-noidx) o="-lco SPATIAL_INDEX=NO"; x=gpkg ;; *) o='' x=$f ;; esac
        echo "tin-$f $x $SURVEY:survey delaunay $o OUT $SURVEY"
    done
    for f in gpkg gpkg-noidx; do
        case $f in gpkg-noidx) o="-lco SPATIAL_INDEX=NO" ;; *) o= ;; esac
        echo "outside-$f gpkg $BLOCKS:blocks inside -outside $o OUT $BLOCKS $BODIES"
        echo "world-$f gpkg $WORLD:countries,$WORLD:states_provinces redblue $o" \
            "-al countries -bl states_provinces OUT $WORLD $WORLD"
    done
    echo "bcopy-gpkg gpkg $BLOCKS:blocks inside -bcopy rock_type OUT $BLOCKS $BODIES"
}

# one TREE NAME EXT ROUND ARGS...: one run; appends a line to $W/times:
# NAME TREE ROUND WALL READ COMPUTE WRITE CLOSE RSS_KB ROWS STATUS.
one() {
    t=$1 name=$2 ext=$3 round=$4; shift 4
    case $t in ref) B=$REF ;; *) B=$NEW ;; esac
    dir=$W/$t; mkdir -p "$dir"; rm -rf "${dir:?}/$name".*
    out=$dir/$name.$ext
    cmd=$(echo "$*" | sed "s# OUT # $out #")
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    /usr/bin/time -f %M -o "$dir/$name.rss" "$B/exactgeo" $cmd -q \
        --stats "$dir/$name.json" > "$dir/$name.log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    "$PY" - "$dir/$name.json" "$t0" "$t1" "$(tail -n 1 "$dir/$name.rss")" "$rc" \
        "$name" "$t" "$round" >> "$W/times" <<'EOF'
import json, sys
f, t0, t1, rss, rc, name, tree, rnd = sys.argv[1:]
try:
    j = json.load(open(f))
    s = j["seconds"]
    st = [s["read"], s["total"] - s["read"] - s["write"] - s["close"], s["write"],
          s["close"]]
    rows = j["features_written"]
except (OSError, ValueError, KeyError):
    st, rows = [float("nan")] * 4, -1
print(name, tree, rnd, float(t1) - float(t0), *st, rss, rows, rc)
EOF
    [ "$rc" -eq 0 ] || say "$name on $t failed (exit $rc): $(head -c 300 "$dir/$name.log")"
}

# same NAME EXT: is NEW's output REF's?  Prints bytes, features or DIFFERENT.
same() {
    ro=$W/ref/$1.$2 no=$W/new/$1.$2
    [ -f "$ro" ] && [ -f "$no" ] || { echo "no output"; return; }
    ok=1
    for f in "$W/ref/$1".*; do
        case $f in *.json | *.rss | *.log) continue ;; esac
        cmp -s "$f" "$W/new/${f##*/}" || ok=0
    done
    [ $ok -eq 1 ] && { echo "yes (bytes)"; return; }
    if v=$("$PY" "$S/bench/e2e_same.py" "$ro" "$no" 2>&1); then
        echo "yes (features)"
    else
        say "$1: $v"
        echo "DIFFERENT"
    fi
}

# floor INPUTS: the seconds of the Arrow stream over each FILE:LAYER,
# summed; the median of ROUNDS reads (after the runs, so that the files
# are in the page cache as they were for the tool).
floor() {
    k=0
    while [ "$k" -lt "$ROUNDS" ]; do
        echo "$1" | tr ',' '\n' | while IFS=: read -r f l; do
            "$D/bin/arrow_floor" "$f" "$l" | awk '{ print $4 }'
        done | awk '{ s += $1 } END { print s }'
        k=$((k + 1))
    done | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] }'
}

cases | awk -v re="$CASES" '$1 ~ re' > "$W/cases"
: > "$W/times"
echo "| case | tree | rows out | wall s | read | compute | write | close | peak RSS MB | NEW/REF wall | read floor (Arrow) | SQLite floor | same as REF |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
fail=0
while read -r name ext inputs args; do
    r=1
    while [ "$r" -le "$ROUNDS" ]; do
        for t in ref new; do
            say "$name $t round $r"
            one "$t" "$name" "$ext" "$r" "$args"
        done
        r=$((r + 1))
    done
    fl=$(floor "$inputs")
    sf=-
    # Without the index only: its triggers call SpatiaLite's functions,
    # which plain SQLite lacks; the floor is the rows' insert either way.
    case $HAVE_SQLITE_FLOOR-$name in 1-*-gpkg-noidx) [ -f "$W/new/$name.gpkg" ] ;; *) false ;; esac &&
        cp "$W/new/$name.gpkg" "$W/floor.gpkg" &&
        sf=$("$D/bin/sqlite_floor" "$W/new/$name.gpkg" "$W/floor.gpkg" \
            "$(sed -n 's/.*"output": {"layer": "\([^"]*\)".*/\1/p' "$W/new/$name.json")" |
            awk '{ printf "%.2f", $4 }')
    [ -n "$sf" ] || sf=-
    rm -f "$W/floor.gpkg"
    sm=$(same "$name" "$ext")
    case $sm in yes*) ;; *) fail=1 ;; esac
    "$PY" - "$W/times" "$name" "$fl" "$sf" "$sm" <<'EOF'
import statistics, sys
f, name, fl, sf, sm = sys.argv[1:]
rows = [l.split() for l in open(f) if l.split()[0] == name]
med = {}
for tree in ("ref", "new"):
    r = [list(map(float, x[3:10])) for x in rows if x[1] == tree]
    bad = [x for x in rows if x[1] == tree and x[10] != "0"]
    med[tree] = [statistics.median(c) for c in zip(*r)] + [bool(bad)]
for tree in ("ref", "new"):
    m = med[tree]
    ratio = "%.2f" % (m[0] / med["ref"][0]) if tree == "new" else ""
    print("| %s | %s%s | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %.0f | %s | %s | %s | %s |"
          % (name, tree.upper(), " (failed)" if m[7] else "", m[6], m[0], m[1], m[2], m[3],
             m[4], m[5] / 1024, ratio, fl if tree == "ref" else "",
             sf if tree == "new" else "", sm if tree == "new" else ""))
EOF
done < "$W/cases"
say "done: $(wc -l < "$W/cases") cases, $ROUNDS rounds"
exit $fail
