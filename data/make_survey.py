#!/usr/bin/python3
"""make_survey.py -- writes the demo survey points of exactgeo into data/.

    /usr/bin/python3 data/make_survey.py [--out DIR] [--seed N] [--points N]

survey.gpkg, layer 'survey': PointZ ground survey points in EPSG:32634
    (WGS 84 / UTM zone 34N, beside the demo mine), for `exactgeo
    delaunay`.  Fields: point_id (text, S00001 ...) and code (text):
      hull      points on the four sides of the survey's rectangle
                [499500, 500500] x [6999600, 7000400], every 50 m: the
                convex hull is that rectangle, with many collinear points
                on each side (a triangulation must keep every one);
      lattice   a 9 x 9 patch of points 2.5 m apart (a levelled pad):
                every unit square's four corners are cocircular, so the
                Delaunay triangulation is not unique there without a rule;
      terrain   the rest, at random millimetre positions inside the
                rectangle, none on another's (x, y);
      dup-same  repeats of a terrain point's (x, y) and z (a point
                surveyed twice), written after it (higher FID);
      dup-z     repeats of a terrain point's (x, y) with another z (a
                re-survey that disagrees): exactgeo keeps the lowest FID
                and warns.
    Heights: a smooth terrain of a few hills (metres, to the millimetre).

Every coordinate of the hull and lattice points is a multiple of 1/2 m,
exactly a double, so the degeneracies are exact; the script re-checks
them in rational arithmetic (fractions.Fraction) before writing.
Deterministic for a given --seed (default 20261124).  Needs Debian's
python3-gdal (osgeo.ogr), hence /usr/bin/python3.
"""
import argparse
import math
import os
import random
import sys
from fractions import Fraction

from osgeo import ogr, osr

X0, Y0, X1, Y1 = 499500.0, 6999600.0, 500500.0, 7000400.0
HULL_STEP = 50.0
LATTICE = (499900.0, 7000100.0, 2.5, 9)    # x, y of its corner, step, n
N_SAME, N_ZDIFF = 12, 5


def height(x, y):
    """A smooth terrain: a few hills over a gentle slope, to the mm."""
    u, v = x - X0, y - Y0
    z = (420.0 + 0.02 * u - 0.015 * v
         + 18.0 * math.sin(u / 170.0) * math.cos(v / 130.0)
         + 9.0 * math.exp(-((u - 620.0) ** 2 + (v - 300.0) ** 2) / 9000.0))
    return round(z, 3)


def hull_points():
    """Every 50 m along the rectangle's sides, corners once."""
    pts = []
    nx = int((X1 - X0) / HULL_STEP)
    ny = int((Y1 - Y0) / HULL_STEP)
    for i in range(nx):
        pts.append((X0 + i * HULL_STEP, Y0))
    for j in range(ny):
        pts.append((X1, Y0 + j * HULL_STEP))
    for i in range(nx):
        pts.append((X1 - i * HULL_STEP, Y1))
    for j in range(ny):
        pts.append((X0, Y1 - j * HULL_STEP))
    return pts


def lattice_points():
    x, y, step, n = LATTICE
    return [(x + i * step, y + j * step) for j in range(n) for i in range(n)]


def incircle(a, b, c, d):
    """Shewchuk's incircle determinant, exactly (Fractions)."""
    m = []
    for p in (a, b, c):
        dx, dy = Fraction(p[0]) - Fraction(d[0]), Fraction(p[1]) - Fraction(d[1])
        m.append((dx, dy, dx * dx + dy * dy))
    return (m[0][0] * (m[1][1] * m[2][2] - m[2][1] * m[1][2])
            - m[0][1] * (m[1][0] * m[2][2] - m[2][0] * m[1][2])
            + m[0][2] * (m[1][0] * m[2][1] - m[2][0] * m[1][1]))


def orient(a, b, c):
    return ((Fraction(b[0]) - Fraction(a[0])) * (Fraction(c[1]) - Fraction(a[1]))
            - (Fraction(b[1]) - Fraction(a[1])) * (Fraction(c[0]) - Fraction(a[0])))


def check(hull, lattice):
    """The degeneracies hold exactly: each side's points on its line, each
    lattice square cocircular."""
    corners = [(X0, Y0), (X1, Y0), (X1, Y1), (X0, Y1)]
    for p in hull:
        assert any(orient(corners[k], corners[(k + 1) % 4], p) == 0
                   for k in range(4)), p
    _, _, step, n = LATTICE
    for j in range(n - 1):
        for i in range(n - 1):
            a = lattice[j * n + i]
            b = lattice[j * n + i + 1]
            c = lattice[(j + 1) * n + i + 1]
            d = lattice[(j + 1) * n + i]
            assert orient(a, b, c) > 0 and incircle(a, b, c, d) == 0
    for p in hull + lattice:
        assert float(Fraction(p[0])) == p[0] and float(Fraction(p[1])) == p[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument('--seed', type=int, default=20261124)
    ap.add_argument('--points', type=int, default=3000,
                    help='terrain points (default 3000)')
    args = ap.parse_args()
    rng = random.Random(args.seed)

    hull, lattice = hull_points(), lattice_points()
    check(hull, lattice)
    rows = [(p, height(*p), 'hull') for p in hull]
    rows += [(p, height(*p), 'lattice') for p in lattice]
    taken = {p for p, _, _ in rows}
    lx, ly, step, n = LATTICE
    terrain = []
    while len(terrain) < args.points:
        # millimetres strictly inside the rectangle, off the lattice pad
        p = (X0 + rng.randint(1, 999999) / 1000.0,
             Y0 + rng.randint(1, 799999) / 1000.0)
        if p in taken or (lx - 1 <= p[0] <= lx + step * (n - 1) + 1 and
                          ly - 1 <= p[1] <= ly + step * (n - 1) + 1):
            continue
        taken.add(p)
        terrain.append(p)
    rows += [(p, height(*p), 'terrain') for p in terrain]
    picks = rng.sample(terrain, N_SAME + N_ZDIFF)
    rows += [(p, height(*p), 'dup-same') for p in picks[:N_SAME]]
    rows += [(p, round(height(*p) + 0.25 + 0.125 * k, 3), 'dup-z')
             for k, p in enumerate(picks[N_SAME:])]

    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, 'survey.gpkg')
    if os.path.exists(path):
        os.remove(path)
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(32634)
    ds = ogr.GetDriverByName('GPKG').CreateDataSource(path)
    lyr = ds.CreateLayer('survey', srs, ogr.wkbPoint25D,
                         options=['SPATIAL_INDEX=NO'])
    lyr.CreateField(ogr.FieldDefn('point_id', ogr.OFTString))
    lyr.CreateField(ogr.FieldDefn('code', ogr.OFTString))
    lyr.StartTransaction()
    for k, ((x, y), z, code) in enumerate(rows):
        f = ogr.Feature(lyr.GetLayerDefn())
        f.SetFID(k + 1)
        f['point_id'] = 'S%05d' % (k + 1)
        f['code'] = code
        g = ogr.Geometry(ogr.wkbPoint25D)
        g.AddPoint(x, y, z)
        f.SetGeometry(g)
        lyr.CreateFeature(f)
    lyr.CommitTransaction()
    ds = None
    distinct = len(rows) - N_SAME - N_ZDIFF
    print('%s: %d points (%d hull, %d lattice, %d terrain, %d dup-same, '
          '%d dup-z): %d distinct (x, y), %d on the hull'
          % (path, len(rows), len(hull), len(lattice), len(terrain), N_SAME,
             N_ZDIFF, distinct, len(hull)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
