/*
 * redblue_gpu.cu -- the GPU red/blue engines (xg__gpu_redblue).
 *
 * XG__RB_PAPER, the paper's method (section 11.3.4): the uniform grid is
 * built on the CPU (xg__grid_build), every pair of an A and a B segment
 * sharing a cell goes into an array, the array goes to the GPU, one
 * thread evaluates one pair with the interval filter, and duplicates
 * (pairs met in several cells) are removed at the end.
 *
 * XG__RB_GPU, ours: only the segments travel.  The GPU computes the boxes,
 * builds the grid (count, scan, fill, sort by cell), numbers the pairs of
 * every cell in one global index space (a scan of |A_c| |B_c|), and one
 * thread takes one pair: box test, the ownership rule of the CPU engines
 * (so no pair is evaluated twice and no de-duplication is needed), then
 * the filter.  Hits are sorted by (a, b) on the GPU.
 *
 * Both: the filter is xg_redblue_fast and the point xg_lerp_fast, the
 * very formulas of the CPU engines (src/xg_filters.h), with directed
 * rounding.  What the GPU cannot certify (a deferred pair, a point its
 * interval cannot round) comes back flagged and is decided on the CPU by
 * xg__redblue_exact, on all threads, in place, so the order stays.
 */
#include <cuda_runtime.h>
#include <thrust/binary_search.h>
#include <thrust/count.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>
#include <vector>
#include <gmp.h>        /* before extern "C": its C++ part needs C++ linkage */

extern "C" {
#include "xg_internal.h"
#include "xg_thread.h"
}

#define CUDA_TRY(call)                                                     \
    do {                                                                   \
        cudaError_t e_ = (call);                                           \
        if (e_ != cudaSuccess) {                                           \
            rc = xg__error(ctx, XG_EGPU, "%s:%d: %s", __FILE__, __LINE__,  \
                           cudaGetErrorString(e_));                        \
            goto done;                                                     \
        }                                                                  \
    } while (0)

/* One hit or doubt, 32 bytes.  flag: 1 proper with a certified point,
 * 2 proper whose point needs exact rounding, 3 deferred pair, 4 touch at
 * (x, y), 5 overlap (its stretch: input endpoints, found again on the
 * host by the same classification). */
struct rec {
    uint32_t a, b;
    int32_t flag, pad;
    double x, y;
};

struct box4 {
    double lo[2], hi[2];
};

struct grid2 {
    int n[2];
    double lo[2], inv[2];
};

__device__ static int cell_of(const grid2 &g, int k, double x)
{
    /* The same monotone formula as xg__cell_of. */
    double f = (x - g.lo[k]) * g.inv[k];
    if (!(f > 0.0))
        return 0;
    if (f >= (double)g.n[k])
        return g.n[k] - 1;
    return (int)f;
}

__device__ static void seg_box(const double *s, box4 &b)
{
    for (int k = 0; k < 2; k++) {
        b.lo[k] = fmin(s[k], s[3 + k]);
        b.hi[k] = fmax(s[k], s[3 + k]);
    }
}

__device__ static bool boxes_meet(const box4 &p, const box4 &q)
{
    return p.lo[0] <= q.hi[0] && q.lo[0] <= p.hi[0] && p.lo[1] <= q.hi[1] &&
           q.lo[1] <= p.hi[1];
}

/* The filter on one pair; appends a record unless it is a miss. */
__device__ static void eval_pair(const double *sa, const double *sb,
                                 uint32_t i, uint32_t j, rec *out,
                                 unsigned long long *count,
                                 unsigned long long cap)
{
    struct xg_iv t;
    double p[2] = {0.0, 0.0}, q[2];
    int r = xg_redblue_fast(sa, sa + 3, sb, sb + 3, &t, p, q);
    rec x;
    if (r == XG_REDBLUE_MISS)
        return;
    x.a = i;
    x.b = j;
    x.pad = 0;
    x.x = x.y = 0.0;
    if (r == XG_REDBLUE_PROPER) {
        x.flag = xg_lerp_fast(sa, sa + 3, t, 2, p) ? 1 : 2;
        x.x = p[0];
        x.y = p[1];
    } else if (r == XG_REDBLUE_TOUCH) {
        x.flag = 4;
        x.x = p[0];
        x.y = p[1];
    } else {
        x.flag = r == XG_REDBLUE_OVERLAP ? 5 : 3;
    }
    unsigned long long k = atomicAdd(count, 1ULL);
    if (k < cap)
        out[k] = x;
}

