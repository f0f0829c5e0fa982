/*
 * exactgeo.h -- the one public header of libexactgeo.
 *
 * Exact geometric intersection of large sets: a uniform grid culls pairs,
 * interval-arithmetic filters decide almost every predicate, and GMP decides
 * the rest exactly.  Every answer equals the one an all-rational computation
 * gives; constructed points are the exact points rounded to the nearest double.
 *
 * Conventions
 *   - Public names start with xg_, macros with XG_.
 *   - Functions that can fail return an int: XG_OK (0) or a positive XG_E*
 *     code; xg_strerror() names it and xg_ctx_errmsg() gives the detail.
 *   - Thread safety: every function is reentrant.  A struct xg_ctx may be
 *     used by one thread at a time.  The engines run on worker threads
 *     the library starts on first use and keeps parked between calls,
 *     with every signal blocked (a forked child starts its own; unloading
 *     the library stops them): no answer depends on them.
 *   - Ownership is stated on every declaration that allocates.  Every
 *     *_free() accepts NULL or a zeroed struct.
 */
#ifndef EXACTGEO_H
#define EXACTGEO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What this header declares is the interface of libexactgeo.so, whose
 * other symbols are hidden (the core is compiled -fvisibility=hidden). */
#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility push(default)
#endif

#define XG_VERSION "0.1.0"

/* ------------------------------------------------------------------ */
/* Result codes.  One table, so xg_strerror() cannot drift from the enum. */

#define XG_RESULT_MAP(X)                                             \
    X(OK,       0, "success")                                        \
    X(ENOMEM,   1, "out of memory")                                  \
    X(EINVAL,   2, "invalid argument")                               \
    X(EIO,      3, "input/output error")                             \
    X(EFORMAT,  4, "malformed or unsupported data")                  \
    X(ENOGPU,   5, "no usable GPU")                                  \
    X(ENOTSUP,  6, "not supported by this build")                    \
    X(EGPU,     7, "GPU runtime error")                              \
    X(ECANCEL,  8, "cancelled")                                      \
    X(ELIMIT,   9, "input exceeds an implementation limit")          \
    X(ENONPLANAR, 10, "polygon is not planar")                       \
    X(EDEGENERATE, 11, "degenerate geometry")

enum xg_result {
#define XG__RESULT_ENUM(name, code, text) XG_##name = code,
    XG_RESULT_MAP(XG__RESULT_ENUM)
#undef XG__RESULT_ENUM
    XG_RESULT_COUNT
};

/* Static text for a result code; "unknown result code" for others. */
const char *xg_strerror(int code);

/* ------------------------------------------------------------------ */
/* Signs.  A filter answers with a sign or with a doubt; only exact
 * evaluation removes the doubt.  XG_UNSURE is never an error. */

#define XG_NEG    (-1)
#define XG_ZERO     0
#define XG_POS      1
#define XG_UNSURE   2

/* ------------------------------------------------------------------ */
/* Context: threads, messages, progress, the GPU.  No global state but the
 * kept worker threads, which no result depends on. */

struct xg_ctx;

/* Progress callback: fraction in [0,1]; return non-zero to cancel.
 * xg_segtri and xg_redblue call it on the calling thread only, never
 * concurrently, with fractions that never decrease: 0 once the inputs
 * are checked, then as the work goes (cpu and seq engines), and 1 when
 * the work is done.  A non-zero answer at any call, the first and the
 * last included, makes the call return XG_ECANCEL with no contacts;
 * no call follows it. */
typedef int (*xg_progress_fn)(double fraction, void *user);

/* New context with defaults (threads = online processors).
 * Caller frees with xg_ctx_free().  NULL when out of memory. */
struct xg_ctx *xg_ctx_new(void);
void xg_ctx_free(struct xg_ctx *ctx);

/* Number of worker threads for the cpu engine; 0 means all processors. */
int xg_ctx_set_threads(struct xg_ctx *ctx, int nthreads);
int xg_ctx_threads(const struct xg_ctx *ctx);
/* Calls fn with user as xg_progress_fn says during ctx's runs; NULL fn:
 * none (the default). */
void xg_ctx_set_progress(struct xg_ctx *ctx, xg_progress_fn fn, void *user);

