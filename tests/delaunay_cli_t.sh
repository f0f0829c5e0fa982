#!/bin/sh
# delaunay_cli_t.sh -- `exactgeo delaunay` end to end (issue 14): the
# triangles written, read back with osgeo.ogr, against a brute-force
# Delaunay triangulation in rational arithmetic (tests' own, in Python:
# a triangle is kept when no point lies strictly inside its circle; the
# fixtures have no four cocircular points, so that set is the
# triangulation): geometry (each ring v0, v1, v2, v0 with the kept
# points' exact coordinates, counter-clockwise, Z carried), fields v0, v1,
# v2 (and v0_part... for MultiPoints), order; duplicates merged into the
# lowest FID and counted, the warning for another z; 2D input; the
# errors (collinear, fewer than three distinct points, a line among the
# points, B options) with nothing written; --verify and --stats; seq and
# cpu engines alike on the demo survey (cocircular lattice, collinear hull
# points); a failure mid-write leaves an existing output byte-identical
# and a new one absent; EXACTGEO:op=delaunay.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
XG_T_NAME=delaunay
. "$top_srcdir/tests/cli_lib.sh"
PY=/usr/bin/python3
"$PY" -c 'from osgeo import ogr' 2>/dev/null ||
    { echo "1..0 # SKIP no python3 with osgeo.ogr"; exit 0; }
SURVEY="$top_srcdir/data/survey.gpkg"

"$PY" - <<'PY' 2>/dev/null || { echo "Bail out! fixtures"; exit 1; }
from osgeo import ogr, osr
ogr.UseExceptions()
X, Y = 500000.0, 7000000.0          # UTM magnitudes; all values exact
srs = osr.SpatialReference()
srs.ImportFromEPSG(32634)

def layer(path, name, gtype, rows):
    ds = ogr.GetDriverByName('GPKG').CreateDataSource(path)
    lyr = ds.CreateLayer(name, srs, gtype)
    lyr.CreateField(ogr.FieldDefn('name', ogr.OFTString))
    for fid, val, wkt in rows:
        f = ogr.Feature(lyr.GetLayerDefn())
        f.SetFID(fid)
        f['name'] = val
        f.SetGeometry(ogr.CreateGeometryFromWkt(wkt))
        lyr.CreateFeature(f)

def P(x, y, z=None):
    if z is None:
        return 'POINT (%r %r)' % (X + x, Y + y)
    return 'POINT Z (%r %r %r)' % (X + x, Y + y, z)

layer('pts.gpkg', 'pts', ogr.wkbUnknown, [
    (1, 'a', P(0, 0, 10)), (2, 'b', P(8, 0.5, 11)), (3, 'c', P(7.5, 6, 12)),
    (4, 'd', P(-0.5, 5.5, 13)), (5, 'e', P(3, 2, 14)),
    (6, 'multi', 'MULTIPOINT Z ((%r %r 15),(%r %r 16))' % (X + 5, Y + 3.25,
                                                          X + 2.25, Y + 4)),
    (7, 'same', P(3, 2, 14)),            # fid 5 again, same z
    (8, 'other-z', P(5, 3.25, 99)),      # fid 6's first point, another z
    (9, 'f', P(6.5, 1.5, 17)), (10, 'g', P(1, 3, 18))])
layer('flat.gpkg', 'flat', ogr.wkbPoint, [
    (1, 'a', P(0, 0)), (2, 'b', P(4, 0.25)), (3, 'c', P(3.5, 4)),
    (4, 'd', P(-0.25, 3)), (5, 'e', P(1.5, 1.25))])
layer('line.gpkg', 'line', ogr.wkbPoint25D, [
    (1, 'a', P(0, 0, 1)), (2, 'b', P(1, 1, 2)), (3, 'c', P(2.5, 2.5, 3)),
    (4, 'd', P(1, 1, 4))])
layer('two.gpkg', 'two', ogr.wkbPoint25D, [
    (1, 'a', P(0, 0, 1)), (2, 'b', P(1, 0, 2)), (3, 'c', P(0, 0, 1))])
layer('mixed.gpkg', 'mixed', ogr.wkbUnknown, [
    (1, 'p', P(0, 0, 1)), (2, 'l', 'LINESTRING Z (%r %r 0,%r %r 1)' % (X, Y, X + 1, Y)),
    (3, 'q', P(1, 1, 1))])
PY

