/*
 * xg_cub.cuh -- CUB's device-wide algorithms (sort, scan, reduce,
 * select) as every GPU engine calls them, in .cu files only.
 *
 * CUB's two-call protocol, written once: the first call, with a NULL
 * buffer, only says how much scratch the algorithm needs; the scratch
 * is taken from the caller's arena (xg__dmem_alloc: the engines' one
 * allocation path, freed with the arena, counted in the run's device
 * memory where the run estimates it), kept for the run's later calls
 * when large enough; the second call enqueues the work on the stream
 * named in the call.  Both calls are checked as XG_CUDA checks a runtime
 * call: file, line, the algorithm's name and the runtime's reason.
 *
 * Why CUB's device-wide calls and no higher-level algorithm library:
 * these report through cudaError_t and throw nothing, allocate nothing
 * of their own and never synchronize behind the caller's back; the
 * algorithms of such a library allocate their scratch outside the
 * engines' arena, synchronize, and report a failure by throwing a C++
 * exception, which must not cross the engines' extern "C" boundary.
 */
#ifndef XG_CUB_CUH
#define XG_CUB_CUH

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include "xg_cuda.h"

/* The scratch of a run's CUB calls: device memory owned by the arena m,
 * grown (a new, larger block of m) when a call needs more than it has,
 * never shrunk.  Start it as {m, NULL, 0}. */
struct xg_cub_tmp {
    struct xg_dmem *m;
    void *d;
    size_t bytes;
};

/* Runs call(d_tmp, bytes) by the two-call protocol with the scratch of
 * t (see above); what file, line and what name in an error.  Returns
 * XG_OK, or XG_EGPU / XG_ELIMIT with detail in ctx; the work is only
 * enqueued. */
template <class Call>
static int xg_cub_run(struct xg_ctx *ctx, struct xg_cub_tmp *t, Call call,
                      const char *file, int line, const char *what)
{
    size_t bytes = 0;
    void *p;
    int rc = xg__cuda_check(ctx, call((void *)NULL, bytes), file, line,
                            what);
    if (rc != XG_OK)
        return rc;
    if (bytes > t->bytes) {
        if ((rc = xg__dmem_alloc(ctx, t->m, &p, bytes)) != XG_OK)
            return rc;
        t->d = p;
        t->bytes = bytes;
    }
    return xg__cuda_check(ctx, call(t->d, bytes), file, line, what);
}

/* *bytes = the scratch call(d_tmp, bytes) needs, asked without running
 * it: for a run that checks its device memory before it allocates. */
template <class Call>
static int xg_cub_size(struct xg_ctx *ctx, Call call, size_t *bytes,
                       const char *file, int line, const char *what)
{
    *bytes = 0;
    return xg__cuda_check(ctx, call((void *)NULL, *bytes), file, line,
                          what);
}

/* XG_CUB(ctx, &t, cub::DeviceScan::ExclusiveSum, d_in, d_out, n, s):
 * the algorithm with its arguments after the scratch pair, run through
 * xg_cub_run.  XG_CUB_SIZE(ctx, &bytes, algo, args...): its scratch
 * size only. */
#define XG_CUB(ctx, t, algo, ...)                                          \
    xg_cub_run((ctx), (t),                                               \
               [&](void *d_tmp_, size_t &bytes_) {                       \
                   return algo(d_tmp_, bytes_, __VA_ARGS__);             \
               },                                                        \
               __FILE__, __LINE__, #algo)
#define XG_CUB_SIZE(ctx, bytes, algo, ...)                                 \
    xg_cub_size((ctx),                                                   \
                [&](void *d_tmp_, size_t &bytes_) {                      \
                    return algo(d_tmp_, bytes_, __VA_ARGS__);            \
                },                                                       \
                (bytes), __FILE__, __LINE__, #algo)

#endif /* XG_CUB_CUH */
