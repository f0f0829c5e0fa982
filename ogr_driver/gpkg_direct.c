/*
 * gpkg_direct.c -- the direct GeoPackage writer (gpkg_direct.h).
 *
 * GDAL creates the table (its schema, gpkg_contents and
 * gpkg_geometry_columns rows); its transaction is committed and its
 * connection left idle; a second connection (ours) takes the file's
 * exclusive lock and the rows go in as B-tree pages (sqlite_pages.c):
 * appended past the file's end in rowid order, the table's root and the
 * header's page count written when the last row is in.  A row is what
 * OGR_L_CreateFeature would have stored: the geometry blob is GDAL
 * 3.6's (GPkgGeometryFromOGR: 'GP', version 0, flags little-endian,
 * srs_id, an envelope of doubles minx, maxx, miny, maxy (and minz, maxz
 * for a geometry with Z) except for points and empty geometries, then
 * ISO WKB little-endian), the record SQLite makes of the same values,
 * the FIDs those SQLite's AUTOINCREMENT gives (its sequence's last, plus
 * one, on), the sequence set to the last after.  What GDAL's close
 * writes from its own bookkeeping (it saw no row: the count 0, no
 * extent) is set right after it (xgo__gpkg_direct_fixup), with the same
 * SQL text GDAL uses, so the stored doubles are the ones GDAL's route
 * stores.  tests/gpkg_direct_t.sh compares the two routes' SQL dumps and
 * runs PRAGMA integrity_check.
 *
 * No trigger runs for a row written as pages: a table with a trigger
 * other than GDAL's feature-count ones (whose count the fixup sets)
 * takes OGR's route, as does a file in WAL mode or with auto-vacuum
 * (sqlite_pages.h).  Safety: until the last row the table's root is
 * untouched and the appended pages lie past the end SQLite reads; a
 * failure cuts them off (the file as GDAL left it) and the writer drops
 * the layer GDAL made, as on OGR's route; the tool's staging discards
 * the file anyway.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sqlite3.h>
#include <cpl_conv.h>
#include <cpl_string.h>
#include "xgo_internal.h"
#include "gpkg_direct.h"
#include "gpkg_rtree.h"
#include "sqlite_pages.h"

/* What a column of the table takes from a row. */
enum { COL_FID = -2, COL_GEOM = -1 };  /* >= 0: the layer's field k */

struct xgo_gpkg_direct {
    sqlite3 *db;
    struct xgo_pages *pages;
    char *path, *table;       /* CPLStrdup'd                          */
    GDALDatasetH dst;
    int srs_id;
    int nf;                   /* the layer's fields                   */
    OGRFieldType ftype[XGO_DIRECT_MAXF];
    int ncol;                 /* the table's columns, in order: what
                                 each takes                           */
    int col[XGO_DIRECT_MAXF + 2];
    int autoinc;              /* the fid is AUTOINCREMENT's           */
    int64_t fid0;             /* the rowid before the first row's     */
    unsigned char *rec;       /* the record being appended            */
    size_t reccap;
    int64_t n;
    int has_ext;
    double ext[4];            /* minx, miny, maxx, maxy               */
    struct xgo_gpkg_boxes boxes;
    int no_boxes;             /* not kept: no index, or the loader
                                 reads them back                      */
    int in_tx;
};

/* XG_EIO naming d's file and layer, what failed and SQLite's message. */
static int sql_fail(struct xgo_gpkg_direct *d, const char *what, char *err,
                    size_t errlen)
{
    return xgo__fail(err, errlen, XG_EIO, "%s, layer '%s': %s: %s", d->path,
                     d->table, what, sqlite3_errmsg(d->db));
}

/* Runs sql (sqlite3_mprintf'd, freed here) on db: SQLITE_OK or not. */
static int exec(sqlite3 *db, char *sql)
{
    int rc = sql ? sqlite3_exec(db, sql, NULL, NULL, NULL) : SQLITE_NOMEM;
    sqlite3_free(sql);
    return rc;
}

