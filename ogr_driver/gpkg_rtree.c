/*
 * gpkg_rtree.c -- a GeoPackage layer's R-tree, bulk-loaded (gpkg_rtree.h).
 *
 * SQLite's rtree module keeps its tree in three shadow tables: <r>_node
 * (nodeno, data: the node), <r>_rowid (rowid: the feature id, nodeno:
 * its leaf) and <r>_parent (nodeno, parentnode).  A tree written straight
 * into them, packed in Hilbert order, is a valid rtree (rtreecheck()
 * passes) that SQLite, GDAL and QGIS then search and update as their
 * own.  The format, from SQLite 3.40's rtree.c:
 *  - a node is a blob of the size the module chose at CREATE (page size
 *    less 64, at most 4 + 51 cells), read back from the empty root;
 *  - header: the tree's depth (big-endian 16 bits, meaningful in the root
 *    only), then the number of cells (16 bits);
 *  - cell: the id (64 bits: a feature id in a leaf, a child's node number
 *    above), then minx, maxx, miny, maxy as float32, all big-endian;
 *  - a box of doubles is stored rounded outwards as rtreeValueDown/Up
 *    round it (value_down/value_up): any other rounding (nextafterf)
 *    makes rtreecheck() fail where the module would store another float;
 *  - every node but the root holds at least a third of the maximum.
 * The nodes are numbered top down (the root 1, each level after the one
 * above it, the leaves last), so that _node and _parent, like _rowid
 * (in fid order), are written in rowid order: as B-tree pages appended
 * to the file (sqlite_pages.c), after the schema is committed.
 * The boxes are those the direct writer kept as it wrote the rows
 * (gpkg_direct.c: the same doubles its blobs' envelopes hold), else read
 * back from the file's geometry blobs (the header's envelope, a point's
 * coordinates): layers written through OGR.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <cpl_conv.h>
#include <cpl_string.h>
#include "xgo_internal.h"
#include "gpkg_rtree.h"
#include "sqlite_pages.h"

/* One box of the tree: a feature's (a leaf cell) or a node's
 * (gpkg_rtree.h's struct xgo_gpkg_box). */
#define item xgo_gpkg_box

/* One load: the file, the layer's names, its boxes. */
struct load {
    sqlite3 *db;
    const char *path;
    char *table, *geom, *fid, *rt;  /* sqlite3_mprintf'd                */
    size_t n, cap;
    struct item *it;          /* the boxes, in fid order              */
    int64_t *id;              /* the fids, in fid order (ascending);
                                 NULL: id0, id0 + 1, ...             */
    int64_t id0;
    uint64_t *key;            /* Hilbert order: the key of the box's
                                 centre << 32 | its place in fid order
                                 (40 bytes a feature with it, id, and
                                 the sort's copy, not 56: memory.md)  */
    uint32_t *leaf;           /* the leaf node of each, in fid order  */
    int nodesz, maxc;         /* node blob bytes, cells per node      */
    GDALProgressFunc pf;
    void *pa;
    size_t done, total, told; /* progress units: 3 per feature        */
    long fail_after;          /* testing: fail after writing this many
                                 nodes (XG_TEST_RTREE_FAIL_AFTER); 0:
                                 never                                */
    long nodes;               /* nodes written                        */
    char *err;
    size_t errlen;
};

/* SQLite 3.40 rtree.c's rtreeValueDown and rtreeValueUp, bit for bit:
 * the float32 the module stores for a lower and an upper bound d.  The
 * constants are 1 -/+ 2^-23. */
#define RND_TOWARDS (1.0 - 1.0 / 8388608.0)
#define RND_AWAY (1.0 + 1.0 / 8388608.0)
static float value_down(double d)
{
    float f = (float)d;
    if (f > d)
        f = (float)(d * (d < 0 ? RND_AWAY : RND_TOWARDS));
    return f;
}
static float value_up(double d)
{
    float f = (float)d;
    if (f < d)
        f = (float)(d * (d < 0 ? RND_TOWARDS : RND_AWAY));
    return f;
}

/* Counts k more units of work done and tells L->pf every 1/64 of the
 * whole or so (every few hundredths of a second at 10^6 features).
 * XG_OK, or XG_ECANCEL when pf says stop. */
static int tick(struct load *L, size_t k)
{
    L->done += k;
    if (!L->pf || (L->done - L->told < L->total / 64 + 1 &&
                   L->done < L->total))
        return XG_OK;
    L->told = L->done;
    if (!L->pf(L->total ? (double)L->done / (double)L->total : 1.0, NULL,
               L->pa))
        return xgo__fail(L->err, L->errlen, XG_ECANCEL, "cancelled");
    return XG_OK;
}

