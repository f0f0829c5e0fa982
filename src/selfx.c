/*
 * selfx.c -- where a triangulated surface crosses itself: two of its
 * triangles that meet other than along what they share as a mesh
 * (docs/semantics.md, "inside": "A surface that crosses itself").
 *
 * One pair is decided exactly (selfx_pair.c; again at the surface's
 * T-junctions, selfx_junction.c); which pairs are looked at is the
 * engines' broad phase: a uniform grid over the triangles' boxes
 * (grid.c), each pair whose boxes meet looked at once, in the cell that
 * owns it (xg_boxes.h), the cells taken in turn by the worker threads.  A surface's answer is its lowest crossing
 * pair, the same on every thread count and timing.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "xg_csr.h"
#include "xg_selfx.h"
#include "xg_thread.h"
#include "xg_ctx.h"
#include "op/segtri/xg_segtri.h"
#include "xg_grid.h"
#include "xg_mem.h"
#include "xg_boxes.h"

/* Cells a thread takes at once from the shared cursor. */
#define CHUNK 64
/* Fewer triangles than this: one thread (starting others costs more). */
#define ONE_THREAD 4096

/* A junction a thread found (flat_check): its surface and point. */
struct junction {
    uint32_t surf;
    double p[3];
};

struct selfx_job {
    const double *tri;
    const uint32_t *surf;
    size_t ntri, nsurf;
    int flat_check, nthreads, phase;    /* 0: boxes; 1: pairs */
    int given;                  /* box is the caller's: phase 0 takes the
                                   hulls alone */
    double *box;                /* the triangles' boxes */
    double *hull;               /* per thread: 6 doubles */
    struct junction **found;    /* per thread (flat_check): junctions */
    size_t *nfound, *capfound;
    const double *junc;         /* the surfaces' junctions, 3 doubles */
    const uint32_t *junc_start; /* nsurf + 1; NULL: none */
    double all[6];              /* the grid's one A box: everything */
    struct xg_grid g;
    atomic_size_t next;         /* the next chunk of cells */
    _Atomic uint64_t *best;     /* per surface: its lowest crossing key */
    struct xg_counters *cnt;    /* per thread */
    int *nomem;                 /* per thread */
};

/* Phase 0 on this thread's share: each triangle's box and the share's
 * hull; with flat_check, the collinear ones marked none and their
 * middles noted as junctions.  The caller's boxes (given): the hull
 * alone. */
static void boxes(struct selfx_job *J, int tid)
{
    size_t lo, hi, i;
    double *h = J->hull + 6 * tid;
    int k;
    for (k = 0; k < 3; k++) {
        h[k] = HUGE_VAL;
        h[3 + k] = -HUGE_VAL;
    }
    xg__share(J->ntri, J->nthreads, tid, &lo, &hi);
    for (i = lo; i < hi; i++) {
        double *b = J->box + 6 * i;
        const double *t = J->tri + 9 * i;
        if (J->given) {
            if (!xg__box_is_none(b))
                xg__hull_add(h, b);
            continue;
        }
        if (J->flat_check && xg__tri_is_degenerate(&J->cnt[tid], t)) {
            const double *m = xg__tri_middle(t);
            xg__box_none(b);
            if (m) {
                size_t *n = &J->nfound[tid];
                if (*n == J->capfound[tid] &&
                    xg__grow((void **)&J->found[tid], &J->capfound[tid], *n,
                             sizeof **J->found)) {
                    J->nomem[tid] = 1;
                    return;
                }
                J->found[tid][*n].surf = J->surf ? J->surf[i] : 0;
                memcpy(J->found[tid][*n].p, m, sizeof J->found[tid]->p);
                (*n)++;
            }
            continue;
        }
        xg__tri_box(t, b);
        xg__hull_add(h, b);
    }
}

/* key < *best, atomically, for the least key offered. */
static void lower(_Atomic uint64_t *best, uint64_t key)
{
    uint64_t cur = atomic_load_explicit(best, memory_order_relaxed);
    while (key < cur && !atomic_compare_exchange_weak_explicit(
                            best, &cur, key, memory_order_relaxed,
                            memory_order_relaxed))
        ;
}

/* Whether triangles i and j of surface s cross: the pair test, then,
 * where the surface has junctions, the pieces'. */
static int cross(const struct selfx_job *J, uint32_t s, uint32_t i,
                 uint32_t j, struct xg_counters *cnt)
{
    const double *t = J->tri + 9 * (size_t)i, *u = J->tri + 9 * (size_t)j;
    if (!xg__tri_pair_cross(cnt, t, u))
        return 0;
    if (!J->junc_start || J->junc_start[s] == J->junc_start[s + 1])
        return 1;
    return xg__junction_cross(cnt, t, u,
                              J->junc + 3 * (size_t)J->junc_start[s],
                              J->junc_start[s + 1] - J->junc_start[s]);
}

