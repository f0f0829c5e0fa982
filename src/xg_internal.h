/*
 * xg_internal.h -- declarations shared inside libexactgeo (xg__ names).
 * Not installed; tests and the CUDA launchers may include it.
 */
#ifndef XG_INTERNAL_H
#define XG_INTERNAL_H

#include <gmp.h>
#include <stdarg.h>
#include "exactgeo.h"
#include "xg_filters.h"
#include "xg_dd.h"
#include "xg_boxes.h"

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
double xg__now(void);

/* ---- exact arithmetic (exact.c) ---- */

/* The least k such that v[i] * 2^k is an integer for every i. */
int xg__exact_shift(const double *v, int n);
/* z = v * 2^k, exactly; k from xg__exact_shift. */
void xg__mpz_set_scaled(mpz_t z, double v, int k);
/* r = det[a-c; b-c] for points given as two integers each. */
void xg__orient2d_mpz(mpz_t r, mpz_t const a[2], mpz_t const b[2],
                      mpz_t const c[2]);
/* r = det[a-d; b-d; c-d] for points given as three integers each. */
void xg__orient3d_mpz(mpz_t r, mpz_t const a[3], mpz_t const b[3],
                      mpz_t const c[3], mpz_t const d[3]);
/* The double nearest num / (den * 2^k), ties to even; den != 0. */
double xg__round_quotient(const mpz_t num, const mpz_t den, long k);
/* out = D + (tn / td) (E - D), each coordinate rounded to the nearest
 * double; td != 0.  t = 0 and t = 1 give D and E themselves. */
void xg__lerp_exact(const double *D, const double *E, const mpz_t tn,
                    const mpz_t td, int dim, double *out);

/* ---- projection to a plane (project.c) ---- */

/* Drops coordinate `drop` of a 3D point. */
void xg__project(const double *p, int drop, double out[2]);
/* The axis to drop so that the triangle's (9 doubles) projection keeps
 * its area, with that projection's orientation (exact); -1 (and
 * *orient = 0) when the triangle is collinear.  Every figure in the
 * triangle's plane projects along that axis by an affine bijection. */
int xg__projection_axis(struct xg_counters *cnt, const double *tri,
                        int *orient);

/* ---- the host's double-double stage of constructions (refine.c) ---- */

/* The crossing of DE with the plane of tri (D, E strictly on opposite
 * sides), rounded to nearest, when a double-double value and its error
 * bound certify it: returns 1 and fills out[3]; 0 when the next stage
 * (xg_plane_point_dd, then GMP) must decide. */
int xg__plane_point_ddb(const double *tri, const double *D, const double *E,
                        double out[3]);
/* The crossing of DE with the line pq (x, y; D, E strictly on opposite
 * sides), dim coordinates of D + t (E - D) rounded; 1 or 0 as above. */
int xg__line_point_ddb(const double *p, const double *q, const double *D,
                       const double *E, int dim, double *out);

/* ---- segment-triangle (segtri.c) ---- */

/* The exact stage for a pair the fast pass deferred: same contract as
 * xg_segtri_pair; c NULL: the answer alone, no point constructed. */
int xg__segtri_exact(struct xg_counters *cnt, const double *seg,
                     const double *tri, struct xg_contact *c);
/* Non-zero when the closed segment (not of zero length) meets the
 * closed triangle (not collinear), exactly: the question
 * xg_segtri_pair answers, with no point made (the fast pass, then the
 * exact stage with c NULL). */
int xg__segtri_meets(struct xg_counters *cnt, const double *seg,
                     const double *tri);
/* Fast pass, then construction (exact rounding where the interval cannot
 * certify it).  Returns 1 on contact, 0 on miss, -1 when deferred. */
int xg__segtri_fast_hit(struct xg_counters *cnt, const double *seg,
                        const double *tri, struct xg_contact *c);
/* The crossing point of a pair whose segment crosses the triangle's
 * plane with its endpoints strictly on opposite sides, rounded to the
 * nearest double (exactly when the intervals cannot certify it). */
void xg__segtri_construct(struct xg_counters *cnt, const double *seg,
                          const double *tri, double out[3]);