/* Frees d and what it holds: pages not ended cut off, the connection
 * rolled back and closed. */
static void direct_free(struct xgo_gpkg_direct *d)
{
    if (!d)
        return;
    xgo__pages_end(d->pages, XG_EIO, NULL, 0);
    if (d->db) {
        if (d->in_tx)
            sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
        sqlite3_close(d->db);
    }
    CPLFree(d->path);
    CPLFree(d->table);
    free(d->rec);
    xgo__gpkg_boxes_free(&d->boxes);
    free(d);
}

/* The field types of lyr into d: 1 when every one is one this writer
 * stores (integers, reals, strings), else 0. */
static int field_types(struct xgo_gpkg_direct *d, OGRLayerH lyr)
{
    OGRFeatureDefnH fd = OGR_L_GetLayerDefn(lyr);
    int k;
    d->nf = OGR_FD_GetFieldCount(fd);
    if (d->nf > XGO_DIRECT_MAXF || OGR_FD_GetGeomFieldCount(fd) != 1)
        return 0;
    for (k = 0; k < d->nf; k++) {
        OGRFieldDefnH f = OGR_FD_GetFieldDefn(fd, k);
        d->ftype[k] = OGR_Fld_GetType(f);
        /* a subtype (boolean, int16, float32, JSON...) GDAL may store
         * otherwise: its route */
        if (OGR_Fld_GetSubType(f) != OFSTNone ||
            (d->ftype[k] != OFTInteger && d->ftype[k] != OFTInteger64 &&
             d->ftype[k] != OFTReal && d->ftype[k] != OFTString))
            return 0;
    }
    return 1;
}

/* The first column of the first row of sql (sqlite3_mprintf'd, freed
 * here) on d's connection as an integer into *v: 1, or 0 (no row, an
 * error). */
static int query_int(struct xgo_gpkg_direct *d, char *sql, int64_t *v)
{
    sqlite3_stmt *st;
    int ok = 0;
    if (sql && sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) {
            *v = sqlite3_column_int64(st, 0);
            ok = 1;
        }
        sqlite3_finalize(st);
    }
    sqlite3_free(sql);
    return ok;
}

/* The table's columns into d->col: the fid (the rowid's alias), the
 * geometry column, each field once, nothing else.  1 when so. */
static int columns(struct xgo_gpkg_direct *d, OGRLayerH lyr)
{
    OGRFeatureDefnH fd = OGR_L_GetLayerDefn(lyr);
    const char *g = OGR_L_GetGeometryColumn(lyr);
    sqlite3_stmt *st;
    char *sql = sqlite3_mprintf("PRAGMA table_info(\"%w\")", d->table);
    int seen = 0, ok = 1, k;
    if (!sql || sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK) {
        sqlite3_free(sql);
        return 0;
    }
    sqlite3_free(sql);
    d->ncol = 0;
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 1);
        const char *type = (const char *)sqlite3_column_text(st, 2);
        int pk = sqlite3_column_int(st, 5), c = -3;
        /* a default would fill a column the row leaves out; NOT NULL
         * (but the fid's) a check that pages would not make */
        if (!name || d->ncol == XGO_DIRECT_MAXF + 2 ||
            sqlite3_column_type(st, 4) != SQLITE_NULL ||
            (!pk && sqlite3_column_int(st, 3))) {
            ok = 0;
            break;
        }
        if (pk) {
            /* the rowid's alias: stored as NULL in the record */
            if (pk != 1 || !type || strcasecmp(type, "INTEGER") ||
                strcmp(name, OGR_L_GetFIDColumn(lyr)))
                ok = 0;
            c = COL_FID;
        } else if (!strcmp(name, g)) {
            c = COL_GEOM;
        } else {
            for (k = 0; k < d->nf; k++)
                if (!strcmp(name, OGR_Fld_GetNameRef(
                                      OGR_FD_GetFieldDefn(fd, k))))
                    c = k;
        }
        if (c == -3 || (seen & (1 << (c + 2))))
            ok = 0;
        else
            seen |= 1 << (c + 2);
        d->col[d->ncol++] = c;
    }
    sqlite3_finalize(st);
    /* every field, the geometry and the fid found */
    return ok && seen == (1 << (d->nf + 2)) - 1;
}

