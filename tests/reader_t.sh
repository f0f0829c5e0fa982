#!/bin/sh
# reader_t.sh -- what the reader makes of its input (ogr_driver/read.c,
# src.c), issue 31, items 4, 6, 7 and 8, each section by its number:
#   4  delaunay refuses a layer mixing points with Z and without (it
#      wrote z = 0 for those without), naming the first of the other kind;
#   6  a NaN that OGR hands over as an empty point (a CSV's or VRT's
#      "nan") is refused as any NaN, in every operation and in regions; a
#      VRT whose source is missing says GDAL's reason;
#   7  -oo, -aoo, -boo (and aoo= in EXACTGEO:) open a CSV of x,y,z
#      columns; the "has no geometry" error of a CSV points to them;
#   8  -bgroup FIELD: a DXF wireframe (tests/cases/wireframe.dxf, one
#      3DFACE triangle per feature) grouped into solids by layer gives
#      the answer of the same solids as features; repeated warnings are
#      capped ("... and N more like it").
# Each runs the real exactgeo; nothing is written on a refusal.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
XG_T_NAME=reader
. "$top_srcdir/tests/cli_lib.sh"
PY=/usr/bin/python3
WIRE="$top_srcdir/tests/cases/wireframe.dxf"

# refused NAME EXPECTED-LINE CMD...: exit 1, the one line, no output.
refused() {
    name=$1; want=$2; shift 2
    rm -rf out.gpkg
    "$@" > got.out 2> got.err
    [ $? -eq 1 ]
    ok $? "$name: exit 1"
    grep -qxF "exactgeo: $want" got.err
    ok $? "$name: says '$want'"
    if ! grep -qxF "exactgeo: $want" got.err; then sed 's/^/# /' got.err; fi
    [ ! -e out.gpkg ]
    ok $? "$name: nothing written"
}

# ---- 4: delaunay on points with and without Z -------------------------
cat > mix.geojson <<'EOF'
{"type":"FeatureCollection","features":[
{"type":"Feature","id":1,"properties":{},"geometry":{"type":"Point","coordinates":[500000,7000000,10]}},
{"type":"Feature","id":2,"properties":{},"geometry":{"type":"Point","coordinates":[500010,7000000,11]}},
{"type":"Feature","id":3,"properties":{},"geometry":{"type":"Point","coordinates":[500000,7000010]}},
{"type":"Feature","id":4,"properties":{},"geometry":{"type":"Point","coordinates":[500010,7000010,13]}}]}
EOF
refused "4 mixed Z" "mix.geojson, layer 'mix', feature 3: point without Z, but feature 1 has Z: delaunay would put a z of 0 on the points without; give every point a z, or drop every z (ogr2ogr -dim XY)" \
    "$XG" delaunay out.gpkg mix.geojson
# the other way round: the first point without Z
sed -e 's/\[500000,7000000,10\]/[500000,7000000]/' \
    -e 's/\[500000,7000010\]/[500000,7000010,12]/' mix.geojson > mix2.geojson
refused "4 mixed Z, first 2D" "mix2.geojson, layer 'mix2', feature 2: point with Z, but feature 1 has none: delaunay would put a z of 0 on the points without; give every point a z, or drop every z (ogr2ogr -dim XY)" \
    "$XG" delaunay out.gpkg mix2.geojson
# all 2D or all 3D still run
sed -e 's/,1[0-3]\]/]/' mix.geojson > flat.geojson
rm -f out.gpkg
"$XG" delaunay -q out.gpkg flat.geojson
ok $? "4 all without Z: runs"
rm -f out.gpkg

