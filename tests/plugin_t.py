"""plugin_t.py -- the EXACTGEO driver from Python's GDAL bindings: the
layer equals the exactgeo tool's output feature by feature (fields and
ISO WKB, so every coordinate bit), filters work, errors raise with the
driver's message, registration is idempotent.  TAP on stdout.
Usage: python3 plugin_t.py DRILLHOLES.gpkg OREBODIES.gpkg TOOL_OUTPUT.gpkg"""
import sys
from osgeo import gdal, ogr

gdal.UseExceptions()
a, b, ref = sys.argv[1:4]
n = 0
failed = 0


def ok(cond, what):
    global n, failed
    n += 1
    failed += not cond
    print(('ok' if cond else 'not ok'), n, '-', what)


def rows(lyr):
    d = lyr.GetLayerDefn()
    names = [d.GetFieldDefn(i).GetName() for i in range(d.GetFieldCount())]
    return names, [([f.GetField(k) for k in names],
                    f.GetGeometryRef().ExportToIsoWkb()) for f in lyr]


gdal.AllRegister()
gdal.AllRegister()
ok(sum(gdal.GetDriver(i).ShortName == 'EXACTGEO'
       for i in range(gdal.GetDriverCount())) == 1,
   'registering twice leaves one EXACTGEO driver')

conn = 'EXACTGEO:op=segtri;a=%s;b=%s;acopy=hole_id' % (a, b)
ds = gdal.OpenEx(conn, gdal.OF_VECTOR)
ok(ds is not None and ds.GetDriver().ShortName == 'EXACTGEO'
   and ds.GetLayerCount() == 1, 'gdal.OpenEx opens a one-layer dataset')
lyr = ds.GetLayer(0)
rds = gdal.OpenEx(ref, gdal.OF_VECTOR)
rlyr = rds.GetLayer(0)
got, want = rows(lyr), rows(rlyr)
ok(got[0] == want[0], 'same fields as the tool: %s' % ','.join(got[0]))
ok(len(got[1]) > 0 and got[1] == want[1],
   'same %d features (fields, ISO WKB) in the same order' % len(got[1]))
ok(lyr.GetFeatureCount() == rlyr.GetFeatureCount(), 'GetFeatureCount agrees')
ok(lyr.GetSpatialRef().IsSame(rlyr.GetSpatialRef()), 'same CRS')

lyr.SetAttributeFilter("kind = 'coplanar'")
rlyr.SetAttributeFilter("kind = 'coplanar'")
g, w = rows(lyr)[1], rows(rlyr)[1]
ok(len(g) > 0 and g == w, 'SetAttributeFilter: %d coplanar contacts' % len(g))
lyr.SetAttributeFilter(None)
rlyr.SetAttributeFilter(None)
x0, x1, y0, y1 = rlyr.GetExtent()
lyr.SetSpatialFilterRect(x0 - 1, y0 - 1, (x0 + x1) / 2, y1 + 1)
rlyr.SetSpatialFilterRect(x0 - 1, y0 - 1, (x0 + x1) / 2, y1 + 1)
g, w = rows(lyr)[1], rows(rlyr)[1]
# (GPKG returns the filtered features in its R-tree's order.)
ok(0 < len(g) < len(got[1]) and sorted(g) == sorted(w),
   'SetSpatialFilterRect: %d contacts in the west half' % len(g))
lyr = None
ds = None

try:
    gdal.OpenEx(conn, gdal.OF_VECTOR | gdal.OF_UPDATE)
    ok(False, 'update refused')
except RuntimeError as e:
    ok('read-only' in str(e), 'update refused: %s' % e)
try:
    gdal.OpenEx('EXACTGEO:op=segtri;a=/nonexistent.gpkg;b=%s' % b,
                gdal.OF_VECTOR)
    ok(False, 'missing input raises')
except RuntimeError as e:
    ok('EXACTGEO: ' in str(e) and '/nonexistent.gpkg' in str(e),
       'missing input raises: %s' % e)
try:
    gdal.OpenEx('EXACTGEO:op=segtri;a=%s;b=%s' % (a, b), gdal.OF_VECTOR,
                open_options=['GRID=0'])
    ok(False, 'bad GRID raises')
except RuntimeError as e:
    ok("bad grid '0'" in str(e), 'bad GRID raises: %s' % e)
print('1..%d' % n)
sys.exit(1 if failed else 0)
