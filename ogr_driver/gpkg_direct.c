/*
 * gpkg_direct.c -- the direct GeoPackage writer (gpkg_direct.h).
 *
 * GDAL creates the table (its schema, gpkg_contents and
 * gpkg_geometry_columns rows); its transaction is committed and its
 * connection left idle; a second connection (ours) inserts the rows in
 * one transaction through one prepared statement.  A row is what
 * OGR_L_CreateFeature would have stored, byte for byte: the geometry
 * blob is GDAL 3.6's (GPkgGeometryFromOGR: 'GP', version 0, flags
 * little-endian, srs_id, an envelope of doubles minx, maxx, miny, maxy
 * (and minz, maxz for a geometry with Z) except for points and empty
 * geometries, then ISO WKB little-endian), the FIDs are SQLite's rowids
 * in insert order, as GDAL's (it binds no fid either).  What GDAL's
 * close writes from its own bookkeeping (it saw no row: the count 0, no
 * extent) is set right after it (xgo__gpkg_direct_fixup), with the same
 * SQL text GDAL uses, so the stored doubles are the ones GDAL's route
 * stores.  tests/gpkg_direct_t.sh compares the two routes blob for blob.
 *
 * Safety: our transaction is the file's rollback journal's as usual
 * (default pragmas; in one transaction of appended pages the journal
 * and its syncs cost little); a failure rolls it back and the writer
 * drops the layer GDAL made, as on OGR's route; the tool's staging
 * discards the file anyway.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <cpl_conv.h>
#include <cpl_string.h>
#include "xgo_internal.h"
#include "gpkg_direct.h"
#include "gpkg_rtree.h"

struct xgo_gpkg_direct {
    sqlite3 *db;
    sqlite3_stmt *ins;
    char *path, *table;       /* CPLStrdup'd                          */
    GDALDatasetH dst;
    int srs_id;
    int nf;                   /* the layer's fields                   */
    OGRFieldType ftype[XGO_DIRECT_MAXF];
    char **trig;              /* CSL: the feature-count triggers' SQL,
                                 dropped for the insert, made again   */
    int64_t n;
    int has_ext;
    double ext[4];            /* minx, miny, maxx, maxy               */
    struct xgo_gpkg_boxes boxes;
    int no_boxes;             /* not kept: the loader reads them back */
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

/* Frees d and what it holds, the connection rolled back and closed. */
static void direct_free(struct xgo_gpkg_direct *d)
{
    if (!d)
        return;
    sqlite3_finalize(d->ins);
    if (d->db) {
        if (d->in_tx)
            sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
        sqlite3_close(d->db);
    }
    CPLFree(d->path);
    CPLFree(d->table);
    CSLDestroy(d->trig);
    xgo__gpkg_boxes_free(&d->boxes);
    free(d);
}

/* The field types of lyr into d: 1 when every one is one this writer
 * binds (integers, reals, strings), else 0. */
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

/* On our connection, in its transaction: the table's srs_id, its
 * triggers (only GDAL's feature-count ones allowed: dropped, their SQL
 * kept), the INSERT statement over the geometry column and the fields.
 * 1 when all is as expected, 0: OGR's route. */
