#!/bin/sh
# regions_cli_t.sh -- runs in regions (issue 15, mpi/): `--regions 1..7`
# in one process, and `mpirun -n 1..4` when this exactgeo was built with
# MPI, give the single run's output, feature for feature and bit for bit
# (tests/ogrdump: every field, every coordinate in %a), and the single
# run's counts in the summary and in --stats, for segtri, redblue and
# inside (with -bcopy, with -outside).  The regions are cut where the
# work is (part_plan.c); cut in strips of equal widths instead
# (EXACTGEO_TEST_REGIONS_EVEN), the fixture's extent, x 0..12, y 0..4,
# puts the cuts of 2, 3, 4 and 6 regions on integers (6; 4, 8; 3, 6, 9;
# 2, 4, 6, 8, 10), and its contacts have integer x: many lie exactly on a
# cut, owned by the region above it.  Then the
# bundled data (drillholes x orebodies, blocks x orebodies), bad input in
# one region (one message, the single run's, exit 1, nothing written),
# an interrupted run, and what runs in regions refuses.  Last, what OGR's
# spatial filters cannot see (issue 31): infinite, huge and NaN
# coordinates, features without geometry, features past a stale stated
# extent, on GeoPackage, FlatGeobuf, Shapefile and GeoJSON; no temporary
# file left; two features of one FID.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
XG_T_NAME=regions
. "$top_srcdir/tests/cli_lib.sh"
/usr/bin/python3 -c 'from osgeo import ogr' 2>/dev/null ||
    { echo "1..0 # SKIP no python3 with osgeo.ogr"; exit 0; }
OGRDUMP=${OGRDUMP:-"$top_builddir/tests/ogrdump"}
D="$top_srcdir/data"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# the MPI runs are checked when exactgeo was built with MPI (XG_MPI, set
# by make check; a build without it refuses to run under mpirun; run by
# hand, unset: mpirun is asked) and mpirun is there
mpi=no
if [ "${XG_MPI:-yes}" = yes ] && command -v mpirun >/dev/null 2>&1 &&
    mpirun -n 2 --oversubscribe "$XG" --version >/dev/null 2>&1; then
    mpi=yes
fi

/usr/bin/python3 - <<'PY' 2>/dev/null || { echo "Bail out! fixtures"; exit 1; }
from osgeo import ogr, osr
ogr.UseExceptions()
srs = osr.SpatialReference()
srs.ImportFromEPSG(32634)

def layer(path, name, field, rows):
    ds = ogr.GetDriverByName('GPKG').CreateDataSource(path)
    lyr = ds.CreateLayer(name, srs, ogr.wkbUnknown)
    lyr.CreateField(ogr.FieldDefn(field, ogr.OFTString))
    for fid, val, wkt in rows:
        f = ogr.Feature(lyr.GetLayerDefn())
        f.SetFID(fid)
        f[field] = val
        if wkt:
            f.SetGeometry(ogr.CreateGeometryFromWkt(wkt))
        lyr.CreateFeature(f)

# segtri.  B: the floor z = 0 over the whole extent (two triangles), a
# wall in the plane x = 6, a square lid at z = 1 over x 4..8 (triangulated
# by the reader).  A: vertical holes at every integer x (through the floor
# and, over 4..8, the lid), a hole across the wall at x = 6, a stretch
# lying in the floor across every cut, a zero-length segment, a feature
# without geometry.
holes = [(10 + x, 'h%d' % x,
          'LINESTRING Z (%d %d -1,%d %d 2)' % (x, 1 + x % 3, x, 1 + x % 3))
         for x in range(13)]
layer('sa.gpkg', 'holes', 'name', holes + [
    (30, 'across', 'LINESTRING Z (5 2 0.5,7 2 0.5)'),
    (31, 'flat', 'LINESTRING Z (0.5 1.5 0,11.5 1.5 0)'),
    (32, 'zero', 'LINESTRING Z (3 3 -1,3 3 -1,3 3 0.5)'),
    (33, 'none', None)])
