/*
 * xg_delaunay.h -- the Delaunay triangulation (xg_delaunay) inside
 * libexactgeo: the triangulation as the engines hold it, its conventions,
 * and the pieces every engine shares (the builder, the perturbed
 * in-circle test, the canonical output).
 *
 * Conventions (every engine keeps them; cuda/ included):
 *   - The vertex at infinity XG_DT_GHOST closes the triangulation into a
 *     sphere: each edge of the convex hull has a ghost triangle beyond
 *     it, so every triangle has three neighbours.
 *   - Real triangles turn counter-clockwise.  A ghost triangle (a, b, G)
 *     lies beyond the hull edge b -> a of its real neighbour; a point p
 *     is beyond that edge when orient2d(a, b, p) > 0.
 *   - A point p conflicts with a real triangle (a, b, c) when the
 *     perturbed incircle(a, b, c, p) is positive (xg__dt_incircle), and
 *     with a ghost (a, b, G) when orient2d(a, b, p) > 0, or p lies on the
 *     line ab strictly between a and b (xg__dt_ghost_conflict).  These are
 *     the conflicts of the lifted points, so flipping every edge whose far
 *     triangle conflicts with the near one's opposite vertex ends at the
 *     one triangulation (exactgeo.h, xg_delaunay).
 *   - adj[t][i] = 4 u + j: triangle u lies across the edge of t opposite
 *     its vertex i, and u's vertex j is the one opposite that edge.
 */
#ifndef XG_DELAUNAY_H
#define XG_DELAUNAY_H

#include "exactgeo.h"

#define XG_DT_GHOST UINT32_MAX
/* 2^28 points: 2^29 triangles, adjacency 4 u + j fits in 32 bits. */
#define XG_DT_MAX_POINTS ((size_t)1 << 28)

/* The triangulation of n points being built: triangles (ghosts
 * included) over local vertex numbers 0 .. n-1. */
struct xg__dt {
    size_t ntri, cap;
    uint32_t (*v)[3];
    uint32_t (*adj)[3];
};

/* One triangulation to build: the points pts->xyz[3 g] for g in
 * gid[0 .. n-1] (set indices, in any order). */
struct xg__dt_job {
    const struct xg_set *pts;
    const uint32_t *gid;
    size_t n;
    /* out: the real triangles as set indices, counter-clockwise (caller
     * frees tri with free()), and the merges: merged[k] = 1 when point
     * gid[k] was merged into another with the same (x, y), z_differ[k] =
     * 1 when, besides, its z differs from the kept point's (both arrays
     * of n, caller frees; NULL when the job asks for none: want_merges
     * 0). */
    int want_merges;
    uint32_t (*tri)[3];
    size_t ntri;
    uint8_t *merged, *z_differ;
    /* the triangulation kept for the caller (want_dt): local numbers,
     * local k being set index dt_gid[k], dt_xy its 2 doubles; dt_xy and
     * dt_gid have room for dt_cap points (xg__dt_insert_more grows them) */
    int want_dt;
    size_t dt_n, dt_cap;
    struct xg__dt dt;
    uint32_t *dt_gid;
    double *dt_xy;
    struct xg_counters cnt;
};

/* Builds job's triangulation by incremental insertion with flips (points
 * in biased randomized insertion order along a Hilbert curve, located by
 * a visibility walk; delaunay_build.c, delaunay_order.c,
 * delaunay_insert.c).  XG_EDEGENERATE when fewer than three distinct
 * points or all collinear (no message: the caller words it), XG_ENOMEM. */
int xg__dt_build(struct xg__dt_job *job);
void xg__dt_job_free(struct xg__dt_job *job);

/* Inserts the points more[0 .. nmore-1] (set indices) into the
 * triangulation a want_dt job kept, and rewrites job->tri.  A copy of a
 * vertex's (x, y) is merged by the same rule (not counted: the callers
 * add points they do not own).  XG_OK or XG_ENOMEM. */
int xg__dt_insert_more(struct xg__dt_job *job, const uint32_t *more,
                       size_t nmore);

/* The perturbed in-circle sign of p against the counter-clockwise
 * triangle a, b, c: XG_POS when p conflicts.  Never XG_ZERO for distinct
 * points with a, b, c not collinear (delaunay_insert.c). */
int xg__dt_incircle(struct xg_counters *cnt, const double *a,
                    const double *b, const double *c, const double *p);
/* Whether p conflicts with the ghost (a, b, G). */
int xg__dt_ghost_conflict(struct xg_counters *cnt, const double *a,
                          const double *b, const double *p);

/* LSD radix sort of key[0 .. n-1], with val[] alongside, on the low bits
 * bits of the keys; stable (delaunay_order.c).  XG_OK or XG_ENOMEM. */
int xg__radix_sort64(uint64_t *key, uint32_t *val, size_t n, int bits);

/* Sorts the triangles (set indices, counter-clockwise) into the output
 * order of exactgeo.h: each rotated to start at its smallest index, then
 * ascending.  npts: the size of the index range; on nthreads threads. */
int xg__dt_canonical(uint32_t (*tri)[3], size_t ntri, size_t npts,
                     int nthreads);

/* Every point of gid[0 .. n-1] on the boundary of their convex hull
 * (corners and points along the edges; one per (x, y): the copy that
 * xg_delaunay keeps), as set indices in (x, y) order (delaunay_hull.c).
 * Caller frees *out. */
int xg__dt_hull_points(const struct xg_set *pts, const uint32_t *gid,
                       size_t n, int nthreads, struct xg_counters *cnt,
                       uint32_t **out, size_t *nout);

/* The seq engine (delaunay.c): one build of gid[0 .. n-1], its triangles
 * in canonical order into out; st's counts and stages added to. */
int xg__dt_seq(struct xg_ctx *ctx, const struct xg_set *pts,
               const uint32_t *gid, size_t n, struct xg_triangles *out,
               struct xg_stats *st);

/* The cpu engine (delaunay_strips.c): fills out (canonical) and st.
 * nstrips: the strips to cut (0: about four per thread, none under 4096
 * points; xg_opts.grid[0] passes it). */
int xg__dt_strips(struct xg_ctx *ctx, const struct xg_set *pts,
                  const uint32_t *gid, size_t n, int nthreads, int nstrips,
                  struct xg_triangles *out, struct xg_stats *st);

/* The gpu engine: registered by the CUDA build (cuda/delaunay_gpu.cu),
 * run through xg__engine_tri (xg_engine.h, xg__tri_engine_fn). */

#endif
