/*
 * segtri_gpu.h -- what is particular to the GPU segment-triangle engine:
 * the device arrays of a batch, the schedule each strategy enumerates,
 * the launchers of its kernels (segtri_kernels.cu, segtri_tables.cu) and
 * the pieces its host files share (segtri_gpu.c, segtri_prep.c,
 * segtri_batches.c, segtri_passes.c).  The plumbing it shares with the other engines is
 * xg_cuda.h's; the paper's strategies are the benchmark's
 * (bench/cuda/paper.h, reached through gpu_bench.h).  Not installed.
 */
#ifndef XG_SEGTRI_GPU_H
#define XG_SEGTRI_GPU_H

#include "xg_cuda.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Threads per block of the pair kernels. */
#define XG_GPU_THREADS 64
/* Pairs per block of the packed multi-block kernel. */
#define XG_GPU_PACK_PAIRS 2048
/* The packed kernel's records hold a low cell's x and y in 16 bits each:
 * grids wider than this fall back to the multi-block strategy. */
#define XG_GPU_PACK_MAX_XY 65536

/* The device arrays of one batch.  Elements are numbered locally
 * (0..na-1, 0..nb-1); cells globally, the CSR starts being indexed by
 * cell - c0.  origin: the local origin of the float count pass. */
struct xg_gpu_view {
    const double *d_seg, *d_tri;        /* 6 and 9 doubles per element */
    const int32_t *d_a_cell, *d_b_cell; /* 6 per element: lo xyz, hi xyz */
    const uint4 *d_a_rec, *d_b_rec;     /* packed: 2 per element
                                           (xg__cuda_records) */
    const uint32_t *d_a_start, *d_a_items, *d_b_start, *d_b_items;
    uint32_t c0, c1;
    uint32_t na, nb;
    int n[3];
    double origin[3];
};

/* What each strategy enumerates. */
struct xg_gpu_sched {
    const uint32_t *d_cell;             /* multi: block tables */
    const uint64_t *d_first, *d_last;
    uint64_t nblocks;
    const uint32_t *d_pairs;            /* list: 2 per pair (a, b) */
    uint64_t npairs;
    const uint32_t *d_pcell, *d_bcell;  /* packed: xg__cuda_packed_tables */
    const uint64_t *d_pw;
    uint64_t total;                     /* packed: candidate pairs */
};

/* ---- kernels (segtri_kernels.cu) ---- */

/* The count pass: d_count[0] += pairs whose boxes meet, that the cell
 * owns and that the float estimate keeps; d_count[1] += box-meeting
 * pairs another cell owns (packed: float boxes); d_count[2] +=
 * box-meeting pairs this cell owns.  The packed strategy also writes to
 * s->d_pairs (room for every candidate) the pairs whose float boxes meet
 * and that their cell owns, d_count[3] of them: the interval pass takes
 * that list. */
int xg__cuda_count(struct xg_ctx *ctx, int strategy,
                   const struct xg_gpu_view *v, const struct xg_gpu_sched *s,
                   unsigned long long *d_count, cudaStream_t stream);

/* The interval pass of a strategy over a batch. */
struct xg_segtri_pass {
    int strategy;
    const struct xg_gpu_view *v;
    const struct xg_gpu_sched *sc;
};
/* The interval pass, a filling pass of the output protocol
 * (xg_gpu_fill.launch; user: a struct xg_segtri_pass): appends every hit
 * and deferral (xg__segtri_hit) to d_hit counting in d_n[0]; the packed
 * strategy adds to d_n[1] the pairs that reached the edge tests. */
int xg__cuda_intersect(struct xg_ctx *ctx, void *user,
                       void *d_out, uint64_t cap,
                       unsigned long long *d_n, cudaStream_t stream);

/* The double-double stage on the n hits at d_hit: each CONSTRUCT whose
 * point it certifies becomes DONE_DD, counted in *d_done. */
int xg__cuda_refine(struct xg_ctx *ctx, const struct xg_gpu_view *v,
                    struct xg_gpu_hit *d_hit, uint32_t n,
                    unsigned long long *d_done, cudaStream_t stream);

/* ---- the packed strategy's tables (segtri_tables.cu) ---- */

/* The packed multi-block tables from d_w (pairs per cell, from
 * xg__cuda_blocks) and the total of candidate pairs: d_pcell (room for
 * ncell), d_pw (ncell + 1), d_bcell (total / XG_GPU_PACK_PAIRS + 2);
 * *ncomp and *nblocks come back (synchronizes). */
int xg__cuda_packed_tables(struct xg_ctx *ctx, const uint64_t *d_w,
                           size_t ncell, uint32_t *d_pcell, uint64_t *d_pw,
                           uint32_t *d_bcell, uint64_t total, uint32_t *ncomp,
                           uint64_t *nblocks, cudaStream_t stream);
/* The packed kernel's records (32 bytes per element: float box outward
 * and relative to origin, low cell) of n elements of pts points each,
 * d_cell their cell ranges; the grid must have at most
 * XG_GPU_PACK_MAX_XY cells in x and in y. */
