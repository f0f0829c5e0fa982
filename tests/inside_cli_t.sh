#!/bin/sh
# inside_cli_t.sh -- `exactgeo inside` end to end (issue 13): points of
# GeoPackage layers against closed solids (a cube as a PolyhedralSurface,
# a cube touching it as a TIN, a cube nested in the first as a
# MultiPolygon), every point's place known by construction: on a vertex,
# an edge, a face, the face the two cubes share, inside two nested
# solids, inside one, outside, a MultiPoint of two.  Then the fields, the
# copies, -outside, the errors (an open surface, no Z, a line among the
# points, -outside where it makes no sense) with nothing written,
# -skip-invalid, --stats, --dump and EXACTGEO:op=inside.  Then a solid
# whose surface crosses itself (issue 31: two overlapping cubes merged
# into one feature, as lenses merged into one ore body): refused naming
# the feature and two of its triangles, in one run, in regions and
# through EXACTGEO:; skipped with -skip-invalid; the parity answer with
# --solids-checked.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
XG_T_NAME=inside
. "$top_srcdir/tests/cli_lib.sh"
/usr/bin/python3 -c 'from osgeo import ogr' 2>/dev/null ||
    { echo "1..0 # SKIP no python3 with osgeo.ogr"; exit 0; }

/usr/bin/python3 - <<'PY' 2>/dev/null || { echo "Bail out! fixtures"; exit 1; }
from osgeo import ogr, osr
ogr.UseExceptions()
X, Y = 500000.0, 7000000.0          # UTM magnitudes; all values exact
srs = osr.SpatialReference()
srs.ImportFromEPSG(32634)

def box(x0, y0, z0, x1, y1, z1):
    """The six faces of a box, each a square turned outwards."""
    c = lambda i, j, k: (X + (x0, x1)[i], Y + (y0, y1)[j], (z0, z1)[k])
    quads = [[(0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 0, 0)],
             [(0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)],
             [(0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1)],
             [(0, 1, 0), (0, 1, 1), (1, 1, 1), (1, 1, 0)],
             [(0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 1, 0)],
             [(1, 0, 0), (1, 1, 0), (1, 1, 1), (1, 0, 1)]]
    return [[c(*v) for v in q] for q in quads]

def ring(pts):
    return '(' + ','.join('%r %r %r' % p for p in pts + [pts[0]]) + ')'

def polys(kind, faces):
    return kind + ' Z (' + ','.join('(' + ring(f) + ')' for f in faces) + ')'

def tin(faces):
    tris = []
    for f in faces:
        tris += [[f[0], f[1], f[2]], [f[0], f[2], f[3]]]
    return 'TIN Z (' + ','.join('(' + ring(t) + ')' for t in tris) + ')'

def layer(path, name, gtype, field, rows):
    ds = ogr.GetDriverByName('GPKG').CreateDataSource(path)
    lyr = ds.CreateLayer(name, srs, gtype)
    lyr.CreateField(ogr.FieldDefn(field, ogr.OFTString))
    for fid, val, wkt in rows:
        f = ogr.Feature(lyr.GetLayerDefn())
        f.SetFID(fid)
        f[field] = val
        f.SetGeometry(ogr.CreateGeometryFromWkt(wkt))
        lyr.CreateFeature(f)

def P(x, y, z):
    return 'POINT Z (%r %r %r)' % (X + x, Y + y, z)

cube, touch = box(0, 0, 0, 2, 2, 2), box(2, 0, 0, 4, 2, 2)
nested = box(0.5, 0.5, 0.5, 1.5, 1.5, 1.5)
warped = [list(f) for f in cube]
warped[1][2] = (X + 2, Y + 2, 2.5)      # the top face not planar: skipped
layer('solids.gpkg', 'solids', ogr.wkbUnknown, 'rock', [
    (10, 'ore', polys('POLYHEDRALSURFACE', cube)),
    (20, 'waste', tin(touch)),
    (30, 'core', polys('MULTIPOLYGON', nested))])
layer('open.gpkg', 'open', ogr.wkbUnknown, 'rock', [
    (10, 'ore', polys('POLYHEDRALSURFACE', cube)),
    (11, 'lid', polys('POLYHEDRALSURFACE', cube[1:])),
    (12, 'warped', polys('POLYHEDRALSURFACE', warped)),
    (20, 'waste', tin(touch))])
layer('allopen.gpkg', 'allopen', ogr.wkbUnknown, 'rock', [
    (11, 'lid', polys('POLYHEDRALSURFACE', cube[1:]))])
