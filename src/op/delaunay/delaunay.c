/*
 * delaunay.c -- xg_delaunay: the entry, the seq engine's run, and the
 * canonical order every engine's triangles are written in.
 */
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include "xg_engine.h"
#include "xg_delaunay.h"
#include "xg_thread.h"
#include "xg_ctx.h"
#include "xg_gpu.h"
#include "xg_pair.h"

void xg_triangles_free(struct xg_triangles *t)
{
    if (!t)
        return;
    free(t->v);
    memset(t, 0, sizeof *t);
}

/* Rotation to the smallest index keeps the turn; then a counting sort by
 * v[0] (each vertex heads a handful of triangles; the buckets are filled
 * in any order by the threads) and an insertion sort of each bucket by
 * (v[1], v[2]), which fixes the order whatever the filling was. */
struct canon {
    uint32_t (*tri)[3], (*tmp)[3];
    size_t ntri, npts;
    int nthreads;
    _Atomic uint32_t *cursor;   /* counts, then the next slot */
    uint32_t *start;            /* npts + 1 */
};

/* Thread tid's share of the triangles (xg__parallel; arg a struct
 * canon): each rotated to start at its smallest index, the turn kept,
 * and counted in that index's bucket. */
static void canon_count(void *arg, int tid)
{
    struct canon *C = arg;
    size_t lo, hi, i;
    xg__share(C->ntri, C->nthreads, tid, &lo, &hi);
    for (i = lo; i < hi; i++) {
        uint32_t *t = C->tri[i], a = t[0], b = t[1], c = t[2];
        if (b < a && b < c) {
            t[0] = b; t[1] = c; t[2] = a;
        } else if (c < a && c < b) {
            t[0] = c; t[1] = a; t[2] = b;
        }
        atomic_fetch_add_explicit(&C->cursor[t[0]], 1, memory_order_relaxed);
    }
}

/* Thread tid's share of the triangles: each copied to the next slot of
 * its bucket in tmp (the cursors start at the buckets' starts); the
 * order within a bucket is the threads', which canon_order undoes. */
static void canon_fill(void *arg, int tid)
{
    struct canon *C = arg;
    size_t lo, hi, i;
    xg__share(C->ntri, C->nthreads, tid, &lo, &hi);
    for (i = lo; i < hi; i++) {
        uint32_t at = atomic_fetch_add_explicit(&C->cursor[C->tri[i][0]], 1,
                                                memory_order_relaxed);
        memcpy(C->tmp[at], C->tri[i], sizeof C->tmp[0]);
    }
}

/* Thread tid's share of the vertices: each bucket of tmp sorted by
 * (v[1], v[2]) by insertion (a vertex heads a handful of triangles) and
 * copied back to tri, where the buckets are in place. */
static void canon_order(void *arg, int tid)
{
    struct canon *C = arg;
    size_t lo, hi, v;
    xg__share(C->npts, C->nthreads, tid, &lo, &hi);
    for (v = lo; v < hi; v++) {
        size_t b = C->start[v], e = C->start[v + 1], k;
        for (k = b + 1; k < e; k++) {
            uint32_t x[3];
            size_t m = k;
            memcpy(x, C->tmp[k], sizeof x);
            while (m > b && (C->tmp[m - 1][1] > x[1] ||
                             (C->tmp[m - 1][1] == x[1] &&
                              C->tmp[m - 1][2] > x[2]))) {
                memcpy(C->tmp[m], C->tmp[m - 1], sizeof x);
                m--;
            }
            memcpy(C->tmp[m], x, sizeof x);
        }
        if (e > b)
            memcpy(C->tri[b], C->tmp[b], (e - b) * sizeof C->tmp[0]);
    }
}

int xg__dt_canonical(uint32_t (*tri)[3], size_t ntri, size_t npts,
                     int nthreads)
{
    struct canon C;
    size_t v, sum = 0;
    int rc = XG_ENOMEM;
    C.tri = tri;
    C.ntri = ntri;
    C.npts = npts;
    C.nthreads = nthreads < 1 ? 1 : nthreads;
    C.tmp = malloc((ntri ? ntri : 1) * sizeof *C.tmp);
    C.cursor = calloc(npts + 1, sizeof *C.cursor);
    C.start = malloc((npts + 1) * sizeof *C.start);
    if (!C.tmp || !C.cursor || !C.start)
        goto out;
    if (xg__parallel(C.nthreads, canon_count, &C) != XG_OK)
        goto out;
    for (v = 0; v < npts; v++) {
        uint32_t k = atomic_load_explicit(&C.cursor[v], memory_order_relaxed);
        C.start[v] = (uint32_t)sum;
        atomic_store_explicit(&C.cursor[v], (uint32_t)sum,
                              memory_order_relaxed);
        sum += k;
    }
    C.start[npts] = (uint32_t)sum;
    if (xg__parallel(C.nthreads, canon_fill, &C) != XG_OK ||
        xg__parallel(C.nthreads, canon_order, &C) != XG_OK)
        goto out;
    rc = XG_OK;
out:
    free(C.tmp);
    free((void *)C.cursor);
    free(C.start);
    return rc;
}

