/*
 * xgo.h -- the GDAL-facing API of exactgeo: read two OGR layers, run the
 * core (an operation of the table, struct xg_op), write every contact to
 * an OGR layer.
 *
 * The same call serves the exactgeo tool (the destination is a real file
 * in a staging folder) and the GDAL plugin (the destination is a MEM
 * dataset).  GDAL's C API only; C11.
 *
 * Messages: errors are returned in err as one line naming the file, the
 * layer and the feature ("drillholes.gpkg, layer 'holes', feature 112:
 * coordinate is NaN").  Warnings (a skipped polygon, a feature without
 * geometry) go through CPLError(CE_Warning, ...) unless job->quiet.
 * Thread safety: xgo_job_run is reentrant; a GDAL dataset handle must not
 * be shared between concurrent runs.
 */
#ifndef XGO_H
#define XGO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <gdal.h>
#include <cpl_progress.h>
#include "exactgeo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which attribute fields of an input are copied to each contact. */
enum xgo_copy {
    XGO_COPY_NONE = 0,
    XGO_COPY_LIST,            /* the names in xgo_input.fields */
    XGO_COPY_ALL
};

/* One input: a layer of a vector dataset. */
struct xgo_input {
    const char *path;         /* anything GDALOpenEx accepts */
    const char *layer;        /* NULL: the dataset's only layer */
    const char *where;        /* OGR SQL attribute filter, or NULL */
    int copy;                 /* enum xgo_copy */
    const char *const *fields; /* XGO_COPY_LIST: NULL-terminated names */
    const char *layer_opt;    /* option naming the layer, for messages
                                 ("-al"); NULL: none */
    int spat_set;             /* spat holds a spatial filter */
    double spat[4];           /* xmin, ymin, xmax, ymax in the layer's CRS:
                                 only features meeting this box are read
                                 (OGR_L_SetSpatialFilterRect) */
    const char *const *open_options; /* "NAME=VALUE", NULL-terminated:
                                 the driver's open options (GDALOpenEx),
                                 as ogr2ogr -oo; NULL: none */
    const char *group;        /* B of triangles: the field whose values
                                 group the features into solids or meshes,
                                 one per value (-bgroup); NULL: one per
                                 feature */
};

/* What one rank of a partitioned run did (xgp.h, xgp_run). */
struct xgo_rank {
    uint32_t regions;         /* regions it ran                        */
    uint64_t features;        /* features its regions read, A and B (a
                                 feature met by several of its regions
                                 counts in each)                       */
    uint64_t contacts;        /* records its regions own               */
    double read_seconds, compute_seconds, gather_seconds,
        write_seconds;        /* write: rank 0 only                    */
};

/* What the front end adds to struct xg_stats. */
struct xgo_report {
    uint64_t a_features, b_features;  /* features read (after -where)   */
    uint64_t null_geoms;      /* features without geometry, skipped    */
    /* per input (0: A, 1: B), each counting its own polygons: an input
     * of triangles may be either or both (two meshes in) */
    uint64_t triangulated[2]; /* polygons of > 3 vertices triangulated */
    uint64_t nonplanar[2];    /* polygons skipped: not planar          */
    uint64_t bad_polygons[2]; /* polygons skipped: degenerate rings    */
    uint64_t not_closed;      /* features skipped (-skip-invalid): their
                                 surface is not closed (with -bgroup:
                                 groups)                               */
    uint64_t b_groups;        /* -bgroup: the groups B's features made */
    uint64_t crossing;        /* features skipped (-skip-invalid): their
                                 surface crosses itself (with -bgroup:
                                 groups)                               */
    uint64_t written;         /* output features                       */
    uint64_t triangles;       /* triangles made (operations that give
                                 triangles; --tin writes them as one
                                 feature)                              */
    int has_z;                /* an input read without Z required (the
                                 points of delaunay) had Z: the output
                                 carries it                            */
    int verified;             /* job->verify ran: verify holds its
                                 findings                              */
    struct xg_check_report verify; /* the operation's check (xg_op.check) */
    double read_seconds, write_seconds;
    double close_seconds;     /* closing dst (job->close_dst), else 0  */
    double verify_seconds;    /* the check (job->verify), else 0       */
    char a_layer[256], b_layer[256];  /* the layers read               */
    char layer[256];          /* the output layer, as the driver named it */
    char lines_layer[256];    /* second output layer (Shapefile), or "" */
    int ranks;                /* a partitioned run (xgp_run, and the
                                 driver's run in regions): its
                                 processes; 0: a run of xgo_job_run    */
    int regions;              /* ... and its regions                   */
    struct xgo_rank *per_rank; /* ... what each rank did, ranks entries;
                                 allocated by xgp_run, the caller frees
                                 it with free()                        */
};

