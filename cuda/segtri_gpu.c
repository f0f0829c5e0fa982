/*
 * segtri_gpu.c -- the GPU engine of xg_segtri, host side.
 *
 * Pipeline (the paper's section 11.3.5):
 *   upload    only the coordinates, through pinned staging kept in the
 *             context;
 *   prepare   on the device: boxes, degenerate elements (the doubtful
 *             ones decided exactly on the host), the shared device grid,
 *             the block tables (the paper's per cell, or the packed ones
 *             cut from the run of all pairs);
 *   intersect a float count pass gives an estimate from above of the
 *             output (the packed count pass also lists the pairs that
 *             pass its cheap test), the array gets 5% slack, the interval
 *             pass appends with an atomic counter; a count past the
 *             capacity means the estimate fell short: grow and relaunch;
 *   refine    the points the double intervals left, in double-double on
 *             the device (xg_dd.h);
 *   unique    pairs met in several cells are evaluated only by the cell
 *             that owns them (xg__grid_owns, as on the CPU), so nothing
 *             repeats; the hits are sorted by (a, b) on the device;
 *   download  the sorted hits, a sparse list;
 *   exact     the entries the device could not settle (a deferred
 *             classification or an uncertified point) go to GMP on the
 *             CPU threads.
 * The list-of-pairs strategy, and inputs that do not fit the
 * device-memory budget, are prepared on the host: the grid's cells are
 * cut into ranges that fit (xg__gpu_plan_batches), each range's elements
 * gathered with local numbers; a range whose output does not fit is
 * halved.
 */
#include <stdlib.h>
#include <string.h>
#include "xg_cuda.h"
#include "xg_thread.h"

#define SPLIT (-1)           /* run_batch: this range's output won't fit */

int xg_gpu_available(void)
{
    int n = 0, major = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) {
        cudaGetLastError();
        return 0;
    }
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                               0) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return major >= 9;       /* sm_90 code and compute_90 PTX */
}

/* The host arrays of one batch, numbered as the device sees them. */
struct hbatch {
    size_t c0, c1;
    uint32_t na, nb;
    const double *seg, *tri;
    const int32_t *a_cell, *b_cell;
    const uint32_t *a_start, *a_items, *b_start, *b_items; /* by c - c0 */
    const uint32_t *a_map, *b_map;  /* NULL: local = global */
};

struct hits {
    size_t n, cap;
    struct xg_gpu_hit *v;
};

struct job {
    struct xg_ctx *ctx;
    const struct xg_grid *g;
    const struct xg_segs *a;
    const struct xg_tris *b;
    struct xg_gpu_opts *go;
    struct xg_stats *st;
    cudaStream_t stream;
    uint64_t budget;
    struct hits out;
    int gathered;               /* some batch had local numbers */
};

struct dev {
    void *p[32];
    int n;
};

static int dev_alloc(struct xg_ctx *ctx, struct dev *d, void **ptr,
                     size_t bytes)
{
    *ptr = NULL;
    XG_CUDA_TRY(ctx, cudaMalloc(ptr, bytes ? bytes : 1));
    d->p[d->n++] = *ptr;
    return XG_OK;
}

static int dev_up(struct xg_ctx *ctx, struct dev *d, const void **dptr,
                  const void *h, size_t bytes, cudaStream_t s)
{
    void *p;
    int rc = dev_alloc(ctx, d, &p, bytes);
    if (rc != XG_OK)
        return rc;
    if (bytes)
        XG_CUDA_TRY(ctx, cudaMemcpyAsync(p, h, bytes, cudaMemcpyHostToDevice,
                                         s));
    *dptr = p;
    return XG_OK;
}

static void dev_free(struct dev *d)
{
    int i;
    for (i = 0; i < d->n; i++)
        cudaFree(d->p[i]);
    d->n = 0;
}

/* The list of pairs, built on the CPU (the paper's first strategy):
 * every pair of a cell whose boxes meet and which the cell owns. */
static int build_pairs(const struct xg_grid *g, uint32_t **pairs,
                       uint64_t *npairs)
{
    size_t c, n = 0, cap = 1 << 16;
    uint32_t *v = malloc(2 * cap * sizeof *v);
    if (!v)
        return XG_ENOMEM;
    for (c = 0; c < g->ncell; c++) {
        uint32_t ia, ib;
        for (ia = g->a_start[c]; ia < g->a_start[c + 1]; ia++) {
            uint32_t i = g->a_items[ia];
            for (ib = g->b_start[c]; ib < g->b_start[c + 1]; ib++) {
                uint32_t j = g->b_items[ib];
                if (!xg__boxes_meet(g->a_box + 6 * (size_t)i,
                                    g->b_box + 6 * (size_t)j) ||
                    !xg__grid_owns(g, c, g->a_cell + 6 * (size_t)i,
                                   g->b_cell + 6 * (size_t)j))
                    continue;
                if (n == cap) {
                    uint32_t *p = realloc(v, 4 * cap * sizeof *v);
                    if (!p) {
                        free(v);
                        return XG_ENOMEM;
                    }
                    v = p;
                    cap *= 2;
                }
                v[2 * n] = i;
                v[2 * n + 1] = j;
                n++;
            }
        }
    }
    *pairs = v;
    *npairs = n;
    return XG_OK;
}

static int hits_append(struct hits *h, const struct xg_gpu_hit *v, size_t n)
{
    if (h->n + n > h->cap) {
        size_t cap = h->cap ? h->cap : 1024;
        struct xg_gpu_hit *p;
        while (cap < h->n + n)
            cap *= 2;
        p = realloc(h->v, cap * sizeof *p);
        if (!p)
            return XG_ENOMEM;
        h->v = p;
        h->cap = cap;
    }
    memcpy(h->v + h->n, v, n * sizeof *v);
    h->n += n;
    return XG_OK;
}

static double event_seconds(cudaEvent_t *ev)
{
    float ms = 0.0f;
    if (cudaEventElapsedTime(&ms, ev[0], ev[1]) != cudaSuccess) {
        cudaGetLastError();
        return 0.0;
    }
    return 1e-3 * (double)ms;
}

/* The packed multi-block schedule of a batch already on the device: the
 * elements' records (float boxes relative to v->origin, low cells), the
 * tables from d_w (pairs per cell, ncell entries) and the candidates'
 * total, and room for the list the count pass builds. */
