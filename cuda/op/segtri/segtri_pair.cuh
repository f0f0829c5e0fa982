/*
 * segtri_pair.cuh -- one segment-triangle pair on the device, for every
 * strategy's kernels (segtri_kernels.cu, and the paper's in paper.cu).
 *
 * Nothing here decides an answer of its own: the boxes, the ownership
 * rule (xg_boxes.h), the predicate (xg_segtri_fast of xg_filters.h) and
 * the hit (xg__segtri_hit of xg_gpu_hit.h) are the code the CPU engines
 * run.  Built with -fmad=false so that the box test and the cell
 * arithmetic agree with the host's bit for bit.
 */
#ifndef XG_SEGTRI_PAIR_CUH
#define XG_SEGTRI_PAIR_CUH

#include "segtri_gpu.h"
#include "xg_cuda_dev.cuh"

enum { MODE_COUNT = 0, MODE_INTERVAL = 1 };

/* The exact boxes of segment s and triangle t meet. */
__device__ static inline bool seg_tri_boxes_meet(const double *s,
                                                 const double *t)
{
    double p[6], q[6];
    xg__seg_box(s, p);
    xg__tri_box(t, q);
    return xg__boxes_meet(p, q);
}

/* The count pass's estimate for one pair: shift in double, then round,
 * so that the float pass sees small numbers whose rounding is relative
 * to the local extent. */
__device__ static inline int count_estimate(const struct xg_gpu_view &v,
                                            const double *s, const double *t)
{
    float sf[6], tf[9];
    for (int k = 0; k < 6; k++)
        sf[k] = (float)(s[k] - v.origin[k % 3]);
    for (int k = 0; k < 9; k++)
        tf[k] = (float)(t[k] - v.origin[k % 3]);
    return xg_segtri_maybe_f(sf, tf);
}

__device__ static inline void load_pair(const struct xg_gpu_view &v,
                                        uint32_t i, uint32_t j, double *s,
                                        double *t)
{
    const double *ps = v.d_seg + 6 * (size_t)i, *pt = v.d_tri + 9 * (size_t)j;
    for (int k = 0; k < 6; k++)
        s[k] = ps[k];
    for (int k = 0; k < 9; k++)
        t[k] = pt[k];
}

/* One pair.  CHECK: 0 when the caller checked the boxes and the owner;
 * else tally[0] counts box-meeting pairs another cell owns, tally[1]
 * those cell c owns, and only the latter go on.  The count pass returns
 * 1 when the float estimate keeps the pair; the interval pass appends
 * the answer and returns 0. */
template <int MODE, int CHECK>
__device__ static inline int do_pair(const struct xg_gpu_view &v, uint32_t c,
                                     uint32_t i, uint32_t j,
                                     const xg_hit_out &io, int *tally)
{
    double s[6], t[9];
    load_pair(v, i, j, s, t);
    if (CHECK) {
        if (!seg_tri_boxes_meet(s, t))
            return 0;
        if (xg__owner(v.n, v.d_a_cell + 6 * (size_t)i,
                      v.d_b_cell + 6 * (size_t)j) != c) {
            tally[0]++;
            return 0;
        }
        tally[1]++;
    }
    if (MODE == MODE_COUNT) {
        return count_estimate(v, s, t);
    } else {
        struct xg_iv tt = {0.0, 0.0};
        struct xg_gpu_hit h;
        int r = xg_segtri_fast(s, t, &tt);
        if (r != XG_SEGTRI_MISS) {
            xg__segtri_hit(r, i, j, s, tt, &h);
            xg_append(io, h);
        }
        return 0;
    }
}

/* The count pass's three warp-wide sums (xg__cuda_count's d_count). */
__device__ static inline void warp_count(unsigned long long *d_count,
                                         int keep, const int *tally)
{
    xg_warp_add(d_count, (unsigned)keep);
    xg_warp_add(d_count + 1, (unsigned)tally[0]);
    xg_warp_add(d_count + 2, (unsigned)tally[1]);
}

#endif /* XG_SEGTRI_PAIR_CUH */
