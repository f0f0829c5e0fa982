/*
 * delaunay_gpu.cu -- the GPU Delaunay engine (xg__delaunay_gpu_run,
 * reached through the engine table's delaunay entry), in stages:
 *   budget  the device memory the run needs, checked before anything
 *           is allocated (a triangulation cannot be cut into batches the
 *           way the contact engines' points are);
 *   upload  the points, their FIDs and the indices taken;
 *   merge   the points sorted by (x, y) and merged on the device
 *           (delaunay_order.cu);
 *   arrays  the method's arrays (struct dt_d);
 *   hull    the hull's corners: the points the filter does not certify
 *           inside the octagon of the extreme points, then exactly on
 *           the host;
 *   rounds  the rounds of delaunay_core.cuh (the method is described
 *           there) driven by delaunay_run.cuh;
 *   output  the real triangles as set indices in the canonical order
 *           (xg__dt_canonical's, on the device when it can).
 */
#include <algorithm>
#include "xg_cub.cuh"
#include "delaunay_gpu.h"
#include "delaunay_core.cuh"

struct dt_env {
    struct dt_d d;
    struct xg_ctx *ctx;
    struct xg_counters *cnt;
    struct dt_q *hq;
    uint32_t ctr[DT_C_COUNT];
    uint64_t questions, rounds, flip_rounds;
    double t_loc, t_flip;
    cudaStream_t s;
};

#define DT_KERNEL(f)                                                       \
    __global__ static void __launch_bounds__(256) k_##f(struct dt_d d)     \
    {                                                                      \
        uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;                \
        if (i < d.n && (d.dyn < 0 || i < d.cnt[d.dyn]))                    \
            f(&d, i);                                                      \
    }
DT_KERNEL(dt_walk)
DT_KERNEL(dt_hint)
DT_KERNEL(dt_insert)
DT_KERNEL(dt_fixup)
DT_KERNEL(dt_test)
DT_KERNEL(dt_apply)
DT_KERNEL(dt_flip_claim)
DT_KERNEL(dt_flip)
DT_KERNEL(dt_compact)
DT_KERNEL(dt_init_pt)
DT_KERNEL(dt_mark_done)
DT_KERNEL(dt_hullcand)
DT_KERNEL(dt_collect)
DT_KERNEL(dt_rotate)
DT_KERNEL(dt_round_start)
DT_KERNEL(dt_gather)

/* n threads; DYN: those past cnt[ci] idle (a length left on the device,
 * n its bound) */
#define DT_LAUNCH_DYN(E, f, num, ci)                                       \
    do {                                                                   \
        uint32_t n_ = (num);                                               \
        (E)->d.n = n_;                                                     \
        (E)->d.dyn = (ci);                                                 \
        if (n_)                                                            \
            k_##f<<<(n_ + 255) / 256, 256, 0, (E)->s>>>((E)->d);           \
    } while (0)
#define DT_LAUNCH(E, f, num) DT_LAUNCH_DYN(E, f, num, -1)

static int dt_h2d(struct dt_env *E, void *d, const void *h, size_t b)
{
    if (!b)
        return XG_OK;
    return XG_CUDA(E->ctx, cudaMemcpyAsync(d, h, b, cudaMemcpyHostToDevice,
                                           E->s));
}

/* Synchronises: every kernel before it has run (and its errors show). */
static int dt_d2h(struct dt_env *E, void *h, const void *d, size_t b)
{
    int rc;
    if ((rc = XG_CUDA(E->ctx, cudaGetLastError())) != XG_OK)
        return rc;
    if (b && (rc = XG_CUDA(E->ctx, cudaMemcpyAsync(h, d, b,
                                                   cudaMemcpyDeviceToHost,
                                                   E->s))) != XG_OK)
        return rc;
    return XG_CUDA(E->ctx, cudaStreamSynchronize(E->s));
}

#include "delaunay_run.cuh"

/* One run's state: what the stages below share. */
struct dt_run {
    struct xg_ctx *ctx;
    const struct xg_set *pts;
    const uint32_t *gid;
    size_t n;
    struct xg_stats *st;
    struct xg_gpu gpu;
    struct xg_dmem M;           /* every device array of the run */
    struct xg_cub_tmp tmp;      /* the CUB calls' scratch, in M */
    struct dt_env E;
    struct xg_dt_merge w;
    uint32_t *hc, *hh;          /* the hull's candidates, its corners */
    double *hxy;                /* the candidates' coordinates */
};