# ref.py SRC DST: DST's triangles are the brute-force Delaunay
# triangulation of SRC's points, as exactgeo writes them; prints why not.
cat > ref.py <<'PY'
import sys
from fractions import Fraction as F
from itertools import combinations
from osgeo import ogr

def points(path):
    """(fid, part, x, y, z, has_z) in the order the tool reads them."""
    out = []
    ds = ogr.Open(path)
    for f in ds.GetLayer(0):
        g = f.GetGeometryRef()
        parts = [g.GetGeometryRef(i) for i in range(g.GetGeometryCount())] \
            if g.GetGeometryCount() else [g]
        for k, p in enumerate(parts):
            out.append((f.GetFID(), k, p.GetX(), p.GetY(), p.GetZ(),
                        bool(p.Is3D())))
    return out

def orient(a, b, c):
    return (F(b[2]) - F(a[2])) * (F(c[3]) - F(a[3])) - \
        (F(b[3]) - F(a[3])) * (F(c[2]) - F(a[2]))

def incircle(a, b, c, d):
    m = []
    for p in (a, b, c):
        dx, dy = F(p[2]) - F(d[2]), F(p[3]) - F(d[3])
        m.append((dx, dy, dx * dx + dy * dy))
    return (m[0][0] * (m[1][1] * m[2][2] - m[2][1] * m[1][2]) -
            m[0][1] * (m[1][0] * m[2][2] - m[2][0] * m[1][2]) +
            m[0][2] * (m[1][0] * m[2][1] - m[2][0] * m[1][1]))

pts = points(sys.argv[1])
keep = {}                         # (x, y) -> index of the lowest fid's
for i, p in enumerate(pts):
    k = (p[2], p[3])
    if k not in keep or (p[0], i) < (pts[keep[k]][0], keep[k]):
        keep[k] = i
idx = sorted(keep.values())
for a, b, c, d in combinations(idx, 4):
    assert incircle(pts[a], pts[b], pts[c], pts[d]) != 0 or \
        orient(pts[a], pts[b], pts[c]) == 0, 'cocircular fixture'
want = []
for a, b, c in combinations(idx, 3):
    o = orient(pts[a], pts[b], pts[c])
    if o == 0:
        continue
    if o < 0:
        b, c = c, b                           # counter-clockwise, a first
    if all(incircle(pts[a], pts[b], pts[c], pts[d]) <= 0
           for d in idx if d not in (a, b, c)):
        want.append((a, b, c))
want.sort()
has_z = any(p[5] for p in pts)
parts = any(p[1] for p in pts)
ds = ogr.Open(sys.argv[2])
lyr = ds.GetLayer(0)
names = [lyr.GetLayerDefn().GetFieldDefn(i).GetName()
         for i in range(lyr.GetLayerDefn().GetFieldCount())]
fields = ['v0', 'v1', 'v2'] + (['v0_part', 'v1_part', 'v2_part'] if parts else [])
if names != fields:
    sys.exit('fields %s, want %s' % (names, fields))
got = []
for f in lyr:
    g = f.GetGeometryRef()
    if g.GetGeometryName() != 'POLYGON' or g.GetGeometryCount() != 1 or \
            bool(g.Is3D()) != has_z:
        sys.exit('feature %d: %s, want a Polygon%s' %
                 (f.GetFID(), g.ExportToIsoWkt(), ' Z' if has_z else ''))
    r = g.GetGeometryRef(0)
    got.append(([r.GetPoint(k) if has_z else r.GetPoint_2D(k)
                 for k in range(r.GetPointCount())],
                [f[n] for n in fields]))
exp = []
for t in want:
    ring = [(pts[v][2], pts[v][3], pts[v][4]) if has_z else
            (pts[v][2], pts[v][3]) for v in t + (t[0],)]
    exp.append((ring, [pts[v][0] for v in t] +
                ([pts[v][1] for v in t] if parts else [])))
if got != exp:
    for k in range(max(len(got), len(exp))):
        g = got[k] if k < len(got) else None
        e = exp[k] if k < len(exp) else None
        if g != e:
            sys.exit('%d triangles, want %d; first difference at %d: got %s, '
                     'want %s' % (len(got), len(exp), k, g, e))
