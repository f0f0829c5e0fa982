/*
 * sqlite_pages.c -- rows of SQLite rowid tables written as B-tree pages
 * (sqlite_pages.h).
 *
 * The pages are numbered in the order they are made and written in that
 * order: a leaf is made when the next row no longer fits in it (the
 * last one is kept until the table ends: it may be the root), a row's
 * overflow pages when the row comes, the levels above the leaves when
 * the table ends.  So the file grows by one sequential append, buffered
 * in XGO_PAGES_BUF bytes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xgo_internal.h"
#include "sqlite_pages.h"

enum { XGO_PAGES_BUF = 1 << 20 };  /* bytes appended per write */

/* sqlite_pages.h */
unsigned xgo__pages_pending_byte = 0x40000000u;

/* A page of the level below, as its parent cell names it: its number
 * and the largest rowid under it. */
struct child {
    int64_t key;
    uint32_t pgno;
};

/* A table's root page and what goes into it at xgo__pages_end. */
struct root {
    uint32_t pgno;
    unsigned char *img;
};

struct xgo_pages {
    sqlite3_file *f;
    char *path;
    uint32_t pgsz, usable;    /* page size; less the reserved bytes    */
    uint32_t maxlocal, minlocal;  /* a table leaf's payload bounds     */
    int format;               /* schema format (header offset 44)      */
    uint32_t npage0;          /* pages before begin                    */
    uint32_t last;            /* the last page numbered                */
    uint32_t lockpg;          /* the lock-byte page: never used        */
    unsigned char *buf;       /* pages made, not yet written: from
                                 page buf_first on                     */
    size_t nbuf;
    uint32_t buf_first;
    /* the table being written */
    int in_table;
    uint32_t root;
    int64_t last_rowid;
    int any_row;
    unsigned char *leaf;      /* the leaf being filled                 */
    unsigned char *scratch;   /* an overflow page, a level's page      */
    unsigned cells, content;  /* its cells; where its content starts   */
    struct child *kids;       /* the pages of the level being built    */
    size_t nkids, capkids;
    struct root *roots;       /* the tables ended                      */
    size_t nroots;
};

/* Big-endian stores and loads. */
static void put_u16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)(v >> 8);
    p[1] = (unsigned char)v;
}
static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}
static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
           (uint32_t)p[2] << 8 | p[3];
}

/* SQLite's varint: 7 bits a byte, high byte first, the ninth byte 8
 * bits.  Its length, and the bytes into out when out is not NULL. */
static int varint(unsigned char *out, uint64_t v)
{
    unsigned char tmp[10];
    int n = 0, k;
    if (v > 0x00ffffffffffffffULL) {      /* nine bytes */
        if (out) {
            out[8] = (unsigned char)v;
            v >>= 8;
            for (k = 7; k >= 0; k--, v >>= 7)
                out[k] = (unsigned char)((v & 0x7f) | 0x80);
        }
        return 9;
    }
    do {
        tmp[n++] = (unsigned char)((v & 0x7f) | 0x80);
        v >>= 7;
    } while (v);
    tmp[0] &= 0x7f;
    if (out)
        for (k = 0; k < n; k++)
            out[k] = tmp[n - 1 - k];
    return n;
}

/* The serial type of an integer (SQLite's sqlite3VdbeSerialType). */
static unsigned int_serial(int64_t i, int format)
{
    uint64_t u = i < 0 ? ~(uint64_t)i : (uint64_t)i;
    if (u <= 127)
        return (i & 1) == i && format >= 4 ? 8 + (unsigned)i : 1;
    if (u <= 32767)
        return 2;
    if (u <= 8388607)
        return 3;
    if (u <= 2147483647)
        return 4;
    if (u <= 0x7fffffffffffULL)
        return 5;
    return 6;
}

/* The serial type of v and the bytes of its body. */
static uint64_t serial(const struct xgo_rec_val *v, int format,
                       size_t *body)
{
    static const size_t isz[10] = {0, 1, 2, 3, 4, 6, 8, 8, 0, 0};
    unsigned t;
    switch (v->type) {
    case SQLITE_INTEGER:
        t = int_serial(v->i, format);
        *body = isz[t];
        return t;
    case SQLITE_FLOAT:
        if (isnan(v->d))
            break;
        *body = 8;
        return 7;
    case SQLITE_TEXT:
        *body = v->n;
        return 13 + 2 * (uint64_t)v->n;
    case SQLITE_BLOB:
        *body = v->n;
        return 12 + 2 * (uint64_t)v->n;
    default:
        break;
    }
    *body = 0;
    return 0;
}