/* xg__dmem_alloc into any pointer (pp: the address of a T *), so that
 * each of the run's many arrays is one call; its result codes. */
static int dmalloc(struct xg_ctx *ctx, struct xg_dmem *m, void *pp,
                   size_t bytes)
{
    return xg__dmem_alloc(ctx, m, (void **)pp, bytes);
}

extern "C" uint64_t xg__delaunay_gpu_bytes(size_t npts, size_t n,
                                           int has_fid, size_t sort_tmp)
{
    const uint64_t N = n, c = 2 * N + 8;
    uint64_t b = (uint64_t)npts * (3 * sizeof(double) +
                                   (has_fid ? sizeof(int64_t) : 0));
    b += N * (4 + 3 * 4 + 2 * 8);           /* gid; idx keep pos; keys */
    b += sort_tmp;
    b += N * (16 + 4);                      /* the merged points, l2g */
    /* triangles: tv ta claim stamp amark newloc act act_next cand */
    b += c * (12 + 12 + 8 + 4 + 4 + 12 + 4 + 4 + 12);
    /* per point: loc kind hkey hsign hring pend pend_next */
    b += N * (4 + 1 + 8 * DT_HINTS + DT_HINTS + 1 + 4 + 4);
    b += N * 16;                            /* the hull's candidates */
    b += ((uint64_t)1 << 18) * sizeof(struct dt_q) + 4 * DT_C_COUNT + 8;
    return b + 64 * 256 + ((uint64_t)1 << 20);  /* alignment, slack */
}

/* Progress between rounds: the share of the points inserted. */
static int dt_cancelled(struct dt_env *E, uint32_t npend)
{
    return xg__cancelled_at(E->ctx, 0.9 * (double)(E->d.m - npend) /
                                        (double)E->d.m);
}

/* The budget stage: XG_ENOMEM, with the estimate, when the device bytes
 * the run may take (xg__delaunay_gpu_bytes, the CUB calls' scratch
 * asked of CUB) pass the budget. */
static int dt_check_budget(struct dt_run *R)
{
    size_t tb = 0;
    uint64_t need;
    int rc;
    if ((rc = xg__dt_gpu_order_bytes(R->ctx, R->n, &tb, R->gpu.s)) != XG_OK)
        return rc;
    need = xg__delaunay_gpu_bytes(R->pts->n, R->n, R->pts->fid != NULL, tb);
    if (need > R->gpu.budget)
        return xg__error(R->ctx, XG_ENOMEM, "the GPU memory budget (%.2f "
                         "GiB) does not hold the triangulation of %zu "
                         "points (about %.2f GiB); use the cpu engine",
                         (double)R->gpu.budget / 1073741824.0, R->n,
                         (double)need / 1073741824.0);
    return XG_OK;
}

/* The upload stage: the set's points, its FIDs (when it has them) and
 * the n indices taken, through the context's pinned buffers, complete
 * on return; into R->w's inputs. */
static int dt_upload(struct dt_run *R)
{
    struct xg_ctx *ctx = R->ctx;
    const struct xg_set *pts = R->pts;
    double *d_xyz = NULL;
    uint32_t *d_gid = NULL;
    int64_t *d_fid = NULL;
    int rc;
    if ((rc = dmalloc(ctx, &R->M, &d_xyz, pts->n * 3 * sizeof(double))) !=
            XG_OK ||
        (rc = dmalloc(ctx, &R->M, &d_gid, R->n * sizeof(uint32_t))) !=
            XG_OK ||
        (pts->fid && (rc = dmalloc(ctx, &R->M, &d_fid,
                                   pts->n * sizeof(int64_t))) != XG_OK) ||
        (rc = XG_CUDA(ctx, cudaStreamSynchronize(R->gpu.s))) != XG_OK ||
        (rc = xg__gpu_upload(ctx, d_xyz, pts->xyz,
                             pts->n * 3 * sizeof(double))) != XG_OK ||
        (rc = xg__gpu_upload(ctx, d_gid, R->gid,
                             R->n * sizeof(uint32_t))) != XG_OK ||
        (pts->fid && (rc = xg__gpu_upload(ctx, d_fid, pts->fid,
                                          pts->n * sizeof(int64_t))) !=
                         XG_OK))
        return rc;
    R->w.d_xyz = d_xyz;
    R->w.d_gid = d_gid;
    R->w.d_fid = d_fid;
    return XG_OK;
}

