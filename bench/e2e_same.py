#!/usr/bin/python3
"""e2e_same.py -- are two outputs of the tool the same, feature for feature?

    /usr/bin/python3 bench/e2e_same.py REF_FILE NEW_FILE

For bench/bench_e2e.sh, where a GeoPackage's bytes may differ by design
(the spatial index, issue 33) while its features must not.  GeoPackage:
read through SQLite, every table of gpkg_contents in name order: its
columns (names, types), its geometry column's row and CRS id, then every
row in FID order, each value compared, a geometry blob by its WKB (the
GeoPackage header, whose envelope is optional, left out); the index
tables, triggers and gpkg_extensions are not looked at.  Other formats:
through OGR (Debian's python3-gdal, hence /usr/bin/python3), every layer:
name, geometry type, CRS, field definitions, then every feature: FID,
fields, geometry as ISO WKB.  Prints "same N" (features) or "DIFFERENT:"
and the first difference; exit 0 same, 1 different, 2 error.
"""
import sqlite3
import sys

ENVELOPE = {0: 0, 1: 32, 2: 48, 3: 48, 4: 64}


def wkb(blob):
    """The WKB inside a GeoPackage geometry blob (None stays None)."""
    if not isinstance(blob, bytes) or blob[:2] != b"GP":
        return blob
    return blob[8 + ENVELOPE[(blob[3] >> 1) & 7]:]


def gpkg_items(path):
    """Yield what is compared of a GeoPackage, in order."""
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    tables = [r[0] for r in db.execute(
        "SELECT table_name FROM gpkg_contents WHERE data_type = 'features'"
        " ORDER BY table_name")]
    for t in tables:
        geo = db.execute("SELECT column_name, geometry_type_name, srs_id, z, m"
                         " FROM gpkg_geometry_columns WHERE table_name = ?",
                         (t,)).fetchone()
        cols = [(r[1], r[2]) for r in db.execute('PRAGMA table_info("%s")' % t)]
        yield ("layer", t, geo, cols)
        pk = [r[1] for r in db.execute('PRAGMA table_info("%s")' % t) if r[5]]
        gi = [c[0] for c in cols].index(geo[0]) if geo else -1
        for row in db.execute('SELECT * FROM "%s" ORDER BY "%s"' % (t, pk[0])):
            yield tuple(wkb(v) if i == gi else v for i, v in enumerate(row))


def ogr_items(path):
    """Yield what is compared of any OGR dataset, in order."""
    from osgeo import ogr
    ogr.UseExceptions()
    ds = ogr.Open(path)
    for li in range(ds.GetLayerCount()):
        lay = ds.GetLayer(li)
        d = lay.GetLayerDefn()
        srs = lay.GetSpatialRef()
        yield ("layer", lay.GetName(), lay.GetGeomType(),
               srs.ExportToWkt() if srs else None,
               [(d.GetFieldDefn(i).GetName(), d.GetFieldDefn(i).GetType(),
                 d.GetFieldDefn(i).GetWidth(), d.GetFieldDefn(i).GetPrecision())
                for i in range(d.GetFieldCount())])
        for f in lay:
            g = f.GetGeometryRef()
            yield ((f.GetFID(),) + tuple(f.GetField(i) for i in range(d.GetFieldCount()))
                   + (g.ExportToIsoWkb() if g else None,))


def main():
    if len(sys.argv) != 3:
        print("usage: e2e_same.py REF_FILE NEW_FILE", file=sys.stderr)
        return 2
    items = gpkg_items if sys.argv[1].endswith(".gpkg") else ogr_items
    a, b = items(sys.argv[1]), items(sys.argv[2])
    n = 0
    while True:
        x, y = next(a, StopIteration), next(b, StopIteration)
        if x != y:
            print("DIFFERENT: after %d features: %.300r != %.300r" % (n, x, y))
            return 1
        if x is StopIteration:
            print("same %d" % n)
            return 0
        n += x[0] != "layer"


sys.exit(main())
