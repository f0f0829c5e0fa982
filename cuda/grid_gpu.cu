/*
 * grid_gpu.cu -- the uniform grid built on the device, for the GPU
 * engines of segtri and red/blue (xg__cuda_grid_build, see xg_cuda.h).
 *
 * The grid of grid.c, built another way: the hulls of the two sets are
 * reduced on the device, the frame (region, dimensions, cell function)
 * comes from xg__grid_frame, the very code of the host's grid; then per
 * set: each element's cell range and reference count (one thread per
 * element, xg__box_cells of xg_boxes.h as on the host), a scan of the
 * counts, one (cell, element) entry per reference numbered by
 * xg__cell_index, a stable radix sort by cell (the entries were written
 * in ascending element order, so every cell lists its elements in
 * ascending order, as grid.c does), and the cell starts by binary
 * search.  The reductions, the scan and the sort are CUB's (xg_cub.cuh),
 * their scratch in the build's own arena.
 */
#include "xg_cub.cuh"
#include "xg_cuda_dev.cuh"

struct box6 {
    double v[6];
};

/* The hull of the valid boxes; boxes marked empty do not count. */
struct valid6 {
    __host__ __device__ box6 operator()(const box6 &b) const
    {
        if (xg__box_is_none(b.v)) {
            box6 e;
            for (int k = 0; k < 3; k++) {
                e.v[k] = HUGE_VAL;
                e.v[3 + k] = -HUGE_VAL;
            }
            return e;
        }
        return b;
    }
};

struct hull6 {
    __host__ __device__ box6 operator()(const box6 &x, const box6 &y) const
    {
        box6 r;
        for (int k = 0; k < 3; k++) {
            r.v[k] = x.v[k] < y.v[k] ? x.v[k] : y.v[k];
            r.v[3 + k] = x.v[3 + k] > y.v[3 + k] ? x.v[3 + k] : y.v[3 + k];
        }
        return r;
    }
};

struct frame {
    int n[3];
    double lo[3], hi[3], inv[3];
};

/* grid.c's ranges(): a box that misses the region gets an empty range
 * and no reference. */
__global__ static void k_ranges(const double *box, uint32_t n, frame f,
                                int32_t *cell, uint32_t *cnt)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int32_t *c = cell + 6 * (size_t)i;
    if (!xg__box_cells(f.n, f.lo, f.hi, f.inv, box + 6 * (size_t)i, c)) {
        cnt[i] = 0;
        return;
    }
    cnt[i] = (uint32_t)(c[3] - c[0] + 1) * (uint32_t)(c[4] - c[1] + 1) *
             (uint32_t)(c[5] - c[2] + 1);
}

/* One (cell, element) entry per reference of element i, from off[i]
 * on, in ascending cell order within the element. */
__global__ static void k_fill(const int32_t *cell, uint32_t n, frame f,
                              const uint64_t *off, uint32_t *key,
                              uint32_t *val)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const int32_t *c = cell + 6 * (size_t)i;
    if (c[0] > c[3])
        return;
    uint64_t o = off[i];
    for (int z = c[2]; z <= c[5]; z++)
        for (int y = c[1]; y <= c[4]; y++)
            for (int x = c[0]; x <= c[3]; x++) {
                key[o] = xg__cell_index(f.n, x, y, z);
                val[o] = i;
                o++;
            }
}

/* start[c] = the first entry of the sorted keys (refs of them) whose
 * cell is c or more, for c = 0 .. ncell: the CSR starts. */
__global__ static void k_starts(const uint32_t *key, uint64_t refs,
                                size_t ncell, uint32_t *start)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (c <= ncell)
        start[c] = (uint32_t)xg_first_ge(key, refs, c);
}

/* Frees g's device arrays, those a failed build left too (cudaFree of
 * NULL does nothing), and zeroes g. */
void xg__cuda_grid_free(struct xg_dgrid *g)
{
    cudaFree(g->d_a_cell);
    cudaFree(g->d_b_cell);
    cudaFree(g->d_a_start);
    cudaFree(g->d_a_items);
    cudaFree(g->d_b_start);
    cudaFree(g->d_b_items);
    memset(g, 0, sizeof *g);
}

/* The cells a key of the set's entries can name, in bits: the radix
 * sort looks at no more (at least one). */
static int cell_bits(size_t ncell)
{
    int bits = 1;
    while (bits < 32 && ((uint64_t)ncell - 1) >> bits)
        bits++;
    return bits;
}

/* The set's cell ranges into d_cell (n elements) and its reference
 * count *refs: per element its count (d_cnt), their exclusive scan
 * (d_off, 64-bit: the total may pass 2^32, which is refused), the total
 * read back (synchronizes).  Scratch from t. */