print('%d triangles' % len(got))
PY
# ccw.py DST: every ring closed, four points, strictly counter-clockwise
cat > ccw.py <<'PY'
import sys
from fractions import Fraction as F
from osgeo import ogr
n = 0
ds = ogr.Open(sys.argv[1])
for f in ds.GetLayer(0):
    r = f.GetGeometryRef().GetGeometryRef(0)
    p = [r.GetPoint_2D(k) for k in range(r.GetPointCount())]
    assert len(p) == 4 and p[0] == p[3], p
    a, b, c = [(F(x), F(y)) for x, y in p[:3]]
    assert (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) > 0, p
    n += 1
assert n > 0
PY

# ---- the known triangulation
"$XG" delaunay out.gpkg pts.gpkg > sum.txt 2> err.txt
[ $? -eq 0 ] && nostage .
ok $? "delaunay: exit 0"
why=$("$PY" ref.py pts.gpkg out.gpkg 2>&1)
ok $? "the triangles are the brute-force Delaunay triangulation of the kept points: geometry, v0..v2_part, order ($why)"
"$PY" ccw.py out.gpkg
ok $? "every ring v0, v1, v2, v0 closed and strictly counter-clockwise"
ogrinfo -so out.gpkg triangles | grep -q '^Geometry: 3D Polygon'
ok $? "layer 'triangles', 3D Polygon: Z carried"
"$PY" - out.gpkg <<'PY'
import sys
from osgeo import ogr
ds = ogr.Open(sys.argv[1])
fids, zs = set(), {}
for f in ds.GetLayer(0):
    fids |= {f['v0'], f['v1'], f['v2']}
    r = f.GetGeometryRef().GetGeometryRef(0)
    for k in range(3):
        x, y, z = r.GetPoint(k)
        zs.setdefault((x, y), set()).add(z)
assert fids == {1, 2, 3, 4, 5, 6, 9, 10}, fids
assert zs[(500005.0, 7000003.25)] == {15.0} and zs[(500003.0, 7000002.0)] == {14.0}
assert all(len(v) == 1 for v in zs.values()) and 99.0 not in set().union(*zs.values())
PY
ok $? "duplicates merged into the lowest FID: fids 7 and 8 used nowhere, fid 6's z (15) kept, 8's (99) nowhere"
grep -q "^  A: pts.gpkg, layer 'pts': 10 features, 11 points (2 at the (x, y) of another, merged into the lowest FID's; 1 of them with another z)$" sum.txt &&
    grep -q "^  triangles: $(ogrinfo -so out.gpkg triangles | sed -n 's/^Feature Count: //p')$" sum.txt &&
    grep -q "^  output: out.gpkg, layer 'triangles', " sum.txt
ok $? "summary: points, 2 merged, 1 with another z, the triangles"
[ "$(cat err.txt)" = "exactgeo: warning: pts.gpkg, layer 'pts': 1 point at the (x, y) of another but with another z; merged, the z of the lowest FID kept" ]
ok $? "a merged point of another z: one warning naming file and layer: '$(cat err.txt)'"
"$XG" delaunay -q q.gpkg pts.gpkg > sum.txt 2> err.txt
[ $? -eq 0 ] && [ ! -s sum.txt ] && [ ! -s err.txt ]
ok $? "-q: no summary, no warning"

"$XG" delaunay out2d.gpkg flat.gpkg > /dev/null 2> err.txt
[ $? -eq 0 ] && [ ! -s err.txt ]
ok $? "2D points: exit 0, no warning"
why=$("$PY" ref.py flat.gpkg out2d.gpkg 2>&1)
ok $? "2D points: the brute-force triangulation, 2D Polygons, fields v0, v1, v2 only ($why)"
ogrinfo -so out2d.gpkg triangles | grep -q '^Geometry: Polygon$'
ok $? "2D points: layer type Polygon"

"$XG" delaunay -q -where "name <> 'g'" -nln tin w.gpkg pts.gpkg &&
    [ "$(ogrinfo -q w.gpkg tin -where 'v0 = 10 OR v1 = 10 OR v2 = 10' | grep -c OGRFeature)" -eq 0 ] &&
    [ "$(ogrinfo -so w.gpkg tin | sed -n 's/^Feature Count: //p')" -gt 0 ]
ok $? "-where and -nln: the point filtered out is in no triangle, layer 'tin'"

# ---- errors: one line, exit 1, nothing written
"$XG" delaunay o.gpkg line.gpkg > /dev/null 2> err.txt
[ $? -eq 1 ] && [ "$(wc -l < err.txt)" -eq 1 ] &&
    grep -q "^exactgeo: line.gpkg, layer 'line': .*not all on one line" err.txt &&
    [ ! -e o.gpkg ] && nostage .
