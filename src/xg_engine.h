/*
 * xg_engine.h -- engines registered by (operation, engine kind), and the
 * one door to them (gpu_engine.c).
 *
 * src/ never names a cuda/ function: the CUDA build registers its device
 * layer and its runs by defining xg__gpu_engine (cuda/gpu_engines.c), a
 * list of {operation row, XG_ENGINE_GPU, entry}; the build without CUDA
 * defines it NULL (gpu_none.c).  An operation's dispatch asks for its
 * engine with xg__engine_pair or xg__engine_tri and its own row
 * (xg_ops.h); a new GPU engine is one line of that list and nothing in
 * src/.  An entry's signature is its operation's shape's: two sets in and
 * contacts out, or points in and triangles out.
 */
#ifndef XG_ENGINE_H
#define XG_ENGINE_H

#include "xg_gpu.h"
#include "xg_ops.h"

/* The knobs tests and benchmarks turn; NULL, or zeroed, gives the
 * engine's defaults (what a run through the operation gets). */
struct xg__engine_knobs {
    int method;                 /* redblue: XG__RB_PAPER or XG__RB_GPU;
                                   inside: XG__IN_SEED or XG__IN_GPU
                                   (xg_inside.h); 0: the product's     */
    struct xg_gpu_opts *gpu;    /* segtri: the strategy and its figures
                                   (filled in); NULL: XG_GPU_PACKED    */
};

/* A run of an operation of shape contacts: the contacts of a and b into
 * out (ascending (a, b)), st's counts, as the operation's public entry
 * (xg_segtri, xg_redblue, xg_inside) gives them for one region;
 * opt->gpu_mem_cap bounds the device memory it may use.  k may be NULL. */
typedef int (*xg__pair_engine_fn)(struct xg_ctx *ctx, const struct xg_set *a,
                                  const struct xg_set *b,
                                  const struct xg_opts *opt,
                                  const struct xg__engine_knobs *k,
                                  struct xg_contacts *out,
                                  struct xg_stats *st);

/* A run of an operation of shape triangles (delaunay): the Delaunay
 * triangulation of the points pts->xyz[3 g], g in gid[0 .. n-1] (the
 * distinct (x, y), xg_delaunay.h), the real triangles as set indices in
 * the canonical order, and st's a_skipped, z_differ (the merged points),
 * candidates (insertion rounds), bbox_pairs (triangles), deferred (signs
 * the filters left to the host), cnt.  opt->gpu_mem_cap bounds the
 * device memory it may use; a run that needs more is refused before it
 * allocates (XG_ENOMEM, with the estimate). */
typedef int (*xg__tri_engine_fn)(struct xg_ctx *ctx, const struct xg_set *pts,
                                 const uint32_t *gid, size_t n,
                                 const struct xg_opts *opt,
                                 struct xg_triangles *out,
                                 struct xg_stats *st);

/* One registered engine: the operation it runs (its row), its kind, and
 * its entry, the one its operation's shape calls for (the other NULL). */
struct xg__engine {
    const struct xg_op *op;
    int kind;                   /* enum xg_engine                       */
    xg__pair_engine_fn pair;    /* shape XG_SHAPE_CONTACTS              */
    xg__tri_engine_fn tri;      /* shape XG_SHAPE_TRIANGLES             */
};

/* What the CUDA build registers: its devices, and its runs. */
struct xg__gpu_engine {
    /* XG_OK when device (a CUDA device number; -1: the calling thread's
     * current one) can run the engines and stream (a cudaStream_t, or
     * NULL) belongs to it, else XG_EINVAL / XG_ENOGPU with detail in
     * ctx (which may be NULL).  *resolved gets the device the pair names:
     * device, or the stream's own when device is -1. */
    int (*check)(struct xg_ctx *ctx, int device, void *stream,
                 int *resolved);
    /* The CUDA devices present, usable or not (xg_gpu_count). */
    int (*count)(void);
    const struct xg__engine *runs;  /* nruns of them, each (op, kind)
                                       once                             */
    size_t nruns;
};
extern const struct xg__gpu_engine *const xg__gpu_engine;

/* The engine of kind (enum xg_engine) registered for op, or NULL. */
const struct xg__engine *xg__engine_find(const struct xg_op *op, int kind);

/* Runs op's registered engine of kind (a pair engine: op of shape
 * contacts; a triangle engine: shape triangles), with the contract of its
 * signature above.  None registered: XG_ENOTSUP, detail in ctx (a build
 * without CUDA says so). */
int xg__engine_pair(struct xg_ctx *ctx, const struct xg_op *op, int kind,
                    const struct xg_set *a, const struct xg_set *b,
                    const struct xg_opts *opt,
                    const struct xg__engine_knobs *k,
                    struct xg_contacts *out, struct xg_stats *st);
int xg__engine_tri(struct xg_ctx *ctx, const struct xg_op *op, int kind,
                   const struct xg_set *pts, const uint32_t *gid, size_t n,
                   const struct xg_opts *opt, struct xg_triangles *out,
                   struct xg_stats *st);

#endif /* XG_ENGINE_H */