layer('sb.gpkg', 'bodies', 'rock', [
    (1, 'floor', 'TIN Z (((0 0 0,12 0 0,12 4 0,0 0 0)),'
                 '((0 0 0,12 4 0,0 4 0,0 0 0)))'),
    (2, 'wall', 'POLYGON Z ((6 0 -5,6 4 -5,6 2 5,6 0 -5))'),
    (3, 'lid', 'POLYGON Z ((4 0 1,8 0 1,8 4 1,4 4 1,4 0 1))')])

# redblue.  A: three lines across the extent and a polygon's ring; B:
# vertical lines at every integer x, and a line lying on A's y = 2 from
# x = 3 to 9 (an overlap whose ends are on cuts).
layer('reda.gpkg', 'red', 'name', [
    (1, 'y1', 'LINESTRING (0 1,12 1)'),
    (2, 'y2', 'LINESTRING (0 2,12 2)'),
    (3, 'y3', 'LINESTRING (0 3,12 3)'),
    (4, 'ring', 'POLYGON ((2 0.5,10 0.5,10 3.5,2 3.5,2 0.5))')])
layer('redb.gpkg', 'blue', 'name',
      [(10 + x, 'v%d' % x, 'LINESTRING (%d 0,%d 4)' % (x, x))
       for x in range(13)] +
      [(40, 'over', 'LINESTRING (3 2,9 2)')])

# inside.  B: a box over the whole extent, and one nested in it over x
# 6..9.  A: points at every integer x on y = 0 (the box's side), y = 2
# and y = 5 (outside), z = 0 (its floor) and 1; a MultiPoint.
def box(x0, y0, z0, x1, y1, z1):
    c = lambda i, j, k: ((x0, x1)[i], (y0, y1)[j], (z0, z1)[k])
    quads = [[(0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 0, 0)],
             [(0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)],
             [(0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1)],
             [(0, 1, 0), (0, 1, 1), (1, 1, 1), (1, 1, 0)],
             [(0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 1, 0)],
             [(1, 0, 0), (1, 1, 0), (1, 1, 1), (1, 0, 1)]]
    faces = [[c(*v) for v in q] for q in quads]
    ring = lambda f: '(' + ','.join('%r %r %r' % p for p in f + [f[0]]) + ')'
    return 'POLYHEDRALSURFACE Z (' + ','.join('(' + ring(f) + ')'
                                              for f in faces) + ')'
layer('ib.gpkg', 'solids', 'rock', [(1, 'host', box(0, 0, 0, 12, 4, 2)),
                                    (2, 'core', box(6, 1, 0, 9, 3, 1))])
pts, fid = [], 1
for x in range(13):
    for y in (0, 2, 5):
        for z in (0, 1):
            pts.append((fid, 'p%d' % fid, 'POINT Z (%d %d %d)' % (x, y, z)))
            fid += 1
pts.append((fid, 'multi', 'MULTIPOINT Z ((3 2 1),(6 2 0.5),(13 2 1))'))
layer('ia.gpkg', 'points', 'name', pts)
PY

# same LABEL OUT REF: OUT's dump is REF's, bit for bit
same() {
    "$OGRDUMP" "$2" > got.txt 2>/dev/null
    "$OGRDUMP" "$3" > want.txt 2>/dev/null
    [ -s want.txt ] && cmp -s got.txt want.txt
    ok $? "$1"
}
# counts FILE: the summary without its times, grid and partition lines
counts() {
    grep -v -e seconds -e grid -e 'regions [0-9]' -e 'rank [0-9]' \
        -e 'output:' "$1"
}

# like_single NAME LABEL OUT CMD...: CMD, a run that writes OUT, gives
# the single run's (NAME's) status, counts, warnings and features
like_single() {
    name=$1 label=$2 out=$3
    shift 3
    "$@" > out.txt 2> err.txt
    st=$?
    counts out.txt | cmp -s - "$name.out.counts"
    c=$?
    sort err.txt | cmp -s - "$name.err.sorted"
    e=$?
    ok $((st + c + e)) "$name: $label: status, counts, warnings"
    same "$name: $label: the same features" "$out" "$name.gpkg"
}