/* ---- the paper's: one thread per listed pair ---- */

__global__ static void k_list(const double *a, const double *b,
                              const uint2 *pairs, size_t np, rec *out,
                              unsigned long long *count,
                              unsigned long long cap)
{
    size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (k >= np)
        return;
    uint2 p = pairs[k];
    eval_pair(a + 6 * (size_t)p.x, b + 6 * (size_t)p.y, p.x, p.y, out, count,
              cap);
}

/* ---- ours ---- */

__global__ static void k_boxes(const double *s, uint32_t n, box4 *box)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    box4 b;
    const double *e = s + 6 * (size_t)i;
    if (e[0] == e[3] && e[1] == e[4]) {     /* zero length: no box */
        b.lo[0] = b.lo[1] = 1.0;
        b.hi[0] = b.hi[1] = 0.0;
    } else {
        seg_box(e, b);
    }
    box[i] = b;
}

struct hull_op {
    __host__ __device__ box4 operator()(const box4 &x, const box4 &y) const
    {
        box4 r;
        for (int k = 0; k < 2; k++) {
            r.lo[k] = x.lo[k] < y.lo[k] ? x.lo[k] : y.lo[k];
            r.hi[k] = x.hi[k] > y.hi[k] ? x.hi[k] : y.hi[k];
        }
        return r;
    }
};

struct empty_box {
    __host__ __device__ bool operator()(const box4 &b) const
    {
        return b.lo[0] > b.hi[0];
    }
};

struct valid_box {
    __host__ __device__ box4 operator()(const box4 &b) const
    {
        if (b.lo[0] > b.hi[0]) {
            box4 e;
            e.lo[0] = e.lo[1] = HUGE_VAL;
            e.hi[0] = e.hi[1] = -HUGE_VAL;
            return e;
        }
        return b;
    }
};

__device__ static bool cell_range(const grid2 &g, const double *rlo,
                                  const double *rhi, const box4 &b, int *c)
{
    if (b.lo[0] > b.hi[0] || b.hi[0] < rlo[0] || b.lo[0] > rhi[0] ||
        b.hi[1] < rlo[1] || b.lo[1] > rhi[1])
        return false;
    c[0] = cell_of(g, 0, b.lo[0]);
    c[1] = cell_of(g, 1, b.lo[1]);
    c[2] = cell_of(g, 0, b.hi[0]);
    c[3] = cell_of(g, 1, b.hi[1]);
    return true;
}

struct region {
    double lo[2], hi[2];
};

__global__ static void k_count(const box4 *box, uint32_t n, grid2 g,
                               region rg, uint32_t *cnt)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int c[4];
    cnt[i] = cell_range(g, rg.lo, rg.hi, box[i], c)
                 ? (uint32_t)((c[2] - c[0] + 1) * (c[3] - c[1] + 1))
                 : 0;
}

__global__ static void k_fill(const box4 *box, uint32_t n, grid2 g,
                              region rg, const uint32_t *off, uint32_t *key,
                              uint32_t *val)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int c[4];
    if (!cell_range(g, rg.lo, rg.hi, box[i], c))
        return;
    uint32_t o = off[i];
    for (int y = c[1]; y <= c[3]; y++)
        for (int x = c[0]; x <= c[2]; x++) {
            key[o] = (uint32_t)y * (uint32_t)g.n[0] + (uint32_t)x;
            val[o] = i;
            o++;
        }
}

__global__ static void k_work(const uint32_t *as, const uint32_t *bs,
                              size_t ncell, unsigned long long *w)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (c >= ncell)
        return;
    w[c] = (unsigned long long)(as[c + 1] - as[c]) *
           (unsigned long long)(bs[c + 1] - bs[c]);
}

/* One thread per pair of the global index space; the cell by binary
 * search in the scan of the work. */
