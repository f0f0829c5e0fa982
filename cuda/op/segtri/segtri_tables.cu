/*
 * segtri_tables.cu -- what the packed strategy of the GPU segtri engine
 * prepares on the device (segtri_gpu.h): each element's 32-byte record
 * for the count pass's cheap test, and the tables that cut the run of
 * all candidate pairs into blocks of XG_GPU_PACK_PAIRS.
 */
#include "segtri_gpu.h"
#include "xg_cub.cuh"
#include "xg_cuda_dev.cuh"

/* A by-value copy of an origin, for a kernel's parameters. */
struct xg_gpu_origin {
    double o[3];
};

/* The packed kernel's record of each element, 32 bytes (one memory
 * sector): its box in floats, rounded outward from coordinates shifted to
 * origin (containing the exact box, so the float test never drops a pair
 * whose boxes meet), and the cell of its box's low corner, x and y in 16
 * bits each (the caller checks the grid is that narrow), for the
 * ownership rule. */
__global__ static void k_records(const double *d_xyz, const int32_t *d_cell,
                                 uint32_t n, int pts, struct xg_gpu_origin o,
                                 uint4 *d_rec)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const double *x = d_xyz + 3 * pts * (size_t)i;
    const int32_t *c = d_cell + 6 * (size_t)i;
    double b[6];
    float f[6];
    if (pts == 2)
        xg__seg_box(x, b);
    else
        xg__tri_box(x, b);
    for (int k = 0; k < 3; k++) {
        f[k] = __double2float_rd(__dsub_rd(b[k], o.o[k]));
        f[3 + k] = __double2float_ru(__dsub_ru(b[3 + k], o.o[k]));
    }
    d_rec[2 * (size_t)i] = make_uint4(__float_as_uint(f[0]),
                                      __float_as_uint(f[1]),
                                      __float_as_uint(f[2]),
                                      __float_as_uint(f[3]));
    d_rec[2 * (size_t)i + 1] = make_uint4(
        __float_as_uint(f[4]), __float_as_uint(f[5]),
        (uint32_t)(c[0] & 0xffff) | (uint32_t)c[1] << 16, (uint32_t)c[2]);
}

extern "C" int xg__cuda_records(struct xg_ctx *ctx, const double *d_xyz,
                                const int32_t *d_cell, uint32_t n, int pts,
                                const double origin[3], void *d_rec,
                                cudaStream_t stream)
{
    struct xg_gpu_origin o;
    o.o[0] = origin[0];
    o.o[1] = origin[1];
    o.o[2] = origin[2];
    if (n == 0)
        return XG_OK;
    k_records<<<(n + 255) / 256, 256, 0, stream>>>(d_xyz, d_cell, n, pts, o,
                                                   (uint4 *)d_rec);
    return XG_CUDA(ctx, cudaGetLastError());
}

/* The packed tables: the cells with pairs (d_pcell, local numbers), the
 * run of their pairs (d_pw, ncomp + 1 entries, the last the total), and
 * for each block the cell of its first pair (d_bcell, nblocks + 1; the
 * last entry is the last cell). */
struct nonzero_pairs {
    const uint64_t *w;
    __host__ __device__ bool operator()(const uint32_t &c) const
    {
        return w[c] != 0;
    }
};

/* Thread k < ncomp: the pairs of the k-th cell with pairs into d_pw[k];
 * thread ncomp: d_pw[ncomp] = 0, which the exclusive scan that follows
 * makes the total. */
__global__ static void k_gather_w(const uint64_t *d_w, const uint32_t *d_pcell,
                                  uint32_t ncomp, uint64_t *d_pw)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < ncomp)
        d_pw[k] = d_w[d_pcell[k]];
    else if (k == ncomp)
        d_pw[k] = 0;
}

/* Thread b < nblocks: the cell (among those with pairs) in which packed
 * block b's first pair lies, the last whose first pair (d_pw, scanned)
 * is <= it; thread nblocks: the last cell, where the last block ends. */