static int prepare(struct xgo_gpkg_direct *d, OGRLayerH lyr)
{
    OGRFeatureDefnH fd = OGR_L_GetLayerDefn(lyr);
    sqlite3_stmt *st;
    char *sql, *cols, *vals;
    const char *g = OGR_L_GetGeometryColumn(lyr);
    int k, ok = 0, other = 0;

    sql = sqlite3_mprintf("SELECT srs_id FROM gpkg_geometry_columns WHERE "
                          "table_name = %Q AND column_name = %Q", d->table, g);
    if (sql && sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) {
            d->srs_id = sqlite3_column_int(st, 0);
            ok = 1;
        }
        sqlite3_finalize(st);
    }
    sqlite3_free(sql);
    if (!ok)
        return 0;
    sql = sqlite3_mprintf("SELECT name, sql FROM sqlite_master WHERE type = "
                          "'trigger' AND tbl_name = %Q", d->table);
    if (!sql || sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK) {
        sqlite3_free(sql);
        return 0;
    }
    sqlite3_free(sql);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        const char *text = (const char *)sqlite3_column_text(st, 1);
        if (name && text &&
            (STARTS_WITH(name, "trigger_insert_feature_count_") ||
             STARTS_WITH(name, "trigger_delete_feature_count_"))) {
            d->trig = CSLAddString(d->trig, name);
            d->trig = CSLAddString(d->trig, text);
        } else {
            other = 1;        /* an index's, the user's: GDAL's route */
        }
    }
    sqlite3_finalize(st);
    if (other)
        return 0;
    for (k = 0; d->trig && d->trig[k]; k += 2)
        if (exec(d->db, sqlite3_mprintf("DROP TRIGGER \"%w\"", d->trig[k])))
            return 0;
    cols = sqlite3_mprintf("\"%w\"", g);
    vals = sqlite3_mprintf("?");
    for (k = 0; k < d->nf && cols && vals; k++) {
        char *c = sqlite3_mprintf("%s, \"%w\"", cols, OGR_Fld_GetNameRef(
                                                    OGR_FD_GetFieldDefn(fd, k)));
        char *v = sqlite3_mprintf("%s, ?", vals);
        sqlite3_free(cols);
        sqlite3_free(vals);
        cols = c;
        vals = v;
    }
    sql = cols && vals ? sqlite3_mprintf("INSERT INTO \"%w\" (%s) VALUES "
                                         "(%s)", d->table, cols, vals)
                       : NULL;
    sqlite3_free(cols);
    sqlite3_free(vals);
    ok = sql && sqlite3_prepare_v2(d->db, sql, -1, &d->ins, NULL) ==
                    SQLITE_OK;
    sqlite3_free(sql);
    return ok;
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
    *out = NULL;
    if (!lyr ||
        !CPLTestBool(CPLGetConfigOption("XG_GPKG_DIRECT", "YES")) ||
        !xgo__rtree_remembered(dst, OGR_L_GetName(lyr)))
        return XG_OK;
    if (!(d = calloc(1, sizeof *d)))
        return XG_OK;         /* no memory for speed: OGR's route */
    d->dst = dst;
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
        exec(d->db, sqlite3_mprintf("PRAGMA cache_size = -8192")) ||
        exec(d->db, sqlite3_mprintf("BEGIN IMMEDIATE")) != SQLITE_OK) {
        /* GDAL's connection holds a lock (another GDAL than the one
         * tried): its route, on a committed table */
        CPLDebug("EXACTGEO", "%s: no second connection (%s): OGR's route",
                 d->path, d->db ? sqlite3_errmsg(d->db) : "?");
        return fallback(d, dst, tx);
    }
    d->in_tx = 1;
    if (!prepare(d, lyr)) {
        CPLDebug("EXACTGEO", "%s, layer '%s': not a table the direct "
                 "writer knows: OGR's route", d->path, d->table);
        return fallback(d, dst, tx);  /* rolled back: triggers back */
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
    sqlite3_stmt *st = d->ins;
    int k, s;
    if (!row->ok)
        return xgo__fail(err, errlen, XG_ENOMEM, "%s, layer '%s': record "
                         "%zu: out of memory", d->path, d->table, i + 1);
    if (row->nblob)
        sqlite3_bind_blob(st, 1, row->mem, (int)row->nblob, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, 1);
    for (k = 0; k < d->nf; k++) {
        const struct xgo_gpkg_val *v = &row->v[k];
        if (v->type == SQLITE_INTEGER)
            sqlite3_bind_int64(st, k + 2, v->i);
        else if (v->type == SQLITE_FLOAT)
            sqlite3_bind_double(st, k + 2, v->d);
        else if (v->type == SQLITE_TEXT)
            sqlite3_bind_text(st, k + 2, (const char *)row->mem + v->off,
                              (int)v->len, SQLITE_STATIC);
        else
            sqlite3_bind_null(st, k + 2);
    }
    s = sqlite3_step(st);
    sqlite3_reset(st);
    if (s != SQLITE_DONE) {
        char what[64];
        snprintf(what, sizeof what, "cannot write record %zu", i + 1);
        return sql_fail(d, what, err, errlen);
    }
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
        k = xgo__gpkg_boxes_push(&d->boxes, sqlite3_last_insert_rowid(d->db),
                                 row->bb);
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
    int k;
    if (!d)
        return rc;
    for (k = 0; rc == XG_OK && d->trig && d->trig[k]; k += 2)
        if (exec(d->db, sqlite3_mprintf("%s", d->trig[k + 1])))
            rc = sql_fail(d, "cannot restore its triggers", err, errlen);
    sqlite3_finalize(d->ins);
    d->ins = NULL;
    if (rc == XG_OK) {
        if (exec(d->db, sqlite3_mprintf("COMMIT")))
            rc = sql_fail(d, "commit failed", err, errlen);
        else
            d->in_tx = 0;
    }
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
