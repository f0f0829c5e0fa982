#!/bin/sh
# gpkg_direct_t.sh -- the direct GeoPackage writer (issue 33 part 2;
# ogr_driver/gpkg_direct.c) writes the file OGR's route writes: for every
# writer (contacts of segtri with Z, of inside -outside with NULL fields
# and none at all, redblue's mixed points and lines, delaunay's
# triangles in 3D and 2D, -lco SPATIAL_INDEX=NO), the whole SQL dump of
# the file (rows, FIDs, geometry blobs byte for byte, gpkg_contents'
# extent, gpkg_ogr_contents' count, the index's nodes, the triggers) is
# that of the same run with XG_GPKG_DIRECT=NO, and PRAGMA integrity_check
# passes (the rows and the index are written as B-tree pages:
# ogr_driver/sqlite_pages.c); -append of a new layer to
# a GeoPackage leaves its other layer as it was; a failure in the middle
# of the write leaves DST as it was and nothing staged.  TAP.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
XG_T_NAME=gpkg_direct
. "$top_srcdir/tests/cli_lib.sh"
D="$top_srcdir/data"
command -v sqlite3 >/dev/null 2>&1 || { echo "1..0 # SKIP no sqlite3"; exit 0; }
# GeoPackages carry the time they were written: pin it
OGR_CURRENT_DATE=2000-01-01T00:00:00Z
export OGR_CURRENT_DATE

# same NAME OP ARGS...: the run into d/NAME.gpkg (direct) and
# o/NAME.gpkg (XG_GPKG_DIRECT=NO); their SQL dumps equal, sorted (the
# pages put the tables' rows elsewhere in the file, not in another
# order); d/NAME.gpkg passes integrity_check.
same() {
    name=$1; op=$2; shift 2
    mkdir -p d o
    CPL_DEBUG=EXACTGEO "$XG" "$op" -q "d/$name.gpkg" "$@" 2>d.err &&
        XG_GPKG_DIRECT=NO "$XG" "$op" -q "o/$name.gpkg" "$@" 2>o.err ||
        { cat d.err o.err; return 1; }
    grep -q 'direct writer' d.err || { echo "# $name: not written directly"; return 1; }
    ic=$(sqlite3 "d/$name.gpkg" "PRAGMA integrity_check")
    [ "$ic" = ok ] || { echo "# $name: integrity_check: $ic" | head -3; return 1; }
    sqlite3 "d/$name.gpkg" .dump | sort > d.sql
    sqlite3 "o/$name.gpkg" .dump | sort > o.sql
    cmp -s d.sql o.sql || { diff d.sql o.sql | head -5 | sed 's/^/# /'; return 1; }
}
rows() { sqlite3 "$1" "SELECT count(*) FROM $2"; }

ogr2ogr -f GPKG s2d.gpkg "$D/survey.gpkg" -dim XY 2>/dev/null &&
    ogr2ogr -f GPKG p1.gpkg "$D/blocks.gpkg" -where "fid <= 1" 2>/dev/null &&
    ogr2ogr -f GPKG p2653.gpkg "$D/blocks.gpkg" -where "fid <= 2653" 2>/dev/null ||
    { echo "Bail out! ogr2ogr failed"; exit 1; }

same seg segtri "$D/drillholes.gpkg" "$D/orebodies.gpkg"
ok $? "segtri (PointZ and LineStringZ contacts): the same file as OGR's route ($(rows d/seg.gpkg contacts) rows)"
same ins inside -outside p2653.gpkg "$D/orebodies.gpkg"
ok $? "inside -outside (NULL b_fid): the same file ($(rows d/ins.gpkg contacts) rows)"
same in0 inside p1.gpkg "$D/orebodies.gpkg"
ok $? "inside, no contact: the same file, no extent ($(rows d/in0.gpkg contacts) rows)"
same rb redblue "$D/nybb.gpkg" "$D/nybb_simplified.gpkg"
ok $? "redblue (2D points and lines): the same file ($(rows d/rb.gpkg contacts) rows)"
same tri delaunay "$D/survey.gpkg"
ok $? "delaunay (PolygonZ): the same file ($(rows d/tri.gpkg triangles) rows)"
same tri2 delaunay s2d.gpkg --threads 1
ok $? "delaunay in 2D, one thread: the same file"
same noidx delaunay s2d.gpkg -lco SPATIAL_INDEX=NO
ok $? "-lco SPATIAL_INDEX=NO: the same file, no index"
[ "$(sqlite3 d/noidx.gpkg "SELECT count(*) FROM sqlite_master WHERE name LIKE 'rtree%'")" = 0 ] &&
    [ "$(sqlite3 d/tri.gpkg "SELECT rtreecheck('rtree_triangles_geom')")" = ok ] &&
    [ "$(sqlite3 d/tri.gpkg "SELECT feature_count FROM gpkg_ogr_contents")" = "$(rows d/tri.gpkg triangles)" ]
ok $? "the index from the writer's boxes passes rtreecheck; the count is the rows'"

# ---- -append of a new layer: the other layer untouched
cp d/tri.gpkg app.gpkg && cp d/tri.gpkg appo.gpkg &&
    sqlite3 app.gpkg "SELECT * FROM triangles" > before.txt &&
    "$XG" inside -q -outside -append app.gpkg p2653.gpkg "$D/orebodies.gpkg" &&
    XG_GPKG_DIRECT=NO "$XG" inside -q -outside -append appo.gpkg p2653.gpkg "$D/orebodies.gpkg" &&
    sqlite3 app.gpkg "SELECT * FROM triangles" | cmp -s - before.txt &&
    sqlite3 app.gpkg .dump | sort > a.sql && sqlite3 appo.gpkg .dump | sort > b.sql &&
    cmp -s a.sql b.sql
ok $? "-append of a new layer: the file of OGR's route, the other layer as it was"

# ---- a failure in the middle of the direct write: DST as it was
"$XG" delaunay -q keep.gpkg "$D/survey.gpkg" 2>/dev/null
before=$(cksum < keep.gpkg)
EXACTGEO_TEST_FAIL_AFTER=3000 CPL_DEBUG=EXACTGEO "$XG" delaunay -q -overwrite keep.gpkg "$D/survey.gpkg" 2>fail.err
st=$?
[ $st = 1 ] && grep -q 'direct writer' fail.err &&
    grep -q 'failure injected after 3000 features' fail.err &&
    [ "$(cksum < keep.gpkg)" = "$before" ] && nostage .
ok $? "failing after 3000 features: exit $st, '$(grep -v '^GDAL\|^EXACTGEO' fail.err | tail -1)', DST untouched"
cp keep.gpkg keep2.gpkg
before=$(cksum < keep2.gpkg)
EXACTGEO_TEST_FAIL_AFTER=20 "$XG" inside -q -outside -append keep2.gpkg p2653.gpkg "$D/orebodies.gpkg" 2>fail2.err
[ $? = 1 ] && [ "$(cksum < keep2.gpkg)" = "$before" ] && nostage .
ok $? "-append failing after 20 features: the existing GeoPackage untouched"

echo "1..$n"
exit $failed
