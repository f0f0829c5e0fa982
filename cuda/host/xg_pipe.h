/*
 * xg_pipe.h -- the GPU engines' one overlapped pipeline (xg_pipe.c):
 * batches through the device one after another on the calling thread
 * (which holds the device), each batch's output handed over to the
 * host's finish, which runs beside the device's work on the batches
 * after it.  Plain C (pthreads, no CUDA), built in every build, so that
 * tests/pipe_t drives it with CPU callbacks on machines without a GPU.
 * Used by the point-in-solid engine (inside_gpu.c) and segtri's batches
 * (segtri_gpu.c).  Not installed.
 */
#ifndef XG_PIPE_H
#define XG_PIPE_H

#include <stddef.h>

struct xg_ctx;

/* What a device stage returns when it has cut its batch smaller (its
 * output would not fit): batch k is made again from next(), with the
 * same k.  Never a result code of the pipeline. */
#define XG_PIPE_AGAIN (-16)

/* A batch's stages, in the order the pipeline calls them.  user: the
 * caller's (struct xg_pipe); k: the batch's number, 0, 1, 2, ... in the
 * order the batches are made.  Every stage but next and finish may be
 * NULL (nothing to do).  The device side (next .. release, device_end)
 * runs on the calling thread, one batch at a time; the finishes run one
 * at a time, in batch order, on another thread (or on the calling one
 * while it waits for room, see depth), never beside each other, so
 * their state needs no lock between them; a device stage and a finish
 * may run at the same time and must share nothing unlocked. */
struct xg_pipe_ops {
    /* Whether batch k exists (0: all are made); *done gets the fraction
     * of the work made before it, for the progress.  Called again for
     * the same k after a stage returned XG_PIPE_AGAIN. */
    int (*next)(void *user, size_t k, double *done);
    /* The device stages of batch k: its input up, its kernels, its
     * output down into item (item_size bytes, zeroed before; on failure
     * download leaves nothing in it to free).  XG_OK, XG_PIPE_AGAIN, or
     * a result code that stops the pipeline (with its message in the
     * caller's context). */
    int (*upload)(void *user, size_t k);
    int (*launch)(void *user, size_t k);
    int (*download)(void *user, size_t k, void *item);
    /* After the device stages of batch k, whatever they returned: gives
     * back what upload and launch took for it (its device memory). */
    void (*release)(void *user, size_t k);
    /* Once, after the device side's last batch (or its failure), while
     * finishes may still run: the device side's own tidying. */
    void (*device_end)(void *user);
    /* The host's finish of batch k, whose output is item (its own,
     * freed by finish whatever it returns); a failure's message goes to
     * err (the pipeline's context for the finishes, with the caller's
     * thread count), copied into the caller's when it is the run's. */
    int (*finish)(void *user, size_t k, void *item, struct xg_ctx *err);
    /* Frees the output of a batch made but never finished (the
     * pipeline stopped first). */
    void (*drop)(void *user, void *item);
};

struct xg_pipe {
    const struct xg_pipe_ops *ops;
    void *user;
    size_t item_size;   /* bytes of a batch's output (0: none) */
    /* The most batches in flight: made (from next's yes) and not yet
     * finished.  0: no limit (the device side never waits for the
     * finishes); 1: no overlap, every finish on the calling thread
     * after its batch; 2: the finish of batch k beside the device
     * stages of batch k + 1. */
    size_t depth;
    /* Non-zero: the context's progress is called before each batch
     * with next's fraction, and a cancel stops the run (XG_ECANCEL). */
    int progress;
};

/* Runs every batch of p through its stages (xg_pipe_ops).  The outputs
 * are finished in batch order whatever the timing.  The first failure
 * stops the pipeline: no batch is made after it, the finish running
 * then ends, the outputs not finished are dropped, and its code is
 * returned with its message in ctx (the device side's failure first
 * when both sides fail).  XG_OK when every batch made was finished.
 * ctx (may be NULL): progress and cancel, messages. */
int xg__pipe_run(struct xg_ctx *ctx, const struct xg_pipe *p);

#endif /* XG_PIPE_H */