static int packed_setup(struct job *J, struct dev *d, struct xg_gpu_view *v,
                        struct xg_gpu_sched *sc, const uint64_t *d_w,
                        size_t ncell, uint64_t total)
{
    struct xg_ctx *ctx = J->ctx;
    void *p, *ra, *rb;
    uint32_t ncomp = 0;
    int rc;
    if ((rc = dev_alloc(ctx, d, &ra, (size_t)v->na * 32)) != XG_OK ||
        (rc = dev_alloc(ctx, d, &rb, (size_t)v->nb * 32)) != XG_OK ||
        (rc = xg__cuda_records(ctx, v->d_seg, v->d_a_cell, v->na, 2,
                               v->origin, ra, J->stream)) != XG_OK ||
        (rc = xg__cuda_records(ctx, v->d_tri, v->d_b_cell, v->nb, 3,
                               v->origin, rb, J->stream)) != XG_OK)
        return rc;
    v->d_a_rec = ra;
    v->d_b_rec = rb;
    if ((rc = dev_alloc(ctx, d, &p, (ncell ? ncell : 1) * sizeof(uint32_t))) !=
        XG_OK)
        return rc;
    sc->d_pcell = p;
    if ((rc = dev_alloc(ctx, d, &p, (ncell + 1) * sizeof(uint64_t))) != XG_OK)
        return rc;
    sc->d_pw = p;
    if ((rc = dev_alloc(ctx, d, &p, (total / XG_GPU_PACK_PAIRS + 2) *
                                        sizeof(uint32_t))) != XG_OK)
        return rc;
    sc->d_bcell = p;
    sc->total = total;
    /* The list the count pass builds for the interval pass: room for
     * every candidate. */
    if ((rc = dev_alloc(ctx, d, &p, (total ? total : 1) * 2 *
                                        sizeof(uint32_t))) != XG_OK)
        return rc;
    sc->d_pairs = p;
    return xg__cuda_packed_tables(ctx, d_w, ncell, (uint32_t *)sc->d_pcell,
                                  (uint64_t *)sc->d_pw,
                                  (uint32_t *)sc->d_bcell, total, &ncomp,
                                  &sc->nblocks, J->stream);
}

/* The passes over one batch whose arrays are on the device (v, sc, in
 * d): count, interval (relaunched when the bound falls short), sort,
 * download into J->out; a_map / b_map (or NULL) renumber the hits.
 * SPLIT when the output would not fit the budget. */
static int run_passes(struct job *J, const struct xg_gpu_view *pv,
                      const struct xg_gpu_sched *psc, uint64_t in_bytes, size_t ncell, const uint32_t *a_map,
                      const uint32_t *b_map)
{
    struct xg_ctx *ctx = J->ctx;
    struct xg_stats *st = J->st;
    struct xg_gpu_opts *go = J->go;
    cudaStream_t s = J->stream;
    struct dev d = {{0}, 0};
    struct xg_gpu_view v = *pv;
    struct xg_gpu_sched sc = *psc;
    unsigned long long h_count[4], h_n, h_n2[2], h_n_done = 0;
    cudaEvent_t ev[2] = {NULL, NULL};
    void *p;
    struct xg_gpu_hit *d_hit = NULL, *d_sorted = NULL, *h_hit = NULL;
    unsigned long long *d_count = NULL;
    size_t k, tmp_bytes = 0;
    uint64_t cap, need;
    double t0 = xg__now(), t1;
    int rc;

    if ((rc = dev_alloc(ctx, &d, &p, 5 * sizeof h_n)) != XG_OK)
        goto out;
    d_count = p;
    /* Events around the kernels alone, for the floor comparison. */
    if (cudaEventCreate(&ev[0]) != cudaSuccess ||
        cudaEventCreate(&ev[1]) != cudaSuccess) {
        rc = xg__error(ctx, XG_EGPU, "%s:%d: events: %s", __FILE__, __LINE__,
                       cudaGetErrorString(cudaGetLastError()));
        goto out;
    }
    /* Count pass: an estimate from above of the output. */
    if (cudaMemsetAsync(d_count, 0, 4 * sizeof h_n, s) != cudaSuccess ||
        cudaEventRecord(ev[0], s) != cudaSuccess ||
        (rc = xg__cuda_count(ctx, go->strategy, &v, &sc, d_count, s)) ||
        cudaEventRecord(ev[1], s) != cudaSuccess ||
        cudaMemcpyAsync(h_count, d_count, 4 * sizeof h_n,
                        cudaMemcpyDeviceToHost, s) != cudaSuccess ||
        cudaStreamSynchronize(s) != cudaSuccess) {
        if (rc == XG_OK)
            rc = xg__error(ctx, XG_EGPU, "%s:%d: count pass: %s", __FILE__,
                           __LINE__, cudaGetErrorString(cudaGetLastError()));
        goto out;
    }
    t1 = xg__now();
    go->count_seconds += t1 - t0;
    go->count_kernel_seconds += event_seconds(ev);
    st->seconds[XG_STAGE_INTERSECT] += t1 - t0;
    if (go->strategy == XG_GPU_PACKED)
        sc.npairs = h_count[3];         /* the list the count pass built */
    go->count_bound += h_count[0];
    go->not_owned += h_count[1];
    st->bbox_pairs += h_count[2];
    if (go->slack < 0)
        cap = 1;
    else
        cap = (uint64_t)((double)h_count[0] *
                         (1.0 + (go->slack > 0 ? go->slack : 0.05))) + 16;

    for (;;) {
        /* Room for the hits, their sorted copy and the sort's scratch. */
        need = in_bytes + cap * XG_GPU_HIT_BYTES;
        if (need > J->budget && ncell > 1 &&
            (go->strategy == XG_GPU_MULTI || go->strategy == XG_GPU_PACKED)) {
            rc = SPLIT;
            goto out;
        }
        if (cap > UINT32_MAX) {
            rc = xg__error(ctx, XG_ELIMIT, "more than 2^32 GPU hits in one "
                           "batch");
            goto out;
        }
        if ((rc = dev_alloc(ctx, &d, &p, cap * sizeof *d_hit)) != XG_OK)
            goto out;
        d_hit = p;
        if (cudaMemsetAsync(d_count + 3, 0, 2 * sizeof h_n, s) != cudaSuccess ||
            cudaEventRecord(ev[0], s) != cudaSuccess ||
            (rc = xg__cuda_intersect(ctx, go->strategy, &v, &sc, d_hit, cap,
                                     d_count + 3, s)) ||
            cudaEventRecord(ev[1], s) != cudaSuccess ||
            cudaMemcpyAsync(h_n2, d_count + 3, sizeof h_n2,
                            cudaMemcpyDeviceToHost, s) != cudaSuccess ||
            cudaStreamSynchronize(s) != cudaSuccess) {
            if (rc == XG_OK)
                rc = xg__error(ctx, XG_EGPU, "%s:%d: interval pass: %s",
                               __FILE__, __LINE__,
                               cudaGetErrorString(cudaGetLastError()));
            goto out;
        }
        h_n = h_n2[0];
        if (h_n <= cap) {
            go->interval_kernel_seconds += event_seconds(ev);
            go->plane_crossings += h_n2[1];
            break;
        }
        /* The estimate fell short: room for all of them, and again. */
        cudaFree(d_hit);
        d.p[--d.n] = NULL;
        d_hit = NULL;
        cap = h_n;
        go->relaunches++;
    }
    t0 = xg__now();
    go->interval_seconds += t0 - t1;
    st->seconds[XG_STAGE_INTERSECT] += t0 - t1;
    go->hits += h_n;

    /* The points the double enclosure left, in double-double. */
    if (cudaMemsetAsync(d_count, 0, sizeof h_n, s) != cudaSuccess ||
        (rc = xg__cuda_refine(ctx, &v, d_hit, (uint32_t)h_n, d_count, s)) ||
        cudaMemcpyAsync(&h_n_done, d_count, sizeof h_n_done,
                        cudaMemcpyDeviceToHost, s) != cudaSuccess ||
        cudaStreamSynchronize(s) != cudaSuccess) {
        if (rc == XG_OK)
            rc = xg__error(ctx, XG_EGPU, "%s:%d: refine: %s", __FILE__,
                           __LINE__, cudaGetErrorString(cudaGetLastError()));
        goto out;
    }
    go->refined += h_n_done;
    t1 = xg__now();
    st->seconds[XG_STAGE_EXACT] += t1 - t0;
    t0 = t1;

    /* Order on the device. */
    if ((rc = xg__cuda_sort_hits(ctx, d_hit, NULL, (uint32_t)h_n, NULL,
                                 &tmp_bytes, s)) != XG_OK ||
        (rc = dev_alloc(ctx, &d, &p, h_n * sizeof *d_hit)) != XG_OK)
        goto out;
    d_sorted = p;
    if ((rc = dev_alloc(ctx, &d, &p, tmp_bytes)) != XG_OK ||
        (rc = xg__cuda_sort_hits(ctx, d_hit, d_sorted, (uint32_t)h_n, p,
                                 &tmp_bytes, s)) != XG_OK)
        goto out;
    if (cudaStreamSynchronize(s) != cudaSuccess) {
        rc = xg__error(ctx, XG_EGPU, "%s:%d: sort: %s", __FILE__, __LINE__,
                       cudaGetErrorString(cudaGetLastError()));
        goto out;
    }
    t1 = xg__now();
    st->seconds[XG_STAGE_UNIQUE] += t1 - t0;

    /* Download the sparse list: straight into the job's array when it
     * is empty (one batch), else beside it. */
    h_hit = xg__big_alloc((h_n ? h_n : 1) * sizeof *h_hit);
    if (!h_hit) {
        rc = xg__error(ctx, XG_ENOMEM, "out of memory for the GPU hits");
        goto out;
    }
    if (h_n && cudaMemcpy(h_hit, d_sorted, h_n * sizeof *h_hit,
                          cudaMemcpyDeviceToHost) != cudaSuccess) {
        rc = xg__error(ctx, XG_EGPU, "%s:%d: download: %s", __FILE__, __LINE__,
                       cudaGetErrorString(cudaGetLastError()));
        goto out;
    }
    if (a_map)
        for (k = 0; k < h_n; k++) {
            h_hit[k].a = a_map[h_hit[k].a];
            h_hit[k].b = b_map[h_hit[k].b];
        }
    if (J->out.n == 0) {
        free(J->out.v);
        J->out.v = h_hit;
        J->out.n = h_n;
        J->out.cap = h_n ? h_n : 1;
        h_hit = NULL;
    } else if (hits_append(&J->out, h_hit, h_n) != XG_OK) {
        rc = xg__error(ctx, XG_ENOMEM, "out of memory for the GPU hits");
    }
    st->seconds[XG_STAGE_DOWNLOAD] += xg__now() - t1;
    go->batches++;
out:
    if (ev[0])
        cudaEventDestroy(ev[0]);
    if (ev[1])
        cudaEventDestroy(ev[1]);
    free(h_hit);
    dev_free(&d);
    return rc;
}