__global__ static void k_bcell(const uint64_t *d_pw, uint32_t ncomp,
                               uint64_t nblocks, uint32_t *d_bcell)
{
    uint64_t b = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (b > nblocks)
        return;
    if (b == nblocks) {
        d_bcell[b] = ncomp - 1;
        return;
    }
    d_bcell[b] = (uint32_t)xg_last_le(d_pw, ncomp, b * XG_GPU_PACK_PAIRS);
}

/* The cells with pairs, in ascending order, into d_pcell (room for
 * ncell) and their count into *ncomp: the numbers selected in place
 * (CUB's selection keeps their order), the count read back
 * (synchronizes).  Scratch from t. */
static int cells_with_pairs(struct xg_ctx *ctx, struct xg_cub_tmp *t,
                            const uint64_t *d_w, size_t ncell,
                            uint32_t *d_pcell, uint32_t *ncomp,
                            cudaStream_t stream)
{
    nonzero_pairs f = {d_w};
    int64_t *d_nsel, nsel = 0;
    void *p;
    int rc;
    if ((rc = xg__dmem_alloc(ctx, t->m, &p, sizeof *d_nsel)) != XG_OK)
        return rc;
    d_nsel = (int64_t *)p;
    if ((rc = xg__cuda_iota(ctx, d_pcell, (uint32_t)ncell, stream)) !=
            XG_OK ||
        (rc = XG_CUB(ctx, t, cub::DeviceSelect::If, d_pcell, d_nsel,
                     (int64_t)ncell, f, stream)) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemcpyAsync(&nsel, d_nsel, sizeof nsel,
                                           cudaMemcpyDeviceToHost,
                                           stream))) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaStreamSynchronize(stream))) != XG_OK)
        return rc;
    *ncomp = (uint32_t)nsel;
    return XG_OK;
}

/* The tables once the cells with pairs are known (contract of
 * xg__cuda_packed_tables, segtri_gpu.h). */
static int packed_tables(struct xg_ctx *ctx, struct xg_cub_tmp *t,
                         const uint64_t *d_w, size_t ncell,
                         uint32_t *d_pcell, uint64_t *d_pw,
                         uint32_t *d_bcell, uint64_t total, uint32_t *ncomp,
                         uint64_t *nblocks, cudaStream_t stream)
{
    uint64_t nb;
    int rc;
    if ((rc = cells_with_pairs(ctx, t, d_w, ncell, d_pcell, ncomp,
                               stream)) != XG_OK)
        return rc;
    k_gather_w<<<(*ncomp + 1 + 255) / 256, 256, 0, stream>>>(d_w, d_pcell,
                                                             *ncomp, d_pw);
    if ((rc = XG_CUDA(ctx, cudaGetLastError())) != XG_OK ||
        (rc = XG_CUB(ctx, t, cub::DeviceScan::ExclusiveSum, d_pw, d_pw,
                     *ncomp + 1, stream)) != XG_OK)
        return rc;
    nb = (total + XG_GPU_PACK_PAIRS - 1) / XG_GPU_PACK_PAIRS;
    if (nb > 0x7fffffffULL)
        return xg__error(ctx, XG_ELIMIT, "too many blocks: %llu",
                         (unsigned long long)nb);
    k_bcell<<<(unsigned)((nb + 1 + 255) / 256), 256, 0, stream>>>(
        d_pw, *ncomp, nb, d_bcell);
    if ((rc = XG_CUDA(ctx, cudaGetLastError())) != XG_OK)
        return rc;
    *nblocks = nb;
    return XG_OK;
}

extern "C" int xg__cuda_packed_tables(struct xg_ctx *ctx, const uint64_t *d_w,
                                      size_t ncell, uint32_t *d_pcell,
                                      uint64_t *d_pw, uint32_t *d_bcell,
                                      uint64_t total, uint32_t *ncomp,
                                      uint64_t *nblocks, cudaStream_t stream)
{
    struct xg_dmem m = XG_DMEM_INIT;
    struct xg_cub_tmp t = {&m, NULL, 0};
    int rc;
    *ncomp = 0;
    *nblocks = 0;
    if (ncell == 0 || total == 0)
        return XG_OK;
    rc = packed_tables(ctx, &t, d_w, ncell, d_pcell, d_pw, d_bcell, total,
                       ncomp, nblocks, stream);
    xg__dmem_free(&m);          /* cudaFree waits for the device */
    return rc;
}
