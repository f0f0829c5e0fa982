/*
 * xgo_t.c -- OGR round trips of xgo_job_run: inputs written with the GDAL
 * C API (3D lines, triangles and polygons on a quarter-unit lattice at UTM
 * magnitudes, so that touches and coplanar overlaps are common), the
 * output read back from GeoPackage, Shapefile and Memory (the plugin's), with and without
 * attribute copies, and compared with the core's own contacts (xg_segtri
 * on the same arrays): ids, kinds, exact coordinates, attributes, CRS.
 * And the summary's polygon counts, each input's own.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gdal.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>
#include <cpl_conv.h>
#include <cpl_error.h>
#include "exactgeo.h"
#include "tap.h"
#include "xg_rng.h"
#include "xgo.h"
#include "xgo_internal.h"

#define NA 60
#define NB 80
#define OX 500000.0
#define OY 7000000.0

static double lattice(int n)   /* a multiple of 1/4 in [0, n) */
{
    return (double)rng_int(4 * n) / 4.0;
}

static struct xg_set ref_a;
static struct xg_set ref_b;
static char dir[256];

static OGRLayerH new_layer(GDALDatasetH ds, const char *name,
                           OGRwkbGeometryType gt, OGRSpatialReferenceH srs)
{
    OGRLayerH l = GDALDatasetCreateLayer(ds, name, srs, gt, NULL);
    OGRFieldDefnH f = OGR_Fld_Create("name", OFTString);
    OGR_L_CreateField(l, f, TRUE);
    OGR_Fld_Destroy(f);
    f = OGR_Fld_Create("val", OFTInteger);
    OGR_L_CreateField(l, f, TRUE);
    OGR_Fld_Destroy(f);
    return l;
}

static void put(OGRLayerH l, OGRGeometryH g, int i)
{
    OGRFeatureH f = OGR_F_Create(OGR_L_GetLayerDefn(l));
    char name[32];
    snprintf(name, sizeof name, "n%d", i);
    OGR_F_SetFieldString(f, 0, name);
    OGR_F_SetFieldInteger(f, 1, 1000 + i);
    OGR_F_SetGeometryDirectly(f, g);
    if (OGR_L_CreateFeature(l, f) != OGRERR_NONE)
        fprintf(stderr, "cannot write input feature %d\n", i);
    OGR_F_Destroy(f);
}

/* A: lines of 2-4 vertices (every 10th is horizontal, for coplanar
 * overlaps); B: one triangle per feature, horizontal or vertical, as a
 * MultiPolygonZ of one part, plus its reference arrays. */
static void make_inputs(OGRSpatialReferenceH srs)
{
    GDALDriverH drv = GDALGetDriverByName("GPKG");
    char path[300];
    GDALDatasetH ds;
    OGRLayerH l;
    int i, k;

    snprintf(path, sizeof path, "%s/a.gpkg", dir);
    ds = GDALCreate(drv, path, 0, 0, 0, GDT_Unknown, NULL);
    l = new_layer(ds, "holes", wkbLineString25D, srs);
    for (i = 0; i < NA; i++) {
        OGRGeometryH g = OGR_G_CreateGeometry(wkbLineString25D);
        int nv = 2 + i % 3;
        double p[4][3];
        for (k = 0; k < nv; k++) {
            p[k][0] = OX + lattice(8);
            p[k][1] = OY + lattice(8);
            p[k][2] = i % 10 == 0 ? 1.0 : lattice(3);
            OGR_G_AddPoint(g, p[k][0], p[k][1], p[k][2]);
            if (k)
                xg_set_push_segment(&ref_a, p[k - 1], p[k], i + 1, k - 1);
        }
        put(l, g, i);
    }
    GDALClose(ds);

    snprintf(path, sizeof path, "%s/b.gpkg", dir);
    ds = GDALCreate(drv, path, 0, 0, 0, GDT_Unknown, NULL);
    l = new_layer(ds, "mesh", wkbMultiPolygon25D, srs);
    for (i = 0; i < NB; i++) {
        OGRGeometryH mp = OGR_G_CreateGeometry(wkbMultiPolygon25D);
        OGRGeometryH pg = OGR_G_CreateGeometry(wkbPolygon25D);
        OGRGeometryH ring = OGR_G_CreateGeometry(wkbLinearRing);
        double t[3][3];
        for (k = 0; k < 3; k++) {
            t[k][0] = OX + lattice(8);
            t[k][1] = OY + lattice(8);
            t[k][2] = i % 2 ? 1.0 : lattice(3);
            if (i % 4 == 2)            /* vertical: shares x with vertex 0 */
                t[k][0] = k ? t[0][0] : t[k][0];
            OGR_G_AddPoint(ring, t[k][0], t[k][1], t[k][2]);
        }
        OGR_G_AddPoint(ring, t[0][0], t[0][1], t[0][2]);
        OGR_G_AddGeometryDirectly(pg, ring);
        OGR_G_AddGeometryDirectly(mp, pg);
        xg_set_push_triangle(&ref_b, t[0], t[1], t[2], i + 1, 0);
        put(l, mp, i);
    }
    GDALClose(ds);
}

