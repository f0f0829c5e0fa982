/*
 * delaunay_build.c -- one Delaunay triangulation by incremental insertion
 * with flips (xg__dt_build), more points into one kept
 * (xg__dt_insert_more), and the job's output: its real triangles as set
 * indices and the points merged.
 *
 * The points go in in the order of delaunay_order.c, each by
 * delaunay_insert.c.  A point with the (x, y) of a vertex already in is
 * merged, not inserted: the copy of lowest (fid, set index) is kept,
 * whatever the order they came in.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "delaunay_builder.h"
#include "xg_mem.h"

/* One build's scratch, freed by xg__dt_build: the insertion order, the
 * local points, and the merges (local vertex -> job index kept, job index
 * merged -> local vertex it merged into). */
struct build {
    size_t n;
    uint32_t *order;        /* order[k]: the job index inserted k-th */
    double *xy;             /* local points, 2 doubles, insertion order */
    uint32_t *keep_of;      /* local vertex -> job index kept */
    uint32_t *merged_into;  /* job index merged -> local vertex (merges) */
    size_t i1, i2;          /* the first triangle's: local 0, i1, i2 */
};

/* Allocates w's arrays and job's triangulation (2 n + 8 triangles: a
 * triangulation of n points with its ghosts has 2 n - 2) and, when the
 * job wants them, its merge flags.  XG_OK or XG_ENOMEM (what was
 * allocated stays for the caller to free). */
static int build_alloc(struct xg__dt_job *job, struct build *w)
{
    struct xg__dt *dt = &job->dt;
    size_t n = w->n;
    w->order = malloc(n * sizeof *w->order);
    w->xy = malloc(2 * n * sizeof *w->xy);
    w->keep_of = malloc(n * sizeof *w->keep_of);
    dt->cap = 2 * n + 8;
    dt->v = malloc(dt->cap * sizeof *dt->v);
    dt->adj = malloc(dt->cap * sizeof *dt->adj);
    if (job->want_merges) {
        job->merged = calloc(n, 1);
        job->z_differ = calloc(n, 1);
        w->merged_into = malloc(n * sizeof *w->merged_into);
        if (!job->merged || !job->z_differ || !w->merged_into)
            return XG_ENOMEM;
    }
    if (!w->order || !w->xy || !w->keep_of || !dt->v || !dt->adj)
        return XG_ENOMEM;
    return XG_OK;
}

/* The local points in insertion order: w->xy from the job's points, each
 * local vertex keeping its own job index until a merge says otherwise. */
static void local_points(const struct xg__dt_job *job, struct build *w)
{
    const double *xyz = job->pts->xyz;
    size_t k;
    for (k = 0; k < w->n; k++) {
        const double *p = xyz + 3 * (size_t)job->gid[w->order[k]];
        w->xy[2 * k] = p[0];
        w->xy[2 * k + 1] = p[1];
        w->keep_of[k] = w->order[k];
    }
}

/* The first triangle: local 0, the first point apart from it (w->i1), the
 * first point off their line (w->i2), counter-clockwise, into B->dt.
 * XG_EDEGENERATE when there is none (all points on one line or the same
 * point), else XG_OK. */
static int first_triangle(struct xg__dt_builder *B, struct build *w)
{
    const double *xy = w->xy;
    size_t n = w->n, k;
    int o;
    w->i1 = w->i2 = 0;
    for (k = 1; k < n && !w->i1; k++)
        if (xy[2 * k] != xy[0] || xy[2 * k + 1] != xy[1])
            w->i1 = k;
    for (k = w->i1 + 1; w->i1 && k < n && !w->i2; k++)
        if (xg_orient2d(B->cnt, xy, xy + 2 * w->i1, xy + 2 * k) != 0)
            w->i2 = k;
    if (!w->i2)
        return XG_EDEGENERATE;
    o = xg_orient2d(B->cnt, xy, xy + 2 * w->i1, xy + 2 * w->i2);
    xg__dt_first(B, (uint32_t)(o > 0 ? w->i1 : w->i2),
                 (uint32_t)(o > 0 ? w->i2 : w->i1));
    return XG_OK;
}

/* The merge rule: whether set index a is the copy kept over b, the two
 * at the same (x, y): the lower (fid, set index). */
static int kept_over(const int64_t *fid, uint32_t a, uint32_t b)
{
    if (fid[a] != fid[b])
        return fid[a] < fid[b];
    return a < b;
}

/* Local point k has the (x, y) of local vertex m: of the two copies the
 * one the merge rule keeps is kept for m; the other is marked merged
 * (when the job wants merges). */
