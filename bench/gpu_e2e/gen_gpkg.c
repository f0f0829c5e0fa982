/* gen_gpkg.c -- writes the end-to-end benchmark's inputs as GeoPackages,
 * straight through SQLite, with no GDAL: the GPU machine has none, and
 * 10^8 points through ogr2ogr would take most of a 10-minute call.
 *
 *   gen_gpkg points  OUT LAYER N SEED X0 Y0 Z0 X1 Y1 Z1
 *   gen_gpkg lattice OUT LAYER N X0 Y0 Z0 X1 Y1 Z1
 *   gen_gpkg spheres OUT LAYER K NTRI FILL X0 Y0 Z0 X1 Y1 Z1
 *
 * points:  N PointZ uniform in the box, millimetre coordinates, from a
 *          splitmix64 stream of SEED (deterministic); for delaunay and
 *          inside.
 * lattice: N PointZ block centroids on a regular lattice over the box
 *          (cubic blocks sized so that N fit; the last level partly
 *          filled), fields ix, iy, iz.
 * spheres: K closed UV spheres (PolyhedralSurfaceZ of triangles, NTRI
 *          triangles in all, millimetre vertices) on a grid of cells in
 *          the box, together filling the fraction FILL of its volume,
 *          field body_id.
 * The file: an ordinary GeoPackage 1.2 (gpkg_spatial_ref_sys,
 * gpkg_contents with the extent, gpkg_geometry_columns,
 * gpkg_ogr_contents with the count), no spatial index, no CRS (srs_id
 * -1; or, where the environment has GEN_SRS_EPSG=CODE and GEN_SRS_WKT=WKT,
 * that EPSG CRS, so that the points match inputs in it).  Geometry blobs: the GeoPackage header without an envelope, then
 * little-endian ISO WKB.  OUT must not exist.  Exit 0 done, 1 error.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sqlite3 *db;
static int srs_id = -1; /* the CRS of every table and blob (main sets it) */

/* die: print the SQLite error and MSG, exit 1.  Never returns. */
static void die(const char *msg)
{
    fprintf(stderr, "gen_gpkg: %s: %s\n", msg, db ? sqlite3_errmsg(db) : "");
    exit(1);
}

/* exec: run SQL (several statements allowed); exits on error. */
static void exec(const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "gen_gpkg: %s\n  in: %.200s\n", err, sql);
        exit(1);
    }
}

/* splitmix64: the next value of the stream at *s (advances *s). */
static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* mm: V rounded to the millimetre (the inputs look surveyed). */
static double mm(double v) { return nearbyint(v * 1000.0) / 1000.0; }

/* put_u32, put_f64: append little-endian to *p and advance it. */
static void put_u32(unsigned char **p, uint32_t v)
{
    memcpy(*p, &v, 4); /* x86-64 and every target here is little-endian */
    *p += 4;
}
static void put_f64(unsigned char **p, double v)
{
    memcpy(*p, &v, 8);
    *p += 8;
}

/* gpkg_header: the 8-byte GeoPackage geometry header (version 0, no
 * envelope, little-endian, srs_id -1) at *p; advances *p. */
static void gpkg_header(unsigned char **p)
{
    unsigned char h[4] = {'G', 'P', 0, 0x01};
    memcpy(*p, h, 4);
    *p += 4;
    put_u32(p, (uint32_t)srs_id);
}

/* create: make OUT with the GeoPackage metadata tables and the feature
 * table LAYER (columns: fid, geom of TYPE, then FIELDS, an SQL column
 * list or ""), opened for fast bulk writing. */
