/*
 * xgo_shape.h -- what the front ends do per result shape (enum xg_shape,
 * an operation's xg_op.shape): one row per shape, in its own file
 * (shape_contacts.c, shape_triangles.c, shape_lines.c), found by
 * xgo_shape_of (shapes.c).  A row holds everything that differs between
 * shapes: how a run's records are made and held, its one writer
 * (write.c, write_tri.c, shape_lines.c), the EXACTGEO driver's features
 * made when read (kept.c), the records' lines of the tool's summary and
 * their section of --stats, the output's fields in the table's JSON and
 * in --help.  job.c, kept.c,
 * stats.c, ops_json.c, cli/summary.c and cli/help.c call through it and
 * never test the shape or the operation.  A new shape is a new file
 * holding its row, its enum value (exactgeo.h), and its line in the
 * table (shapes.c) with its declaration below.
 */
#ifndef XGO_SHAPE_H
#define XGO_SHAPE_H

#include <stddef.h>
#include <stdio.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>
#include "xgo.h"

struct xgo_src;
struct xgo_write;

/* What a run read and made (job.c), the view every row's functions work
 * from: the job, its inputs opened (b zeroed, never opened, for an
 * operation of one input), their sets (job->op->ninputs of them), and
 * the records the row's run made. */
struct xgo_run_made {
    const struct xgo_job *job;
    struct xgo_src *a, *b;
    struct xg_set *set;
    void *res;                /* the row's records and what its writer
                                 keeps of them: made by run, freed by
                                 free (owned)                           */
    const void *records;      /* in res: what the operation's run gave,
                                 for its check (xg_op_check_fn)         */
    size_t n;                 /* the records                            */
    int has_z;                /* an input read without Z required (the
                                 points of delaunay) had Z: the output
                                 carries it                             */
    OGRSpatialReferenceH srs; /* the inputs' CRS (A's layer's; NULL:
                                 none); not owned                       */
};

/* The extent of a layer's geometries, grown point by point (kept.c). */
struct xgo_extent {
    OGREnvelope env;
    int has;                  /* 0: no point yet                        */
};
void xgo__extent_add(struct xgo_extent *e, double x, double y);

struct xgo_shape {
    /* ---- the run (job.c) ---- */
    /* Runs job->op's entry point for this shape on m->set (the core
     * options of xgo__core_opts), making m->res, m->records and m->n;
     * the shape's warnings and rep's counts of records.  A failure:
     * its code, its message in err (naming the input where it is the
     * input's fault); m->res may be set then too. */
    int (*run)(struct xg_ctx *ctx, struct xgo_run_made *m,
               struct xg_stats *st, struct xgo_report *rep, char *err,
               size_t errlen);
    /* Frees what run made (res may be NULL). */
    void (*free_res)(void *res);
    /* Writes m's records into dst's layer layer_name (created with the
     * creation options lco, or appended to), as the tool does: rep's
     * layer, lines_layer and written; progress pf(pa) (may be NULL). */
    int (*write)(const struct xgo_run_made *m, GDALDatasetH dst,
                 const char *layer_name, char **lco, struct xgo_report *rep,
                 GDALProgressFunc pf, void *pa, char *err, size_t errlen);
    /* The same writer for records of (A element, B element) pairs given
     * as the writer's view (struct xgo_write, xgo_internal.h: the
     * records, the elements' ids, the attributes' source), for the run
     * in regions (ogr_driver/part_records.c), which holds no xgo_run_made; NULL for
     * a shape whose records are no pairs (triangles). */
    int (*write_pairs)(const struct xgo_write *w, struct xgo_report *rep,
                       GDALProgressFunc pf, void *pa, char *err,
                       size_t errlen);

    /* ---- the driver's records, features made when read (kept.c) ---- */
    int keeps_xyz;            /* the features need the inputs'
                                 coordinates (the triangles' rings), not
                                 only their ids                         */
    /* Creates the layer layer_name, as write makes it, in mem (a Memory
     * dataset the caller closes right after, m's CRS), for its
     * definition: *lyr, and *nfeat the features of m; what feature
     * needs of the layer (its fields' indices) is kept in m->res. */
    int (*define)(struct xgo_run_made *m, GDALDatasetH mem,
                  const char *layer_name, OGRLayerH *lyr, size_t *nfeat,
                  char *err, size_t errlen);
    /* The extent of the features' geometries into e. */
    void (*extent)(const struct xgo_run_made *m, struct xgo_extent *e);
    /* Feature i (< *nfeat of define) on defn, as write writes it; the
     * caller owns it.  NULL, with the message in err, when it cannot
     * be made.  One call at a time (the caller's lock). */
    OGRFeatureH (*feature)(const struct xgo_run_made *m,
                           OGRFeatureDefnH defn, size_t i, char *err,
                           size_t errlen);

    /* ---- what the front ends print ---- */
    /* The tool's summary line of input i (cli/summary.c): "  A: path,
     * layer 'x': N features, M segments (...)". */
    void (*summary_input)(FILE *f, const struct xgo_job *job, int i,
                          const struct xg_stats *st,
                          const struct xgo_report *rep);
    /* The summary's line of the records: "  contacts: 96 (...)". */
    void (*summary_records)(FILE *f, const struct xgo_job *job,
                            const struct xg_stats *st,
                            const struct xgo_report *rep);
    /* The records' keys of --stats (stats.c), each line "  \"key\":
     * value,\n": "contacts" by kind; "z_differ" and "triangles". */
    void (*stats_records)(FILE *f, const struct xgo_job *job,
                          const struct xg_stats *st,
                          const struct xgo_report *rep);
    /* The table's JSON (ops_json.c): ", \"fields\": [...], \"output\":
     * [...]", the output's fixed fields and geometries. */
    void (*json_output)(FILE *f, const struct xg_op *op);
    /* `exactgeo OP --help` (cli/help.c): from ", in ... order:" to the
     * last fixed field's line, after "one feature per record". */
    void (*help_fields)(FILE *f, const struct xg_op *op);
    /* `exactgeo --help`: the fields after "  OP: ", to the line's end. */
    void (*help_line)(FILE *f, const struct xg_op *op);
    /* What -select's and -preserve_fid's advice say: the fields to join
     * on ("join on a_fid and b_fid"), and where the inputs' feature ids
     * are ("a_fid holds the input's feature ids"); into buf. */
    void (*join_on)(char *buf, size_t len, const struct xg_op *op);
    void (*fids)(char *buf, size_t len, const struct xg_op *op);
};

/* The row of op's shape (op->shape); NULL for a NULL op. */
const struct xgo_shape *xgo_shape_of(const struct xg_op *op);

/* The rows, each in its file, for shapes.c's table. */
extern const struct xgo_shape xgo__shape_contacts;
extern const struct xgo_shape xgo__shape_triangles;
extern const struct xgo_shape xgo__shape_lines;

#endif /* XGO_SHAPE_H */
