#!/bin/sh
# qgis_t.sh -- the QGIS Processing provider run headless by qgis_process:
# its point and line outputs together equal the exactgeo tool's contacts;
# the inside algorithm (points in solids) gives the tool's records, with
# its options OUTSIDE and SKIP_INVALID; the delaunay algorithm (one
# input) gives the tool's triangles, TIN its TIN; an exported input keeps
# its feature ids and the messages name the user's layer; an error is
# printed once; names, outputs and parameters come from the table.
# Skips where QGIS is absent.
: "${top_srcdir:=.}" "${top_builddir:=.}"
QP=$(command -v qgis_process.bin || command -v qgis_process)
if [ -z "$QP" ]; then echo "1..0 # SKIP QGIS (qgis_process) not installed"; exit 0; fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export QT_QPA_PLATFORM=offscreen XDG_DATA_HOME="$T/xdg" XDG_RUNTIME_DIR="$T"
P="$XDG_DATA_HOME/QGIS/QGIS3/profiles/default/python/plugins/exactgeo"
mkdir -p "$P" && cp "$top_srcdir"/qgis/exactgeo/*.py "$top_srcdir"/qgis/exactgeo/metadata.txt "$P/"
EXACTGEO_TOOL=$(cd "$top_builddir" && pwd)/exactgeo
export EXACTGEO_TOOL
D=$(cd "$top_srcdir/data" && pwd)
DUMP=$top_builddir/tests/ogrdump
n=0 fail=0
check() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }
"$QP" plugins enable exactgeo > "$T/log" 2>&1
check $? "qgis_process plugins enable exactgeo"
"$QP" run exactgeo:segtri -- A="$D/drillholes.gpkg" B="$D/orebodies.gpkg" \
    A_FIELDS=hole_id OUTPUT="$T/pts.gpkg" OUTPUT_LINES="$T/lines.gpkg" > "$T/log" 2>&1
rc=$?
[ $rc -ne 0 ] && sed 's/^/# /' "$T/log" | tail -5
check $rc "qgis_process run exactgeo:segtri"
"$EXACTGEO_TOOL" segtri -q -acopy hole_id "$T/cli.gpkg" "$D/drillholes.gpkg" "$D/orebodies.gpkg"
"$DUMP" "$T/cli.gpkg" | grep '^feature' | grep -v 'kind=coplanar' > "$T/a.txt"
"$DUMP" "$T/pts.gpkg" | grep '^feature' > "$T/b.txt"
[ -s "$T/a.txt" ] && cmp -s "$T/a.txt" "$T/b.txt"
check $? "point contacts equal the tool's (fields, coordinates, order)"
"$DUMP" "$T/cli.gpkg" | grep '^feature' | grep 'kind=coplanar' > "$T/a.txt"
"$DUMP" "$T/lines.gpkg" | grep '^feature' > "$T/b.txt"
[ -s "$T/a.txt" ] && cmp -s "$T/a.txt" "$T/b.txt"
check $? "line contacts equal the tool's"
"$DUMP" "$T/pts.gpkg" | grep -q '^layer .* 3D Point$'
check $? "points are PointZ"

# inside: one level of the demo block model (iz = 13 meets bodies 1, 2
# and 4) and the five probes, in the ore bodies, every point kept.
ogr2ogr -f GPKG "$T/few.gpkg" "$D/blocks.gpkg" -where "iz = 13 OR probe IS NOT NULL"
"$QP" run exactgeo:inside -- A="$T/few.gpkg" B="$D/orebodies.gpkg" \
    A_FIELDS=probe B_FIELDS=rock_type OUTSIDE=true OUTPUT="$T/in.gpkg" > "$T/log" 2>&1
rc=$?
[ $rc -ne 0 ] && sed 's/^/# /' "$T/log" | tail -5
check $rc "qgis_process run exactgeo:inside"
"$EXACTGEO_TOOL" inside -q -outside -acopy probe -bcopy rock_type "$T/cli_in.gpkg" \
    "$T/few.gpkg" "$D/orebodies.gpkg"
"$DUMP" "$T/cli_in.gpkg" | grep '^feature' > "$T/a.txt"
"$DUMP" "$T/in.gpkg" | grep '^feature' > "$T/b.txt"
[ -s "$T/a.txt" ] && cmp -s "$T/a.txt" "$T/b.txt"
check $? "inside: the output equals the tool's (fields, coordinates, order)"
"$DUMP" "$T/in.gpkg" | grep -q '^layer .* 3D Point$'
check $? "inside: the output is PointZ"
kinds=$(sed -n 's/.* kind=\([a-z]*\) .*/\1/p' "$T/b.txt" | sort -u | tr '\n' ' ')
[ "$kinds" = "boundary inside outside " ]
check $? "inside: kinds boundary, inside and outside ($kinds)"
pts=$(ogrinfo -ro -so "$T/few.gpkg" blocks | sed -n 's/^Feature Count: //p')
outs=$(grep -c ' kind=outside ' "$T/b.txt")
ins=$(grep -c -e ' kind=inside ' -e ' kind=boundary ' "$T/b.txt")
[ "$pts" -gt 5 ] && [ "$outs" -gt 0 ] && [ "$ins" -gt 0 ] && [ $((outs + ins)) -eq "$pts" ]
check $? "inside: every point once ($pts points: $ins in a body, $outs outside; the bodies do not overlap)"
for want in "ON-VERTEX b_fid=1 kind=boundary b_rock_type=massive sulphide" \
            "ON-EDGE b_fid=2 kind=boundary b_rock_type=disseminated sulphide" \
            "RAY-EDGE b_fid=2 kind=inside b_rock_type=disseminated sulphide" \
            "ON-FACE b_fid=3 kind=boundary b_rock_type=skarn" \
            "RAY-VERTEX b_fid=4 kind=inside b_rock_type=porphyry"; do
    probe=${want%% *}
    got=$(grep " a_probe=$probe " "$T/b.txt" | sed 's/^feature a_fid=[0-9]* a_part=0 b_fid=/b_fid=/; s/ a_probe=[A-Z-]*//; s/ |.*//')
    [ "$probe $got" = "$want" ]
    check $? "inside: probe $want${got:+ (got $got)}"
