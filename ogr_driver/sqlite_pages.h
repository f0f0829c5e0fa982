/*
 * sqlite_pages.h -- rows of SQLite rowid tables written as B-tree pages
 * (issue 33 part 3).
 *
 * One SQLite writer inserts about 0.5-0.6 million GeoPackage rows a
 * second (2-core VM and H200 host alike): the VDBE, the record made
 * again from bound values, the B-tree's balance on every page.  A table
 * this run made and that is still empty can instead take its rows as
 * pages: leaves filled in rowid order and appended to the file, the
 * levels above them built once at the end, the top one written into
 * the table's (empty) root page, then the header's page count.  The
 * result is an ordinary SQLite B-tree, as SQLite's own appends build
 * one (PRAGMA integrity_check passes: tests/sqlite_pages_t.c and
 * tests/gpkg_direct_t.sh), at the speed of a memcpy and the disk.
 *
 * The file format, from https://www.sqlite.org/fileformat2.html:
 * table leaf pages (0x0D) and interior pages (0x05), cells packed from
 * the end of the usable space with no freeblock and no fragment, a
 * payload too large for a leaf spilled to overflow pages as SQLite
 * spills it, the lock-byte page (the one holding byte 2^30) skipped.
 *
 * What the caller guarantees: a connection db holding the file's
 * EXCLUSIVE lock (BEGIN EXCLUSIVE, nothing written in that transaction)
 * that stays open until xgo__pages_end; the tables' roots empty leaves
 * (checked); the file in rollback-journal mode, without auto-vacuum
 * (checked: else XG_ENOTSUP, nothing written).  Pages go through db's
 * own file handle (its VFS), so no second descriptor can drop its
 * locks.  Crash safety: the pages are appended past the file's end as
 * SQLite reads it, synced, then the header's page count and the roots
 * written: an interrupted write leaves the tables empty, never a tree
 * pointing at pages that are not there.  The tool writes into its
 * staging folder anyway (cli/staging.c): a failed run discards the
 * file.
 */
#ifndef XGO_SQLITE_PAGES_H
#define XGO_SQLITE_PAGES_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

struct xgo_pages;

/* The byte whose page SQLite never uses (its PENDING_BYTE, 2^30).
 * Testing only: tests/sqlite_pages_t.c lowers it, with SQLite's
 * SQLITE_TESTCTRL_PENDING_BYTE, to cross that page in a small file. */
extern unsigned xgo__pages_pending_byte;

/* One column value of a record (SQLITE_NULL, _INTEGER, _FLOAT, _TEXT,
 * _BLOB): i for integers, d for floats, p and n for texts and blobs. */
struct xgo_rec_val {
    int type;
    int64_t i;
    double d;
    const void *p;
    size_t n;
};

/* The bytes of the record of ncol values v as SQLite stores it (header
 * of serial types, then the body; integers in their smallest serial
 * type, 0 and 1 as types 8 and 9 when format >= 4; a NaN float as NULL,
 * as sqlite3_bind_double stores it), written to out when out is not
 * NULL.  Returns the size. */
size_t xgo__rec_encode(const struct xgo_rec_val *v, int ncol, int format,
                       unsigned char *out);

/* Starts writing pages into main of db (see above).  *out gets the
 * writer; XG_OK, XG_ENOTSUP (a journal mode, auto-vacuum or encoding
 * this writer does not write: nothing changed), XG_ENOMEM or XG_EIO,
 * the message in err naming path. */
int xgo__pages_begin(sqlite3 *db, const char *path, struct xgo_pages **out,
                     char *err, size_t errlen);

/* The file's schema format number (header offset 44): xgo__rec_encode's
 * format. */
int xgo__pages_format(const struct xgo_pages *p);

/* Starts the rows of the rowid table whose root page is root; it must
 * be an empty leaf (else XG_ENOTSUP).  One table at a time. */
int xgo__pages_table(struct xgo_pages *p, uint32_t root, char *err,
                     size_t errlen);

/* Appends one row: rowid above the table's last, rec its record (n
 * bytes, xgo__rec_encode).  XG_OK, or XG_EIO / XG_ENOMEM. */
int xgo__pages_row(struct xgo_pages *p, int64_t rowid,
                   const unsigned char *rec, size_t n, char *err,
                   size_t errlen);

/* Ends the table: the levels above its leaves appended, its top kept
 * for its root page (written by xgo__pages_end). */
int xgo__pages_table_end(struct xgo_pages *p, char *err, size_t errlen);

/* Ends p (NULL-safe).  rc XG_OK: the pages synced, then the header
 * (page count, change counter) and the roots written and synced.
 * Otherwise the file is cut back to its size before
 * xgo__pages_begin, as it was.  Returns rc, or XG_EIO. */
int xgo__pages_end(struct xgo_pages *p, int rc, char *err, size_t errlen);

#endif
