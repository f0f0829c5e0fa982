/*
 * xg_gpu_hit.h -- the record every GPU engine writes for a pair its
 * filter does not dismiss: made on the device, sorted there by (a, b),
 * and turned into contacts on the CPU threads (xg__gpu_finish,
 * cuda/host/gpu_finish.c, with each operation's settle).  Compiled for
 * the host and the GPU like xg_filters.h, so that the tests build on the
 * CPU the very records the kernels build; it decides answers, so it
 * lives with the filters in src/, included by the files that read a hit
 * (no header includes it for another).
 */
#ifndef XG_GPU_HIT_H
#define XG_GPU_HIT_H

#include "exactgeo.h"
#include "xg_filter_segtri.h"
#include "xg_filter_redblue.h"

/* What the device settled of a pair (xg_gpu_hit.flag). */
#define XG_GPU_HIT_DONE 0       /* kind and point certified            */
#define XG_GPU_HIT_DEFER 1      /* classification left to GMP          */
#define XG_GPU_HIT_CONSTRUCT 2  /* kind certified, point left to the host */
#define XG_GPU_HIT_DONE_DD 3    /* point certified in double-double    */

/* kind: enum xg_kind (0 for a deferred pair); p: the point when DONE or
 * DONE_DD (zero otherwise; z = 0 in 2D).  An overlap's stretch is made
 * of input endpoints: the host finds it again from the pair. */
struct xg_gpu_hit {
    uint32_t a, b;              /* local numbers until the host maps them */
    int32_t kind, flag;
    double p[3];
};

/* Segment-triangle: the hit of pair (i, j) for a fast-pass answer r
 * other than a miss (xg_segtri_fast), tt the enclosure of its t: a
 * deferral, or the kind with the point when the double enclosure
 * certifies it. */
XG_HD void xg__segtri_hit(int r, uint32_t i, uint32_t j, const double *s,
                          struct xg_iv tt, struct xg_gpu_hit *h)
{
    h->a = i;
    h->b = j;
    h->p[0] = h->p[1] = h->p[2] = 0.0;
    if (r == XG_SEGTRI_DEFER) {
        h->kind = 0;
        h->flag = XG_GPU_HIT_DEFER;
        return;
    }
    h->kind = r == XG_SEGTRI_PROPER ? XG_KIND_PROPER : XG_KIND_TOUCH;
    h->flag = xg_lerp_fast(s, s + 3, tt, 3, h->p) ? XG_GPU_HIT_DONE
                                                  : XG_GPU_HIT_CONSTRUCT;
    if (h->flag != XG_GPU_HIT_DONE)
        h->p[0] = h->p[1] = h->p[2] = 0.0;
}

/* Red/blue: the fast pass on segments sa (number i) and sb (number j);
 * 0 on a miss, else 1 with the hit in *h. */
XG_HD int xg__redblue_hit(const double *sa, const double *sb, uint32_t i,
                          uint32_t j, struct xg_gpu_hit *h)
{
    struct xg_iv t;
    double p[2] = {0.0, 0.0}, q[2];
    int r = xg_redblue_fast(sa, sa + 3, sb, sb + 3, &t, p, q);
    if (r == XG_REDBLUE_MISS)
        return 0;
    h->a = i;
    h->b = j;
    h->kind = 0;
    h->flag = XG_GPU_HIT_DONE;
    h->p[0] = h->p[1] = h->p[2] = 0.0;
    if (r == XG_REDBLUE_PROPER) {
        h->kind = XG_KIND_PROPER;
        if (!xg_lerp_fast(sa, sa + 3, t, 2, h->p)) {
            h->flag = XG_GPU_HIT_CONSTRUCT;
            h->p[0] = h->p[1] = 0.0;
        }
    } else if (r == XG_REDBLUE_TOUCH) {
        h->kind = XG_KIND_TOUCH;
        h->p[0] = p[0];
        h->p[1] = p[1];
    } else if (r == XG_REDBLUE_OVERLAP) {
        h->kind = XG_KIND_OVERLAP;
    } else {
        h->flag = XG_GPU_HIT_DEFER;
    }
    return 1;
}

#endif /* XG_GPU_HIT_H */