/* Records in ctx why n points make no triangulation; XG_EDEGENERATE. */
static int degenerate(struct xg_ctx *ctx, size_t n)
{
    return xg__error(ctx, XG_EDEGENERATE,
                     "%zu points: a triangulation needs three distinct "
                     "points not all on one line",
                     n);
}

int xg__dt_seq(struct xg_ctx *ctx, const struct xg_set *pts,
               const uint32_t *gid, size_t n, struct xg_triangles *out,
               struct xg_stats *st)
{
    struct xg__dt_job job;
    size_t k;
    int rc;
    double t0 = xg__now();
    memset(&job, 0, sizeof job);
    job.pts = pts;
    job.gid = gid;
    job.n = n;
    job.want_merges = 1;
    rc = xg__dt_build(&job);
    st->seconds[XG_STAGE_INTERSECT] = xg__now() - t0;
    xg_counters_add(&st->cnt, &job.cnt);
    if (rc == XG_EDEGENERATE)
        rc = degenerate(ctx, n);
    else if (rc != XG_OK)
        rc = xg__error(ctx, rc, "out of memory in the triangulation");
    if (rc == XG_OK) {
        for (k = 0; k < n; k++) {
            st->a_skipped += job.merged[k];
            st->z_differ += job.z_differ[k];
        }
        st->candidates = 1;
        st->bbox_pairs = job.ntri;
        t0 = xg__now();
        rc = xg__dt_canonical(job.tri, job.ntri, pts->n, 1);
        st->seconds[XG_STAGE_UNIQUE] = xg__now() - t0;
        if (rc == XG_OK) {
            out->v = job.tri;
            out->n = out->cap = job.ntri;
            job.tri = NULL;
        } else
            rc = xg__error(ctx, rc, "out of memory");
    }
    xg__dt_job_free(&job);
    return rc;
}

int xg_delaunay(struct xg_ctx *ctx, const struct xg_set *pts,
                const struct xg_opts *opt, struct xg_triangles *out,
                struct xg_stats *st)
{
    struct xg_stats local;
    struct xg_opts defaults;
    uint32_t *gid = NULL;
    size_t k, n;
    int engine, rc;
    double t0;

    if (!st)
        st = &local;
    if (!opt) {
        memset(&defaults, 0, sizeof defaults);
        opt = &defaults;
    }
    memset(st, 0, sizeof *st);
    if (!ctx || !pts || !out)
        return ctx ? xg__error(ctx, XG_EINVAL, "NULL argument") : XG_EINVAL;
    xg_triangles_free(out);
    if (pts->n && pts->elem != XG_ELEM_POINT)
        return xg__error(ctx, XG_EINVAL, "delaunay takes a point set, not "
                         "a set of %ss", xg_elem_name(pts->elem));
    n = pts->n;
    if (n > XG_DT_MAX_POINTS)
        return xg__error(ctx, XG_ELIMIT, "%zu points: more than 2^28", n);
    if ((rc = xg__check_finite(ctx, pts->xyz, n, 3, 2, pts->fid, "point")))
        return rc;
    if ((rc = xg__memory_check(ctx, &xg__op_delaunay, n, 0, 0)))
        return rc;
    st->a_count = n;
    engine = opt->engine;
    if (engine == XG_ENGINE_AUTO)
        engine = xg__gpu_usable(ctx) ? XG_ENGINE_GPU : XG_ENGINE_CPU;
    if (engine < XG_ENGINE_SEQ || engine > XG_ENGINE_GPU)
        return xg__error(ctx, XG_EINVAL, "unknown engine %d", engine);
    if (engine == XG_ENGINE_GPU && (rc = xg__gpu_require(ctx)) != XG_OK)
        return rc;
    st->engine = engine;
    st->threads = engine == XG_ENGINE_CPU ? xg__threads(ctx) : 1;
    st->gpus = engine == XG_ENGINE_GPU;   /* one device: gpus[0] */
    st->regions = 1;
    if (xg__cancelled_at(ctx, 0.0))
        return xg__error(ctx, XG_ECANCEL, "cancelled");
    if (n < 3)
        return degenerate(ctx, n);

    t0 = xg__now();
    gid = malloc(n * sizeof *gid);
    if (!gid)
        return xg__error(ctx, XG_ENOMEM, "out of memory");
    for (k = 0; k < n; k++)
        gid[k] = (uint32_t)k;
    st->seconds[XG_STAGE_PREPARE] = xg__now() - t0;
    if (engine == XG_ENGINE_SEQ)
        rc = xg__dt_seq(ctx, pts, gid, n, out, st);
    else if (engine == XG_ENGINE_CPU)
        rc = xg__dt_strips(ctx, pts, gid, n, st->threads, opt->grid[0], out,
                           st);
    else
        rc = xg__engine_tri(ctx, &xg__op_delaunay, XG_ENGINE_GPU, pts, gid,
                            n, opt, out, st);
    free(gid);
    if (rc == XG_OK && xg__cancelled_at(ctx, 1.0))
        rc = xg__error(ctx, XG_ECANCEL, "cancelled");
    if (rc != XG_OK)
        xg_triangles_free(out);
    return rc;
}
