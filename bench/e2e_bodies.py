#!/usr/bin/python3
"""e2e_bodies.py -- the 8 solids of bench_e2e.sh's `inside` runs.

    /usr/bin/python3 bench/e2e_bodies.py ORE.gpkg OUT.gpkg

Writes OUT.gpkg, layer 'orebodies' (EPSG of ORE's layer, same fields):
the 4 ore bodies of ORE (data/orebodies.gpkg), FIDs 1-4, then the same 4
moved east by the layer's width plus 50 m, FIDs 5-8 (body_id + 4): 8
closed solids, as the issue's runs had, with every field of the demo's.
The shift is a whole number of metres, so every vertex stays exactly
what it was plus that integer (the demo's vertices are multiples of
1/4 m).  Prints the 8 solids' 3D extent "X0 Y0 Z0 X1 Y1 Z1" on stdout
(for the block lattice).  Needs Debian's python3-gdal, hence
/usr/bin/python3.
"""
import math
import sys

from osgeo import ogr

ogr.UseExceptions()


def main():
    src = ogr.Open(sys.argv[1])
    lay = src.GetLayer(0)
    x0, x1, y0, y1 = lay.GetExtent()
    shift = math.ceil(x1 - x0) + 50.0
    drv = ogr.GetDriverByName("GPKG")
    dst = drv.CreateDataSource(sys.argv[2])
    out = dst.CreateLayer("orebodies", lay.GetSpatialRef(), lay.GetGeomType())
    defn = lay.GetLayerDefn()
    for i in range(defn.GetFieldCount()):
        out.CreateField(defn.GetFieldDefn(i))
    box = [math.inf] * 3 + [-math.inf] * 3
    for k in (0, 1):
        lay.ResetReading()
        for f in lay:
            g = f.GetGeometryRef().Clone()
            if k:
                for i in range(g.GetGeometryCount()):
                    ring = g.GetGeometryRef(i).GetGeometryRef(0)
                    for j in range(ring.GetPointCount()):
                        x, y, z = ring.GetPoint(j)
                        ring.SetPoint(j, x + shift, y, z)
            e = g.GetEnvelope3D()
            box = [min(box[0], e[0]), min(box[1], e[2]), min(box[2], e[4]),
                   max(box[3], e[1]), max(box[4], e[3]), max(box[5], e[5])]
            o = ogr.Feature(out.GetLayerDefn())
            o.SetFrom(f)
            o.SetFID(f.GetFID() + 4 * k)
            o.SetField("body_id", f.GetField("body_id") + 4 * k)
            o.SetGeometry(g)
            out.CreateFeature(o)
    dst = None
    print(" ".join("%.17g" % v for v in box))


main()