/* The merge stage: the merge's scratch, then the points sorted and
 * merged (xg__dt_gpu_merge); a_skipped and z_differ into st.
 * XG_EDEGENERATE when fewer than three distinct points are left. */
static int dt_merge(struct dt_run *R)
{
    struct xg_ctx *ctx = R->ctx;
    struct xg_dt_merge *w = &R->w;
    size_t n = R->n;
    int rc;
    if ((rc = dmalloc(ctx, &R->M, &w->d_idx, n * 4)) != XG_OK ||
        (rc = dmalloc(ctx, &R->M, &w->d_keep, n * 4)) != XG_OK ||
        (rc = dmalloc(ctx, &R->M, &w->d_pos, n * 4)) != XG_OK ||
        (rc = dmalloc(ctx, &R->M, &w->d_k0, n * 8)) != XG_OK ||
        (rc = dmalloc(ctx, &R->M, &w->d_k1, n * 8)) != XG_OK ||
        (rc = dmalloc(ctx, &R->M, &w->d_zd, 8)) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemsetAsync(w->d_zd, 0, 8, R->gpu.s))) !=
            XG_OK ||
        (rc = xg__dt_gpu_merge(ctx, &R->M, &R->tmp, w, (uint32_t)n,
                               R->gpu.s)) != XG_OK)
        return rc;
    R->st->a_skipped = n - w->m;
    R->st->z_differ = w->z_differ;
    if (w->m < 3)
        return xg__error(ctx, XG_EDEGENERATE, "fewer than three distinct "
                         "points");
    return XG_OK;
}

/* The arrays stage: the method's arrays (struct dt_d) for the m merged
 * points, room for 2 m + 8 triangles, the questions' queue on both
 * sides; claims unset, stamps, marks and counters zeroed. */
static int dt_arrays(struct dt_run *R)
{
    struct xg_ctx *ctx = R->ctx;
    struct xg_dmem *M = &R->M;
    struct dt_d *d = &R->E.d;
    cudaStream_t s = R->gpu.s;
    size_t c, m = R->w.m;
    int rc;
    d->xy = R->w.d_xy;
    d->m = R->w.m;
    d->cap = 2 * R->w.m + 8;
    d->qcap = 1u << 18;
    d->l2g = R->w.d_l2g;
    if (!(R->E.hq = (struct dt_q *)malloc(d->qcap * sizeof *R->E.hq)))
        return xg__error(ctx, XG_ENOMEM, "out of memory");
    c = d->cap;
    if ((rc = dmalloc(ctx, M, &d->tv, 12 * c)) != XG_OK ||
        (rc = dmalloc(ctx, M, &d->ta, 12 * c)) != XG_OK ||
        (rc = dmalloc(ctx, M, &d->claim, 8 * c)) != XG_OK ||
        (rc = dmalloc(ctx, M, &d->stamp, 4 * c)) != XG_OK ||
        (rc = dmalloc(ctx, M, &d->amark, 4 * c)) != XG_OK ||
        (rc = dmalloc(ctx, M, &d->newloc, 12 * c)) != XG_OK ||
        (rc = dmalloc(ctx, M, &d->act, 4 * c)) != XG_OK ||
        (rc = dmalloc(ctx, M, &d->act_next, 4 * c)) != XG_OK ||
        (rc = dmalloc(ctx, M, &d->cand, 12 * c)) != XG_OK ||
        (rc = dmalloc(ctx, M, &d->loc, 4 * m)) != XG_OK ||
        (rc = dmalloc(ctx, M, &d->kind, m)) != XG_OK ||
        (rc = dmalloc(ctx, M, &d->hkey, 8 * DT_HINTS * m)) != XG_OK ||
        (rc = dmalloc(ctx, M, &d->hsign, DT_HINTS * m)) != XG_OK ||
        (rc = dmalloc(ctx, M, &d->hring, m)) != XG_OK ||
        (rc = dmalloc(ctx, M, &d->pend, 4 * m)) != XG_OK ||
        (rc = dmalloc(ctx, M, &d->pend_next, 4 * m)) != XG_OK ||
        (rc = dmalloc(ctx, M, &d->q, d->qcap * sizeof(struct dt_q))) !=
            XG_OK ||
        (rc = dmalloc(ctx, M, &d->cnt, 4 * DT_C_COUNT)) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemsetAsync(d->claim, 0xff, 8 * c, s))) !=
            XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemsetAsync(d->stamp, 0, 4 * c, s))) !=
            XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemsetAsync(d->amark, 0, 4 * c, s))) !=
            XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemsetAsync(d->cnt, 0, 4 * DT_C_COUNT,
                                           s))) != XG_OK)
        return rc;
    return XG_OK;
}