/* The pairs cell c owns.  The cell lists its triangles ascending and
 * the surfaces are numbered in runs, so a triangle's partners of its own
 * surface follow it at once, and its keys (i << 32 | j) grow with j: a
 * key at or past the surface's best ends the triangle's partners. */
static void cell_pairs(struct selfx_job *J, size_t c,
                       struct xg_counters *cnt)
{
    const struct xg_grid *g = &J->g;
    uint32_t p, q, j0 = g->b_start[c], j1 = g->b_start[c + 1];
    for (p = j0; p < j1; p++) {
        uint32_t i = g->b_items[p], s = J->surf ? J->surf[i] : 0;
        const double *bi = g->b_box + 6 * (size_t)i;
        const int32_t *ci = g->b_cell + 6 * (size_t)i;
        for (q = p + 1; q < j1; q++) {
            uint32_t j = g->b_items[q];
            uint64_t key = (uint64_t)i << 32 | j;
            if (J->surf && J->surf[j] != s)
                break;
            if (!xg__boxes_meet(bi, g->b_box + 6 * (size_t)j) ||
                !xg__grid_owns(g, c, ci, g->b_cell + 6 * (size_t)j))
                continue;
            if (key >= atomic_load_explicit(&J->best[s],
                                            memory_order_relaxed))
                break;
            if (cross(J, s, i, j, cnt)) {
                lower(&J->best[s], key);
                break;
            }
        }
    }
}

/* Phase 0: the boxes; phase 1: the cells, CHUNK at a time from the
 * shared cursor. */
static void selfx_worker(void *arg, int tid)
{
    struct selfx_job *J = arg;
    size_t c0, c;
    if (J->phase == 0) {
        boxes(J, tid);
        return;
    }
    while ((c0 = atomic_fetch_add(&J->next, CHUNK)) < J->g.ncell)
        for (c = c0; c < c0 + CHUNK && c < J->g.ncell; c++)
            cell_pairs(J, c, &J->cnt[tid]);
}

/* The junctions the threads found, by surface, into *junc (3 doubles
 * each) and *start (nsurf + 1): the CSR of xg_csr.h, sequential, each
 * surface's in the threads' order; both NULL when there are none.  XG_OK
 * or XG_ENOMEM. */
static int junctions_by_surface(const struct selfx_job *J, double **junc,
                                uint32_t **start)
{
    size_t total = 0, i;
    uint32_t *at;
    int t, rc = XG_ENOMEM;
    *junc = NULL;
    *start = NULL;
    for (t = 0; t < J->nthreads; t++)
        total += J->nfound[t];
    if (total == 0)
        return XG_OK;
    *junc = malloc(total * 3 * sizeof **junc);
    *start = malloc((J->nsurf + 1) * sizeof **start);
    at = calloc(J->nsurf, sizeof *at);
    /* fewer junctions than triangles: the scan's 2^32 cannot be passed */
    if (*junc && *start && at) {
        for (t = 0; t < J->nthreads; t++)
            for (i = 0; i < J->nfound[t]; i++)
                at[J->found[t][i].surf]++;
        rc = xg__csr_scan32(at, *start, J->nsurf);
    }
    for (t = 0; t < J->nthreads && rc == XG_OK; t++)
        for (i = 0; i < J->nfound[t]; i++) {
            const struct junction *x = &J->found[t][i];
            memcpy(*junc + 3 * (size_t)at[x->surf]++, x->p, sizeof x->p);
        }
    free(at);
    return rc;
}

/* J set for the search (xg__selfx_find's arguments), with its
 * per-thread and per-surface arrays and the boxes unless given; XG_OK
 * or XG_ENOMEM (what was allocated is job_close's to free either way). */
static int job_open(struct selfx_job *J, const double *tri,
                    const double *box, size_t ntri, const uint32_t *surf,
                    size_t nsurf, int flat_check, const double *junc,
                    const uint32_t *junc_start, int nthreads)
{
    size_t T = (size_t)nthreads;
    memset(J, 0, sizeof *J);
    J->tri = tri;
    J->surf = surf;
    J->ntri = ntri;
    J->nsurf = nsurf;
    J->flat_check = flat_check && !box;
    J->junc = junc;
    J->junc_start = junc_start;
    J->nthreads = nthreads;
    atomic_init(&J->next, 0);
    J->given = box != NULL;
    J->box = box ? (double *)box : xg__big_alloc(ntri * 6 * sizeof *J->box);
    J->hull = malloc(T * 6 * sizeof *J->hull);
    J->cnt = calloc(T, sizeof *J->cnt);
    J->nomem = calloc(T, sizeof *J->nomem);
    J->found = calloc(T, sizeof *J->found);
    J->nfound = calloc(T, sizeof *J->nfound);
    J->capfound = calloc(T, sizeof *J->capfound);
    J->best = malloc(nsurf * sizeof *J->best);
    return J->box && J->hull && J->cnt && J->nomem && J->found &&
                   J->nfound && J->capfound && J->best
               ? XG_OK
               : XG_ENOMEM;
}

