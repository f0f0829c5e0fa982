#!/bin/sh
# read_arrow_t.sh -- the Arrow route of the reader (ogr_driver/
# read_arrow.c, issue 33, item 2) reads what today's route reads: on
# inputs mixing plain points with NULL and empty geometries, MultiPoints,
# FID gaps, more features than one batch (4096), -where, and -spat through
# points on the box's edge and within float32 of it, the tool's output,
# its messages and its exit status are those of XG_READ_ARROW=NO (today's
# route, feature by feature), on GeoPackage and FlatGeobuf; and where a
# feature is refused, the one line naming it is the same.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
XG_T_NAME=read_arrow
. "$top_srcdir/tests/cli_lib.sh"
PY=/usr/bin/python3
ORE="$top_srcdir/data/orebodies.gpkg"

# mixed.geojson: 6000 features, ids 1, 4, 7, ... (gaps); every 97th
# without geometry, every 89th an empty point, every 13th a MultiPoint of
# two; the points near (500000, 7000000), some 1 mm apart so that the box
# below cuts between float32 neighbours, some on its edges exactly.
$PY - <<'EOF'
import json
fs = []
for k in range(6000):
    x = 499900 + (k * 37 % 200) + (k % 7) * 0.001
    y = 6999900 + (k * 53 % 200) + (k % 5) * 0.001
    z = float(k % 11)
    if k % 97 == 5:
        g = None
    elif k % 89 == 3:
        g = {"type": "Point", "coordinates": []}
    elif k % 13 == 0:
        g = {"type": "MultiPoint", "coordinates": [[x, y, z], [x + 0.5, y + 0.25, z + 1]]}
    else:
        g = {"type": "Point", "coordinates": [x, y, z]}
    fs.append({"type": "Feature", "id": 3 * k + 1, "properties": {"k": k}, "geometry": g})
json.dump({"type": "FeatureCollection", "features": fs}, open("mixed.geojson", "w"))
EOF
gpkg mixed.gpkg mixed.geojson -nln mixed
ogr2ogr -f FlatGeobuf -a_srs EPSG:32634 -preserve_fid -dim XYZ mixed.fgb mixed.geojson -nln mixed 2>/dev/null
ogr2ogr -f FlatGeobuf -a_srs EPSG:32634 -preserve_fid -dim XY flat.fgb mixed.geojson -nln flat 2>/dev/null
gpkg flat.gpkg mixed.geojson -nln flat -dim XY

# same NAME ARGS...: the tool run on both routes, into a/ and b/:
# exit status, stdout, stderr and the output's dump the same.
same() {
    name=$1; shift
    rm -rf a b; mkdir a b
    (cd a && XG_READ_ARROW=NO "$XG" "$@" > out 2> err; echo $? > rc)
    (cd b && "$XG" "$@" > out 2> err; echo $? > rc)
    for f in rc out err; do cmp -s a/$f b/$f || break; done
    ok $? "$name: same exit status, output and messages"
    if ! cmp -s a/err b/err; then diff a/err b/err | head -5 | sed 's/^/# /'; fi
    if [ -e a/o.gpkg ]; then
        dump a/o.gpkg > a/dump; dump b/o.gpkg > b/dump
        [ -s a/dump ] && cmp -s a/dump b/dump
        ok $? "$name: same features"
    fi
}

# the route taken: GDAL's debug line of read_arrow.c
CPL_DEBUG=EXACTGEO "$XG" delaunay -q o.gpkg mixed.gpkg 2> dbg
grep -q "layer 'mixed': read through its Arrow stream" dbg
ok $? "GeoPackage points take the Arrow route"
rm -f o.gpkg
CPL_DEBUG=EXACTGEO "$XG" delaunay -q o.gpkg mixed.fgb 2> dbg
grep -q "layer 'mixed': read through its Arrow stream" dbg
ok $? "FlatGeobuf points take the Arrow route"
rm -f o.gpkg
XG_READ_ARROW=NO CPL_DEBUG=EXACTGEO "$XG" delaunay -q o.gpkg mixed.gpkg 2> dbg
! grep -q "read through its Arrow stream" dbg
ok $? "XG_READ_ARROW=NO takes today's route"
rm -f o.gpkg

for src in mixed.gpkg mixed.fgb flat.gpkg flat.fgb; do
    same "delaunay $src" delaunay o.gpkg "../$src"
    same "delaunay $src -where" delaunay -where "k > 100 AND k < 5000" \
        o.gpkg "../$src"
    # edges through points (x 499950, y 6999950 hold points exactly) and
    # cutting between points 1 mm apart (float32 steps are 0.03 and 0.5)
    same "delaunay $src -spat" delaunay -spat 499950 6999950 500030.002 \
        7000040.003 o.gpkg "../$src"
done
for src in mixed.gpkg mixed.fgb; do
    same "inside $src" inside -outside o.gpkg "../$src" "$ORE"
    same "inside $src -spat" inside -outside -spat 499950 6999950 \
        500030.002 7000040.003 o.gpkg "../$src" "$ORE"
done
same "inside flat.gpkg: refused, no Z" inside o.gpkg ../flat.gpkg "$ORE"
same "-spat matching nothing" delaunay -spat 0 0 1 1 o.gpkg ../mixed.gpkg

# refusals inside the stream: one 2D point among 3D ones (delaunay's
# mixed Z, inside's missing Z), a line in a layer of points, on the
# feature of id 7000 (batch 2)
$PY - <<'EOF'
import json
d = json.load(open("mixed.geojson"))
for f in d["features"]:
    if f["id"] == 7000:
        f["geometry"] = {"type": "Point", "coordinates": [500000.5, 7000000.5]}
json.dump(d, open("bad2d.geojson", "w"))
for f in d["features"]:
    if f["id"] == 7000:
        f["geometry"] = {"type": "LineString", "coordinates": [[500000.5, 7000000.5, 1], [500001, 7000001, 2]]}
json.dump(d, open("badline.geojson", "w"))
EOF
gpkg bad2d.gpkg bad2d.geojson -nln bad2d
gpkg badline.gpkg badline.geojson -nln badline
same "delaunay mixed Z" delaunay o.gpkg ../bad2d.gpkg
grep -q "bad2d.gpkg, layer 'bad2d', feature 7000: point without Z" b/err
ok $? "delaunay mixed Z: names feature 7000"
same "inside no Z" inside o.gpkg ../bad2d.gpkg "$ORE"
grep -q "bad2d.gpkg, layer 'bad2d', feature 7000: geometry has no Z" b/err
ok $? "inside no Z: names feature 7000"
same "delaunay a line" delaunay o.gpkg ../badline.gpkg
grep -q "badline.gpkg, layer 'badline', feature 7000: geometry is" b/err
ok $? "delaunay a line: names feature 7000"
[ ! -e b/o.gpkg ]
ok $? "delaunay a line: nothing written"

echo "1..$n"
exit $failed