/* On our connection, in its exclusive transaction: the table's srs_id,
 * its triggers (only GDAL's feature-count ones allowed: no trigger runs
 * for a page), its columns, its AUTOINCREMENT sequence, then the page
 * writer on its root.  1 when all is as expected, 0: OGR's route. */
static int prepare(struct xgo_gpkg_direct *d, OGRLayerH lyr, char *err,
                   size_t errlen)
{
    const char *g = OGR_L_GetGeometryColumn(lyr);
    int64_t v = 0, root = 0;
    sqlite3_stmt *st;
    char *sql;
    int other = 0;

    if (!query_int(d, sqlite3_mprintf("SELECT srs_id FROM "
                                      "gpkg_geometry_columns WHERE table_name"
                                      " = %Q AND column_name = %Q",
                                      d->table, g), &v))
        return 0;
    d->srs_id = (int)v;
    sql = sqlite3_mprintf("SELECT name FROM sqlite_master WHERE type = "
                          "'trigger' AND tbl_name = %Q", d->table);
    if (!sql || sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK) {
        sqlite3_free(sql);
        return 0;
    }
    sqlite3_free(sql);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        if (!name ||
            (!STARTS_WITH(name, "trigger_insert_feature_count_") &&
             !STARTS_WITH(name, "trigger_delete_feature_count_")))
            other = 1;        /* an index's, the user's: GDAL's route */
    }
    sqlite3_finalize(st);
    if (other || !columns(d, lyr) ||
        !query_int(d, sqlite3_mprintf("SELECT rootpage FROM sqlite_master "
                                      "WHERE type = 'table' AND name = %Q "
                                      "AND sql NOT LIKE '%%WITHOUT ROWID%%'",
                                      d->table), &root) ||
        root < 2 || root > UINT32_MAX)
        return 0;
    /* AUTOINCREMENT numbers from its sequence's last (a table of that
     * name dropped before left none: SQLite deletes it with the table) */
    d->autoinc = query_int(d, sqlite3_mprintf("SELECT 1 FROM sqlite_master "
                                              "WHERE type = 'table' AND name"
                                              " = %Q AND sql LIKE "
                                              "'%%AUTOINCREMENT%%'",
                                              d->table), &v);
    d->fid0 = 0;
    if (d->autoinc &&
        !query_int(d, sqlite3_mprintf("SELECT seq FROM sqlite_sequence "
                                      "WHERE name = %Q", d->table),
                   &d->fid0))
        d->fid0 = 0;
    if (xgo__pages_begin(d->db, d->path, &d->pages, err, errlen) != XG_OK)
        return 0;
    return xgo__pages_table(d->pages, (uint32_t)root, err, errlen) == XG_OK;
}

/* OGR's route after all, once GDAL's transaction was committed: d
 * freed (our transaction rolled back), GDAL's transaction started again
 * (*tx), XG_OK. */
static int fallback(struct xgo_gpkg_direct *d, GDALDatasetH dst, int *tx)
{
    direct_free(d);
    *tx = GDALDatasetStartTransaction(dst, FALSE) == OGRERR_NONE;
    return XG_OK;
}