/* The GPU the gpu engine runs on, and the stream it enqueues its work
 * on.  device: a CUDA device number, or -1 (the default) for the calling
 * thread's current device.  stream: a cudaStream_t of that device,
 * passed as void *, or NULL (the default) for a stream the engine makes
 * and destroys in each run; with device -1, a stream's own device is
 * taken.  The engine selects the device for the run and restores the
 * calling thread's current device before it returns; it synchronizes the
 * caller's stream (work queued on it before the call runs first) and
 * never destroys it.  The pair (-1, NULL) is accepted by every build;
 * otherwise XG_EINVAL for a device number below -1 or past the devices
 * present, or a stream of another device, XG_ENOGPU when the device
 * cannot run the engine, XG_ENOTSUP in a build without CUDA; on error
 * the context keeps its previous choice.  It makes the context's list of
 * devices (xg_ctx_set_gpus) this one device. */
int xg_ctx_set_gpu(struct xg_ctx *ctx, int device, void *stream);
int xg_ctx_gpu(const struct xg_ctx *ctx);           /* device, or -1 */
void *xg_ctx_gpu_stream(const struct xg_ctx *ctx);  /* stream, or NULL */

/* Most devices in a context's list. */
#define XG_GPUS_MAX 64

/* The GPUs the gpu engine runs on: n device numbers (1 <= n <=
 * XG_GPUS_MAX, each 0 or more); a device may be listed more than once,
 * and then runs that many workers (sharing its memory: see
 * xg_opts.gpu_mem_cap).  n = 1 is xg_ctx_set_gpu(ctx, devices[0],
 * NULL).  With n > 1, xg_segtri, xg_redblue and xg_inside on the gpu
 * engine (or auto, when it picks the gpu) run partitioned (xg_opts.regions;
 * when that is 0 or 1, XG_REGIONS_PER_GPU regions per device): one host
 * thread per device, each with a context and a stream of its own on that
 * device, takes the next region as it finishes one, so a faster device
 * takes more; the answer is the one device's, bit for bit.  Each device
 * is checked as xg_ctx_set_gpu checks one: XG_EINVAL for a device past
 * those present, XG_ENOGPU when one cannot run the engine, XG_ENOTSUP in
 * a build without CUDA; XG_EINVAL for n out of range or a negative
 * device.  On error the context keeps its previous choice. */
int xg_ctx_set_gpus(struct xg_ctx *ctx, const int *devices, int n);
/* The number of devices in the context's list (1 after xg_ctx_set_gpu,
 * whose device may be -1), and the first max of them into devices (which
 * may be NULL when max is 0). */
int xg_ctx_gpus(const struct xg_ctx *ctx, int *devices, int max);
/* The number of CUDA devices this build's gpu engine sees (0 without CUDA
 * or without a device), usable or not: what "every GPU" means. */
int xg_gpu_count(void);

/* The memory a run may take beyond its inputs, in bytes.  0 (the
 * default): what the machine has available when the run starts (Linux:
 * MemAvailable, and the cgroup's limit less its usage when lower;
 * elsewhere the free physical pages); XG_MEMORY_UNCHECKED: no check.  A
 * run of xg_segtri, xg_redblue, xg_inside or xg_delaunay whose estimate
 * (xg_op_memory; for xg_inside with opt->outside, plus one record, 64
 * bytes, per point) exceeds it returns XG_ENOMEM at once, its message
 * giving the estimate and the memory it may take, and nothing else
 * happens. */
#define XG_MEMORY_UNCHECKED UINT64_MAX
void xg_ctx_set_memory(struct xg_ctx *ctx, uint64_t bytes);
/* The bytes a run of ctx may take now (the limit set, or what the machine
 * has available); XG_MEMORY_UNCHECKED when there is no check or the
 * machine does not say. */
uint64_t xg_ctx_memory(const struct xg_ctx *ctx);

/* Detail of the last error set on ctx ("" when none).  Owned by ctx,
 * valid until the next call that takes ctx. */
const char *xg_ctx_errmsg(const struct xg_ctx *ctx);

/* ------------------------------------------------------------------ */
/* Counters of predicate work.  Each thread owns one; sums are exact. */

/* The fast pass of the engines (one interval test per pair, counted in
 * xg_stats.bbox_pairs and .deferred) is not counted here: these count the
 * predicates called one by one, in preparation and in the exact stage. */
