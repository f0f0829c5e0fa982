#!/bin/sh
# read_arrow_t.sh -- the Arrow route of the reader (ogr_driver/
# read_arrow.c, issue 33, item 2) reads what today's route reads: on
# inputs mixing plain points with NULL and empty geometries, MultiPoints,
# FID gaps, more features than one batch (4096), -where, and -spat through
# points on the box's edge and within float32 of it, the tool's output,
# its messages and its exit status are those of XG_READ_ARROW=NO (today's
# route, feature by feature), on GeoPackage and FlatGeobuf; and where a
# feature is refused, the one line naming it is the same.  Lines and
# surfaces (issue 33 part 2; GeoPackage only): segtri's and redblue's
# lines, rings, TINs, PolyhedralSurfaces, MultiPolygons, Triangles, with
# polygons to triangulate and non-planar ones among them, -where, -spat,
# refusals past the first batch, inside's solids with an open one; a
# layer whose first 64 blobs are over 1 kB on average stays on today's
# route.
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
    # (the stages' seconds differ from run to run)
    for d in a b; do grep -v '^  seconds: ' $d/out > $d/outs; done
    cmp -s a/rc b/rc && cmp -s a/outs b/outs && cmp -s a/err b/err
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

# ---- lines and surfaces (issue 33 part 2) ----
# lines.csv: 1600 features (WKT; FIDs 1.., every third deleted below:
# gaps) through the ore bodies' box: LineStrings Z of 2 to 4 vertices,
# every 13th a MultiLineString Z of two, every 97th without geometry,
# every 89th empty, every 41st of one vertex (no segment).  tris.csv:
# 1600 surfaces near the bodies: TINs, PolyhedralSurfaces, MultiPolygons
# and Polygons of triangles, Triangles, and (left to OGR's route) squares
# to triangulate, non-planar polygons (a warning), empty and NULL ones.
$PY - <<'EOF2'
def P(x, y, z):
    return "%r %r %r" % (x, y, z)
def tri(x, y, z, d):
    return "(%s,%s,%s,%s)" % (P(x, y, z), P(x + d, y, z + 1), P(x, y + d, z + 2), P(x, y, z))
L = open("lines.csv", "w"); L.write("k,WKT\n")
T = open("tris.csv", "w"); T.write("k,WKT\n")
for k in range(1600):
    x = 499790 + (k * 37 % 450) + (k % 7) * 0.125
    y = 6999710 + (k * 53 % 560) + (k % 5) * 0.25
    z = float(k * 17 % 400)
    if k % 97 == 5:
        w = ""
    elif k % 89 == 3:
        w = "LINESTRING Z EMPTY"
    elif k % 41 == 7:
        w = "LINESTRING Z (%s)" % P(x, y, z)
    elif k % 13 == 0:
        w = "MULTILINESTRING Z ((%s,%s),(%s,%s,%s))" % (
            P(x, y, z), P(x + 3, y + 2, z + 40), P(x, y + 1, z), P(x + 1, y, z + 30), P(x + 2, y + 2, z + 90))
    else:
        n = 2 + k % 3
        w = "LINESTRING Z (%s)" % ",".join(P(x + i * 1.5, y - i, z + 60 * i) for i in range(n))
    L.write('%d,"%s"\n' % (k, w))
    d = 2.0 + k % 3
    m = k % 10
    if k % 97 == 5:
        w = ""
    elif k % 89 == 3:
        w = "POLYGON Z EMPTY"
    elif m == 0:
        w = "TIN Z (%s,%s)" % (tri(x, y, z, d), tri(x + d, y, z, d))
    elif m == 1:
        w = "POLYHEDRALSURFACE Z (%s,%s)" % ("(" + tri(x, y, z, d) + ")", "(" + tri(x, y + d, z, d) + ")")
    elif m == 2:
        w = "MULTIPOLYGON Z ((%s),(%s))" % (tri(x, y, z, d), tri(x + 1, y + 1, z + 3, d))
    elif m == 3:
        w = "TRIANGLE Z %s" % tri(x, y, z, d).replace("(", "((", 1).replace(")", "))", 1)
    elif m == 4:     # a square, planar: triangulated
        w = "POLYGON Z ((%s,%s,%s,%s,%s))" % (P(x, y, z), P(x + d, y, z), P(x + d, y + d, z), P(x, y + d, z), P(x, y, z))
    elif m == 5:     # not planar: skipped with a warning
        w = "POLYGON Z ((%s,%s,%s,%s,%s))" % (P(x, y, z), P(x + d, y, z), P(x + d, y + d, z + 5), P(x, y + d, z), P(x, y, z))
    elif m == 6:     # a triangle's ring left open
        w = "POLYGON Z ((%s,%s,%s))" % (P(x, y, z), P(x + d, y, z + 1), P(x, y + d, z))
    else:
        w = "POLYGON Z %s" % ("(" + tri(x, y, z, d) + ")")
    T.write('%d,"%s"\n' % (k, w))
