/*
 * xg_cuda.h -- the GPU plumbing every GPU engine calls, plain C at the
 * boundary (engines' host code is C, kernels are CUDA).  Not installed.
 *
 *   gpu_device.c   the device, the engine's stream and memory budget, the
 *                  one error check, device memory held by an arena;
 *   gpu_pinned.c   uploads and downloads through pinned buffers kept in
 *                  the context;
 *   gpu_output.c   the output protocol (bound, fill, relaunch when the
 *                  bound falls short) and the sorted download of hits;
 *   sort_hits.cu   the sort of hits by (a, b) on the device;
 *   xg_cub.cuh     CUB's algorithms with their scratch in an arena;
 *   boxes.cu       boxes and degenerate elements (xg_boxes.h's rules);
 *   grid_gpu.cu    the uniform grid built on the device;
 *   cell_pairs.cu  the pairs of every cell, and their blocks;
 *   gpu_engines.c  the table that registers the engines with src/.
 * What the engines use of the core comes through xg_core.h, and nothing
 * else.  The host half (batches, hits into contacts on the CPU threads,
 * inside's finish) is cuda/host/'s, plain C in every build
 * (xg_gpuhost.h).  An engine adds only what is particular to its
 * operation: segtri_gpu.h, redblue_gpu.h, and the paper's benchmark-only
 * strategies (paper.h).
 *
 * Every launcher takes the context for error detail and a stream, and
 * returns an int code (XG_OK, or XG_EGPU with "file:line: call: reason"
 * in ctx).  Launchers only enqueue work unless they say they synchronize.
 * Device pointers are named d_...
 */
#ifndef XG_CUDA_H
#define XG_CUDA_H

#include <cuda_runtime_api.h>
#include "xg_core.h"
#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors (gpu_device.c) ---- */

/* The one check of every runtime call and launch (a launch: call it on
 * cudaGetLastError()): XG_OK, or XG_EGPU with file, line, the call's text
 * and the runtime's reason in ctx.  An expression, so that it serves
 * `return XG_CUDA(...)` and `if ((rc = XG_CUDA(...)) != XG_OK) goto out`
 * alike. */