# check OP NAME ARGS...: the single run, then --regions 1..7 and mpirun
# -n 1..4 give its output and its counts (stdout) and warnings (stderr)
check() {
    op=$1; name=$2; shift 2
    "$XG" "$op" -overwrite "$name.gpkg" "$@" --engine cpu > "$name.out" \
        2> "$name.err"
    ok $? "$name: the single run"
    counts "$name.out" > "$name.out.counts"
    sort "$name.err" > "$name.err.sorted"
    for r in 1 2 3 4 5 6 7; do
        like_single "$name" "--regions $r" "$name-$r.gpkg" \
            "$XG" "$op" -overwrite "$name-$r.gpkg" "$@" --engine cpu \
            --regions $r
    done
    # a region's records in pieces of 5, each sorted where it does not
    # ascend (part_region.c): the merge of many runs
    like_single "$name" "--regions 3, records in pieces of 5" \
        "$name-p.gpkg" env EXACTGEO_TEST_RECORD_PIECE=5 \
        "$XG" "$op" -overwrite "$name-p.gpkg" "$@" --engine cpu --regions 3
    # the regions cut by the work fall where the fixture's data is; cut
    # in strips of equal widths, 2, 3, 4 and 6 of them cut at integers,
    # where its results lie
    for r in 2 3 4 6; do
        like_single "$name" "--regions $r of equal widths" \
            "$name-e$r.gpkg" env EXACTGEO_TEST_REGIONS_EVEN=1 \
            "$XG" "$op" -overwrite "$name-e$r.gpkg" "$@" --engine cpu \
            --regions $r
    done
    for p in 1 2 3 4; do
        if [ "$mpi" = no ]; then
            ok 0 "$name: mpirun -n $p # SKIP not built with MPI"
            ok 0 "$name: mpirun -n $p features # SKIP not built with MPI"
            continue
        fi
        like_single "$name" "mpirun -n $p" "$name-mpi$p.gpkg" \
            mpirun -n $p --oversubscribe "$XG" "$op" -overwrite \
            "$name-mpi$p.gpkg" "$@" --engine cpu
    done
}

check segtri seg sa.gpkg sb.gpkg -acopy name -bcopy rock
"$OGRDUMP" seg.gpkg | grep -q proper && "$OGRDUMP" seg.gpkg | grep -q touch &&
    "$OGRDUMP" seg.gpkg | grep -q coplanar
ok $? "seg: the fixture has proper, touch and coplanar contacts"
grep -q 'features without geometry, skipped: 1' seg.out
ok $? "seg: the feature without geometry counted once"
# a user's box (-spat) in regions: a feature meeting it anywhere is read
# by every region it meets ('flat' crosses them all), counted once
"$XG" segtri -overwrite box.gpkg sa.gpkg sb.gpkg -spat 1 0 5 4 > box.out
counts box.out > box.counts
for r in 2 3 6; do
    "$XG" segtri -overwrite box$r.gpkg sa.gpkg sb.gpkg -spat 1 0 5 4 \
        --regions $r > out.txt
    counts out.txt | cmp -s - box.counts
    ok $? "seg -spat: --regions $r: the counts"
    same "seg -spat: --regions $r: the same features" box$r.gpkg box.gpkg
done
check redblue rb reda.gpkg redb.gpkg -bcopy name
"$OGRDUMP" rb.gpkg | grep -q overlap
ok $? "rb: the fixture has an overlap"
check inside in ia.gpkg ib.gpkg -bcopy rock -outside
for k in inside boundary outside; do
    "$OGRDUMP" in.gpkg | grep -q "$k"
    ok $? "in: the fixture has $k records"
done