/* sqlite_pages.h */
size_t xgo__rec_encode(const struct xgo_rec_val *v, int ncol, int format,
                       unsigned char *out)
{
    size_t h = 0, b = 0, body, hs;
    int k, n1 = 1;
    unsigned char *hp, *bp;
    for (k = 0; k < ncol; k++) {
        h += (size_t)varint(NULL, serial(&v[k], format, &body));
        b += body;
    }
    while (varint(NULL, h + (size_t)n1) > n1)
        n1++;
    hs = h + (size_t)n1;
    if (!out)
        return hs + b;
    hp = out + varint(out, hs);
    bp = out + hs;
    for (k = 0; k < ncol; k++) {
        uint64_t t = serial(&v[k], format, &body);
        hp += varint(hp, t);
        if (v[k].type == SQLITE_INTEGER && body) {
            uint64_t u = (uint64_t)v[k].i;
            size_t j;
            for (j = body; j-- > 0; u >>= 8)
                bp[j] = (unsigned char)u;
        } else if (t == 7) {
            uint64_t u;
            int j;
            memcpy(&u, &v[k].d, 8);
            for (j = 7; j >= 0; j--, u >>= 8)
                bp[j] = (unsigned char)u;
        } else if (body) {
            memcpy(bp, v[k].p, body);
        }
        bp += body;
    }
    return hs + b;
}

/* XG_EIO naming p's file and what failed. */
static int io_fail(const struct xgo_pages *p, const char *what, char *err,
                   size_t errlen)
{
    return xgo__fail(err, errlen, XG_EIO, "%s: %s", p->path, what);
}

/* Writes the pages buffered, 64 KiB a call: the unix VFS's xWrite
 * writes at most 128 KiB - 1 bytes (its largest page is 64 KiB). */
static int flush(struct xgo_pages *p, char *err, size_t errlen)
{
    size_t at = 0;
    while (at < p->nbuf) {
        size_t n = p->nbuf - at < 65536 ? p->nbuf - at : 65536;
        if (p->f->pMethods->xWrite(p->f, p->buf + at, (int)n,
                                   (sqlite3_int64)(p->buf_first - 1) *
                                           p->pgsz +
                                       (sqlite3_int64)at) != SQLITE_OK)
            return io_fail(p, "cannot write its pages", err, errlen);
        at += n;
    }
    p->buf_first += (uint32_t)(p->nbuf / p->pgsz);
    p->nbuf = 0;
    return XG_OK;
}

/* The number the page after page pg gets: the lock-byte page skipped. */
static uint32_t after(const struct xgo_pages *p, uint32_t pg)
{
    return pg + 1 == p->lockpg ? pg + 2 : pg + 1;
}

/* Appends one page (img, pgsz bytes: NULL for zeros) as the next page:
 * its number into *pgno (may be NULL). */
static int emit(struct xgo_pages *p, const unsigned char *img,
                uint32_t *pgno, char *err, size_t errlen)
{
    int rc;
    if (p->last + 1 == p->lockpg) {   /* never used: zeros */
        if (p->nbuf + p->pgsz > XGO_PAGES_BUF &&
            (rc = flush(p, err, errlen)) != XG_OK)
            return rc;
        memset(p->buf + p->nbuf, 0, p->pgsz);
        p->nbuf += p->pgsz;
        p->last++;
    }
    if (p->last == UINT32_MAX - 1)
        return xgo__fail(err, errlen, XG_ENOTSUP, "%s: past SQLite's "
                         "largest page number", p->path);
    if (p->nbuf + p->pgsz > XGO_PAGES_BUF &&
        (rc = flush(p, err, errlen)) != XG_OK)
        return rc;
    if (img)
        memcpy(p->buf + p->nbuf, img, p->pgsz);
    else
        memset(p->buf + p->nbuf, 0, p->pgsz);
    p->nbuf += p->pgsz;
    p->last++;
    if (pgno)
        *pgno = p->last;
    return XG_OK;
}