static void create(const char *out, const char *layer, const char *type,
                   const char *fields)
{
    if (sqlite3_open_v2(out, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                        SQLITE_OPEN_EXCLUSIVE, NULL) != SQLITE_OK)
        die(out);
    char sql[4096];
    exec("PRAGMA application_id = 1196444487; PRAGMA user_version = 10200;"
         "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
         "CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL,"
         " srs_id INTEGER NOT NULL PRIMARY KEY, organization TEXT NOT NULL,"
         " organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL,"
         " description TEXT);"
         "INSERT INTO gpkg_spatial_ref_sys VALUES"
         " ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', NULL),"
         " ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', NULL);"
         "CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY,"
         " data_type TEXT NOT NULL, identifier TEXT UNIQUE, description TEXT"
         " DEFAULT '', last_change DATETIME NOT NULL DEFAULT"
         " (strftime('%Y-%m-%dT%H:%M:%fZ','now')), min_x DOUBLE, min_y DOUBLE,"
         " max_x DOUBLE, max_y DOUBLE, srs_id INTEGER);"
         "CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL,"
         " column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,"
         " srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,"
         " CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name));"
         "CREATE TABLE gpkg_ogr_contents (table_name TEXT NOT NULL PRIMARY KEY,"
         " feature_count INTEGER DEFAULT NULL);");
    if (srs_id != -1) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(db, "INSERT INTO gpkg_spatial_ref_sys VALUES"
                               " (?, ?, 'EPSG', ?, ?, NULL)", -1, &st, NULL) != SQLITE_OK)
            die("prepare");
        sqlite3_bind_text(st, 1, getenv("GEN_SRS_WKT"), -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 2, srs_id);
        sqlite3_bind_int(st, 3, srs_id);
        sqlite3_bind_text(st, 4, getenv("GEN_SRS_WKT"), -1, SQLITE_STATIC);
        if (sqlite3_step(st) != SQLITE_DONE)
            die("srs");
        sqlite3_finalize(st);
    }
    snprintf(sql, sizeof sql,
             "CREATE TABLE \"%s\" (fid INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,"
             " geom %s%s);"
             "INSERT INTO gpkg_geometry_columns VALUES ('%s', 'geom', '%s', %d, 1, 0);"
             "BEGIN;",
             layer, type, fields, layer, type, srs_id);
    exec(sql);
}

/* finish: record LAYER's extent and count N, commit and close. */
static void finish(const char *layer, const double lo[3], const double hi[3],
                   long long n)
{
    char sql[1024];
    snprintf(sql, sizeof sql,
             "INSERT INTO gpkg_contents (table_name, data_type, identifier,"
             " min_x, min_y, max_x, max_y, srs_id) VALUES"
             " ('%s', 'features', '%s', %.17g, %.17g, %.17g, %.17g, %d);"
             "INSERT INTO gpkg_ogr_contents VALUES ('%s', %lld); COMMIT;",
             layer, layer, lo[0], lo[1], hi[0], hi[1], srs_id, layer, n);
    exec(sql);
    if (sqlite3_close(db) != SQLITE_OK)
        die("close");
}

/* insert_point: one PointZ feature (x, y, z) with NF integer fields F
 * through the prepared statement ST. */
static void insert_point(sqlite3_stmt *st, double x, double y, double z,
                         int nf, const long long *f)
{
    unsigned char blob[8 + 29], *p = blob;
    gpkg_header(&p);
    *p++ = 1; /* little-endian WKB */
    put_u32(&p, 1001); /* ISO Point Z */
    put_f64(&p, x);
    put_f64(&p, y);
    put_f64(&p, z);
    sqlite3_bind_blob(st, 1, blob, (int)sizeof blob, SQLITE_TRANSIENT);
    for (int i = 0; i < nf; i++)
        sqlite3_bind_int64(st, 2 + i, f[i]);
    if (sqlite3_step(st) != SQLITE_DONE)
        die("insert");
    sqlite3_reset(st);
}

/* gen_points: N uniform PointZ in the box [LO, HI] from SEED. */
static void gen_points(const char *out, const char *layer, long long n,
                       uint64_t seed, const double lo[3], const double hi[3])
{
    sqlite3_stmt *st;
    char sql[256];
    create(out, layer, "POINT", "");
    snprintf(sql, sizeof sql, "INSERT INTO \"%s\" (geom) VALUES (?)", layer);
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        die("prepare");
    for (long long i = 0; i < n; i++) {
        double c[3];
        for (int k = 0; k < 3; k++) {
            double u = (double)(splitmix64(&seed) >> 11) * 0x1p-53;
            c[k] = mm(lo[k] + u * (hi[k] - lo[k]));
        }
        insert_point(st, c[0], c[1], c[2], 0, NULL);
    }
    sqlite3_finalize(st);
    finish(layer, lo, hi, n);
}

