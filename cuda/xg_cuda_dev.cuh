/*
 * xg_cuda_dev.cuh -- device helpers every GPU engine's kernels share:
 * appending hits (the device half of the output protocol of
 * gpu_output.c), warp-wide counters, and the searches of a scan and
 * of sorted keys.
 * Included by .cu files after xg_cuda.h.
 */
#ifndef XG_CUDA_DEV_CUH
#define XG_CUDA_DEV_CUH

#include "xg_cuda.h"

/* Where a filling pass appends: room for cap items at d_hit, the atomic
 * counter at d_n[0] (xg_gpu_fill.launch).  An item is a hit
 * (struct xg_gpu_hit) or, for an operation whose answer carries no point,
 * a 64-bit key (xg_gpu_fill.item_bytes says which). */
template <class T> struct xg_out {
    T *d_hit;
    uint64_t cap;
    unsigned long long *d_n;
};
typedef xg_out<struct xg_gpu_hit> xg_hit_out;
typedef xg_out<uint64_t> xg_key_out;

/* Appends h: one atomic per item.  Past the room, the item is only
 * counted, so that the protocol knows how much room to give. */
template <class T>
__device__ static inline void xg_append(const xg_out<T> &o, const T &h)
{
    unsigned long long k = atomicAdd(o.d_n, 1ULL);
    if (k < o.cap)
        o.d_hit[k] = h;
}

/* Appends h (when has) for a warp whose 32 lanes all call this: one
 * atomic per warp. */
template <class T>
__device__ static inline void xg_warp_append(const xg_out<T> &o, bool has,
                                             const T &h)
{
    const unsigned full = 0xffffffffu;
    unsigned m = __ballot_sync(full, has), lane = threadIdx.x & 31;
    unsigned long long base = 0;
    if (m == 0)
        return;
    if (lane == (unsigned)(__ffs(m) - 1))
        base = atomicAdd(o.d_n, (unsigned long long)__popc(m));
    base = __shfl_sync(full, base, __ffs(m) - 1);
    if (has) {
        unsigned long long k = base + __popc(m & ((1u << lane) - 1));
        if (k < o.cap)
            o.d_hit[k] = h;
    }
}

/* *d_count += the sum of v over the warp, with one atomic per warp.
 * Every kernel that calls this lets all 32 lanes of every warp reach it
 * (no early return, blocks a multiple of 32), so the full mask is right;
 * __activemask() would not be, since lanes that left a loop at different
 * times need not be converged here. */
__device__ static inline void xg_warp_add(unsigned long long *d_count,
                                          unsigned v)
{
    unsigned s = __reduce_add_sync(0xffffffffu, v);
    if ((threadIdx.x & 31) == 0 && s)
        atomicAdd(d_count, (unsigned long long)s);
}

/* The last i in [0, n) with v[i] <= x, for v non-decreasing with
 * v[0] <= x: in a scan of per-item work, the item that unit x of the run
 * of all work belongs to. */
__device__ static inline size_t xg_last_le(const uint64_t *v, size_t n,
                                           uint64_t x)
{
    size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The first i in [0, n) with v[i] >= x, n when there is none, for v
 * non-decreasing: in sorted keys, where the run of key x starts (or would
 * start): a CSR's start of row x. */
__device__ static inline uint64_t xg_first_ge(const uint32_t *v, uint64_t n,
                                              uint64_t x)
{
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

#endif /* XG_CUDA_DEV_CUH */