static int run_batch(struct job *J, const struct hbatch *hb)
{
    struct xg_ctx *ctx = J->ctx;
    struct xg_stats *st = J->st;
    struct xg_gpu_opts *go = J->go;
    cudaStream_t s = J->stream;
    struct dev d = {{0}, 0};
    struct xg_gpu_view v;
    struct xg_gpu_sched sc;
    struct xg_blocks bt = {0};
    uint32_t *pairs = NULL;
    size_t ncell = hb->c1 - hb->c0, k;
    uint64_t in_bytes;
    double t0 = xg__now(), t1;
    int rc = XG_OK;

    memset(&v, 0, sizeof v);
    memset(&sc, 0, sizeof sc);
    if (go->strategy == XG_GPU_PACKED &&
        (J->g->n[0] > XG_GPU_PACK_MAX_XY || J->g->n[1] > XG_GPU_PACK_MAX_XY))
        go->strategy = XG_GPU_MULTI;        /* records cannot hold x, y */
    /* Schedule, on the CPU. */
    if (go->strategy == XG_GPU_MULTI) {
        rc = xg__blocks_build(hb->a_start, hb->b_start, 0, ncell,
                              XG_GPU_THREADS, &bt);
        if (rc != XG_OK)
            return xg__error(ctx, rc, "out of memory for the block tables");
        for (k = 0; k < bt.n; k++)
            bt.cell[k] += (uint32_t)hb->c0;
        sc.nblocks = bt.n;
    } else if (go->strategy == XG_GPU_LIST) {
        if ((rc = build_pairs(J->g, &pairs, &sc.npairs)) != XG_OK)
            return xg__error(ctx, rc, "out of memory for the list of pairs");
    }
    t1 = xg__now();
    st->seconds[XG_STAGE_PREPARE] += t1 - t0;

    /* Upload. */
    v.c0 = (uint32_t)hb->c0;
    v.c1 = (uint32_t)hb->c1;
    v.na = hb->na;
    v.nb = hb->nb;
    for (k = 0; k < 3; k++) {
        v.n[k] = J->g->n[k];
        v.origin[k] = J->g->lo[k];
    }
    in_bytes = (uint64_t)hb->na * 6 * 12 + (uint64_t)hb->nb * (9 * 8 + 24) +
               (uint64_t)(ncell + 1) * 8 +
               4 * (uint64_t)(hb->a_start[ncell] + hb->b_start[ncell]) +
               bt.n * 20 + sc.npairs * 8;
#define UP(dst, src, bytes)                                              \
    if (rc == XG_OK)                                                     \
        rc = dev_up(ctx, &d, (const void **)&(dst), (src), (bytes), s)
    UP(v.d_seg, hb->seg, (size_t)hb->na * 6 * sizeof(double));
    UP(v.d_tri, hb->tri, (size_t)hb->nb * 9 * sizeof(double));
    UP(v.d_a_cell, hb->a_cell, (size_t)hb->na * 6 * sizeof(int32_t));
    UP(v.d_b_cell, hb->b_cell, (size_t)hb->nb * 6 * sizeof(int32_t));
    UP(v.d_a_start, hb->a_start, (ncell + 1) * sizeof(uint32_t));
    UP(v.d_b_start, hb->b_start, (ncell + 1) * sizeof(uint32_t));
    UP(v.d_a_items, hb->a_items, (size_t)hb->a_start[ncell] * 4);
    UP(v.d_b_items, hb->b_items, (size_t)hb->b_start[ncell] * 4);
    UP(sc.d_cell, bt.cell, bt.n * sizeof(uint32_t));
    UP(sc.d_first, bt.first, bt.n * sizeof(uint64_t));
    UP(sc.d_last, bt.last, bt.n * sizeof(uint64_t));
    UP(sc.d_pairs, pairs, (size_t)sc.npairs * 2 * sizeof(uint32_t));
#undef UP
    if (rc == XG_OK && cudaStreamSynchronize(s) != cudaSuccess)
        rc = xg__error(ctx, XG_EGPU, "%s:%d: upload: %s", __FILE__, __LINE__,
                       cudaGetErrorString(cudaGetLastError()));
    xg__blocks_free(&bt);
    free(pairs);
    st->seconds[XG_STAGE_UPLOAD] += xg__now() - t1;
    if (rc != XG_OK)
        goto out;
    if (go->strategy == XG_GPU_PACKED) {
        uint64_t *d_w, *d_off, cand = 0, nbl = 0;
        void *p;
        t1 = xg__now();
        if ((rc = dev_alloc(ctx, &d, &p, (ncell ? ncell : 1) * 8)) != XG_OK)
            goto out;
        d_w = p;
        if ((rc = dev_alloc(ctx, &d, &p, (ncell ? ncell : 1) * 8)) != XG_OK)
            goto out;
        d_off = p;
        if ((rc = xg__cuda_blocks(ctx, v.d_a_start, v.d_b_start, ncell,
                                  XG_GPU_THREADS, d_w, d_off, &cand, &nbl,
                                  s)) != XG_OK ||
            (rc = packed_setup(J, &d, &v, &sc, d_w, ncell, cand)) != XG_OK)
            goto out;
        in_bytes += (uint64_t)(hb->na + hb->nb) * 32 + (uint64_t)ncell * 28 +
                    (cand / XG_GPU_PACK_PAIRS + 2) * 4 + cand * 8;
        st->seconds[XG_STAGE_PREPARE] += xg__now() - t1;
    }
    rc = run_passes(J, &v, &sc, in_bytes, ncell, hb->a_map, hb->b_map);
out:
    xg__blocks_free(&bt);
    dev_free(&d);
    return rc;
}