struct xg_counters {
    uint64_t predicates;        /* xg_orient2d, _3d, xg_incircle calls,
                                   and one per pair that segtri's or
                                   redblue's fused interval filter
                                   tested (the CPU engines)           */
    uint64_t filter_failures;   /* ... whose interval straddled zero  */
    uint64_t exact_evals;       /* ... decided by GMP (each has a
                                   stage between the filter and GMP)  */
    uint64_t constructions;     /* points constructed                 */
    uint64_t construct_ld;      /* ... certified by the host's double-
                                   double value and error bound
                                   (src/refine.c; the name is that of
                                   the long double stage it replaced) */
    uint64_t construct_dd;      /* ... certified in double-double
                                   intervals (src/xg_dd.h: the GPU's
                                   stage, the host's fallback)        */
    uint64_t construct_exact;   /* ... that needed GMP to round       */
    double exact_seconds;       /* time spent in GMP, all of the above */
};

/* Adds each counter of c to sum's (a thread's or a part's into the run's). */
void xg_counters_add(struct xg_counters *sum, const struct xg_counters *c);

/* ------------------------------------------------------------------ */
/* Exact predicates.  Each returns XG_NEG, XG_ZERO or XG_POS, exactly;
 * cnt may be NULL.  Inputs must be finite. */

/* Sign of det[b-a; c-a]: XG_POS when a, b, c turn counter-clockwise. */
int xg_orient2d(struct xg_counters *cnt, const double a[2], const double b[2],
                const double c[2]);

/* Sign of det[a-d; b-d; c-d]: XG_POS when d lies below the plane through
 * a, b, c, "below" meaning a, b, c appear counter-clockwise seen from
 * above (Shewchuk's convention). */
int xg_orient3d(struct xg_counters *cnt, const double a[3], const double b[3],
                const double c[3], const double d[3]);

/* Sign of the lifted determinant of a, b, c, d (Shewchuk's incircle):
 * XG_POS when d lies inside the circle through a, b, c, these turning
 * counter-clockwise, XG_NEG outside it, XG_ZERO on it; the signs swap
 * when a, b, c turn clockwise.  For collinear a, b, c the circle is
 * their line: XG_ZERO when d is on it. */
int xg_incircle(struct xg_counters *cnt, const double a[2], const double b[2],
                const double c[2], const double d[2]);

/* The stages, for tests and benchmarks: the filter alone (may answer
 * XG_UNSURE) and the GMP evaluation alone. */
int xg_orient2d_filter(const double a[2], const double b[2], const double c[2]);
int xg_orient2d_exact(const double a[2], const double b[2], const double c[2]);
int xg_orient3d_filter(const double a[3], const double b[3], const double c[3],
                       const double d[3]);
int xg_orient3d_exact(const double a[3], const double b[3], const double c[3],
                      const double d[3]);
int xg_incircle_filter(const double a[2], const double b[2],
                       const double c[2], const double d[2]);
int xg_incircle_exact(const double a[2], const double b[2],
                      const double c[2], const double d[2]);

/* ------------------------------------------------------------------ */
/* Element sets: one type for every kind of element, an array of doubles
 * with the ids of their sources.  fid is the source feature id; sub the
 * 0-based index of the element within its feature (a_seg, b_tri).  A
 * mesh or a solid is a triangle set whose triangles share a fid.
 * Initialise with = {0}: the first push fixes the kind; pushing another
 * kind into the set is XG_EINVAL. */

enum xg_elem {
    XG_ELEM_NONE = 0,     /* a set nothing was pushed into yet     */
    XG_ELEM_POINT,        /* 3 doubles: x y z                      */
    XG_ELEM_SEGMENT,      /* 6 doubles: x0 y0 z0 x1 y1 z1          */
    XG_ELEM_TRIANGLE,     /* 9 doubles: three xyz vertices         */
    XG_ELEM_COUNT
};

/* Doubles per element of that kind (3, 6, 9; 0 for others). */
int xg_elem_doubles(int elem);
/* "point", "segment", "triangle"; "element" for others. */
const char *xg_elem_name(int elem);

struct xg_set {
    int elem;         /* enum xg_elem */
    size_t n, cap;
    double *xyz;      /* xg_elem_doubles(elem) per element */
    int64_t *fid;
    int64_t *sub;
};

