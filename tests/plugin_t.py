"""plugin_t.py -- the EXACTGEO driver from Python's GDAL bindings: the
layer equals the exactgeo tool's output feature by feature (fields and
ISO WKB, so every coordinate bit), filters work, errors raise with the
driver's message, registration is idempotent; the job runs once per
dataset, and datasets open on the same job at the same time share one run
(counted by its CPLDebug line); opening for update is no error, writing
is.  TAP on stdout.
Usage: python3 plugin_t.py DRILLHOLES.gpkg OREBODIES.gpkg TOOL_OUTPUT.gpkg"""
import os
import shutil
import sys
import tempfile
import threading
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


# Issue 11, item 12: how many times the job runs.  The driver says
# "running job" through CPLDebug('EXACTGEO') at each run.
class Runs:
    def __init__(self):
        self.n = 0
        self.errors = []

    def __call__(self, cls, no, msg):
        if cls == gdal.CE_Debug and 'running job' in msg:
            self.n += 1
        elif cls in (gdal.CE_Failure, gdal.CE_Fatal):
            self.errors.append(msg)


runs = Runs()
gdal.SetConfigOption('CPL_DEBUG', 'EXACTGEO')
gdal.PushErrorHandler(runs)
ds = gdal.OpenEx(conn, gdal.OF_VECTOR)
lyr = ds.GetLayer(0)
total = lyr.GetFeatureCount()
first = rows(lyr)[1]
lyr.GetExtent()
lyr.ResetReading()
again = rows(lyr)[1]
lyr.GetFeature(0)
lyr.SetAttributeFilter("kind = 'touch'")
lyr.GetFeatureCount()
lyr.SetAttributeFilter(None)
ok(runs.n == 1 and len(first) == total and first == again,
   'open, count, read, extent, reset, read, filter: %d run(s)' % runs.n)
ds2 = gdal.OpenEx(conn, gdal.OF_VECTOR)
ok(runs.n == 1 and rows(ds2.GetLayer(0))[1] == first,
   'a second dataset on the same job, the first still open, shares its '
   'run: %d run(s), same features' % runs.n)
lyr = None
ds = ds2 = None
ds = gdal.OpenEx(conn, gdal.OF_VECTOR)
ok(runs.n == 2, 'after both closed, opening again runs again: %d runs'
   % runs.n)
ds3 = gdal.OpenEx(conn, gdal.OF_VECTOR, open_options=['ENGINE=seq'])
ok(runs.n == 3, 'another open option is another job: %d runs' % runs.n)
ds = ds3 = None

# Several threads opening the same job at once: one run.
runs.n = 0
dss = [None] * 4


def open_one(i):
    gdal.PushErrorHandler(runs)     # handlers are per thread
    dss[i] = gdal.OpenEx(conn, gdal.OF_VECTOR)
    gdal.PopErrorHandler()


ts = [threading.Thread(target=open_one, args=(i,)) for i in range(4)]
for t in ts:
    t.start()
for t in ts:
    t.join()
ok(runs.n == 1 and all(d is not None and d.GetLayer(0).GetFeatureCount() ==
                       total for d in dss),
   '4 threads open the same job together: %d run(s)' % runs.n)
dss = None

# An input that changes while a dataset is open: the next open sees it.
tmp = tempfile.mkdtemp()
try:
    ta, tb = os.path.join(tmp, 'a.gpkg'), os.path.join(tmp, 'b.gpkg')
    shutil.copy(a, ta)
    shutil.copy(b, tb)
    tconn = 'EXACTGEO:op=segtri;a=%s;b=%s' % (ta, tb)
    runs.n = 0
    ds = gdal.OpenEx(tconn, gdal.OF_VECTOR)
    n0 = ds.GetLayer(0).GetFeatureCount()
    sub = gdal.OpenEx(ta, gdal.OF_VECTOR | gdal.OF_UPDATE)
    sl = sub.GetLayer(0)
    sl.DeleteFeature(sl.GetNextFeature().GetFID())
    sub = sl = None
    ds2 = gdal.OpenEx(tconn, gdal.OF_VECTOR)
    n1 = ds2.GetLayer(0).GetFeatureCount()
    ok(runs.n == 2 and n1 < n0 == ds.GetLayer(0).GetFeatureCount(),
       'an input edited while a dataset is open: the next open runs again '
       '(%d runs, %d then %d contacts)' % (runs.n, n0, n1))
    ds = ds2 = None
finally:
    shutil.rmtree(tmp)

# Opening for update (ogrinfo without -ro, QGIS) is no error; writes are.
runs.errors = []
ds = gdal.OpenEx(conn, gdal.OF_VECTOR | gdal.OF_UPDATE)
lyr = ds.GetLayer(0) if ds else None
ok(lyr is not None and not runs.errors,
   'opening for update gives no error (%s)' % '; '.join(runs.errors))
ok(lyr is not None and not lyr.TestCapability(ogr.OLCSequentialWrite) and
   not lyr.TestCapability(ogr.OLCRandomWrite) and
   not lyr.TestCapability(ogr.OLCDeleteFeature) and
   not ds.TestCapability(ogr.ODsCCreateLayer),
   'the layer and dataset advertise no write capability')
gdal.PopErrorHandler()
gdal.SetConfigOption('CPL_DEBUG', None)
gdal.PushErrorHandler('CPLQuietErrorHandler')
for what, call in (('CreateFeature', lambda f: lyr.CreateFeature(f)),
                   ('SetFeature', lambda f: lyr.SetFeature(f)),
                   ('DeleteFeature', lambda f: lyr.DeleteFeature(0))):
    f = lyr.GetFeature(0)
    gdal.ErrorReset()
    rc = call(f)        # (ogr's exceptions are off: an OGRErr comes back)
    msg = gdal.GetLastErrorMsg()
    ok(rc == ogr.OGRERR_UNSUPPORTED_OPERATION and 'read-only' in msg,
       '%s refused: %s' % (what, msg))
gdal.PopErrorHandler()
ok(lyr.GetFeatureCount() == total, 'the layer is unchanged')
lyr = None
ds = None
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
