#!/bin/sh
# gpkg_rtree_t.sh -- the spatial index exactgeo bulk-loads into the
# GeoPackage layers it creates (issue 33, item 1; ogr_driver/gpkg_rtree.c)
# on the tool's outputs of every result shape (redblue's mixed points and
# lines, segtri's contacts, inside's points, delaunay's triangles) and of
# sizes 0, 1, 51, 52, 2653 and a few thousand (trees of depth 0 to 2):
# the features equal those of the same run with GDAL's index
# (-lco SPATIAL_INDEX=YES); rtreecheck() passes; the boxes, the rtree's
# SQL and the extension rows are GDAL's; spatial filters give brute
# force's features; after edits through OGR (and QGIS where PyQGIS loads)
# all of it still holds (gpkg_rtree_t.py).  -lco SPATIAL_INDEX=NO leaves
# no index, -append keeps the layer's, a run in regions gets one.  TAP.
: "${top_srcdir:=.}" "${top_builddir:=.}"
PY=/usr/bin/python3
if ! "$PY" -c 'import osgeo.ogr, sqlite3' 2>/dev/null; then
    echo "1..0 # SKIP no python3-gdal"; exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
XG=$top_builddir/exactgeo
DUMP=$top_builddir/tests/ogrdump
CHK=$top_srcdir/tests/gpkg_rtree_t.py
D=$top_srcdir/data
QG=
"$PY" -c 'import qgis.core' 2>/dev/null && QG=qgis
export QT_QPA_PLATFORM=offscreen XDG_DATA_HOME="$T/xdg" XDG_CONFIG_HOME="$T/xdg" XDG_RUNTIME_DIR="$T"
n=0 fail=0
check() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }
sql() { "$PY" -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$@"; }

# xg DST OP ARGS...: the tool, its argument OUT replaced by DST
xg() {
    dst=$1; shift
    for a; do shift; [ "$a" = OUT ] && a=$dst; set -- "$@" "$a"; done
    "$XG" "$@"
}
# case_ NAME LAYER QGIS OP ARGS...: the run into $T/NAME.gpkg (our index)
# and $T/NAME_gdal.gpkg (GDAL's: -lco SPATIAL_INDEX=YES), then every check
case_() {
    name=$1 layer=$2 q=$3; shift 3
    xg "$T/$name.gpkg" "$@" > "$T/log" 2>&1 &&
        xg "$T/${name}_gdal.gpkg" "$@" -lco SPATIAL_INDEX=YES >> "$T/log" 2>&1
    rc=$?
    [ $rc -ne 0 ] && sed 's/^/# /' "$T/log"
    check $rc "$name: the runs"
    "$DUMP" "$T/$name.gpkg" > "$T/a.txt" && "$DUMP" "$T/${name}_gdal.gpkg" > "$T/b.txt" &&
        cmp -s "$T/a.txt" "$T/b.txt"
    check $? "$name: features equal those of the run indexed by GDAL"
    cp "$T/$name.gpkg" "$T/${name}_made.gpkg"   # as written, for the sizes
    "$PY" "$CHK" $((n + 1)) "$name" "$T/$name.gpkg" "$layer" "$T/${name}_gdal.gpkg" $q > "$T/tap"
    rc=$?
    cat "$T/tap"
    n=$((n + $(grep -c '^ok\|^not ok' "$T/tap")))
    [ $rc -eq 0 ] || fail=1
}

ogr2ogr -f GPKG "$T/p1.gpkg" "$D/blocks.gpkg" -where "fid <= 1" &&
ogr2ogr -f GPKG "$T/p51.gpkg" "$D/blocks.gpkg" -where "fid <= 51" &&
ogr2ogr -f GPKG "$T/p52.gpkg" "$D/blocks.gpkg" -where "fid <= 52" &&
ogr2ogr -f GPKG "$T/p2653.gpkg" "$D/blocks.gpkg" -where "fid <= 2653" &&
ogr2ogr -f GPKG "$T/s31.gpkg" "$D/survey.gpkg" -where "fid % 100 = 0" ||
    { echo "Bail out! ogr2ogr failed"; exit 1; }

case_ redblue contacts "" redblue -q OUT "$D/nybb.gpkg" "$D/nybb_simplified.gpkg"
case_ segtri contacts "" segtri -q OUT "$D/drillholes.gpkg" "$D/orebodies.gpkg"
case_ in0 contacts "" inside -q OUT "$T/p1.gpkg" "$D/orebodies.gpkg"
case_ in1 contacts "" inside -outside -q OUT "$T/p1.gpkg" "$D/orebodies.gpkg"
case_ in51 contacts "" inside -outside -q OUT "$T/p51.gpkg" "$D/orebodies.gpkg"
case_ in52 contacts "" inside -outside -q OUT "$T/p52.gpkg" "$D/orebodies.gpkg"
case_ in2653 contacts "$QG" inside -outside -q OUT "$T/p2653.gpkg" "$D/orebodies.gpkg"
case_ tin49 triangles "" delaunay -q OUT "$T/s31.gpkg"
case_ tin triangles "$QG" delaunay -q OUT "$D/survey.gpkg"

[ "$(sql "$T/in0_made.gpkg" 'SELECT count(*) FROM contacts')" = 0 ] &&
    [ "$(sql "$T/in51_made.gpkg" 'SELECT count(*) FROM contacts')" = 51 ] &&
    [ "$(sql "$T/in2653_made.gpkg" 'SELECT count(*) FROM contacts')" = 2653 ]
check $? "the sizes are 0, 51 and 2653 features"
[ "$(sql "$T/in51_made.gpkg" "SELECT hex(substr(data, 1, 2)) FROM rtree_contacts_geom_node WHERE nodeno = 1")" = 0000 ] &&
    [ "$(sql "$T/in52_made.gpkg" "SELECT hex(substr(data, 1, 2)) FROM rtree_contacts_geom_node WHERE nodeno = 1")" = 0001 ] &&
    [ "$(sql "$T/in2653_made.gpkg" "SELECT hex(substr(data, 1, 2)) FROM rtree_contacts_geom_node WHERE nodeno = 1")" = 0002 ]
check $? "trees of depth 0, 1 and 2"

"$XG" inside -q -outside -lco SPATIAL_INDEX=NO "$T/no.gpkg" "$T/p52.gpkg" "$D/orebodies.gpkg" &&
    [ "$(sql "$T/no.gpkg" "SELECT count(*) FROM sqlite_master WHERE name LIKE 'rtree%'")" = 0 ]
check $? "-lco SPATIAL_INDEX=NO: no index"

"$XG" inside -q -outside "$T/app.gpkg" "$T/p52.gpkg" "$D/orebodies.gpkg" &&
    "$XG" inside -q -outside -append "$T/app.gpkg" "$T/p2653.gpkg" "$D/orebodies.gpkg" &&
    [ "$(sql "$T/app.gpkg" "SELECT rtreecheck('rtree_contacts_geom')")" = ok ] &&
    [ "$(sql "$T/app.gpkg" 'SELECT count(*) FROM rtree_contacts_geom')" = 2705 ]
check $? "-append: the layer's index kept right by GDAL (2705 rows)"

"$XG" inside -q -outside --regions 3 "$T/reg.gpkg" "$T/p2653.gpkg" "$D/orebodies.gpkg" &&
    [ "$(sql "$T/reg.gpkg" "SELECT rtreecheck('rtree_contacts_geom')")" = ok ] &&
    [ "$(sql "$T/reg.gpkg" 'SELECT count(*) FROM rtree_contacts_geom')" = 2653 ]
check $? "--regions 3: indexed (2653 rows, rtreecheck ok)"

# The GDAL fallback (rtree_defer.c's gdal_index: CreateSpatialIndex on
# the closed file), which no real output reaches: XG_RTREE_BULK=NO makes
# the loader decline.  The checks above, on its index.
export XG_RTREE_BULK=NO CPL_DEBUG=EXACTGEO
case_ fallback contacts "" inside -outside -q OUT "$T/p2653.gpkg" "$D/orebodies.gpkg"
unset XG_RTREE_BULK CPL_DEBUG
grep -q "layer 'contacts': not bulk-loadable, indexed by GDAL" "$T/log"
check $? "fallback: XG_RTREE_BULK=NO took GDAL's CreateSpatialIndex"

# A failure inside the index build (XG_TEST_RTREE_FAIL_AFTER: after 3 of
# its 56 nodes are written): one line naming DST and the layer, exit 1,
# DST as it was (an earlier file, byte for byte; a new one absent), no
# staging folder left.
mkdir "$T/f" && cd "$T/f" || exit 1
"$XG" inside -q -outside keep.gpkg "$T/p52.gpkg" "$D/orebodies.gpkg" && cp keep.gpkg before.gpkg
nostage() { ! ls -A . | grep -q 'exactgeo-'; }
XG_TEST_RTREE_FAIL_AFTER=3 "$XG" inside -q -outside -overwrite keep.gpkg "$T/p2653.gpkg" \
    "$D/orebodies.gpkg" 2> err.txt
st=$?
[ $st -eq 1 ] && [ "$(cat err.txt)" = "exactgeo: keep.gpkg, layer 'contacts': cannot build the spatial index (failure injected after 3 nodes, testing)" ] &&
    cmp -s keep.gpkg before.gpkg && nostage
check $? "index build failing on an existing DST: exit $st, '$(cat err.txt)', DST byte for byte, no staging"
XG_TEST_RTREE_FAIL_AFTER=3 "$XG" inside -q -outside fresh.gpkg "$T/p2653.gpkg" "$D/orebodies.gpkg" 2> err.txt
st=$?
[ $st -eq 1 ] && [ "$(wc -l < err.txt)" -eq 1 ] && grep -q "^exactgeo: fresh.gpkg, layer 'contacts': cannot build the spatial index" err.txt &&
    [ ! -e fresh.gpkg ] && nostage
check $? "index build failing on a new DST: exit $st, one line, no DST, no staging"

# Interrupted while the index is built (the tool pauses at the first
# progress call of the stage 'indexing': EXACTGEO_TEST_PAUSE_STAGE): the
# callback cancels the load, which rolls back; nothing written.
if env --default-signal=INT true 2>/dev/null; then
    rm -f ready ready.caught
    EXACTGEO_TEST_PAUSE=ready EXACTGEO_TEST_PAUSE_STAGE=indexing env --default-signal=INT \
        "$XG" inside -q -outside -overwrite keep.gpkg "$T/p2653.gpkg" "$D/orebodies.gpkg" 2> err.txt &
    pid=$!
    while [ ! -e ready ] && kill -0 $pid 2>/dev/null; do sleep 0.02; done
    kill -s INT $pid 2>/dev/null
    while [ ! -e ready.caught ] && kill -0 $pid 2>/dev/null; do sleep 0.02; done
    kill -s INT $pid 2>/dev/null
    wait $pid
    st=$?
    [ $st -eq 130 ] && [ "$(cat err.txt)" = "exactgeo: interrupted; nothing written" ] &&
        cmp -s keep.gpkg before.gpkg && nostage
    check $? "interrupted while indexing: exit $st, '$(cat err.txt)', DST byte for byte, no staging"
else
    echo "# env --default-signal not available: the interrupt while indexing is not checked"
fi
cd "$T" || exit 1

echo "1..$n"
exit $fail
