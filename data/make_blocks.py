#!/usr/bin/python3
"""make_blocks.py -- writes the demo block model of exactgeo into data/.

    /usr/bin/python3 data/make_blocks.py [--out DIR] [--bodies PATH]

blocks.gpkg, layer 'blocks': PointZ block centroids on a regular
    lattice over the extent of the ore bodies of data/orebodies.gpkg
    (EPSG:32634), blocks of SIZE metres, fields block_id, ix, iy, iz
    (the block's column, row and level from the lattice's south-west
    bottom corner) and probe (NULL for a block);
    then the probe points below (block_id above the blocks', ix, iy, iz
    NULL, probe = their name), for `exactgeo inside` and its tests.

Deterministic: no randomness; the same ore bodies give the same points
in the same order.  Needs Debian's python3-gdal (osgeo.ogr), hence
/usr/bin/python3.

Exact probes (built from mesh vertices, multiples of 1/4 m, with dyadic
weights, so every coordinate is a double exactly; the script re-checks
each in rational arithmetic, fractions.Fraction, before writing):
  ON-VERTEX       the highest vertex of body 1: boundary of body 1.
  ON-EDGE         the midpoint of an edge of body 2's highest triangle:
                  boundary of body 2.
  ON-FACE         (A + B + 2C) / 4 inside body 3's highest triangle:
                  boundary of body 3.
  RAY-VERTEX      8 m straight below the highest vertex of body 4: inside
                  body 4, and its vertical ray passes through that vertex.
  RAY-EDGE        8 m straight below the midpoint of an edge of body 2's
                  highest triangle: inside body 2, its ray through that
                  edge.
The inside probes are checked with the winding number (the sum of the
solid angles of the triangles, in floating point: they lie metres away
from any face, where that sum is 4 pi or 0 within a hair).
"""
import argparse
import math
import os
import sys
from fractions import Fraction

from osgeo import ogr, osr

SIZE = (12.5, 12.5, 10.0)      # block size in metres (x, y, z): dyadic
BELOW = 8.0                     # metres from a surface point to a RAY-* probe


def read_bodies(path):
    """[(fid, body_id, [triangle (3 vertices)])] of the orebodies layer;
    every polygon of a body's MultiPolygonZ is one triangle."""
    ds = ogr.Open(path)
    if ds is None:
        sys.exit('make_blocks.py: cannot open %s' % path)
    out = []
    for f in ds.GetLayerByName('orebodies'):
        g = f.GetGeometryRef()
        tris = []
        for i in range(g.GetGeometryCount()):
            ring = g.GetGeometryRef(i).GetGeometryRef(0)
            pts = [ring.GetPoint(k) for k in range(ring.GetPointCount())]
            assert len(pts) == 4 and pts[0] == pts[3], 'not a triangle'
            tris.append(tuple(pts[:3]))
        out.append((f.GetFID(), f.GetField('body_id'), tris))
    return out


def lattice(bodies):
    """The lattice of block centroids over the bodies' bounding box,
    its corners rounded outwards to whole blocks: (origin, counts).
    Centroid (ix, iy, iz) = origin + (i + 1/2) * SIZE, exactly (dyadic)."""
    lo = [min(v[k] for _, _, ts in bodies for t in ts for v in t)
          for k in range(3)]
    hi = [max(v[k] for _, _, ts in bodies for t in ts for v in t)
          for k in range(3)]
    origin = [math.floor(lo[k] / SIZE[k]) * SIZE[k] for k in range(3)]
    counts = [int(math.ceil((hi[k] - origin[k]) / SIZE[k]))
              for k in range(3)]
    return origin, counts


def F(p):
    return [Fraction(c) for c in p]


def orient3d(a, b, c, d):
    """Exact det[a-d; b-d; c-d] on Fractions."""
    ad = [a[k] - d[k] for k in range(3)]
    bd = [b[k] - d[k] for k in range(3)]
    cd = [c[k] - d[k] for k in range(3)]
    return ad[0] * (bd[1] * cd[2] - bd[2] * cd[1]) \
        - ad[1] * (bd[0] * cd[2] - bd[2] * cd[0]) \
        + ad[2] * (bd[0] * cd[1] - bd[1] * cd[0])


def combo(weights, pts):
    """sum w_i p_i, asserted exact: the double equals the rational."""
    p = tuple(sum(w * q[k] for w, q in zip(weights, pts)) for k in range(3))
    for k in range(3):
        assert Fraction(p[k]) == sum(Fraction(w) * Fraction(q[k])
                                     for w, q in zip(weights, pts)), \
            'inexact probe'
    return p


def winding(p, tris):
    """Generalised winding number of the surface around p (1 inside a
    closed, consistently oriented surface, 0 outside), by the solid angle
    formula of Van Oosterom and Strackee; in floating point, so only for
    points well away from the surface."""
    total = 0.0
    for t in tris:
        a, b, c = ([t[i][k] - p[k] for k in range(3)] for i in range(3))
        la, lb, lc = (math.sqrt(sum(x * x for x in v)) for v in (a, b, c))
        det = a[0] * (b[1] * c[2] - b[2] * c[1]) \
            - a[1] * (b[0] * c[2] - b[2] * c[0]) \
            + a[2] * (b[0] * c[1] - b[1] * c[0])
        dot = lambda u, v: sum(x * y for x, y in zip(u, v))  # noqa: E731
        den = la * lb * lc + dot(a, b) * lc + dot(b, c) * la + \
            dot(c, a) * lb
        total += 2.0 * math.atan2(det, den)
    return total / (4.0 * math.pi)


