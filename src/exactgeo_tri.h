/*
 * exactgeo_tri.h -- triangles made from points: the Delaunay
 * triangulation of a point set, its check, and the triangulation of
 * planar polygons.
 * Part of the public API: exactgeo.h includes it, and a program
 * includes exactgeo.h (names, visibility and C linkage come from there).
 */
#ifndef EXACTGEO_TRI_H
#define EXACTGEO_TRI_H

#ifndef EXACTGEO_H
#error "include exactgeo.h, which includes exactgeo_tri.h"
#endif

/* ------------------------------------------------------------------ */
/* Delaunay triangulation (2D): the x, y of a point set. */

/* Triangles as indices into the input point set, each counter-clockwise
 * in (x, y) with v[0] its smallest index, the list in ascending
 * (v[0], v[1], v[2]) order. */
struct xg_triangles {
    size_t n, cap;
    uint32_t (*v)[3];
};

/* Frees t's triangles and leaves t empty; NULL is a no-op. */
void xg_triangles_free(struct xg_triangles *t);

/* The Delaunay triangulation of the distinct (x, y) of the points of pts
 * (z is ignored), decided with exact predicates.  Points with the same
 * (x, y) are one vertex: the one with the lowest fid (then the lowest
 * index) is used, the others counted in st->a_skipped, and in
 * st->z_differ those whose z differs from the kept point's.  Where four
 * or more points are cocircular, the triangles are those of the lifted
 * points (x, y, x^2 + y^2 + eps^k) for infinitesimal eps, where k is a
 * point's rank in descending lexicographic (x, y) order: the largest
 * point moves first (docs/semantics.md).  The result is therefore unique:
 * every engine and thread count gives the same list.  Fewer than three
 * distinct points, or all of them collinear: XG_EDEGENERATE, detail in
 * ctx.  More than 2^28 points: XG_ELIMIT.  Engines: seq, incremental
 * insertion with flips in one thread; cpu, strips triangulated on the
 * threads, each triangle kept by the strip that owns it once its circle
 * is certified clear of every point the strip did not see; gpu, parallel
 * insertion and flipping.  out is reset first; the caller frees it with
 * xg_triangles_free().  st (may be NULL): a_count the points, candidates
 * the triangulations built (cpu: strips, counting retries), bbox_pairs
 * the triangles built in them, deferred the triangles whose circle
 * needed another pass, cnt the predicates. */
int xg_delaunay(struct xg_ctx *ctx, const struct xg_set *pts,
                const struct xg_opts *opt, struct xg_triangles *out,
                struct xg_stats *st);

/* What xg_delaunay_check found.  A triangulation is valid and Delaunay
 * when every count but the first three is zero. */
struct xg_delaunay_report {
    uint64_t points;        /* distinct (x, y) among the input points   */
    uint64_t triangles;
    uint64_t hull_vertices; /* points on the convex hull's boundary     */
    uint64_t bad_index;     /* a vertex index past the set, or repeated */
    uint64_t not_ccw;       /* triangles not strictly counter-clockwise */
    uint64_t bad_edges;     /* edges used other than once each way, or
                               boundary edges not on the convex hull    */
    uint64_t missing;       /* distinct points that are no vertex, or
                               vertices that repeat another's (x, y)    */
    uint64_t count_off;     /* |triangles - (2 points - hull - 2)|: the
                               triangles do not tile the hull once      */
    uint64_t not_delaunay;  /* interior edges whose opposite vertex lies
                               strictly inside the other's circle       */
    uint64_t not_canonical; /* cocircular edges decided against the
                               symbolic rule (valid, but not the one
                               triangulation exactgeo writes)           */
};

/* Checks triangles t (vertex indices into pts, in any order and
 * rotation) with exact predicates: every triangle counter-clockwise,
 * every edge shared by two triangles in opposite directions or on the
 * convex hull, the boundary exactly the hull (collinear hull points
 * included), every distinct point a vertex, the Euler count, and every
 * interior edge locally Delaunay; together these say the triangles tile
 * the hull once and form a Delaunay triangulation.  Returns XG_OK (the
 * findings are in rep) or XG_ENOMEM / XG_EINVAL. */
int xg_delaunay_check(struct xg_ctx *ctx, const struct xg_set *pts,
                      const uint32_t (*t)[3], size_t nt,
                      struct xg_delaunay_report *rep);

/* ------------------------------------------------------------------ */
/* Triangulation of planar polygons (for B layers with polygons of more
 * than three vertices).  xyz holds the vertices of all rings, 3 doubles
 * each, ring r being vertices ring_start[r] .. ring_start[r+1]-1 (ring 0
 * the outer ring, the rest holes; the closing vertex not repeated).
 * Uses only input vertices, so every triangle lies exactly in the
 * polygon's plane.  On XG_OK, *tri holds 3 * *ntri vertex indices into
 * xyz (caller frees with free()).  Returns XG_ENONPLANAR when the
 * vertices are not exactly coplanar, XG_EDEGENERATE when all are
 * collinear or the polygon is not valid in the OGC sense, XG_ENOMEM.
 * Details: ring_start holds nrings + 1 offsets; repeated consecutive
 * vertices are dropped (the first copy is used); collinear vertices are
 * kept without any zero-area triangle; triangles turn like the outer ring
 * as given.  Rings may touch each other at isolated points (a vertex of
 * both, or a vertex of one inside an edge of the other, where that
 * vertex's index is used for both) as long as the interior stays
 * connected; *ntri = n + s - 2 + 2 * (h - t) for n kept vertices, h holes,
 * s points where a vertex lies inside another ring's edge, and t the sum
 * over touch points of (rings there - 1); without touches n - 2 + 2 * h.
 * A ring touching or crossing itself, rings that cross or share a stretch,
 * holes outside the outer ring or inside another hole, and touches that
 * disconnect the interior (a hole touching the outer ring twice...) give
 * XG_EDEGENERATE; NULL pointers, no rings or a non-finite coordinate give
 * XG_EINVAL, more than 2^32 - 1 vertices XG_ELIMIT.
 * On error *tri is NULL and *ntri 0.  cnt may be NULL. */
int xg_triangulate(struct xg_counters *cnt, const double *xyz,
                   const size_t *ring_start, size_t nrings, uint32_t **tri,
                   size_t *ntri);

#endif /* EXACTGEO_TRI_H */