/* Its GMP stage alone: the exact crossing rounded to nearest (the
 * reference the GPU tests compare the device's stages with). */
void xg__plane_point_exact(const double *seg, const double *tri,
                           double out[3]);
/* Non-zero when the triangle's three vertices are collinear (exactly). */
int xg__tri_is_degenerate(struct xg_counters *cnt, const double *tri);

/* ---- surfaces that cross themselves (selfx.c) ---- */

/* Non-zero when triangles t and u (9 doubles each, neither collinear) of
 * one surface cross: meet other than along what they share as a mesh,
 * vertices matched by their exact coordinates (docs/semantics.md,
 * "inside").  Sharing one vertex, they cross when they meet anywhere
 * else; sharing an edge, when they lie in one plane on the same side of
 * it (a fold); sharing all three vertices (one face twice, in either
 * turn), always; sharing none, when they meet at all (a touch, an
 * overlap, one in the other).  Exact. */
int xg__tri_pair_cross(struct xg_counters *cnt, const double *t,
                       const double *u);

/* A surface without a crossing pair (xg__selfx_find's first[]). */
#define XG_SELFX_NONE UINT64_MAX

/* The crossing pairs of ntri triangles (9 doubles each at tri; their
 * boxes at box, 6 doubles each, or NULL: made here) that make nsurf
 * surfaces: surf[i] the surface of triangle i, non-decreasing
 * (each surface's triangles together; surf NULL: one surface, nsurf 1);
 * pairs of two surfaces are not looked at.  first[s] (nsurf of them, the
 * caller's) = i << 32 | j for the lowest crossing pair i < j of surface
 * s (by i, then j), whatever the thread count, or XG_SELFX_NONE.
 * Surface s's T-junctions (the middles of its collinear triangles,
 * xg__tri_middle: vertices of the mesh inside another triangle's edge)
 * are junc[3 k ..] for k in junc_start[s] .. junc_start[s+1]-1 (NULL,
 * NULL: none).  flat_check (box NULL): the triangles may be collinear;
 * those are left out and their middles taken as junctions (junc,
 * junc_start NULL); else the caller has left them out.  On nthreads threads (one
 * below a few thousand triangles); predicates added to cnt.  XG_OK,
 * XG_ENOMEM or XG_ELIMIT (2^32 triangles). */
int xg__selfx_find(const double *tri, const double *box, size_t ntri,
                   const uint32_t *surf, size_t nsurf, int flat_check,
                   const double *junc, const uint32_t *junc_start,
                   int nthreads, uint64_t *first, struct xg_counters *cnt);
/* The vertex of collinear triangle t (9 doubles) that lies between the
 * other two, or NULL when two of its vertices are one point. */
const double *xg__tri_middle(const double *t);

/* ---- uniform grid (grid.c) ---- */

/* A 3D uniform grid in CSR form: the elements of cell c are
 * items[start[c]] .. items[start[c+1]-1], in ascending order. */
struct xg_grid {
    int n[3];
    double lo[3], hi[3]; /* the region covered */
    double inv[3];      /* cells per unit length, per axis */
    size_t ncell;
    uint32_t *a_start, *a_items;  /* ncell + 1, refs */
    uint32_t *b_start, *b_items;
    /* per element: the cell range of its box, lo and hi per axis */
    int32_t *a_cell, *b_cell;     /* 6 per element */
    double *a_box, *b_box;        /* 6 per element: min xyz, max xyz */
    uint64_t candidates;          /* sum over cells of |A_c| |B_c|
                                     (xg__grid_build's; 0 on the device) */
    int borrowed;                 /* a_box, b_box are the caller's
                                     (xg__grid_build_on)               */
};

/* The grid's frame: region (where the hulls [min xyz, max xyz] of the
 * two sets meet; a_any / b_any 0 when a set has no box), dimensions
 * (cells, or xg_grid_default) and cell function; the arrays are left
 * alone.  Shared by xg__grid_build and the device grid (cuda/). */
int xg__grid_frame(struct xg_grid *g, const double ahull[6], int a_any,
                   const double bhull[6], int b_any, size_t na, size_t nb,
                   const int cells[3]);