# ---- 6: NaN hidden as an empty point ----------------------------------
printf 'id,x,y,z\n1,500000,7000000,1\n2,500010,7000000,2\n3,nan,7000005,3\n4,500000,7000010,4\n5,500010,7000010,5\n' > nan.csv
vrt() {  # vrt NAME CSV: a VRT of points from the columns x, y, z
    cat > "$1.vrt" <<EOF
<OGRVRTDataSource>
  <OGRVRTLayer name="$1">
    <SrcDataSource relativeToVRT="1">$2</SrcDataSource>
    <GeometryType>wkbPoint25D</GeometryType>
    <GeometryField encoding="PointFromColumns" x="x" y="y" z="z"/>
  </OGRVRTLayer>
</OGRVRTDataSource>
EOF
}
vrt nan nan.csv
refused "6 delaunay NaN x in a VRT" "nan.vrt, layer 'nan', feature 3: vertex 0: x coordinate is NaN" \
    "$XG" delaunay out.gpkg nan.vrt
cat > cube.csv <<'EOF'
id,WKT
1,"POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 1 0,1 0 0,0 0 0)),((0 0 1,1 0 1,1 1 1,0 1 1,0 0 1)),((0 0 0,1 0 0,1 0 1,0 0 1,0 0 0)),((0 1 0,0 1 1,1 1 1,1 1 0,0 1 0)),((0 0 0,0 0 1,0 1 1,0 1 0,0 0 0)),((1 0 0,1 1 0,1 1 1,1 0 1,1 0 0)))"
EOF
printf 'id,x,y,z\n1,0.5,0.5,0.5\n2,0.25,nan,0.5\n3,2,2,2\n' > nany.csv
vrt nany nany.csv
refused "6 inside -outside NaN y in a VRT" "nany.vrt, layer 'nany', feature 2: vertex 0: y coordinate is NaN" \
    "$XG" inside -outside out.gpkg nany.vrt cube.csv
refused "6 inside --regions 2 -outside NaN y" "nany.vrt, layer 'nany', feature 2: vertex 0: y coordinate is NaN" \
    "$XG" inside --regions 2 -outside out.gpkg nany.vrt cube.csv
# and over MPI, where the ranks' regions read the points
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if [ "${XG_MPI:-yes}" = yes ] && command -v mpirun >/dev/null 2>&1 &&
    mpirun -n 2 --oversubscribe "$XG" --version >/dev/null 2>&1; then
    refused "6 inside under mpirun -n 3 -outside NaN y" "nany.vrt, layer 'nany', feature 2: vertex 0: y coordinate is NaN" \
        mpirun -n 3 --oversubscribe "$XG" inside -outside out.gpkg nany.vrt cube.csv
else
    for k in 1 2 3; do ok 0 "6 inside under mpirun -n 3 # SKIP no MPI build"; done
fi
# an empty point as GeoPackage stores it (x and y NaN): skipped, and the
# warning says that its coordinates are NaN
printf 'id,x,y,z\n1,0.5,0.5,0.5\n2,nan,nan,nan\n3,2,2,2\n' > nanxy.csv
vrt nanxy nanxy.csv
rm -f out.gpkg
"$XG" inside -outside out.gpkg nanxy.vrt cube.csv > got.out 2> got.err
ok $? "6 an empty point (x and y NaN): skipped"
grep -qxF "exactgeo: warning: nanxy.vrt, layer 'nanxy', feature 2: empty point (its x and y are NaN, as GeoPackage and WKB store POINT EMPTY; GDAL writes a point whose x or y is NaN so); skipped" got.err
ok $? "6 an empty point: the warning says NaN"
rm -f out.gpkg
# a VRT whose CSV is missing: GDAL's reason, not "has no geometry"
vrt gone gone.csv
refused "6 VRT of a missing CSV" "gone.vrt, layer 'gone': cannot read the layer: Failed to open datasource \`gone.csv'." \
    "$XG" delaunay out.gpkg gone.vrt

# ---- 7: open options (-oo, -aoo, -boo; aoo= in EXACTGEO:) -------------
# a survey as surveyors keep it: a CSV of East, North, RL columns
printf 'id,East,North,RL\n1,500000,7000000,1\n2,500010,7000000,2\n3,500005,7000005,3\n4,500000,7000010,4\n5,500010,7000010,5\n' > survey.csv
refused "7 a CSV of coordinates, no -oo" "survey.csv, layer 'survey': has no geometry; for a CSV of coordinates, open it with -oo X_POSSIBLE_NAMES=East -oo Y_POSSIBLE_NAMES=North -oo Z_POSSIBLE_NAMES=RL" \
    "$XG" delaunay out.gpkg survey.csv