/* The hull stage: the octagon of the points extreme in x, y, x + y,
 * x - y (xg__dt_gpu_extremes), the points the filter does not certify
 * inside it listed on the device, brought over in lexicographic (=
 * local) order with their coordinates, and the hull's strict corners
 * found among them exactly (dt_hull): *k of them into R->hh. */
static int dt_hull_corners(struct dt_run *R, uint32_t *k)
{
    struct dt_env *E = &R->E;
    uint32_t nc;
    int rc;
    E->d.npoly = 8;
    if ((rc = xg__dt_gpu_extremes(R->ctx, &R->tmp, E->d.xy, E->d.m,
                                  R->w.d_k0, E->d.poly, E->s)) != XG_OK)
        return rc;
    dt_poly_dedup(&E->d);
    if ((rc = dt_set_ctr(E, DT_C_NPEND, 0)) != XG_OK)
        return rc;
    DT_LAUNCH(E, dt_hullcand, E->d.m);
    if ((rc = dt_get_ctr(E)) != XG_OK)
        return rc;
    nc = E->ctr[DT_C_NPEND];
    if (!(R->hc = (uint32_t *)malloc((size_t)nc * 4 + 4)) ||
        !(R->hh = (uint32_t *)malloc((size_t)nc * 4 + 4)) ||
        !(R->hxy = (double *)malloc((size_t)nc * 16 + 16)))
        return xg__error(R->ctx, XG_ENOMEM, "out of memory");
    if ((rc = dt_d2h(E, R->hc, E->d.pend_next, (size_t)nc * 4)) != XG_OK)
        return rc;
    /* distinct numbers of 32 bits: nothing to throw, one order */
    std::sort(R->hc, R->hc + nc);
    if ((rc = dmalloc(R->ctx, &R->M, &E->d.cxy, (size_t)nc * 16)) !=
            XG_OK ||
        (rc = dt_h2d(E, E->d.pend_next, R->hc, (size_t)nc * 4)) != XG_OK)
        return rc;
    DT_LAUNCH(E, dt_gather, nc);
    if ((rc = dt_d2h(E, R->hxy, E->d.cxy, (size_t)nc * 16)) != XG_OK)
        return rc;
    *k = dt_hull(E->cnt, R->hxy, R->hc, nc, R->hh);
    return XG_OK;
}

/* The output stage: the real triangles listed as set indices, in the
 * canonical order on the device when every index fits its 28 bits
 * (*canon = 1; else the caller orders them), downloaded into out;
 * bbox_pairs, candidates and deferred into st. */
static int dt_output(struct dt_run *R, struct xg_triangles *out, int *canon)
{
    struct dt_env *E = &R->E;
    uint32_t ntri, nreal;
    int rc;
    if ((rc = dt_get_ctr(E)) != XG_OK)
        return rc;
    ntri = E->ctr[DT_C_NTRI];
    E->d.outt = E->d.newloc;
    if ((rc = dt_set_ctr(E, DT_C_NPEND, 0)) != XG_OK)
        return rc;
    DT_LAUNCH(E, dt_collect, ntri);
    if ((rc = dt_get_ctr(E)) != XG_OK)
        return rc;
    nreal = E->ctr[DT_C_NPEND];
    if (R->pts->n <= XG_DT_MAX_POINTS && nreal) {
        if ((rc = xg__dt_gpu_canonical(R->ctx, &R->tmp, E->d.outt, nreal,
                                       E->d.claim,
                                       (unsigned long long *)E->d.hkey,
                                       E->d.act, E->d.act_next, E->s)) !=
            XG_OK)
            return rc;
        *canon = 1;
    }
    if ((rc = dt_sync_up(E)) != XG_OK)
        return rc;
    /* on huge pages where the system has them: the first touch of
     * 10^7 points' triangles costs as much as the copy */
    out->v = (uint32_t(*)[3])xg__big_alloc((size_t)nreal * 12 + 12);
    if (!out->v)
        return xg__error(R->ctx, XG_ENOMEM, "out of memory");
    if ((rc = xg__gpu_download(R->ctx, out->v, E->d.outt,
                               (size_t)nreal * 12)) != XG_OK)
        return rc;
    out->n = out->cap = nreal;
    R->st->bbox_pairs = nreal;
    R->st->candidates = E->rounds;
    R->st->deferred = E->questions;
    return XG_OK;
}