/* Room for n elements of kind elem in s at least, allocated at once
 * (a reader that knows its count: no copies as the arrays grow, no
 * doubling's slack).  XG_EINVAL when s holds another kind, XG_ENOMEM. */
int xg_set_reserve(struct xg_set *s, int elem, size_t n);

/* Appends one element of kind elem (its xg_elem_doubles(elem) doubles at
 * xyz).  XG_EINVAL when the set holds another kind, XG_ELIMIT past
 * 2^32 - 1 elements, XG_ENOMEM. */
int xg_set_push(struct xg_set *s, int elem, const double *xyz, int64_t fid,
                int64_t sub);
/* The same for one point, segment pq, or triangle abc. */
int xg_set_push_point(struct xg_set *s, const double p[3], int64_t fid,
                      int64_t sub);
int xg_set_push_segment(struct xg_set *s, const double p[3],
                        const double q[3], int64_t fid, int64_t sub);
int xg_set_push_triangle(struct xg_set *s, const double a[3],
                         const double b[3], const double c[3], int64_t fid,
                         int64_t sub);
/* Frees s's arrays and leaves s empty, to be pushed into again; NULL is
 * a no-op. */
void xg_set_free(struct xg_set *s);

/* ------------------------------------------------------------------ */
/* Contacts: the answer.  a and b index the input sets. */

enum xg_kind {
    XG_KIND_PROPER = 0,   /* interiors cross transversally at one point   */
    XG_KIND_TOUCH = 1,    /* one contact point otherwise                  */
    XG_KIND_OVERLAP = 2,  /* a shared stretch: coplanar (3D), collinear (2D) */
    /* xg_inside: where a point lies with respect to a closed solid */
    XG_KIND_INSIDE = 3,   /* in the solid's interior                      */
    XG_KIND_BOUNDARY = 4, /* on its surface: a face, an edge or a vertex  */
    XG_KIND_OUTSIDE = 5,  /* in no solid of the set (xg_opts.outside)     */
    XG_KIND_COUNT
};

/* "proper", "touch", "coplanar" (3D) or "overlap" (2D), "inside",
 * "boundary", "outside". */
const char *xg_kind_name(int kind, int dim);

struct xg_contact {
    uint32_t a, b;        /* indices into the A and B sets */
    int32_t kind;         /* enum xg_kind */
    int32_t pad;
    double p[3];          /* the point, or the overlap's first end */
    double q[3];          /* the overlap's other end (XG_KIND_OVERLAP only) */
};

struct xg_contacts {
    size_t n, cap;
    struct xg_contact *v;
};

/* Room for n contacts in c at least, allocated at once (a caller that
 * knows its count: no copies as it grows, huge pages from a megabyte),
 * the contacts held kept.  XG_ENOMEM. */
int xg_contacts_reserve(struct xg_contacts *c, size_t n);

/* Frees c's contacts and leaves c empty; NULL is a no-op. */
void xg_contacts_free(struct xg_contacts *c);

/* The index of the first contact where x and y differ (indices, kind and
 * points compared bit for bit), their shorter length when one is a prefix
 * of the other, or SIZE_MAX when they are identical. */
size_t xg_contacts_diff(const struct xg_contacts *x,
                        const struct xg_contacts *y);

/* ------------------------------------------------------------------ */
/* Engines and runs. */

enum xg_engine {
    XG_ENGINE_AUTO = 0,   /* gpu when usable, else cpu */
    XG_ENGINE_SEQ,        /* the paper's sequential baseline */
    XG_ENGINE_CPU,        /* multi-threaded CPU */
    XG_ENGINE_GPU
};

/* "auto", "seq", "cpu", "gpu"; parse returns -1 on unknown text. */
const char *xg_engine_name(int engine);
int xg_engine_parse(const char *text);

/* Non-zero when this build has the GPU engine and the calling thread's
 * current device can run it. */
int xg_gpu_available(void);

enum xg_stage {
    XG_STAGE_PREPARE = 0, /* validation, bounding boxes, grid            */
    XG_STAGE_UPLOAD,      /* host to device (gpu)                        */
    XG_STAGE_INTERSECT,   /* filtered predicates over candidate pairs    */
    XG_STAGE_DOWNLOAD,    /* device to host (gpu)                        */
    XG_STAGE_EXACT,       /* GMP work on filter failures (inside intersect
                             for the CPU engines, reported apart)        */
    XG_STAGE_UNIQUE,      /* de-duplication and ordering                  */
    XG_STAGE_COUNT
};