/* ---- the whole input prepared on the device ---- */

/* Host to device through pinned staging, kept in the context (pinning
 * memory costs milliseconds, and users rerun jobs): each of up to
 * STAGE_THREADS threads copies its chunks into its own two pinned slots
 * and queues their transfer on its own stream, so the CPU copies and the
 * bus overlap, at the bus's rate rather than the driver's pageable
 * path. */
#define STAGE_CHUNK ((size_t)4 << 20)
#define STAGE_THREADS 8

struct stage {
    char *buf;                          /* STAGE_THREADS x 2 slots */
    cudaStream_t st[STAGE_THREADS];
    cudaEvent_t ev[STAGE_THREADS][2];
};

static void stage_free(void *p)
{
    struct stage *sg = p;
    int t;
    if (!sg)
        return;
    for (t = 0; t < STAGE_THREADS; t++) {
        if (sg->ev[t][0])
            cudaEventDestroy(sg->ev[t][0]);
        if (sg->ev[t][1])
            cudaEventDestroy(sg->ev[t][1]);
        if (sg->st[t])
            cudaStreamDestroy(sg->st[t]);
    }
    if (sg->buf)
        cudaFreeHost(sg->buf);
    free(sg);
}

/* The context's staging, made on first use; freed by xg_ctx_free. */
static int stage_get(struct xg_ctx *ctx, struct stage **out)
{
    struct stage *sg = ctx->gpu;
    int t;
    if (sg) {
        *out = sg;
        return XG_OK;
    }
    if (!(sg = calloc(1, sizeof *sg)))
        return xg__error(ctx, XG_ENOMEM, "out of memory for GPU staging");
    if (cudaHostAlloc((void **)&sg->buf, 2 * STAGE_THREADS * STAGE_CHUNK,
                      cudaHostAllocDefault) != cudaSuccess)
        goto fail;
    for (t = 0; t < STAGE_THREADS; t++)
        if (cudaStreamCreateWithFlags(&sg->st[t], cudaStreamNonBlocking) !=
                cudaSuccess ||
            cudaEventCreateWithFlags(&sg->ev[t][0], cudaEventDisableTiming) !=
                cudaSuccess ||
            cudaEventCreateWithFlags(&sg->ev[t][1], cudaEventDisableTiming) !=
                cudaSuccess)
            goto fail;
    ctx->gpu = sg;
    ctx->gpu_free = stage_free;
    *out = sg;
    return XG_OK;
fail:
    stage_free(sg);
    return xg__error(ctx, XG_EGPU, "%s:%d: pinned staging: %s", __FILE__,
                     __LINE__, cudaGetErrorString(cudaGetLastError()));
}

struct stage_copy {
    struct stage *sg;
    char *dst;
    const char *src;
    size_t n;
    int nthreads;
    cudaError_t err[STAGE_THREADS];
};

/* Thread tid takes chunks tid, tid + nthreads, ... in its two slots;
 * done when its stream has moved them all. */
static void stage_worker(void *arg, int tid)
{
    struct stage_copy *c = arg;
    struct stage *sg = c->sg;
    size_t off, step = (size_t)c->nthreads * STAGE_CHUNK;
    int k = 0, used[2] = {0, 0};
    cudaError_t e = cudaSuccess;
    for (off = (size_t)tid * STAGE_CHUNK; off < c->n && e == cudaSuccess;
         off += step, k ^= 1) {
        char *slot = sg->buf + (size_t)(2 * tid + k) * STAGE_CHUNK;
        size_t len = c->n - off < STAGE_CHUNK ? c->n - off : STAGE_CHUNK;
        if (used[k] && (e = cudaEventSynchronize(sg->ev[tid][k])) !=
                           cudaSuccess)
            break;
        memcpy(slot, c->src + off, len);
        if ((e = cudaMemcpyAsync(c->dst + off, slot, len,
                                 cudaMemcpyHostToDevice, sg->st[tid])) ==
            cudaSuccess)
            e = cudaEventRecord(sg->ev[tid][k], sg->st[tid]);
        used[k] = 1;
    }
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(sg->st[tid]);
    c->err[tid] = e;
}

