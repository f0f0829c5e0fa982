"""gpkg_rtree_t.py -- checks of the spatial index exactgeo bulk-loads into
a GeoPackage layer (ogr_driver/gpkg_rtree.c), against GDAL's index of the
same layer and against brute force.  Run by gpkg_rtree_t.sh.

usage: gpkg_rtree_t.py FIRST NAME OURS.gpkg LAYER GDAL.gpkg [qgis]
  OURS.gpkg's LAYER was indexed by exactgeo, GDAL.gpkg's LAYER is the
  same layer indexed by GDAL (ogr2ogr).  Prints TAP lines numbered from
  FIRST, without the plan, each named NAME; exits 1 when one failed.
  qgis: also edit OURS through QgsVectorLayer (the caller checked that
  qgis.core loads).
"""
import random
import sqlite3
import subprocess
import sys

from osgeo import ogr

ogr.UseExceptions()
NAME, LAYER = "", ""
n = 0
failed = False


def check(ok, what):
    global n, failed
    n += 1
    print(("ok %d - " if ok else "not ok %d - ") % n + "%s: %s" % (NAME, what))
    failed = failed or not ok


def rtree_name(path):
    db = sqlite3.connect(path)
    t, g = db.execute("SELECT table_name, column_name FROM gpkg_geometry_columns "
                      "WHERE lower(table_name) = lower(?)", (LAYER,)).fetchone()
    db.close()
    return "rtree_%s_%s" % (t, g)


def rtreecheck(path):
    db = sqlite3.connect(path)
    r = db.execute("SELECT rtreecheck(?)", (rtree_name(path),)).fetchone()[0]
    db.close()
    return r


def integrity(path):
    db = sqlite3.connect(path)
    r = db.execute("PRAGMA integrity_check").fetchall()
    db.close()
    return "; ".join(x[0] for x in r[:3])


def boxes(path):
    db = sqlite3.connect(path)
    r = db.execute('SELECT id, minx, maxx, miny, maxy FROM "%s" ORDER BY id'
                   % rtree_name(path)).fetchall()
    db.close()
    return r


def schema(path):
    """The index's SQL and extension rows, as text to compare."""
    db = sqlite3.connect(path)
    rt = rtree_name(path)
    sql = db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE "
                     "name LIKE ? ORDER BY name", (rt + "%",)).fetchall()
    ext = db.execute("SELECT * FROM gpkg_extensions WHERE "
                     "extension_name = 'gpkg_rtree_index'").fetchall()
    db.close()
    return sql, ext


def filtered(lyr, w):
    lyr.SetSpatialFilterRect(w[0], w[2], w[1], w[3])
    lyr.ResetReading()
    r = sorted(f.GetFID() for f in lyr)
    lyr.SetSpatialFilter(None)
    return r


def brute(lyr, w):
    """The features a spatial filter must give: geometry meets the window
    (OGR's test after the index), found without any index."""
    ring = ogr.Geometry(ogr.wkbLinearRing)
    for x, y in ((w[0], w[2]), (w[1], w[2]), (w[1], w[3]), (w[0], w[3]), (w[0], w[2])):
        ring.AddPoint_2D(x, y)
    win = ogr.Geometry(ogr.wkbPolygon)
    win.AddGeometry(ring)
    out = []
    lyr.ResetReading()
    for f in lyr:
        g = f.GetGeometryRef()
        if g is None or g.IsEmpty():
            continue
        e = g.GetEnvelope()
        if e[0] > w[1] or e[1] < w[0] or e[2] > w[3] or e[3] < w[2]:
            continue
        if g.Intersects(win) or (e[0] >= w[0] and e[1] <= w[1] and
                                 e[2] >= w[2] and e[3] <= w[3]):
            out.append(f.GetFID())
    return sorted(out)