/* Widens hull h (min xyz, max xyz; empty: +inf, -inf) by box b (not
 * none).  Strict comparisons: of equal bounds (0.0, -0.0) the first
 * stays, so that a hull taken in shares and merged in share order is
 * the hull of one pass. */
static inline void xg__hull_add(double h[6], const double *b)
{
    int k;
    for (k = 0; k < 3; k++) {
        if (b[k] < h[k])
            h[k] = b[k];
        if (b[3 + k] > h[3 + k])
            h[3 + k] = b[3 + k];
    }
}

/* Builds the grid over na boxes of A and nb boxes of B (6 doubles each,
 * min then max; an element with a NULL-marked box, box[0] > box[3], is
 * left out).  cells[k] <= 0 means choose.  Uses up to nthreads threads.
 * hulls: NULL, or the hulls of the threads' shares (xg__share) of the
 * boxes, taken as they were made: 6 doubles at 2 * tid + set (0 for A,
 * 1 for B) and any[2 * tid + set] 0 when that share has no box.
 * The grid takes ownership of a_box and b_box (freed by xg__grid_free),
 * also when it fails: then they are freed before it returns and g is
 * left empty.  Returns XG_OK or XG_ENOMEM / XG_ELIMIT. */
int xg__grid_build(struct xg_grid *g, double *a_box, size_t na, double *b_box,
                   size_t nb, const int cells[3], int nthreads,
                   const double *hulls, const int *any);
/* The same over boxes the caller keeps (and frees, after xg__grid_free):
 * a grid over boxes already made for another, without a copy. */
int xg__grid_build_on(struct xg_grid *g, const double *a_box, size_t na,
                      const double *b_box, size_t nb, const int cells[3],
                      int nthreads);
void xg__grid_free(struct xg_grid *g);
/* Cells for one set of n boxes over its hull lo .. hi: about as wide as
 * the boxes are, on average, along the first dims axes (2: columns, the
 * others 1 cell; 3: cells), so that an element lies in a few cells and a
 * cell lists the few elements near it; at most per n + 16 cells (halved
 * on every axis until they fit) and 65536 per axis. */
void xg__grid_cells_boxes(const double *box, size_t n, const double lo[3],
                          const double hi[3], int dims, double per,
                          int cells[3]);

/* Non-zero when pair (i, j) with cell ranges ca, cb, both in cell c, is
 * owned by c (the ownership rule, xg__owner): each pair whose boxes meet
 * is owned by exactly one cell. */
static inline int xg__grid_owns(const struct xg_grid *g, size_t c,
                                const int32_t *ca, const int32_t *cb)
{
    return xg__owner(g->n, ca, cb) == c;
}

/* ---- the cells a segment passes through (pair_walk.c) ---- */

/* A segment's walk: its box's cell range bc, cut into layers along axis
 * m (the longest in cells), each layer narrowed on the other axes < dim
 * to the cells of the segment's part in it (narrow; without it, every
 * layer is the box's whole cross-section). */
struct xg__segwalk {
    const struct xg_grid *g;
    int m, dim, narrow;
    int32_t bc[6];
    double D[3], q[3];          /* start; d(x_k) / d(x_m) along it */
    double smin[3], smax[3];    /* the segment's extent */
    double mu[3];               /* the margin, per axis */
};

/* Starts the walk of segment seg (6 doubles; axes 0 .. dim-1 count, the
 * others keep bc's range) whose box has cell range bc in g.  The layers
 * run from bc[m] to bc[3 + m]; an empty bc (bc[0] > bc[3]) has none. */
void xg__segwalk_init(struct xg__segwalk *w, const struct xg_grid *g,
                   const double *seg, const int32_t *bc, int dim);
/* The cell range c of layer s (bc[m] <= s <= bc[3 + m]): every cell
 * that may hold a point of the segment whose m-cell is s, within bc.
 * Ranges move monotonically with s on every axis. */
void xg__segwalk_layer(const struct xg__segwalk *w, int s, int32_t c[6]);

