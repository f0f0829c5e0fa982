/*
 * xg_ctx.h -- the context inside the library: its fields, the errors
 * and messages it records, its threads, the cancel test, the memory
 * check every entry makes, and the clock (ctx.c, memory.c, clock.c).
 */
#ifndef XG_CTX_H
#define XG_CTX_H

#include "exactgeo.h"

/* ---- context (ctx.c) ---- */
struct xg_ctx {
    int nthreads;                 /* 0 = online processors */
    xg_progress_fn progress;
    void *progress_user;
    char errmsg[1024];
    /* The GPUs runs use (xg_ctx_set_gpu, xg_ctx_set_gpus): device
     * numbers gpus[0 .. ngpus-1] (ngpus >= 1; gpus[0] may be -1, the
     * calling thread's current device, when ngpus is 1), and the
     * caller's stream on gpus[0] (a cudaStream_t), or NULL for one the
     * engine makes per run.  An engine's run uses gpus[0]; a run over
     * several devices gives each worker a context of its own whose
     * gpus[0] is its device (regions_run.c). */
    int gpus[XG_GPUS_MAX];
    int ngpus;
    void *gpu_stream;
    /* An engine's resources kept between calls (the GPU engines' pinned
     * upload buffers, one set per device used, cuda/gpu_pinned.c),
     * released by xg_ctx_free through gpu_free. */
    void *gpu;
    void (*gpu_free)(void *gpu);
    /* The memory a run may take (xg_ctx_set_memory): 0 what the machine
     * has available, XG_MEMORY_UNCHECKED no check. */
    uint64_t memory;
};

/* XG_OK, or XG_ENOMEM with the message when a run of operation op (NULL:
 * no check) over na and nb elements would take more memory than ctx
 * allows (memory.c): each operation's entry asks before any work.
 * records: the records the run will make whatever the data (xg_inside
 * with opt->outside: one per point at least), 64 bytes each beyond
 * xg_op_memory's estimate; 0 when none are known. */
int xg__memory_check(struct xg_ctx *ctx, const struct xg_op *op, size_t na,
                     size_t nb, uint64_t records);

/* Records a printf-style message in ctx (which may be NULL) and
 * returns code, so that callers can write `return xg__error(ctx, ...)`. */
int xg__error(struct xg_ctx *ctx, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int xg__threads(const struct xg_ctx *ctx); /* resolved count, >= 1 */
/* Non-zero when the progress callback of ctx (which may be NULL), called
 * with fraction, asks to cancel (pair_engine.c; every engine's check). */
int xg__cancelled_at(struct xg_ctx *ctx, double fraction);

/* ---- monotonic clock (clock.c) ---- */
/* Seconds on CLOCK_MONOTONIC, for the stages' timings: only differences
 * mean anything. */
double xg__now(void);

#endif /* XG_CTX_H */
