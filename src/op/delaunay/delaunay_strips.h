/*
 * delaunay_strips.h -- the cpu engine of xg_delaunay (xg__dt_strips) in
 * its parts: the run (delaunay_strips.c), the cuts and the lists of
 * points made before it (delaunay_strips_plan.c), one strip's task
 * (delaunay_strips_task.c) and the proofs a task's triangles need
 * (delaunay_strips_proof.c).  Private to those four files.
 *
 * The points are cut into vertical strips at x quantiles.  A strip's
 * task triangulates its own points and those of a margin on each side
 * (the builder of delaunay_build.c).  A local triangle is a triangle of
 * the whole triangulation when no point the task did not see can be in
 * its closed circle (for a ghost, beyond or on its hull edge): the unseen
 * points lie in two boxes, [xmin, lo] x [ymin, ymax] and [hi, xmax] x
 * [ymin, ymax], and an interval bound of the circle that clears both
 * boxes proves it (a doubt only costs a retry).  When every local
 * triangle at a vertex of the strip's own points is proven, those
 * vertices' stars are the whole triangulation's, so the strip writes the
 * triangles whose smallest set index is one of its points: each triangle
 * of the whole once.  Otherwise the task retries with margins twice as
 * wide, up to the whole set.  The triangulation being unique, the result
 * is the seq engine's whatever the strips, threads or timing.
 */
#ifndef XG_DELAUNAY_STRIPS_H
#define XG_DELAUNAY_STRIPS_H

#include <math.h>
#include <stdatomic.h>
#include "xg_delaunay.h"
#include "xg_interval.h"

/* One run of the cpu engine: the plan, the strips' results, and the grid
 * of all points for the slow proof.  Owned by xg__dt_strips, which frees
 * every array (strips_free). */
struct xg__strips {
    const struct xg_set *pts;
    size_t n, nstrip;
    double *edge;           /* nstrip + 1 x boundaries, edge[0] = xmin */
    uint32_t *start;        /* nstrip + 1: the strip's points are */
    uint32_t *item;         /* item[start[s] .. start[s+1]-1] */
    double box[4];          /* xmin, ymin, xmax, ymax of all points */
    double margin;          /* first margins, in strips */
    int nthreads;
    /* results per strip */
    uint32_t (**tri)[3];
    size_t *ntri;
    uint64_t *merged, *z_differ, *built, *retried, *slow, *added;
    struct xg_counters *cnt; /* per thread */
    struct xg__dt_job *job;  /* per strip: its triangulation, between */
    uint32_t **gid;          /* the phases, and the points it took     */
    double *f;               /* per strip: its margins, in strips      */
    uint32_t *hull;          /* every point on the hull's boundary, by x */
    size_t nhull;
    /* a grid of all points for the slow proof: nx x ny cells over box,
     * cell (i, j) = i ny + j holding citem[cstart[.] .. cstart[. + 1]-1] */
    size_t nx, ny;
    double inv_cw, inv_ch;
    uint32_t *cstart, *citem;
    int *rc;
    size_t *at;              /* per strip: where its list goes in out */
    uint32_t (*out)[3];
    atomic_size_t next;     /* the next strip to take */
    atomic_int failed;
    atomic_int whole;       /* a strip's margins reached the whole set */
    struct xg_ctx *ctx;     /* the run's: its progress, told by the
                               worker of tid 0 (the caller's thread) as
                               it takes a strip                       */
    atomic_int cancel;      /* the progress callback said stop        */
};

/* Points a strip took in after its build: sorted set indices (the task
 * owns v, freed with free()). */
struct xg__strips_added {
    uint32_t *v;
    size_t n, cap;
};

/* The x of set index g. */
static inline double xg__strips_x(const struct xg__strips *S, uint32_t g)
{
    return S->pts->xyz[3 * (size_t)g];
}

/* The x at strip coordinate s (strip k spans k .. k+1): -inf before the
 * first strip, +inf past the last. */
