/*
 * xg_pair.h -- the generic pair engine: what an operation of two sets
 * tells it (struct xg__pair_ops), where its contacts go, its run, its
 * preparation, its entry and exit checks (pair_engine.c, pair_begin.c,
 * pair_prepare.c, finite.c).
 */
#ifndef XG_PAIR_H
#define XG_PAIR_H

#include "exactgeo.h"
#include "xg_interval.h"   /* XG_HD */

struct xg_grid;
struct xg_gpu_hit;
struct xg_op;

/* ---- the generic pair engine (pair_engine.c) ---- */

/* What the engine needs to know about one kind of pair (A element, B
 * element); the loops, the grid, the tasks and the merge are shared. */
struct xg__pair_ops {
    int a_elem, b_elem;         /* enum xg_elem of each set */
    int dim;                    /* coordinates checked: 2 (x, y) or 3 */
    /* Fills the element's box (6 doubles, min xyz then max xyz) and
     * returns 0, or returns 1 when the element is degenerate (skipped). */
    int (*a_box)(struct xg_counters *cnt, const double *e, double *box);
    int (*b_box)(struct xg_counters *cnt, const double *e, double *box);
    /* Fast pass: 1 contact, 0 miss, -1 deferred to exact (1 or 0). */
    int (*fast)(struct xg_counters *cnt, const double *ea, const double *eb,
                struct xg_contact *c);
    int (*exact)(struct xg_counters *cnt, const double *ea, const double *eb,
                 struct xg_contact *c);
    /* GPU engines: a hit the device settled (flag other than
     * XG_GPU_HIT_DEFER) into c, with a, b, pad and q left to the caller
     * (xg__gpu_finish). */
    void (*settle)(struct xg_counters *cnt, const double *ea,
                   const double *eb, const struct xg_gpu_hit *h,
                   struct xg_contact *c);
    /* Non-zero when the gpu engine checks that the coordinates are
     * finite itself (inside: A's as it uploads them, beside the host's
     * work), with xg__pair_begin's errors in its order: xg__pair_begin
     * leaves the check to it when that engine runs. */
    int gpu_checks_finite;
};

/* The two pairs: segment-triangle (segtri_engine.c), red/blue segments
 * (redblue.c). */
extern const struct xg__pair_ops *const xg__segtri_ops;
extern const struct xg__pair_ops *const xg__redblue_ops;

/* Where the pair engine puts the contacts it finds.  Results never
 * depend on thread timing:
 *   emit (no sink, the default): each thread collects its contacts and
 *     sorts them, and the lists are merged in (a, b) order, so the output
 *     is the same for every thread count and every run;
 *   reduce: each contact (a, b set) goes to reduce(user, tid, c) on the
 *     worker thread tid (0 .. nthreads - 1) that found it, as it is
 *     found, concurrently with the other threads and in no set order;
 *     nothing is collected.  reduce must fold it into per-element state
 *     with an operation that is commutative and associative (XOR, OR, an
 *     integer sum or count; not a floating-point sum), either atomically
 *     into shared state (an element listed in several cells may be met
 *     by several threads at once) or into partial state per thread that
 *     the caller merges after the run.  Point-in-solid, for instance:
 *     per point, parity ^= the ray crosses a face, boundary |= the point
 *     lies on one.  A code other than XG_OK stops the run, which returns
 *     it.
 * The engine pays one test per contact to tell the two apart, and no
 * call per pair beyond the ops' own. */
struct xg__pair_sink {
    int (*reduce)(void *user, int tid, const struct xg_contact *c);
    void *user;
};

/* Runs the seq (nthreads = 1) or cpu engine over na A and nb B elements
 * (inputs checked by xg__pair_begin); fills st (a_count .. seconds, not
 * engine or threads; contacts: the kinds found) and, with no sink, out
 * (reset, caller frees); with a sink, out is not touched (may be NULL). */