/* XG_EIO naming L's file and layer and SQLite's message. */
static int sql_fail(struct load *L, const char *what)
{
    return xgo__fail(L->err, L->errlen, XG_EIO,
                     "%s, layer '%s': cannot build the spatial index (%s: "
                     "%s)", L->path, L->table ? L->table : "?", what,
                     sqlite3_errmsg(L->db));
}

/* Runs sql (sqlite3_mprintf'd, freed here; NULL: out of memory). */
static int exec(struct load *L, char *sql)
{
    int rc;
    if (!sql)
        return xgo__fail(L->err, L->errlen, XG_ENOMEM, "out of memory");
    rc = sqlite3_exec(L->db, sql, NULL, NULL, NULL);
    sqlite3_free(sql);
    return rc == SQLITE_OK ? XG_OK : sql_fail(L, "SQL");
}

/* Prepares sql (sqlite3_mprintf'd, freed here) into *st. */
static int prepare(struct load *L, char *sql, sqlite3_stmt **st)
{
    int rc;
    *st = NULL;
    if (!sql)
        return xgo__fail(L->err, L->errlen, XG_ENOMEM, "out of memory");
    rc = sqlite3_prepare_v2(L->db, sql, -1, st, NULL);
    sqlite3_free(sql);
    return rc == SQLITE_OK ? XG_OK : sql_fail(L, "SQL");
}

/* The layer's names as the file has them: its table and geometry column
 * (gpkg_geometry_columns of a 'features' row of gpkg_contents, matched
 * without case as GDAL matches layer names), its fid column (the one
 * INTEGER PRIMARY KEY, the rowid), and the rtree's.  XG_ENOTSUP when any
 * is missing or odd, or the rtree is there already. */
static int names(struct load *L, const char *layer)
{
    sqlite3_stmt *st;
    int rc, npk = 0, found;
    rc = prepare(L, sqlite3_mprintf(
                        "SELECT g.table_name, g.column_name FROM "
                        "gpkg_geometry_columns g JOIN gpkg_contents c ON "
                        "c.table_name = g.table_name WHERE lower(g.table_name)"
                        " = lower(%Q) AND c.data_type = 'features'", layer),
                 &st);
    if (rc)
        return XG_ENOTSUP;    /* not a GeoPackage of features */
    if (sqlite3_step(st) == SQLITE_ROW) {
        L->table = sqlite3_mprintf("%s", sqlite3_column_text(st, 0));
        L->geom = sqlite3_mprintf("%s", sqlite3_column_text(st, 1));
    }
    sqlite3_finalize(st);
    if (!L->table || !L->geom)
        return XG_ENOTSUP;
    L->rt = sqlite3_mprintf("rtree_%s_%s", L->table, L->geom);
    if ((rc = prepare(L, sqlite3_mprintf("PRAGMA table_info(\"%w\")",
                                         L->table), &st)) != XG_OK)
        return XG_ENOTSUP;
    while (sqlite3_step(st) == SQLITE_ROW)
        if (sqlite3_column_int(st, 5) > 0) {
            npk++;
            if (!sqlite3_stricmp((const char *)sqlite3_column_text(st, 2),
                                 "INTEGER"))
                L->fid = sqlite3_mprintf("%s", sqlite3_column_text(st, 1));
        }
    sqlite3_finalize(st);
    if (npk != 1 || !L->fid || !L->rt)
        return XG_ENOTSUP;
    if ((rc = prepare(L, sqlite3_mprintf("SELECT 1 FROM sqlite_master "
                                         "WHERE lower(name) = lower(%Q)",
                                         L->rt), &st)) != XG_OK)
        return rc;
    found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found ? XG_ENOTSUP : XG_OK;
}

/* The rtree's schema as GDAL 3.6's CreateSpatialIndex() writes it (the
 * same SQL text, so that the file reads as GDAL's): the extensions table
 * and row, the virtual table, the six triggers that keep it right under
 * later edits.  Then the node size the module chose, read back, and the
 * check that its _rowid table has no aux columns. */