# Regions cut by the work, not by area: 990 points in the corner x 0..20
# of a layer 100 wide.  The three cuts of 4 regions fall in the corner
# (the strips of equal widths would put the 990 points in the first),
# and the output is the single run's.  (The cuts are those of 64 strips
# of equal widths: a cluster narrower than one of them stays in one
# region.)
/usr/bin/python3 - <<'PY' 2>/dev/null
from osgeo import ogr, osr
ogr.UseExceptions()
srs = osr.SpatialReference()
srs.ImportFromEPSG(32634)
ds = ogr.GetDriverByName('GPKG').CreateDataSource('dense.gpkg')
lyr = ds.CreateLayer('pts', srs, ogr.wkbPoint25D)
for i in range(1000):
    x = 20.0 * i / 990.0 if i < 990 else 10.0 * (i - 989)
    f = ogr.Feature(lyr.GetLayerDefn())
    f.SetGeometry(ogr.CreateGeometryFromWkt('POINT Z (%r %r 0.5)' % (x, (i * 7) % 4 + 0.5)))
    lyr.CreateFeature(f)
PY
"$XG" inside -q -overwrite dense1.gpkg dense.gpkg ib.gpkg -outside
CPL_DEBUG=EXACTGEO "$XG" inside -q -overwrite dense4.gpkg dense.gpkg ib.gpkg \
    -outside --regions 4 2> err.txt
st=$?
cuts=$(sed -n 's/.*EXACTGEO: region [0-9]* of 4: x [^ ]* \.\. \([^,]*\),.*/\1/p' err.txt)
[ $st -eq 0 ] && [ "$(echo "$cuts" | awk '$1 > 0 && $1 < 21' | wc -l)" -eq 3 ]
ok $? "dense corner: the 3 cuts of 4 regions in x 0..20 ($(echo $cuts | tr '\n' ' '))"
same "dense corner, --regions 4: the same features" dense4.gpkg dense1.gpkg

# the bundled data: a few region counts, and two ranks
for r in 2 5; do
    "$XG" segtri -q -overwrite dh.gpkg "$D/drillholes.gpkg" \
        "$D/orebodies.gpkg" -bcopy body_id,rock_type
    "$XG" segtri -q -overwrite dh$r.gpkg "$D/drillholes.gpkg" \
        "$D/orebodies.gpkg" -bcopy body_id,rock_type --regions $r
    same "drillholes x orebodies: --regions $r" dh$r.gpkg dh.gpkg
done
"$XG" inside -q -overwrite bl.gpkg "$D/blocks.gpkg" "$D/orebodies.gpkg" \
    -bcopy rock_type -outside
"$XG" inside -q -overwrite bl3.gpkg "$D/blocks.gpkg" "$D/orebodies.gpkg" \
    -bcopy rock_type -outside --regions 3 --stats bl3.json
same "blocks x orebodies: --regions 3" bl3.gpkg bl.gpkg
grep -q '"ranks": 1,' bl3.json && grep -q '"regions": 3,' bl3.json &&
    grep -q '"per_rank": \[' bl3.json
ok $? "--stats: ranks, regions, per_rank"
if [ "$mpi" = yes ]; then
    mpirun -n 2 --oversubscribe "$XG" segtri -q -overwrite dhm.gpkg \
        "$D/drillholes.gpkg" "$D/orebodies.gpkg" -bcopy body_id,rock_type \
        --regions 4 --engine cpu --stats dhm.json
    same "drillholes x orebodies: mpirun -n 2 --regions 4" dhm.gpkg dh.gpkg
    grep -q '"ranks": 2,' dhm.json && grep -q '"regions": 4,' dhm.json
    ok $? "--stats under mpirun: 2 ranks, 4 regions"
else
    ok 0 "mpirun -n 2 --regions 4 # SKIP not built with MPI"
    ok 0 "--stats under mpirun # SKIP not built with MPI"
fi