layer('points.gpkg', 'points', ogr.wkbUnknown, 'name', [
    (1, 'vertex', P(0, 0, 0)),
    (2, 'edge', P(1, 0, 0)),
    (3, 'face', P(1, 1, 0)),
    (4, 'shared', P(2, 1, 1)),
    (5, 'nested', P(1, 1, 1)),
    (6, 'inside', P(0.25, 0.25, 0.25)),
    (7, 'out', P(10, 10, 10)),
    (8, 'multi', 'MULTIPOINT Z ((%r %r 1),(%r %r 20))' % (X + 3, Y + 1,
                                                        X + 3, Y + 1))])
# two lenses merged into one feature (40): they overlap, and a point in
# both lies in the ore body; a solid beside them (41)
layer('lenses.gpkg', 'lenses', ogr.wkbUnknown, 'rock', [
    (40, 'ore', polys('POLYHEDRALSURFACE',
                      box(20, 0, 0, 22, 2, 2) + box(21, 1, 1, 23, 3, 3))),
    (41, 'waste', polys('POLYHEDRALSURFACE', box(30, 0, 0, 31, 1, 1)))])
layer('lpoints.gpkg', 'lpoints', ogr.wkbUnknown, 'name', [
    (1, 'both', P(21.5, 1.5, 1.5)),
    (2, 'first', P(20.5, 0.5, 0.5)),
    (3, 'second', P(22.5, 2.5, 2.5)),
    (4, 'waste', P(30.5, 0.5, 0.5))])
layer('flat.gpkg', 'flat', ogr.wkbPoint, 'name',
      [(1, 'p', 'POINT (%r %r)' % (X, Y))])
layer('mixed.gpkg', 'mixed', ogr.wkbUnknown, 'name', [
    (1, 'p', P(1, 1, 1)),
    (2, 'l', 'LINESTRING Z (%r %r 0,%r %r 1)' % (X, Y, X, Y))])
PY

# The known answer, in (point, solid) order: WKT,a_fid,a_part,b_fid,kind
cat > want.txt <<'CSV'
POINT Z (500000 7000000 0),1,0,10,boundary
POINT Z (500001 7000000 0),2,0,10,boundary
POINT Z (500001 7000001 0),3,0,10,boundary
POINT Z (500002 7000001 1),4,0,10,boundary
POINT Z (500002 7000001 1),4,0,20,boundary
POINT Z (500001 7000001 1),5,0,10,inside
POINT Z (500001 7000001 1),5,0,30,inside
POINT Z (500000.25 7000000.25 0.25),6,0,10,inside
POINT Z (500003 7000001 1),8,0,20,inside
CSV
# ... and with -outside, the two points in no solid, in their place
{ head -8 want.txt; echo 'POINT Z (500010 7000010 10),7,0,,outside'
  tail -1 want.txt; echo 'POINT Z (500003 7000001 20),8,1,,outside'; } > want_out.txt
sel="-select a_fid,a_part,b_fid,kind"

"$XG" inside out.gpkg points.gpkg solids.gpkg > sum.txt 2> err.txt
[ $? -eq 0 ] && [ ! -s err.txt ] && nostage .
ok $? "inside: exit 0, no warning"
dump out.gpkg $sel > got.txt
cmp -s got.txt want.txt
ok $? "vertex, edge, face, shared face, nested, inside, MultiPoint: the known records"
[ "$(ogrinfo -so -al out.gpkg | sed -n 's/^\([a-z_]*\): .*/\1/p' | tr '\n' ' ')" = \
  "a_fid a_part b_fid kind " ]
ok $? "fields a_fid, a_part, b_fid, kind (no B index field)"
ogrinfo -so -al out.gpkg | grep -q '^Geometry: 3D Point'
ok $? "geometry PointZ"
grep -q '^  contacts: 9 (4 inside, 5 boundary, 0 outside)$' sum.txt &&
    grep -q "^  A: points.gpkg, layer 'points': 8 features, 9 points$" sum.txt &&
    grep -q "; 0 features not closed and 0 crossing themselves, skipped$" sum.txt
ok $? "summary: points, solids and the inside kinds: $(grep contacts: sum.txt)"

for e in seq cpu; do
    "$XG" inside -q --engine $e "out_$e.gpkg" points.gpkg solids.gpkg --threads 2 &&
        dump "out_$e.gpkg" $sel | cmp -s - want.txt
    ok $? "--engine $e: the same records"
done

