/*
 * exactgeo_ops.h -- the operation table: one entry per operation, which
 * every front end reads.
 * Part of the public API: exactgeo.h includes it, and a program
 * includes exactgeo.h (names, visibility and C linkage come from there).
 */
#ifndef EXACTGEO_OPS_H
#define EXACTGEO_OPS_H

#ifndef EXACTGEO_H
#error "include exactgeo.h, which includes exactgeo_ops.h"
#endif

/* ------------------------------------------------------------------ */
/* Operations: one table.  Everything a front end (the exactgeo tool, the
 * GDAL driver, the --stats writer, the QGIS provider) shows or does
 * differently per operation comes from its entry, from the element kinds
 * of its inputs, or from its result's shape (enum xg_shape: the writer,
 * the summary and the --stats section of its records); nobody compares
 * operation names.  The entries are static and never change: share them
 * freely between threads. */

/* The signature of xg_segtri, xg_redblue and xg_inside: two inputs,
 * contacts out. */
typedef int (*xg_op_run_fn)(struct xg_ctx *ctx, const struct xg_set *a,
                            const struct xg_set *b, const struct xg_opts *opt,
                            struct xg_contacts *out, struct xg_stats *st);

/* The signature of xg_delaunay: one input, triangles out. */
typedef int (*xg_op_tri_fn)(struct xg_ctx *ctx, const struct xg_set *pts,
                            const struct xg_opts *opt,
                            struct xg_triangles *out, struct xg_stats *st);

/* What an operation's check found (xg_op.check, the front ends'
 * --verify): named counts, in the order they print.  A count with
 * finding set must be zero; any other is a figure (how much was
 * checked).  The texts are static. */
#define XG_CHECK_MAX 16
struct xg_check_count {
    const char *key;        /* --stats JSON key, in "verify": "not_ccw" */
    const char *label;      /* words after the number: "hull vertices",
                               "not counter-clockwise"                  */
    int finding;            /* 1: a non-zero count fails the check      */
    uint64_t n;
};
struct xg_check_report {
    const char *ok;         /* what a check without findings says: "the
                               triangles tile the hull once and are
                               Delaunay"                                 */
    const char *wrong;      /* what one with findings says: "the
                               triangulation is wrong"                   */
    int n;                  /* counts, at most XG_CHECK_MAX             */
    struct xg_check_count v[XG_CHECK_MAX];
};

/* The signature of an operation's check: the records of a run over a
 * (and b; NULL for an operation of one input) checked again, exactly,
 * into rep.  records is what the operation's run gives, as its shape
 * says: a struct xg_triangles for XG_SHAPE_TRIANGLES.  Returns XG_OK
 * (the findings are in rep) or an error (XG_ENOMEM, XG_EINVAL) with
 * detail in ctx. */
typedef int (*xg_op_check_fn)(struct xg_ctx *ctx, const struct xg_set *a,
                              const struct xg_set *b, const void *records,
                              struct xg_check_report *rep);

/* The shape of an operation's records (struct xg_op.shape): what its run
 * gives, hence the writer, the summary and the --stats section the front
 * ends use for them (ogr_driver/xgo_shape.h: one row per shape). */
enum xg_shape {
    XG_SHAPE_CONTACTS = 0,    /* struct xg_contacts: one record per
                                 (A element, B element) contact, a point
                                 or a stretch, of the kinds in
                                 xg_op.kinds (run)                      */
    XG_SHAPE_TRIANGLES = 1,   /* struct xg_triangles: triangles over the
                                 one input's points, a polygon each or
                                 one TIN (run_tri)                      */
    XG_SHAPE_LINES = 2,       /* struct xg_contacts: one segment per
                                 (A element, B element) record, from p
                                 to q (kind XG_KIND_OVERLAP), of the
                                 kinds in xg_op.kinds, none when 0 (run) */
    XG_SHAPE_COUNT
};

/* A work count of struct xg_stats that an operation names for --stats
 * (xg_op.counters): the same field means what the operation's engines
 * count there (candidate pairs; delaunay's triangulations). */
#define XG_OP_COUNTERS 4
struct xg_op_counter {
    const char *key;        /* --stats JSON key: "candidate_pairs"       */
    size_t offset;          /* offsetof(struct xg_stats, field) of a
                               uint64_t field: candidates, ...          */
};

/* One input of an operation (index 0: A, 1: B; an operation of one
 * input, xg_op.ninputs 1, has in[1] zeroed). */