static inline double xg__strips_at(const struct xg__strips *S, double s)
{
    size_t k;
    if (s <= 0)
        return -INFINITY;
    if (s >= (double)S->nstrip)
        return INFINITY;
    k = (size_t)s;
    return S->edge[k] + (s - (double)k) * (S->edge[k + 1] - S->edge[k]);
}

/* The grid column of x, clamped to 0 .. nx-1; monotone in x. */
static inline size_t xg__strips_cell_x(const struct xg__strips *S, double x)
{
    double f = (x - S->box[0]) * S->inv_cw;
    size_t c = f > 0 ? (size_t)f : 0;
    return c < S->nx ? c : S->nx - 1;
}

/* The grid row of y, clamped to 0 .. ny-1; monotone in y. */
static inline size_t xg__strips_cell_y(const struct xg__strips *S, double y)
{
    double f = (y - S->box[1]) * S->inv_ch;
    size_t c = f > 0 ? (size_t)f : 0;
    return c < S->ny ? c : S->ny - 1;
}

/* The grid cell of set index g. */
static inline size_t xg__strips_cell_of(const struct xg__strips *S,
                                        uint32_t g)
{
    const double *p = S->pts->xyz + 3 * (size_t)g;
    return xg__strips_cell_x(S, p[0]) * S->ny + xg__strips_cell_y(S, p[1]);
}

/* The plan (delaunay_strips_plan.c): S->pts, n and nthreads set, the rest
 * zero.  Finds the box, cuts nstrips strips (0: about four per thread,
 * none under 4096 points) at x quantiles, sets the first margins,
 * allocates the per-strip arrays and lists each strip's points, in the
 * order of gid on any threads.  XG_OK or XG_ENOMEM (S's arrays for
 * strips_free). */
int xg__strips_plan(struct xg__strips *S, const uint32_t *gid, int nstrips);

/* The grid of all points gid[0 .. n-1] for the slow proof, about two a
 * cell, each cell's points ascending (delaunay_strips_plan.c).  XG_OK or
 * XG_ENOMEM (S->cstart, citem for strips_free). */
int xg__strips_grid(struct xg__strips *S, const uint32_t *gid);

/* The strips' worker (delaunay_strips_task.c): takes strips until none is
 * left, each built, proven and kept, or rebuilt with margins twice as
 * wide; a failure goes to S->rc[s] and S->failed, a strip that would
 * need the whole set to S->whole. */
void xg__strips_worker(void *arg, int tid);

/* Appends g to v.  XG_OK or XG_ENOMEM. */
int xg__strips_push(struct xg__strips_added *v, uint32_t g);

/* The proofs (delaunay_strips_proof.c), seen from a strip whose task saw
 * the points with x in [lo, hi) and those in ad: ghost_clear 1 when no
 * unseen point can conflict with the ghost (a, b, G); ghost_conflicts and
 * grid_conflicts push the unseen points in conflict with a ghost or with
 * the real triangle a, b, c (its circle enclosed by ccx, ccy, r_up) that
 * the task should take in to more, the latter counting in *doubted the
 * incircles its filter doubted.  XG_OK or XG_ENOMEM. */
int xg__strips_ghost_clear(const struct xg__strips *S,
                           struct xg_counters *cnt, const double *a,
                           const double *b, double lo, double hi,
                           int need_left, int need_right);
int xg__strips_ghost_conflicts(const struct xg__strips *S,
                               struct xg_counters *cnt, const double *a,
                               const double *b, double lo, double hi,
                               const struct xg__strips_added *ad,
                               struct xg__strips_added *more);
int xg__strips_grid_conflicts(const struct xg__strips *S,
                              struct xg_counters *cnt, const double *a,
                              const double *b, const double *c,
                              struct xg_iv ccx, struct xg_iv ccy,
                              double r_up, double lo, double hi,
                              const struct xg__strips_added *ad,
                              struct xg__strips_added *more,
                              size_t *doubted);

#endif