/* Zero only when the segment of walk w certainly misses box (6
 * doubles): its part within the box's extent on axis m, widened by the
 * walk's margin, misses the box on another axis.  Sound for the same
 * reasons as the walk's layers (pair_walk.c): a cheap cull before the
 * filters for the box pairs whose boxes meet far from the segment. */
int xg__segwalk_may_meet(const struct xg__segwalk *w, const double *box);

/* Non-zero when the walk gives a pair to cell xyz of the layer whose
 * range is c (on axis m), the pair's B element having cell range cb and
 * being listed in that cell; prev is the previous layer's range (NULL for
 * the first).  A pair met in several cells of the walk goes to one: the
 * first layer whose range meets cb (the layers that do are consecutive,
 * the ranges moving monotonically), and in it the lowest corner of the
 * meeting -- the walk's own ownership rule, with nothing remembered. */
static inline int xg__segwalk_owns(int m, const int32_t *c, const int32_t *prev,
                                const int32_t *cb, const int32_t *xyz)
{
    int k;
    for (k = 0; k < 3; k++)
        if (k != m && xyz[k] != (c[k] > cb[k] ? c[k] : cb[k]))
            return 0;
    if (!prev || cb[m] > prev[m])
        return 1;
    for (k = 0; k < 3; k++)
        if (k != m && (prev[k] > cb[3 + k] || cb[k] > prev[3 + k]))
            return 1;
    return 0;
}

/* ---- large arrays (geom.c) ---- */

/* malloc / calloc for working arrays of many megabytes, backed by huge
 * pages where the system has them; freed with free(). */
void *xg__big_alloc(size_t bytes);
void *xg__big_calloc(size_t n, size_t size);

/* ---- element sets (geom.c) ---- */

/* Non-zero when set s holds elements of kind elem, or nothing at all (a
 * set never pushed into has no kind and fits any). */
static inline int xg__set_fits(const struct xg_set *s, int elem)
{
    return s->elem == elem || (s->n == 0 && s->elem == XG_ELEM_NONE);
}

/* ---- growing arrays and contacts (geom.c) ---- */
/* The one growable array: *v (elements of size sz, *cap allocated,
 * realloc's) grown to hold need elements at least, its capacity doubled
 * (from 64) until it does, what it held kept; XG_OK or XG_ENOMEM (*v
 * and *cap then as they were). */
int xg__reserve(void **v, size_t *cap, size_t need, size_t sz);
/* xg__reserve of one more than the n used.  Inline, the test first:
 * callers push one element at a time (a record, a contact), and a call
 * per push showed (callgrind, bench_inside: +10M instructions). */
static inline int xg__grow(void **v, size_t *cap, size_t n, size_t sz)
{
    return n < *cap ? XG_OK : xg__reserve(v, cap, n + 1, sz);
}
int xg__contacts_push(struct xg_contacts *c, const struct xg_contact *x);
/* Sorts by (a, b); short lists (one segment's) by insertion. */
void xg__contacts_sort(struct xg_contacts *c);
/* The n lists, each in (a, b) order, merged into out (replaced; caller
 * frees) in (a, b) order; a pair found in two lists keeps the first
 * list's first.  XG_OK or XG_ENOMEM (out then empty). */
int xg__contacts_merge(const struct xg_contacts *const *lists, size_t n,
                       struct xg_contacts *out);

/* ---- one thread's contacts in blocks never moved (contact_store.c) ----
 * Appended in runs; contacts from..from+n-1 of the stream (in the order
 * appended) copied out once.  Zero-initialise; free with
 * xg__cstore_free. */
struct xg__cblock {
    struct xg_contact *v;
    size_t n, cap, first;       /* first: its index in the stream */
};
struct xg__cstore {
    struct xg__cblock *blk;
    size_t nblk, blk_cap, n;    /* n: contacts in all blocks */
};
int xg__cstore_append(struct xg__cstore *s, const struct xg_contact *v,
                      size_t n);
void xg__cstore_copy(const struct xg__cstore *s, size_t from, size_t n,
                     struct xg_contact *dst);
void xg__cstore_free(struct xg__cstore *s);

/* ---- preparation shared by every engine (segtri_engine.c) ---- */

