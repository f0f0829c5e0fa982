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

echo "1..$n"
exit $failed