/* "prepare", "upload", ... (enum xg_stage, as --stats prints them);
 * "unknown" for others. */
const char *xg_stage_name(int stage);

struct xg_stats {
    int engine;                   /* the engine that ran (never AUTO)   */
    int threads;
    int gpus;                     /* devices the gpu engine ran on, a
                                     device listed twice counted twice
                                     (xg_ctx_set_gpus); 0 for the CPU
                                     engines                            */
    int regions;                  /* regions the run was cut into
                                     (xg_opts.regions); 1: one run      */
    int grid[3];                  /* cells along x, y, z               */
    uint64_t a_count, b_count;    /* elements given                    */
    uint64_t a_skipped;           /* zero-length segments              */
    uint64_t b_skipped;           /* degenerate triangles / segments   */
    uint64_t z_differ;            /* xg_delaunay: merged points whose z
                                     differs from the kept point's     */
    uint64_t grid_refs_a, grid_refs_b; /* element-in-cell references   */
    uint64_t candidates;          /* sum over cells of |A_c| * |B_c|   */
    uint64_t bbox_pairs;          /* candidates whose boxes meet, once each,
                                     that were evaluated: all of them but
                                     in the cpu engine, whose segments
                                     skip the cells they do not cross */
    uint64_t deferred;            /* pairs the fast filter sent to exact work */
    struct xg_counters cnt;
    uint64_t contacts[XG_KIND_COUNT];
    double seconds[XG_STAGE_COUNT];
};

struct xg_opts {
    int engine;           /* enum xg_engine */
    int grid[3];          /* cells per axis; 0 = choose from the counts */
    size_t gpu_mem_cap;   /* bytes of device memory to use; 0 = all free.
                             Several workers on one device
                             (xg_ctx_set_gpus) share it equally.      */
    int outside;          /* xg_inside: also one record for each point
                             in no solid (kind outside)               */
    int regions;          /* xg_segtri, xg_redblue, xg_inside: cut the
                             run into this many regions (the partitioned
                             run, below); 0 or 1: one run.  The answer
                             is the same whatever the number.         */
    int solids_checked;   /* xg_inside: the caller vouches that no
                             solid crosses itself (xg_self_crossing), and
                             the check is left out.  Where parts of a
                             solid do overlap, a point in two of them
                             comes out by parity: outside.            */
};

/* Regions per device of a gpu run over several devices whose
 * xg_opts.regions is 0 or 1: enough for a fast device to take more. */
#define XG_REGIONS_PER_GPU 3
/* Most regions in one run (xg_opts.regions; XG_EINVAL past). */
#define XG_REGIONS_MAX 65536

/* The partitioned run (xg_opts.regions = n > 1, or several GPUs).  The
 * (x, y) hull of the inputs is cut into n regions (xg_regions_plan, the
 * "Regions" section below); each region's run reads the elements whose
 * box meets its reach (xg_inside: the points it owns, and the solids
 * whole, every triangle of a fid, when any meets it), keeps the contacts
 * it owns, and the union, in ascending (a, b) order, is the contacts of
 * the whole run, bit for bit; opt->grid applies to each region's run.
 * The stats: a_count, b_count, a_skipped, b_skipped and contacts[] are
 * the whole run's; grid is the largest of the regions' per axis; the
 * other counts (grid_refs_*, candidates, bbox_pairs, deferred, cnt) add
 * up the regions' work, which exceeds the whole run's by the elements
 * near the cuts that several regions read; seconds[] are the regions'
 * stages summed and divided by the workers (the wall time they take,
 * about), prepare adding the selection and unique the final merge.
 * Errors are those of the whole run: the inputs' checks come first, an
 * open solid is named as the whole run names it, and a region's failure
 * fails the run with no contacts.  Progress is reported between
 * regions. */

/* The work of a run over a part of the input (a region, a rank's
 * regions) added to dst: grid_refs_a, grid_refs_b, candidates,
 * bbox_pairs, deferred and cnt, and seconds[] each divided by workers
 * (>= 1: the parts' runs that went side by side, so that the sum is
 * about their wall time).  The one sum of the parts' work, whoever runs
 * them (the partitioned run, the plugin's runs in regions and over MPI
 * ranks); the other figures (engine, threads, grid, the element,
 * skipped and contact counts) add up in ways the caller knows. */