__global__ static void k_pairs(const double *a, const double *b,
                               const box4 *abox, const box4 *bbox, grid2 g,
                               const uint32_t *as, const uint32_t *ai,
                               const uint32_t *bs, const uint32_t *bi,
                               const unsigned long long *wscan, size_t ncell,
                               unsigned long long total, rec *out,
                               unsigned long long *count,
                               unsigned long long cap)
{
    unsigned long long k = blockIdx.x * (unsigned long long)blockDim.x +
                           threadIdx.x;
    if (k >= total)
        return;
    size_t lo = 0, hi = ncell;          /* last c with wscan[c] <= k */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (wscan[mid] <= k)
            lo = mid;
        else
            hi = mid;
    }
    size_t c = lo;
    unsigned long long r = k - wscan[c];
    uint32_t nbc = bs[c + 1] - bs[c];
    uint32_t i = ai[as[c] + (uint32_t)(r / nbc)];
    uint32_t j = bi[bs[c] + (uint32_t)(r % nbc)];
    box4 p = abox[i], q = bbox[j];
    if (!boxes_meet(p, q))
        return;
    /* The ownership rule: the cell of the lower corner of the boxes'
     * intersection. */
    int x = cell_of(g, 0, fmax(p.lo[0], q.lo[0]));
    int y = cell_of(g, 1, fmax(p.lo[1], q.lo[1]));
    if ((size_t)y * (size_t)g.n[0] + (size_t)x != c)
        return;
    eval_pair(a + 6 * (size_t)i, b + 6 * (size_t)j, i, j, out, count, cap);
}

struct rec_key {
    __host__ __device__ unsigned long long operator()(const rec &r) const
    {
        return ((unsigned long long)r.a << 32) | r.b;
    }
};

__global__ static void k_keys(const rec *r, size_t n, unsigned long long *key)
{
    size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (k < n)
        key[k] = ((unsigned long long)r[k].a << 32) | r[k].b;
}

/* ---- host: the records into contacts ---- */

/* Two passes over the sorted records, each thread on one contiguous
 * range, so the (a, b) order survives without a compaction pass: the
 * first decides the doubtful records (GMP) into a per-thread list and
 * counts what each range keeps; the second writes every contact once,
 * at its final place, and counts the kinds. */
struct rb_thread {
    struct xg_counters cnt;
    uint64_t deferred, kept, kinds[XG_KIND_COUNT];
    struct xg_contacts side;    /* flag 3 records, in order */
    unsigned char *side_keep;
    size_t side_cap, off;
    int rc;
};

struct expand {
    const rec *r;
    size_t n;
    const double *a, *b;
    struct xg_contact *out;
    struct rb_thread *t;
    int nthreads;
};

static int is_dup(const rec *r, size_t k)
{
    /* A duplicate of the previous record (the paper's list). */
    return k > 0 && r[k].a == r[k - 1].a && r[k].b == r[k - 1].b;
}

static void decide_worker(void *arg, int tid)
{
    struct expand *e = (struct expand *)arg;
    struct rb_thread *t = &e->t[tid];
    size_t lo, hi, k;
    xg__share(e->n, e->nthreads, tid, &lo, &hi);
    for (k = lo; k < hi; k++) {
        const rec *r = &e->r[k];
        struct xg_contact c;
        int hit;
        if (is_dup(e->r, k))
            continue;
        if (r->flag != 3) {
            t->kept++;
            continue;
        }
        t->deferred++;
        hit = xg__redblue_exact(&t->cnt, e->a + 6 * (size_t)r->a,
                                e->b + 6 * (size_t)r->b, &c);
        if (t->side.n == t->side_cap) {
            size_t cap = t->side_cap ? 2 * t->side_cap : 256;
            void *p = realloc(t->side.v, cap * sizeof c);
            void *q = realloc(t->side_keep, cap);
            if (p)
                t->side.v = (struct xg_contact *)p;
            if (q)
                t->side_keep = (unsigned char *)q;
            if (!p || !q) {
                t->rc = XG_ENOMEM;
                return;
            }
            t->side_cap = cap;
        }
        t->side.v[t->side.n] = c;
        t->side_keep[t->side.n++] = (unsigned char)hit;
        t->kept += (uint64_t)hit;
    }
}

