/*
 * gpkg_rtree.h -- the spatial index of the GeoPackage layers a run
 * creates, built by exactgeo after GDAL has closed the file (issue 33):
 * GDAL 3.6 inserts the boxes one by one at its close, which took 58-73%
 * of a run's wall; a packed tree loaded in Hilbert order takes about a
 * twentieth of that and is an ordinary GeoPackage R-tree.
 *
 * The life of a deferred index (rtree_defer.c):
 *   xgo__rtree_defer_on(dst)     the job will close dst itself
 *   xgo__rtree_layer_lco(...)    a GeoPackage layer created without an
 *                                explicit SPATIAL_INDEX: created with NO,
 *                                remembered
 *   xgo__rtree_take(dst)         before GDALClose (xgo__close_dst)
 *   xgo__rtree_finish(t, ...)    after it: the remembered layers indexed
 *                                (gpkg_rtree.c)
 * Thread-safe: the remembered layers are kept per dataset handle under a
 * lock (a process may run several jobs, each on its own dataset).
 */
#ifndef XGO_GPKG_RTREE_H
#define XGO_GPKG_RTREE_H

#include <stddef.h>
#include <stdint.h>
#include <gdal.h>

/* The boxes of a layer's features in fid order (ascending), as the
 * R-tree stores them: minx, maxx, miny, maxy as float32 rounded
 * outwards as SQLite's rtree module rounds them.  Kept by the direct
 * writer (gpkg_direct.c) so that the loader need not read the blobs
 * back. */
struct xgo_gpkg_box {
    float f[4];
};
struct xgo_gpkg_boxes {
    size_t n, cap;
    struct xgo_gpkg_box *it;  /* owned: xgo__gpkg_boxes_free */
    int64_t *id;              /* NULL while the fids run id0, id0 + 1,
                                 ... (the direct writer's rows): 8 bytes
                                 a row less (docs/memory.md) */
    int64_t id0;
    size_t hint;              /* the rows expected: the first allocation
                                 is sized to it, with no doubling slack */
};
/* Appends feature fid's box bb (minx, maxx, miny, maxy as doubles) to b,
 * rounded as the rtree module rounds it.  XG_OK, XG_ENOMEM, or
 * XG_ENOTSUP past 2^32 - 1 boxes. */
int xgo__gpkg_boxes_push(struct xgo_gpkg_boxes *b, int64_t fid,
                         const double bb[4]);
/* Frees b's arrays and empties it (NULL-safe). */
void xgo__gpkg_boxes_free(struct xgo_gpkg_boxes *b);

/* Builds the R-tree of layer table of the GeoPackage file path, as GDAL
 * 3.6's CreateSpatialIndex() leaves it usable (the rtree_<t>_<g> virtual
 * table, the gpkg_extensions row, GDAL's six triggers: one SQLite
 * transaction), then the tree bulk-loaded into the shadow tables as
 * B-tree pages (sqlite_pages.h) under the file's exclusive lock; NULL
 * and empty geometries are left out, as GDAL's triggers do.  The layer must have no index yet.
 * boxes: the features' boxes as the writer kept them (taken: emptied
 * here, whatever the outcome), or NULL: read back from the blobs.
 * Progress goes to pf (may be NULL) from 0 to 1.
 * XG_OK; XG_ENOTSUP when the file is not what this loader expects (an
 * rtree with aux columns, a geometry blob without an envelope that is
 * not a point, a fid column that is not the rowid, a file SQLite cannot
 * open, a file in WAL mode or with auto-vacuum...), nothing changed:
 * the caller then asks GDAL to build it; XG_ECANCEL when pf said stop;
 * else XG_EIO, the message (naming path and table) in err. */
int xgo__gpkg_rtree_build(const char *path, const char *table,
                          struct xgo_gpkg_boxes *boxes, GDALProgressFunc pf,
                          void *pa, char *err, size_t errlen);

/* Marks dst as a dataset whose close the job does (job->close_dst): the
 * GeoPackage layers created in it from now on get exactgeo's index at
 * xgo__rtree_finish (unless -lco SPATIAL_INDEX=NO: no index, but
 * remembered for the direct writer).  Without the mark (the caller closes dst: the GDAL
 * driver, QGIS) GDAL indexes them at its close, as before. */
void xgo__rtree_defer_on(GDALDatasetH dst);

/* Non-zero when dst is marked (xgo__rtree_defer_on): its GeoPackage
 * layers created without SPATIAL_INDEX get exactgeo's index. */
int xgo__rtree_deferred(GDALDatasetH dst);

/* The layer creation options for new layer name of dst (lco as given;
 * NULL-terminated or NULL): when dst is marked, is a GeoPackage and lco
 * names no SPATIAL_INDEX, a copy with SPATIAL_INDEX=NO and the layer
 * remembered; else a plain copy.  The caller frees it (CSLDestroy). */
char **xgo__rtree_layer_lco(GDALDatasetH dst, const char *name,
                            char **lco);

/* The box (minx, maxx, miny, maxy) of GeoPackage geometry blob b of n
 * bytes (b NULL: a NULL geometry), as GDAL's ST_MinX..ST_MaxY give it:
 * the header's envelope, else a point's coordinates (gpkg_box.c).
 * 0: bb set; 1: no box (NULL or empty: no row in the index, as GDAL's
 * triggers); -1: not a blob the loader reads (no envelope and not a
 * point, bad header, NaN), for GDAL to index.  Every read is
 * bounds-checked against n. */
int xgo__gpkg_blob_box(const unsigned char *b, size_t n, double bb[4]);

/* The Hilbert key it sorts by is xg__hilbert16 (src/xg_hilbert.h). */
#include "xg_hilbert.h"

struct xgo_rtree_todo;

/* Whether layer name of dst is remembered (created by this run in a
 * marked dataset), so that the direct writer may fill it (gpkg_direct.h):
 * 0 not, 1 without an index (-lco SPATIAL_INDEX=NO), 2 to be indexed
 * (the writer keeps the rows' boxes for it). */
int xgo__rtree_remembered(GDALDatasetH dst, const char *name);

/* The direct writer wrote n rows into layer name of dst, of extent ext
 * (minx, miny, maxx, maxy; has_ext 0: no non-empty geometry), boxes in
 * fid order (taken: *boxes emptied): kept for xgo__rtree_finish, which
 * sets the count and extent after GDAL's close and indexes from the
 * boxes. */
void xgo__rtree_direct_done(GDALDatasetH dst, const char *name, int64_t n,
                            int has_ext, const double ext[4],
                            struct xgo_gpkg_boxes *boxes);

/* The layers remembered for dst (the file's path with them), taken
 * before dst is closed: dst is forgotten.  NULL when none.  Owned by the
 * caller: xgo__rtree_finish frees it. */
struct xgo_rtree_todo *xgo__rtree_take(GDALDatasetH dst);

/* After dst was closed: when rc is XG_OK, builds the index of every
 * layer of t (xgo__gpkg_rtree_build, else GDAL's CreateSpatialIndex on
 * the file), progress on pf (may be NULL) from 0 to 1; then frees t
 * (NULL-safe).  Returns rc, or the index's failure (XG_EIO naming the
 * file and layer, XG_ECANCEL), the message in err. */
int xgo__rtree_finish(struct xgo_rtree_todo *t, int rc, GDALProgressFunc pf,
                      void *pa, char *err, size_t errlen);

#endif