/* The rounds' figures on stderr when XG_DT_PROFILE is set. */
static void dt_profile(const struct dt_run *R, uint32_t k, double t0)
{
    const struct dt_env *E = &R->E;
    if (getenv("XG_DT_PROFILE"))
        fprintf(stderr, "gpu delaunay: %u points, %u hull corners, %llu "
                "rounds, %llu flip rounds, %llu host signs; locate %.3f s, "
                "flips %.3f s, all rounds %.3f s\n", E->d.m, k,
                (unsigned long long)E->rounds,
                (unsigned long long)E->flip_rounds,
                (unsigned long long)E->questions, E->t_loc, E->t_flip,
                xg__now() - t0);
}

/* The stages in order, each one's time to its stage of st; on failure
 * out is left empty, and every device array (R.M) and host array is
 * freed either way. */
extern "C" int xg__delaunay_gpu_run(struct xg_ctx *ctx,
                                    const struct xg_set *pts,
                                    const uint32_t *gid, size_t n,
                                    const struct xg_opts *opt,
                                    struct xg_triangles *out,
                                    struct xg_stats *st)
{
    struct dt_run R;
    struct xg_stats st0;
    uint32_t k = 0, npend = 0;
    double t0;
    int rc, canon = 0;

    if (!st) {
        memset(&st0, 0, sizeof st0);
        st = &st0;
    }
    memset(&R, 0, sizeof R);            /* R.M as XG_DMEM_INIT */
    free(out->v);
    memset(out, 0, sizeof *out);
    R.ctx = R.E.ctx = ctx;
    R.pts = pts;
    R.gid = gid;
    R.n = n;
    R.st = st;
    R.E.cnt = &st->cnt;
    R.tmp.m = &R.M;
    st->a_count = n;
    if (n > XG_DT_MAX_POINTS)
        return xg__error(ctx, XG_ELIMIT, "%zu points: the limit is 2^28",
                         n);
    if (n < 3)
        return xg__error(ctx, XG_EDEGENERATE, "fewer than three distinct "
                         "points");
    if ((rc = xg__gpu_open(ctx, opt, &R.gpu)) != XG_OK)
        return rc;
    R.E.s = R.gpu.s;
    if ((rc = dt_check_budget(&R)) != XG_OK)
        goto done;
    t0 = xg__now();
    if ((rc = dt_upload(&R)) != XG_OK)
        goto done;
    st->seconds[XG_STAGE_UPLOAD] += xg__now() - t0;
    t0 = xg__now();
    if ((rc = dt_merge(&R)) != XG_OK)
        goto done;
    st->seconds[XG_STAGE_PREPARE] += xg__now() - t0;
    t0 = xg__now();
    if ((rc = dt_arrays(&R)) != XG_OK ||
        (rc = dt_hull_corners(&R, &k)) != XG_OK)
        goto done;
    if (k < 3) {
        rc = xg__error(ctx, XG_EDEGENERATE, "all points are collinear");
        goto done;
    }
    if ((rc = dt_start(&R.E, R.hh, k, &npend)) != XG_OK ||
        (rc = dt_rounds(&R.E, npend, dt_cancelled)) != XG_OK)
        goto done;
    st->seconds[XG_STAGE_INTERSECT] += xg__now() - t0;
    dt_profile(&R, k, t0);
    t0 = xg__now();
    if ((rc = dt_output(&R, out, &canon)) != XG_OK)
        goto done;
    st->seconds[XG_STAGE_DOWNLOAD] += xg__now() - t0;
    if (!canon) {
        t0 = xg__now();
        rc = xg__dt_canonical(out->v, out->n, pts->n, xg__threads(ctx));
        if (rc != XG_OK)
            rc = xg__error(ctx, rc, "out of memory");
        st->seconds[XG_STAGE_UNIQUE] += xg__now() - t0;
    }
done:
    if (rc != XG_OK) {
        free(out->v);
        memset(out, 0, sizeof *out);
    }
    xg__dmem_free(&R.M);
    xg__gpu_close(&R.gpu);
    free(R.hxy);
    free(R.hc);
    free(R.hh);
    free(R.E.hq);
    return rc;
}