def windows(lyr, rng):
    w = []
    pts = []
    lyr.ResetReading()
    for f in lyr:
        g = f.GetGeometryRef()
        if g is not None and not g.IsEmpty():
            e = g.GetEnvelope()
            pts.append((e[0], e[2]))
    if pts:  # edges through a feature's corner: boundary inclusion
        ext = lyr.GetExtent()
        x, y = pts[len(pts) // 2]
        w.append((x, x + (ext[1] - ext[0]) * 0.1, y, y + (ext[3] - ext[2]) * 0.1))
        w.append((x - 1, x, y - 1, y))
    if not pts:
        return [(0.0, 1.0, 0.0, 1.0)]
    ext = lyr.GetExtent()
    w.append((ext[0] - 1, ext[1] + 1, ext[2] - 1, ext[3] + 1))
    for _ in range(8):
        fr = 0.02 + 0.3 * rng.random()
        wx, wy = (ext[1] - ext[0]) * fr, (ext[3] - ext[2]) * fr
        x0 = ext[0] + (ext[1] - ext[0] - wx) * rng.random()
        y0 = ext[2] + (ext[3] - ext[2] - wy) * rng.random()
        w.append((x0, x0 + wx, y0, y0 + wy))
    return w


def filters(path, what, rng):
    ds = ogr.Open(path)
    lyr = ds.GetLayerByName(LAYER)
    bad = 0
    for w in windows(lyr, rng):
        if filtered(lyr, w) != brute(lyr, w):
            bad += 1
    check(bad == 0, "%s: spatial filters give brute force's features" % what)
    ds = None


def shift(g, dx, dy):
    """g moved by (dx, dy), in place."""
    for i in range(g.GetGeometryCount()):
        shift(g.GetGeometryRef(i), dx, dy)
    for i in range(g.GetPointCount()):
        p = g.GetPoint(i)
        if g.Is3D():
            g.SetPoint(i, p[0] + dx, p[1] + dy, p[2])
        else:
            g.SetPoint_2D(i, p[0] + dx, p[1] + dy)


def ogr_edit(path, rng):
    """Inserts, moves, NULL and empty geometries, deletes, through OGR."""
    ds = ogr.Open(path, 1)
    lyr = ds.GetLayerByName(LAYER)
    geoms = [(f.GetFID(), f.GetGeometryRef().Clone()) for f in lyr
             if f.GetGeometryRef() is not None]
    fids = [fid for fid, _ in geoms]
    ext = lyr.GetExtent() if geoms else (0.0, 1.0, 0.0, 1.0)
    dx, dy = (ext[1] - ext[0]) * 0.05, (ext[3] - ext[2]) * 0.05
    lyr.StartTransaction()
    for i in range(20):
        f = ogr.Feature(lyr.GetLayerDefn())
        if geoms:
            g = geoms[rng.randrange(len(geoms))][1].Clone()
            shift(g, dx * rng.random(), dy * rng.random())
        else:
            g = ogr.Geometry(ogr.wkbPoint25D)
            g.AddPoint(rng.random(), rng.random(), 0.0)
        f.SetGeometryDirectly(g)
        lyr.CreateFeature(f)
    for k, fid in enumerate(rng.sample(fids, min(len(fids), 30))):
        f = lyr.GetFeature(fid)
        g = f.GetGeometryRef().Clone()
        if k % 10 == 0:
            f.SetGeometryDirectly(None)
        elif k % 10 == 1:
            f.SetGeometryDirectly(ogr.Geometry(g.GetGeometryType()))
        elif k % 10 == 2:
            lyr.DeleteFeature(fid)
            continue
        else:
            shift(g, -dx * rng.random(), dy * rng.random())
            f.SetGeometryDirectly(g)
        lyr.SetFeature(f)
    lyr.CommitTransaction()
    ds = None


def qgis_edit(path, layer, seed):
    """Inserts, moves, deletes through QgsVectorLayer (in a process of its
    own: QGIS's exit unloads GDAL's drivers).  True when committed."""
    from qgis.core import QgsApplication, QgsFeature, QgsVectorLayer
    rng = random.Random(seed)
    app = QgsApplication([], False)
    app.initQgis()
    vl = QgsVectorLayer("%s|layername=%s" % (path, layer), "t", "ogr")
    ok = vl.isValid()
    ext = vl.extent()
    feats = sorted(((f.id(), f.geometry()) for f in vl.getFeatures()
                    if not f.geometry().isNull()), key=lambda x: x[0])
    vl.startEditing()
    for _ in range(5):
        f = QgsFeature(vl.fields())
        g = feats[rng.randrange(len(feats))][1]
        g.translate(ext.width() * 0.03, ext.height() * 0.03)
        f.setGeometry(g)
        vl.addFeature(f)
    for k, (fid, g) in enumerate(rng.sample(feats, min(len(feats), 6))):
        if k % 2:
            vl.deleteFeature(fid)
        else:
            g.translate(ext.width() * 0.05, -ext.height() * 0.05)
            vl.changeGeometry(fid, g)
    ok = vl.commitChanges() and ok
    del vl
    app.exitQgis()
    return ok


def main():
    global NAME, LAYER, n
    if sys.argv[1] == "--qgis-edit":
        return 0 if qgis_edit(sys.argv[2], sys.argv[3], 2) else 1
    n = int(sys.argv[1]) - 1
    NAME, OURS, LAYER, THEIRS = sys.argv[2:6]
    QGIS = len(sys.argv) > 6 and sys.argv[6] == "qgis"
    rng = random.Random(33)
    check(rtreecheck(OURS) == "ok", "rtreecheck")
    ic = integrity(OURS)
    check(ic == "ok", "PRAGMA integrity_check: %s (the rows and the index written as pages)" % ic)
    ours, theirs = boxes(OURS), boxes(THEIRS)
    check(ours == theirs, "boxes equal GDAL's row for row (%d)" % len(ours))
    check(schema(OURS) == schema(THEIRS), "rtree table, triggers, extension rows are GDAL's")
    filters(OURS, "reopened", rng)
    ogr_edit(OURS, random.Random(1))
    ogr_edit(THEIRS, random.Random(1))
    check(rtreecheck(OURS) == "ok", "after OGR edits: rtreecheck")
    check(integrity(OURS) == "ok", "after OGR edits: integrity_check")
    check(boxes(OURS) == boxes(THEIRS), "after OGR edits: boxes equal GDAL's")
    filters(OURS, "after OGR edits", rng)
    if QGIS:
        r = subprocess.run([sys.executable, __file__, "--qgis-edit", OURS, LAYER])
        check(r.returncode == 0, "edited through QGIS (QgsVectorLayer)")
        check(rtreecheck(OURS) == "ok", "after QGIS edits: rtreecheck")
        check(integrity(OURS) == "ok", "after QGIS edits: integrity_check")
        filters(OURS, "after QGIS edits", rng)
    return 1 if failed else 0


sys.exit(main())