int xg__cuda_records(struct xg_ctx *ctx, const double *d_xyz,
                     const int32_t *d_cell, uint32_t n, int pts,
                     const double origin[3], void *d_rec,
                     cudaStream_t stream);

/* ---- host side ---- */

/* The engine's run (xg__gpu_engine's segtri, reached through
 * xg__gpu_segtri_ex): the contract of xg__gpu_segtri_ex. */
int xg__segtri_gpu_run(struct xg_ctx *ctx, const struct xg_set *a,
                       const struct xg_set *b, const struct xg_opts *opt,
                       struct xg_gpu_opts *gopt, struct xg_contacts *out,
                       struct xg_stats *st);

/* The hits of the batches run so far (host memory, global numbers). */
struct xg_segtri_hits {
    size_t n, cap;
    struct xg_gpu_hit *v;
};

/* One run of the engine. */
struct xg_segtri_job {
    struct xg_ctx *ctx;
    const struct xg_grid *g;    /* host-prepared runs */
    const struct xg_set *a;
    const struct xg_set *b;
    struct xg_gpu_opts *go;
    struct xg_stats *st;
    struct xg_gpu gpu;          /* stream and budget */
    struct xg_segtri_hits out;
    int gathered;               /* some batch had local numbers */
};

/* The packed schedule of a batch already on the device (segtri_passes.c):
 * the elements' records, the tables from d_w (pairs per cell, ncell
 * entries) and total candidates, and room for the list the count pass
 * builds; arrays owned by m. */
int xg__segtri_packed_setup(struct xg_segtri_job *J, struct xg_dmem *m,
                            struct xg_gpu_view *v, struct xg_gpu_sched *sc,
                            const uint64_t *d_w, size_t ncell,
                            uint64_t total);
/* The device side of one batch's passes: the output's arena m, the
 * schedule as the count pass leaves it, the interval pass and its hits
 * (d_hit, in m).  Zeroed before xg__segtri_launch; m freed by the
 * caller (xg__dmem_free) after xg__segtri_download or a failure. */
struct xg_segtri_out {
    struct xg_dmem m;
    struct xg_gpu_sched sc;
    struct xg_segtri_pass pass;
    struct xg_gpu_fill fill;
    void *d_hit;
};
/* The count, interval (the output protocol) and refine passes over one
 * batch whose arrays are on the device (v, sc), into o.  in_bytes: the
 * device bytes the batch's inputs take.  XG_GPU_SPLIT when the output
 * would not fit the budget and the batch can be cut (ncell > 1). */
int xg__segtri_launch(struct xg_segtri_job *J, struct xg_segtri_out *o,
                      const struct xg_gpu_view *v,
                      const struct xg_gpu_sched *sc, uint64_t in_bytes,
                      size_t ncell);
/* o's hits sorted by (a, b) on the device and downloaded: *h (caller
 * frees) and *n; counts the batch in J->go. */
int xg__segtri_download(struct xg_segtri_job *J, struct xg_segtri_out *o,
                        struct xg_gpu_hit **h, size_t *n);
/* The n hits at h renumbered from a batch's local numbers to the run's
 * through its maps (xg__gpu_batch_gather). */
void xg__segtri_renumber(struct xg_gpu_hit *h, size_t n,
                         const uint32_t *a_map, const uint32_t *b_map);
/* The n hits at h appended to J->out, whose memory they become when it
 * holds none (one batch); takes h over.  XG_ENOMEM with its message in
 * ctx (the thread's: the pipeline's finishes have their own). */
int xg__segtri_keep(struct xg_segtri_job *J, struct xg_ctx *ctx,
                    struct xg_gpu_hit *h, size_t n);
/* The passes over one batch whose arrays are on the device (v, sc), at
 * once: xg__segtri_launch, xg__segtri_download, the hits renumbered
 * through a_map / b_map (or NULL) and kept into J->out.  XG_GPU_SPLIT
 * as xg__segtri_launch. */
int xg__segtri_passes(struct xg_segtri_job *J, const struct xg_gpu_view *v,
                      const struct xg_gpu_sched *sc, uint64_t in_bytes,
                      size_t ncell, const uint32_t *a_map,
                      const uint32_t *b_map);
/* The batches of a run whose grid J->g was built on the host
 * (segtri_batches.c), their hits into J->out in batch order; J->gathered
 * set when some batch had local numbers. */
int xg__segtri_host_run(struct xg_segtri_job *J);
/* Only the coordinates travel: boxes, degenerate screening, the grid and
 * the tables are built on the device, then the passes run as for one
 * batch (segtri_prep.c).  XG_GPU_SPLIT when the output does not fit. */
int xg__segtri_device_run(struct xg_segtri_job *J, const struct xg_opts *opt);

#ifdef __cplusplus
}
#endif
#endif /* XG_SEGTRI_GPU_H */