/* Boxes of a and b (zero-length segments and collinear triangles left
 * out and counted in st), then the grid over them, on nthreads threads.
 * Fills st->grid, grid_refs_*, a_skipped, b_skipped.  On XG_OK the
 * caller frees g with xg__grid_free. */
int xg__segtri_prepare(struct xg_ctx *ctx, const struct xg_set *a,
                       const struct xg_set *b, const struct xg_opts *opt,
                       int nthreads, struct xg_grid *g, struct xg_stats *st);

/* ---- GPU engine (cuda/, when built) ---- */

/* The strategies of the GPU segtri engine: the paper's four (Table
 * 11.3; benchmark-only, cuda/paper.*, except multi-block, the fallback of
 * grids too wide for packed records) and ours. */
enum xg_gpu_strategy {
    XG_GPU_MULTI = 0,   /* several blocks per cell, pairs implicit */
    XG_GPU_LIST,        /* list of pairs built on the CPU          */
    XG_GPU_SEG,         /* one segment per thread                  */
    XG_GPU_TRI,         /* one triangle per thread                 */
    XG_GPU_PACKED,      /* multi-block with blocks cut from the run
                           of all pairs, small cells sharing a block
                           (ours; the engine's default)            */
    XG_GPU_NSTRAT
};

/* Knobs for tests and benchmarks; zeroed means the defaults. */
struct xg_gpu_opts {
    int strategy;         /* enum xg_gpu_strategy                    */
    double slack;         /* output capacity = count * (1 + slack);
                             0 = 0.05, negative = start at capacity 1 */
    /* filled in: */
    uint64_t count_bound; /* what the float count pass gave          */
    uint64_t hits;        /* entries the interval pass wrote         */
    uint64_t relaunches;  /* interval passes redone after overflow   */
    uint64_t batches;
    uint64_t not_owned;   /* box-meeting pairs left to another cell  */
    uint64_t construct_fail; /* hits whose point the host rounded    */
    uint64_t refined;     /* points certified on the device in
                             double-double                           */
    uint64_t plane_crossings; /* packed: pairs that reached the edge
                             tests (xg_segtri_edges)                 */
    double count_seconds, interval_seconds;  /* wall clock, with syncs */
    double count_kernel_seconds, interval_kernel_seconds; /* events */
    int device_prep;      /* 1: boxes, grid and tables built on the GPU */
};

/* ---- GPU engines, registered by (operation, kind): xg_engine.h ---- */

/* Non-zero when the context's GPU (xg_ctx_set_gpu; ctx may be NULL:
 * the calling thread's current device) can run the engines. */
int xg__gpu_usable(struct xg_ctx *ctx);
/* XG_OK, or XG_ENOGPU with the message users see when the gpu engine
 * was asked for and cannot run (no CUDA in this build, or no usable
 * device). */
int xg__gpu_require(struct xg_ctx *ctx);

/* ---- the generic pair engine (pair_engine.c) ---- */

/* A GPU engine's record of a pair (xg_gpu_hit.h), which settle reads. */
struct xg_gpu_hit;

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

/* ---- the partitioned run (regions_run.c) ---- */

/* What the partitioned run needs to know of an operation. */
struct xg__region_op {
    /* the sets' kinds and dimension (checked as the whole run checks
     * them), and the degenerate test of the elements (their box
     * functions) */
    const struct xg__pair_ops *ops;
    /* non-zero for B made of solids (inside): A's points go to the one
     * region that owns them, B's triangles with their whole solid (every
     * triangle of its fid, collinear ones too) to each region whose reach
     * the solid's box meets */
    int solids;
    /* the single-region engine: the operation's whole run */
    xg_op_run_fn run;
    /* NULL, or the whole input's check of B, redone when a region fails
     * with XG_EFORMAT so that the message is the whole run's (inside: the
     * first open solid of B, not of the region) */
    int (*recheck)(struct xg_ctx *ctx, const struct xg_set *b, int nthreads);
    /* the operation's entry in the table (ops.c): its memory estimate */
    const struct xg_op *op;
};