/* Copies bytes from src to d_dst; complete on return. */
static int stage_up(struct xg_ctx *ctx, void *d_dst, const void *src,
                    size_t bytes)
{
    struct stage *sg = NULL;
    struct stage_copy c;
    size_t nchunk = (bytes + STAGE_CHUNK - 1) / STAGE_CHUNK;
    int t, rc;
    if (bytes == 0)
        return XG_OK;
    if ((rc = stage_get(ctx, &sg)) != XG_OK)
        return rc;
    memset(&c, 0, sizeof c);
    c.sg = sg;
    c.dst = d_dst;
    c.src = src;
    c.n = bytes;
    c.nthreads = xg__threads(ctx) < STAGE_THREADS ? xg__threads(ctx)
                                                 : STAGE_THREADS;
    if ((size_t)c.nthreads > nchunk)
        c.nthreads = (int)nchunk;
    if ((rc = xg__parallel(c.nthreads, stage_worker, &c)) != XG_OK)
        return xg__error(ctx, rc, "cannot start threads");
    for (t = 0; t < c.nthreads; t++)
        if (c.err[t] != cudaSuccess)
            return xg__error(ctx, XG_EGPU, "%s:%d: upload: %s", __FILE__,
                             __LINE__, cudaGetErrorString(c.err[t]));
    return XG_OK;
}

/* The triangles the device could not certify non-degenerate, decided
 * exactly on the host (xg__tri_is_degenerate, as the CPU engines). */
static int screen_flagged(struct job *J, double *d_bbox, uint32_t *d_flag,
                          uint64_t nflag, struct dev *d)
{
    struct xg_ctx *ctx = J->ctx;
    uint32_t *h = malloc((nflag ? nflag : 1) * sizeof *h);
    uint64_t k, nbad = 0;
    void *p;
    int rc = XG_OK;
    if (!h)
        return xg__error(ctx, XG_ENOMEM, "out of memory for flagged "
                         "triangles");
    if (nflag && cudaMemcpy(h, d_flag, nflag * sizeof *h,
                            cudaMemcpyDeviceToHost) != cudaSuccess) {
        free(h);
        return xg__error(ctx, XG_EGPU, "%s:%d: flagged triangles: %s",
                         __FILE__, __LINE__,
                         cudaGetErrorString(cudaGetLastError()));
    }
    for (k = 0; k < nflag; k++)
        if (xg__tri_is_degenerate(&J->st->cnt, J->b->xyz + 9 * (size_t)h[k]))
            h[nbad++] = h[k];
    J->st->b_skipped += nbad;
    if (nbad) {
        rc = dev_alloc(ctx, d, &p, nbad * sizeof *h);
        if (rc == XG_OK &&
            cudaMemcpyAsync(p, h, nbad * sizeof *h, cudaMemcpyHostToDevice,
                            J->stream) != cudaSuccess)
            rc = xg__error(ctx, XG_EGPU, "%s:%d: degenerate triangles: %s",
                           __FILE__, __LINE__,
                           cudaGetErrorString(cudaGetLastError()));
        if (rc == XG_OK)
            rc = xg__cuda_clear_boxes(ctx, d_bbox, p, (uint32_t)nbad,
                                      J->stream);
        if (rc == XG_OK && cudaStreamSynchronize(J->stream) != cudaSuccess)
            rc = xg__error(ctx, XG_EGPU, "%s:%d: degenerate triangles: %s",
                           __FILE__, __LINE__,
                           cudaGetErrorString(cudaGetLastError()));
    }
    free(h);
    return rc;
}

/* Only the coordinates travel: boxes, degenerate screening, the grid
 * (the shared device grid) and the block tables are built on the
 * device, then the passes run as for a batch.  SPLIT when the output
 * does not fit: the caller starts over on the host-prepared path. */