static int schema(struct load *L)
{
    const char *t = L->table, *g = L->geom, *i = L->fid, *r = L->rt;
    char *ins;
    sqlite3_stmt *st;
    int rc, ncol = 0;
    rc = exec(L, sqlite3_mprintf(
                     "CREATE TABLE IF NOT EXISTS gpkg_extensions ("
                     "table_name TEXT,column_name TEXT,extension_name TEXT "
                     "NOT NULL,definition TEXT NOT NULL,scope TEXT NOT "
                     "NULL,CONSTRAINT ge_tce UNIQUE (table_name, "
                     "column_name, extension_name))"));
    if (rc == XG_OK)
        rc = exec(L, sqlite3_mprintf(
                         "INSERT INTO gpkg_extensions (table_name,"
                         "column_name,extension_name,definition,scope) "
                         "VALUES ('%q', '%q', 'gpkg_rtree_index', "
                         "'http://www.geopackage.org/spec120/#extension_"
                         "rtree', 'write-only')", t, g));
    if (rc == XG_OK)
        rc = exec(L, sqlite3_mprintf("CREATE VIRTUAL TABLE \"%w\" USING "
                                     "rtree(id, minx, maxx, miny, maxy)",
                                     r));
    if (rc != XG_OK)
        return rc;
    ins = sqlite3_mprintf("INSERT OR REPLACE INTO \"%w\" VALUES (NEW.\"%w\","
                          "ST_MinX(NEW.\"%w\"), ST_MaxX(NEW.\"%w\"),"
                          "ST_MinY(NEW.\"%w\"), ST_MaxY(NEW.\"%w\")); ",
                          r, i, g, g, g, g);
    if (!ins)
        return xgo__fail(L->err, L->errlen, XG_ENOMEM, "out of memory");
#define TRIGGER(...)                                                       \
    if (rc == XG_OK)                                                       \
    rc = exec(L, sqlite3_mprintf(__VA_ARGS__))
    TRIGGER("CREATE TRIGGER \"%w_insert\" AFTER INSERT ON \"%w\" WHEN "
            "(new.\"%w\" NOT NULL AND NOT ST_IsEmpty(NEW.\"%w\")) BEGIN %s"
            "END", r, t, g, g, ins);
    TRIGGER("CREATE TRIGGER \"%w_update1\" AFTER UPDATE OF \"%w\" ON \"%w\" "
            "WHEN OLD.\"%w\" = NEW.\"%w\" AND (NEW.\"%w\" NOTNULL AND NOT "
            "ST_IsEmpty(NEW.\"%w\")) BEGIN %sEND", r, g, t, i, i, g, g, ins);
    TRIGGER("CREATE TRIGGER \"%w_update2\" AFTER UPDATE OF \"%w\" ON \"%w\" "
            "WHEN OLD.\"%w\" = NEW.\"%w\" AND (NEW.\"%w\" ISNULL OR "
            "ST_IsEmpty(NEW.\"%w\")) BEGIN DELETE FROM \"%w\" WHERE id = "
            "OLD.\"%w\"; END", r, g, t, i, i, g, g, r, i);
    TRIGGER("CREATE TRIGGER \"%w_update3\" AFTER UPDATE ON \"%w\" WHEN "
            "OLD.\"%w\" != NEW.\"%w\" AND (NEW.\"%w\" NOTNULL AND NOT "
            "ST_IsEmpty(NEW.\"%w\")) BEGIN DELETE FROM \"%w\" WHERE id = "
            "OLD.\"%w\"; %sEND", r, t, i, i, g, g, r, i, ins);
    TRIGGER("CREATE TRIGGER \"%w_update4\" AFTER UPDATE ON \"%w\" WHEN "
            "OLD.\"%w\" != NEW.\"%w\" AND (NEW.\"%w\" ISNULL OR "
            "ST_IsEmpty(NEW.\"%w\")) BEGIN DELETE FROM \"%w\" WHERE id IN "
            "(OLD.\"%w\", NEW.\"%w\"); END", r, t, i, i, g, g, r, i, i);
    TRIGGER("CREATE TRIGGER \"%w_delete\" AFTER DELETE ON \"%w\" WHEN "
            "old.\"%w\" NOT NULL BEGIN DELETE FROM \"%w\" WHERE id = "
            "OLD.\"%w\"; END", r, t, g, r, i);
#undef TRIGGER
    sqlite3_free(ins);
    if (rc != XG_OK)
        return rc;
    if ((rc = prepare(L, sqlite3_mprintf("SELECT length(data) FROM "
                                         "\"%w_node\" WHERE nodeno = 1", r),
                      &st)) != XG_OK)
        return rc;
    if (sqlite3_step(st) == SQLITE_ROW)
        L->nodesz = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if ((rc = prepare(L, sqlite3_mprintf("PRAGMA table_info(\"%w_rowid\")",
                                         r), &st)) != XG_OK)
        return rc;
    while (sqlite3_step(st) == SQLITE_ROW)
        ncol++;
    sqlite3_finalize(st);
    L->maxc = (L->nodesz - 4) / 24;
    /* aux columns, or a node size the module does not choose (page
     * size - 64, at most 4 + 51 cells; the tail past the last cell
     * unused): another rtree than this loader writes */
    if (ncol != 2 || L->maxc < 3 || L->nodesz > 4 + 24 * 51)
        return XG_ENOTSUP;
    return XG_OK;
}

