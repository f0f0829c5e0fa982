/*
 * inside_run.h -- the host side of the GPU point-in-solid engine, shared
 * by its three files: inside_gpu.c (the run: its stages, their order and
 * the order of their errors), inside_batch.c (the device's side: the
 * solids up, a batch of points into sorted hits) and inside_pipe.c (the
 * host's work beside the device's: the preparation beside the points'
 * upload, the finishes beside the batches, the latter through the GPU
 * engines' pipeline, xg_pipe.h).  Not installed.
 */
#ifndef XG_INSIDE_RUN_H
#define XG_INSIDE_RUN_H

#include <pthread.h>
#include "inside_gpu.h"
#include "host/xg_pipe.h"

/* Device bytes per hit while a batch is finished on the device: the key,
 * its sorted copy, and the radix sort's scratch (about the keys again,
 * with room to spare). */
#define XG_IN_HIT_BYTES (4 * sizeof(uint64_t))
#define XG_IN_POINT_BYTES (3 * sizeof(double))

/* ---- the device's side (inside_batch.c) ---- */

/* The solids into arena m and dev (the resident part of the run), and
 * the kernel's tally (*d_tally, 3 counters, from m). */
int xg__inside_upload_solids(struct xg_ctx *ctx, struct xg_dmem *m,
                             const struct xg__solids *S,
                             struct xg_inside_dev *dev,
                             unsigned long long **d_tally);
/* Device bytes the solids take once up (xg__inside_upload_solids). */
uint64_t xg__inside_resident_bytes(const struct xg__solids *S);
/* Whether all the points (pts bytes) stay on the device beside the
 * solids, with room for the hits of a few points at least. */
int xg__inside_points_stay(const struct xg__solids *S, uint64_t pts,
                           uint64_t budget);
/* One batch of points on the device: the points a0 .. a0 + n - 1, from
 * its upload (xg__inside_batch_up) through its filling pass
 * (xg__inside_batch_fill) to its download (xg__inside_batch_down); its
 * device memory is m's, freed by the caller (xg__dmem_free) after the
 * download or a failure.  Zeroed, then a0 and n set, before the upload. */
struct xg_inside_dbatch {
    struct xg_dmem m;
    uint32_t a0, n;
    uint64_t pts;               /* device bytes of its own points */
    struct xg_inside_pass pass;
    struct xg_gpu_fill fill;
    void *d_hit;                /* the hits, in m */
    uint64_t deferred;          /* how many of them the device deferred */
};
/* Batch b's points on the device: at d_all + 3 a0 when all of them went
 * up before the batches (d_all not NULL), else uploaded from xyz. */
int xg__inside_batch_up(struct xg_ctx *ctx, const double *xyz,
                        const double *d_all, struct xg_inside_dbatch *b,
                        struct xg_stats *st);
/* Batch b's filling pass: fill_fn (xg__cuda_inside, or a benchmark's),
 * with a first room of ratio hits per point (the batch before's);
 * b->deferred and st's counters from the tally (d_tally).  XG_GPU_SPLIT
 * when its hits would not fit room (bytes for the batch's points and
 * hits). */
int xg__inside_batch_fill(struct xg_ctx *ctx, const struct xg_gpu *gpu,
                          const struct xg_inside_dev *dev,
                          xg_gpu_fill_fn fill_fn,
                          unsigned long long *d_tally, uint64_t room,
                          double ratio, struct xg_inside_dbatch *b,
                          struct xg_stats *st);
/* Batch b's hits sorted by (point, solid) on the device and downloaded:
 * *h_hit (caller frees) and *nhit. */
int xg__inside_batch_down(struct xg_ctx *ctx, const struct xg_gpu *gpu,
                          struct xg_inside_dbatch *b, uint64_t **h_hit,
                          uint64_t *nhit, struct xg_stats *st);

/* ---- the host's work beside the device's (inside_pipe.c) ----
 * Two things run beside each other through xg__parallel(2, ...), tid 0
 * on the calling thread (which holds the device): the upload of all the
 * points while the host prepares the solids (the points do not depend on
 * them), and each batch's device part while the host finishes the batch
 * before (the records are appended in batch order, one finish at a
 * time).  The side that is not the calling thread's reports its error
 * in a context of its own, copied into the caller's after the join, so
 * that two failures never write one message at once. */

/* The solids' coordinates checked, the solids prepared, then checked
 * to be closed (tid 0), while the points go up (tid 1), checked as they
 * pass (the coordinates' check is this engine's: inside_ops'
 * gpu_checks_finite), then the solids once they are prepared (while
 * tid 0 checks them), where they fit beside all the points: the bus
 * takes them after the points, and the device can start the first
 * batch as soon as the check is done. */
struct xg_inside_prep {
    struct xg_ctx *ctx, up;     /* up: the upload's context */
    const struct xg_set *b;
    const struct xg_opts *opt;
    struct xg__solids *S;
    struct xg_stats *st;
    void *d_pts;
    const double *xyz;
    size_t n;                   /* doubles */
    cudaStream_t s;             /* the run's stream, free meanwhile */
    size_t locked;              /* pieces of xyz locked (gpu_pinned.c) */
    int device, finite_rc, rc, closed_rc, up_rc, a_bad;
    double prep_s, up_s;
    /* the solids' upload (tid 1), when they fit beside the points */
    uint64_t budget;
    struct xg_dmem *m;
    struct xg_inside_dev *dev;
    unsigned long long *d_tally;
    int solids_up;
    pthread_mutex_t mu;         /* prepared, under mu */
    pthread_cond_t cv;
    int prepared;
};
/* xg__parallel's worker for a struct xg_inside_prep (arg): tid 0 the
 * preparation, tid 1 (when there is one) the upload. */
void xg__inside_prep_worker(void *arg, int tid);

/* The batches, through the GPU engines' pipeline (xg_pipe.h, with no
 * limit on the batches in flight): each batch's device stages one after
 * another on the calling thread (which holds the device and reports
 * progress), each batch's hits handed over in order to the finishes,
 * which write the records in batch order.  Neither side waits for the
 * other's step to end, only for a batch to finish that has not come
 * yet: the device runs ahead while the host finishes a dense batch, and
 * the other way round.  A batch whose hits would not fit is made again
 * with half the points, and so are the batches after it. */
struct xg_inside_batch {
    uint64_t *hit;              /* sorted keys (NULL: none) */
    uint64_t nhit, deferred;
    uint32_t a0, n;
};

struct xg_inside_pipe {
    struct xg_ctx *ctx;
    /* the device side */
    const struct xg_gpu *gpu;
    const struct xg_inside_dev *dev;
    const struct xg_set *a;
    const double *d_all;
    xg_gpu_fill_fn fill_fn;     /* the batches' filling pass */
    int device_work;            /* 0: no triangles */
    unsigned long long *d_tally;
    uint64_t room, batch, done; /* done: points made */
    double ratio;               /* hits per point of the batch before */
    struct xg_inside_dbatch b;  /* the batch on the device */
    struct xg_stats *st;
    /* the finishes */
    struct xg__inside_finish *f;
    struct xg_contacts *out;
    double fin_s;
    /* the points' pieces still locked, given back after the batches */
    size_t locked;
};
/* The batches of pp through xg__pipe_run; the finishes' time in
 * pp->fin_s.  Every batch's hits are the finishes' or freed, and the
 * points' pieces given back, whatever it returns. */
int xg__inside_pipe_run(struct xg_inside_pipe *pp);

#endif /* XG_INSIDE_RUN_H */