int xg__pair_run(struct xg_ctx *ctx, const struct xg__pair_ops *ops,
                 const double *a, size_t na, const double *b, size_t nb,
                 const struct xg_opts *opt, int nthreads,
                 const struct xg__pair_sink *sink, struct xg_contacts *out,
                 struct xg_stats *st);
/* The preparation both the CPU and the GPU engines start with: boxes,
 * degenerate elements skipped and counted, the grid (in g, which the
 * caller frees with xg__grid_free); fills st's skipped, grid and
 * reference counts. */
int xg__pair_prepare(struct xg_ctx *ctx, const struct xg__pair_ops *ops,
                     const double *a, size_t na, const double *b, size_t nb,
                     const struct xg_opts *opt, int nthreads,
                     struct xg_grid *g, struct xg_stats *st);
/* The common entry of xg_segtri and xg_redblue: resets st and out,
 * checks the sets' kinds (ops' a_elem, b_elem; an empty set may have
 * none), sizes and coordinates (but see ops' gpu_checks_finite), resolves the engine into *engine (and
 * fails when it is gpu and none is usable), then reports progress 0
 * (XG_ECANCEL when the callback cancels there). */
int xg__pair_begin(struct xg_ctx *ctx, const struct xg__pair_ops *ops,
                   const struct xg_set *a, const struct xg_set *b,
                   const struct xg_opts *opt, struct xg_contacts *out,
                   struct xg_stats *st, int *engine);
/* The common exit: reports progress 1 (a cancel there makes rc
 * XG_ECANCEL), frees out on failure, counts the kinds on success. */
int xg__pair_end(struct xg_ctx *ctx, int rc, struct xg_contacts *out,
                 struct xg_stats *st);
/* One region's run of a pair operation op (ops: its pair) whose engines
 * do all the work: xg__pair_begin, then the GPU engine registered for op
 * or xg__pair_run on the seq or cpu engine, then xg__pair_end.  out
 * (replaced; the caller frees) and st as those. */
int xg__pair_one(struct xg_ctx *ctx, const struct xg__pair_ops *ops,
                 const struct xg_op *op, const struct xg_set *a,
                 const struct xg_set *b, const struct xg_opts *opt,
                 struct xg_contacts *out, struct xg_stats *st);
/* One pair of ops decided: its fast pass, then its exact stage where the
 * fast pass deferred; 1 and c filled (kind, p, q; not a, b) on contact,
 * else 0.  cnt may be NULL (the counts are then dropped). */
int xg__pair_decide(const struct xg__pair_ops *ops, struct xg_counters *cnt,
                    const double *ea, const double *eb, struct xg_contact *c);
/* Non-zero, with a message in ctx, when a coordinate used is not finite. */
int xg__check_finite(struct xg_ctx *ctx, const double *v, size_t n, int per,
                     int dim, const int64_t *fid, const char *what);
/* That check as xg__pair_begin makes it of set A (is_a) or B of ops. */
int xg__pair_check_finite(struct xg_ctx *ctx, const struct xg__pair_ops *ops,
                          const struct xg_set *s, int is_a);
/* The test of every coordinate, on a double's bits b: bit 63 of the
 * result is set when the double is infinite or NaN (an exponent of all
 * ones carries into it), so that or-ing the results of many tells
 * whether one is.  Shared by the host and the device. */
XG_HD uint64_t xg__nonfinite_carry(uint64_t b)
{
    return (b & ((uint64_t)0x7ff << 52)) + ((uint64_t)1 << 52);
}
/* Non-zero when one of the m doubles at v is infinite or NaN (the test
 * of every coordinate of xg__check_finite, for a copy being made). */
int xg__nonfinite_run(const double *v, size_t m);

/* The box of a triangle (9 doubles) into box, 0; or 1 when it is
 * collinear (skipped by every engine): the B side of segtri's and
 * inside's pair ops (segtri_engine.c). */
int xg__tri_box_kept(struct xg_counters *cnt, const double *t, double *box);

#endif /* XG_PAIR_H */