rm -f out.gpkg
"$XG" delaunay -q out.gpkg survey.csv -oo X_POSSIBLE_NAMES=East \
    -oo Y_POSSIBLE_NAMES=North -oo Z_POSSIBLE_NAMES=RL
ok $? "7 delaunay -oo: runs"
# the four triangles around the centre point 3, z carried
dump out.gpkg -select v0,v1,v2 | sort > got.txt
cat > want.txt <<'EOF'
POLYGON Z ((500000 7000000 1,500005 7000005 3,500000 7000010 4,500000 7000000 1)),1,3,4
POLYGON Z ((500000 7000000 1,500010 7000000 2,500005 7000005 3,500000 7000000 1)),1,2,3
POLYGON Z ((500005 7000005 3,500010 7000010 5,500000 7000010 4,500005 7000005 3)),3,5,4
POLYGON Z ((500010 7000000 2,500010 7000010 5,500005 7000005 3,500010 7000000 2)),2,5,3
EOF
sort want.txt | cmp -s - got.txt
ok $? "7 delaunay -oo: the triangles, with z"
# inside: A a CSV of x, y, z (-aoo), B a CSV whose WKT column is not
# named WKT (-boo GEOM_POSSIBLE_NAMES); -oo of another value loses to
# -aoo's, whatever the order
printf 'id,x,y,z\n1,0.5,0.5,0.5\n2,1,0.5,0.25\n3,2,2,2\n' > probes.csv
sed 's/^id,WKT$/id,shape/' cube.csv > cube_shape.csv
rm -f out.gpkg
"$XG" inside -q -outside out.gpkg probes.csv cube_shape.csv \
    -aoo X_POSSIBLE_NAMES=x -oo X_POSSIBLE_NAMES=nosuch \
    -oo Y_POSSIBLE_NAMES=y -aoo Z_POSSIBLE_NAMES=z \
    -boo GEOM_POSSIBLE_NAMES=shape
ok $? "7 inside -aoo, -boo, -oo: runs"
dump out.gpkg -select a_fid,kind > got.txt
printf 'POINT Z (0.5 0.5 0.5),1,inside\nPOINT Z (1.0 0.5 0.25),2,boundary\nPOINT Z (2 2 2),3,outside\n' > want.txt
cmp -s want.txt got.txt
ok $? "7 inside -aoo: inside, boundary, outside"
if ! cmp -s want.txt got.txt; then sed 's/^/# /' got.txt; fi
refused "7 inside, B's open option missing" "cube_shape.csv, layer 'cube_shape': has no geometry; for a CSV of WKT geometries, open it with -boo GEOM_POSSIBLE_NAMES=shape" \
    "$XG" inside out.gpkg probes.csv cube_shape.csv -aoo X_POSSIBLE_NAMES=x -aoo Y_POSSIBLE_NAMES=y -aoo Z_POSSIBLE_NAMES=z