void xg_stats_add_work(struct xg_stats *dst, const struct xg_stats *src,
                       int workers);

/* Every contact between closed segments A and closed triangles B, in
 * ascending (a, b) order, with exact kinds and rounded points.
 * Zero-length segments and collinear triangles are skipped and counted.
 * out is reset first; the caller frees it with xg_contacts_free().
 * st may be NULL.  Returns XG_OK or an error with detail in ctx. */
int xg_segtri(struct xg_ctx *ctx, const struct xg_set *a,
              const struct xg_set *b, const struct xg_opts *opt,
              struct xg_contacts *out, struct xg_stats *st);

/* The exact classification of one pair, as the engines do it: returns
 * 1 and fills c (kind, p, q; not a, b) on contact, 0 otherwise.  The
 * triangle must not be collinear nor the segment of zero length. */
int xg_segtri_pair(struct xg_counters *cnt, const double seg[6],
                   const double tri[9], struct xg_contact *c);

/* Every contact between closed 2D segments A and B (x and y of segment sets;
 * z is ignored), in ascending (a, b) order: kinds proper, touch and
 * overlap (collinear, sharing a stretch), the point or the stretch in p
 * (and q) with z = 0.  Zero-length segments (in x, y) are skipped and
 * counted.  Same contract as xg_segtri. */
int xg_redblue(struct xg_ctx *ctx, const struct xg_set *a,
               const struct xg_set *b, const struct xg_opts *opt,
               struct xg_contacts *out, struct xg_stats *st);

/* The exact classification of one 2D pair (x, y of each 6-double
 * segment): returns 1 and fills c on contact, 0 otherwise. */
int xg_redblue_pair(struct xg_counters *cnt, const double sa[6],
                    const double sb[6], struct xg_contact *c);

/* Points A in closed solids B.  A solid is the bounded region of a
 * closed triangulated surface: the triangles of B that share a fid (in
 * any order).  Closed means that every edge, matched by the exact
 * coordinates of its two ends, is used by an even number of the solid's
 * triangles; a solid with an open edge fails with XG_EFORMAT, naming its
 * fid and its number of open edges (xg_open_edges finds them first).
 * A solid's surface must not cross itself: a solid two of whose
 * triangles cross (xg_self_crossing) fails with XG_EFORMAT, naming its
 * fid and its lowest crossing pair by their index in the feature (sub),
 * unless opt->solids_checked; parts that overlap are separate solids.
 * For each point and each solid holding it in its closed region, one
 * record: a the point, b the solid's first triangle in B (so that
 * b->fid[b] is its fid), kind XG_KIND_INSIDE (an odd number of faces
 * above it along a vertical ray moved off every edge by a symbolic shift;
 * see docs/semantics.md) or XG_KIND_BOUNDARY (on a face, an edge or a
 * vertex), p the point.  With opt->outside, also one record for each
 * point in no solid: b = UINT32_MAX, kind XG_KIND_OUTSIDE.  In ascending
 * (a, b) order, the same on every engine and thread count.  Collinear
 * triangles are skipped and counted (they bound no volume); solids may
 * nest, touch or overlap, each judged on its own.  Engines: seq, the
 * seed's origin tetrahedra over every triangle; cpu and gpu, a column
 * grid over the triangles.  Same contract as xg_segtri otherwise;
 * st->grid holds the columns (z: 1), candidates the (point, triangle)
 * pairs looked at, bbox_pairs those whose box holds the point's ray,
 * deferred those decided exactly. */
int xg_inside(struct xg_ctx *ctx, const struct xg_set *a,
              const struct xg_set *b, const struct xg_opts *opt,
              struct xg_contacts *out, struct xg_stats *st);

/* Where point p lies with respect to the solid bounded by the closed
 * surface of ntri triangles (9 doubles each) at tri, exactly, by brute
 * force: XG_KIND_INSIDE, XG_KIND_BOUNDARY or XG_KIND_OUTSIDE.  The
 * surface is not checked (xg_open_edges). */
int xg_inside_point(struct xg_counters *cnt, const double p[3],
                    const double *tri, size_t ntri);

/* *open = the number of edges of the ntri triangles at tri (9 doubles
 * each) used by an odd number of them, ends matched by exact
 * coordinates (0: the surface is closed).  XG_OK or XG_ENOMEM. */
