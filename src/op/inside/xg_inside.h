/*
 * xg_inside.h -- point-in-solid (xg_inside) inside libexactgeo: the
 * solids as the engines see them, shared by the CPU engines (inside.c,
 * inside_cpu.c), the GPU launchers (cuda/inside_gpu.c) and the GPU
 * engine's host part (cuda/host/inside_finish.c).
 */
#ifndef XG_INSIDE_H
#define XG_INSIDE_H

#include "exactgeo.h"
#include "xg_boxes.h"
#include "xg_grid.h"
#include "xg_interval.h"
#include "xg_filter_ray.h"
#include <string.h>

/* The solids of a triangle set B, ready for the engines.  The kept
 * triangles (collinear ones dropped) are renumbered by (solid, index in
 * B), so that a column lists each solid's triangles together and the
 * solids in ascending order, which is the output's order.  Solids are
 * numbered by their first triangle in B. */
struct xg__solids {
    size_t nsolid;
    uint32_t *first;      /* per solid: its first triangle in B (the
                             records' b)                              */
    uint32_t *tri_start;  /* per solid: its kept triangles are
                             tri_start[s] .. tri_start[s+1]-1         */
    size_t ntri;          /* kept triangles                           */
    double *tri;          /* 9 doubles per kept triangle              */
    uint32_t *solid;      /* per kept triangle: its solid             */
    int8_t *turn;         /* per kept triangle: orient2d(A, B, C) in
                             (x, y), exact (0: vertical)              */
    /* The columns: a grid of nx x ny x 1 cells over the kept triangles'
     * boxes (g.b_box, 6 doubles each; g.b_start, g.b_items the CSR).  No
     * A side: a point finds its column with xg__inside_column. */
    struct xg_grid g;
    /* Each column's triangles in runs, one per solid it lists, in
     * ascending solid order: the runs of column c are
     * run[run_start[c] .. run_start[c+1]-1]; a run's triangles are
     * g.b_items[start .. end-1], highest box top first, and their box
     * tops are top[start .. end-1] (beside the items, so that the walk
     * stops without reading a box). */
    uint32_t *run_start;  /* g.ncell + 1                              */
    struct xg__run *run;
    size_t nrun;
    double *top;          /* per item of g.b_items                    */
    /* The solids' T-junctions, for xg__solids_crossing: the middles of
     * their collinear triangles (xg__tri_middle), solid s's
     * junc[3 k ..] for k in junc_start[s] .. junc_start[s+1]-1; both
     * NULL when no solid has one. */
    double *junc;
    uint32_t *junc_start;
};

/* The triangles of one solid that one column lists, and the z range of
 * their boxes. */
struct xg__run {
    double zlo, zhi;          /* lowest box bottom, highest box top */
    uint32_t solid, start, end, pad;
};

/* B's triangles grouped into solids by fid: order (b->n entries, the
 * caller's) gets them solid by solid, the solids in the order of their
 * first triangle in B and each one's triangles ascending; *start (nsolid
 * + 1 bounds into order; caller frees) the solids' ranges.  b->n > 0.
 * XG_OK or XG_ENOMEM. */
int xg__solids_group(const struct xg_set *b, uint32_t *order,
                     uint32_t **start, size_t *nsolid);
/* xg__solids_prepare's check alone: every solid of B closed, else
 * XG_EFORMAT with the same message, naming the first open solid. */
int xg__solids_closed(struct xg_ctx *ctx, const struct xg_set *b,
                      int nthreads);

/* Groups B into solids, checks that each is closed (XG_EFORMAT naming
 * the first open one's fid) when check, drops and counts collinear
 * triangles, then when check and not opt->solids_checked checks that no
 * solid crosses itself (xg__solids_crossing), and builds the columns
 * (opt->grid[0..1], else the default).  Without the checks the columns
 * of open or crossing surfaces answer nothing meaningful: the caller
 * makes them (xg__solids_closed, xg__solids_crossing) before it trusts
 * an answer (the gpu engine, while the solids go up).  Fills st's
 * b_skipped, grid, grid_refs_b and adds the checks' predicates to
 * st->cnt.  Caller frees S with xg__solids_free, also on error. */
int xg__solids_prepare(struct xg_ctx *ctx, const struct xg_set *b,
                       const struct xg_opts *opt, int nthreads, int check,
                       struct xg__solids *S, struct xg_stats *st);
/* xg__solids_prepare's second check alone, on the solids it made of B:
 * no solid's surface crosses itself (xg__selfx_find), else XG_EFORMAT
 * naming the first such solid in S's order by its fid, and its lowest
 * crossing pair of triangles by their index in the feature (b->sub).
 * box: the kept triangles' boxes (S->g.b_box once the columns are
 * built), or NULL to make them.  On nthreads threads; predicates added
 * to cnt. */
int xg__solids_crossing(struct xg_ctx *ctx, const struct xg_set *b,
                        const struct xg__solids *S, const double *box,
                        int nthreads, struct xg_counters *cnt);