/* gpkg_direct.h */
int xgo__gpkg_direct_begin(GDALDatasetH dst, OGRLayerH lyr, size_t n,
                           int *tx, struct xgo_gpkg_direct **out, char *err,
                           size_t errlen)
{
    struct xgo_gpkg_direct *d;
    char why[256] = "";
    int known;
    *out = NULL;
    if (!lyr ||
        !CPLTestBool(CPLGetConfigOption("XG_GPKG_DIRECT", "YES")) ||
        !(known = xgo__rtree_remembered(dst, OGR_L_GetName(lyr))))
        return XG_OK;
    if (!(d = calloc(1, sizeof *d)))
        return XG_OK;         /* no memory for speed: OGR's route */
    d->dst = dst;
    d->no_boxes = known != 2; /* no index: no boxes kept for it */
    d->boxes.hint = n;        /* sized once (docs/memory.md) */
    d->path = CPLStrdup(GDALGetDescription(dst));
    d->table = CPLStrdup(OGR_L_GetName(lyr));
    if (!field_types(d, lyr)) {
        direct_free(d);
        return XG_OK;
    }
    /* GDAL creates a new table when it first needs it: now; then its
     * transaction committed, so that our connection sees the table and
     * GDAL holds no lock */
    CPLErrorReset();
    if (OGR_L_SyncToDisk(lyr) != OGRERR_NONE ||
        (*tx && GDALDatasetCommitTransaction(dst) != OGRERR_NONE)) {
        int rc = xgo__fail(err, errlen, XG_EIO, "%s, layer '%s': cannot "
                           "create the table: %s", d->path, d->table,
                           xgo__gdal_msg("driver error"));
        direct_free(d);
        return rc;
    }
    *tx = 0;
    if (sqlite3_open_v2(d->path, &d->db, SQLITE_OPEN_READWRITE, NULL) !=
            SQLITE_OK ||
        exec(d->db, sqlite3_mprintf("BEGIN EXCLUSIVE")) != SQLITE_OK) {
        /* GDAL's connection holds a lock (another GDAL than the one
         * tried): its route, on a committed table */
        CPLDebug("EXACTGEO", "%s: no second connection (%s): OGR's route",
                 d->path, d->db ? sqlite3_errmsg(d->db) : "?");
        return fallback(d, dst, tx);
    }
    d->in_tx = 1;
    if (!prepare(d, lyr, why, sizeof why)) {
        CPLDebug("EXACTGEO", "%s, layer '%s': not a table the direct "
                 "writer knows%s%s: OGR's route", d->path, d->table,
                 *why ? ": " : "", why);
        return fallback(d, dst, tx);  /* nothing written */
    }
    CPLDebug("EXACTGEO", "%s, layer '%s': direct writer", d->path, d->table);
    *out = d;
    return XG_OK;
}

/* Room for need bytes in row's mem; 0 when out of memory. */
static int reserve(struct xgo_gpkg_row *row, size_t need)
{
    unsigned char *m;
    size_t cap;
    if (need <= row->cap)
        return 1;
    cap = need < 256 ? 256 : need + need / 2;
    if (!(m = realloc(row->mem, cap)))
        return 0;
    row->mem = m;
    row->cap = cap;
    return 1;
}

/* Little-endian stores. */
static void put_u32le(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}
static void put_f64le(unsigned char *p, double d)
{
    uint64_t u;
    int k;
    memcpy(&u, &d, 8);
    for (k = 0; k < 8; k++, u >>= 8)
        p[k] = (unsigned char)u;
}

/* The blob's header at p: 'GP', version 0, flags (little-endian, the
 * envelope kind: 0 none, 1 XY, 2 XYZ as dims is 0, 2 or 3; empty), the
 * srs id, then the envelope e (minx, maxx, miny, maxy, minz, maxz) as
 * dims asks; 8 + 16 dims bytes.  One writer of the header for every
 * encoder (GDAL 3.6's GPkgGeometryFromOGR layout). */
static void put_header(const struct xgo_gpkg_direct *d, unsigned char *p,
                       int dims, int empty, const double e[6])
{
    int k;
    p[0] = 'G';
    p[1] = 'P';
    p[2] = 0;                 /* version 1 of the standard          */
    p[3] = (unsigned char)(1 | (dims ? dims - 1 : 0) << 1 | (empty ? 0x10
                                                                    : 0));
    put_u32le(p + 4, (uint32_t)d->srs_id);
    for (k = 0; k < 2 * dims; k++)
        put_f64le(p + 8 + 8 * k, e[k]);
}