static void write_worker(void *arg, int tid)
{
    struct expand *e = (struct expand *)arg;
    struct rb_thread *t = &e->t[tid];
    size_t lo, hi, k, m = t->off, s = 0;
    xg__share(e->n, e->nthreads, tid, &lo, &hi);
    for (k = lo; k < hi; k++) {
        const rec *r = &e->r[k];
        struct xg_contact *c = &e->out[m];
        const double *sa = e->a + 6 * (size_t)r->a;
        const double *sb = e->b + 6 * (size_t)r->b;
        if (is_dup(e->r, k))
            continue;
        if (r->flag == 3) {
            if (!t->side_keep[s]) {
                s++;
                continue;
            }
            *c = t->side.v[s++];
        } else if (r->flag == 1) {
            c->kind = XG_KIND_PROPER;
            c->p[0] = r->x;
            c->p[1] = r->y;
            c->p[2] = 0.0;
            c->q[0] = c->q[1] = c->q[2] = 0.0;
            t->cnt.constructions++;
        } else if (r->flag == 2) {
            xg__redblue_exact(&t->cnt, sa, sb, c);
        } else {
            double pt[2] = {r->x, r->y};
            xg__redblue_settled(&t->cnt, sa, sb,
                                r->flag == 4 ? XG_REDBLUE_TOUCH
                                             : XG_REDBLUE_OVERLAP,
                                pt, c);
        }
        c->a = r->a;
        c->b = r->b;
        c->pad = 0;
        if (c->kind != XG_KIND_OVERLAP)
            c->q[0] = c->q[1] = c->q[2] = 0.0;
        t->kinds[c->kind]++;
        m++;
    }
}

/* Sorts d_rec[0..n) by (a, b) on the GPU, downloads, expands into out. */
static int finish(struct xg_ctx *ctx, cudaStream_t s, rec *d_rec, size_t n,
                  const struct xg_segs *a, const struct xg_segs *b,
                  struct xg_contacts *out, struct xg_stats *st)
{
    int rc = XG_OK, nthreads = xg__threads(ctx), t, kd;
    unsigned long long *d_key = NULL;
    rec *h = (rec *)xg__big_alloc((n ? n : 1) * sizeof(rec));
    struct expand e;
    struct rb_thread *th;
    double t0 = xg__now(), t1;
    size_t total = 0;

    if ((size_t)nthreads > n / 4096 + 1)
        nthreads = (int)(n / 4096 + 1);
    th = (struct rb_thread *)calloc((size_t)nthreads, sizeof *th);
    if (!h || !th) {
        free(h);
        free(th);
        return xg__error(ctx, XG_ENOMEM, "out of memory for %zu records", n);
    }
    if (n) {
        CUDA_TRY(cudaMalloc(&d_key, n * sizeof *d_key));
        k_keys<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(d_rec, n, d_key);
        CUDA_TRY(cudaGetLastError());
        thrust::sort_by_key(thrust::cuda::par.on(s), d_key, d_key + n, d_rec);
        CUDA_TRY(cudaMemcpyAsync(h, d_rec, n * sizeof(rec),
                                 cudaMemcpyDeviceToHost, s));
    }
    CUDA_TRY(cudaStreamSynchronize(s));
    t1 = xg__now();
    st->seconds[XG_STAGE_DOWNLOAD] += t1 - t0;

