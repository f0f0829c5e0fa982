#!/usr/bin/python3
"""make_wireframe.py -- tests/cases/wireframe.dxf (issue 31, item 8): ore
lenses as a mining package exports them, a DXF wireframe of 3DFACE
entities, one triangle per entity, the solid named only by the entity's layer (LENS_N: one lens;
LENS_S: two pods, one solid of two closed parts).  Each lens is a
bipyramid: two apexes and a ring of vertices rounded to 1/4 m, at UTM
magnitudes, so that every coordinate is exact in binary and in the text.

  make_wireframe.py            the DXF (what tests/cases/wireframe.dxf is)
  make_wireframe.py --wkt      the same solids as features: CSV name,WKT,
                               one TIN Z per layer, triangles in DXF order
  make_wireframe.py --points   CSV x,y,z of probe points: a grid over the
                               lenses, every vertex, every edge's midpoint
  make_wireframe.py --holes    CSV id,WKT of drill holes: down each lens's
                               axis (through both apexes), down a ring
                               vertex, and across it
Plain Python 3, no GDAL."""
import math
import sys

X, Y = 500000.0, 7000000.0


def q(v):
    """v rounded to a multiple of 1/4 (exact in binary and in decimal)."""
    return round(v * 4) / 4


LENSES = []


def lens(cx, cy, r, ztop, zmid, zbot, n):
    """The 2n triangles of a bipyramid, turned outwards."""
    ring = [(q(X + cx + r * math.cos(2 * math.pi * k / n)),
             q(Y + cy + r * math.sin(2 * math.pi * k / n)), zmid)
            for k in range(n)]
    top, bot = (X + cx, Y + cy, ztop), (X + cx, Y + cy, zbot)
    LENSES.append((top, ring[0]))
    tris = []
    for k in range(n):
        a, b = ring[k], ring[(k + 1) % n]
        tris.append((a, b, top))
        tris.append((b, a, bot))
    return tris


SOLIDS = [
    ("LENS_N", lens(100, 200, 40, 262.5, 240, 221.25, 12)),
    ("LENS_S", lens(150, 100, 20, 250, 235, 222.5, 8) +
               lens(215, 120, 25, 245.5, 232.75, 215, 8)),
]


def num(v):
    return repr(v)


def dxf(out):
    w = lambda code, value: out.write("%3d\n%s\n" % (code, value))
    w(0, "SECTION"); w(2, "HEADER"); w(9, "$ACADVER"); w(1, "AC1009")
    w(9, "$INSUNITS"); w(70, 6); w(0, "ENDSEC")
    w(0, "SECTION"); w(2, "TABLES"); w(0, "TABLE"); w(2, "LAYER")
    w(70, len(SOLIDS) + 1)
    for name in ["0"] + [s[0] for s in SOLIDS]:
        w(0, "LAYER"); w(2, name); w(70, 0); w(62, 7); w(6, "CONTINUOUS")
    w(0, "ENDTAB"); w(0, "ENDSEC")
    w(0, "SECTION"); w(2, "ENTITIES")
    for name, tris in SOLIDS:
        for t in tris:
            w(0, "3DFACE"); w(8, name)
            for k, p in enumerate(t + (t[2],)):       # 4th corner = 3rd
                w(10 + k, num(p[0])); w(20 + k, num(p[1]))
                w(30 + k, num(p[2]))
    w(0, "ENDSEC"); w(0, "EOF")


def wkt(out):
    out.write("name,WKT\n")
    for name, tris in SOLIDS:
        parts = ["((%s))" % ",".join("%s %s %s" % tuple(map(num, p))
                                     for p in t + (t[0],)) for t in tris]
        out.write('%s,"TIN Z (%s)"\n' % (name, ",".join(parts)))


def points(out):
    out.write("x,y,z\n")
    seen = set()
    for i in range(0, 61):
        for j in range(0, 61):
            for k in range(0, 11):
                seen.add((X + 50 + 3.75 * i, Y + 50 + 3.75 * j,
                          212.5 + 5 * k))
    for name, tris in SOLIDS:
        for t in tris:
            for a in range(3):
                p, r = t[a], t[(a + 1) % 3]
                seen.add(p)
                seen.add(tuple((u + v) / 2 for u, v in zip(p, r)))
    for p in sorted(seen):
        out.write("%s,%s,%s\n" % tuple(map(num, p)))


def holes(out):
    out.write("id,WKT\n")
    k = 0
    for top, v in LENSES:
        x, y = top[0], top[1]
        for a, b in [((x, y, 280.0), (x, y, 200.0)),
                     ((v[0], v[1], 280.0), (v[0], v[1], 200.0)),
                     ((x - 50, y - 3, 200.0), (x + 50, y + 7, 270.0))]:
            k += 1
            out.write('%d,"LINESTRING Z (%s %s %s,%s %s %s)"\n'
                      % ((k,) + tuple(map(num, a + b))))


{"--wkt": wkt, "--points": points, "--holes": holes}.get(sys.argv[1] if len(sys.argv) > 1
                                       else "", dxf)(sys.stdout)