/* Both checks of the whole of B, in xg__solids_prepare's order and with
 * its messages: the recheck of a partitioned run whose region failed,
 * so that the message is the whole run's. */
int xg__solids_valid(struct xg_ctx *ctx, const struct xg_set *b,
                     int nthreads);
void xg__solids_free(struct xg__solids *S);

/* The column of point p, or -1 when p is outside the columns' region
 * (in x, y or z): then it is in no solid. */
XG_HD int64_t xg__inside_column(const int *n, const double *lo,
                                const double *hi, const double *inv,
                                const double *p)
{
    int k;
    for (k = 0; k < 3; k++)
        if (!(p[k] >= lo[k] && p[k] <= hi[k]))
            return -1;
    return (int64_t)xg__cell_index(n, xg__cell_of(n, lo, inv, 0, p[0]),
                                   xg__cell_of(n, lo, inv, 1, p[1]), 0);
}

/* The column of point p in S's columns, or -1: p in no solid (also when
 * S has no triangles). */
static inline int64_t xg__inside_point_column(const struct xg__solids *S,
                                              const double *p)
{
    const struct xg_grid *g = &S->g;
    return S->ntri ? xg__inside_column(g->n, g->lo, g->hi, g->inv, p) : -1;
}

/* Kept triangle t of S's arrays (tri: 9 doubles, box: its box, turn: its
 * turn) against point p, as every column walk does it: XG_RAY_MISS
 * without a test when the box cannot hold p's ray (*tested = 0), else
 * the filter's answer (*tested = 1), told that p is below the whole
 * triangle when it is below its box. */
XG_HD int xg__inside_test(const double *p, const double *tri,
                          const double *box, int turn, int *tested)
{
    *tested = xg__ray_box_holds(p, box);
    return *tested ? xg_ray_tri_fast(p, tri, turn, p[2] < box[2])
                   : XG_RAY_MISS;
}

/* A point's walk through one run: the next triangle j (of end), the
 * parity of the crossings so far, and whether the point lies on one. */
struct xg__walk {
    uint32_t j, end;
    int parity, on;
};

/* Starts p's walk through run R: 0, with no test, when p is outside R's
 * solid for certain, else 1.  Outside for certain: p above every box of
 * the run (its ray meets none of them), or strictly below every one.
 * The triangles the vertical line through p (shifted as the ray is)
 * can cross all have a box holding p in x and y, so the column lists
 * them; the solid being closed, the line crosses its surface an even
 * number of times, and from below all of them the ray crosses them all,
 * on none of them. */
XG_HD int xg__walk_start(const double *p, const struct xg__run *R,
                         struct xg__walk *w)
{
    w->j = R->start;
    w->end = R->end;
    w->parity = w->on = 0;
    return p[2] <= R->zhi && p[2] >= R->zlo;
}

/* One answer of the filter or the exact stage (XG_RAY_*) into w. */
XG_HD void xg__walk_step(struct xg__walk *w, int r)
{
    w->on |= r == XG_RAY_ON;
    w->parity ^= r == XG_RAY_CROSS;
}

/* Goes on with p's walk from w->j: XG_RAY_DEFER with w->j at a triangle
 * the filter doubts (not yet stepped), else XG_RAY_MISS when the walk is
 * over: the end, the point found on a triangle, or a box top below p
 * (the rest are lower still).  *tested += the triangles filtered. */
XG_HD int xg__walk_on(const double *p, const uint32_t *items,
                      const double *top, const double *tri,
                      const double *box, const int8_t *turn,
                      struct xg__walk *w, unsigned *tested)
{
    for (; w->j < w->end && !w->on; w->j++) {
        uint32_t t;
        int r, held;
        if (p[2] > top[w->j])
            break;
        t = items[w->j];
        r = xg__inside_test(p, tri + 9 * (size_t)t, box + 6 * (size_t)t,
                            turn[t], &held);
        *tested += (unsigned)held;
        if (r == XG_RAY_DEFER)
            return XG_RAY_DEFER;
        xg__walk_step(w, r);
    }
    return XG_RAY_MISS;
}

/* The kind a finished walk gives: XG_KIND_BOUNDARY, _INSIDE, _OUTSIDE. */
XG_HD int xg__walk_kind(const struct xg__walk *w)
{
    return w->on ? XG_KIND_BOUNDARY
                 : w->parity ? XG_KIND_INSIDE : XG_KIND_OUTSIDE;
}

/* *open = the open edges of the n triangles idx[0..n-1] of xyz (9
 * doubles each; idx NULL: triangles 0..n-1): the edges of their indexed
 * mesh (xg_mesh.h), built in m (the caller's, zeroed or reused from a
 * previous build; freed with xg__mesh_free), used an odd number of
 * times.  XG_OK or XG_ENOMEM. */
struct xg__mesh;
int xg__open_edges(struct xg__mesh *m, const double *xyz,
                   const uint32_t *idx, size_t n, uint64_t *open);

/* The exact stage of xg_ray_tri_fast: XG_RAY_MISS, _CROSS or _ON. */
int xg__ray_tri_exact(struct xg_counters *cnt, const double *p,
                      const double *tri);