ok $? "all points collinear: exit 1, one line, nothing written: '$(cat err.txt)'"
"$XG" delaunay o.gpkg two.gpkg > /dev/null 2> err.txt
[ $? -eq 1 ] && [ "$(wc -l < err.txt)" -eq 1 ] &&
    grep -q "^exactgeo: two.gpkg, layer 'two': .*three" err.txt && [ ! -e o.gpkg ]
ok $? "two distinct points (one repeated): exit 1, one line, nothing written: '$(cat err.txt)'"
cp out.gpkg keep.gpkg
before=$(cksum < keep.gpkg)
before_keep=$before
"$XG" delaunay -overwrite keep.gpkg line.gpkg > /dev/null 2>&1
[ $? -eq 1 ] && [ "$(cksum < keep.gpkg)" = "$before" ] && nostage .
ok $? "collinear with -overwrite: the existing DST byte-identical"
"$XG" delaunay o.gpkg mixed.gpkg > /dev/null 2> err.txt
[ $? -eq 1 ] && [ "$(cat err.txt)" = "exactgeo: mixed.gpkg, layer 'mixed', feature 2: geometry is 3D Line String; expected Point or MultiPoint" ] && [ ! -e o.gpkg ]
ok $? "a line among the points: file, layer and feature named, nothing written: '$(cat err.txt)'"
"$XG" delaunay o.gpkg pts.gpkg flat.gpkg 2> err.txt
[ $? -eq 2 ] && [ "$(head -1 err.txt)" = "exactgeo: unexpected argument 'flat.gpkg'" ]
ok $? "a second source: a usage error: '$(head -1 err.txt)'"
"$XG" delaunay o.gpkg 2> err.txt
[ $? -eq 2 ] && [ "$(head -1 err.txt)" = "exactgeo: expected DST POINTS_SRC" ]
ok $? "no source: '$(head -1 err.txt)'"
all=0
for opt in "-bl x" "-bwhere x" "-bcopy x" "-bspat 0 0 1 1" "-acopy name"; do
    # shellcheck disable=SC2086
    "$XG" delaunay $opt o.gpkg pts.gpkg 2> err.txt
    [ $? -eq 2 ] && grep -q "^exactgeo: ${opt%% *}: delaunay " err.txt || all=1
done
[ ! -e o.gpkg ]
ok $((all + $?)) "B options and -acopy: usage errors naming the option ($(head -1 err.txt))"
"$XG" segtri --verify o.gpkg pts.gpkg pts.gpkg 2> err.txt
[ $? -eq 2 ] && [ "$(head -1 err.txt)" = "exactgeo: --verify: segtri has no check to verify with (only delaunay has)" ]
ok $? "--verify where there is no check: '$(head -1 err.txt)'"

# ---- --verify, --stats
"$XG" delaunay --verify --stats st.json v.gpkg pts.gpkg > sum.txt 2> /dev/null
[ $? -eq 0 ] && ntri=$(ogrinfo -so v.gpkg triangles | sed -n 's/^Feature Count: //p') &&
    grep -q "^  verify: 9 points, $ntri triangles, 4 hull vertices; 0 bad" sum.txt
ok $? "--verify: $(grep verify: sum.txt)"
"$PY" - st.json "$ntri" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
assert s['operation'] == 'delaunay' and 'b' not in s and 'contacts' not in s
assert s['points'] == 11 and s['skipped']['duplicate_points'] == 2, s
assert s['z_differ'] == 1 and s['triangles'] == n == s['features_written']
assert s['verify'] == {'points': 9, 'triangles': n, 'hull_vertices': 4,
                       'bad_index': 0, 'not_ccw': 0, 'bad_edges': 0,
                       'missing': 0, 'count_off': 0, 'not_delaunay': 0,
                       'not_canonical': 0}, s['verify']
assert n == 2 * 9 - 4 - 2
assert s['output']['layer'] == 'triangles'
assert s['seconds']['verify'] >= 0 and s['predicates'] > 0
PY
ok $? "--stats: points, duplicates, z_differ, triangles (2n - h - 2), the check's counts, no B"
"$XG" delaunay -q --stats st2.json nv.gpkg pts.gpkg &&
    grep -q '"verify": null' st2.json