# bad input in one region: a hole without Z at x = 11, in the last
# region only.  The single run's message, once; exit 1; nothing written.
/usr/bin/python3 - <<'PY' 2>/dev/null
from osgeo import ogr
ogr.UseExceptions()
src = ogr.Open('sa.gpkg')
ds = ogr.GetDriverByName('GPKG').CopyDataSource(src, 'bad.gpkg')
lyr = ds.GetLayer(0)
f = ogr.Feature(lyr.GetLayerDefn())
f.SetFID(40)
f['name'] = 'flat2d'
f.SetGeometry(ogr.CreateGeometryFromWkt('LINESTRING (11 1,11.5 1)'))
lyr.CreateFeature(f)
PY
"$XG" segtri -q out.gpkg bad.gpkg sb.gpkg 2> want.txt
ok $(( $? == 1 ? 0 : 1 )) "bad input: the single run fails"
grep -q "bad.gpkg, layer 'holes', feature 40: geometry has no Z" want.txt
ok $? "bad input: the single run names the feature"
for r in 2 4 7; do
    "$XG" segtri -q fail.gpkg bad.gpkg sb.gpkg --regions $r 2> got.txt
    st=$?
    cmp -s got.txt want.txt && [ $st -eq 1 ] && [ ! -e fail.gpkg ] && nostage
    ok $? "bad input, --regions $r: exit 1, the one message, nothing written"
done
if [ "$mpi" = yes ]; then
    for p in 2 3; do
        mpirun -n $p --oversubscribe "$XG" segtri -q fail.gpkg bad.gpkg \
            sb.gpkg --engine cpu > /dev/null 2> got.txt
        st=$?
        [ "$(grep -c '^exactgeo:' got.txt)" -eq 1 ] &&
            grep -qxF "$(cat want.txt)" got.txt && [ $st -ne 0 ] &&
            [ ! -e fail.gpkg ] && nostage
        ok $? "bad input, mpirun -n $p: non-zero, the one message, nothing written"
    done
else
    ok 0 "bad input, mpirun -n 2 # SKIP not built with MPI"
    ok 0 "bad input, mpirun -n 3 # SKIP not built with MPI"
fi

# an interrupted run in regions: nothing written, the existing DST kept
cp seg.gpkg keep.gpkg
cp keep.gpkg before.gpkg
rm -f ready ready.caught
EXACTGEO_TEST_PAUSE=ready env --default-signal=INT "$XG" segtri -q \
    -overwrite keep.gpkg sa.gpkg sb.gpkg --regions 3 2> err.txt &
pid=$!
while [ ! -e ready ] && kill -0 $pid 2>/dev/null; do sleep 0.02; done
kill -s TERM $pid
while [ ! -e ready.caught ] && kill -0 $pid 2>/dev/null; do sleep 0.02; done
kill -s TERM $pid 2>/dev/null
wait $pid 2>/dev/null
st=$?
[ $st -eq 143 ] && cmp -s keep.gpkg before.gpkg && nostage &&
    grep -q 'interrupted; nothing written' err.txt
ok $? "SIGTERM during a run in regions: 143, DST as it was, no staging left"

# what does not run in regions
"$XG" delaunay -q tin.gpkg "$D/survey.gpkg" --regions 2 2> err.txt
[ $? -eq 2 ] && grep -q 'delaunay cannot run in regions' err.txt &&
    [ ! -e tin.gpkg ]
ok $? "delaunay --regions: a usage error, nothing written"
"$XG" segtri -q x.gpkg sa.gpkg sb.gpkg --regions 0 2> err.txt
[ $? -eq 2 ] && grep -q "bad regions '0'" err.txt
ok $? "--regions 0: a usage error"
"$XG" segtri -q x.gpkg sa.gpkg sb.gpkg --regions 2 --dump x.xgdump 2> err.txt
[ $? -eq 2 ] && grep -q 'dump' err.txt && [ ! -e x.gpkg ]
ok $? "--regions with --dump: a usage error"
if [ "$mpi" = yes ]; then
    mpirun -n 3 --oversubscribe "$XG" segtri -q x.gpkg sa.gpkg sb.gpkg \
        --regions 2 > /dev/null 2> err.txt
    [ $? -ne 0 ] && [ "$(grep -c 'each rank needs one region' err.txt)" -eq 1 ]
    ok $? "mpirun -n 3 --regions 2: refused once"