/* gpkg_rtree.h */
int xgo__gpkg_boxes_push(struct xgo_gpkg_boxes *b, int64_t fid,
                         const double bb[4])
{
    struct item *p;
    if (b->n >= UINT32_MAX)
        return XG_ENOTSUP;
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : b->hint > 65536 ? b->hint : 65536;
        struct item *it = realloc(b->it, cap * sizeof *it);
        if (!it)
            return XG_ENOMEM;
        b->it = it;
        if (b->id) {
            int64_t *id = realloc(b->id, cap * sizeof *id);
            if (!id)
                return XG_ENOMEM;
            b->id = id;
        }
        b->cap = cap;
    }
    if (b->n == 0 && !b->id)
        b->id0 = fid;
    else if (!b->id && fid != b->id0 + (int64_t)b->n) {
        /* a gap: the fids written out from here on */
        size_t i;
        b->id = malloc(b->cap * sizeof *b->id);
        if (!b->id)
            return XG_ENOMEM;
        for (i = 0; i < b->n; i++)
            b->id[i] = b->id0 + (int64_t)i;
    }
    p = &b->it[b->n];
    p->f[0] = value_down(bb[0]);
    p->f[1] = value_up(bb[1]);
    p->f[2] = value_down(bb[2]);
    p->f[3] = value_up(bb[3]);
    if (b->id)
        b->id[b->n] = fid;
    b->n++;
    return XG_OK;
}

void xgo__gpkg_boxes_free(struct xgo_gpkg_boxes *b)
{
    if (!b)
        return;
    free(b->it);
    free(b->id);
    b->it = NULL;
    b->id = NULL;
    b->n = b->cap = 0;
}

/* The fid of L's box i (fid order). */
static int64_t fid_at(const struct load *L, size_t i)
{
    return L->id ? L->id[i] : L->id0 + (int64_t)i;
}

/* Appends a box to L (fid order). */
static int push(struct load *L, int64_t fid, const double bb[4])
{
    struct xgo_gpkg_boxes b = {L->n, L->cap, L->it, L->id, L->id0, 0};
    int rc = xgo__gpkg_boxes_push(&b, fid, bb);
    L->n = b.n;
    L->cap = b.cap;
    L->it = b.it;
    L->id = b.id;
    L->id0 = b.id0;
    if (rc == XG_ENOMEM)
        return xgo__fail(L->err, L->errlen, XG_ENOMEM, "out of memory");
    return rc;
}

/* Reads the boxes of the layer's features, in fid order, NULL and empty
 * geometries left out.  XG_ENOTSUP at a blob xgo__gpkg_blob_box cannot read. */
static int read_boxes(struct load *L)
{
    sqlite3_stmt *st;
    int rc, s;
    int64_t nrow = 0;
    if ((rc = prepare(L, sqlite3_mprintf("SELECT count(*) FROM \"%w\"",
                                         L->table), &st)) != XG_OK)
        return rc;
    if (sqlite3_step(st) == SQLITE_ROW)
        nrow = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    L->total = 3 * (size_t)nrow + 1;
    if (nrow > 0) {  /* sized once: no doubling's slack (memory.md) */
        L->it = malloc((size_t)nrow * sizeof *L->it);
        L->id = malloc((size_t)nrow * sizeof *L->id);
        if (!L->it || !L->id)
            return xgo__fail(L->err, L->errlen, XG_ENOMEM, "out of memory");
        L->cap = (size_t)nrow;
    }
    if ((rc = prepare(L, sqlite3_mprintf("SELECT \"%w\", \"%w\" FROM \"%w\" "
                                         "ORDER BY \"%w\"", L->fid, L->geom,
                                         L->table, L->fid), &st)) != XG_OK)
        return rc;
    while (rc == XG_OK && (s = sqlite3_step(st)) == SQLITE_ROW) {
        double bb[4];
        int k = xgo__gpkg_blob_box(sqlite3_column_blob(st, 1),
                         (size_t)sqlite3_column_bytes(st, 1), bb);
        if (k < 0)
            rc = XG_ENOTSUP;
        else if (k == 0)
            rc = push(L, sqlite3_column_int64(st, 0), bb);
        if (rc == XG_OK)
            rc = tick(L, 1);
    }
    if (rc == XG_OK && s != SQLITE_DONE)
        rc = sql_fail(L, "reading the geometries");
    sqlite3_finalize(st);
    return rc;
}