static void merge_copy(struct xg__dt_job *job, struct build *w, size_t k,
                       uint32_t m)
{
    uint32_t gk = job->gid[w->keep_of[k]], gm = job->gid[w->keep_of[m]];
    int k_first = kept_over(job->pts->fid, gk, gm);
    if (job->want_merges) {
        uint32_t loser = k_first ? w->keep_of[m] : w->keep_of[k];
        job->merged[loser] = 1;
        w->merged_into[loser] = m;
    }
    if (k_first)
        w->keep_of[m] = w->keep_of[k];
}

/* Every local point but the first triangle's into B->dt, a copy of a
 * vertex merged instead.  XG_OK or XG_ENOMEM. */
static int insert_all(struct xg__dt_job *job, struct xg__dt_builder *B,
                      struct build *w)
{
    size_t k;
    int rc;
    for (k = 1; k < w->n; k++) {
        uint32_t t;
        int where;
        if (k == w->i1 || k == w->i2)
            continue;
        xg__dt_locate(B, w->xy + 2 * k, &t, &where);
        if (where >= 4) {
            merge_copy(job, w, k, B->dt->v[t][where - 4]);
            continue;
        }
        if ((rc = xg__dt_insert(B, t, where, (uint32_t)k)) != XG_OK)
            return rc;
    }
    assert(B->dt->ntri <= B->dt->cap);
    return XG_OK;
}

/* job->tri: the real triangles of job->dt as set indices (dt_gid), any
 * earlier list freed (job owns the new one).  XG_OK or XG_ENOMEM. */
static int emit(struct xg__dt_job *job)
{
    const struct xg__dt *dt = &job->dt;
    size_t nt = 0, t;
    free(job->tri);
    job->tri = malloc((dt->ntri ? dt->ntri : 1) * sizeof *job->tri);
    if (!job->tri)
        return XG_ENOMEM;
    for (t = 0; t < dt->ntri; t++) {
        if (xg__dt_is_ghost(dt, (uint32_t)t))
            continue;
        job->tri[nt][0] = job->dt_gid[dt->v[t][0]];
        job->tri[nt][1] = job->dt_gid[dt->v[t][1]];
        job->tri[nt][2] = job->dt_gid[dt->v[t][2]];
        nt++;
    }
    job->ntri = nt;
    return XG_OK;
}

/* After the insertions: the local points' set indices (a merged copy's
 * keeper) into job->dt_gid, the real triangles into job->tri, and each
 * merged point's z_differ against its vertex's final keeper.  XG_OK or
 * XG_ENOMEM. */
static int build_output(struct xg__dt_job *job, const struct build *w)
{
    const double *xyz = job->pts->xyz;
    size_t k;
    int rc;
    job->dt_gid = malloc(w->n * sizeof *job->dt_gid);
    if (!job->dt_gid)
        return XG_ENOMEM;
    for (k = 0; k < w->n; k++)
        job->dt_gid[k] = job->gid[w->keep_of[k]];
    if ((rc = emit(job)) != XG_OK)
        return rc;
    if (job->want_merges)
        for (k = 0; k < w->n; k++)
            if (job->merged[k]) {
                uint32_t keeper = job->gid[w->keep_of[w->merged_into[k]]];
                job->z_differ[k] = xyz[3 * (size_t)job->gid[k] + 2] !=
                                   xyz[3 * (size_t)keeper + 2];
            }
    return XG_OK;
}

/* Builds job's triangulation (xg_delaunay.h).  On success job->tri (and,
 * want_merges, merged and z_differ; want_dt, dt, dt_gid, dt_xy) are the
 * job's, freed by xg__dt_job_free; on failure dt and dt_gid are freed
 * here, the rest by xg__dt_job_free. */
int xg__dt_build(struct xg__dt_job *job)
{
    struct xg__dt *dt = &job->dt;
    struct xg__dt_builder B;
    struct build w;
    int rc;

    memset(&B, 0, sizeof B);
    memset(&w, 0, sizeof w);
    memset(dt, 0, sizeof *dt);
    job->tri = NULL;
    job->ntri = 0;
    if (job->n < 3)
        return XG_EDEGENERATE;
    w.n = job->n;
    if ((rc = build_alloc(job, &w)) != XG_OK ||
        (rc = xg__dt_insertion_order(job, w.order)) != XG_OK)
        goto out;
    local_points(job, &w);
    B.dt = dt;
    B.xy = w.xy;
    B.cnt = &job->cnt;
    if ((rc = first_triangle(&B, &w)) != XG_OK ||
        (rc = insert_all(job, &B, &w)) != XG_OK)
        goto out;
    rc = build_output(job, &w);
out:
    if (rc == XG_OK && job->want_dt) {
        job->dt_n = job->dt_cap = w.n;
        job->dt_xy = w.xy;
        w.xy = NULL;
    }
    if (rc != XG_OK || !job->want_dt) {
        free(dt->v);
        free(dt->adj);
        memset(dt, 0, sizeof *dt);
        free(job->dt_gid);
        job->dt_gid = NULL;
    }
    free(w.order);
    free(w.xy);
    free(w.keep_of);
    free(w.merged_into);
    free(B.stack);
    return rc;
}