"$XG" inside -q -outside -acopy name -bcopy rock out2.gpkg points.gpkg solids.gpkg
[ $? -eq 0 ] && dump out2.gpkg $sel | cmp -s - want_out.txt
ok $? "-outside: one more record per point in no solid, b_fid NULL, kind outside"
dump out2.gpkg -select a_fid,a_part,b_fid,a_name,b_rock | cut -d, -f2- > copies.txt
cat > want_copies.txt <<'CSV'
1,0,10,vertex,ore
2,0,10,edge,ore
3,0,10,face,ore
4,0,10,shared,ore
4,0,20,shared,waste
5,0,10,nested,ore
5,0,30,nested,core
6,0,10,inside,ore
7,0,,out,
8,0,20,multi,waste
8,1,,multi,
CSV
cmp -s copies.txt want_copies.txt
ok $? "-acopy/-bcopy: a_name and b_rock; outside records have NULL b_ copies"
[ "$(ogrinfo -q -al out2.gpkg -where 'b_fid IS NULL AND b_rock IS NULL' | grep -c '^OGRFeature')" -eq 2 ]
ok $? "outside records: b_fid and b_rock are NULL, not 0 or ''"

# ---- --stats and --dump
"$XG" inside -q -outside --stats st.json --dump d.xgd out3.gpkg points.gpkg solids.gpkg
[ $? -eq 0 ] && [ "$(head -c 8 d.xgd)" = "XGDUMP3P" ] &&
    [ "$(wc -c < d.xgd)" -eq $((8 + 8 + 16 + 9 * 5 * 8 + 36 * 11 * 8)) ]
ok $? "--dump: an XGDUMP3P dump of 9 points and 36 triangles"
/usr/bin/python3 - st.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s['operation'] == 'inside'
assert s['points'] == 9 and s['triangles'] == 36, s
assert s['contacts'] == {'inside': 4, 'boundary': 5, 'outside': 2,
                         'total': 11}, s['contacts']
assert s['skipped']['not_closed_features'] == 0
assert s['skipped']['self_crossing_features'] == 0
assert s['candidate_pairs'] >= s['bbox_pairs'] > 0, s
# the filter decides the walls of these boxes itself (xg_ray_wall): the
# pairs it leaves to the exact stage are few, none here
assert 0 <= s['deferred_pairs'] <= s['bbox_pairs'], s
for k in ('predicate_filter_failures', 'exact_evaluations'):
    assert isinstance(s[k], int)
assert s['features_written'] == 11
PY
ok $? "--stats: points, triangles, the inside kinds, pairs tested, filter failures, exact evaluations"

# ---- an open surface: refused, nothing written
cp out.gpkg keep.gpkg
before=$(cksum < keep.gpkg)
"$XG" inside -overwrite keep.gpkg points.gpkg open.gpkg > /dev/null 2> err.txt
[ $? -eq 1 ] && [ "$(cat err.txt)" = "exactgeo: open.gpkg, layer 'open', feature 11: surface is not closed: 4 open edges (edges used by an odd number of its triangles)" ] &&
    [ "$(cksum < keep.gpkg)" = "$before" ] && nostage .
ok $? "an open surface: exit 1, its feature and open edges named, DST untouched: '$(cat err.txt)'"
"$XG" inside new.gpkg points.gpkg open.gpkg -bwhere "rock <> 'lid'" > /dev/null 2> err.txt
[ $? -eq 1 ] && grep -q "^exactgeo: open.gpkg, layer 'open', feature 12: surface is not closed: 4 open edges" err.txt &&
    grep -q "feature 12: polygon 1 is not planar; skipped" err.txt && [ ! -e new.gpkg ]
ok $? "a solid whose non-planar face was skipped is open: refused the same way"

"$XG" inside -skip-invalid skip.gpkg points.gpkg open.gpkg > sum.txt 2> err.txt
[ $? -eq 0 ] &&
    grep -q "^exactgeo: warning: open.gpkg, layer 'open', feature 11: surface is not closed: 4 open edges (edges used by an odd number of its triangles); skipped$" err.txt &&
    grep -q "feature 12: surface is not closed: .*; skipped$" err.txt &&
    grep -q "; 2 features not closed and 0 crossing themselves, skipped$" sum.txt &&
    [ "$(dump skip.gpkg -select b_fid | cut -d, -f2 | sort -u | tr '\n' ' ')" = "10 20 " ]
ok $? "-skip-invalid: the open solids skipped with a warning, counted; the closed ones used"
"$XG" inside -q -skip-invalid --stats st2.json skip2.gpkg points.gpkg open.gpkg 2> err.txt
[ $? -eq 0 ] && [ ! -s err.txt ] &&
    grep -q '"not_closed_features": 2' st2.json