/* Orders the boxes (L->key) along the Hilbert curve of their centres (on
 * a 2^16 grid over their extent), ties in fid order: a stable radix sort
 * of the keys' upper half, two passes of
 * 16 bits (at 10^6 boxes a few hundredths of a second, against half a
 * second for qsort; one thread is enough). */
static int sort_boxes(struct load *L)
{
    float x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    double sx, sy;
    size_t i, *cnt;
    uint64_t *tmp;
    int pass;
    for (i = 0; i < L->n; i++) {
        const float *f = L->it[i].f;
        if (i == 0 || f[0] < x0) x0 = f[0];
        if (i == 0 || f[1] > x1) x1 = f[1];
        if (i == 0 || f[2] < y0) y0 = f[2];
        if (i == 0 || f[3] > y1) y1 = f[3];
    }
    sx = x1 > x0 ? 65535.0 / ((double)x1 - x0) : 0;
    sy = y1 > y0 ? 65535.0 / ((double)y1 - y0) : 0;
    if (!(L->key = malloc((L->n ? L->n : 1) * sizeof *L->key)))
        return xgo__fail(L->err, L->errlen, XG_ENOMEM, "out of memory");
    for (i = 0; i < L->n; i++) {
        const float *f = L->it[i].f;
        double cx = 0.5 * ((double)f[0] + f[1]) - x0;
        double cy = 0.5 * ((double)f[2] + f[3]) - y0;
        uint32_t h = xg__hilbert16((uint32_t)(cx * sx), (uint32_t)(cy * sy));
        L->key[i] = (uint64_t)h << 32 | i;
    }
    if (L->n < 2)
        return XG_OK;
    tmp = malloc(L->n * sizeof *tmp);
    cnt = malloc(65537 * sizeof *cnt);
    if (!tmp || !cnt) {
        free(tmp);
        free(cnt);
        return xgo__fail(L->err, L->errlen, XG_ENOMEM, "out of memory");
    }
    for (pass = 0; pass < 2; pass++) {
        uint64_t *from = pass ? tmp : L->key, *to = pass ? L->key : tmp;
        int shift = 32 + 16 * pass;
        memset(cnt, 0, 65537 * sizeof *cnt);
        for (i = 0; i < L->n; i++)
            cnt[((from[i] >> shift) & 0xffff) + 1]++;
        for (i = 1; i <= 65536; i++)
            cnt[i] += cnt[i - 1];
        for (i = 0; i < L->n; i++)
            to[cnt[(from[i] >> shift) & 0xffff]++] = from[i];
    }
    free(tmp);
    free(cnt);
    return XG_OK;
}

/* Big-endian stores of a node's fields. */
static void put_u16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)(v >> 8);
    p[1] = (unsigned char)v;
}
static void put_i64(unsigned char *p, int64_t v)
{
    uint64_t u = (uint64_t)v;
    int k;
    for (k = 7; k >= 0; k--, u >>= 8)
        p[k] = (unsigned char)u;
}
static void put_f32(unsigned char *p, float f)
{
    uint32_t u;
    int k;
    memcpy(&u, &f, 4);
    for (k = 3; k >= 0; k--, u >>= 8)
        p[k] = (unsigned char)u;
}

/* The tree's shape: level l (0: the leaves, nl - 1: the root) has
 * lev[l] nodes, numbered from base[l] on, top down (the root 1), so
 * that _node and _parent are written in nodeno order; up[l] their
 * boxes.  A level's items (the features, or the nodes below) are shared
 * out evenly: node j gets m / k of them, the first m % k one more. */
struct shape {
    int nl;
    size_t lev[64];
    int64_t base[64];
    struct item *up[64];
};

/* Asks for the box (and leaf) of the feature PREFETCH places after
 * place at of the Hilbert order: the leaves read the boxes in that
 * order, a cache miss each unless asked for ahead (10^6 points' TIN, 2
 * cores: the close 0.51 s against 0.63, medians of 3). */