/* One run. */
struct xgo_job {
    const struct xg_op *op;   /* the operation (xg_op_find) */
    struct xgo_input a, b;
    struct xg_opts opts;      /* engine, grid */
    int threads;              /* cpu engine threads; 0 = all */
    int ngpus;                /* the gpu engine's devices (gpus): 0 the
                                 default one, -1 every device present
                                 (xg_gpu_count), else gpus[0 .. ngpus-1]
                                 (xg_ctx_set_gpus) */
    int gpus[XG_GPUS_MAX];
    uint64_t memory;          /* max_memory: the memory a run may take
                                 (xg_ctx_set_memory): 0 what the machine
                                 has available, XG_MEMORY_UNCHECKED none */
    GDALProgressFunc progress; /* may be NULL; returning FALSE cancels */
    void *progress_arg;
    int quiet;                /* no warnings through CPLError */
    int tin;                  /* write the triangles as one TIN feature
                                 (operations that give triangles)     */
    int verify;               /* check the triangles again before they
                                 are written (xg_op.check): a finding
                                 fails the run (operations with a check) */
    int skip_invalid;         /* a feature that must be a closed surface
                                 (xg_op_input.closed) and is not, or
                                 crosses itself: skipped with a warning,
                                 not an error */
    const char *dump_path;    /* also write the two inputs as read
                                 (xg_dump_write); NULL: no dump */
    struct xgo_report *report; /* filled when non-NULL */
    int64_t fail_after;       /* testing only: fail after writing this
                                 many features (0: never) */
    int test_break;           /* testing only: turn the first triangle
                                 clockwise before job->verify checks
                                 (0: never), so that the check's failure
                                 can be seen */
    int close_dst;            /* close dst at the end, whatever the
                                 outcome: its time is the "close" stage
                                 (GeoPackage builds its spatial index
                                 then) and the progress reaches 1.0 only
                                 after it */
    int regions;              /* --regions N, regions=N: the run cut into
                                 N regions of the plane, run one after
                                 another or on MPI ranks (xgp.h,
                                 xgp_run; the EXACTGEO driver's in its
                                 process); 0: one run over the whole
                                 input (xgo_job_run, which refuses any
                                 other value)                          */
    const char *spill_dir;    /* a run in regions: the folder of its
                                 temporary file (unlinked at once; what
                                 the plan read, the records before the
                                 merge); NULL: $TMPDIR, else /tmp      */
    char **copy_lists[2];     /* the field lists xgo_option_set split for
                                 acopy and bcopy (a.fields, b.fields
                                 point into them): owned, freed by
                                 xgo_options_free */
    char **open_given[3];     /* the open options given to oo (both
                                 inputs), aoo and boo, copies, NULL-
                                 terminated; and each input's own list, */
    const char **open_lists[2]; /* its own then oo's (a.open_options,
                                 b.open_options): owned, freed by
                                 xgo_options_free */
};

/* The names of the fixed output fields, in order: a_fid, then the
 * operation's in[0].sub_field (a_seg, a_part), b_fid, its in[1].sub_field
 * (b_tri, b_seg; none when NULL), kind. */
#define XGO_FIELD_A_FID "a_fid"
#define XGO_FIELD_B_FID "b_fid"
#define XGO_FIELD_KIND  "kind"

/* The fixed fields of a triangle (shape XG_SHAPE_TRIANGLES): the
 * FIDs of its three input points, in the ring's order; when some feature
 * gave more than one point (a MultiPoint of several), also each point's
 * index in its feature, "v0_part", "v1_part", "v2_part". */
#define XGO_FIELD_V0 "v0"
#define XGO_FIELD_V1 "v1"
#define XGO_FIELD_V2 "v2"
#define XGO_FIELD_PART_SUFFIX "_part"

/* The output layer's default name for op: its entry's (xg_op.layer:
 * "contacts", "triangles"). */
const char *xgo_default_layer(const struct xg_op *op);