/* The geometry g into row's blob: header, envelope, ISO WKB; its box.
 * 0 when out of memory. */
static int encode_geom(const struct xgo_gpkg_direct *d, OGRGeometryH g,
                       struct xgo_gpkg_row *row)
{
    int empty = OGR_G_IsEmpty(g);
    int point = wkbFlatten(OGR_G_GetGeometryType(g)) == wkbPoint;
    int dims = empty || point ? 0 : OGR_G_Is3D(g) ? 3 : 2;
    size_t head = 8 + 16 * (size_t)dims, nwkb = (size_t)OGR_G_WkbSize(g);
    unsigned char *p;
    OGREnvelope3D e;
    double env[6] = {0, 0, 0, 0, 0, 0};
    if (!reserve(row, head + nwkb))
        return 0;
    p = row->mem;
    row->has_box = !empty;
    if (!empty) {
        OGR_G_GetEnvelope3D(g, &e);
        env[0] = row->bb[0] = e.MinX;
        env[1] = row->bb[1] = e.MaxX;
        env[2] = row->bb[2] = e.MinY;
        env[3] = row->bb[3] = e.MaxY;
        env[4] = e.MinZ;
        env[5] = e.MaxZ;
    }
    put_header(d, p, dims, empty, env);
    if (OGR_G_ExportToIsoWkb(g, wkbNDR, p + head) != OGRERR_NONE)
        return 0;
    row->nblob = head + nwkb;
    return 1;
}

/* gpkg_direct.h */
void xgo__gpkg_row_encode(const struct xgo_gpkg_direct *d, OGRFeatureH f,
                          struct xgo_gpkg_row *row)
{
    OGRGeometryH g = f ? OGR_F_GetGeometryRef(f) : NULL;
    size_t at;
    int k;
    row->ok = 0;
    row->nblob = 0;
    row->has_box = 0;
    if (!f || (g && !encode_geom(d, g, row)))
        return;
    at = row->nblob;
    for (k = 0; k < d->nf; k++) {
        struct xgo_gpkg_val *v = &row->v[k];
        if (!OGR_F_IsFieldSetAndNotNull(f, k)) {
            v->type = SQLITE_NULL;
        } else if (d->ftype[k] == OFTReal) {
            v->type = SQLITE_FLOAT;
            v->d = OGR_F_GetFieldAsDouble(f, k);
        } else if (d->ftype[k] == OFTString) {
            const char *s = OGR_F_GetFieldAsString(f, k);
            size_t len = strlen(s);
            if (!reserve(row, at + len + 1))
                return;
            memcpy(row->mem + at, s, len);
            v->type = SQLITE_TEXT;
            v->off = at;
            v->len = len;
            at += len;
        } else {
            v->type = SQLITE_INTEGER;
            v->i = OGR_F_GetFieldAsInteger64(f, k);
        }
    }
    row->ok = 1;
}