/* Non-zero when p lies on the closed, non-collinear triangle (exact). */
int xg__point_on_tri(struct xg_counters *cnt, const double *p,
                     const double *tri);
/* The seed's test, exactly: non-zero when p + (e, e^2, e^3) lies in the
 * tetrahedron of the origin and the triangle (a flat one holds nothing).
 * d = orient3d(A, B, C, p), which the caller has computed. */
int xg__origin_tet_holds(struct xg_counters *cnt, const double *p,
                         const double *tri, int d);

/* One point against one solid's kept triangles t0..t1-1 by the seed's
 * method (seq): XG_KIND_INSIDE, _BOUNDARY or _OUTSIDE. */
int xg__inside_seq_point(struct xg_counters *cnt, const double *p,
                         const double *tri, size_t t0, size_t t1);

/* The cpu engine (inside_cpu.c): all points against the columns. */
int xg__inside_cpu(struct xg_ctx *ctx, const struct xg_set *a,
                   const struct xg__solids *S, const struct xg_opts *opt,
                   int nthreads, struct xg_contacts *out,
                   struct xg_stats *st);

/* One point against its column's triangles, as the cpu engine does it,
 * for the records of solids lo .. hi-1 only (all: 0, SIZE_MAX): calls
 * emit(user, solid, kind) for each solid holding it, in ascending order.
 * The GPU engines' host side uses it for points the device deferred.
 * Adds to *pairs (looked at), *boxed (box holds the ray), *deferred. */
struct xg__inside_tally {
    uint64_t pairs, boxed, deferred;
};
int xg__inside_column_point(struct xg_counters *cnt,
                            const struct xg__solids *S, const double *p,
                            size_t lo, size_t hi,
                            int (*emit)(void *user, uint32_t solid,
                                        int kind),
                            void *user, struct xg__inside_tally *tally);
/* Its second half, for p in column c (xg__inside_point_column). */
int xg__inside_runs(struct xg_counters *cnt, const struct xg__solids *S,
                    const double *p, size_t c, size_t lo, size_t hi,
                    int (*emit)(void *user, uint32_t solid, int kind),
                    void *user, struct xg__inside_tally *tally);

/* xg__pair_begin's check of the points (is_a) or the triangles: the gpu
 * engine makes it itself (inside_ops' gpu_checks_finite), the points'
 * while it uploads them. */
int xg__inside_check_finite(struct xg_ctx *ctx, const struct xg_set *s,
                            int is_a);

/* The GPU engines' methods (xg__engine_knobs.method; the run:
 * cuda/inside_gpu.c, registered in xg_engine.h's list): XG__IN_SEED the
 * seed's (each thread a few points against every triangle, benchmark
 * only), XG__IN_GPU ours (columns). */
#define XG__IN_SEED 1
#define XG__IN_GPU  2

/* A GPU hit of the inside engines: one 64-bit key, point << 32 |
 * solid << 2 | code, so that sorting the keys sorts the hits by (point,
 * solid), and the host reads 8 bytes per hit rather than a struct
 * xg_gpu_hit's 40 (the answer carries no constructed point).  code:
 * XG__IN_DEFER where a filter doubted, for the host to decide; else the
 * kind, XG_KIND_INSIDE .. XG_KIND_OUTSIDE as 1 .. 3 (outside only once
 * the host has decided a deferred hit).  Solids: fewer than
 * XG__IN_MAX_SOLIDS. */
#define XG__IN_DEFER 0
#define XG__IN_MAX_SOLIDS ((uint32_t)1 << 30)
XG_HD uint64_t xg__inside_key(uint32_t a, uint32_t solid, int kind,
                              int doubt)
{
    return (uint64_t)a << 32 | (uint64_t)solid << 2 |
           (uint64_t)(doubt ? XG__IN_DEFER : kind - XG_KIND_INSIDE + 1);
}
XG_HD uint32_t xg__inside_key_point(uint64_t k) { return (uint32_t)(k >> 32); }
XG_HD uint32_t xg__inside_key_solid(uint64_t k)
{
    return (uint32_t)(k >> 2) & (XG__IN_MAX_SOLIDS - 1);
}
/* The key's kind; -1 while deferred. */
XG_HD int xg__inside_key_kind(uint64_t k)
{
    return (k & 3) == XG__IN_DEFER ? -1 : XG_KIND_INSIDE - 1 + (int)(k & 3);
}

/* One record of point a (at p) in solid b (UINT32_MAX: none), of kind
 * (xg_inside's contract): every engine's records are made here. */
static inline struct xg_contact xg__inside_contact(uint32_t a,
                                                   const double *p,
                                                   uint32_t b, int kind)
{
    struct xg_contact c;
    memset(&c, 0, sizeof c);
    c.a = a;
    c.b = b;
    c.kind = kind;
    memcpy(c.p, p, sizeof c.p);
    return c;
}

/* That record appended to out. */
int xg__inside_record(struct xg_contacts *out, uint32_t a, const double *p,
                      uint32_t b, int kind);

#endif
