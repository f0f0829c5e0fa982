/*
 * gpkg_direct.h -- the direct GeoPackage writer (issue 33 parts 2 and
 * 3): the rows of a GeoPackage layer this run created go into its table
 * as SQLite B-tree pages (sqlite_pages.h), appended to the file under
 * the exclusive lock of a second connection, not through
 * OGR_L_CreateFeature nor SQLite's INSERT.  The rows are the pipeline's
 * own features (xgo_batch.make), encoded on the worker threads
 * (xgo__gpkg_row_encode: the geometry blob as GDAL 3.6 writes it, the
 * field values); the writer thread only makes each row's record and
 * packs it into a leaf (xgo__gpkg_direct_put).
 *
 * The life of a direct write (write_batch.c):
 *   xgo__gpkg_direct_begin  GDAL's table made (deferred creation forced),
 *                           GDAL's transaction committed, our connection
 *                           opened, the file's exclusive lock taken
 *   xgo__gpkg_row_encode    on any thread
 *   xgo__gpkg_direct_put    on the writer thread, in record order
 *   xgo__gpkg_direct_end    the table's upper levels, root and the
 *                           header's page count written, the sequence
 *                           of AUTOINCREMENT set (the layer's count,
 *                           extent and boxes handed to rtree_defer.c);
 *                           or the pages cut off
 *   ... GDALClose ...       GDAL writes what it knows: no rows
 *   xgo__gpkg_direct_fixup  gpkg_contents' extent and gpkg_ogr_contents'
 *                           count set to the rows written, as GDAL would
 *                           have (rtree_defer.c, before the index)
 * Which layers: those rtree_defer.c remembers (a GeoPackage the job
 * closes itself, a local file, a layer this run created), when the
 * config option or environment variable XG_GPKG_DIRECT is not NO, every
 * record goes to the one layer, and no copied attribute is fetched while
 * writing (-acopy/-bcopy stay on OGR's route: they are read on the
 * writer's thread).
 */
#ifndef XGO_GPKG_DIRECT_H
#define XGO_GPKG_DIRECT_H

#include <stddef.h>
#include <stdint.h>
#include <gdal.h>
#include <ogr_api.h>

enum { XGO_DIRECT_MAXF = 16 };   /* more fields: OGR's route */

/* One field value of a row. */
struct xgo_gpkg_val {
    int type;                 /* SQLITE_NULL, _INTEGER, _FLOAT, _TEXT */
    int64_t i;
    double d;
    size_t off, len;          /* a text's bytes in the row's mem      */
};

/* One encoded row, made on a worker thread. */
struct xgo_gpkg_row {
    unsigned char *mem;       /* the blob, then the texts; owned
                                 (xgo__gpkg_row_clear)                */
    size_t cap;
    size_t nblob;             /* 0: NULL geometry                     */
    int ok;                   /* 0: could not be encoded (memory)     */
    int has_box;              /* non-empty geometry: bb is its box    */
    double bb[4];             /* minx, maxx, miny, maxy               */
    struct xgo_gpkg_val v[XGO_DIRECT_MAXF];
};

struct xgo_gpkg_direct;

/* Starts a direct write of layer lyr of dst, to which every one of the
 * n records goes, when it may have one (see above; *tx: dst's GDAL transaction is
 * open, committed here and set to 0).  *out gets the writer, or NULL
 * for OGR's route (nothing changed then, *tx kept).  XG_OK, or XG_EIO
 * naming the file and layer when GDAL's transaction cannot be
 * committed. */
int xgo__gpkg_direct_begin(GDALDatasetH dst, OGRLayerH lyr, size_t n,
                           int *tx, struct xgo_gpkg_direct **out, char *err,
                           size_t errlen);

/* Encodes feature f (of d's layer) into row, reusing row's memory.  Any
 * thread, several at once. */
void xgo__gpkg_row_encode(const struct xgo_gpkg_direct *d, OGRFeatureH f,
                          struct xgo_gpkg_row *row);

/* A row of a polygon of one ring of np points xyz (x, y, z each; z
 * written when has_z), every field NULL (the caller sets row->v[k] of
 * the layer's field k), without an OGR feature: the blob is the one
 * xgo__gpkg_row_encode makes of the same polygon (tests/gpkg_direct_t.sh
 * compares them).  The triangles' writer's encoder (write_tri.c): a
 * feature made and encoded costs it about 3 times the insert.  Any
 * thread. */
void xgo__gpkg_row_ring(const struct xgo_gpkg_direct *d,
                        struct xgo_gpkg_row *row, const double *xyz, int np,
                        int has_z);

/* Frees row's memory (NULL-safe). */
void xgo__gpkg_row_clear(struct xgo_gpkg_row *row);

/* Appends row (record i) to d's table; the writer's thread, in record
 * order.  XG_OK, or XG_EIO / XG_ENOMEM naming the file, layer and
 * record. */
int xgo__gpkg_direct_put(struct xgo_gpkg_direct *d, size_t i,
                         const struct xgo_gpkg_row *row, char *err,
                         size_t errlen);

/* Ends d (NULL-safe): when rc is XG_OK, the table's pages finished (its
 * root, the file's header) and the layer's count, extent and boxes
 * handed to rtree_defer.c, else the pages cut off; closes the
 * connection, frees d.  Returns rc, or XG_EIO when the commit failed. */
int xgo__gpkg_direct_end(struct xgo_gpkg_direct *d, int rc, char *err,
                         size_t errlen);

/* After GDALClose: sets the extent (ext: minx, miny, maxx, maxy, as
 * GDAL's SaveExtent writes them; has_ext 0: left as it is) and the
 * feature count n (0: left as it is, as GDAL's route leaves it) of layer
 * table of GeoPackage path.  XG_OK or XG_EIO
 * naming file and layer. */
int xgo__gpkg_direct_fixup(const char *path, const char *table, int64_t n,
                           int has_ext, const double ext[4], char *err,
                           size_t errlen);

#endif