/* Reads n bytes at offset off of the file. */
static int read_at(struct xgo_pages *p, void *buf, int n, sqlite3_int64 off)
{
    return p->f->pMethods->xRead(p->f, buf, n, off) == SQLITE_OK;
}

/* sqlite_pages.h */
int xgo__pages_begin(sqlite3 *db, const char *path, struct xgo_pages **out,
                     char *err, size_t errlen)
{
    struct xgo_pages *p;
    unsigned char h[100];
    sqlite3_int64 size = 0;
    uint32_t n;
    *out = NULL;
    if (!(p = calloc(1, sizeof *p)) ||
        !(p->path = malloc(strlen(path) + 1))) {
        free(p);
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    }
    memcpy(p->path, path, strlen(path) + 1);
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER,
                             &p->f) != SQLITE_OK || !p->f || !p->f->pMethods ||
        !read_at(p, h, 100, 0) ||
        p->f->pMethods->xFileSize(p->f, &size) != SQLITE_OK) {
        xgo__pages_end(p, XG_EIO, NULL, 0);
        return xgo__fail(err, errlen, XG_EIO, "%s: cannot read its header",
                         path);
    }
    p->pgsz = (uint32_t)h[16] << 8 | h[17];
    if (p->pgsz == 1)
        p->pgsz = 65536;
    p->usable = p->pgsz - h[20];
    p->format = (int)get_u32(h + 44);
    n = get_u32(h + 28);
    /* the header's count holds when the change counter is the one it
     * was written with (SQLite's rule); else the file's size */
    if (!n || memcmp(h + 24, h + 92, 4))
        n = (uint32_t)(size / p->pgsz);
    if (memcmp(h, "SQLite format 3", 16) || p->pgsz < 512 ||
        (p->pgsz & (p->pgsz - 1)) || p->usable < 480 || h[18] != 1 ||
        h[19] != 1 || get_u32(h + 52) != 0 || get_u32(h + 56) != 1 ||
        (sqlite3_int64)n * p->pgsz != size) {
        xgo__pages_end(p, XG_ENOTSUP, NULL, 0);
        return XG_ENOTSUP;     /* WAL, auto-vacuum, UTF-16, a torn file */
    }
    p->npage0 = p->last = p->buf_first = n;
    p->buf_first++;
    p->lockpg = (uint32_t)(xgo__pages_pending_byte / p->pgsz) + 1;
    p->maxlocal = p->usable - 35;
    p->minlocal = (p->usable - 12) * 32 / 255 - 23;
    p->buf = malloc(XGO_PAGES_BUF);
    p->leaf = malloc(p->pgsz);
    p->scratch = malloc(p->pgsz);
    if (!p->buf || !p->leaf || !p->scratch) {
        xgo__pages_end(p, XG_ENOMEM, NULL, 0);
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    }
    *out = p;
    return XG_OK;
}

/* sqlite_pages.h */
int xgo__pages_format(const struct xgo_pages *p)
{
    return p->format;
}

/* Empties the leaf being filled. */
static void leaf_clear(struct xgo_pages *p)
{
    memset(p->leaf, 0, p->pgsz);
    p->cells = 0;
    p->content = p->usable;
}

/* The page header of a leaf (interior 0: 0x0D) or an interior page
 * (0x05, right: its right-most child) of cells cells whose content
 * starts at content. */
static void page_header(unsigned char *pg, int interior, unsigned cells,
                        unsigned content, uint32_t right)
{
    pg[0] = interior ? 0x05 : 0x0D;
    put_u16(pg + 1, 0);
    put_u16(pg + 3, cells);
    put_u16(pg + 5, content == 65536 ? 0 : content);
    pg[7] = 0;
    if (interior)
        put_u32(pg + 8, right);
}

/* Appends the page in kids' list. */
static int push_kid(struct xgo_pages *p, uint32_t pgno, int64_t key,
                    char *err, size_t errlen)
{
    if (p->nkids == p->capkids) {
        size_t cap = p->capkids ? 2 * p->capkids : 1024;
        struct child *k = realloc(p->kids, cap * sizeof *k);
        if (!k)
            return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        p->kids = k;
        p->capkids = cap;
    }
    p->kids[p->nkids].pgno = pgno;
    p->kids[p->nkids].key = key;
    p->nkids++;
    return XG_OK;
}

/* Writes the leaf being filled as the next page (its last rowid: the
 * last row's) and starts an empty one. */