enum { PREFETCH = 16 };
static void prefetch_box(const struct load *L, size_t at)
{
    if (at + PREFETCH < L->n) {
        uint32_t f = (uint32_t)L->key[at + PREFETCH];
        __builtin_prefetch(&L->it[f]);
        if (L->leaf)
            __builtin_prefetch(&L->leaf[f], 1);
    }
}

/* The first of the m items of node j of k. */
static size_t first_of(size_t m, size_t k, size_t j)
{
    return j * (m / k) + (j < m % k ? j : m % k);
}

/* The shape of L's tree and every node's box, bottom up; each
 * feature's leaf into L->leaf (fid order). */
static int shape_of(struct load *L, struct shape *S)
{
    size_t m = L->n, j, c;
    int l;
    memset(S, 0, sizeof *S);
    do {
        size_t k = (m + (size_t)L->maxc - 1) / (size_t)L->maxc;
        S->lev[S->nl++] = k ? k : 1;
        m = S->lev[S->nl - 1];
    } while (m > 1);
    S->base[S->nl - 1] = 1;
    for (l = S->nl - 2; l >= 0; l--)
        S->base[l] = S->base[l + 1] + (int64_t)S->lev[l + 1];
    L->leaf = malloc((L->n ? L->n : 1) * sizeof *L->leaf);
    if (!L->leaf)
        return xgo__fail(L->err, L->errlen, XG_ENOMEM, "out of memory");
    for (l = 0, m = L->n; l < S->nl; m = S->lev[l++]) {
        size_t k = S->lev[l];
        if (!(S->up[l] = calloc(k, sizeof *S->up[l])))
            return xgo__fail(L->err, L->errlen, XG_ENOMEM, "out of memory");
        for (j = 0; j < k; j++) {
            size_t at = first_of(m, k, j), cnt = m / k + (j < m % k);
            struct item *u = &S->up[l][j];
            for (c = 0; c < cnt; c++) {
                /* a leaf's cells: the features in Hilbert order */
                uint32_t f = l == 0 ? (uint32_t)L->key[at + c] : 0;
                const struct item *p = l == 0 ? &L->it[f]
                                              : &S->up[l - 1][at + c];
                if (l == 0)
                    prefetch_box(L, at + c);
                if (c == 0)
                    *u = *p;
                if (p->f[0] < u->f[0]) u->f[0] = p->f[0];
                if (p->f[1] > u->f[1]) u->f[1] = p->f[1];
                if (p->f[2] < u->f[2]) u->f[2] = p->f[2];
                if (p->f[3] > u->f[3]) u->f[3] = p->f[3];
                if (l == 0)
                    L->leaf[f] = (uint32_t)(S->base[0] + (int64_t)j);
            }
        }
    }
    return XG_OK;
}

/* Appends the row (rowid, v) to the table the page writer P is on. */
static int put_row(struct load *L, struct xgo_pages *P, int64_t rowid,
                   const struct xgo_rec_val *v, unsigned char *rec)
{
    struct xgo_rec_val r[2];
    memset(&r[0], 0, sizeof r[0]);    /* the rowid's alias: NULL */
    r[1] = *v;
    return xgo__pages_row(P, rowid, rec,
                          xgo__rec_encode(r, 2, xgo__pages_format(P), rec),
                          L->err, L->errlen);
}

/* The nodes, top down (nodeno order), into _node. */
static int write_nodes(struct load *L, const struct shape *S,
                       struct xgo_pages *P)
{
    unsigned char blob[4 + 24 * 51], rec[4 + 24 * 51 + 16];
    size_t j, c, m;
    int l, rc = XG_OK;
    for (l = S->nl - 1; l >= 0 && rc == XG_OK; l--) {
        size_t k = S->lev[l];
        m = l ? S->lev[l - 1] : L->n;
        for (j = 0; j < k && rc == XG_OK; j++) {
            size_t at = first_of(m, k, j), cnt = m / k + (j < m % k);
            struct xgo_rec_val v = {SQLITE_BLOB, 0, 0, blob,
                                    (size_t)L->nodesz};
            memset(blob, 0, sizeof blob);
            put_u16(blob, l == S->nl - 1 ? (unsigned)(S->nl - 1) : 0);
            put_u16(blob + 2, (unsigned)cnt);
            for (c = 0; c < cnt; c++) {
                uint32_t f = l == 0 ? (uint32_t)L->key[at + c] : 0;
                const struct item *p = l == 0 ? &L->it[f]
                                              : &S->up[l - 1][at + c];
                unsigned char *q = blob + 4 + 24 * c;
                int d;
                if (l == 0)
                    prefetch_box(L, at + c);
                put_i64(q, l == 0 ? fid_at(L, f)
                                  : S->base[l - 1] + (int64_t)(at + c));
                for (d = 0; d < 4; d++)
                    put_f32(q + 8 + 4 * d, p->f[d]);
            }
            rc = put_row(L, P, S->base[l] + (int64_t)j, &v, rec);
            if (rc == XG_OK && ++L->nodes == L->fail_after)
                rc = xgo__fail(L->err, L->errlen, XG_EIO,
                               "%s, layer '%s': cannot build the spatial "
                               "index (failure injected after %ld nodes, "
                               "testing)", L->path, L->table, L->nodes);
            if (rc == XG_OK && l == 0)
                rc = tick(L, cnt);
        }
    }
    return rc;
}