struct got {
    int64_t afid, aseg, bfid, btri;
    char kind[16];
    int npts;
    double p[2][3];
    char aname[32], bname[32];
    int aval, bval;
};

static void read_feature(OGRFeatureH f, struct got *g)
{
    OGRFeatureDefnH d = OGR_F_GetDefnRef(f);
    OGRGeometryH geom = OGR_F_GetGeometryRef(f);
    int k, i;
    memset(g, 0, sizeof *g);
    g->afid = OGR_F_GetFieldAsInteger64(f, OGR_FD_GetFieldIndex(d, "a_fid"));
    g->aseg = OGR_F_GetFieldAsInteger64(f, OGR_FD_GetFieldIndex(d, "a_seg"));
    g->bfid = OGR_F_GetFieldAsInteger64(f, OGR_FD_GetFieldIndex(d, "b_fid"));
    g->btri = OGR_F_GetFieldAsInteger64(f, OGR_FD_GetFieldIndex(d, "b_tri"));
    snprintf(g->kind, sizeof g->kind, "%s",
             OGR_F_GetFieldAsString(f, OGR_FD_GetFieldIndex(d, "kind")));
    if ((k = OGR_FD_GetFieldIndex(d, "a_name")) >= 0)
        snprintf(g->aname, sizeof g->aname, "%s", OGR_F_GetFieldAsString(f, k));
    if ((k = OGR_FD_GetFieldIndex(d, "a_val")) >= 0)
        g->aval = OGR_F_GetFieldAsInteger(f, k);
    if ((k = OGR_FD_GetFieldIndex(d, "b_name")) >= 0)
        snprintf(g->bname, sizeof g->bname, "%s", OGR_F_GetFieldAsString(f, k));
    if ((k = OGR_FD_GetFieldIndex(d, "b_val")) >= 0)
        g->bval = OGR_F_GetFieldAsInteger(f, k);
    if (geom) {
        g->npts = OGR_G_GetPointCount(geom);
        for (i = 0; i < g->npts && i < 2; i++)
            OGR_G_GetPoint(geom, i, &g->p[i][0], &g->p[i][1], &g->p[i][2]);
    }
}

/* Compares the output layer(s) with the reference contacts.  lines may be
 * NULL (mixed layer). */
static int compare(OGRLayerH pts, OGRLayerH lines, const struct xg_contacts *c,
                   int copies_a, int copies_b, char *why, size_t len)
{
    size_t i;
    OGR_L_ResetReading(pts);
    if (lines)
        OGR_L_ResetReading(lines);
    for (i = 0; i < c->n; i++) {
        const struct xg_contact *x = &c->v[i];
        int ov = x->kind == XG_KIND_OVERLAP;
        OGRFeatureH f = OGR_L_GetNextFeature(ov && lines ? lines : pts);
        struct got g;
        int ai = (int)(ref_a.fid[x->a] - 1), bi = (int)(ref_b.fid[x->b] - 1);
        char an[32], bn[32];
        if (!f) {
            snprintf(why, len, "contact %zu missing", i);
            return 0;
        }
        read_feature(f, &g);
        OGR_F_Destroy(f);
        snprintf(an, sizeof an, "n%d", ai);
        snprintf(bn, sizeof bn, "n%d", bi);
        if (g.afid != ref_a.fid[x->a] || g.aseg != ref_a.sub[x->a] ||
            g.bfid != ref_b.fid[x->b] || g.btri != ref_b.sub[x->b] ||
            strcmp(g.kind, xg_kind_name(x->kind, 3)) != 0 ||
            g.npts != (ov ? 2 : 1) ||
            memcmp(g.p[0], x->p, sizeof x->p) != 0 ||
            (ov && memcmp(g.p[1], x->q, sizeof x->q) != 0) ||
            (copies_a && (strcmp(g.aname, an) || g.aval != 1000 + ai)) ||
            (!copies_a && (g.aname[0] || g.aval)) ||
            (copies_b && strcmp(g.bname, bn)) || (!copies_b && g.bname[0]) ||
            g.bval != 0) {
            snprintf(why, len, "contact %zu differs (a_fid %lld kind %s)", i,
                     (long long)g.afid, g.kind);
            return 0;
        }
    }
    if (OGR_L_GetNextFeature(pts) || (lines && OGR_L_GetNextFeature(lines))) {
        snprintf(why, len, "extra features");
        return 0;
    }
    return 1;
}