static int device_run(struct job *J, const struct xg_opts *opt)
{
    struct xg_ctx *ctx = J->ctx;
    struct xg_stats *st = J->st;
    cudaStream_t s = J->stream;
    const struct xg_segs *a = J->a;
    const struct xg_tris *b = J->b;
    uint32_t na = (uint32_t)a->n, nb = (uint32_t)b->n;
    struct dev d = {{0}, 0};
    struct xg_dgrid dg;
    struct xg_gpu_view v;
    struct xg_gpu_sched sc;
    double *d_seg, *d_tri, *d_abox, *d_bbox;
    uint32_t *d_flag;
    uint64_t *d_w, *d_off, nblocks = 0, in_bytes;
    unsigned long long *d_counts, h_counts[2];
    double t0 = xg__now(), t1;
    void *p;
    int k, rc;

    memset(&dg, 0, sizeof dg);
    memset(&v, 0, sizeof v);
    memset(&sc, 0, sizeof sc);
#define ALLOC(dst, bytes)                                                  \
    do {                                                                   \
        if ((rc = dev_alloc(ctx, &d, &p, (bytes))) != XG_OK)               \
            goto out;                                                      \
        (dst) = p;                                                         \
    } while (0)
    ALLOC(d_seg, (size_t)na * 6 * sizeof(double));
    ALLOC(d_tri, (size_t)nb * 9 * sizeof(double));
    if ((rc = stage_up(ctx, d_seg, a->xyz, (size_t)na * 48)) != XG_OK ||
        (rc = stage_up(ctx, d_tri, b->xyz, (size_t)nb * 72)) != XG_OK)
        goto out;
    if (cudaStreamSynchronize(s) != cudaSuccess) {
        rc = xg__error(ctx, XG_EGPU, "%s:%d: upload: %s", __FILE__, __LINE__,
                       cudaGetErrorString(cudaGetLastError()));
        goto out;
    }
    t1 = xg__now();
    st->seconds[XG_STAGE_UPLOAD] += t1 - t0;

    /* Boxes and degenerate elements. */
    ALLOC(d_abox, (size_t)na * 6 * sizeof(double));
    ALLOC(d_bbox, (size_t)nb * 6 * sizeof(double));
    ALLOC(d_flag, (size_t)nb * sizeof(uint32_t));
    ALLOC(d_counts, 2 * sizeof(unsigned long long));
    if (cudaMemsetAsync(d_counts, 0, 2 * sizeof *h_counts, s) !=
            cudaSuccess ||
        (rc = xg__cuda_segtri_boxes(ctx, d_seg, na, d_tri, nb, d_abox, d_bbox,
                                    d_counts, d_flag, s)) != XG_OK ||
        cudaMemcpyAsync(h_counts, d_counts, sizeof h_counts,
                        cudaMemcpyDeviceToHost, s) != cudaSuccess ||
        cudaStreamSynchronize(s) != cudaSuccess) {
        if (rc == XG_OK)
            rc = xg__error(ctx, XG_EGPU, "%s:%d: boxes: %s", __FILE__,
                           __LINE__, cudaGetErrorString(cudaGetLastError()));
        goto out;
    }
    st->a_skipped += h_counts[0];
    if ((rc = screen_flagged(J, d_bbox, d_flag, h_counts[1], &d)) != XG_OK)
        goto out;

    /* The grid, then the pairs and blocks of every cell. */
    if ((rc = xg__cuda_grid_build(ctx, d_abox, na, d_bbox, nb, opt->grid,
                                  &dg, s)) != XG_OK)
        goto out;
    for (k = 0; k < 3; k++)
        st->grid[k] = dg.n[k];
    st->grid_refs_a = dg.refs[0];
    st->grid_refs_b = dg.refs[1];
    ALLOC(d_w, dg.ncell * sizeof(uint64_t));
    ALLOC(d_off, dg.ncell * sizeof(uint64_t));
    if ((rc = xg__cuda_blocks(ctx, dg.d_a_start, dg.d_b_start, dg.ncell,
                              XG_GPU_THREADS, d_w, d_off, &st->candidates,
                              &nblocks, s)) != XG_OK)
        goto out;
    v.d_seg = d_seg;
    v.d_tri = d_tri;
    v.na = na;
    v.nb = nb;
    for (k = 0; k < 3; k++)
        v.origin[k] = dg.lo[k];
    v.d_a_cell = dg.d_a_cell;
    v.d_b_cell = dg.d_b_cell;
    v.n[0] = dg.n[0];
    v.n[1] = dg.n[1];
    v.n[2] = dg.n[2];
    if (J->go->strategy == XG_GPU_PACKED &&
        (dg.n[0] > XG_GPU_PACK_MAX_XY || dg.n[1] > XG_GPU_PACK_MAX_XY))
        J->go->strategy = XG_GPU_MULTI;     /* records cannot hold x, y */
    if (J->go->strategy == XG_GPU_PACKED &&
        (rc = packed_setup(J, &d, &v, &sc, d_w, dg.ncell,
                           st->candidates)) != XG_OK)
        goto out;
    if (J->go->strategy == XG_GPU_MULTI) {
        ALLOC(sc.d_cell, nblocks * sizeof(uint32_t));
        ALLOC(sc.d_first, nblocks * sizeof(uint64_t));
        ALLOC(sc.d_last, nblocks * sizeof(uint64_t));
        sc.nblocks = nblocks;
        if ((rc = xg__cuda_tables(ctx, d_w, d_off, dg.ncell, nblocks,
                                  XG_GPU_THREADS, (uint32_t *)sc.d_cell,
                                  (uint64_t *)sc.d_first,
                                  (uint64_t *)sc.d_last, s)) != XG_OK)
            goto out;
    }
#undef ALLOC
    if (cudaStreamSynchronize(s) != cudaSuccess) {
        rc = xg__error(ctx, XG_EGPU, "%s:%d: preparation: %s", __FILE__,
                       __LINE__, cudaGetErrorString(cudaGetLastError()));
        goto out;
    }
    st->seconds[XG_STAGE_PREPARE] += xg__now() - t1;
    if (st->candidates == 0)
        goto out;

    v.d_seg = d_seg;
    v.d_tri = d_tri;
    v.d_a_cell = dg.d_a_cell;
    v.d_b_cell = dg.d_b_cell;
    v.d_a_start = dg.d_a_start;
    v.d_a_items = dg.d_a_items;
    v.d_b_start = dg.d_b_start;
    v.d_b_items = dg.d_b_items;
    v.c0 = 0;
    v.c1 = (uint32_t)dg.ncell;
    v.na = na;
    v.nb = nb;
    for (k = 0; k < 3; k++) {
        v.n[k] = dg.n[k];
        v.origin[k] = dg.lo[k];
    }
    in_bytes = (uint64_t)na * (6 * 8 * 2 + 24) + (uint64_t)nb * (9 * 8 + 48 +
                                                                 24 + 4) +
               (uint64_t)dg.ncell * 24 + 4 * (dg.refs[0] + dg.refs[1]) +
               nblocks * 20;
    if (J->go->strategy == XG_GPU_PACKED)
        in_bytes += (uint64_t)(na + nb) * 32 + (uint64_t)dg.ncell * 12 +
                    (st->candidates / XG_GPU_PACK_PAIRS + 2) * 4 +
                    st->candidates * 8;
    rc = run_passes(J, &v, &sc, in_bytes, dg.ncell, NULL, NULL);
out:
    xg__cuda_grid_free(&dg);
    dev_free(&d);
    return rc;
}

/* Cells c0..c1-1 gathered into a batch of their own; halved when the
 * output does not fit. */
static int run_range(struct job *J, size_t c0, size_t c1)
{
    struct xg_gpu_batch gb;
    struct hbatch hb;
    double t0 = xg__now();
    int rc = xg__gpu_batch_gather(J->g, J->a->xyz, J->b->xyz, c0, c1, &gb);
    if (rc != XG_OK)
        return xg__error(J->ctx, rc, "out of memory gathering a GPU batch");
    J->st->seconds[XG_STAGE_PREPARE] += xg__now() - t0;
    hb.c0 = c0;
    hb.c1 = c1;
    hb.na = gb.na;
    hb.nb = gb.nb;
    hb.seg = gb.seg;
    hb.tri = gb.tri;
    hb.a_cell = gb.a_cell;
    hb.b_cell = gb.b_cell;
    hb.a_start = gb.a_start;
    hb.a_items = gb.a_items;
    hb.b_start = gb.b_start;
    hb.b_items = gb.b_items;
    hb.a_map = gb.a_map;
    hb.b_map = gb.b_map;
    J->gathered = 1;
    rc = run_batch(J, &hb);
    xg__gpu_batch_free(&gb);
    if (rc == SPLIT) {
        size_t mid = c0 + (c1 - c0) / 2;
        rc = run_range(J, c0, mid);
        if (rc == XG_OK)
            rc = run_range(J, mid, c1);
    }
    return rc;
}