#define XG_CUDA(ctx, call) \
    xg__cuda_check((ctx), (call), __FILE__, __LINE__, #call)
int xg__cuda_check(struct xg_ctx *ctx, cudaError_t e, const char *file,
                   int line, const char *what);

/* Returned by an engine's pass when its output would not fit the memory
 * budget: the caller cuts the work smaller. */
#define XG_GPU_SPLIT (-1)

/* ---- device and stream (gpu_device.c) ---- */

/* xg__gpu_engine's check (struct xg__gpu_engine): the device exists and
 * has compute capability 9.0 or more, the stream is one of its own. */
int xg__cuda_device_check(struct xg_ctx *ctx, int device, void *stream,
                          int *resolved);
/* The CUDA devices present (0 when the runtime finds none). */
int xg__cuda_device_count(void);

/* One engine run's device, stream and device-memory budget.  Open makes
 * the context's device (xg_ctx_set_gpu) current on the calling thread,
 * takes the context's stream or makes one, and waits for the work queued
 * on it; budget: what the device has free less room for the runtime, or
 * the caller's cap (xg_opts' gpu_mem_cap) when smaller.  Close destroys
 * only a stream open made (the caller's is synchronized and kept) and
 * makes prev_device current again. */
struct xg_gpu {
    cudaStream_t s;
    int own_stream;             /* s was made by xg__gpu_open */
    int device, prev_device;
    uint64_t budget;
};
int xg__gpu_open(struct xg_ctx *ctx, const struct xg_opts *opt,
                 struct xg_gpu *gpu);
void xg__gpu_close(struct xg_gpu *gpu);

/* Two events around some enqueued work (a wait on the second sleeps);
 * seconds between them once it is done (0 when unknown).
 * xg__gpu_events_free accepts NULL events. */
int xg__gpu_events(struct xg_ctx *ctx, cudaEvent_t ev[2]);
double xg__gpu_elapsed(cudaEvent_t ev[2]);
void xg__gpu_events_free(cudaEvent_t ev[2]);

/* ---- device memory (gpu_device.c) ----
 * An arena owns a run's device arrays: each allocation is recorded, and
 * xg__dmem_free frees them all (the arena starts zeroed: XG_DMEM_INIT). */
#define XG_DMEM_MAX 48
struct xg_dmem {
    void *p[XG_DMEM_MAX];
    int n;
};
#define XG_DMEM_INIT {{0}, 0}
/* *d_ptr = bytes of device memory (at least 1), owned by m. */
int xg__dmem_alloc(struct xg_ctx *ctx, struct xg_dmem *m, void **d_ptr,
                   size_t bytes);
/* As xg__dmem_alloc, then queues the copy of bytes from host h on s. */
int xg__dmem_up(struct xg_ctx *ctx, struct xg_dmem *m, const void **d_ptr,
                const void *h, size_t bytes, cudaStream_t s);
/* Frees the most recent allocation (the output protocol's regrowth). */
void xg__dmem_pop(struct xg_dmem *m);
void xg__dmem_free(struct xg_dmem *m);

/* ---- uploads and downloads (gpu_pinned.c) ---- */

/* Copies bytes from host src to d_dst (memory of the calling thread's
 * current device) through the context's pinned buffers for that device
 * (made on first use, freed by xg_ctx_free), on several threads and
 * streams of their own; complete on return. */
int xg__gpu_upload(struct xg_ctx *ctx, void *d_dst, const void *src,
                   size_t bytes);
/* xg__gpu_upload of n doubles, which checks them on the way: *bad =
 * whether one is infinite or NaN (xg__nonfinite_run). */
int xg__gpu_upload_finite(struct xg_ctx *ctx, double *d_dst,
                          const double *src, size_t n, int *bad);
/* bytes from host src to d_dst on stream s by page-locking src itself,
 * in pieces, each sent as soon as it is locked: no host core copies the
 * data (the pinned buffers' copies compete for memory with the host's
 * work beside the transfer).  Complete on return, src still locked in
 * *locked pieces, which the caller gives back with xg__gpu_unlock (also
 * after an error).  XG_GPU_UNLOCKED, nothing sent or locked, when the
 * memory cannot be locked (the caller then uses xg__gpu_upload). */
#define XG_GPU_UNLOCKED (-2)
int xg__gpu_upload_locked(struct xg_ctx *ctx, void *d_dst, const void *src,
                          size_t bytes, cudaStream_t s, size_t *locked);
void xg__gpu_unlock(const void *src, size_t bytes, size_t locked);
/* The other way: bytes from d_src (the current device's, complete: the
 * caller has synchronised what writes it) to host dst. */
int xg__gpu_download(struct xg_ctx *ctx, void *dst, const void *d_src,
                     size_t bytes);

/* ---- output of unknown size (gpu_output.c) ----
 * An engine's filling pass appends items with an atomic counter, and
 * drops those past the room it was given: a count past the room means
 * the bound fell short, and the protocol grows the room to the count and
 * runs the pass again.  An item is a hit (struct xg_gpu_hit) or, where
 * the answer carries no point (inside), a 64-bit key that sorts as its
 * hit would (xg__inside_key): item_bytes says which. */
/* A filling pass: enqueues the pass of user on s, which appends to d_out
 * (room for cap items) counting in d_n[0]; d_n[1] is the pass's own
 * tally.  Both zeroed. */
typedef int (*xg_gpu_fill_fn)(struct xg_ctx *ctx, void *user, void *d_out,
                              uint64_t cap, unsigned long long *d_n,
                              cudaStream_t s);
struct xg_gpu_fill {
    xg_gpu_fill_fn launch;      /* the pass */
    void *user;
    size_t item_bytes;          /* sizeof(struct xg_gpu_hit) or 8 */
    uint64_t cap;               /* the first room: the bound, or a guess */
    uint64_t max_cap;           /* XG_GPU_SPLIT past it (UINT64_MAX: none) */
    /* filled in: */
    uint64_t n;                 /* items written */
    uint64_t tally;             /* d_n[1] of the pass that fitted */
    uint64_t relaunches;
    double kernel_seconds;      /* events around the pass that fitted */
};
/* f for the pass launch(user) of hits, cap its first room, no split. */
static inline void xg__gpu_fill_init(struct xg_gpu_fill *f,
                                     xg_gpu_fill_fn launch, void *user,
                                     uint64_t cap)
{
    memset(f, 0, sizeof *f);
    f->launch = launch;
    f->user = user;
    f->item_bytes = sizeof(struct xg_gpu_hit);
    f->cap = cap;
    f->max_cap = UINT64_MAX;
}
/* Runs f's pass until its items fit; *d_out (owned by m) gets them.
 * XG_GPU_SPLIT past f->max_cap, XG_ELIMIT past 2^32 items. */
int xg__gpu_fill(struct xg_ctx *ctx, struct xg_dmem *m, struct xg_gpu_fill *f,
                 void **d_out, cudaStream_t s);

/* The n items at d_out sorted on the device, hits by (a, b), keys as
 * numbers, then downloaded: *h_out gets them (xg__big_alloc; caller
 * frees).  Adds the sort's time to st's unique stage and the transfer's
 * to its download stage. */
int xg__gpu_download_sorted(struct xg_ctx *ctx, struct xg_dmem *m,
                            const struct xg_gpu_fill *f, const void *d_out,
                            void **h_out, struct xg_stats *st,
                            cudaStream_t s);

/* The common start of a pair engine's GPU run (inside, red/blue): st
 * marked as the GPU's, one host thread, the inputs' counts from a and b;
 * out's records freed and out zeroed (the run then owns filling it). */
void xg__gpu_run_begin(const struct xg_set *a, const struct xg_set *b,
                       struct xg_contacts *out, struct xg_stats *st);

/* The output of an engine that runs in one batch: f's pass through the
 * protocol (its time to st's intersect stage), the hits sorted and
 * downloaded, then finished into out (replaced) by xg__gpu_finish with
 * the pair's ops over coordinates a and b; dedup as there. */
int xg__gpu_contacts(struct xg_ctx *ctx, struct xg_dmem *m,
                     struct xg_gpu_fill *f, const struct xg__pair_ops *ops,
                     const double *a, const double *b, int dedup,
                     struct xg_contacts *out, struct xg_stats *st,
                     cudaStream_t s);

/* Sorts n hits by (a, b) into d_out (sort_hits.cu).  d_tmp NULL:
 * *tmp_bytes gets the scratch size to allocate. */
int xg__cuda_sort_hits(struct xg_ctx *ctx, const struct xg_gpu_hit *d_in,
                       struct xg_gpu_hit *d_out, uint32_t n, void *d_tmp,
                       size_t *tmp_bytes, cudaStream_t stream);
/* The same for n 64-bit keys. */
int xg__cuda_sort_keys(struct xg_ctx *ctx, const uint64_t *d_in,
                       uint64_t *d_out, uint32_t n, void *d_tmp,
                       size_t *tmp_bytes, cudaStream_t stream);
/* Enqueues d_v[k] = k for k < n: the numbers a sort carries beside its
 * keys, or that a selection picks from (sort_hits.cu). */
int xg__cuda_iota(struct xg_ctx *ctx, uint32_t *d_v, uint32_t n,
                  cudaStream_t stream);

/* ---- boxes (boxes.cu) ----
 * Boxes of n segments (6 doubles each; dim 3, or 2 for red/blue's flat
 * boxes) into d_box; a zero-length segment gets none and is counted in
 * *d_bad.  Boxes of n triangles; a triangle the interval filter cannot
 * certify non-degenerate (xg_tri_proper_iv) keeps its box, is listed in
 * d_flag (room for n) and counted in *d_nflag, for the host to decide
 * exactly and clear with xg__cuda_clear_boxes.  Counters zeroed by the
 * caller. */
int xg__cuda_seg_boxes(struct xg_ctx *ctx, const double *d_seg, uint32_t n,
                       int dim, double *d_box, unsigned long long *d_bad,
                       cudaStream_t stream);
int xg__cuda_tri_boxes(struct xg_ctx *ctx, const double *d_tri, uint32_t n,
                       double *d_box, uint32_t *d_flag,
                       unsigned long long *d_nflag, cudaStream_t stream);
int xg__cuda_clear_boxes(struct xg_ctx *ctx, double *d_box,
                         const uint32_t *d_idx, uint32_t n,
                         cudaStream_t stream);

/* ---- the device grid (grid_gpu.cu) ----
 *
 * The grid of xg__grid_build, built on the device from device boxes:
 * the same region (where the two sets' hulls meet), the same dimensions
 * (cells, or xg_grid_default), the same cell ranges and numbering
 * (xg_boxes.h) and the same CSR (each cell lists its elements in
 * ascending order).  Arrays are device memory, owned by the structure
 * (xg__cuda_grid_free). */
struct xg_dgrid {
    int n[3];
    double lo[3], hi[3], inv[3];
    size_t ncell;
    int32_t *d_a_cell, *d_b_cell;           /* 6 per element           */
    uint32_t *d_a_start, *d_a_items;        /* ncell + 1, refs         */
    uint32_t *d_b_start, *d_b_items;
    uint64_t refs[2];
};

/* Builds g over the na boxes at d_abox and the nb at d_bbox; cells as
 * xg__grid_build's.  Synchronizes the stream (it reads back the hulls
 * and the reference counts).  XG_ELIMIT past 2^32 references. */
int xg__cuda_grid_build(struct xg_ctx *ctx, const double *d_abox, size_t na,
                        const double *d_bbox, size_t nb, const int cells[3],
                        struct xg_dgrid *g, cudaStream_t s);
void xg__cuda_grid_free(struct xg_dgrid *g);

/* ---- the pairs of every cell (cell_pairs.cu) ----
 * From the CSR starts of the two sets: d_w[c] = |A_c| |B_c|, the pairs
 * of cell c, and d_off[c] = its first block of th pairs (the exclusive
 * scan of ceil(d_w / th); with th = 1, the first pair of the cell in the
 * run of all pairs); ncell entries each.  *candidates (the sum of d_w)
 * and *nblocks come back (synchronizes).  Then xg__cuda_tables fills
 * cell, first, last (nblocks each) as xg__blocks_build does. */
int xg__cuda_blocks(struct xg_ctx *ctx, const uint32_t *d_as,
                    const uint32_t *d_bs, size_t ncell, unsigned th,
                    uint64_t *d_w, uint64_t *d_off, uint64_t *candidates,
                    uint64_t *nblocks, cudaStream_t stream);
int xg__cuda_tables(struct xg_ctx *ctx, const uint64_t *d_w,
                    const uint64_t *d_off, size_t ncell, uint64_t nblocks,
                    unsigned th, uint32_t *d_cell, uint64_t *d_first,
                    uint64_t *d_last, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* XG_CUDA_H */