"$XG" inside out.gpkg probes.csv cube_shape.csv > got.out 2> got.err
grep -qxF "exactgeo: probes.csv, layer 'probes': has no geometry; for a CSV of coordinates, open it with -aoo X_POSSIBLE_NAMES=x -aoo Y_POSSIBLE_NAMES=y -aoo Z_POSSIBLE_NAMES=z" got.err
ok $? "7 inside: the hint names -aoo"
"$XG" delaunay out.gpkg survey.csv -oo X_POSSIBLE_NAMES > got.out 2> got.err
[ $? -eq 2 ] && grep -qF -- "-oo: bad open option 'X_POSSIBLE_NAMES' (expected NAME=VALUE)" got.err
ok $? "7 -oo without a value: usage error"
"$XG" delaunay out.gpkg survey.csv -boo X_POSSIBLE_NAMES=x > got.out 2> got.err
[ $? -eq 2 ]
ok $? "7 delaunay -boo: usage error (one input)"
# the EXACTGEO driver: aoo= (repeated) in a connection string
PLUG="$top_builddir/ogr_driver/.libs"
if [ -f "$PLUG/ogr_EXACTGEO.so" ]; then
    GDAL_DRIVER_PATH=$PLUG LD_LIBRARY_PATH="$top_builddir/src/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        ogrinfo -q -al "EXACTGEO:op=delaunay;a=survey.csv;aoo=X_POSSIBLE_NAMES=East;aoo=Y_POSSIBLE_NAMES=North;oo=Z_POSSIBLE_NAMES=RL" \
        > got.out 2> got.err
    [ "$(grep -c 'POLYGON Z' got.out)" -eq 4 ]
    ok $? "7 EXACTGEO: aoo=, oo=: four triangles"
    GDAL_DRIVER_PATH=$PLUG LD_LIBRARY_PATH="$top_builddir/src/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        ogrinfo -q -al "EXACTGEO:op=delaunay;a=survey.csv" > got.out 2> got.err
    grep -qF "survey.csv, layer 'survey': has no geometry; for a CSV of coordinates, open it with aoo=X_POSSIBLE_NAMES=East;aoo=Y_POSSIBLE_NAMES=North;aoo=Z_POSSIBLE_NAMES=RL" got.err
    ok $? "7 EXACTGEO: the hint names aoo="
else
    ok 0 "7 EXACTGEO: aoo= # SKIP no plugin built"
    ok 0 "7 EXACTGEO: the hint # SKIP no plugin built"
fi

# ---- 8: a DXF wireframe: warnings capped, -bgroup ---------------------
# the case is what its script writes
"$PY" "$top_srcdir/tests/cases/make_wireframe.py" | cmp -s - "$WIRE"
ok $? "8 tests/cases/wireframe.dxf is make_wireframe.py's"
"$PY" "$top_srcdir/tests/cases/make_wireframe.py" --points > probes3.csv
"$PY" "$top_srcdir/tests/cases/make_wireframe.py" --holes > holes.csv
"$PY" "$top_srcdir/tests/cases/make_wireframe.py" --wkt > solids.csv
P3="-aoo X_POSSIBLE_NAMES=x -aoo Y_POSSIBLE_NAMES=y -aoo Z_POSSIBLE_NAMES=z"
# each triangle a feature: not closed, and the error says what to do
refused "8 inside on a wireframe" "$WIRE, layer 'entities', feature 0: surface is not closed: 3 open edges (edges used by an odd number of its triangles); a wireframe of one triangle per feature? group them into solids by a field: -bgroup FIELD" \
    "$XG" inside out.gpkg probes3.csv "$WIRE" $P3
# -skip-invalid: 56 features skipped, ten warnings of each kind (ours and
# GDAL's own about the DXF's rings), then one line for the rest
"$XG" inside out.gpkg probes3.csv "$WIRE" $P3 -skip-invalid > got.out 2> got.err
grep -c "surface is not closed" got.err > got.txt
grep -c "Non closed ring detected" got.err >> got.txt
grep -c "^exactgeo: warning: \.\.\. and 46 more like it$" got.err >> got.txt
printf '10\n10\n2\n' | cmp -s - got.txt
ok $? "8 -skip-invalid: 10 warnings of each kind, then '... and 46 more like it'"
grep -A1 "feature 9: surface is not closed" got.err | tail -1 |
    grep -qx "exactgeo: warning: \.\.\. and 46 more like it"
ok $? "8 the count follows the tenth of its kind"
# -bgroup Layer: the answer of the same solids given as features
rm -f out.gpkg
"$XG" inside out.gpkg probes3.csv "$WIRE" $P3 -bgroup Layer -bcopy Layer > got.out 2> got.err
ok $? "8 inside -bgroup Layer: runs"
grep -qF "  B: $WIRE, layer 'entities': 56 features, 2 groups by Layer, 56 triangles" got.out
ok $? "8 inside -bgroup Layer: the summary counts the groups"
"$XG" inside -q solids.gpkg probes3.csv solids.csv $P3 -bcopy name
dump out.gpkg -select a_fid,a_part,kind,b_Layer | sort > got.txt
dump solids.gpkg -select a_fid,a_part,kind,b_name | sort > want.txt
[ -s want.txt ] && [ "$(grep -c ',inside,' want.txt)" -gt 1000 ] &&
    [ "$(grep -c ',boundary,' want.txt)" -gt 100 ] && cmp -s want.txt got.txt
