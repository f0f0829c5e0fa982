#!/bin/sh
# same_output.sh -- are two builds' answers the same, byte for byte?  For a
# change that must not change behaviour (a refactor): the tool's outputs on
# the demo data (data/), every operation and engine, and the digests of
# every engine's answer on the benchmark sets (bench/bench_digest.c,
# compiled against each build's library).
#
#   bench/same_output.sh REF NEW [SCALE]
#
# REF, NEW: two configured and built trees (the tool at REF/exactgeo, the
# library at REF/src/.libs).  SCALE: bench_digest's -s (default 0.5).
# Prints one line per comparison and "same: N of N" at the end; exits 0
# when every one is the same, 1 otherwise.  GeoPackages carry the time
# they were written: OGR_CURRENT_DATE pins it (GDAL's GPKG driver reads
# it), so two runs of one build write identical files.
set -u
[ $# -ge 2 ] || { echo "usage: same_output.sh REF NEW [SCALE]" >&2; exit 2; }
REF=$(cd "$1" && pwd) NEW=$(cd "$2" && pwd) SCALE=${3:-0.5}
S=$(cd "$(dirname "$0")/.." && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/xg_same.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT
export OGR_CURRENT_DATE=2000-01-01T00:00:00Z
D=$S/data
# The jobs: a name and the tool's arguments after the operation, with OUT
# for the output.  The setup.sh jobs, their engines and regions, redblue
# on the New York boroughs, --tin.
jobs() {
    for e in seq cpu; do
        echo "segtri-$e segtri --engine $e OUT $D/drillholes.gpkg $D/orebodies.gpkg"
        echo "inside-$e inside --engine $e OUT $D/blocks.gpkg $D/orebodies.gpkg -bcopy rock_type"
        echo "outside-$e inside --engine $e -outside OUT $D/blocks.gpkg $D/orebodies.gpkg"
        echo "delaunay-$e delaunay --engine $e OUT $D/survey.gpkg --verify"
        echo "redblue-$e redblue --engine $e OUT $D/nybb.gpkg $D/nybb_simplified.gpkg -acopy BoroName"
    done
    echo "segtri-regions segtri --regions 3 OUT $D/drillholes.gpkg $D/orebodies.gpkg -acopy hole_id"
    echo "inside-regions inside --regions 3 -outside OUT $D/blocks.gpkg $D/orebodies.gpkg"
    echo "redblue-regions redblue --regions 3 OUT $D/nybb.gpkg $D/nybb_simplified.gpkg"
    echo "delaunay-tin delaunay --tin OUT $D/survey.gpkg"
    echo "segtri-fgb segtri OUT.fgb $D/drillholes.gpkg $D/orebodies.gpkg"
}
n=0 same=0
check() {  # check NAME STATUS
    n=$((n + 1))
    if [ "$2" -eq 0 ]; then same=$((same + 1)); echo "same: $1";
    else echo "DIFFERENT: $1"; fi
}
jobs > "$W/jobs"
while read -r name op args; do
    for t in ref new; do
        case $t in ref) B=$REF ;; *) B=$NEW ;; esac
        mkdir -p "$W/$t"
        out=$W/$t/$name.gpkg
        case $args in *OUT.fgb*) out=$W/$t/$name.fgb ;; esac
        # shellcheck disable=SC2086
        set -- $(echo "$args" | sed "s#OUT\(\.fgb\)\{0,1\}#$out#")
        "$B/exactgeo" "$op" -q "$@" > "$W/$t/$name.txt" 2>&1
        echo "exit $?" >> "$W/$t/$name.txt"
    done
    ext=${out##*.}
    if ! grep -q '^exit 0$' "$W/ref/$name.txt"; then
        sed 's/^/  /' "$W/ref/$name.txt" | tail -3
        check "$name: the reference run failed" 1
        continue
    fi
    cmp -s "$W/ref/$name.$ext" "$W/new/$name.$ext" &&
        cmp -s "$W/ref/$name.txt" "$W/new/$name.txt"
    check "$name ($op, output and messages)" $?
done < "$W/jobs"

# The benchmark sets.
"$REF/bench/gen_maps" "$W/maps.xgdump" 120 > /dev/null 2>&1 ||
    echo "gen_maps failed: redblue's benchmark set left out"
for t in ref new; do
    case $t in ref) B=$REF ;; *) B=$NEW ;; esac
    ${CC:-cc} -std=c11 -O2 -I"$B/src" -I"$S/bench" "$S/bench/bench_digest.c" \
        -o "$W/digest-$t" -L"$B/src/.libs" -Wl,-rpath,"$B/src/.libs" \
        -lexactgeo -lm || { echo "cannot build bench_digest against $B"; exit 2; }
    m=""; [ -f "$W/maps.xgdump" ] && m="-m $W/maps.xgdump"
    # shellcheck disable=SC2086
    "$W/digest-$t" -s "$SCALE" $m > "$W/digest-$t.txt" 2>&1
    echo "exit $?" >> "$W/digest-$t.txt"
done
if cmp -s "$W/digest-ref.txt" "$W/digest-new.txt"; then
    check "benchmark sets ($(($(wc -l < "$W/digest-ref.txt") - 1)) runs)" 0
else
    diff "$W/digest-ref.txt" "$W/digest-new.txt" | head -20
    check "benchmark sets" 1
fi
echo "same: $same of $n"
[ "$same" -eq "$n" ]