/* The grid over phase 0's boxes, its region the threads' hulls merged.
 * The A side is one box holding everything, so that the region is the
 * triangles' hull; B the triangles.  A cell a triangle at most: 12 bytes
 * a cell, and on the benchmark's solids no slower than four (an eighth
 * of the cells, as fast).  XG_OK, XG_ENOMEM or XG_ELIMIT. */
static int pairs_grid(struct selfx_job *J)
{
    double lo[3], hi[3];
    int t, k, cells[3];
    for (k = 0; k < 3; k++) {
        lo[k] = HUGE_VAL;
        hi[k] = -HUGE_VAL;
        J->all[k] = -HUGE_VAL;
        J->all[3 + k] = HUGE_VAL;
    }
    for (t = 0; t < J->nthreads; t++)
        for (k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], J->hull[6 * t + k]);
            hi[k] = fmax(hi[k], J->hull[6 * t + 3 + k]);
        }
    xg__grid_cells_boxes(J->box, J->ntri, lo, hi, 3, 1.0, cells);
    return xg__grid_build_on(&J->g, J->all, 1, J->box, J->ntri, cells,
                             J->nthreads);
}

/* The threads' predicates into cnt, and what J holds freed. */
static void job_close(struct selfx_job *J, struct xg_counters *cnt)
{
    int t;
    if (J->cnt)
        for (t = 0; t < J->nthreads; t++)
            xg_counters_add(cnt, &J->cnt[t]);
    if (J->found)
        for (t = 0; t < J->nthreads; t++)
            free(J->found[t]);
    xg__grid_free(&J->g);
    if (!J->given)
        free(J->box);
    free(J->hull);
    free(J->cnt);
    free(J->nomem);
    free(J->found);
    free(J->nfound);
    free(J->capfound);
    free(J->best);
}

/* xg__selfx_find (xg_selfx.h): the boxes (and junctions), a grid
 * over them, then every surface's lowest crossing pair. */
int xg__selfx_find(const double *tri, const double *box, size_t ntri,
                   const uint32_t *surf, size_t nsurf, int flat_check,
                   const double *junc, const uint32_t *junc_start,
                   int nthreads, uint64_t *first, struct xg_counters *cnt)
{
    struct selfx_job J;
    double *own_junc = NULL;
    uint32_t *own_start = NULL;
    size_t s;
    int t, rc = XG_ENOMEM;

    for (s = 0; s < nsurf; s++)
        first[s] = XG_SELFX_NONE;
    if (ntri < 2 || nsurf == 0)
        return XG_OK;
    if (ntri > UINT32_MAX)
        return XG_ELIMIT;
    if (nthreads < 1 || ntri < ONE_THREAD)
        nthreads = 1;
    if (job_open(&J, tri, box, ntri, surf, nsurf, flat_check, junc,
                 junc_start, nthreads) != XG_OK ||
        xg__parallel(nthreads, selfx_worker, &J) != XG_OK)
        goto out;
    for (t = 0; t < nthreads; t++)
        if (J.nomem[t])
            goto out;
    if (J.flat_check) {
        if (junctions_by_surface(&J, &own_junc, &own_start) != XG_OK)
            goto out;
        J.junc = own_junc;
        J.junc_start = own_start;
    }
    if ((rc = pairs_grid(&J)) != XG_OK)
        goto out;
    for (s = 0; s < nsurf; s++)
        atomic_init(&J.best[s], XG_SELFX_NONE);
    J.phase = 1;
    rc = xg__parallel(nthreads, selfx_worker, &J) == XG_OK ? XG_OK
                                                           : XG_ENOMEM;
    for (s = 0; s < nsurf && rc == XG_OK; s++)
        first[s] = atomic_load(&J.best[s]);
out:
    job_close(&J, cnt);
    free(own_junc);
    free(own_start);
    return rc;
}

/* xg_self_crossing (exactgeo.h): one surface, flat triangles dropped
 * and their junctions taken. */
int xg_self_crossing(struct xg_ctx *ctx, const double *tri, size_t ntri,
                     size_t pair[2], int *found)
{
    struct xg_counters cnt = {0};
    uint64_t first;
    int rc;
    if (!tri && ntri)
        return xg__error(ctx, XG_EINVAL, "no triangles");
    if (!pair || !found)
        return xg__error(ctx, XG_EINVAL, "no room for the answer");
    *found = 0;
    rc = xg__selfx_find(tri, NULL, ntri, NULL, 1, 1, NULL, NULL,
                        xg__threads(ctx), &first, &cnt);
    if (rc != XG_OK)
        return xg__error(ctx, rc, rc == XG_ENOMEM ? "out of memory"
                                                  : "too many triangles");
    if (first != XG_SELFX_NONE) {
        *found = 1;
        pair[0] = (size_t)(first >> 32);
        pair[1] = (size_t)(first & UINT32_MAX);
    }
    return XG_OK;
}