    e.r = h;
    e.n = n;
    e.a = a->xyz;
    e.b = b->xyz;
    e.t = th;
    e.nthreads = nthreads;
    xg__parallel(nthreads, decide_worker, &e);
    for (t = 0; t < nthreads; t++) {
        if (th[t].rc != XG_OK) {
            rc = xg__error(ctx, th[t].rc, "out of memory for contacts");
            goto done;
        }
        th[t].off = total;
        total += th[t].kept;
    }
    st->seconds[XG_STAGE_EXACT] = xg__now() - t1;
    t1 = xg__now();
    out->v = (struct xg_contact *)xg__big_alloc((total ? total : 1) *
                                                sizeof *out->v);
    if (!out->v) {
        rc = xg__error(ctx, XG_ENOMEM, "out of memory for %zu contacts",
                       total);
        goto done;
    }
    out->cap = total ? total : 1;
    e.out = out->v;
    xg__parallel(nthreads, write_worker, &e);
    out->n = total;
    for (t = 0; t < nthreads; t++) {
        xg_counters_add(&st->cnt, &th[t].cnt);
        st->deferred += th[t].deferred;
        for (kd = 0; kd < XG_KIND_COUNT; kd++)
            st->contacts[kd] += th[t].kinds[kd];
    }
    st->seconds[XG_STAGE_UNIQUE] = xg__now() - t1;
done:
    for (t = 0; t < nthreads; t++) {
        free(th[t].side.v);
        free(th[t].side_keep);
    }
    free(th);
    free(h);
    cudaFree(d_key);
    return rc;
}

/* Runs the record-producing launch, retrying once with the exact
 * capacity if the first guess was short. */
template <typename F>
static int with_records(struct xg_ctx *ctx, cudaStream_t s, size_t guess,
                        rec **d_rec, size_t *n, F launch)
{
    int rc = XG_OK;
    unsigned long long *d_count = NULL, count = 0;
    size_t cap = guess ? guess : 1;
    int pass;
    *d_rec = NULL;
    CUDA_TRY(cudaMalloc(&d_count, sizeof *d_count));
    for (pass = 0; pass < 2; pass++) {
        CUDA_TRY(cudaMalloc(d_rec, cap * sizeof(rec)));
        CUDA_TRY(cudaMemsetAsync(d_count, 0, sizeof *d_count, s));
        launch(*d_rec, d_count, (unsigned long long)cap);
        CUDA_TRY(cudaGetLastError());
        CUDA_TRY(cudaMemcpyAsync(&count, d_count, sizeof count,
                                 cudaMemcpyDeviceToHost, s));
        CUDA_TRY(cudaStreamSynchronize(s));
        if (count <= cap)
            break;
        cudaFree(*d_rec);
        *d_rec = NULL;
        cap = (size_t)count;
    }
    *n = (size_t)count;
done:
    cudaFree(d_count);
    return rc;
}

static int paper(struct xg_ctx *ctx, cudaStream_t s, const struct xg_segs *a,
                 const struct xg_segs *b, const struct xg_opts *opt,
                 const double *d_a, const double *d_b,
                 struct xg_contacts *out, struct xg_stats *st)
{
    int rc = XG_OK, k;
    struct xg_grid g;
    double *abox = (double *)malloc((a->n ? a->n : 1) * 6 * sizeof(double));
    double *bbox = (double *)malloc((b->n ? b->n : 1) * 6 * sizeof(double));
    std::vector<uint2> pairs;
    uint2 *d_pairs = NULL;
    rec *d_rec = NULL;
    size_t i, n = 0;
    double t0 = xg__now(), t1;
    int have_grid = 0;