EOF2
csvgpkg() {  # csvgpkg OUT.gpkg IN.csv LAYER: every third FID deleted
    ogr2ogr -f GPKG -a_srs EPSG:32634 -oo GEOM_POSSIBLE_NAMES=WKT \
        -oo KEEP_GEOM_COLUMNS=NO -oo AUTODETECT_TYPE=YES -nln "$3" -nlt GEOMETRYZ "$1" "$2" 2>/dev/null &&
        ogrinfo "$1" -sql "DELETE FROM \"$3\" WHERE fid % 3 = 0" >/dev/null 2>&1
}
csvgpkg lines.gpkg lines.csv lines
csvgpkg tris.gpkg tris.csv tris
ogr2ogr -f GPKG flatlines.gpkg lines.gpkg -dim XY -nln flatlines -preserve_fid 2>/dev/null
[ "$(ogrinfo -so lines.gpkg lines | grep -c 'Feature Count: 1067')" = 1 ] &&
    [ "$(ogrinfo -so tris.gpkg tris | grep -c 'Feature Count: 1067')" = 1 ]
ok $? "lines and surfaces made (1067 features each, FID gaps)"

CPL_DEBUG=EXACTGEO "$XG" segtri -q o.gpkg lines.gpkg tris.gpkg 2> dbg
grep -q "layer 'lines': read through its Arrow stream" dbg &&
    grep -q "layer 'tris': read through its Arrow stream" dbg
ok $? "segtri's lines and surfaces take the Arrow route"
rm -f o.gpkg

# Large features (data/orebodies.gpkg: 4 TINs, 113 kB a blob) stay on
# today's route, where GDAL 3.6's stream costs more than it saves.
CPL_DEBUG=EXACTGEO "$XG" segtri -q --stats st.json o.gpkg lines.gpkg "$ORE" 2> dbg &&
    grep -q '"triangles": *[1-9]' st.json &&
    grep -q "layer 'lines': read through its Arrow stream" dbg &&
    ! grep -q "layer 'orebodies': read through its Arrow stream" dbg
ok $? "surfaces of large blobs (orebodies) read feature by feature, small lines through the stream"
rm -f o.gpkg

same "segtri lines x tris" segtri o.gpkg ../lines.gpkg ../tris.gpkg
same "segtri -where" segtri -where "k > 100 AND k < 5000" o.gpkg \
    ../lines.gpkg ../tris.gpkg
same "segtri -spat" segtri -spat 499900 6999800 500100.1 7000000.3 \
    o.gpkg ../lines.gpkg ../tris.gpkg
same "redblue 3D lines x surfaces" redblue o.gpkg ../lines.gpkg ../tris.gpkg
same "redblue 2D lines x surfaces -spat" redblue -spat 499900 6999800 \
    500100.1 7000000.3 o.gpkg ../flatlines.gpkg ../tris.gpkg
same "segtri: 2D lines refused" segtri o.gpkg ../flatlines.gpkg ../tris.gpkg

# refusals in batch 2 (of 1024): the feature of k 1590 (FID 1591) a 2D line, a
# Point; in tris, a surface without Z
$PY - <<'EOF2'
import re
rows = open("lines.csv").read().split("\n")
def put(name, src, w):
    r = list(src)
    r[1591] = '1590,"%s"' % w
    open(name, "w").write("\n".join(r))