ok $? "--stats without --verify: verify null"

# a wrong triangulation (the testing hook turns the first triangle
# clockwise after the core): --verify finds it and nothing is written
cp v.gpkg keep2.gpkg
before=$(cksum < keep2.gpkg)
EXACTGEO_TEST_BREAK_TRIANGLES=1 "$XG" delaunay --verify -overwrite --stats bad.json keep2.gpkg pts.gpkg > sum.txt 2> err.txt
[ $? -eq 1 ] && [ "$(tail -1 err.txt)" = "exactgeo: delaunay: --verify: the triangulation is wrong: 1 not counter-clockwise, 6 bad edges (of $ntri triangles); nothing written" ] &&
    [ "$(cksum < keep2.gpkg)" = "$before" ] && [ ! -e bad.json ] && [ ! -s sum.txt ] && nostage .
ok $? "--verify finding a clockwise triangle: exit 1, the findings named, DST and --stats untouched: '$(tail -1 err.txt)'"
EXACTGEO_TEST_BREAK_TRIANGLES=1 "$XG" delaunay -q broken.gpkg pts.gpkg &&
    ! "$PY" ccw.py broken.gpkg 2> /dev/null
ok $? "without --verify the same hook writes the clockwise triangle (the hook works; the check is what catches it)"

# ---- interrupted (the tool waits at EXACTGEO_TEST_PAUSE): nothing written
if env --default-signal=INT true 2>/dev/null; then
    rm -f ready ready.caught
    EXACTGEO_TEST_PAUSE=ready env --default-signal=INT "$XG" delaunay -q -overwrite keep.gpkg "$SURVEY" 2> err.txt &
    pid=$!
    while [ ! -e ready ] && kill -0 $pid 2> /dev/null; do sleep 0.02; done
    kill -s INT $pid 2> /dev/null
    while [ ! -e ready.caught ] && kill -0 $pid 2> /dev/null; do sleep 0.02; done
    for i in 1 2 3 4 5 6 7 8 9 10; do kill -s INT $pid 2> /dev/null; done
    wait $pid 2> /dev/null
    st=$?
    [ $st -eq 130 ] && [ "$(cat err.txt)" = "exactgeo: interrupted; nothing written" ] &&
        [ "$(cksum < keep.gpkg)" = "$before_keep" ] && nostage .
    ok $? "SIGINT (11 of them) during a run with -overwrite: exit 130, 'interrupted; nothing written', DST byte-identical (status $st)"
else
    echo "# env --default-signal not available: signal check skipped"
fi

# ---- --tin: one TIN feature of the same triangles
"$XG" delaunay --tin tin.gpkg pts.gpkg > sum.txt 2> /dev/null
[ $? -eq 0 ] && grep -q "^  triangles: $ntri, as one TIN$" sum.txt &&
    grep -q "^  output: tin.gpkg, layer 'triangles', 1 features$" sum.txt
ok $? "--tin: exit 0; summary: $(grep 'triangles:' sum.txt)"
"$PY" - tin.gpkg out.gpkg <<'PY'
import sys
from osgeo import ogr
t, p = ogr.Open(sys.argv[1]), ogr.Open(sys.argv[2])
tl = t.GetLayer(0)
assert tl.GetFeatureCount() == 1 and tl.GetLayerDefn().GetFieldCount() == 0
feat = tl.GetNextFeature()
g = feat.GetGeometryRef()
assert g.GetGeometryName() == 'TIN' and g.Is3D(), g.GetGeometryName()
rings = []
for i in range(g.GetGeometryCount()):
    tri = g.GetGeometryRef(i)
    assert tri.GetGeometryName() == 'TRIANGLE'
    r = tri.GetGeometryRef(0)
    rings.append([r.GetPoint(k) for k in range(r.GetPointCount())])
want = []
for f in p.GetLayer(0):
    r = f.GetGeometryRef().GetGeometryRef(0)
    want.append([r.GetPoint(k) for k in range(r.GetPointCount())])
assert rings == want and len(rings) > 0, (len(rings), len(want))
PY
ok $? "--tin: one TIN Z feature, no fields, its triangles the polygons' rings in order"
"$XG" segtri --tin o.gpkg pts.gpkg pts.gpkg 2> err.txt
[ $? -eq 2 ] && [ "$(head -1 err.txt)" = "exactgeo: --tin: segtri gives no triangles to make a TIN of (only delaunay does)" ]
ok $? "--tin where there are no triangles: '$(head -1 err.txt)'"