    if (!abox || !bbox) {
        free(abox);
        free(bbox);
        return xg__error(ctx, XG_ENOMEM, "out of memory for boxes");
    }
    for (int s2 = 0; s2 < 2; s2++) {
        const struct xg_segs *set = s2 ? b : a;
        double *box = s2 ? bbox : abox;
        for (i = 0; i < set->n; i++) {
            const double *e = set->xyz + 6 * i;
            double *x = box + 6 * i;
            if (xg__seg2_is_degenerate(e)) {
                x[0] = 1.0;
                x[3] = 0.0;
                (s2 ? st->b_skipped : st->a_skipped)++;
                continue;
            }
            for (k = 0; k < 2; k++) {
                x[k] = e[k] < e[3 + k] ? e[k] : e[3 + k];
                x[3 + k] = e[k] < e[3 + k] ? e[3 + k] : e[k];
            }
            x[2] = x[5] = 0.0;
        }
    }
    rc = xg__grid_build(&g, abox, a->n, bbox, b->n, opt->grid,
                        xg__threads(ctx));
    if (rc != XG_OK)
        return xg__error(ctx, rc, "cannot build the grid");
    have_grid = 1;
    /* Every pair sharing a cell, as the paper lists them. */
    for (size_t c = 0; c < g.ncell; c++)
        for (uint32_t ia = g.a_start[c]; ia < g.a_start[c + 1]; ia++)
            for (uint32_t ib = g.b_start[c]; ib < g.b_start[c + 1]; ib++)
                pairs.push_back(make_uint2(g.a_items[ia], g.b_items[ib]));
    st->grid[0] = g.n[0];
    st->grid[1] = g.n[1];
    st->grid[2] = 1;
    st->grid_refs_a = g.a_start[g.ncell];
    st->grid_refs_b = g.b_start[g.ncell];
    st->candidates = pairs.size();
    t1 = xg__now();
    st->seconds[XG_STAGE_PREPARE] = t1 - t0;
    if (!pairs.empty()) {
        CUDA_TRY(cudaMalloc(&d_pairs, pairs.size() * sizeof(uint2)));
        CUDA_TRY(cudaMemcpyAsync(d_pairs, pairs.data(),
                                 pairs.size() * sizeof(uint2),
                                 cudaMemcpyHostToDevice, s));
        CUDA_TRY(cudaStreamSynchronize(s));
    }
    t0 = xg__now();
    st->seconds[XG_STAGE_UPLOAD] += t0 - t1;
    {
        size_t np = pairs.size();
        rc = with_records(ctx, s, 2 * (a->n + b->n) + 1024, &d_rec, &n,
                          [&](rec *r, unsigned long long *cnt,
                              unsigned long long cap) {
                              if (np)
                                  k_list<<<(unsigned)((np + 255) / 256), 256,
                                           0, s>>>(d_a, d_b, d_pairs, np, r,
                                                   cnt, cap);
                          });
    }
    if (rc != XG_OK)
        goto done;
    st->seconds[XG_STAGE_INTERSECT] = xg__now() - t0;
    rc = finish(ctx, s, d_rec, n, a, b, out, st);
done:
    if (have_grid)
        xg__grid_free(&g);
    cudaFree(d_pairs);
    cudaFree(d_rec);
    return rc;
}

static int ours(struct xg_ctx *ctx, cudaStream_t s, const struct xg_segs *a,
                const struct xg_segs *b, const struct xg_opts *opt,
                const double *d_a, const double *d_b,
                struct xg_contacts *out, struct xg_stats *st)
{
    int rc = XG_OK, k;
    uint32_t na = (uint32_t)a->n, nb = (uint32_t)b->n;
    box4 *d_abox = NULL, *d_bbox = NULL;
    uint32_t *d_cnt = NULL, *d_key = NULL, *d_val = NULL;
    uint32_t *d_as = NULL, *d_ai = NULL, *d_bs = NULL, *d_bi = NULL;
    unsigned long long *d_w = NULL, total = 0, last = 0;
    rec *d_rec = NULL;
    size_t n = 0, ncell = 1;
    grid2 g;
    region rg;
    double t0 = xg__now();
    box4 ha, hb, empty;
    int cells[3];