/* Every node's parent (nodeno order) into _parent. */
static int write_parents(struct load *L, const struct shape *S,
                         struct xgo_pages *P)
{
    unsigned char rec[32];
    size_t j, c;
    int l, rc = XG_OK;
    for (l = S->nl - 2; l >= 0 && rc == XG_OK; l--) {
        size_t k = S->lev[l + 1], m = S->lev[l];
        for (j = 0; j < k && rc == XG_OK; j++) {
            size_t at = first_of(m, k, j), cnt = m / k + (j < m % k);
            struct xgo_rec_val v = {SQLITE_INTEGER,
                                    S->base[l + 1] + (int64_t)j, 0, NULL,
                                    0};
            for (c = 0; c < cnt && rc == XG_OK; c++)
                rc = put_row(L, P, S->base[l] + (int64_t)(at + c), &v, rec);
        }
    }
    return rc;
}

/* Every feature's leaf (fid order) into _rowid. */
static int write_rowids(struct load *L, struct xgo_pages *P)
{
    unsigned char rec[32];
    size_t i;
    int rc = XG_OK;
    for (i = 0; i < L->n && rc == XG_OK; i++) {
        struct xgo_rec_val v = {SQLITE_INTEGER, L->leaf[i], 0, NULL, 0};
        rc = put_row(L, P, fid_at(L, i), &v, rec);
        if (rc == XG_OK && (i & 1023) == 1023)
            rc = tick(L, 1024);
    }
    return rc == XG_OK ? tick(L, L->n & 1023) : rc;
}

