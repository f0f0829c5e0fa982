#!/usr/bin/python3
"""make_demo.py -- writes the demo data set of exactgeo into data/.

    /usr/bin/python3 data/make_demo.py [--seed N] [--out DIR] [--dump PATH]

drillholes.gpkg, layer 'drillholes': desurveyed drill-hole traces
    (LineStringZ), EPSG:32634 (WGS 84 / UTM 34N), a vertex every 10 m.
orebodies.gpkg, layer 'orebodies': closed triangulated ore-body shells
    (MultiPolygonZ, one triangle per polygon), same CRS.
--dump PATH also writes the two sets as an exactgeo dump (src/dump.c's
    layout: segments with fid = hole feature id and sub = segment index,
    triangles with fid = body feature id and sub = triangle index), for
    checking the data with the core library without GDAL.

Deterministic: the same seed gives byte-identical coordinates.  Needs
Debian's python3-gdal (osgeo.ogr, osgeo.osr), hence /usr/bin/python3.

Exact degeneracies (the holes named DEG-*; every point below is built
from mesh vertices that are multiples of 1/4 m with dyadic weights, so
each coordinate is exactly representable and the degeneracy is exact,
which build_degenerate() re-checks in rational arithmetic):
  DEG-VERTEX    a straight hole whose segment 'sub' (see the README table)
                passes through mesh vertex V of body 1 in its interior:
                a touch with every triangle around V.
  DEG-EDGE      a straight hole whose segment passes through the
                midpoint of an edge of body 2: a touch with both
                triangles of the edge.
  DEG-COPLANAR  a straight hole lying in the plane of one triangle of
                body 1; one of its segments crosses that triangle
                (coplanar overlap) and touches the two neighbours across
                the edges where it leaves the triangle.
  DEG-FACE      a straight hole with a vertex exactly inside a triangle
                of body 3: both segments at that vertex touch it there.
Every other hole is generic (millimetre-rounded desurvey output).
"""
import argparse
import math
import os
import random
import struct
import sys
from fractions import Fraction

from osgeo import ogr, osr

EPSG = 32634
E0, N0 = 500000.0, 7000000.0   # centre of the project area
STEP = 10.0                    # metres between trace vertices


def q4(v):
    """Nearest multiple of 1/4: exact at UTM magnitudes (< 2^24 m)."""
    return round(v * 4.0) / 4.0


def topo(x, y):
    """Ground elevation: a gentle undulating surface around 450 m."""
    u, v = (x - E0) / 400.0, (y - N0) / 400.0
    return 450.0 + 15.0 * math.sin(1.3 * u + 0.4) * math.cos(0.9 * v - 0.2) \
        + 5.0 * u


# ---------------------------------------------------------------- meshes