/* ---- Run options: the one parser of the options that the exactgeo tool
 * and EXACTGEO: connection strings share (xgo_options.c).  Keys are the
 * connection string's (the tool maps its own: -where is awhere, --engine
 * engine, ...):
 *   op             an operation of the table (xg_op_find)
 *   engine         auto | seq | cpu | gpu
 *   grid           N or NX,NY,NZ, each 1..1048576 (operations with a
 *                  grid: not delaunay)
 *   threads        0..1024 (0: all processors)
 *   gpus           all | N | D1,D2,...: the gpu engine's devices, every
 *                  one present, the first N, or a list (a device may
 *                  repeat: two workers on it); with engine auto it picks
 *                  the gpu engine, with seq or cpu it is an error
 *   al, bl         layer names; empty: the dataset's only layer
 *   awhere, bwhere attribute filters; empty: none
 *   acopy, bcopy   F1,F2,... or all
 *   aspat, bspat   XMIN YMIN XMAX YMAX (spaces or commas), a box
 *   outside        yes | no: also a record for each point in no solid
 *                  (operations whose kinds include outside)
 *   skip_invalid   yes | no: skip, with a warning, an input feature that
 *                  is not a closed surface, or crosses itself (operations
 *                  with such inputs)
 *   solids_checked yes | no: the user vouches that no solid of B crosses
 *                  itself, and the check is left out (operations whose
 *                  inputs are closed surfaces; xg_opts.solids_checked)
 *   verify         yes | no: check the result again before writing it
 *                  (operations with a check: delaunay)
 *   tin            yes | no: the triangles as one TIN feature
 *                  (operations that give triangles)
 *   max_memory     auto | none | SIZE (bytes, or with K, M, G or T:
 *                  binary units): the memory a run may take beyond its
 *                  inputs; a run whose estimate (xg_op_memory) exceeds
 *                  it is refused before it starts; auto (the default):
 *                  what the machine has available; none: no check
 *   regions        1..65536: the run cut into that many regions
 *                  (operations whose entry takes XG_OPT_REGIONS; the
 *                  exactgeo tool's --regions, run by xgp_run, xgp.h;
 *                  the EXACTGEO driver's regions=, run in its process)
 *   bgroup         FIELD: B's features grouped into one solid or mesh
 *                  per value of FIELD (operations whose B is triangles;
 *                  not in regions); the group's id is the lowest FID of
 *                  its features
 *   oo, aoo, boo   NAME=VALUE: an open option of the inputs' drivers
 *                  (GDALOpenEx), for both inputs (oo) or one; each call
 *                  adds one, replacing an earlier one of the same NAME
 *                  in the same key; an input's own (aoo, boo) win over
 *                  oo's (ogr2ogr -oo; a CSV of x, y, z columns:
 *                  X_POSSIBLE_NAMES=x, ...)
 * An operation of one input (xg_op.ninputs 1) takes no B key, and one
 * that gives triangles copies no fields.
 * Strings are not copied: value must outlive job, except the field lists,
 * which are split into job->copy_lists, and the open options, copied
 * into job->open_given (free them with xgo_options_free).
 * Returns 0, or XG_EINVAL with a message naming the value and what was
 * expected ("bad grid '0' (expected N or NX,NY,NZ, each 1..1048576)"); the
 * caller adds the option's name when its user typed one. */
int xgo_option_set(struct xgo_job *job, const char *key, const char *value,
                   char *err, size_t errlen);
/* Whether the job's options fit its operation: each option only where
 * the operation takes it (xgo_option_applies: outside, skip_invalid,
 * verify, tin, grid, regions and the copies per its entry's options, B's
 * options where it has a B), and gpus only with the gpu or auto engine;
 * 0 when no operation is set yet.  xgo_option_set and xgo_job_run call
 * it.  Returns 0 or XG_EINVAL with the message. */
int xgo_options_check(const struct xgo_job *job, char *err, size_t errlen);
/* Whether op takes the run option key (a key of xgo_option_set, "op"
 * excepted): B's keys where it has a B, those of the options only some
 * operations take where its entry's options say so (enum xg_op_option).
 * 0 for an unknown key or a NULL op. */
int xgo_option_applies(const struct xg_op *op, const char *key);
/* The run option keys in order, i from 0 (NULL past the last): for the
 * table's JSON (xgo_ops_write_json). */
const char *xgo_option_key(size_t i);
/* Frees what xgo_option_set allocated (job->copy_lists, the open
 * options) and clears the lists that pointed there.  NULL-safe. */
void xgo_options_free(struct xgo_job *job);
/* The names of the operations for messages: "segtri or redblue". */
void xgo_op_list(char *buf, size_t len);

/* The geometries the reader of input i of op takes, as words separated by
 * spaces ("line", "polygon"): for front ends that offer layers of the
 * right kind (QGIS).  NULL when this build has no reader for it. */
const char *xgo_input_geometry(const struct xg_op *op, int i);

