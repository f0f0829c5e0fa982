/*
 * redblue_solo.cu -- what the CUDA build's own files provide (device
 * detection, the 3D engine), for building the red/blue GPU engine alone
 * with bench/build_gpu_redblue.sh until the two builds are one.
 */
#include <cuda_runtime.h>
#include <gmp.h>
extern "C" {
#include "xg_internal.h"
}

extern "C" int xg_gpu_available(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

extern "C" int xg__gpu_segtri(struct xg_ctx *ctx, const struct xg_segs *a,
                              const struct xg_tris *b,
                              const struct xg_opts *opt,
                              struct xg_contacts *out, struct xg_stats *st)
{
    (void)a; (void)b; (void)opt; (void)out; (void)st;
    return xg__error(ctx, XG_ENOTSUP, "segtri is not in the red/blue build");
}