/* The public entry of xg_segtri, xg_redblue and xg_inside: the
 * partitioned run when opt->regions > 1, or with the gpu engine over
 * several devices (XG_REGIONS_PER_GPU regions per device unless
 * opt->regions says), else rop->run.  opt and st may be NULL. */
int xg__regions_entry(struct xg_ctx *ctx, const struct xg__region_op *rop,
                      const struct xg_set *a, const struct xg_set *b,
                      const struct xg_opts *opt, struct xg_contacts *out,
                      struct xg_stats *st);

/* Wall-clock seconds of the partitioned run's three steps: the selection
 * (hull, plan, each region's elements), the regions' runs, and the merge
 * of their contacts. */
struct xg__regions_times {
    double select, compute, gather;
};

/* The partitioned run in nreg regions (1 .. XG_REGIONS_MAX; 1 runs the
 * whole sets through the same steps), contracts as xg_segtri's with the
 * stats of exactgeo.h ("The partitioned run"); times (may be NULL) gets
 * the steps' wall time (the benchmarks).  opt, st not NULL. */
int xg__regions_run(struct xg_ctx *ctx, const struct xg__region_op *rop,
                    const struct xg_set *a, const struct xg_set *b,
                    const struct xg_opts *opt, int nreg,
                    struct xg_contacts *out, struct xg_stats *st,
                    struct xg__regions_times *times);

/* The elements of one set per region (regions_select.c): region k's
 * are idx[start[k] .. start[k+1]-1], ascending (the whole set's order). */
struct xg__picks {
    size_t *start;        /* nreg + 1 */
    uint32_t *idx;
    uint64_t extra;       /* degenerate elements counted by more than one
                             region's run: the counts past each one's
                             first (the whole run's skipped count is the
                             regions' sum less this) */
};
void xg__picks_free(struct xg__picks *p);

/* The selection of a partitioned run in nreg regions on nthreads
 * threads: the hull of a and b, the plan into reg (nreg of them, the
 * caller's), and each set's elements per region into pa, pb (caller
 * frees with xg__picks_free; empty on error), every element in one
 * region at least (a degenerate one too: its runs skip and count it);
 * adds the predicates to cnt.  XG_OK or XG_ENOMEM. */
int xg__regions_select(const struct xg__region_op *rop,
                       const struct xg_set *a, const struct xg_set *b,
                       int nreg, int nthreads, struct xg_region *reg,
                       struct xg__picks *pa, struct xg__picks *pb,
                       struct xg_counters *cnt);

/* The operations' region ops (segtri_engine.c, redblue.c, inside.c). */
extern const struct xg__region_op *const xg__segtri_region;
extern const struct xg__region_op *const xg__redblue_region;
extern const struct xg__region_op *const xg__inside_region;

/* ---- red/blue (redblue.c) ---- */

/* Same contracts as the segtri pair: the fast pass with construction
 * (1, 0, or -1 deferred) and the exact stage. */
int xg__redblue_fast_hit(struct xg_counters *cnt, const double *sa,
                         const double *sb, struct xg_contact *c);
int xg__redblue_exact(struct xg_counters *cnt, const double *sa,
                      const double *sb, struct xg_contact *c);
/* A pair the fast pass settled as r (XG_REDBLUE_TOUCH with its point pt,
 * or XG_REDBLUE_OVERLAP) into c; 1 when it is a contact. */
int xg__redblue_settled(struct xg_counters *cnt, const double *sa,
                        const double *sb, int r, const double *pt,
                        struct xg_contact *c);
/* Boxes of a and b (zero-length segments left out and counted in st),
 * then the grid over them, as xg__segtri_prepare. */
int xg__redblue_prepare(struct xg_ctx *ctx, const struct xg_set *a,
                        const struct xg_set *b, const struct xg_opts *opt,
                        int nthreads, struct xg_grid *g, struct xg_stats *st);

/* The GPU red/blue engine's methods (xg__engine_knobs.method; the run:
 * cuda/redblue_gpu.c, the paper's in cuda/paper.c): XG__RB_PAPER the
 * paper's pair list built on the CPU, XG__RB_GPU the list-free design. */
#define XG__RB_PAPER 1
#define XG__RB_GPU   2

#endif /* XG_INTERNAL_H */
