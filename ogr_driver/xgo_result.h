/*
 * xgo_result.h -- the records of one run of the EXACTGEO driver, held in
 * memory and shared by every dataset open on the same job.
 *
 * QGIS opens a layer's dataset more than once: the provider keeps one,
 * its connection pool opens others to iterate (one per thread, reopened
 * after idling).  Each open used to run the whole job again.  A result is
 * now found by its job's key (xgo_pjob.key: the keys, and the path, size,
 * time and inode of every input file) and shared while any dataset holds
 * it; the last one to close frees it.  A changed input file gives another
 * key, so a reopen after an edit runs again, and nothing outlives the
 * datasets that use it (no stale result, no memory held by a cache).
 * Jobs whose key is NULL (an input in a database) are never shared.
 *
 * A result holds the run's records, not its features: each feature is
 * made when read (xgo_internal.h, struct xgo_kept), a few hundred bytes
 * alive per reader rather than all of them (3 million triangles held as
 * OGR features took 2.8 GB).  It is not a GDAL dataset and holds none
 * (the inputs' datasets are closed after the run), so no dataset owns
 * another and GDALDestroyDriverManager, which closes every open dataset
 * in its own order, can close an EXACTGEO dataset at any time.
 *
 * Thread-safe: any thread may get and release results, and read
 * features of one; two threads that open the same job together run it
 * once (the second waits).
 */
#ifndef XGO_RESULT_H
#define XGO_RESULT_H

#include <stddef.h>
#include <ogr_api.h>
#include "xgo_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

struct xgo_result;

/*
 * Sets *out to the result of pj's job: the one a dataset open on the same
 * key holds, else a new run (progress to pf with pa; pf may be NULL).
 * Returns XG_OK, or the run's XG_E* code with its message in err (also
 * for a thread that waited on a run that failed).  The caller releases
 * *out with xgo_result_release().
 */
int xgo_result_get(const struct xgo_pjob *pj, GDALProgressFunc pf, void *pa,
                   struct xgo_result **out, char *err, size_t errlen);

/* Drops one reference; the last frees the result.  NULL is a no-op. */
void xgo_result_release(struct xgo_result *r);

/* The layer's definition (fields, geometry type, CRS); borrowed. */
OGRFeatureDefnH xgo_result_defn(const struct xgo_result *r);

/* The number of features, and feature i, FID i (i < count), made now:
 * the caller owns it (OGR_F_Destroy).  NULL past the end, or with a
 * CPLError when it cannot be made. */
size_t xgo_result_count(const struct xgo_result *r);
OGRFeatureH xgo_result_feature(const struct xgo_result *r, size_t i);

/* The extent of all contacts; non-zero when there is one (no contacts:
 * none). */
int xgo_result_extent(const struct xgo_result *r, OGREnvelope *env);

#ifdef __cplusplus
}
#endif
#endif /* XGO_RESULT_H */