done
"$QP" help exactgeo:inside > "$T/help_in" 2>&1
"$QP" help exactgeo:segtri > "$T/help_st" 2>&1
grep -q '^OUTSIDE:' "$T/help_in" && grep -q '^SKIP_INVALID:' "$T/help_in" &&
    ! grep -q '^OUTPUT_LINES:' "$T/help_in"
check $? "inside has OUTSIDE and SKIP_INVALID, no OUTPUT_LINES"
grep -q '^OUTPUT_LINES:' "$T/help_st" && ! grep -q -e '^OUTSIDE:' -e '^SKIP_INVALID:' "$T/help_st"
check $? "segtri has OUTPUT_LINES, neither OUTSIDE nor SKIP_INVALID"
# An ore body with one triangle fewer is open: the run fails, naming it,
# unless SKIP_INVALID drops it (and only it).
/usr/bin/python3 - "$D/orebodies.gpkg" "$T/open.gpkg" <<'PY'
import sys
from osgeo import ogr
src = ogr.Open(sys.argv[1])
dst = ogr.GetDriverByName('GPKG').CopyDataSource(src, sys.argv[2])
lyr = dst.GetLayer(0)
f = lyr.GetFeature(3)
g = f.GetGeometryRef()
g.RemoveGeometry(0)
f.SetGeometry(g)
lyr.SetFeature(f)
dst = None
PY
"$QP" run exactgeo:inside -- A="$T/few.gpkg" B="$T/open.gpkg" \
    OUTPUT="$T/fail.gpkg" > "$T/log" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q 'feature 3' "$T/log" && grep -q 'open edges' "$T/log"
check $? "inside: an open solid fails the run, named (status $rc)"
# issue 31, item 11: the tool's error once, not four times (QGIS prints
# its own exception three times: that names the tool and its status)
[ "$(grep -c 'feature 3: surface is not closed' "$T/log")" -eq 1 ]
check $? "inside: the tool's error is printed once ($(grep -c 'feature 3: surface is not closed' "$T/log") times)"
"$QP" run exactgeo:inside -- A="$T/few.gpkg" B="$T/open.gpkg" SKIP_INVALID=true \
    OUTPUT="$T/skip.gpkg" > "$T/log" 2>&1