def probes(bodies):
    """The probe points: [(name, point, body fid, expected kind)]."""
    by_id = {bid: (fid, tris) for fid, bid, tris in bodies}

    def highest_vertex(tris):
        return max((v for t in tris for v in t), key=lambda v: (v[2], v))

    def highest_triangle(tris):
        return max(tris, key=lambda t: sum(v[2] for v in t))

    out = []
    fid, tris = by_id[1]
    out.append(('ON-VERTEX', highest_vertex(tris), fid, 'boundary'))
    fid, tris = by_id[2]
    A, B, _ = highest_triangle(tris)
    M = combo((0.5, 0.5), (A, B))
    out.append(('ON-EDGE', M, fid, 'boundary'))
    out.append(('RAY-EDGE', (M[0], M[1], M[2] - BELOW), fid, 'inside'))
    fid, tris = by_id[3]
    A, B, C = highest_triangle(tris)
    out.append(('ON-FACE', combo((0.25, 0.25, 0.5), (A, B, C)), fid,
                'boundary'))
    fid, tris = by_id[4]
    V = highest_vertex(tris)
    out.append(('RAY-VERTEX', (V[0], V[1], V[2] - BELOW), fid, 'inside'))

    # Re-check each claim independently of exactgeo.
    all_tris = {fid: tris for fid, _, tris in bodies}
    for name, p, fid, kind in out:
        ft = [[F(v) for v in t] for t in all_tris[fid]]
        on = [t for t in ft
              if orient3d(*t, F(p)) == 0 and in_triangle(F(p), t)]
        if kind == 'boundary':
            assert on, '%s is on no face of body fid %d' % (name, fid)
        else:
            assert not on and abs(winding(p, all_tris[fid]) - 1.0) < 1e-6, \
                '%s is not inside body fid %d' % (name, fid)
        for other, tris in all_tris.items():
            if other != fid:
                assert abs(winding(p, tris)) < 1e-6, \
                    '%s lies in body fid %d too' % (name, other)
    return out


def in_triangle(p, t):
    """p (coplanar with t, exact Fractions) lies in the closed triangle t:
    the three 2D orientations in the projection that keeps t's area have
    no two opposite signs."""
    a, b, c = t
    n = [(b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]),
         (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]),
         (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])]
    drop = max(range(3), key=lambda k: abs(n[k]))
    i, j = [k for k in range(3) if k != drop]

    def o2(u, v, w):
        return (v[i] - u[i]) * (w[j] - u[j]) - (v[j] - u[j]) * (w[i] - u[i])
    s = [o2(a, b, p), o2(b, c, p), o2(c, a, p)]
    return not (any(x > 0 for x in s) and any(x < 0 for x in s))


def write(path, origin, counts, probe_list):
    drv = ogr.GetDriverByName('GPKG')
    if os.path.exists(path):
        drv.DeleteDataSource(path)
    ds = drv.CreateDataSource(path)
    if ds is None:
        sys.exit('make_blocks.py: cannot create %s' % path)
    s = osr.SpatialReference()
    s.ImportFromEPSG(32634)
    s.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    # No R-tree: it would double the file, and a block model is read whole.
    lyr = ds.CreateLayer('blocks', s, ogr.wkbPoint25D,
                         ['SPATIAL_INDEX=NO'])
    for name, ftype in (('block_id', ogr.OFTInteger), ('ix', ogr.OFTInteger),
                        ('iy', ogr.OFTInteger), ('iz', ogr.OFTInteger),
                        ('probe', ogr.OFTString)):
        lyr.CreateField(ogr.FieldDefn(name, ftype))
    defn = lyr.GetLayerDefn()
    lyr.StartTransaction()
    n = 0

    def put(p, fields):
        nonlocal n
        n += 1
        f = ogr.Feature(defn)
        f.SetField('block_id', n)
        for k, v in fields.items():
            f.SetField(k, v)
        g = ogr.Geometry(ogr.wkbPoint25D)
        g.AddPoint(*p)
        f.SetGeometry(g)
        lyr.CreateFeature(f)
    for iz in range(counts[2]):
        for iy in range(counts[1]):
            for ix in range(counts[0]):
                c = (ix, iy, iz)
                put(tuple(origin[k] + (c[k] + 0.5) * SIZE[k]
                          for k in range(3)), {'ix': ix, 'iy': iy, 'iz': iz})
    for name, p, _, _ in probe_list:
        put(p, {'probe': name})
    lyr.CommitTransaction()
    ds = None
    return n


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default=here)
    ap.add_argument('--bodies', default=os.path.join(here, 'orebodies.gpkg'))
    args = ap.parse_args()
    bodies = read_bodies(args.bodies)
    origin, counts = lattice(bodies)
    plist = probes(bodies)
    os.makedirs(args.out, exist_ok=True)
    n = write(os.path.join(args.out, 'blocks.gpkg'), origin, counts, plist)
    print('%d x %d x %d blocks of %g x %g x %g m from (%r, %r, %r), '
          'then %d probes: %d points'
          % (tuple(counts) + SIZE + tuple(origin) + (len(plist), n)))
    for i, (name, p, fid, kind) in enumerate(plist):
        print('%s (block_id %d): %r, %s of body fid %d'
              % (name, n - len(plist) + 1 + i, p, kind, fid))


if __name__ == '__main__':
    main()