static void job_init(struct xgo_job *job, struct xgo_report *rep,
                     char *apath, char *bpath, int copies)
{
    static const char *const bfields[] = {"name", NULL};
    memset(job, 0, sizeof *job);
    job->op = xg_op_find("segtri");
    job->a.path = apath;
    job->b.path = bpath;
    if (copies) {
        job->a.copy = XGO_COPY_ALL;
        job->b.copy = XGO_COPY_LIST;
        job->b.fields = bfields;
    }
    job->opts.engine = XG_ENGINE_CPU;
    job->threads = 2;
    job->quiet = 1;
    job->report = rep;
}

/* The summary's lines of an operation of two inputs of triangles (two
 * meshes in, as the test operation boxmeet; here segtri's row with B's
 * input for A): each line gives its own input's polygons triangulated,
 * non-planar and degenerate, not the sum of both. */
static void summary_per_input(void)
{
    struct xg_op op = *xg_op_find("segtri");
    struct xgo_job job;
    struct xgo_report rep;
    struct xg_stats st;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    memset(&job, 0, sizeof job);
    memset(&rep, 0, sizeof rep);
    memset(&st, 0, sizeof st);
    op.in[0] = op.in[1];
    job.op = &op;
    job.a.path = "a.gpkg";
    job.b.path = "b.gpkg";
    rep.triangulated[0] = 3;
    rep.nonplanar[0] = 2;
    rep.bad_polygons[0] = 1;
    rep.triangulated[1] = 7;
    rep.bad_polygons[1] = 5;
    if (f) {
        xgo__contacts_summary_input(f, &job, 0, &st, &rep);
        xgo__contacts_summary_input(f, &job, 1, &st, &rep);
        fclose(f);
    }
    ok(buf && strstr(buf, "  A: a.gpkg, layer '': 0 features, 0 triangles "
                          "(0 degenerate, skipped); 3 polygons triangulated, "
                          "2 non-planar and 1 degenerate polygons skipped\n") &&
       strstr(buf, "  B: b.gpkg, layer '': 0 features, 0 triangles "
                   "(0 degenerate, skipped); 7 polygons triangulated, "
                   "0 non-planar and 5 degenerate polygons skipped\n"),
       "two inputs of triangles: each summary line counts its own polygons");
    if (buf && !strstr(buf, "3 polygons triangulated"))
        printf("# %s", buf);
    free(buf);
}

/* Cancels at the first progress call of the core (the bar's stage
 * "computing", ogr_driver/bar.c): where on the bar that is depends on
 * the stages' estimates. */
static int cancel_core(double f, const char *m, void *arg)
{
    (void)f; (void)arg;
    return !m || strcmp(m, "computing") != 0;
}