def icosphere(level):
    """Unit icosphere: (vertices, triangles), triangles CCW seen from
    outside, shared vertices (the mesh is closed)."""
    t = (1.0 + 5.0 ** 0.5) / 2.0
    verts = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0),
             (0, -1, t), (0, 1, t), (0, -1, -t), (0, 1, -t),
             (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    verts = [tuple(c / math.sqrt(sum(k * k for k in v)) for c in v)
             for v in verts]
    tris = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11),
            (1, 5, 9), (5, 11, 4), (11, 10, 2), (10, 7, 6), (7, 1, 8),
            (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9),
            (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    for _ in range(level):
        mid = {}

        def midpoint(i, j):
            key = (min(i, j), max(i, j))
            if key not in mid:
                a, b = verts[i], verts[j]
                m = [(a[k] + b[k]) / 2.0 for k in range(3)]
                n = math.sqrt(sum(c * c for c in m))
                verts.append(tuple(c / n for c in m))
                mid[key] = len(verts) - 1
            return mid[key]
        new = []
        for a, b, c in tris:
            ab, bc, ca = midpoint(a, b), midpoint(b, c), midpoint(c, a)
            new += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        tris = new
    return verts, tris


def orebody(rng, level, centre, radii, yaw):
    """A deformed ellipsoid shell: radial low-frequency bumps (it stays
    star-shaped, so the surface is simple), rotated about z, vertices
    rounded to multiples of 1/4 m."""
    verts, tris = icosphere(level)
    ph = [rng.uniform(0, 2 * math.pi) for _ in range(3)]
    out = []
    cy, sy = math.cos(yaw), math.sin(yaw)
    for x, y, z in verts:
        lon, lat = math.atan2(y, x), math.asin(max(-1.0, min(1.0, z)))
        bump = 1.0 + 0.12 * math.sin(2 * lon + ph[0]) * math.cos(lat) \
            + 0.08 * math.sin(3 * lat + ph[1]) \
            + 0.05 * math.cos(3 * lon + ph[2])
        px, py, pz = x * radii[0] * bump, y * radii[1] * bump, \
            z * radii[2] * bump
        out.append((q4(centre[0] + cy * px - sy * py),
                    q4(centre[1] + sy * px + cy * py),
                    q4(centre[2] + pz)))
    return out, tris


# ---------------------------------------------------------------- holes

def direction(az, dip):
    """Unit vector of azimuth az (clockwise from north) and dip (negative
    downwards), both in degrees."""
    a, d = math.radians(az), math.radians(dip)
    return (math.cos(d) * math.sin(a), math.cos(d) * math.cos(a),
            math.sin(d))


def desurvey(collar, az0, dip0, daz, ddip, depth):
    """Minimum-curvature desurvey with a station every STEP metres; the
    azimuth and dip drift linearly (per 100 m) with a slight wobble."""
    pts = [collar]
    x, y, z = collar
    n = int(round(depth / STEP))
    prev = direction(az0, dip0)
    for i in range(1, n + 1):
        md = i * STEP
        az = az0 + daz * md / 100.0 + 1.5 * math.sin(md / 37.0)
        dip = dip0 + ddip * md / 100.0
        cur = direction(az, dip)
        dot = max(-1.0, min(1.0, sum(p * c for p, c in zip(prev, cur))))
        beta = math.acos(dot)
        rf = 1.0 if beta < 1e-9 else 2.0 / beta * math.tan(beta / 2.0)
        x += STEP / 2.0 * (prev[0] + cur[0]) * rf
        y += STEP / 2.0 * (prev[1] + cur[1]) * rf
        z += STEP / 2.0 * (prev[2] + cur[2]) * rf
        pts.append((round(x, 3), round(y, 3), round(z, 3)))
        prev = cur
    return pts


def aimed_hole(rng, bodies):
    """A hole aimed at a random point inside a random body."""
    b = rng.choice(bodies)
    cx, cy, cz = b['centre']
    target = (cx + rng.uniform(-0.4, 0.4) * b['radii'][0],
              cy + rng.uniform(-0.4, 0.4) * b['radii'][1],
              cz + rng.uniform(-0.3, 0.3) * b['radii'][2])
    az0 = rng.uniform(0.0, 360.0)
    dip0 = rng.uniform(-85.0, -50.0)
    d = direction(az0, dip0)
    # Walk back from the target to the ground along the initial direction.
    s = 0.0
    while True:
        s += 5.0
        p = [target[k] - s * d[k] for k in range(3)]
        if p[2] >= topo(p[0], p[1]):
            break
    collar = (round(p[0], 3), round(p[1], 3), round(topo(p[0], p[1]), 3))
    depth = STEP * math.ceil((s + 1.2 * max(b['radii'])
                              + rng.uniform(0.0, 120.0)) / STEP)
    return desurvey(collar, az0, dip0, rng.uniform(-4.0, 4.0),
                    rng.uniform(-3.0, 6.0), depth)


def straight_hole(anchor, step, offset, bottom):
    """Points anchor + (j + offset) * step, from the ground down to below
    elevation bottom.  Exact when anchor, step and offset are dyadic
    (checked by the caller)."""
    assert step[2] < 0.0
    up = 0
    while True:
        up += 1
        p = [anchor[k] + (offset - up) * step[k] for k in range(3)]
        if p[2] >= topo(p[0], p[1]):
            break
    down = int(math.ceil((anchor[2] - bottom) / abs(step[2]))) + 1
    return [tuple(anchor[k] + (j + offset) * step[k] for k in range(3))
            for j in range(-up, down + 1)]


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


def check_line(pts, anchor, step, offset):
    """Every vertex is exactly anchor + (j + offset) step."""
    n0 = None
    for i, p in enumerate(pts):
        fp, fa, fs = F(p), F(anchor), F(step)
        if n0 is None:
            n0 = (fp[2] - fa[2]) / fs[2] - Fraction(offset)
        j = n0 + i
        assert j.denominator == 1
        for k in range(3):
            assert fp[k] == fa[k] + (j + Fraction(offset)) * fs[k], \
                "inexact straight hole"


def build_degenerate(bodies):
    """The four DEG-* holes; returns [(hole_id, points, note)]."""
    out = []

    def tri_pts(body, t):
        v = body['verts']
        return [v[i] for i in body['tris'][t]]

    def bottom(body):
        return body['centre'][2] - 1.4 * body['radii'][2]

    # DEG-VERTEX: in through the top vertex of body 1, inside a segment,
    # and out through the bottom.
    b = bodies[0]
    vi = max(range(len(b['verts'])), key=lambda i: b['verts'][i][2])
    V = b['verts'][vi]
    step = (2.5, -1.25, -9.5)          # multiples of 1/4: exact
    pts = straight_hole(V, step, 0.5, bottom(b))
    check_line(pts, V, step, 0.5)
    k = next(i for i in range(len(pts) - 1)
             if F(pts[i])[2] > Fraction(V[2]) > F(pts[i + 1])[2])
    deg = sum(1 for t in b['tris'] if vi in t)
    out.append(('DEG-VERTEX', pts,
                'segment %d passes through vertex %r of body 1 '
                '(%d triangles)' % (k, V, deg)))

    # DEG-EDGE: through the midpoint of an edge of body 2.
    b = bodies[1]
    t0 = max(range(len(b['tris'])),
             key=lambda t: sum(b['verts'][i][2] for i in b['tris'][t]))
    i0, i1 = b['tris'][t0][0], b['tris'][t0][1]
    A, B = b['verts'][i0], b['verts'][i1]
    M = tuple((A[k] + B[k]) / 2.0 for k in range(3))   # multiples of 1/8
    assert all(Fraction(M[k]) == (Fraction(A[k]) + Fraction(B[k])) / 2
               for k in range(3))
    step = (-1.75, 3.0, -9.25)
    pts = straight_hole(M, step, 0.25, bottom(b))
    check_line(pts, M, step, 0.25)
    k = next(i for i in range(len(pts) - 1)
             if F(pts[i])[2] > Fraction(M[2]) > F(pts[i + 1])[2])
    out.append(('DEG-EDGE', pts,
                'segment %d passes through %r, the midpoint of edge %r-%r '
                'of body 2' % (k, M, A, B)))

    # DEG-COPLANAR: a line in the plane of a steep triangle of body 1,
    # through G = (2A + B + C) / 4 along the in-plane steepest descent
    # w = alpha (B - A) + beta (C - A), alpha and beta multiples of 1/8.
    b = bodies[0]

    def steepness(t):
        a, bb, c = tri_pts(b, t)
        u = [bb[k] - a[k] for k in range(3)]
        v = [c[k] - a[k] for k in range(3)]
        n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
             u[0] * v[1] - u[1] * v[0])
        ln = math.sqrt(sum(x * x for x in n))
        # a steep face (|n_z| small) on the west side, away from DEG-VERTEX
        return abs(n[2]) / ln + (a[0] - b['centre'][0]) / 1000.0
    tc = min(range(len(b['tris'])), key=steepness)
    A, B, C = tri_pts(b, tc)
    G = tuple((2 * A[k] + B[k] + C[k]) / 4.0 for k in range(3))
    u = [B[k] - A[k] for k in range(3)]
    v = [C[k] - A[k] for k in range(3)]
    # Solve for the in-plane direction of steepest descent, then round its
    # coefficients to multiples of 1/8; scale so that |w| ~ 1.5 edges.
    uu = sum(x * x for x in u)
    vv = sum(x * x for x in v)
    uv = sum(x * y for x, y in zip(u, v))
    det = uu * vv - uv * uv
    # project (0, 0, -1) on the plane: minimise |alpha u + beta v - g|
    gu, gv = -u[2], -v[2]
    al, be = (vv * gu - uv * gv) / det, (uu * gv - uv * gu) / det
    w = [al * u[k] + be * v[k] for k in range(3)]
    scale = 1.5 * math.sqrt(max(uu, vv)) / math.sqrt(sum(x * x for x in w))
    al, be = round(al * scale * 8) / 8.0, round(be * scale * 8) / 8.0
    step = tuple(al * u[k] + be * v[k] for k in range(3))
    for k in range(3):
        assert Fraction(step[k]) == Fraction(al) * Fraction(u[k]) + \
            Fraction(be) * Fraction(v[k])
    pts = straight_hole(G, step, 0.5, bottom(b))
    check_line(pts, G, step, 0.5)
    fA, fB, fC = F(A), F(B), F(C)
    for p in pts:
        assert orient3d(fA, fB, fC, F(p)) == 0, "not coplanar"
    k = next(i for i in range(len(pts) - 1)
             if F(pts[i])[2] > Fraction(G[2]) > F(pts[i + 1])[2])
    out.append(('DEG-COPLANAR', pts,
                'all in the plane of triangle %d of body 1; segment %d '
                'crosses it through %r' % (tc, k, G)))

    # DEG-FACE: a hole vertex at F = (A + B + 2C) / 4 inside a triangle of
    # body 3 (the one with the highest centre: the hole comes from above).
    b = bodies[2]
    tf = max(range(len(b['tris'])),
             key=lambda t: sum(b['verts'][i][2] for i in b['tris'][t]))
    A, B, C = tri_pts(b, tf)
    Fp = tuple((A[k] + B[k] + 2 * C[k]) / 4.0 for k in range(3))
    assert orient3d(F(A), F(B), F(C), F(Fp)) == 0
    step = (1.5, 2.25, -9.75)
    pts = straight_hole(Fp, step, 0.0, bottom(b))
    check_line(pts, Fp, step, 0.0)
    k = next(i for i, p in enumerate(pts) if p == Fp)
    out.append(('DEG-FACE', pts,
                'vertex %d is %r, inside triangle %d of body 3'
                % (k, Fp, tf)))
    return out