    empty.lo[0] = empty.lo[1] = HUGE_VAL;
    empty.hi[0] = empty.hi[1] = -HUGE_VAL;
    CUDA_TRY(cudaMalloc(&d_abox, (na ? na : 1) * sizeof(box4)));
    CUDA_TRY(cudaMalloc(&d_bbox, (nb ? nb : 1) * sizeof(box4)));
    if (na)
        k_boxes<<<(na + 255) / 256, 256, 0, s>>>(d_a, na, d_abox);
    if (nb)
        k_boxes<<<(nb + 255) / 256, 256, 0, s>>>(d_b, nb, d_bbox);
    CUDA_TRY(cudaGetLastError());
    /* Zero-length segments (no box): counted here, not on the CPU. */
    st->a_skipped = (uint64_t)thrust::count_if(thrust::cuda::par.on(s), d_abox,
                                               d_abox + na, empty_box());
    st->b_skipped = (uint64_t)thrust::count_if(thrust::cuda::par.on(s), d_bbox,
                                               d_bbox + nb, empty_box());
    ha = thrust::transform_reduce(thrust::cuda::par.on(s), d_abox,
                                  d_abox + na, valid_box(), empty, hull_op());
    hb = thrust::transform_reduce(thrust::cuda::par.on(s), d_bbox,
                                  d_bbox + nb, valid_box(), empty, hull_op());
    /* The region: where the two hulls meet (as grid.c). */
    for (k = 0; k < 2; k++) {
        rg.lo[k] = ha.lo[k] > hb.lo[k] ? ha.lo[k] : hb.lo[k];
        rg.hi[k] = ha.hi[k] < hb.hi[k] ? ha.hi[k] : hb.hi[k];
    }
    if (!(rg.lo[0] <= rg.hi[0] && rg.lo[1] <= rg.hi[1])) {
        rg.lo[0] = rg.lo[1] = 0.0;
        rg.hi[0] = rg.hi[1] = -1.0;     /* nothing meets */
        g.n[0] = g.n[1] = 1;
    } else if (opt->grid[0] > 0 && opt->grid[1] > 0) {
        g.n[0] = opt->grid[0];
        g.n[1] = opt->grid[1];
    } else {
        double lo3[3] = {rg.lo[0], rg.lo[1], 0}, hi3[3] = {rg.hi[0], rg.hi[1], 0};
        xg_grid_default(na, nb, lo3, hi3, cells);
        g.n[0] = cells[0];
        g.n[1] = cells[1];
    }
    for (k = 0; k < 2; k++) {
        double ext = rg.hi[k] - rg.lo[k];
        g.lo[k] = rg.lo[k];
        g.inv[k] = ext > 0.0 ? (double)g.n[k] / ext : 0.0;
        if (!isfinite(g.inv[k]))
            g.inv[k] = 0.0;
    }
    ncell = (size_t)g.n[0] * (size_t)g.n[1];
    st->grid[0] = g.n[0];
    st->grid[1] = g.n[1];
    st->grid[2] = 1;