/* gpkg_direct.h */
void xgo__gpkg_row_ring(const struct xgo_gpkg_direct *d,
                        struct xgo_gpkg_row *row, const double *xyz, int np,
                        int has_z)
{
    int dims = has_z ? 3 : 2, k, c;
    size_t head = 8 + 16 * (size_t)dims;
    size_t nwkb = 1 + 4 + 4 + 4 + (size_t)np * (size_t)dims * 8;
    double lo[3], hi[3];
    unsigned char *p;
    row->ok = 0;
    row->nblob = 0;
    row->has_box = 0;
    for (k = 0; k < d->nf; k++)
        row->v[k].type = SQLITE_NULL;
    if (np < 1 || !reserve(row, head + nwkb))
        return;
    /* the envelope as OGR's getEnvelope: the first point, then each
     * later one that is strictly beyond */
    for (c = 0; c < 3; c++)
        lo[c] = hi[c] = xyz[c];
    for (k = 1; k < np; k++)
        for (c = 0; c < 3; c++) {
            double x = xyz[3 * k + c];
            if (hi[c] < x)
                hi[c] = x;
            if (lo[c] > x)
                lo[c] = x;
        }
    p = row->mem;
    {
        const double env[6] = {lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]};
        put_header(d, p, dims, 0, env);
    }
    /* ISO WKB, little-endian: Polygon (3) or Polygon Z (1003), one
     * ring of np points */
    p += head;
    p[0] = 1;
    put_u32le(p + 1, has_z ? 1003u : 3u);
    put_u32le(p + 5, 1);
    put_u32le(p + 9, (uint32_t)np);
    p += 13;
    for (k = 0; k < np; k++)
        for (c = 0; c < dims; c++, p += 8)
            put_f64le(p, xyz[3 * k + c]);
    row->bb[0] = lo[0];
    row->bb[1] = hi[0];
    row->bb[2] = lo[1];
    row->bb[3] = hi[1];
    row->has_box = 1;
    row->nblob = head + nwkb;
    row->ok = 1;
}

/* gpkg_direct.h */
void xgo__gpkg_row_clear(struct xgo_gpkg_row *row)
{
    if (!row)
        return;
    free(row->mem);
    row->mem = NULL;
    row->cap = 0;
}

/* gpkg_direct.h */
int xgo__gpkg_direct_put(struct xgo_gpkg_direct *d, size_t i,
                         const struct xgo_gpkg_row *row, char *err,
                         size_t errlen)
{
    struct xgo_rec_val v[XGO_DIRECT_MAXF + 2];
    int64_t fid = d->fid0 + d->n + 1;
    size_t n;
    int k, rc;
    if (!row->ok)
        return xgo__fail(err, errlen, XG_ENOMEM, "%s, layer '%s': record "
                         "%zu: out of memory", d->path, d->table, i + 1);
    for (k = 0; k < d->ncol; k++) {
        struct xgo_rec_val *c = &v[k];
        memset(c, 0, sizeof *c);
        if (d->col[k] == COL_GEOM) {
            if (row->nblob) {
                c->type = SQLITE_BLOB;
                c->p = row->mem;
                c->n = row->nblob;
            }
        } else if (d->col[k] >= 0) {
            const struct xgo_gpkg_val *f = &row->v[d->col[k]];
            c->type = f->type;
            c->i = f->i;
            c->d = f->d;
            c->p = row->mem + f->off;
            c->n = f->len;
        }                     /* the fid: NULL, the rowid's alias */
    }
    n = xgo__rec_encode(v, d->ncol, xgo__pages_format(d->pages), NULL);
    if (n > d->reccap) {
        unsigned char *m = realloc(d->rec, n + n / 2);
        if (!m)
            return xgo__fail(err, errlen, XG_ENOMEM, "%s, layer '%s': "
                             "record %zu: out of memory", d->path, d->table,
                             i + 1);
        d->rec = m;
        d->reccap = n + n / 2;
    }
    xgo__rec_encode(v, d->ncol, xgo__pages_format(d->pages), d->rec);
    if ((rc = xgo__pages_row(d->pages, fid, d->rec, n, err, errlen)) !=
        XG_OK)
        return rc;
    d->n++;
    if (row->has_box) {
        /* the extent as GDAL's: the union of the 2D envelopes of the
         * non-empty geometries */
        const double *b = row->bb;
        if (!d->has_ext) {
            d->ext[0] = b[0];
            d->ext[1] = b[2];
            d->ext[2] = b[1];
            d->ext[3] = b[3];
            d->has_ext = 1;
        } else {
            if (b[0] < d->ext[0]) d->ext[0] = b[0];
            if (b[2] < d->ext[1]) d->ext[1] = b[2];
            if (b[1] > d->ext[2]) d->ext[2] = b[1];
            if (b[3] > d->ext[3]) d->ext[3] = b[3];
        }
    }
    if (row->has_box && !d->no_boxes) {
        k = xgo__gpkg_boxes_push(&d->boxes, fid, row->bb);
        /* no memory for them, or past 2^32: the loader reads them back */
        if (k != XG_OK) {
            xgo__gpkg_boxes_free(&d->boxes);
            d->no_boxes = 1;
        }
    }
    return XG_OK;
}