else
    ok 0 "mpirun -n 3 --regions 2 # SKIP not built with MPI"
fi

# What OGR's spatial filters cannot see (issue 31): a run in regions
# reads, refuses or counts it as the single run does, under --regions 1,
# --regions 3 and mpirun -n 3, on GeoPackage, FlatGeobuf, Shapefile and
# GeoJSON.  B is ib.gpkg (a box over x 0..12, y 0..4, and one in it).
/usr/bin/python3 - <<'PY' 2>/dev/null || { echo "Bail out! fixtures"; exit 1; }
import sqlite3, struct
from osgeo import ogr, osr
ogr.UseExceptions()
srs = osr.SpatialReference()
srs.ImportFromEPSG(32634)
inf, nan = float('inf'), float('nan')
drivers = {'gpkg': 'GPKG', 'fgb': 'FlatGeobuf', 'shp': 'ESRI Shapefile',
           'geojson': 'GeoJSON'}

# points(PATH, ROWS): a layer 'pts' of PointZ, rows (fid, (x, y, z)): a
# point None for a feature without geometry, 'empty' for POINT EMPTY
def points(path, rows):
    drv = ogr.GetDriverByName(drivers[path.split('.')[-1]])
    ds = drv.CreateDataSource(path)
    lyr = ds.CreateLayer('pts', srs, ogr.wkbPoint25D)
    lyr.CreateField(ogr.FieldDefn('name', ogr.OFTString))
    for fid, p in rows:
        f = ogr.Feature(lyr.GetLayerDefn())
        f.SetFID(fid)
        f['name'] = 'p%d' % fid
        if p is not None:
            g = ogr.Geometry(ogr.wkbPoint25D)
            if p != 'empty':
                g.AddPoint(*p)
            f.SetGeometry(g)
        lyr.CreateFeature(f)
    ds = None

# the extent a GeoPackage or a Shapefile states, whatever it holds
def gpkg_extent(path, x0, y0, x1, y1):
    db = sqlite3.connect(path)
    db.execute('UPDATE gpkg_contents SET min_x=?, min_y=?, max_x=?, '
               'max_y=?', (x0, y0, x1, y1))
    db.commit()
    db.close()

def shp_extent(path, x0, y0, x1, y1):
    for ext in ('.shp', '.shx'):
        with open(path[:-4] + ext, 'r+b') as f:
            f.seek(36)
            f.write(struct.pack('<4d', x0, y0, x1, y1))

base = [(fid, (fid % 13, fid % 5, 0.5 + fid % 2)) for fid in range(1, 16)]
# huge coordinates (4e38 is past a float's range, a GeoPackage R-tree's),
# no geometry, an empty point, and (GeoPackage, Shapefile) points past
# the stated extent: x 100, x -50, y 40
odd = base + [(20, (4e38, 2, 1)), (21, (-1e100, 3, 1)), (22, (5, 1e300, 1)),
              (23, None), (24, 'empty'), (25, (100, 2, 1)), (26, (-50, 2, 1)),
              (27, (3, 40, 1))]
for ext in ('gpkg', 'fgb', 'shp', 'geojson'):
    points('odd.' + ext, odd)
gpkg_extent('odd.gpkg', 0, 0, 12, 4)
shp_extent('odd.shp', 0, 0, 12, 4)
# every point near 1e300
points('e300.gpkg', [(1, (1e300, 2, 1)), (2, (1e300, 3, 1)),
                     (3, (2e300, 2, 1)), (4, (-1e300, 1, 1))])
# GeoJSON holds no infinite or NaN number, Shapefile takes none from OGR
for ext in ('gpkg', 'fgb'):
    points('inf.' + ext, base + [(20, (3, inf, 1))])
