/*
 * sqlite_floor.c -- the floor of a GeoPackage write: "one SQLite
 * writer".  Copies every row of table T of SRC (a GeoPackage the tool
 * wrote, its geometry blobs and columns as they are) into DST, a copy
 * of SRC emptied here, through one prepared INSERT in one transaction,
 * and prints the seconds of that insert alone (the rows are read into
 * memory first, untimed).  What the tool's write stage costs above this
 * is GDAL's and ours.  Not part of the product, nor of the build (it
 * needs only SQLite): compile it by hand as below.
 *
 *   cc -O2 -o sqlite_floor bench/sqlite_floor.c -lsqlite3
 *   ./sqlite_floor SRC DST TABLE
 *
 * DST must be a byte copy of SRC (cp SRC DST); its table is emptied and
 * vacuumed before the timed insert.  Prints "rows N insert_s S".
 *
 * The insert is the direct writer's (ogr_driver/gpkg_direct.c): the
 * same statement (every column but the fid, which SQLite assigns), the
 * same pragma (cache_size), GDAL's feature-count triggers dropped first
 * (kept, they ran an UPDATE of gpkg_ogr_contents per row: the floor's
 * first version kept them, and bound copies of the values, and so
 * measured more than the writer has to pay), the blobs and texts bound
 * in place (SQLITE_STATIC).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Seconds on the monotonic clock. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Prints db's message after what, and exits 1. */
static void die(sqlite3 *db, const char *what)
{
    fprintf(stderr, "sqlite_floor: %s: %s\n", what,
            db ? sqlite3_errmsg(db) : "out of memory");
    exit(1);
}

/* Every row of table t of db as ncol values each, row-major; *nrow,
 * *ncol get the counts; the caller frees each value (sqlite3_value_free)
 * and the array. */
static sqlite3_value **read_rows(sqlite3 *db, const char *t, size_t *nrow,
                                 int *ncol)
{
    char *sql = sqlite3_mprintf("SELECT * FROM \"%w\"", t);
    sqlite3_stmt *st;
    sqlite3_value **v = NULL;
    size_t n = 0, cap = 0;
    int k;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        die(db, "select");
    sqlite3_free(sql);
    *ncol = sqlite3_column_count(st);
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            v = realloc(v, cap * (size_t)*ncol * sizeof *v);
            if (!v)
                die(NULL, "rows");
        }
        for (k = 0; k < *ncol; k++)
            v[n * (size_t)*ncol + (size_t)k] =
                sqlite3_value_dup(sqlite3_column_value(st, k));
        n++;
    }
    sqlite3_finalize(st);
    *nrow = n;
    return v;
}

int main(int argc, char **argv)
{
    sqlite3 *src, *dst;
    sqlite3_stmt *ins;
    sqlite3_value **v;
    size_t n, i;
    int ncol, k;
    char *sql;
    double t0, t1;

    if (argc != 4) {
        fprintf(stderr, "usage: sqlite_floor SRC DST TABLE\n");
        return 2;
    }
    if (sqlite3_open_v2(argv[1], &src, SQLITE_OPEN_READONLY, NULL))
        die(src, argv[1]);
    v = read_rows(src, argv[3], &n, &ncol);
    sqlite3_close(src);
    if (sqlite3_open(argv[2], &dst))
        die(dst, argv[2]);
    sql = sqlite3_mprintf("DROP TRIGGER IF EXISTS "
                          "\"trigger_insert_feature_count_%w\"; "
                          "DROP TRIGGER IF EXISTS "
                          "\"trigger_delete_feature_count_%w\"; "
                          "DELETE FROM \"%w\"; VACUUM;", argv[3], argv[3],
                          argv[3]);
    if (sqlite3_exec(dst, sql, NULL, NULL, NULL) != SQLITE_OK)
        die(dst, "empty the table");
    sqlite3_free(sql);
    /* the columns after the fid (the first), one "?" each */
    sql = sqlite3_mprintf("SELECT * FROM \"%w\"", argv[3]);
    if (sqlite3_prepare_v2(dst, sql, -1, &ins, NULL) != SQLITE_OK)
        die(dst, "columns");
    sqlite3_free(sql);
    {
        char *cols = sqlite3_mprintf("\"%w\"", sqlite3_column_name(ins, 1));
        char *q = sqlite3_mprintf("?");
        for (k = 2; k < ncol; k++) {
            cols = sqlite3_mprintf("%z, \"%w\"", cols,
                                   sqlite3_column_name(ins, k));
            q = sqlite3_mprintf("%z, ?", q);
        }
        sqlite3_finalize(ins);
        sql = sqlite3_mprintf("INSERT INTO \"%w\" (%s) VALUES (%s)",
                              argv[3], cols, q);
        sqlite3_free(cols);
        sqlite3_free(q);
    }
    if (sqlite3_prepare_v2(dst, sql, -1, &ins, NULL) != SQLITE_OK)
        die(dst, "insert");
    sqlite3_free(sql);
    sqlite3_exec(dst, "PRAGMA cache_size = -65536", NULL, NULL, NULL);
    t0 = now();
    sqlite3_exec(dst, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    for (i = 0; i < n; i++) {
        for (k = 1; k < ncol; k++) {
            sqlite3_value *x = v[i * (size_t)ncol + (size_t)k];
            switch (sqlite3_value_type(x)) {
            case SQLITE_BLOB:
                sqlite3_bind_blob(ins, k, sqlite3_value_blob(x),
                                  sqlite3_value_bytes(x), SQLITE_STATIC);
                break;
            case SQLITE_TEXT:
                sqlite3_bind_text(ins, k,
                                  (const char *)sqlite3_value_text(x),
                                  sqlite3_value_bytes(x), SQLITE_STATIC);
                break;
            default:
                sqlite3_bind_value(ins, k, x);
            }
        }
        if (sqlite3_step(ins) != SQLITE_DONE)
            die(dst, "step");
        sqlite3_reset(ins);
    }
    if (sqlite3_exec(dst, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        die(dst, "commit");
    t1 = now();
    sqlite3_finalize(ins);
    sqlite3_close(dst);
    printf("rows %zu insert_s %.3f\n", n, t1 - t0);
    for (i = 0; i < n * (size_t)ncol; i++)
        sqlite3_value_free(v[i]);
    free(v);
    return 0;
}