/* Frees what a job's builds left (xg_delaunay.h) and clears those fields;
 * the job's inputs and counters are left. */
void xg__dt_job_free(struct xg__dt_job *job)
{
    free(job->tri);
    free(job->merged);
    free(job->z_differ);
    free(job->dt.v);
    free(job->dt.adj);
    free(job->dt_gid);
    free(job->dt_xy);
    job->tri = NULL;
    job->merged = job->z_differ = NULL;
    job->dt_gid = NULL;
    job->dt_xy = NULL;
    job->dt_cap = 0;
    memset(&job->dt, 0, sizeof job->dt);
}

/* Grows *v (of *cap elements of sz bytes) to room for need elements, by
 * xg__grow's doublings.  XG_OK or XG_ENOMEM (*v and *cap as they were
 * after the last doubling that succeeded). */
static int reserve(void **v, size_t *cap, size_t need, size_t sz)
{
    while (*cap < need)
        if (xg__grow(v, cap, *cap, sz))
            return XG_ENOMEM;
    return XG_OK;
}

/* Room in job's kept triangulation for n points: dt_xy and dt_gid of n,
 * 2 n + 8 triangles.  XG_OK or XG_ENOMEM. */
static int reserve_more(struct xg__dt_job *job, size_t n)
{
    struct xg__dt *dt = &job->dt;
    size_t c_xy = job->dt_cap, c_gid = job->dt_cap, c_v = dt->cap,
           c_adj = dt->cap;
    if (reserve((void **)&job->dt_xy, &c_xy, n, 2 * sizeof *job->dt_xy) ||
        reserve((void **)&job->dt_gid, &c_gid, n, sizeof *job->dt_gid))
        return XG_ENOMEM;
    assert(c_xy == c_gid);
    job->dt_cap = c_xy;
    if (reserve((void **)&dt->v, &c_v, 2 * n + 8, sizeof *dt->v) ||
        reserve((void **)&dt->adj, &c_adj, 2 * n + 8, sizeof *dt->adj))
        return XG_ENOMEM;
    assert(c_v == c_adj);
    dt->cap = c_v;
    return XG_OK;
}

/* Inserts more[0 .. nmore-1] into the kept triangulation (xg_delaunay.h):
 * each point's (x, y) and set index appended as a local vertex; a copy of
 * a vertex instead makes the vertex's set index the copy of lower (fid,
 * set index).  job->tri rewritten; XG_OK or XG_ENOMEM. */
int xg__dt_insert_more(struct xg__dt_job *job, const uint32_t *more,
                       size_t nmore)
{
    struct xg__dt *dt = &job->dt;
    struct xg__dt_builder B;
    size_t n0 = job->dt_n, n = n0 + nmore, i;
    const double *xyz = job->pts->xyz;
    int rc = XG_ENOMEM;

    memset(&B, 0, sizeof B);
    if (reserve_more(job, n))
        return XG_ENOMEM;
    B.dt = dt;
    B.xy = job->dt_xy;
    B.cnt = &job->cnt;
    B.last = 0;
    for (i = 0; i < nmore; i++) {
        uint32_t k = (uint32_t)(n0 + i), tr, g = more[i];
        int where;
        job->dt_xy[2 * (size_t)k] = xyz[3 * (size_t)g];
        job->dt_xy[2 * (size_t)k + 1] = xyz[3 * (size_t)g + 1];
        job->dt_gid[k] = g;
        xg__dt_locate(&B, job->dt_xy + 2 * (size_t)k, &tr, &where);
        if (where >= 4) {
            /* a copy of a vertex: the merge rule picks the keeper */
            uint32_t m = dt->v[tr][where - 4], gm = job->dt_gid[m];
            if (kept_over(job->pts->fid, g, gm))
                job->dt_gid[m] = g;
            continue;
        }
        if ((rc = xg__dt_insert(&B, tr, where, k)) != XG_OK)
            goto out;
    }
    job->dt_n = n;
    if ((rc = emit(job)) != XG_OK)
        goto out;
    rc = XG_OK;
out:
    free(B.stack);
    return rc;
}