points('nan.gpkg', base + [(20, (nan, 2, 1))])
# ib.gpkg and a third body far away (the host box moved to x 1000..1012),
# left out of its stated extent, and points in it, left out of theirs
src = ogr.Open('ib.gpkg')
ds = ogr.GetDriverByName('GPKG').CopyDataSource(src, 'bstale.gpkg')
lyr = ds.GetLayer(0)
f = lyr.GetFeature(1)
g = f.GetGeometryRef()
for k in range(g.GetGeometryCount()):
    r = g.GetGeometryRef(k).GetGeometryRef(0)
    for i in range(r.GetPointCount()):
        x, y, z = r.GetPoint(i)
        r.SetPoint(i, x + 1000, y, z)
f.SetFID(3)
f['rock'] = 'far'
lyr.CreateFeature(f)
ds = None
gpkg_extent('bstale.gpkg', 0, 0, 12, 4)
points('far.gpkg', base + [(20, (1005, 2, 1)), (21, (1001, 1, 0.5))])
gpkg_extent('far.gpkg', 0, 0, 12, 4)
PY

# partitioned HOW ARGS...: exactgeo ARGS --engine cpu in regions (HOW:
# --regions N) or over MPI (mpirun -n P), into out.txt and err.txt
partitioned() {
    how=$1
    shift
    case $how in
    mpirun*)
        mpirun -n "${how##* }" --oversubscribe "$XG" "$@" --engine cpu \
            > out.txt 2> err.txt ;;
    *)
        "$XG" "$@" --engine cpu $how > out.txt 2> err.txt ;;
    esac
}
# agree NAME OP ARGS...: the single run (one-NAME.gpkg, .out, .err),
# then --regions 1, --regions 3 and mpirun -n 3, each to a DST that
# exists.  Where the single run succeeds: status 0, its counts, its
# warnings in its order, its output bit for bit.  Where it fails: exit 1
# (mpirun: non-zero, and mpirun's own lines), its one message, the DST
# as it was, no staging folder left.
cp ib.gpkg kept.gpkg
agree() {
    name=$1
    op=$2
    shift 2
    "$XG" "$op" -overwrite "one-$name.gpkg" "$@" --engine cpu \
        > "one-$name.out" 2> "one-$name.err"
    want=$?
    counts "one-$name.out" > "one-$name.counts"
    for how in "--regions 1" "--regions 3" "mpirun -n 3"; do
        if [ "$how" != "${how#mpirun}" ] && [ "$mpi" = no ]; then
            ok 0 "$name: $how # SKIP not built with MPI"
            continue
        fi
        cp kept.gpkg dst.gpkg
        partitioned "$how" "$op" -overwrite dst.gpkg "$@"
        st=$?
        if [ $want -eq 0 ]; then
            [ $st -eq 0 ] && counts out.txt | cmp -s - "one-$name.counts" &&
                cmp -s err.txt "one-$name.err"
            ok $? "$name: $how: exit 0, the single run's counts and warnings"
            same "$name: $how: the single run's features" dst.gpkg \
                "one-$name.gpkg"
        else
            { [ "$how" != "${how#mpirun}" ] || [ $st -eq 1 ]; } &&
                [ $st -ne 0 ] &&
                [ "$(grep -c '^exactgeo:' err.txt)" -eq 1 ] &&
                grep -qxF "$(cat "one-$name.err")" err.txt &&
                cmp -s dst.gpkg kept.gpkg && nostage
            ok $? "$name: $how: fails as the single run, DST as it was"
        fi
    done
}

# refused: an infinite coordinate, whatever region it would fall in
for ext in gpkg fgb; do
    agree "inf-$ext" inside inf.$ext ib.gpkg -outside -bcopy rock
    grep -q 'y coordinate is infinite' "one-inf-$ext.err"
    ok $? "inf-$ext: the single run refuses the infinite coordinate"