struct xg_op_input {
    int elem;               /* enum xg_elem of its set                  */
    const char *noun;       /* what it is, capitalised, for labels:
                               "Segments", "Red segments"               */
    const char *accepts;    /* the geometries it takes, for help and
                               labels: "LineString Z: drill holes"      */
    const char *elements;   /* its elements, plural: "segments"         */
    const char *skipped;    /* what the core skips of them: "of zero
                               length", "degenerate"; "": it skips none */
    const char *sub_field;  /* output field holding the element's index
                               in its feature: "a_seg", "b_tri", "a_part";
                               NULL: none (inside's solids, whole
                               features)                                */
    const char *count_key;  /* --stats JSON key of the element count    */
    const char *skip_key;   /* --stats JSON key (in "skipped") of the
                               elements skipped                          */
    int closed;             /* each feature's elements must form a closed
                               surface (xg_open_edges): the readers
                               check it, -skip-invalid drops those that
                               fail                                      */
    unsigned bytes;         /* memory a run takes per element of this
                               input beyond the input itself, outputs
                               of typical density included: what
                               bench/bench_memory measures, with a
                               quarter more (xg_op_memory)               */
};

/* The run options that only some operations take (struct xg_op.options):
 * the front ends refuse them elsewhere, and their help, the QGIS
 * parameters and the JSON of the table list them only where they apply.
 * Every operation takes the others (output, A's layer and filters,
 * engine, threads, gpus, memory, stats, dump), and the options of B
 * where it has a B (xg_op.ninputs 2).  A new option: a bit here, set in
 * the rows that take it (src/op/NAME/NAME_op.c), its key in ogr_driver/xgo_options.c
 * (opt_keys) and its line in cli/help.c (options). */
enum xg_op_option {
    XG_OPT_COPY = 1,          /* -acopy, -bcopy: fields copied onto each
                                 record                                  */
    XG_OPT_GRID = 2,          /* --grid: the engines' grid              */
    XG_OPT_REGIONS = 4,       /* --regions, mpirun: a run in regions    */
    XG_OPT_OUTSIDE = 8,       /* -outside: records of points in no solid */
    XG_OPT_SKIP_INVALID = 16, /* -skip-invalid: inputs that must be
                                 closed surfaces, skipped when not       */
    XG_OPT_VERIFY = 32,       /* --verify: the result checked again     */
    XG_OPT_TIN = 64,          /* --tin: the triangles as one TIN        */
    XG_OPT_GROUP = 128,       /* -bgroup: B's features grouped into one
                                 mesh or solid per value of a field      */
    XG_OPT_SOLIDS_CHECKED = 256 /* --solids-checked: the solids' self-
                                 crossing check left out                 */
};

struct xg_op {
    const char *name;       /* the tool's sub-command, op= of EXACTGEO: */
    const char *title;      /* a few words: "Segment x triangle contacts
                               (3D, exact)"                              */
    const char *summary;    /* one line for --help                      */
    const char *contract;   /* one sentence: what the contacts are      */
    int dim;                /* 3: in space (outputs with Z); 2: in the
                               plane, z ignored; also xg_kind_name's    */
    unsigned kinds;         /* the kinds its records take: bit k set
                               for enum xg_kind k (summaries, --stats);
                               0 for triangles, which have no kind      */
    struct xg_op_input in[2];
    xg_op_run_fn run;       /* the engine entry point (shapes contacts
                               and lines; NULL otherwise)               */
    int ninputs;            /* 2: A and B; 1: A only (in[1] zeroed)     */
    int shape;              /* enum xg_shape: what run or run_tri
                               gives, hence how the front ends write,
                               summarise and count it                   */
    xg_op_tri_fn run_tri;   /* the engine entry point (shape triangles;
                               NULL otherwise)                          */
    xg_op_check_fn check;   /* re-checks the records of a run (--verify);
                               NULL: the operation has no check         */
    struct xg_op_counter counters[XG_OP_COUNTERS]; /* the work counts
                               --stats names, in order; key NULL past
                               the last                                 */
    unsigned options;       /* the enum xg_op_option bits it takes      */
    const char *layer;      /* the output layer's default name (-nln,
                               nln=): "contacts", "triangles"            */
    const char *records;    /* what one output feature is, plural, one
                               or two words: "contacts", "triangles"
                               (counts in help and QGIS)                 */
    const char *output_geometry; /* the output's geometries, for help and
                               advice: "PointZ (proper, touch) and
                               LineStringZ (coplanar)"                   */
    const char *parts;      /* how the parts of multi-part input features
                               are numbered, for help and advice        */
};

/* The estimated peak memory, in bytes, of a run of op over na elements
 * of A and nb of B beyond the inputs themselves (struct xg_op_input's
 * bytes; docs/memory.md), its records of typical density included.  A
 * run whose estimate exceeds the memory it may take (xg_ctx_set_memory)
 * is refused up front with XG_ENOMEM; records the run makes whatever the
 * data (inside's outside records, one per point) are added to it. */
uint64_t xg_op_memory(const struct xg_op *op, size_t na, size_t nb);

/* The operation named name (exact, case-sensitive), or NULL. */
const struct xg_op *xg_op_find(const char *name);
/* The number of operations, and operation i in 0 .. xg_op_count() - 1
 * (NULL past the end), in the order --help lists them. */
size_t xg_op_count(void);
const struct xg_op *xg_op_at(size_t i);

#endif /* EXACTGEO_OPS_H */