static int leaf_out(struct xgo_pages *p, char *err, size_t errlen)
{
    uint32_t pgno;
    int rc;
    page_header(p->leaf, 0, p->cells, p->content, 0);
    if ((rc = emit(p, p->leaf, &pgno, err, errlen)) != XG_OK ||
        (rc = push_kid(p, pgno, p->last_rowid, err, errlen)) != XG_OK)
        return rc;
    leaf_clear(p);
    return XG_OK;
}

/* sqlite_pages.h */
int xgo__pages_table(struct xgo_pages *p, uint32_t root, char *err,
                     size_t errlen)
{
    unsigned char h[8];
    if (p->in_table || root < 2 || root > p->npage0 ||
        !read_at(p, h, 8, (sqlite3_int64)(root - 1) * p->pgsz) ||
        h[0] != 0x0D || h[3] || h[4])
        return XG_ENOTSUP;    /* not an empty table leaf: not ours */
    p->in_table = 1;
    p->root = root;
    p->any_row = 0;
    p->nkids = 0;
    leaf_clear(p);
    (void)err;
    (void)errlen;
    return XG_OK;
}

/* sqlite_pages.h */
int xgo__pages_row(struct xgo_pages *p, int64_t rowid,
                   const unsigned char *rec, size_t n, char *err,
                   size_t errlen)
{
    unsigned char head[18], ovfl[4];
    size_t local = n, cs;
    int nh, rc;
    if (p->any_row && rowid <= p->last_rowid)
        return xgo__fail(err, errlen, XG_EIO, "%s: rowid %lld after %lld",
                         p->path, (long long)rowid,
                         (long long)p->last_rowid);
    if (n > 0x7fffff00u)
        return xgo__fail(err, errlen, XG_ENOTSUP, "%s: a row of %zu bytes",
                         p->path, n);
    if (n > p->maxlocal) {
        /* SQLite's split (btreeParseCellAdjustSizeForOverflow) */
        size_t m = p->minlocal;
        local = m + (n - m) % (p->usable - 4);
        if (local > p->maxlocal)
            local = m;
    }
    nh = varint(head, n);
    nh += varint(head + nh, (uint64_t)rowid);
    cs = (size_t)nh + local + (local < n ? 4 : 0);
    if (p->cells && 8 + 2 * (size_t)(p->cells + 1) + cs > p->content &&
        (rc = leaf_out(p, err, errlen)) != XG_OK)
        return rc;
    if (local < n) {
        /* the rest in a chain of pages, each its next's number then
         * usable - 4 bytes; written now, numbered after the leaf's */
        const unsigned char *q = rec + local;
        size_t left = n - local;
        unsigned char *pg = p->scratch;
        uint32_t me = after(p, p->last);
        put_u32(ovfl, me);
        while (left) {
            size_t take = left < p->usable - 4 ? left : p->usable - 4;
            uint32_t got;
            memset(pg, 0, p->pgsz);
            put_u32(pg, take < left ? after(p, me) : 0);
            memcpy(pg + 4, q, take);
            if ((rc = emit(p, pg, &got, err, errlen)) != XG_OK)
                return rc;
            q += take;
            left -= take;
            me = after(p, got);
        }
    }
    p->content -= (unsigned)cs;
    memcpy(p->leaf + p->content, head, (size_t)nh);
    memcpy(p->leaf + p->content + nh, rec, local);
    if (local < n)
        memcpy(p->leaf + p->content + nh + local, ovfl, 4);
    put_u16(p->leaf + 8 + 2 * p->cells, p->content);
    p->cells++;
    p->last_rowid = rowid;
    p->any_row = 1;
    return XG_OK;
}

/* One level above p->kids: its pages appended, p->kids replaced by
 * them; the level's only page into img instead when it has one. */