/*
 * Reads job->a and job->b, runs the core and creates in dst the layer
 * layer_name (with the layer creation options lco, NULL-terminated or
 * NULL) holding one feature per contact, in the core's (a, b) order.
 * When dst already has a layer of that name, the features are appended
 * to it (its fields must match).  When dst is a Shapefile, overlaps go to
 * a second layer "<layer_name>_lines", created only when there are some.
 * Writes in one transaction where the driver supports it.  CSV output
 * gets the geometry as WKT (GEOMETRY=AS_WKT) unless lco says otherwise.
 * An input that gives no usable element (every feature without geometry,
 * of one vertex, or with every polygon skipped; every segment of zero
 * length or every triangle degenerate) is an error: an empty output would
 * read as "no contacts".  When job->close_dst, dst is closed before the
 * return, on success and on failure alike (a failing close is an error).
 * An operation of one input reads job->a only; one that gives triangles
 * (delaunay) writes one Polygon (PolygonZ when the points had Z) per
 * triangle, its ring v0, v1, v2, v0 counter-clockwise, fields v0, v1, v2
 * (XGO_FIELD_V0...); with job->verify its check runs first, and a finding
 * is an error (the findings in job->report either way); with job->tin,
 * one feature instead, a TIN (TIN Z) of the same triangles, no fields.
 * st (may be NULL) receives the core's figures.  Returns 0, or an
 * XG_E* code with a one-line message in err (errlen bytes, may be 0).
 * A job in regions (job->regions) is refused: xgp_run (xgp.h) runs it,
 * and, for the EXACTGEO driver, the same run with its records kept.
 */
int xgo_job_run(const struct xgo_job *job, GDALDatasetH dst,
                const char *layer_name, char **lco, struct xg_stats *st,
                char *err, size_t errlen);

/* ---- One run, stage by stage (job.c): xgo_job_run is
 *   xgo_run_new, xgo_run_open, xgo_run_read, xgo_run_exec,
 *   xgo_run_write, xgo_run_end
 * the first failure skipping to xgo_run_end, which every run that
 * xgo_run_new made must reach.  Each stage returns XG_OK or an XG_E*
 * code with the run's one error line (file, layer, feature where there
 * is one) in the err given to xgo_run_new; what a stage does, its
 * messages and its figures are xgo_job_run's. */
struct xgo_run;
/* *out = a run of job (the caller's until xgo_run_end: job, st and err
 * must outlive it): job->report (when set) and st (may be NULL: no
 * figures) cleared, err (errlen bytes) its error line.  XG_ENOMEM,
 * *out NULL. */
int xgo_run_new(struct xgo_run **out, const struct xgo_job *job,
                struct xg_stats *st, char *err, size_t errlen);
/* The refusals before anything is opened (no operation, options that do
 * not fit it, regions: a single run is one region, no layer_name), then
 * the inputs opened (B where the operation has one), their filters set,
 * their CRSs checked. */
int xgo_run_open(struct xgo_run *r, const char *layer_name);
/* Every feature of the inputs read, timed, with the reader of each
 * input's element kind: an input that gives no element is an error
 * naming what its features were. */
int xgo_run_read(struct xgo_run *r);
/* The core's context (threads, memory, GPUs, progress, the dump), the
 * operation's run through its shape's row, then the refusal of an input
 * whose every element the core skipped, and the operation's check
 * (job->verify): a finding fails the run. */
int xgo_run_exec(struct xgo_run *r);
/* The records written into dst's layer layer_name (created with lco,
 * or appended to), timed, then freed. */
int xgo_run_write(struct xgo_run *r, GDALDatasetH dst,
                  const char *layer_name, char **lco);
/* Ends r (NULL-safe): dst closed where the job says (job->close_dst;
 * dst may be NULL), quietly when rc is a failure, then everything r
 * holds freed.  Returns rc, or the close's failure. */
int xgo_run_end(struct xgo_run *r, GDALDatasetH dst, int rc);

/* Writes the operation table to f as one JSON object, for front ends
 * that build on it (the QGIS provider, through exactgeo --operations):
 * {"operations": [{"name", "title", "summary", "contract", "dim",
 * "inputs": [{"role": "A", "element", "noun", "accepts", "geometry": [...],
 * "field"}, ...], "kinds": [...], "fields": [...]}, ...]}.  "geometry"
 * lists what this build's reader of that input takes ("line", "polygon",
 * "point"); empty when there is none.  "field" is null for an input
 * without an index field (inside's solids); "fields" lists the output's
 * fixed fields, "kinds" the operation's kinds only (struct xg_op.kinds).
 * An operation of one input lists one input; one that gives triangles
 * has "kinds" [], "fields" ["v0", "v1", "v2"] and "output" ["polygon"];
 * "verify" says whether it has a check (--verify).  "layer" is the
 * output layer's default name, "records" what one output feature is
 * (plural), "output_geometry" and "parts" the entry's texts, "options"
 * the run option keys it takes (xgo_option_applies).  Returns 0, or
 * XG_EIO when writing failed. */
int xgo_ops_write_json(FILE *f);

/* Writes the figures of a run as one JSON object to path.  Returns 0 or
 * XG_EIO with a message in err. */
int xgo_stats_write_json(const char *path, const struct xgo_job *job,
                         const struct xg_stats *st,
                         const struct xgo_report *rep, char *err,
                         size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* XGO_H */