put("l2d.csv", rows, "LINESTRING (499900 6999900,499950 6999950)")
put("lpt.csv", rows, "POINT Z (499900 6999900 1)")
rows = open("tris.csv").read().split("\n")
put("t2d.csv", rows, "POLYGON ((499900 6999900,499950 6999950,499950 6999900,499900 6999900))")
EOF2
for b in l2d lpt; do
    csvgpkg $b.gpkg $b.csv $b
    same "segtri: $b refused" segtri o.gpkg ../$b.gpkg ../tris.gpkg
    grep -q "$b.gpkg, layer '$b', feature 1591: " b/err
    ok $? "segtri: $b names feature 1591"
done
csvgpkg t2d.gpkg t2d.csv t2d
same "segtri: a 2D surface refused" segtri o.gpkg ../lines.gpkg ../t2d.gpkg
grep -q "t2d.gpkg, layer 't2d', feature 1591: geometry has no Z" b/err
ok $? "segtri: the 2D surface names feature 1591"
[ ! -e b/o.gpkg ]
ok $? "segtri: nothing written"

# solids in batch 2: 1100 tetrahedra (TIN Z), the one of FID 1051 open
$PY - <<'EOF2'
T = open("tets.csv", "w"); T.write("k,WKT\n")
for k in range(1100):
    x = 499900 + (k % 60) * 3.0; y = 6999900 + (k // 60) * 3.0; z = 0.0
    a, b, c, d = (x, y, z), (x + 2, y, z), (x, y + 2, z), (x, y, z + 2)
    f = [(a, c, b), (a, b, d), (b, c, d), (c, a, d)]
    if k == 1050:
        f = f[:3]
    s = ",".join("((%s))" % ",".join("%r %r %r" % p for p in (t + (t[0],))) for t in f)
    T.write('%d,"TIN Z (%s)"\n' % (k, s))
EOF2
ogr2ogr -f GPKG -a_srs EPSG:32634 -oo GEOM_POSSIBLE_NAMES=WKT \
    -oo KEEP_GEOM_COLUMNS=NO -nln tets tets.gpkg tets.csv 2>/dev/null
same "inside: an open solid refused" inside o.gpkg ../mixed.gpkg ../tets.gpkg
grep -q "tets.gpkg, layer 'tets', feature 1051: surface is not closed" b/err
ok $? "inside: names the open solid, feature 1051"
same "inside -skip-invalid" inside -skip-invalid o.gpkg ../mixed.gpkg \
    ../tets.gpkg

# GDAL's own warnings: FlatGeobuf's stream decodes a batch's geometries
# at once and warns then ("Non closed ring detected"), where today's
# route warns feature by feature or not at all: its lines and surfaces
# go today's way.  late.fgb: the tetrahedra as MultiPolygons, one ring
# left open (k 1050, batch 2).
$PY - <<'EOF2'
T = open("late.csv", "w"); T.write("k,WKT\n")
for k in range(1100):
    x = 499900 + (k % 60) * 3.0; y = 6999900 + (k // 60) * 3.0; z = 0.0
    a, b, c, d = (x, y, z), (x + 2, y, z), (x, y + 2, z), (x, y, z + 2)
    r = ["%r %r %r" % p for p in (a, c, b)] + ([] if k == 1050 else ["%r %r %r" % a])
    f = ["((%s))" % ",".join(r)] + ["((%s))" % ",".join("%r %r %r" % p for p in t + (t[0],))
                                    for t in [(a, b, d), (b, c, d), (c, a, d)]]
    T.write('%d,"MULTIPOLYGON Z (%s)"\n' % (k, ",".join(f)))
EOF2
ogr2ogr -f FlatGeobuf -a_srs EPSG:32634 -oo GEOM_POSSIBLE_NAMES=WKT \
    -oo KEEP_GEOM_COLUMNS=NO -nlt MULTIPOLYGONZ -lco SPATIAL_INDEX=NO \
    -nln late late.fgb late.csv 2>/dev/null
CPL_DEBUG=EXACTGEO "$XG" inside -q o.gpkg mixed.gpkg late.fgb 2> dbg
! grep -q "layer 'late': read through its Arrow stream" dbg &&
    grep -q "layer 'mixed': read through its Arrow stream" dbg
ok $? "inside late.fgb: FlatGeobuf's surfaces take today's route"
rm -f o.gpkg

echo "1..$n"
exit $failed