# ---------------------------------------------------------------- output

def srs():
    s = osr.SpatialReference()
    s.ImportFromEPSG(EPSG)
    s.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    return s


def create(path, layer, gtype):
    drv = ogr.GetDriverByName('GPKG')
    if os.path.exists(path):
        drv.DeleteDataSource(path)
    ds = drv.CreateDataSource(path)
    if ds is None:
        sys.exit('make_demo.py: cannot create %s' % path)
    return ds, ds.CreateLayer(layer, srs(), gtype)


def length(pts):
    return sum(math.dist(pts[i], pts[i + 1]) for i in range(len(pts) - 1))


def write_holes(path, holes):
    ds, lyr = create(path, 'drillholes', ogr.wkbLineString25D)
    for name, ftype in (('hole_id', ogr.OFTString),
                        ('collar_elev', ogr.OFTReal),
                        ('total_depth', ogr.OFTReal)):
        lyr.CreateField(ogr.FieldDefn(name, ftype))
    fids = []
    lyr.StartTransaction()
    for hid, pts in holes:
        f = ogr.Feature(lyr.GetLayerDefn())
        f.SetField('hole_id', hid)
        f.SetField('collar_elev', pts[0][2])
        f.SetField('total_depth', round(length(pts), 3))
        g = ogr.Geometry(ogr.wkbLineString25D)
        for p in pts:
            g.AddPoint(*p)
        f.SetGeometry(g)
        lyr.CreateFeature(f)
        fids.append(f.GetFID())
    lyr.CommitTransaction()
    ds = None
    return fids