/* gen_lattice: N block centroids on a lattice of cubic blocks over the
 * box [LO, HI], x fastest, then y, then z; fields ix, iy, iz. */
static void gen_lattice(const char *out, const char *layer, long long n,
                        const double lo[3], const double hi[3])
{
    const double d[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    double s = cbrt(d[0] * d[1] * d[2] / (double)n);
    long long nx = (long long)ceil(d[0] / s), ny = (long long)ceil(d[1] / s);
    sqlite3_stmt *st;
    char sql[256];
    create(out, layer, "POINT", ", ix INTEGER, iy INTEGER, iz INTEGER");
    snprintf(sql, sizeof sql,
             "INSERT INTO \"%s\" (geom, ix, iy, iz) VALUES (?, ?, ?, ?)", layer);
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        die("prepare");
    for (long long i = 0; i < n; i++) {
        long long f[3] = {i % nx, (i / nx) % ny, i / (nx * ny)};
        insert_point(st, mm(lo[0] + (f[0] + 0.5) * s), mm(lo[1] + (f[1] + 0.5) * s),
                     mm(lo[2] + (f[2] + 0.5) * s), 3, f);
    }
    sqlite3_finalize(st);
    fprintf(stderr, "gen_gpkg: lattice %lld x %lld x %lld, block %.3f m\n",
            nx, ny, (n + nx * ny - 1) / (nx * ny), s);
    finish(layer, lo, hi, n);
}

/* put_tri: one PolygonZ triangle A, B, C (closed ring) at *p. */
static void put_tri(unsigned char **p, const double *a, const double *b,
                    const double *c)
{
    const double *r[4] = {a, b, c, a};
    *(*p)++ = 1;
    put_u32(p, 1003); /* ISO Polygon Z */
    put_u32(p, 1);
    put_u32(p, 4);
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++)
            put_f64(p, r[i][k]);
}

/* sphere_blob: a closed UV sphere about CEN of radius R with NLAT bands
 * and 2 NLAT segments, as a GeoPackage PolyhedralSurfaceZ blob (malloc'd,
 * the caller frees); *LEN its size, *NT its triangles.  Triangles wind
 * counter-clockwise seen from outside; the poles are single vertices, so
 * every edge is shared by exactly two triangles. */
static unsigned char *sphere_blob(const double cen[3], double r, int nlat,
                                  size_t *len, long long *nt)
{
    int nlon = 2 * nlat;
    size_t nv = (size_t)(nlat + 1) * nlon;
    double (*v)[3] = malloc(nv * sizeof *v);
    long long t = 2LL * nlon * (nlat - 1);
    unsigned char *blob = malloc(8 + 9 + (size_t)t * 109), *p = blob;
    if (!v || !blob)
        die("out of memory");
    for (int i = 0; i <= nlat; i++)
        for (int j = 0; j < nlon; j++) {
            double th = M_PI * i / nlat, ph = 2 * M_PI * j / nlon;
            double *q = v[(size_t)i * nlon + j];
            int pole = i == 0 || i == nlat;
            q[0] = mm(cen[0] + (pole ? 0 : r * sin(th) * cos(ph)));
            q[1] = mm(cen[1] + (pole ? 0 : r * sin(th) * sin(ph)));
            q[2] = mm(cen[2] + r * cos(th));
        }
    gpkg_header(&p);
    *p++ = 1;
    put_u32(&p, 1015); /* ISO PolyhedralSurface Z */
    put_u32(&p, (uint32_t)t);
    for (int i = 0; i < nlat; i++)
        for (int j = 0; j < nlon; j++) {
            int j1 = (j + 1) % nlon;
            const double *a = v[(size_t)i * nlon + j], *b = v[(size_t)i * nlon + j1];
            const double *c = v[(size_t)(i + 1) * nlon + j];
            const double *d = v[(size_t)(i + 1) * nlon + j1];
            if (i > 0)
                put_tri(&p, a, c, b); /* z falls with i: a, c, b is outward */
            if (i < nlat - 1)
                put_tri(&p, b, c, d);
        }
    free(v);
    *len = (size_t)(p - blob);
    *nt = t;
    return blob;
}