/* The root page of table <rt><suffix>, 0 when there is none. */
static uint32_t root_of(struct load *L, const char *suffix)
{
    sqlite3_stmt *st;
    uint32_t root = 0;
    if (prepare(L, sqlite3_mprintf("SELECT rootpage FROM sqlite_master "
                                   "WHERE type = 'table' AND name = "
                                   "'%q%q'", L->rt, suffix), &st) != XG_OK)
        return 0;
    if (sqlite3_step(st) == SQLITE_ROW)
        root = (uint32_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return root;
}

/* The tree into the three shadow tables as pages (sqlite_pages.c), on
 * L's connection in an exclusive transaction: nodes, parents, rowids. */
static int write_tree(struct load *L)
{
    struct shape S;
    struct xgo_pages *P = NULL;
    uint32_t rn = root_of(L, "_node"), rp = root_of(L, "_parent"),
             rr = root_of(L, "_rowid");
    char why[256] = "";
    int rc = shape_of(L, &S), l;
    if (rc == XG_OK && (!rn || !rp || !rr))
        rc = sql_fail(L, "its shadow tables");
    if (rc == XG_OK)
        rc = xgo__pages_begin(L->db, L->path, &P, why, sizeof why);
    if (rc == XG_OK &&
        (rc = xgo__pages_table(P, rn, why, sizeof why)) == XG_OK &&
        (rc = write_nodes(L, &S, P)) == XG_OK &&
        (rc = xgo__pages_table_end(P, why, sizeof why)) == XG_OK &&
        (rc = xgo__pages_table(P, rp, why, sizeof why)) == XG_OK &&
        (rc = write_parents(L, &S, P)) == XG_OK &&
        (rc = xgo__pages_table_end(P, why, sizeof why)) == XG_OK &&
        (rc = xgo__pages_table(P, rr, why, sizeof why)) == XG_OK)
        rc = write_rowids(L, P);
    rc = xgo__pages_end(P, rc, why, sizeof why);
    for (l = 0; l < S.nl; l++)
        free(S.up[l]);
    if (rc != XG_OK && *why)  /* the page writer's: file and layer named */
        rc = xgo__fail(L->err, L->errlen, rc == XG_ENOTSUP ? XG_EIO : rc,
                       "%s, layer '%s': cannot build the spatial index (%s)",
                       L->path, L->table, why);
    return rc;
}

/* The load after the file is open and in a transaction: names, schema,
 * boxes (read back unless have_boxes: given by the writer), sort, and
 * the rtree's root node (the module's, empty) taken out; the caller
 * commits, then writes the tree (write_tree). */
static int load(struct load *L, const char *layer, int have_boxes)
{
    int rc;
    if ((rc = names(L, layer)) != XG_OK || (rc = schema(L)) != XG_OK ||
        (!have_boxes && (rc = read_boxes(L)) != XG_OK) ||
        (rc = sort_boxes(L)) != XG_OK)
        return rc;
    return exec(L, sqlite3_mprintf("DELETE FROM \"%w_node\"", L->rt));
}

/* gpkg_rtree.h */
int xgo__gpkg_rtree_build(const char *path, const char *table,
                          struct xgo_gpkg_boxes *boxes, GDALProgressFunc pf,
                          void *pa, char *err, size_t errlen)
{
    struct load L;
    int rc;
    /* testing only (docs/testing.md): XG_RTREE_BULK=NO declines every
     * layer, so that GDAL's CreateSpatialIndex builds it (the fallback no
     * real output reaches); XG_TEST_RTREE_FAIL_AFTER=N fails the load
     * after N nodes written */
    if (!CPLTestBool(CPLGetConfigOption("XG_RTREE_BULK", "YES")))
        return XG_ENOTSUP;
    memset(&L, 0, sizeof L);
    L.fail_after = atol(CPLGetConfigOption("XG_TEST_RTREE_FAIL_AFTER", "0"));
    if (boxes) {              /* taken: freed with L's */
        L.it = boxes->it;
        L.id = boxes->id;
        L.id0 = boxes->id0;
        L.n = L.cap = boxes->n;
        L.total = 2 * boxes->n + 1;
        boxes->it = NULL;
        boxes->id = NULL;
        boxes->n = boxes->cap = 0;
    }
    L.path = path;
    L.pf = pf;
    L.pa = pa;
    L.err = err;
    L.errlen = errlen;
    /* never created here: a file SQLite cannot open is GDAL's to index */
    if (sqlite3_open_v2(path, &L.db, SQLITE_OPEN_READWRITE, NULL) !=
        SQLITE_OK) {
        sqlite3_close(L.db);
        return XG_ENOTSUP;
    }
    sqlite3_busy_timeout(L.db, 5000);
    /* first the schema, in SQLite's transaction; then, the file's
     * exclusive lock held, the tree as pages past its end.  A file the
     * page writer does not write (WAL, auto-vacuum) is GDAL's to index,
     * nothing changed; a failure after the first commit fails the run,
     * whose staged file is discarded */
    rc = exec(&L, sqlite3_mprintf("BEGIN IMMEDIATE"));
    if (rc == XG_OK) {
        struct xgo_pages *probe = NULL;
        rc = xgo__pages_begin(L.db, path, &probe, err, errlen);
        xgo__pages_end(probe, XG_ENOTSUP, NULL, 0);
        if (rc == XG_OK)
            rc = load(&L, table, boxes != NULL);
        if (rc == XG_OK)
            rc = exec(&L, sqlite3_mprintf("COMMIT"));
        if (rc != XG_OK)  /* the file as GDAL closed it */
            sqlite3_exec(L.db, "ROLLBACK", NULL, NULL, NULL);
    }
    if (rc == XG_OK && (rc = exec(&L, sqlite3_mprintf("BEGIN EXCLUSIVE"))) ==
                           XG_OK) {
        rc = write_tree(&L);
        if (sqlite3_exec(L.db, rc == XG_OK ? "COMMIT" : "ROLLBACK", NULL,
                         NULL, NULL) != SQLITE_OK && rc == XG_OK)
            rc = sql_fail(&L, "commit");
    }
    if (rc == XG_OK && L.pf && !L.pf(1.0, NULL, L.pa))
        rc = xgo__fail(err, errlen, XG_ECANCEL, "cancelled");
    if (sqlite3_close(L.db) != SQLITE_OK && rc == XG_OK)
        rc = xgo__fail(err, errlen, XG_EIO, "%s, layer '%s': closing the "
                       "file after indexing it failed", path, table);
    sqlite3_free(L.table);
    sqlite3_free(L.geom);
    sqlite3_free(L.fid);
    sqlite3_free(L.rt);
    free(L.it);
    free(L.id);
    free(L.key);
    free(L.leaf);
    return rc;
}