done
# the user's box leaves the infinite point out: no failure either way
agree inf-spat inside inf.gpkg ib.gpkg -outside -spat 0 0 12 4
# read or counted: huge coordinates, no geometry, past the stated extent
for ext in gpkg fgb shp geojson; do
    agree "odd-$ext" inside odd.$ext ib.gpkg -outside -acopy name
    "$OGRDUMP" "one-odd-$ext.gpkg" > dump.txt
    grep -q 'kind=outside a_name=p20 ' dump.txt &&
        grep -q 'kind=outside a_name=p27 ' dump.txt &&
        # FlatGeobuf's writer drops features without geometry
        { [ $ext = fgb ] ||
            grep -q 'features without geometry, skipped: 2' \
                "one-odd-$ext.out"; }
    ok $? "odd-$ext: the single run keeps x = 4e38 and y = 40"
done
# a layer near 1e300
agree e300 inside e300.gpkg ib.gpkg -outside
# NaN: as the single run, whatever it does with it
agree nan inside nan.gpkg ib.gpkg -outside
# a body of B and the points in it past their layers' stated extents
agree stale inside far.gpkg bstale.gpkg -bcopy rock
"$OGRDUMP" one-stale.gpkg | grep -q 'kind=inside b_rock=far'
ok $? "stale: the far body holds points in the single run"

# The plan reads every input once and files what it read in a temporary
# file beside DST (in the staging folder), unlinked as soon as it is
# made: nothing of it is left, after a run or after a failed one.
mkdir -p tmpd
for ext in gpkg fgb shp geojson; do
    "$XG" inside -q -overwrite tmpd/dst.gpkg odd.$ext ib.gpkg -outside \
        --regions 3 && [ -z "$(ls -A tmpd | grep -v '^dst.gpkg$')" ]
    ok $? "odd-$ext: the run's temporary file is gone, nothing beside DST"
done
"$XG" inside -q -overwrite tmpd/dst.gpkg inf.gpkg ib.gpkg --regions 3 \
    2>/dev/null
[ $? -ne 0 ] && [ -z "$(ls -A tmpd | grep -v '^dst.gpkg$')" ]
ok $? "inf: a failed run leaves no temporary file"

# Two features of one id (GeoJSON keeps both): a single run reads them;
# a run in regions, whose records are named by ids, refuses the layer
# (it gave the second the first's attributes).
cat > dup.geojson <<'JSON'
{"type": "FeatureCollection",
 "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::32634"}},
 "features": [
{"type": "Feature", "id": 1, "properties": {"name": "first"}, "geometry": {"type": "Point", "coordinates": [1, 2, 1]}},
{"type": "Feature", "id": 1, "properties": {"name": "second"}, "geometry": {"type": "Point", "coordinates": [5, 2, 1]}},
{"type": "Feature", "id": 3, "properties": {"name": "third"}, "geometry": {"type": "Point", "coordinates": [9, 2, 1]}}]}
JSON
"$XG" inside -q -overwrite one-dup.gpkg dup.geojson ib.gpkg -acopy name \
    --engine cpu
ok $? "dup: the single run reads both features of id 1"
for how in "--regions 1" "--regions 3" "mpirun -n 3"; do
    if [ "$how" != "${how#mpirun}" ] && [ "$mpi" = no ]; then
        ok 0 "dup: $how # SKIP not built with MPI"
        continue
    fi
    cp kept.gpkg dst.gpkg
    partitioned "$how" inside -q -overwrite dst.gpkg dup.geojson ib.gpkg \
        -acopy name
    [ $? -ne 0 ] && [ "$(grep -c '^exactgeo:' err.txt)" -eq 1 ] &&
        grep -q "dup.geojson, layer 'dup': two features have the id (FID) 1" \
            err.txt && cmp -s dst.gpkg kept.gpkg && nostage
    ok $? "dup: $how: refused, naming the id, DST as it was"
done

echo "1..$n"
exit $failed