ok $? "-skip-invalid -q: no warning; --stats counts 2 features not closed"
"$XG" inside -skip-invalid none.gpkg points.gpkg allopen.gpkg > /dev/null 2> err.txt
[ $? -eq 1 ] && tail -1 err.txt | grep -q "^exactgeo: allopen.gpkg, layer 'allopen': no usable triangles (1 feature: 1 not closed or crossing itself, skipped)$" &&
    [ ! -e none.gpkg ]
ok $? "-skip-invalid skipping every solid: an error, nothing written: '$(tail -1 err.txt)'"

# ---- a solid that crosses itself (issue 31, item 3)
cross="exactgeo: lenses.gpkg, layer 'lenses', feature 40: surface crosses itself: its triangles 2 and 16 meet other than at an edge or a vertex they share (give parts that overlap as separate features)"
cp out.gpkg keep.gpkg
before=$(cksum < keep.gpkg)
for e in seq cpu; do
    "$XG" inside -overwrite --engine $e keep.gpkg lpoints.gpkg lenses.gpkg > /dev/null 2> err.txt
    [ $? -eq 1 ] && [ "$(cat err.txt)" = "$cross" ] &&
        [ "$(cksum < keep.gpkg)" = "$before" ] && nostage .
    ok $? "--engine $e: two overlapping cubes in one feature: exit 1, the feature and a crossing pair named, DST untouched: '$(cat err.txt)'"
done
"$XG" inside --regions 2 lr.gpkg lpoints.gpkg lenses.gpkg > /dev/null 2> err.txt
[ $? -eq 1 ] && [ "$(cat err.txt)" = "$cross" ] && [ ! -e lr.gpkg ]
ok $? "--regions 2: refused the same way, nothing written"
cat > want_lens.txt <<'CSV'
POINT Z (500021.5 7000001.5 1.5),1,0,,outside
POINT Z (500020.5 7000000.5 0.5),2,0,,outside
POINT Z (500022.5 7000002.5 2.5),3,0,,outside
POINT Z (500030.5 7000000.5 0.5),4,0,41,inside
CSV
"$XG" inside -skip-invalid -outside --stats lst.json ls.gpkg lpoints.gpkg lenses.gpkg > sum.txt 2> err.txt
[ $? -eq 0 ] && [ "$(cat err.txt)" = "exactgeo: warning: ${cross#exactgeo: }; skipped" ] &&
    grep -q "; 0 features not closed and 1 crossing themselves, skipped$" sum.txt &&
    grep -q '"not_closed_features": 0, "self_crossing_features": 1' lst.json &&
    dump ls.gpkg $sel | cmp -s - want_lens.txt
ok $? "-skip-invalid: the crossing solid skipped with a warning, counted in the summary and --stats; the other used"
"$XG" inside -q -skip-invalid -outside --regions 2 lsr.gpkg lpoints.gpkg lenses.gpkg > sum.txt 2> err.txt
[ $? -eq 0 ] && [ ! -s err.txt ] && dump lsr.gpkg $sel | cmp -s - want_lens.txt
ok $? "-skip-invalid --regions 2: the same records"
cat > want_vouch.txt <<'CSV'
POINT Z (500021.5 7000001.5 1.5),1,0,,outside
POINT Z (500020.5 7000000.5 0.5),2,0,40,inside
POINT Z (500022.5 7000002.5 2.5),3,0,40,inside
POINT Z (500030.5 7000000.5 0.5),4,0,41,inside
CSV
for e in seq cpu; do
    "$XG" inside -q --solids-checked -outside --engine $e lv_$e.gpkg lpoints.gpkg lenses.gpkg 2> err.txt &&
        [ ! -s err.txt ] && dump lv_$e.gpkg $sel | cmp -s - want_vouch.txt
    ok $? "--solids-checked --engine $e: not checked, the parity answer (docs/semantics.md): the point in both lenses is outside"
done
"$XG" segtri --solids-checked o.gpkg points.gpkg solids.gpkg 2> err.txt
[ $? -eq 2 ] && [ "$(head -1 err.txt)" = "exactgeo: --solids-checked: segtri reads no solids to vouch for (only inside does)" ]
ok $? "segtri --solids-checked: a usage error: '$(head -1 err.txt)'"
"$XG" inside -q -overwrite ob.gpkg "$top_srcdir/data/blocks.gpkg" "$top_srcdir/data/orebodies.gpkg" 2> err.txt
[ $? -eq 0 ] && [ ! -s err.txt ]
ok $? "the demo's ore bodies (data/orebodies.gpkg) do not cross themselves"

