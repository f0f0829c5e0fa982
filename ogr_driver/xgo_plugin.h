/*
 * xgo_plugin.h -- the logic of the EXACTGEO GDAL driver, in C: from a
 * connection string or job file (xgo_conn.h) to a checked struct xgo_job,
 * and from the job to its records, kept (the features made when read,
 * xgo_result.h).  The C++
 * file ogr_exactgeo.cpp only wraps these in the classes GDAL demands.
 */
#ifndef XGO_PLUGIN_H
#define XGO_PLUGIN_H

#include <stddef.h>
#include <gdal.h>
#include "xgo.h"
#include "xgo_conn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A job as the driver holds it: the parsed text and the job pointing
 * into it.  Initialise with = {0}; free with xgo_pjob_free(). */
struct xgo_pjob {
    struct xgo_conn conn;
    struct xgo_job job;
    char *key;                /* the job's keys and the state (path, size,
                                 time, inode) of its input files when it
                                 was opened: equal keys give equal results
                                 (xgo_result.h).  NULL where an input is
                                 not files (a database): never shared. */
};

/*
 * Prepares pj from name: an EXACTGEO: connection string, or (is_job)
 * the path of a job file.  engine and grid, when not NULL, override the
 * text's (the ENGINE and GRID open options).  Checks the keys, then opens
 * both inputs and their layers, filters and copied fields the way the
 * tool does, so that a missing file or layer fails here, with the tool's
 * message in err, and sets pj->key.  Returns XG_OK or an XG_E* code; pj is
 * freed on error.
 */
int xgo_pjob_open(struct xgo_pjob *pj, const char *name, int is_job,
                  const char *engine, const char *grid, char *err,
                  size_t errlen);

/* The result layer's name: nln, else the tool's default for the
 * operation (xgo_default_layer: contacts, triangles). */
const char *xgo_pjob_layer_name(const struct xgo_pjob *pj);

/* Runs the job, its records kept in *out (xgo_internal.h, struct
 * xgo_kept: each feature is made when read; free with xgo__kept_free),
 * reporting progress to pf (may be NULL) with pa.  Says "running job"
 * through CPLDebug("EXACTGEO"), which the tests count.  On error *out is
 * NULL and err says why, as the tool would. */
struct xgo_kept;
int xgo_pjob_run(const struct xgo_pjob *pj, GDALProgressFunc pf, void *pa,
                 struct xgo_kept **out, char *err, size_t errlen);

/* A GDALProgressFunc that draws GDALTermProgress's 0...10...100 bar on
 * stderr; arg points to an int set to -1 before the first call. */
int xgo_progress_stderr(double fraction, const char *msg, void *arg);

void xgo_pjob_free(struct xgo_pjob *pj);

#ifdef __cplusplus
}
#endif
#endif /* XGO_PLUGIN_H */