static int set_refs(struct xg_ctx *ctx, struct xg_cub_tmp *t,
                    const double *d_box, uint32_t n, const frame &f,
                    int32_t *d_cell, uint32_t *d_cnt, uint64_t *d_off,
                    uint64_t *refs, cudaStream_t s)
{
    uint32_t lastc = 0;
    uint64_t lasto = 0;
    int rc;
    *refs = 0;
    if (n == 0)
        return XG_OK;
    k_ranges<<<(n + 255) / 256, 256, 0, s>>>(d_box, n, f, d_cell, d_cnt);
    if ((rc = XG_CUDA(ctx, cudaGetLastError())) != XG_OK ||
        (rc = XG_CUB(ctx, t, cub::DeviceScan::ExclusiveScan, d_cnt, d_off,
                     ::cuda::std::plus<>{}, (uint64_t)0, n, s)) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemcpyAsync(&lastc, d_cnt + n - 1,
                                           sizeof lastc,
                                           cudaMemcpyDeviceToHost, s))) !=
            XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemcpyAsync(&lasto, d_off + n - 1,
                                           sizeof lasto,
                                           cudaMemcpyDeviceToHost, s))) !=
            XG_OK ||
        (rc = XG_CUDA(ctx, cudaStreamSynchronize(s))) != XG_OK)
        return rc;
    *refs = lasto + lastc;
    return XG_OK;
}

/* The set's CSR from its ranges: the refs (cell, element) entries
 * written in ascending element order, sorted by cell with a stable
 * radix sort (so each cell lists its elements in ascending order, as
 * grid.c does), the elements into d_items and the cell starts into
 * d_start (ncell + 1).  Scratch (three arrays of refs + 1 entries, the
 * sort's) from t. */
static int set_sort(struct xg_ctx *ctx, struct xg_cub_tmp *t,
                    const int32_t *d_cell, uint32_t n, const frame &f,
                    size_t ncell, const uint64_t *d_off, uint64_t refs,
                    uint32_t *d_start, uint32_t *d_items, cudaStream_t s)
{
    uint32_t *d_key, *d_val, *d_sorted;
    void *p;
    int rc;
    if ((rc = xg__dmem_alloc(ctx, t->m, &p, (refs + 1) * 4)) != XG_OK)
        return rc;
    d_key = (uint32_t *)p;
    if ((rc = xg__dmem_alloc(ctx, t->m, &p, (refs + 1) * 4)) != XG_OK)
        return rc;
    d_val = (uint32_t *)p;
    if ((rc = xg__dmem_alloc(ctx, t->m, &p, (refs + 1) * 4)) != XG_OK)
        return rc;
    d_sorted = (uint32_t *)p;
    if (refs) {
        k_fill<<<(n + 255) / 256, 256, 0, s>>>(d_cell, n, f, d_off, d_key,
                                                d_val);
        if ((rc = XG_CUDA(ctx, cudaGetLastError())) != XG_OK ||
            (rc = XG_CUB(ctx, t, cub::DeviceRadixSort::SortPairs, d_key,
                         d_sorted, d_val, d_items, (uint32_t)refs, 0,
                         cell_bits(ncell), s)) != XG_OK)
            return rc;
    }
    k_starts<<<(unsigned)((ncell + 1 + 255) / 256), 256, 0, s>>>(
        d_sorted, refs, ncell, d_start);
    return XG_CUDA(ctx, cudaGetLastError());
}

/* One set: cell ranges, references, CSR.  The set's arrays go to the
 * grid (freed with it), the scratch to tmp. */
static int set_csr(struct xg_ctx *ctx, struct xg_dmem *tmp,
                   const double *d_box, uint32_t n, const frame &f,
                   size_t ncell, int32_t **d_cell, uint32_t **d_start,
                   uint32_t **d_items, uint64_t *refs, cudaStream_t s)
{
    struct xg_cub_tmp t = {tmp, NULL, 0};
    uint32_t *d_cnt;
    uint64_t *d_off;
    void *p;
    int rc;

    *refs = 0;
    if ((rc = XG_CUDA(ctx, cudaMalloc(&p, ((size_t)n ? n : 1) * 6 *
                                              sizeof(int32_t)))) != XG_OK)
        return rc;
    *d_cell = (int32_t *)p;
    if ((rc = XG_CUDA(ctx, cudaMalloc(&p, (ncell + 1) * sizeof(uint32_t)))) !=
        XG_OK)
        return rc;
    *d_start = (uint32_t *)p;
    if ((rc = xg__dmem_alloc(ctx, tmp, &p, (size_t)n * sizeof(uint32_t))) !=
        XG_OK)
        return rc;
    d_cnt = (uint32_t *)p;
    if ((rc = xg__dmem_alloc(ctx, tmp, &p, (size_t)n * sizeof(uint64_t))) !=
        XG_OK)
        return rc;
    d_off = (uint64_t *)p;
    if ((rc = set_refs(ctx, &t, d_box, n, f, *d_cell, d_cnt, d_off, refs,
                       s)) != XG_OK)
        return rc;
    if (*refs > UINT32_MAX)
        return xg__error(ctx, XG_ELIMIT, "more than 2^32 grid references");
    if ((rc = XG_CUDA(ctx, cudaMalloc(&p, (*refs + 1) * sizeof(uint32_t)))) !=
        XG_OK)
        return rc;
    *d_items = (uint32_t *)p;
    return set_sort(ctx, &t, *d_cell, n, f, ncell, d_off, *refs, *d_start,
                    *d_items, s);
}