# ---- bad points
"$XG" inside o.gpkg flat.gpkg solids.gpkg 2> err.txt
[ $? -eq 1 ] && [ "$(cat err.txt)" = "exactgeo: flat.gpkg, layer 'flat': geometry type Point has no Z; inside needs 3D input" ] && [ ! -e o.gpkg ]
ok $? "points without Z: refused, nothing written: '$(cat err.txt)'"
"$XG" inside o.gpkg mixed.gpkg solids.gpkg 2> err.txt
[ $? -eq 1 ] && [ "$(cat err.txt)" = "exactgeo: mixed.gpkg, layer 'mixed', feature 2: geometry is 3D Line String; expected Point or MultiPoint with Z" ] && [ ! -e o.gpkg ]
ok $? "a line among the points: refused naming the feature: '$(cat err.txt)'"
"$XG" inside o.gpkg solids.gpkg points.gpkg 2> err.txt
[ $? -eq 1 ] && grep -q "^exactgeo: solids.gpkg, layer 'solids', feature 10: geometry is 3D PolyhedralSurface; expected Point or MultiPoint with Z$" err.txt
ok $? "inputs swapped: refused naming the feature"
"$XG" segtri -outside o.gpkg points.gpkg solids.gpkg 2> err.txt
[ $? -eq 2 ] && [ "$(head -1 err.txt)" = "exactgeo: -outside: segtri gives no outside records (only inside does)" ]
ok $? "segtri -outside: a usage error"

# ---- all or nothing: a write failing after 3 features leaves DST as it was
cp out.gpkg app.gpkg
before=$(cksum < app.gpkg)
EXACTGEO_TEST_FAIL_AFTER=3 "$XG" inside -q -append -nln more app.gpkg points.gpkg solids.gpkg 2> err.txt
[ $? -eq 1 ] && grep -q "failure injected after 3 features" err.txt &&
    [ "$(cksum < app.gpkg)" = "$before" ] && nostage .
ok $? "a write failing midway: exit 1, the existing DST unchanged"
"$XG" inside -q out.gpkg points.gpkg solids.gpkg 2> err.txt
[ $? -eq 1 ] && grep -q "exists; use -overwrite" err.txt
ok $? "an existing DST is not clobbered without -overwrite"
"$XG" inside -q -append out.gpkg points.gpkg solids.gpkg &&
    [ "$(dump out.gpkg $sel | wc -l)" -eq 18 ]
ok $? "-append to the same layer: the records twice"

# ---- EXACTGEO:op=inside (the GDAL plugin, when built)
GDAL_DRIVER_PATH=$(cd "$top_builddir/ogr_driver/.libs" 2>/dev/null && pwd)
export GDAL_DRIVER_PATH
ogr2ogr -f CSV /vsistdout/ "EXACTGEO:op=inside;a=points.gpkg;b=solids.gpkg;outside=yes" \
    -lco GEOMETRY=AS_WKT $sel 2>/dev/null | tail -n +2 | tr -d '"' > conn.txt
cmp -s conn.txt want_out.txt
ok $? "EXACTGEO:op=inside;outside=yes: the same records as the tool"
cat > job.xgjob <<'JOB'
#exactgeo-job 1
op = inside
a = points.gpkg
b = open.gpkg
skip_invalid = yes
bcopy = rock
JOB
ogr2ogr -f CSV /vsistdout/ job.xgjob -lco GEOMETRY=AS_WKT -select b_fid,b_rock 2>/dev/null |
    tail -n +2 | tr -d '"' | cut -d, -f2- | sort -u > job.txt
printf '10,ore\n20,waste\n' | cmp -s - job.txt
ok $? "a .xgjob with op = inside and skip_invalid = yes: the closed solids only"
ogrinfo -so "EXACTGEO:op=inside;a=points.gpkg;b=open.gpkg" > /dev/null 2> err.txt
grep -q "feature 11: surface is not closed: 4 open edges" err.txt
ok $? "EXACTGEO: an open surface is an error naming the feature"
ogrinfo -so "EXACTGEO:op=inside;a=lpoints.gpkg;b=lenses.gpkg" > /dev/null 2> err.txt
grep -q "lenses.gpkg, layer 'lenses', feature 40: surface crosses itself: its triangles 2 and 16 meet" err.txt
ok $? "EXACTGEO: a solid that crosses itself is an error naming the feature"

echo "1..$n"
exit $failed