def write_bodies(path, bodies):
    ds, lyr = create(path, 'orebodies', ogr.wkbMultiPolygon25D)
    for name, ftype in (('body_id', ogr.OFTInteger),
                        ('rock_type', ogr.OFTString),
                        ('grade', ogr.OFTReal)):
        lyr.CreateField(ogr.FieldDefn(name, ftype))
    fids = []
    lyr.StartTransaction()
    for b in bodies:
        f = ogr.Feature(lyr.GetLayerDefn())
        f.SetField('body_id', b['id'])
        f.SetField('rock_type', b['rock'])
        f.SetField('grade', b['grade'])
        mp = ogr.Geometry(ogr.wkbMultiPolygon25D)
        for t in b['tris']:
            ring = ogr.Geometry(ogr.wkbLinearRing)
            for i in t + (t[0],):
                ring.AddPoint(*b['verts'][i])
            poly = ogr.Geometry(ogr.wkbPolygon25D)
            poly.AddGeometry(ring)
            mp.AddGeometry(poly)
        f.SetGeometry(mp)
        lyr.CreateFeature(f)
        fids.append(f.GetFID())
    lyr.CommitTransaction()
    ds = None
    return fids


def write_dump(path, holes, hole_fids, bodies, body_fids):
    segs, tris = [], []
    for (hid, pts), fid in zip(holes, hole_fids):
        for i in range(len(pts) - 1):
            segs.append((pts[i] + pts[i + 1], fid, i))
    for b, fid in zip(bodies, body_fids):
        for i, t in enumerate(b['tris']):
            xyz = sum((b['verts'][v] for v in t), ())
            tris.append((xyz, fid, i))
    with open(path, 'wb') as f:
        f.write(b'XGDUMP01')
        f.write(struct.pack('=dQQ', 1.0, len(segs), len(tris)))
        for s in segs:
            f.write(struct.pack('=6d', *s[0]))
        f.write(struct.pack('=%dq' % len(segs), *[s[1] for s in segs]))
        f.write(struct.pack('=%dq' % len(segs), *[s[2] for s in segs]))
        for t in tris:
            f.write(struct.pack('=9d', *t[0]))
        f.write(struct.pack('=%dq' % len(tris), *[t[1] for t in tris]))
        f.write(struct.pack('=%dq' % len(tris), *[t[2] for t in tris]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', type=int, default=20240611)
    ap.add_argument('--out', default=os.path.dirname(os.path.abspath(
        __file__)))
    ap.add_argument('--holes', type=int, default=40,
                    help='generic holes (the 4 DEG-* holes come on top)')
    ap.add_argument('--dump', help='also write an exactgeo dump here')
    args = ap.parse_args()
    rng = random.Random(args.seed)

    specs = [  # id, rock, level, centre offset, radii, yaw (degrees)
        (1, 'massive sulphide', 3, (-120.0, 80.0, 230.0), (110, 70, 55), 25),
        (2, 'disseminated sulphide', 3, (150.0, -60.0, 180.0),
         (140, 60, 45), -40),
        (3, 'skarn', 2, (40.0, 220.0, 300.0), (60, 45, 35), 70),
        (4, 'porphyry', 3, (-30.0, -200.0, 120.0), (90, 90, 70), 0),
    ]
    bodies = []
    for bid, rock, level, off, radii, yaw in specs:
        centre = (E0 + off[0], N0 + off[1], off[2])
        verts, tris = orebody(rng, level, centre, radii, math.radians(yaw))
        bodies.append({'id': bid, 'rock': rock, 'centre': centre,
                       'radii': radii, 'verts': verts, 'tris': tris,
                       'grade': round(rng.uniform(0.4, 3.5), 2)})

    holes = []
    for i in range(args.holes):
        holes.append(('DH%03d' % (i + 1), aimed_hole(rng, bodies)))
    for hid, pts, note in build_degenerate(bodies):
        holes.append((hid, pts))
        print('%s: %s' % (hid, note))

    os.makedirs(args.out, exist_ok=True)
    hole_fids = write_holes(os.path.join(args.out, 'drillholes.gpkg'), holes)
    body_fids = write_bodies(os.path.join(args.out, 'orebodies.gpkg'),
                             bodies)
    nseg = sum(len(p) - 1 for _, p in holes)
    ntri = sum(len(b['tris']) for b in bodies)
    print('%d holes (%d segments), %d bodies (%d triangles)'
          % (len(holes), nseg, len(bodies), ntri))
    if args.dump:
        write_dump(args.dump, holes, hole_fids, bodies, body_fids)


if __name__ == '__main__':
    main()
