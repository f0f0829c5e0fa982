#!/usr/bin/env python3
"""The Python peers of bench_delaunay: Qhull through scipy.spatial.Delaunay
and CuPy's cupyx.scipy.spatial.Delaunay (a GPU port of gDel2D), on the
points of a binary file (n x 2 doubles).  Prints the seconds of the
triangulation (CuPy: the second of two runs, synchronized, so that
compilation is not counted; the points already on the device) and writes
the simplices (int32 x 3, point indices) for bench_delaunay's exact audit.
Prints "unavailable" when the module is missing.  cupy-local runs CuPy on
the points moved by their least x and y, which is how its authors time it
(CuPy fails at UTM magnitudes); the move is exact (Sterbenz: each
coordinate within a factor 2 of the least, checked), so the points are the
same up to a translation, the Delaunay triangulation the same, and the
audit of its indices against the unmoved points valid.

    peers_delaunay.py qhull|cupy|cupy-local POINTS.bin TRIANGLES.bin
"""
import sys
import time

import numpy as np


def main():
    which, src, dst = sys.argv[1:4]
    pts = np.fromfile(src, dtype=np.float64).reshape(-1, 2)
    if which == "qhull":
        try:
            from scipy.spatial import Delaunay
        except ImportError:
            print("unavailable")
            return
        t0 = time.perf_counter()
        tri = Delaunay(pts)
        dt = time.perf_counter() - t0
        simp = tri.simplices
    else:
        try:
            import cupy as cp
            from cupyx.scipy.spatial import Delaunay
        except ImportError:
            print("unavailable")
            return
        if which == "cupy-local":
            mn = pts.min(axis=0)
            if not ((mn > 0).all() and (pts <= 2 * mn).all()):
                print("unavailable")     # the move would round
                return
            pts = pts - mn
        d = cp.asarray(pts)
        Delaunay(d)                      # warm-up: kernels compiled here
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        tri = Delaunay(d)
        simp = tri.simplices
        cp.cuda.Device().synchronize()
        dt = time.perf_counter() - t0
        simp = cp.asnumpy(simp)
    np.ascontiguousarray(simp, dtype=np.int32).tofile(dst)
    print("%.6f" % dt)


if __name__ == "__main__":
    main()