int main(void)
{
    struct xg_contacts ref = {0};
    struct xg_stats st;
    struct xg_opts opt = {.engine = XG_ENGINE_SEQ};
    struct xgo_job job;
    struct xgo_report rep;
    OGRSpatialReferenceH srs;
    char apath[300], bpath[300], err[1024], why[256];
    const char *fmts[3] = {"GPKG", "ESRI Shapefile", "Memory"};
    int f, copies, k, nover = 0, ntouch = 0;
    size_t i;

    (void)tap_plan;
    rng_seed_from_env(12345);
    GDALAllRegister();
    CPLSetErrorHandler(CPLQuietErrorHandler);
    snprintf(dir, sizeof dir, "%s/xgo_t.XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir))
        tap_skip_all("cannot make a temporary folder");
    srs = OSRNewSpatialReference(NULL);
    OSRImportFromEPSG(srs, 32634);
    OSRSetAxisMappingStrategy(srs, OAMS_TRADITIONAL_GIS_ORDER);
    make_inputs(srs);
    snprintf(apath, sizeof apath, "%s/a.gpkg", dir);
    snprintf(bpath, sizeof bpath, "%s/b.gpkg", dir);

    {
        struct xg_ctx *ctx = xg_ctx_new();
        ok(xg_segtri(ctx, &ref_a, &ref_b, &opt, &ref, NULL) == XG_OK,
           "reference contacts from the core");
        xg_ctx_free(ctx);
    }
    for (i = 0; i < ref.n; i++) {
        nover += ref.v[i].kind == XG_KIND_OVERLAP;
        ntouch += ref.v[i].kind == XG_KIND_TOUCH;
    }
    ok(ref.n > 20 && nover > 0 && ntouch > 0,
       "the inputs give proper, touch and coplanar contacts (%zu, %d touch, "
       "%d coplanar)", ref.n, ntouch, nover);

    for (f = 0; f < 3; f++)
        for (copies = 0; copies < 2; copies++) {
            GDALDriverH drv = GDALGetDriverByName(fmts[f]);
            char out[400];
            GDALDatasetH ds;
            OGRLayerH pts, lines = NULL;
            int rc, same;
            snprintf(out, sizeof out, "%s/out%d%d%s", dir, f, copies,
                     f == 0 ? ".gpkg" : f == 1 ? ".shp" : "");
            ds = GDALCreate(drv, out, 0, 0, 0, GDT_Unknown, NULL);
            job_init(&job, &rep, apath, bpath, copies);
            rc = xgo_job_run(&job, ds, "contacts", NULL, &st, err, sizeof err);
            ok(rc == 0 && rep.written == ref.n &&
                   st.contacts[XG_KIND_OVERLAP] == (uint64_t)nover,
               "%s%s: run writes %zu features (%s)", fmts[f],
               copies ? " with copies" : "", ref.n, rc ? err : "ok");
            if (f != 2) {   /* read back from the file */
                GDALClose(ds);
                ds = GDALOpenEx(out, GDAL_OF_VECTOR, NULL, NULL, NULL);
            }
            pts = GDALDatasetGetLayer(ds, 0);
            if (f == 1) {
                char lp[450];
                GDALDatasetH lds;
                snprintf(lp, sizeof lp, "%s/out%d%d_lines.shp", dir, f, copies);
                lds = GDALOpenEx(lp, GDAL_OF_VECTOR, NULL, NULL, NULL);
                lines = lds ? GDALDatasetGetLayer(lds, 0) : NULL;
                ok(lines != NULL && strstr(rep.lines_layer, "_lines") != NULL,
                   "Shapefile: overlaps in %s", rep.lines_layer);
                same = pts && compare(pts, lines, &ref, copies, copies, why,
                                      sizeof why);
                if (lds)
                    GDALClose(lds);
            } else {
                same = pts && compare(pts, NULL, &ref, copies, copies, why,
                                      sizeof why);
            }
            ok(same, "%s%s: every contact read back equals the core's "
                     "(ids, kind, exact points%s)%s%s", fmts[f],
               copies ? " with copies" : "", copies ? ", attributes" : "",
               same ? "" : ": ", same ? "" : why);
            {
                OGRSpatialReferenceH got = pts ? OGR_L_GetSpatialRef(pts) : NULL;
                ok(got && OSRIsSame(got, srs), "%s: output CRS is EPSG:32634",
                   fmts[f]);
            }
            GDALClose(ds);
        }

    /* cancelled mid-run (in the core: its stage of the bar): an error,
     * and no layer left in the destination -- every time, on seq and on
     * cpu with 1, 2 and 8 threads, however the threads share the work
     * (the core's last progress call, at 1, is always made and always
     * heard). */
    {
        static const int threads[4] = {1, 1, 2, 8};
        int good = 0, rc = XG_OK, left = 0;
        for (k = 0; k < 40; k++) {
            GDALDatasetH ds = GDALCreate(GDALGetDriverByName("Memory"), "m",
                                         0, 0, 0, GDT_Unknown, NULL);
            job_init(&job, &rep, apath, bpath, 0);
            job.opts.engine = k % 4 ? XG_ENGINE_CPU : XG_ENGINE_SEQ;
            job.threads = threads[k % 4];
            job.progress = cancel_core;
            err[0] = '\0';
            rc = xgo_job_run(&job, ds, "contacts", NULL, NULL, err, sizeof err);
            left = GDALDatasetGetLayerCount(ds);
            good += rc == XG_ECANCEL && left == 0;
            GDALClose(ds);
        }
        ok(good == 40, "cancelled run: XG_ECANCEL, no layer left, in %d of "
           "40 runs (last: %s, %d layers)", good, err, left);
    }
    /* a polygon of four vertices: two triangles, consecutive b_tri */
    {
        GDALDatasetH ds = GDALCreate(GDALGetDriverByName("GPKG"), bpath, 0, 0,
                                     0, GDT_Unknown, NULL);
        OGRLayerH l = new_layer(ds, "quad", wkbPolygon25D, srs);
        OGRGeometryH pg = OGR_G_CreateGeometry(wkbPolygon25D);
        OGRGeometryH ring = OGR_G_CreateGeometry(wkbLinearRing);
        static const double q[5][2] = {{0, 0}, {8, 0}, {8, 8}, {0, 8}, {0, 0}};
        GDALDatasetH out;
        int rc;
        for (k = 0; k < 5; k++)
            OGR_G_AddPoint(ring, OX + q[k][0], OY + q[k][1], 1.0);
        OGR_G_AddGeometryDirectly(pg, ring);
        put(l, pg, 0);
        GDALClose(ds);
        out = GDALCreate(GDALGetDriverByName("Memory"), "q", 0, 0, 0, GDT_Unknown,
                         NULL);
        job_init(&job, &rep, apath, bpath, 0);
        rc = xgo_job_run(&job, out, "contacts", NULL, &st, err, sizeof err);
        if (rep.triangulated[1] == 0) {
            ok(1, "# SKIP xg_triangulate not in this build (branch tri)");
        } else {
            ok(rc == 0 && rep.triangulated[1] == 1 &&
               rep.triangulated[0] == 0 && st.b_count == 2,
               "a planar quadrilateral becomes two triangles (%s)",
               rc ? err : "ok");
        }
        GDALClose(out);
    }
    /* a hole touching the outer ring at a vertex (OGC-valid): five
     * triangles (7 vertices - 2 + 2 * (1 hole - 1 touch)), not skipped */
    {
        GDALDatasetH ds = GDALCreate(GDALGetDriverByName("GPKG"), bpath, 0, 0,
                                     0, GDT_Unknown, NULL);
        OGRLayerH l = new_layer(ds, "touch", wkbPolygon25D, srs);
        OGRGeometryH pg = OGR_G_CreateGeometry(wkbPolygon25D);
        OGRGeometryH outer = OGR_G_CreateGeometry(wkbLinearRing);
        OGRGeometryH hole = OGR_G_CreateGeometry(wkbLinearRing);
        static const double q[5][2] = {{0, 0}, {8, 0}, {8, 8}, {0, 8}, {0, 0}};
        static const double t[4][2] = {{8, 8}, {6, 7}, {7, 6}, {8, 8}};
        GDALDatasetH out;
        int rc;
        for (k = 0; k < 5; k++)
            OGR_G_AddPoint(outer, OX + q[k][0], OY + q[k][1], 1.0);
        for (k = 0; k < 4; k++)
            OGR_G_AddPoint(hole, OX + t[k][0], OY + t[k][1], 1.0);
        OGR_G_AddGeometryDirectly(pg, outer);
        OGR_G_AddGeometryDirectly(pg, hole);
        put(l, pg, 0);
        GDALClose(ds);
        out = GDALCreate(GDALGetDriverByName("Memory"), "t", 0, 0, 0, GDT_Unknown,
                         NULL);
        job_init(&job, &rep, apath, bpath, 0);
        job.quiet = 1;
        rc = xgo_job_run(&job, out, "contacts", NULL, &st, err, sizeof err);
        ok(rc == 0 && rep.triangulated[1] == 1 && rep.bad_polygons[1] == 0 &&
           st.b_count == 5,
           "a hole touching the outer ring is triangulated, not skipped "
           "(%s; %llu triangulated, %llu skipped, %llu triangles)",
           rc ? err : "ok", (unsigned long long)rep.triangulated[1],
           (unsigned long long)rep.bad_polygons[1],
           (unsigned long long)st.b_count);
        GDALClose(out);
    }
    summary_per_input();
    rmdir(dir);   /* best effort; files are left for inspection on failure */
    if (!tap_failed) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", dir);
    }
    OSRDestroySpatialReference(srs);
    xg_contacts_free(&ref);
    xg_set_free(&ref_a);
    xg_set_free(&ref_b);
    tap_done();
    return tap_exit();
}