    /* Per set: count, scan, fill, sort by cell, cell starts. */
    CUDA_TRY(cudaMalloc(&d_as, (ncell + 1) * sizeof(uint32_t)));
    CUDA_TRY(cudaMalloc(&d_bs, (ncell + 1) * sizeof(uint32_t)));
    for (int set = 0; set < 2; set++) {
        uint32_t ne = set ? nb : na, refs = 0, lastc = 0;
        box4 *d_box = set ? d_bbox : d_abox;
        uint32_t *d_start = set ? d_bs : d_as, **d_items = set ? &d_bi : &d_ai;
        CUDA_TRY(cudaMalloc(&d_cnt, ((size_t)ne + 1) * sizeof(uint32_t)));
        if (ne) {
            k_count<<<(ne + 255) / 256, 256, 0, s>>>(d_box, ne, g, rg, d_cnt);
            CUDA_TRY(cudaGetLastError());
            CUDA_TRY(cudaMemcpyAsync(&lastc, d_cnt + ne - 1, sizeof lastc,
                                     cudaMemcpyDeviceToHost, s));
            thrust::exclusive_scan(thrust::cuda::par.on(s), d_cnt,
                                   d_cnt + ne, d_cnt);
            CUDA_TRY(cudaMemcpyAsync(&refs, d_cnt + ne - 1, sizeof refs,
                                     cudaMemcpyDeviceToHost, s));
            CUDA_TRY(cudaStreamSynchronize(s));
            refs += lastc;
        }
        (set ? st->grid_refs_b : st->grid_refs_a) = refs;
        CUDA_TRY(cudaMalloc(&d_key, ((size_t)refs + 1) * sizeof(uint32_t)));
        CUDA_TRY(cudaMalloc(d_items, ((size_t)refs + 1) * sizeof(uint32_t)));
        d_val = *d_items;
        if (ne) {
            k_fill<<<(ne + 255) / 256, 256, 0, s>>>(d_box, ne, g, rg, d_cnt,
                                                     d_key, d_val);
            CUDA_TRY(cudaGetLastError());
        }
        thrust::stable_sort_by_key(thrust::cuda::par.on(s), d_key,
                                   d_key + refs, d_val);
        thrust::lower_bound(thrust::cuda::par.on(s), d_key, d_key + refs,
                            thrust::counting_iterator<uint32_t>(0),
                            thrust::counting_iterator<uint32_t>(
                                (uint32_t)ncell + 1),
                            d_start);
        CUDA_TRY(cudaFree(d_key));
        d_key = NULL;
        CUDA_TRY(cudaFree(d_cnt));
        d_cnt = NULL;
    }
    /* The pairs of all cells as one index space. */
    CUDA_TRY(cudaMalloc(&d_w, ncell * sizeof *d_w));
    k_work<<<(unsigned)((ncell + 255) / 256), 256, 0, s>>>(d_as, d_bs, ncell,
                                                          d_w);
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(cudaMemcpyAsync(&last, d_w + ncell - 1, sizeof last,
                             cudaMemcpyDeviceToHost, s));
    thrust::exclusive_scan(thrust::cuda::par.on(s), d_w, d_w + ncell, d_w);
    CUDA_TRY(cudaMemcpyAsync(&total, d_w + ncell - 1, sizeof total,
                             cudaMemcpyDeviceToHost, s));
    CUDA_TRY(cudaStreamSynchronize(s));
    total += last;
    st->candidates = total;
    st->seconds[XG_STAGE_PREPARE] = xg__now() - t0;
    t0 = xg__now();
    rc = with_records(ctx, s, 2 * ((size_t)na + nb) + 1024, &d_rec, &n,
                      [&](rec *r, unsigned long long *cnt,
                          unsigned long long cap) {
                          if (total)
                              k_pairs<<<(unsigned)((total + 255) / 256), 256,
                                        0, s>>>(d_a, d_b, d_abox, d_bbox, g,
                                                d_as, d_ai, d_bs, d_bi, d_w,
                                                ncell, total, r, cnt, cap);
                      });
    if (rc != XG_OK)
        goto done;
    st->seconds[XG_STAGE_INTERSECT] = xg__now() - t0;
    rc = finish(ctx, s, d_rec, n, a, b, out, st);
done:
    cudaFree(d_abox);
    cudaFree(d_bbox);
    cudaFree(d_cnt);
    cudaFree(d_key);
    cudaFree(d_as);
    cudaFree(d_ai);
    cudaFree(d_bs);
    cudaFree(d_bi);
    cudaFree(d_w);
    cudaFree(d_rec);
    return rc;
}

extern "C" int xg__gpu_redblue(struct xg_ctx *ctx, const struct xg_segs *a,
                               const struct xg_segs *b,
                               const struct xg_opts *opt, int method,
                               struct xg_contacts *out, struct xg_stats *st)
{
    int rc = XG_OK;
    cudaStream_t s = NULL;
    double *d_a = NULL, *d_b = NULL, t0;

    st->engine = XG_ENGINE_GPU;
    st->threads = 1;
    st->a_count = a->n;
    st->b_count = b->n;
    free(out->v);
    memset(out, 0, sizeof *out);
    CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    t0 = xg__now();
    CUDA_TRY(cudaMalloc(&d_a, (a->n ? a->n : 1) * 6 * sizeof(double)));
    CUDA_TRY(cudaMalloc(&d_b, (b->n ? b->n : 1) * 6 * sizeof(double)));
    CUDA_TRY(cudaMemcpyAsync(d_a, a->xyz, a->n * 6 * sizeof(double),
                             cudaMemcpyHostToDevice, s));
    CUDA_TRY(cudaMemcpyAsync(d_b, b->xyz, b->n * 6 * sizeof(double),
                             cudaMemcpyHostToDevice, s));
    CUDA_TRY(cudaStreamSynchronize(s));
    st->seconds[XG_STAGE_UPLOAD] = xg__now() - t0;
    if (method == XG__RB_PAPER) {
        rc = paper(ctx, s, a, b, opt, d_a, d_b, out, st);
    } else {
        rc = ours(ctx, s, a, b, opt, d_a, d_b, out, st);
    }
done:
    cudaFree(d_a);
    cudaFree(d_b);
    if (s)
        cudaStreamDestroy(s);
    return rc;
}
