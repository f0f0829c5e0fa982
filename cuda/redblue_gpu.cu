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
 * builds the grid (the shared device grid of grid_gpu.cu: count, scan,
 * fill, sort by cell), numbers the pairs of
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
#include "xg_cuda.h"      /* gmp.h first, then the C headers as C */
extern "C" {
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

/* A box: min xyz, max xyz (z = 0 here); min x > max x: none. */
__device__ static bool boxes_meet(const double *p, const double *q)
{
    return p[0] <= q[3] && q[0] <= p[3] && p[1] <= q[4] && q[1] <= p[4];
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

/* The box of every segment, for the shared device grid; a zero-length
 * segment (in x, y) has none. */
__global__ static void k_boxes(const double *s, uint32_t n, double *box)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const double *e = s + 6 * (size_t)i;
    double *b = box + 6 * (size_t)i;
    if (e[0] == e[3] && e[1] == e[4]) {
        b[0] = 1.0;
        b[3] = 0.0;
        b[1] = b[2] = b[4] = b[5] = 0.0;
        return;
    }
    for (int k = 0; k < 2; k++) {
        b[k] = e[k] < e[3 + k] ? e[k] : e[3 + k];
        b[3 + k] = e[k] < e[3 + k] ? e[3 + k] : e[k];
    }
    b[2] = b[5] = 0.0;
}

struct box6r {
    double v[6];
};

struct no_box {
    __host__ __device__ bool operator()(const box6r &b) const
    {
        return b.v[0] > b.v[3];
    }
};

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
                               const double *abox, const double *bbox,
                               struct xg_dgrid g,
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
    const double *p = abox + 6 * (size_t)i, *q = bbox + 6 * (size_t)j;
    if (!boxes_meet(p, q))
        return;
    /* The ownership rule: the cell of the lower corner of the boxes'
     * intersection. */
    int x = xg__dcell_of(g.n, g.lo, g.inv, 0, p[0] > q[0] ? p[0] : q[0]);
    int y = xg__dcell_of(g.n, g.lo, g.inv, 1, p[1] > q[1] ? p[1] : q[1]);
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
    int rc = XG_OK;
    uint32_t na = (uint32_t)a->n, nb = (uint32_t)b->n;
    double *d_abox = NULL, *d_bbox = NULL;
    unsigned long long *d_w = NULL, total = 0, last = 0;
    rec *d_rec = NULL;
    size_t n = 0, ncell;
    struct xg_dgrid g;
    double t0 = xg__now();
    int cells[3] = {opt->grid[0], opt->grid[1], 1};

    memset(&g, 0, sizeof g);
    CUDA_TRY(cudaMalloc(&d_abox, (na ? na : 1) * 6 * sizeof(double)));
    CUDA_TRY(cudaMalloc(&d_bbox, (nb ? nb : 1) * 6 * sizeof(double)));
    if (na)
        k_boxes<<<(na + 255) / 256, 256, 0, s>>>(d_a, na, d_abox);
    if (nb)
        k_boxes<<<(nb + 255) / 256, 256, 0, s>>>(d_b, nb, d_bbox);
    CUDA_TRY(cudaGetLastError());
    /* Zero-length segments (no box): counted here, not on the CPU. */
    st->a_skipped = (uint64_t)thrust::count_if(
        thrust::cuda::par.on(s), (const box6r *)d_abox,
        (const box6r *)d_abox + na, no_box());
    st->b_skipped = (uint64_t)thrust::count_if(
        thrust::cuda::par.on(s), (const box6r *)d_bbox,
        (const box6r *)d_bbox + nb, no_box());
    /* The shared device grid, flat in z (one layer). */
    rc = xg__cuda_grid_build(ctx, d_abox, na, d_bbox, nb,
                             opt->grid[0] > 0 && opt->grid[1] > 0 ? cells
                                                                  : NULL,
                             &g, s);
    if (rc != XG_OK)
        goto done;
    ncell = g.ncell;
    st->grid[0] = g.n[0];
    st->grid[1] = g.n[1];
    st->grid[2] = g.n[2];
    st->grid_refs_a = g.refs[0];
    st->grid_refs_b = g.refs[1];

    /* The pairs of all cells as one index space. */
    CUDA_TRY(cudaMalloc(&d_w, ncell * sizeof *d_w));
    k_work<<<(unsigned)((ncell + 255) / 256), 256, 0, s>>>(
        g.d_a_start, g.d_b_start, ncell, d_w);
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
                                                g.d_a_start, g.d_a_items,
                                                g.d_b_start, g.d_b_items, d_w,
                                                ncell, total, r, cnt, cap);
                      });
    if (rc != XG_OK)
        goto done;
    st->seconds[XG_STAGE_INTERSECT] = xg__now() - t0;
    rc = finish(ctx, s, d_rec, n, a, b, out, st);
done:
    cudaFree(d_abox);
    cudaFree(d_bbox);
    xg__cuda_grid_free(&g);
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