# ---- the demo survey: engines alike; lattice and hull degeneracies
"$XG" delaunay -q --engine seq --verify seq.gpkg "$SURVEY" 2> /dev/null &&
    "$XG" delaunay -q --engine cpu --threads 2 --verify cpu.gpkg "$SURVEY" 2> /dev/null &&
    "$XG" delaunay -q --engine cpu --threads 1 cpu1.gpkg "$SURVEY" 2> /dev/null &&
    "$top_builddir/tests/ogrdump" seq.gpkg > seq.txt &&
    "$top_builddir/tests/ogrdump" cpu.gpkg > cpu.txt &&
    "$top_builddir/tests/ogrdump" cpu1.gpkg > cpu1.txt &&
    cmp -s seq.txt cpu.txt && cmp -s seq.txt cpu1.txt
ok $? "survey: --engine seq, cpu (2 threads, 1 thread) write the same triangles, bit for bit"
"$XG" delaunay --verify --stats sv.json sv.gpkg "$SURVEY" > sum.txt 2> err.txt
[ $? -eq 0 ] && "$PY" - sv.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
v = s['verify']
# 72 hull points, 81 lattice, 3000 terrain; 12 + 5 repeats (data/README.md)
assert s['points'] == 3170 and s['skipped']['duplicate_points'] == 17, s
assert s['z_differ'] == 5 and v['points'] == 3153 and v['hull_vertices'] == 72
assert s['triangles'] == 2 * 3153 - 72 - 2 == v['triangles']
assert all(v[k] == 0 for k in v if k not in ('points', 'triangles',
                                              'hull_vertices'))
PY
ok $? "survey: 3153 distinct points, the 72 collinear hull points all vertices, 6232 triangles, verified"
grep -q "survey.gpkg, layer 'survey': 5 points at the (x, y) of another but with another z" err.txt
ok $? "survey: the warning for its 5 re-surveyed points"
"$PY" ccw.py sv.gpkg
ok $? "survey: every ring counter-clockwise"

# ---- never lose data: the triangle writer's failure mid-write
cp out.gpkg keep.gpkg; cp out.gpkg before.gpkg
EXACTGEO_TEST_FAIL_AFTER=3 "$XG" delaunay -q -overwrite keep.gpkg pts.gpkg 2> err.txt
[ $? -ne 0 ] && grep -q "failure injected after 3" err.txt &&
    cmp -s keep.gpkg before.gpkg && nostage .
ok $? "failure after 3 triangles with -overwrite: existing file byte-identical, no staging left"
EXACTGEO_TEST_FAIL_AFTER=3 "$XG" delaunay -q fresh.shp pts.gpkg 2> /dev/null
[ $? -ne 0 ] && [ -z "$(ls fresh* 2>/dev/null)" ] && nostage .
ok $? "failure after 3 triangles into a new Shapefile: no file at all"

# ---- EXACTGEO:op=delaunay (the GDAL plugin, when built)
GDAL_DRIVER_PATH=$(cd "$top_builddir/ogr_driver/.libs" 2>/dev/null && pwd)
export GDAL_DRIVER_PATH
ogr2ogr -f GPKG conn.gpkg "EXACTGEO:op=delaunay;a=pts.gpkg;verify=yes" 2> /dev/null &&
    "$top_builddir/tests/ogrdump" conn.gpkg > conn.txt &&
    "$top_builddir/tests/ogrdump" out.gpkg > out.txt && cmp -s conn.txt out.txt
ok $? "EXACTGEO:op=delaunay;verify=yes: the layer 'triangles' holds the tool's features"
ogrinfo -so "EXACTGEO:op=delaunay;a=pts.gpkg;b=pts.gpkg" > /dev/null 2> err.txt
[ $? -ne 0 ] && grep -q "delaunay takes one input: key 'b' does not apply" err.txt
ok $? "EXACTGEO:op=delaunay with b=: refused"
ogrinfo -so "EXACTGEO:op=delaunay;a=line.gpkg" > /dev/null 2> err.txt
[ $? -ne 0 ] && grep -q "line.gpkg, layer 'line': .*not all on one line" err.txt
ok $? "EXACTGEO:op=delaunay on collinear points: the open fails with the message"

echo "1..$n"
exit $failed