/* gpkg_direct.h */
int xgo__gpkg_direct_end(struct xgo_gpkg_direct *d, int rc, char *err,
                         size_t errlen)
{
    if (!d)
        return rc;
    /* the pages, the root and the header; then our transaction (which
     * wrote nothing through SQLite) ends: the next one reads the new
     * header, and with it the pages */
    rc = xgo__pages_end(d->pages, rc, err, errlen);
    d->pages = NULL;
    if (rc == XG_OK) {
        if (exec(d->db, sqlite3_mprintf("COMMIT")))
            rc = sql_fail(d, "commit failed", err, errlen);
        else
            d->in_tx = 0;
    }
    /* AUTOINCREMENT's sequence, as SQLite's inserts leave it */
    if (rc == XG_OK && d->autoinc && d->n > 0 &&
        (exec(d->db, sqlite3_mprintf("BEGIN IMMEDIATE")) ||
         exec(d->db, sqlite3_mprintf("UPDATE sqlite_sequence SET seq = "
                                     "%lld WHERE name = %Q",
                                     (long long)(d->fid0 + d->n),
                                     d->table)) ||
         (!sqlite3_changes(d->db) &&
          exec(d->db, sqlite3_mprintf("INSERT INTO sqlite_sequence(name, "
                                      "seq) VALUES (%Q, %lld)", d->table,
                                      (long long)(d->fid0 + d->n)))) ||
         exec(d->db, sqlite3_mprintf("COMMIT"))))
        rc = sql_fail(d, "cannot set its AUTOINCREMENT sequence", err,
                      errlen);
    if (rc == XG_OK) {
        xgo__rtree_direct_done(d->dst, d->table, d->n, d->has_ext, d->ext,
                               &d->boxes);
    }
    direct_free(d);
    return rc;
}

/* gpkg_direct.h */
int xgo__gpkg_direct_fixup(const char *path, const char *table, int64_t n,
                           int has_ext, const double ext[4], char *err,
                           size_t errlen)
{
    sqlite3 *db = NULL;
    int ok;
    ok = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) ==
             SQLITE_OK &&
         !exec(db, sqlite3_mprintf("BEGIN IMMEDIATE"));
    /* GDAL's SaveExtent's statement, its format: the same text, the
     * same doubles parsed back */
    if (ok && has_ext)
        ok = !exec(db, sqlite3_mprintf("UPDATE gpkg_contents SET "
                                       "min_x = %.18g, min_y = %.18g, "
                                       "max_x = %.18g, max_y = %.18g "
                                       "WHERE lower(table_name) = lower('%q')"
                                       " AND Lower(data_type) = 'features'",
                                       ext[0], ext[1], ext[2], ext[3], table));
    /* no row: GDAL's route leaves the count as GDAL made it (NULL), as
     * GDAL's close has just left it */
    if (ok && n > 0)
        ok = !exec(db, sqlite3_mprintf("UPDATE gpkg_ogr_contents SET "
                                       "feature_count = %lld WHERE "
                                       "lower(table_name) = lower('%q')",
                                       (long long)n, table));
    if (ok)
        ok = !exec(db, sqlite3_mprintf("COMMIT"));
    if (!ok) {
        int rc = xgo__fail(err, errlen, XG_EIO, "%s, layer '%s': cannot set "
                           "its extent and count: %s", path, table,
                           db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return rc;
    }
    sqlite3_close(db);
    return XG_OK;
}