/* gen_spheres: K spheres of NTRI triangles in all, filling FILL of the
 * box's volume, one per cell of a grid of about K cells (centred). */
static void gen_spheres(const char *out, const char *layer, int k, long long ntri,
                        double fill, const double lo[3], const double hi[3])
{
    const double d[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    int g = (int)ceil(cbrt((double)k));
    double r = cbrt(fill * d[0] * d[1] * d[2] * 3.0 / (4.0 * M_PI * k));
    int nlat = (int)floor(sqrt((double)ntri / k / 4.0)) + 1;
    double cell = fmin(d[0], fmin(d[1], d[2])) / g;
    long long total = 0;
    sqlite3_stmt *st;
    char sql[256];
    if (2 * r > cell)
        fprintf(stderr, "gen_gpkg: FILL %g too large: spheres of radius %.1f"
                " overlap their cells\n", fill, r), exit(1);
    create(out, layer, "GEOMETRY", ", body_id INTEGER");
    snprintf(sql, sizeof sql, "INSERT INTO \"%s\" (geom, body_id) VALUES (?, ?)",
             layer);
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        die("prepare");
    for (int i = 0; i < k; i++) {
        double cen[3] = {lo[0] + (i % g + 0.5) * d[0] / g,
                         lo[1] + (i / g % g + 0.5) * d[1] / g,
                         lo[2] + (i / (g * g) + 0.5) * d[2] / g};
        size_t len;
        long long nt;
        unsigned char *b = sphere_blob(cen, r, nlat, &len, &nt);
        sqlite3_bind_blob(st, 1, b, (int)len, free);
        sqlite3_bind_int(st, 2, i + 1);
        if (sqlite3_step(st) != SQLITE_DONE)
            die("insert");
        sqlite3_reset(st);
        total += nt;
    }
    sqlite3_finalize(st);
    fprintf(stderr, "gen_gpkg: %d spheres of radius %.3f, %lld triangles\n", k, r,
            total);
    finish(layer, lo, hi, k);
}

/* main: parse the command line (usage above) and write the one file;
 * exit 2 on a usage error. */
int main(int argc, char **argv)
{
    double lo[3], hi[3];
    const char *mode = argc >= 2 ? argv[1] : "";
    int nb = !strcmp(mode, "spheres") ? 13 : !strcmp(mode, "points") ? 12 : 11;
    if (argc != nb) {
        fprintf(stderr, "usage: gen_gpkg points  OUT LAYER N SEED X0 Y0 Z0 X1 Y1 Z1\n"
                        "       gen_gpkg lattice OUT LAYER N X0 Y0 Z0 X1 Y1 Z1\n"
                        "       gen_gpkg spheres OUT LAYER K NTRI FILL X0 Y0 Z0 X1 Y1 Z1\n");
        return 2;
    }
    if (getenv("GEN_SRS_EPSG") && getenv("GEN_SRS_WKT"))
        srs_id = atoi(getenv("GEN_SRS_EPSG"));
    for (int k = 0; k < 3; k++) {
        lo[k] = atof(argv[nb - 6 + k]);
        hi[k] = atof(argv[nb - 3 + k]);
    }
    if (!strcmp(argv[1], "points"))
        gen_points(argv[2], argv[3], atoll(argv[4]), strtoull(argv[5], NULL, 10),
                   lo, hi);
    else if (!strcmp(argv[1], "lattice"))
        gen_lattice(argv[2], argv[3], atoll(argv[4]), lo, hi);
    else
        gen_spheres(argv[2], argv[3], atoi(argv[4]), atoll(argv[5]), atof(argv[6]),
                    lo, hi);
    return 0;
}