rc=$?
[ $rc -ne 0 ] && sed 's/^/# /' "$T/log" | tail -5
"$DUMP" "$T/skip.gpkg" | grep '^feature' > "$T/c.txt"
grep -v ' kind=outside ' "$T/b.txt" | grep -v ' b_fid=3 ' | sed 's/ a_probe=[^ ]*//; s/ b_rock_type=[a-z ]* |/ |/' > "$T/a.txt"
[ $rc -eq 0 ] && [ -s "$T/c.txt" ] && cmp -s "$T/a.txt" "$T/c.txt"
check $? "inside: SKIP_INVALID=true skips the open solid and keeps the others' records"
# delaunay: one input (INPUT), a polygon output equal to the tool's
# triangles; VERIFY; the demo survey with Z, a 2D copy without.
"$QP" run exactgeo:delaunay -- INPUT="$D/survey.gpkg" VERIFY=true \
    OUTPUT="$T/tin.gpkg" > "$T/log" 2>&1
rc=$?
[ $rc -ne 0 ] && sed 's/^/# /' "$T/log" | tail -5
check $rc "qgis_process run exactgeo:delaunay"
"$EXACTGEO_TOOL" delaunay -q "$T/cli_tin.gpkg" "$D/survey.gpkg"
"$DUMP" "$T/cli_tin.gpkg" | grep '^feature' > "$T/a.txt"
"$DUMP" "$T/tin.gpkg" | grep '^feature' > "$T/b.txt"
[ -s "$T/a.txt" ] && cmp -s "$T/a.txt" "$T/b.txt" && [ "$(wc -l < "$T/b.txt")" -eq 6232 ]
check $? "delaunay: the output equals the tool's 6232 triangles (v0, v1, v2, rings, order)"
"$DUMP" "$T/tin.gpkg" | grep -q '^layer .* 3D Polygon$'
check $? "delaunay: the output is PolygonZ"
grep -q "exactgeo delaunay .*--verify" "$T/log" &&
    grep -q "5 points at the (x, y) of another but with another z" "$T/log"
check $? "delaunay: VERIFY=true runs the tool with --verify; its warning reaches the log"
ogr2ogr -f GPKG "$T/flat.gpkg" "$D/survey.gpkg" -dim XY -nln flat
"$QP" run exactgeo:delaunay -- INPUT="$T/flat.gpkg" OUTPUT="$T/tin2d.gpkg" > "$T/log" 2>&1 &&
    "$DUMP" "$T/tin2d.gpkg" | grep -q '^layer .* Polygon$' &&
    [ "$("$DUMP" "$T/tin2d.gpkg" | grep -c '^feature')" -eq 6232 ]
check $? "delaunay: 2D points give a 2D Polygon layer of the same 6232 triangles"
"$QP" help exactgeo:delaunay > "$T/help_dt" 2>&1
grep -q '^INPUT:' "$T/help_dt" && grep -q '^VERIFY:' "$T/help_dt" &&
    ! grep -q -e '^A:' -e '^B:' -e '^B_FIELDS:' -e '^GRID:' -e '^OUTPUT_LINES:' "$T/help_dt"
check $? "delaunay has INPUT and VERIFY, no A, B, B_FIELDS, GRID or OUTPUT_LINES"
ogr2ogr -f GPKG "$T/line.gpkg" "$D/survey.gpkg" -where "fid <= 10" -nln line
"$QP" run exactgeo:delaunay -- INPUT="$T/line.gpkg" OUTPUT="$T/none.gpkg" > "$T/log" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "not all on one line" "$T/log" && [ ! -e "$T/none.gpkg" ]
check $? "delaunay: collinear points fail the run with the tool's message (status $rc)"

# issue 31, item 11: an input QGIS must export (a subset filter here; a
# selection alike) keeps its own feature ids, so that a_fid names the
# user's features (a Shapefile's are 0-based), and the tool's messages
# name the QGIS layer, not the temporary export.
mkdir "$T/shp"
ogr2ogr -f "ESRI Shapefile" "$T/shp/blk.shp" "$D/blocks.gpkg" -where "probe IS NOT NULL OR fid < 3"
"$QP" run exactgeo:inside -- "A=$T/shp/blk.shp|subset=\"probe\" = 'ON-EDGE' OR \"block_id\" = 1" \
    "B=$T/open.gpkg|subset=body_id >= 2" "A_FIELDS=probe;block_id" OUTSIDE=true SKIP_INVALID=true \
    OUTPUT="$T/sub.gpkg" > "$T/log" 2>&1