/* One set's cells and CSR (set_csr), its scratch freed on return; the
 * arrays it made are the grid's, after a failure too (the caller frees
 * the grid). */
static int build_set(struct xg_ctx *ctx, const double *d_box, uint32_t n,
                     const frame &f, size_t ncell, int32_t **d_cell,
                     uint32_t **d_start, uint32_t **d_items, uint64_t *refs,
                     cudaStream_t s)
{
    struct xg_dmem tmp = XG_DMEM_INIT;
    int rc = set_csr(ctx, &tmp, d_box, n, f, ncell, d_cell, d_start, d_items,
                     refs, s);
    xg__dmem_free(&tmp);        /* cudaFree waits for the device */
    return rc;
}

/* The hulls of the valid boxes of both sets into *ha and *hb (the empty
 * box, lo above hi, for a set with none): two reductions into one pair
 * read back (synchronizes), their scratch freed on return.  A hull's
 * min and max are exact, so the order of the reduction is immaterial. */
static int hulls(struct xg_ctx *ctx, const box6 *d_a, size_t na,
                 const box6 *d_b, size_t nb, box6 *ha, box6 *hb,
                 cudaStream_t s)
{
    struct xg_dmem m = XG_DMEM_INIT;
    struct xg_cub_tmp t = {&m, NULL, 0};
    box6 empty, h[2];
    void *p;
    int k, rc;
    for (k = 0; k < 3; k++) {
        empty.v[k] = HUGE_VAL;
        empty.v[3 + k] = -HUGE_VAL;
    }
    h[0] = h[1] = empty;
    rc = xg__dmem_alloc(ctx, &m, &p, sizeof h);
    if (rc == XG_OK && na)
        rc = XG_CUB(ctx, &t, cub::DeviceReduce::TransformReduce, d_a,
                    (box6 *)p, na, hull6(), valid6(), empty, s);
    if (rc == XG_OK && nb)
        rc = XG_CUB(ctx, &t, cub::DeviceReduce::TransformReduce, d_b,
                    (box6 *)p + 1, nb, hull6(), valid6(), empty, s);
    if (rc == XG_OK && (na || nb) &&
        (rc = XG_CUDA(ctx, cudaMemcpyAsync(h, p, sizeof h,
                                           cudaMemcpyDeviceToHost, s))) ==
            XG_OK)
        rc = XG_CUDA(ctx, cudaStreamSynchronize(s));
    xg__dmem_free(&m);
    if (rc == XG_OK) {
        *ha = na ? h[0] : empty;
        *hb = nb ? h[1] : empty;
    }
    return rc;
}

extern "C" int xg__cuda_grid_build(struct xg_ctx *ctx, const double *d_abox,
                                   size_t na, const double *d_bbox, size_t nb,
                                   const int cells[3], struct xg_dgrid *g,
                                   cudaStream_t s)
{
    struct xg_grid hg;
    box6 ha, hb;
    frame f;
    int k, rc;

    memset(g, 0, sizeof *g);
    memset(&hg, 0, sizeof hg);
    if (na > UINT32_MAX || nb > UINT32_MAX)
        return xg__error(ctx, XG_ELIMIT, "more than 2^32 elements");
    if ((rc = hulls(ctx, (const box6 *)d_abox, na, (const box6 *)d_bbox, nb,
                    &ha, &hb, s)) != XG_OK)
        return rc;
    /* A set has a box when its hull is not the empty one. */
    rc = xg__grid_frame(&hg, ha.v, ha.v[0] <= ha.v[3], hb.v, hb.v[0] <= hb.v[3],
                        na, nb, cells);
    if (rc != XG_OK)
        return xg__error(ctx, rc, "cannot build the grid: %s",
                         xg_strerror(rc));
    if (hg.ncell >= UINT32_MAX)
        return xg__error(ctx, XG_ELIMIT, "too many cells for the GPU grid");
    for (k = 0; k < 3; k++) {
        g->n[k] = f.n[k] = hg.n[k];
        g->lo[k] = f.lo[k] = hg.lo[k];
        g->hi[k] = f.hi[k] = hg.hi[k];
        g->inv[k] = f.inv[k] = hg.inv[k];
    }
    g->ncell = hg.ncell;
    rc = build_set(ctx, d_abox, (uint32_t)na, f, g->ncell, &g->d_a_cell,
                   &g->d_a_start, &g->d_a_items, &g->refs[0], s);
    if (rc == XG_OK)
        rc = build_set(ctx, d_bbox, (uint32_t)nb, f, g->ncell, &g->d_b_cell,
                       &g->d_b_start, &g->d_b_items, &g->refs[1], s);
    if (rc != XG_OK)
        xg__cuda_grid_free(g);
    return rc;
}