ok $? "8 inside -bgroup Layer = the solids as features ($(wc -l < got.txt) records)"
# the group's id: its lowest FID; the value copied with -bcopy
dump out.gpkg -select b_fid,b_Layer | sed 's/^[^,]*,//' | sort -u > got.txt
printf '0,LENS_N\n24,LENS_S\n' | cmp -s - got.txt
ok $? "8 b_fid: the group's lowest FID (0 and 24)"
# segtri's meshes: the same contacts, b_tri counted over the group
rm -f out.gpkg
"$XG" segtri -q out.gpkg holes.csv "$WIRE" -bgroup Layer
"$XG" segtri -q mesh.gpkg holes.csv solids.csv
dump out.gpkg -select a_fid,a_seg,b_tri,kind > got.txt
dump mesh.gpkg -select a_fid,a_seg,b_tri,kind > want.txt
[ "$(wc -l < want.txt)" -gt 50 ] && cmp -s want.txt got.txt
ok $? "8 segtri -bgroup Layer = the meshes as features ($(wc -l < got.txt) contacts)"
# a group that is not closed (one triangle left out by the filter)
refused "8 -bgroup, a group not closed" "$WIRE, layer 'entities', group Layer = 'LENS_N' (23 features, the lowest FID 0): surface is not closed: 3 open edges (edges used by an odd number of its triangles)" \
    "$XG" inside out.gpkg probes3.csv "$WIRE" $P3 -bgroup Layer -bwhere "FID <> 5"
rm -f out.gpkg
"$XG" inside out.gpkg probes3.csv "$WIRE" $P3 -bgroup Layer -bwhere "FID <> 5" \
    -skip-invalid -bcopy Layer > got.out 2> got.err
grep -qxF "exactgeo: warning: $WIRE, layer 'entities', group Layer = 'LENS_N' (23 features, the lowest FID 0): surface is not closed: 3 open edges (edges used by an odd number of its triangles); skipped" got.err &&
    [ "$(dump out.gpkg -select b_Layer | sed 's/.*,//' | sort -u)" = LENS_S ]
ok $? "8 -bgroup -skip-invalid: the open group skipped, the other kept"
# a feature without a value, a field that is not there, misplaced uses
# (a CSV of WKT; -boo EMPTY_STRING_AS_NULL=YES makes an empty cell NULL)
cat > lens.csv <<'EOF'
id,g,WKT
1,a,"MULTIPOLYGON Z (((0 0 0,0 1 0,1 1 0,1 0 0,0 0 0)),((0 0 1,1 0 1,1 1 1,0 1 1,0 0 1)),((0 0 0,1 0 0,1 0 1,0 0 1,0 0 0)))"
2,,"MULTIPOLYGON Z (((0 1 0,0 1 1,1 1 1,1 1 0,0 1 0)),((0 0 0,0 0 1,0 1 1,0 1 0,0 0 0)),((1 0 0,1 1 0,1 1 1,1 0 1,1 0 0)))"
EOF
refused "8 -bgroup, a NULL value" "lens.csv, layer 'lens', feature 2: field 'g' is NULL: no group to put it in" \
    "$XG" inside out.gpkg probes.csv lens.csv -bgroup g $P3 -boo EMPTY_STRING_AS_NULL=YES