rc=$?
[ $rc -ne 0 ] && sed 's/^/# /' "$T/log" | tail -5
got=$("$DUMP" "$T/sub.gpkg" | grep '^feature' | sed 's/ |.*//' | tr '\n' ';')
[ $rc -eq 0 ] && [ "$got" = "feature a_fid=0 a_part=0 b_fid=NULL kind=outside a_probe=NULL a_block_id=1;feature a_fid=3 a_part=0 b_fid=2 kind=boundary a_probe=ON-EDGE a_block_id=49360;" ]
check $? "a filtered Shapefile: a_fid is the Shapefile's FID (0 and 3, not 1 and 2): $got"
grep 'exactgeo: ' "$T/log" > "$T/msgs"
grep -q "warning: QGIS layer 'open', feature 3: surface is not closed" "$T/msgs" &&
    ! grep -q -e "B\.gpkg" -e "layer 'B'" -e "A\.gpkg" "$T/msgs"
check $? "the tool's warning names the QGIS layer, not the temporary export: $(grep 'warning:' "$T/log" | head -1)"

# issue 31, item 11: the group, the count outputs and the parameters
# THREADS, MAX_MEMORY and TIN come from the table
"$QP" --json help exactgeo:delaunay > "$T/dt.json" 2> /dev/null
/usr/bin/python3 - "$T/dt.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
g = d['algorithm_details']['group']
assert 'intersection' not in g.lower(), g
assert 'intersections' not in d['provider_details']['long_name'], d['provider_details']
PY
check $? "the group and the provider are not called intersections (delaunay is none)"
"$QP" help exactgeo:inside > "$T/help_in" 2>&1
"$QP" help exactgeo:segtri > "$T/help_st" 2>&1
"$QP" help exactgeo:delaunay > "$T/help_dt" 2>&1
grep -q '^RECORDS: <outputNumber>' "$T/help_in" && ! grep -q '^CONTACTS:' "$T/help_in" &&
    grep -q '^CONTACTS: <outputNumber>' "$T/help_st" && grep -q '^TRIANGLES: <outputNumber>' "$T/help_dt"
check $? "the count output is each operation's: inside RECORDS (not CONTACTS), segtri CONTACTS, delaunay TRIANGLES"
all=0
for h in help_in help_st help_dt; do
    grep -q '^THREADS:' "$T/$h" && grep -q '^MAX_MEMORY:' "$T/$h" || all=1
done
grep -q '^TIN:' "$T/help_dt" && ! grep -q '^TIN:' "$T/help_st" && ! grep -q '^TIN:' "$T/help_in" || all=1
check $all "THREADS and MAX_MEMORY for every operation, TIN for delaunay only"
"$QP" run exactgeo:delaunay -- INPUT="$D/survey.gpkg" MAX_MEMORY=4K OUTPUT="$T/mem.gpkg" > "$T/log" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q 'exactgeo delaunay .*--max-memory 4K' "$T/log" &&
    grep -q 'refused before it started' "$T/log" && [ ! -e "$T/mem.gpkg" ]
check $? "MAX_MEMORY=4K: the tool's --max-memory refuses the run (status $rc)"
"$QP" run exactgeo:delaunay -- INPUT="$D/survey.gpkg" TIN=true THREADS=1 OUTPUT="$T/tinone.gpkg" > "$T/log" 2>&1
rc=$?
[ $rc -ne 0 ] && sed 's/^/# /' "$T/log" | tail -5
"$EXACTGEO_TOOL" delaunay -q --tin "$T/cli_tinone.gpkg" "$D/survey.gpkg"
/usr/bin/python3 - "$T/tinone.gpkg" "$T/cli_tinone.gpkg" <<'PY'
import sys
from osgeo import ogr
ds = [ogr.Open(p) for p in sys.argv[1:3]]
got, want = ([f.GetGeometryRef().Clone() for f in d.GetLayer(0)] for d in ds)
assert len(got) == len(want) == 1
g, w = got[0], want[0]
assert g.GetGeometryType() == ogr.wkbMultiPolygon25D and w.GetGeometryType() == ogr.wkbTINZ
assert g.GetGeometryCount() == w.GetGeometryCount() == 6232
for i in range(6232):
    assert g.GetGeometryRef(i).GetGeometryRef(0).GetPoints() == \
        w.GetGeometryRef(i).GetGeometryRef(0).GetPoints(), i
PY
py=$?
[ $rc -eq 0 ] && [ $py -eq 0 ] && grep -q 'exactgeo delaunay .*--threads 1 .*--tin' "$T/log" &&
    grep -q '^TRIANGLES:	6232' "$T/log"
check $? "TIN=true THREADS=1: --tin --threads 1, one MultiPolygonZ of the tool's 6232 triangles, in order"

echo "1..$n"
exit $fail
