/*
 * xgo_conn.h -- what the EXACTGEO driver opens: a connection string or a
 * job file, parsed into one job description.  Plain C, no GDAL.
 *
 * Connection string (one line, keys case-insensitive, any order; so are
 * the values of op and engine, which are stored in lower case):
 *
 *   EXACTGEO:op=segtri;a=holes.gpkg;al=holes;b=ore.gpkg;acopy=hole_id
 *
 * Pairs are separated by ';'.  A value may be put in double quotes, inside
 * which ';' is literal and "" stands for one quote:
 *
 *   EXACTGEO:op=redblue;a=roads.shp;b=rivers.shp;awhere="name = 'A;B'"
 *
 * Job file (extension .xgjob): the first line starts with the magic
 * "#exactgeo-job" (after a UTF-8 byte order mark, which is skipped if
 * present), then one key = value per line, the value being the
 * rest of the line (no quoting; ';' is literal); blank lines and lines
 * starting with '#' are ignored.  Relative paths a and b are taken from
 * the job file's folder.
 *
 * Keys (the exactgeo tool's options in brackets):
 *   op       an operation: segtri | redblue | ...   (the sub-command)
 *   a, b     input datasets                          (A_SRC, B_SRC)
 *   al, bl   layer names                             (-al, -bl)
 *   awhere, bwhere  attribute filters                (-where, -bwhere)
 *   acopy, bcopy    comma-separated fields to copy, or all (-acopy, -bcopy)
 *   engine   auto | seq | cpu | gpu                  (--engine)
 *   grid     N or NX,NY,NZ                           (--grid)
 *   threads  worker threads, 0 = all processors      (--threads)
 *   gpus     all | N | D1,D2,...: the gpu engine's devices (--gpus)
 *   max_memory  auto | none | SIZE: the memory a run may take (--max-memory)
 *   nln      name of the result layer                (-nln)
 *   outside  yes | no: a record for each point in no solid (-outside)
 *   skip_invalid  yes | no: skip features that are not closed surfaces,
 *            with a warning                          (-skip-invalid)
 *   verify   yes | no: check the result again; a finding fails the open
 *                                                    (--verify)
 *   tin      yes | no: the triangles as one TIN feature (--tin)
 *   bgroup   a field of B: one solid or mesh per value (-bgroup)
 *   regions  N: the run cut into N regions of the plane, run one after
 *            another in this process; the same features, in the same
 *            order (operations that run in regions)  (--regions)
 *   oo, aoo, boo  NAME=VALUE: an open option of both inputs' drivers, of
 *            A's, of B's; each may be given several times, one option
 *            each (oo=X_POSSIBLE_NAMES=x;oo=Y_POSSIBLE_NAMES=y)
 *                                                    (-oo, -aoo, -boo)
 * op and a are required, and b for an operation of two inputs (one of
 * one input, delaunay, refuses it); key= is the same as leaving the key
 * out.
 * The values are checked by the run options' parser (xgo.h,
 * xgo_option_set), the one the exactgeo tool uses.
 */
#ifndef XGO_CONN_H
#define XGO_CONN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XGO_CONN_PREFIX "EXACTGEO:"
#define XGO_JOB_MAGIC "#exactgeo-job"
#define XGO_JOB_EXT "xgjob"

/* A parsed job.  Every string is NULL when not given, else owned by the
 * struct; index 0 is input A, 1 is input B.  Initialise with = {0}. */
struct xgo_conn {
    char *op;
    char *src[2];
    char *layer[2];
    char *where[2];
    char *copy[2];          /* comma-separated field names */
    char *engine;
    char *grid;
    char *threads;
    char *gpus;
    char *max_memory;       /* auto | none | SIZE */
    char *regions;          /* 1..65536 */
    char *nln;
    char *outside;          /* yes | no */
    char *skip_invalid;     /* yes | no */
    char *verify;           /* yes | no */
    char *tin;              /* yes | no */
    char *oo[3];            /* oo, aoo, boo: NAME=VALUE open options, one
                               a line (these keys may repeat) */
    char *bgroup;           /* B's field grouping its features */
};

/* Parses text, with or without the EXACTGEO: prefix, into c (which must
 * be zeroed).  On failure returns XG_EINVAL or XG_ENOMEM with the reason
 * in err; c is then freed.  The caller frees c with xgo_conn_free(). */
int xgo_conn_parse(const char *text, struct xgo_conn *c, char *err,
                   size_t errlen);

/* Reads the job file at path into c (zeroed), resolving relative a and b
 * against the file's folder.  XG_EIO when it cannot be read, XG_EINVAL
 * when it is not a job file (err quotes the expected and the actual first
 * line) or has a bad line (err names file and line). */
int xgo_conn_read_job(const char *path, struct xgo_conn *c, char *err,
                      size_t errlen);

/* Sets key (as in the connection string) to value, replacing an earlier
 * one: how open options override the string.  The values of op and engine
 * are lowered.  XG_EINVAL on unknown key. */
int xgo_conn_set(struct xgo_conn *c, const char *key, const char *value,
                 char *err, size_t errlen);

struct xgo_job;

/* Fills job (zeroed, or holding defaults) from c: op, the inputs' paths
 * and layer option names ("al", "bl"), and every run option given, each
 * through xgo_option_set.  The strings stay c's: c must outlive job; the
 * caller frees job's field lists with xgo_options_free().  XG_EINVAL with
 * the reason (op missing or unknown, a or b missing, a bad value). */
int xgo_conn_apply(const struct xgo_conn *c, struct xgo_job *job, char *err,
                   size_t errlen);

/* Checks the fields that need no input, as xgo_conn_apply does, on a
 * scratch job.  XG_EINVAL with the reason. */
int xgo_conn_check(const struct xgo_conn *c, char *err, size_t errlen);

/* Non-zero when text starts with EXACTGEO: in any case. */
int xgo_conn_has_prefix(const char *text);

/* Non-zero when the n bytes at head start with the job magic line, with
 * or without a UTF-8 byte order mark before it. */
int xgo_conn_is_job(const char *head, size_t n);

void xgo_conn_free(struct xgo_conn *c);

#ifdef __cplusplus
}
#endif
#endif /* XGO_CONN_H */