static int level_up(struct xgo_pages *p, unsigned char *img, char *err,
                    size_t errlen)
{
    /* a cell: child number, key varint (at most 9), pointer: 15 bytes */
    size_t cmax = (p->usable - 12) / 15 + 1, m = p->nkids, k, j, at = 0;
    struct child *below = p->kids;
    int rc = XG_OK;
    k = (m + cmax - 1) / cmax;
    p->kids = NULL;
    p->nkids = p->capkids = 0;
    for (j = 0; j < k && rc == XG_OK; j++) {
        size_t cnt = m / k + (j < m % k), c;
        unsigned content = p->usable;
        unsigned char *pg = k == 1 ? img : p->scratch;
        uint32_t pgno;
        memset(pg, 0, p->pgsz);
        for (c = 0; c + 1 < cnt; c++) {
            unsigned char cell[13];
            int len;
            put_u32(cell, below[at + c].pgno);
            len = 4 + varint(cell + 4, (uint64_t)below[at + c].key);
            content -= (unsigned)len;
            memcpy(pg + content, cell, (size_t)len);
            put_u16(pg + 12 + 2 * c, content);
        }
        page_header(pg, 1, (unsigned)(cnt - 1), content,
                    below[at + cnt - 1].pgno);
        if (k > 1 && (rc = emit(p, pg, &pgno, err, errlen)) == XG_OK)
            rc = push_kid(p, pgno, below[at + cnt - 1].key, err, errlen);
        at += cnt;
    }
    free(below);
    return rc;
}

/* sqlite_pages.h */
int xgo__pages_table_end(struct xgo_pages *p, char *err, size_t errlen)
{
    struct root *r;
    int rc = XG_OK;
    if (!p->in_table)
        return XG_OK;
    r = realloc(p->roots, (p->nroots + 1) * sizeof *r);
    if (!r)
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    p->roots = r;
    r = &p->roots[p->nroots];
    if (!(r->img = malloc(p->pgsz)))
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    r->pgno = p->root;
    p->nroots++;
    if (!p->nkids) {          /* one leaf: the root itself */
        page_header(p->leaf, 0, p->cells, p->content, 0);
        memcpy(r->img, p->leaf, p->pgsz);
    } else {
        rc = leaf_out(p, err, errlen);
        while (rc == XG_OK && p->nkids > 1)
            rc = level_up(p, r->img, err, errlen);
    }
    p->in_table = 0;
    p->nkids = 0;
    return rc;
}

/* sqlite_pages.h */
int xgo__pages_end(struct xgo_pages *p, int rc, char *err, size_t errlen)
{
    size_t k;
    if (!p)
        return rc;
    if (rc == XG_OK && p->in_table)
        rc = xgo__pages_table_end(p, err, errlen);
    if (rc == XG_OK)
        rc = flush(p, err, errlen);
    if (rc == XG_OK && p->last > p->npage0 &&
        p->f->pMethods->xSync(p->f, SQLITE_SYNC_NORMAL) != SQLITE_OK)
        rc = io_fail(p, "cannot sync its pages", err, errlen);
    if (rc == XG_OK) {
        /* the header: page count, change counter (so that every
         * connection drops the pages it cached), version-valid-for and
         * the SQLite that wrote it; then the roots */
        unsigned char h[100];
        if (!read_at(p, h, 100, 0)) {
            rc = io_fail(p, "cannot read its header", err, errlen);
        } else {
            put_u32(h + 24, get_u32(h + 24) + 1);
            put_u32(h + 28, p->last);
            memcpy(h + 92, h + 24, 4);
            put_u32(h + 96, (uint32_t)sqlite3_libversion_number());
            if (p->f->pMethods->xWrite(p->f, h, 100, 0) != SQLITE_OK)
                rc = io_fail(p, "cannot write its header", err, errlen);
        }
        for (k = 0; rc == XG_OK && k < p->nroots; k++)
            if (p->f->pMethods->xWrite(
                    p->f, p->roots[k].img, (int)p->pgsz,
                    (sqlite3_int64)(p->roots[k].pgno - 1) * p->pgsz) !=
                SQLITE_OK)
                rc = io_fail(p, "cannot write a table's root", err, errlen);
        if (rc == XG_OK &&
            p->f->pMethods->xSync(p->f, SQLITE_SYNC_NORMAL) != SQLITE_OK)
            rc = io_fail(p, "cannot sync it", err, errlen);
    } else if (p->f && p->f->pMethods && p->last > p->npage0) {
        /* appended past the end SQLite reads: cut back, as it was */
        p->f->pMethods->xTruncate(p->f, (sqlite3_int64)p->npage0 * p->pgsz);
    }
    for (k = 0; k < p->nroots; k++)
        free(p->roots[k].img);
    free(p->roots);
    free(p->kids);
    free(p->leaf);
    free(p->scratch);
    free(p->buf);
    free(p->path);
    free(p);
    return rc;
}