int xg_open_edges(const double *tri, size_t ntri, uint64_t *open);

/* Whether the surface of the ntri triangles at tri (9 doubles each; a
 * solid's, in any order and turn) crosses itself: two of its triangles
 * meet other than along what they share as a mesh, vertices matched by
 * their exact coordinates.  Triangles that share one vertex cross when
 * they meet anywhere else, triangles that share an edge when they lie in
 * one plane on the same side of it (folded over), the same face given
 * twice always, triangles that share nothing when they meet at all
 * (docs/semantics.md, "inside").  Exact.  *found = 1 and pair[0] <
 * pair[1] the lowest crossing pair (by pair[0], then pair[1]; indices
 * into tri), the same on every thread count; else *found = 0.  Collinear
 * triangles are left out.  Runs on ctx's threads (ctx NULL: every
 * processor).  XG_OK, XG_EINVAL, XG_ENOMEM, XG_ELIMIT. */
int xg_self_crossing(struct xg_ctx *ctx, const double *tri, size_t ntri,
                     size_t pair[2], int *found);

/* Default cells per axis for na and nb elements over a box. */
void xg_grid_default(size_t na, size_t nb, const double lo[3],
                     const double hi[3], int cells[3]);

/* ------------------------------------------------------------------ */
/* Regions: a run cut into parts that share nothing, for several GPUs,
 * several processes (MPI) or inputs larger than memory.  Regions tile the
 * (x, y) plane; each contact belongs to exactly one of them, the one
 * holding the (x, y) of its point p (an overlap's first end, inside's
 * point).  A run over the elements that meet a region's reach (the
 * region grown past the rounding of constructed points) finds every
 * contact that region owns, and the runs of all regions together give
 * each contact once, with no de-duplication: the union, ordered, is the
 * whole run's answer bit for bit (docs/semantics.md). */

struct xg_region {
    double lo[2], hi[2];  /* the half-open box lo <= (x, y) < hi; the
                             outer regions reach -HUGE_VAL / HUGE_VAL  */
};

/* Cuts the plane into n >= 1 regions: strips across the longer side of
 * the box lo .. hi (x and y), cut at equal widths, the first and the
 * last open to infinity along it, every strip unbounded along the other
 * axis; region k is the k-th from the low side.  XG_OK, or XG_EINVAL
 * for n < 1 or a box that is not finite. */
int xg_regions_plan(const double lo[2], const double hi[2], int n,
                    struct xg_region *out);

/* Non-zero when region r owns the point (p[0], p[1]). */
int xg_region_owns(const struct xg_region *r, const double p[2]);

/* The box xmin, ymin, xmax, ymax that a run of region r reads: r grown
 * so that every element holding the exact point of a contact that r owns
 * (its rounded point in r) meets it; clipped to finite doubles. */
void xg_region_reach(const struct xg_region *r, double box[4]);

/* The regions of the plan reg (n of them, as xg_regions_plan made them)
 * whose reach (xg_region_reach) meets the closed box xmin, ymin, xmax,
 * ymax: they are consecutive, *first .. *last, and their number is
 * returned; 0 when none does (n < 1, or a box with a NaN or one beyond
 * the reaches' finite bounds), with *first = 0, *last = -1.  The same
 * regions as testing each reach, in O(log n). */
int xg_regions_meeting(const struct xg_region *reg, int n,
                       const double box[4], int *first, int *last);

/* The region of the plan reg (n of them, as xg_regions_plan made them)
 * that owns the point (p[0], p[1]) by xg_region_owns: the one region
 * there is for a finite point; -1 when none does (a coordinate NaN or
 * +infinity, or n < 1).  O(log n). */
int xg_regions_owner(const struct xg_region *reg, int n, const double p[2]);

/* Keeps the contacts of c that region r owns, in their order. */
void xg_contacts_keep_owned(struct xg_contacts *c, const struct xg_region *r);

/* ------------------------------------------------------------------ */
/* The rest of the API, one part per file, in the order their types need:
 * triangles made from points (exactgeo_tri.h), the operation table
 * (exactgeo_ops.h), dumps (exactgeo_dump.h). */

#include "exactgeo_tri.h"
#include "exactgeo_ops.h"
#include "exactgeo_dump.h"

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif /* EXACTGEO_H */