static int cmp_hit(const void *x, const void *y)
{
    const struct xg_gpu_hit *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

/* The hits to contacts, on the CPU threads, in two passes over
 * contiguous ranges, so the (a, b) order survives with no compaction:
 * the first decides the deferred hits (GMP) into a per-thread list and
 * counts what each range keeps; the second writes every contact once, at
 * its final place, rounding the points the device left (long double
 * stage, then GMP). */
struct fin_thread {
    struct xg_counters cnt;
    uint64_t deferred, construct, kept, kinds[XG_KIND_COUNT];
    double exact_s;
    struct xg_contact *side;    /* the deferred hits, in order */
    uint8_t *side_keep;
    size_t nside, side_cap, off;
    int rc;
    char pad[64];
};

struct fin {
    struct job *J;
    struct xg_contact *ct;
    struct fin_thread *t;
    int nthreads;
};

static void decide_worker(void *arg, int tid)
{
    struct fin *f = arg;
    struct fin_thread *t = &f->t[tid];
    const struct job *J = f->J;
    size_t lo, hi, k;
    xg__share(J->out.n, f->nthreads, tid, &lo, &hi);
    for (k = lo; k < hi; k++) {
        const struct xg_gpu_hit *h = &J->out.v[k];
        struct xg_contact c;
        double t0;
        int hit;
        if (h->flag != XG_GPU_HIT_DEFER) {
            t->kept++;
            continue;
        }
        if (t->nside == t->side_cap) {
            size_t cap = t->side_cap ? 2 * t->side_cap : 256;
            void *p = realloc(t->side, cap * sizeof *t->side);
            void *q = realloc(t->side_keep, cap);
            if (p)
                t->side = p;
            if (q)
                t->side_keep = q;
            if (!p || !q) {
                t->rc = XG_ENOMEM;
                return;
            }
            t->side_cap = cap;
        }
        memset(&c, 0, sizeof c);
        t0 = xg__now();
        t->deferred++;
        hit = xg__segtri_exact(&t->cnt, J->a->xyz + 6 * (size_t)h->a,
                               J->b->xyz + 9 * (size_t)h->b, &c);
        t->exact_s += xg__now() - t0;
        t->side[t->nside] = c;
        t->side_keep[t->nside++] = (uint8_t)hit;
        t->kept += (uint64_t)hit;
    }
}

static void write_worker(void *arg, int tid)
{
    struct fin *f = arg;
    struct fin_thread *t = &f->t[tid];
    const struct job *J = f->J;
    size_t lo, hi, k, m = t->off, s = 0;
    xg__share(J->out.n, f->nthreads, tid, &lo, &hi);
    for (k = lo; k < hi; k++) {
        const struct xg_gpu_hit *h = &J->out.v[k];
        struct xg_contact *ct = &f->ct[m];
        if (h->flag == XG_GPU_HIT_DEFER) {
            if (!t->side_keep[s]) {
                s++;
                continue;
            }
            *ct = t->side[s++];
        } else {
            ct->kind = h->kind;
            ct->q[0] = ct->q[1] = ct->q[2] = 0.0;
            if (h->flag == XG_GPU_HIT_DONE || h->flag == XG_GPU_HIT_DONE_DD) {
                t->cnt.constructions++;
                t->cnt.construct_dd += h->flag == XG_GPU_HIT_DONE_DD;
                memcpy(ct->p, h->p, sizeof ct->p);
            } else {
                double t0 = xg__now();
                t->construct++;
                xg__segtri_construct(&t->cnt, J->a->xyz + 6 * (size_t)h->a,
                                     J->b->xyz + 9 * (size_t)h->b, ct->p);
                t->exact_s += xg__now() - t0;
            }
        }
        ct->a = h->a;
        ct->b = h->b;
        ct->pad = 0;
        if (ct->kind != XG_KIND_OVERLAP)
            ct->q[0] = ct->q[1] = ct->q[2] = 0.0;
        t->kinds[ct->kind]++;
        m++;
    }
}

static int finish(struct job *J, struct xg_contacts *out)
{
    struct xg_stats *st = J->st;
    struct fin f;
    size_t n = J->out.n, total = 0;
    double t0 = xg__now(), t_exact = 0.0;
    int t, k, rc = XG_OK;

    if (J->gathered)
        qsort(J->out.v, n, sizeof *J->out.v, cmp_hit);
    memset(&f, 0, sizeof f);
    f.J = J;
    f.nthreads = xg__threads(J->ctx);
    if ((size_t)f.nthreads > n / 1024 + 1)
        f.nthreads = (int)(n / 1024 + 1);
    f.t = calloc((size_t)f.nthreads, sizeof *f.t);
    if (!f.t)
        return xg__error(J->ctx, XG_ENOMEM, "out of memory for contacts");
    if ((rc = xg__parallel(f.nthreads, decide_worker, &f)) != XG_OK) {
        rc = xg__error(J->ctx, rc, "cannot start threads");
        goto out;
    }
    for (t = 0; t < f.nthreads; t++) {
        if (f.t[t].rc != XG_OK) {
            rc = xg__error(J->ctx, f.t[t].rc, "out of memory for contacts");
            goto out;
        }
        f.t[t].off = total;
        total += f.t[t].kept;
    }
    f.ct = xg__big_alloc((total ? total : 1) * sizeof *f.ct);
    if (!f.ct) {
        rc = xg__error(J->ctx, XG_ENOMEM, "out of memory for contacts");
        goto out;
    }
    if ((rc = xg__parallel(f.nthreads, write_worker, &f)) != XG_OK) {
        free(f.ct);
        rc = xg__error(J->ctx, rc, "cannot start threads");
        goto out;
    }
    for (t = 0; t < f.nthreads; t++) {
        xg_counters_add(&st->cnt, &f.t[t].cnt);
        st->deferred += f.t[t].deferred;
        J->go->construct_fail += f.t[t].construct;
        for (k = 0; k < XG_KIND_COUNT; k++)
            st->contacts[k] += f.t[t].kinds[k];
        if (f.t[t].exact_s > t_exact)
            t_exact = f.t[t].exact_s;  /* the slowest thread's GMP time */
    }
    free(out->v);
    out->v = f.ct;
    out->n = total;
    out->cap = total ? total : 1;
    st->seconds[XG_STAGE_EXACT] += t_exact;
    st->seconds[XG_STAGE_UNIQUE] += xg__now() - t0 - t_exact;
out:
    for (t = 0; t < f.nthreads; t++) {
        free(f.t[t].side);
        free(f.t[t].side_keep);
    }
    free(f.t);
    return rc;
}

int xg__gpu_segtri_ex(struct xg_ctx *ctx, const struct xg_segs *a,
                      const struct xg_tris *b, const struct xg_opts *opt,
                      struct xg_gpu_opts *gopt, struct xg_contacts *out,
                      struct xg_stats *st)
{
    struct job J;
    struct xg_grid g;
    double t0 = xg__now();
    size_t c, free_b = 0, total_b = 0;
    uint64_t full;
    int rc, have_grid = 0;

    memset(&J, 0, sizeof J);
    memset(&g, 0, sizeof g);
    out->n = 0;
    J.ctx = ctx;
    J.a = a;
    J.b = b;
    J.go = gopt;
    J.st = st;
    J.g = &g;
    gopt->count_bound = gopt->hits = gopt->relaunches = gopt->batches = 0;
    gopt->not_owned = gopt->construct_fail = gopt->refined = 0;
    gopt->plane_crossings = 0;
    gopt->count_seconds = gopt->interval_seconds = 0.0;
    gopt->count_kernel_seconds = gopt->interval_kernel_seconds = 0.0;
    gopt->device_prep = 0;
    if (gopt->strategy < 0 || gopt->strategy >= XG_GPU_NSTRAT)
        return xg__error(ctx, XG_EINVAL, "unknown GPU strategy %d",
                         gopt->strategy);

    if (cudaStreamCreateWithFlags(&J.stream, cudaStreamNonBlocking) !=
            cudaSuccess ||
        cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
        rc = xg__error(ctx, XG_EGPU, "%s:%d: cannot use the GPU: %s",
                       __FILE__, __LINE__,
                       cudaGetErrorString(cudaGetLastError()));
        goto done;
    }
    /* Leave the runtime some room; the cap is the caller's. */
    J.budget = free_b > ((uint64_t)512 << 20) ? free_b - ((uint64_t)512 << 20)
                                              : free_b / 2;
    if (opt->gpu_mem_cap && opt->gpu_mem_cap < J.budget)
        J.budget = opt->gpu_mem_cap;

    /* Preparation on the device when the whole input, its boxes and a
     * grid of about one cell and a few references per element take at
     * most half the budget (the list strategy is built on the CPU by
     * definition).  Otherwise, or when the output turns out not to fit,
     * the host prepares and the cells go in batches. */
    full = (uint64_t)a->n * (6 * 8 * 2 + 24 + 32 + 64) +
           (uint64_t)b->n * (9 * 8 + 48 + 24 + 32 + 4 + 64) +
           (uint64_t)(opt->grid[0] > 0 && opt->grid[1] > 0 && opt->grid[2] > 0
                          ? (uint64_t)opt->grid[0] * (uint64_t)opt->grid[1] *
                                (uint64_t)opt->grid[2]
                          : a->n + b->n) * 60;
    if (gopt->strategy != XG_GPU_LIST && full <= J.budget / 2 &&
        a->n < UINT32_MAX && b->n < UINT32_MAX) {
        struct xg_stats st0 = *st;
        struct xg_gpu_opts go0 = *gopt;
        rc = device_run(&J, opt);
        if (rc != SPLIT) {
            gopt->device_prep = 1;
            if (rc == XG_OK && st->candidates)
                rc = finish(&J, out);
            goto done;
        }
        /* Start over, prepared on the host. */
        *st = st0;
        *gopt = go0;
        free(J.out.v);
        memset(&J.out, 0, sizeof J.out);
        t0 = xg__now();
    }

    rc = xg__segtri_prepare(ctx, a, b, opt, xg__threads(ctx), &g, st);
    if (rc != XG_OK)
        goto done;
    have_grid = 1;
    for (c = 0; c < g.ncell; c++)
        st->candidates += (uint64_t)(g.a_start[c + 1] - g.a_start[c]) *
                          (g.b_start[c + 1] - g.b_start[c]);
    st->seconds[XG_STAGE_PREPARE] += xg__now() - t0;
    if (st->candidates == 0)
        goto done;

    /* Everything in one batch when the whole input takes at most half
     * the budget (the other half for the output): no gathering. */
    full = (uint64_t)a->n * 6 * 12 + (uint64_t)b->n * (9 * 8 + 24) +
           (uint64_t)(g.ncell + 1) * 8 +
           4 * (uint64_t)(g.a_start[g.ncell] + g.b_start[g.ncell]) +
           (st->candidates / XG_GPU_THREADS + g.ncell) * 20;
    if (full <= J.budget / 2) {
        struct hbatch hb;
        hb.c0 = 0;
        hb.c1 = g.ncell;
        hb.na = (uint32_t)a->n;
        hb.nb = (uint32_t)b->n;
        hb.seg = a->xyz;
        hb.tri = b->xyz;
        hb.a_cell = g.a_cell;
        hb.b_cell = g.b_cell;
        hb.a_start = g.a_start;
        hb.a_items = g.a_items;
        hb.b_start = g.b_start;
        hb.b_items = g.b_items;
        hb.a_map = hb.b_map = NULL;
        rc = run_batch(&J, &hb);
        if (rc == SPLIT)
            rc = run_range(&J, 0, g.ncell);
    } else if (gopt->strategy != XG_GPU_MULTI &&
               gopt->strategy != XG_GPU_PACKED) {
        rc = xg__error(ctx, XG_ENOMEM, "the %s strategy needs the whole "
                       "input on the GPU (%llu bytes, budget %llu); only the "
                       "multi-block strategy works in batches",
                       gopt->strategy == XG_GPU_LIST  ? "list-of-pairs"
                       : gopt->strategy == XG_GPU_SEG ? "segment-per-thread"
                                                      : "triangle-per-thread",
                       (unsigned long long)full,
                       (unsigned long long)J.budget);
    } else {
        size_t *bounds = NULL, nb = 0, i;
        double t1 = xg__now();
        rc = xg__gpu_plan_batches(&g, XG_GPU_THREADS, J.budget / 2, &bounds,
                                  &nb);
        st->seconds[XG_STAGE_PREPARE] += xg__now() - t1;
        for (i = 0; rc == XG_OK && i < nb; i++)
            rc = run_range(&J, bounds[i], bounds[i + 1]);
        free(bounds);
        if (rc == SPLIT)
            rc = xg__error(ctx, XG_ENOMEM, "GPU output does not fit");
    }
    if (rc == XG_OK)
        rc = finish(&J, out);
done:
    if (J.stream)
        cudaStreamDestroy(J.stream);
    free(J.out.v);
    if (have_grid)
        xg__grid_free(&g);
    return rc;
}

int xg__gpu_segtri(struct xg_ctx *ctx, const struct xg_segs *a,
                   const struct xg_tris *b, const struct xg_opts *opt,
                   struct xg_contacts *out, struct xg_stats *st)
{
    struct xg_gpu_opts go;
    memset(&go, 0, sizeof go);
    go.strategy = XG_GPU_PACKED;
    return xg__gpu_segtri_ex(ctx, a, b, opt, &go, out, st);
}