sed 's/^2,,/2,a,/' lens.csv > lens2.csv
rm -f out.gpkg
"$XG" inside -q -outside out.gpkg probes.csv lens2.csv -bgroup g $P3
dump out.gpkg -select a_fid,b_fid,kind > got.txt
printf 'POINT Z (0.5 0.5 0.5),1,1,inside\nPOINT Z (1.0 0.5 0.25),2,1,boundary\nPOINT Z (2 2 2),3,,outside\n' | cmp -s - got.txt
ok $? "8 -bgroup: two halves of a cube make one solid"
# a group of two closed cubes that overlap (lenses merged by their
# field): closed, but its surface crosses itself, as a feature's would
sed 's/^2,,/2,a,/' lens.csv > lens3.csv
echo '3,a,"MULTIPOLYGON Z (((0.5 0.5 0.5,0.5 1.5 0.5,1.5 1.5 0.5,1.5 0.5 0.5,0.5 0.5 0.5)),((0.5 0.5 1.5,1.5 0.5 1.5,1.5 1.5 1.5,0.5 1.5 1.5,0.5 0.5 1.5)),((0.5 0.5 0.5,1.5 0.5 0.5,1.5 0.5 1.5,0.5 0.5 1.5,0.5 0.5 0.5)),((0.5 1.5 0.5,0.5 1.5 1.5,1.5 1.5 1.5,1.5 1.5 0.5,0.5 1.5 0.5)),((0.5 0.5 0.5,0.5 0.5 1.5,0.5 1.5 1.5,0.5 1.5 0.5,0.5 0.5 0.5)),((1.5 0.5 0.5,1.5 1.5 0.5,1.5 1.5 1.5,1.5 0.5 1.5,1.5 0.5 0.5)))"' >> lens3.csv
rm -f out.gpkg
"$XG" inside out.gpkg probes.csv lens3.csv -bgroup g $P3 > got.out 2> got.err
[ $? -eq 1 ] && [ ! -e out.gpkg ] &&
    grep -q "^exactgeo: lens3.csv, layer 'lens3', group g = 'a' (3 features, the lowest FID 1): surface crosses itself: its triangles [0-9]* and [0-9]* meet other than at an edge or a vertex they share" got.err
ok $? "8 -bgroup, a group crossing itself: exit 1 naming the group and two of its triangles, nothing written"
"$XG" inside -outside out.gpkg probes.csv lens3.csv -bgroup g $P3 -skip-invalid > got.out 2> got.err
# with the group skipped B has no solid left: an error, not an empty answer
[ $? -eq 1 ] && grep -q "^exactgeo: warning: lens3.csv, layer 'lens3', group g = 'a' .*: surface crosses itself: .*; skipped" got.err &&
    [ ! -e out.gpkg ]
ok $? "8 -bgroup -skip-invalid, a group crossing itself: skipped with a warning"
refused "8 -bgroup, no such field" "lens.csv, layer 'lens': no field 'grp' to group the features of B by" \
    "$XG" inside out.gpkg probes.csv lens.csv -bgroup grp $P3
"$XG" inside out.gpkg probes.csv lens.csv -bgroup g $P3 --regions 2 > got.out 2> got.err
[ $? -eq 2 ] && grep -qF "grouping B's features (-bgroup) cannot run in regions" got.err && [ ! -e out.gpkg ]
ok $? "8 -bgroup --regions 2: usage error, nothing written"
"$XG" redblue out.gpkg holes.csv holes.csv -bgroup id > got.out 2> got.err
[ $? -eq 2 ] && grep -qF "redblue reads no triangles to group into solids or meshes" got.err
ok $? "8 redblue -bgroup: usage error"
if [ -f "$PLUG/ogr_EXACTGEO.so" ]; then
    GDAL_DRIVER_PATH=$PLUG LD_LIBRARY_PATH="$top_builddir/src/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        ogrinfo -al -so "EXACTGEO:op=segtri;a=holes.csv;b=$WIRE;bgroup=Layer" \
        > got.out 2> got.err
    grep -qx "Feature Count: $(wc -l < want.txt)" got.out
    ok $? "8 EXACTGEO: bgroup=Layer: the tool's count"
else
    ok 0 "8 EXACTGEO: bgroup= # SKIP no plugin built"
fi

echo "1..$n"
exit $failed
