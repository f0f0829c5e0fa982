/*
 * bar_t.c -- the job's progress bar cut by the stages' estimates
 * (ogr_driver/bar.c, bar_costs.c; issue 33): each stage's slice is its
 * estimate's part of what is left, the bar never moves back, a stage
 * estimated at nothing keeps a slice, only the end of the run tells 1.0,
 * a cancel is heard in every stage; then a real run (delaunay of the
 * demo survey into a GeoPackage the job closes): monotone, 1.0 once and
 * last, told when the file and its index are complete, and the write,
 * close and index slices in the ratio of the costs of its records; the
 * delaunay cpu engine's progress and cancel while its strips run.  Not
 * timed.  TAP.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gdal.h>
#include <ogr_api.h>
#include <cpl_conv.h>
#include "xgo.h"
#include "xgo_internal.h"
#include "gpkg_rtree.h"
#include "tap.h"

/* What the callback heard. */
#define MAXV 100000
static struct heard {
    double v[MAXV];
    char stage[MAXV][16];
    int n;
    int stop_in;              /* cancel at the first call of this stage
                                 (index into names), -1: never         */
    const char *path;         /* the output, checked at 1.0            */
    int complete_at_end;      /* at 1.0: the file has its rtree, ok    */
} H;

static const char *const names[XGO_BAR_STAGES] = {
    "reading A", "reading B", "computing", "writing", "closing", "indexing"};

/* The output's index, read by a fresh connection: "ok" from
 * rtreecheck, and the rows, as complete as GDAL reads them. */
static int index_complete(const char *path)
{
    GDALDatasetH ds = GDALOpenEx(path, GDAL_OF_VECTOR, NULL, NULL, NULL);
    OGRLayerH r;
    int good = 0;
    if (!ds)
        return 0;
    r = GDALDatasetExecuteSQL(ds, "SELECT rtreecheck('rtree_triangles_geom'),"
                              " (SELECT count(*) FROM rtree_triangles_geom) ="
                              " (SELECT count(*) FROM triangles)",
                              NULL, "SQLITE");
    if (r) {
        OGRFeatureH f = OGR_L_GetNextFeature(r);
        good = f && !strcmp(OGR_F_GetFieldAsString(f, 0), "ok") &&
               OGR_F_GetFieldAsInteger(f, 1) == 1;
        OGR_F_Destroy(f);
        GDALDatasetReleaseResultSet(ds, r);
    }
    GDALClose(ds);
    return good;
}

static int CPL_STDCALL hear(double f, const char *msg, void *arg)
{
    (void)arg;
    if (H.n < MAXV) {
        H.v[H.n] = f;
        snprintf(H.stage[H.n], sizeof H.stage[0], "%s", msg ? msg : "");
        H.n++;
    }
    if (f >= 1.0 && H.path)
        H.complete_at_end = index_complete(H.path);
    return !(H.stop_in >= 0 && msg && !strcmp(msg, names[H.stop_in]));
}

static void reset(int stop_in)
{
    H.n = 0;
    H.stop_in = stop_in;
    H.path = NULL;
    H.complete_at_end = 0;
}

static int monotone(void)
{
    int i;
    for (i = 1; i < H.n; i++)
        if (H.v[i] < H.v[i - 1])
            return 0;
    return 1;
}

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b) + 1e-300) + 1e-12;
}

/* The bar alone, on estimates given. */
static void alone(void)
{
    struct xgo_bar b;
    int k, ends_below;

    reset(-1);
    xgo__bar_init(&b, hear, NULL);
    xgo__bar_plan(&b, XGO_BAR_READ_A, 1e9);
    xgo__bar_plan(&b, XGO_BAR_CORE, 1e9);
    xgo__bar_plan(&b, XGO_BAR_WRITE, 2e9);  /* a guess */
    xgo__bar_begin(&b, XGO_BAR_READ_A);
    ok(near(b.at, 0) && near(b.span, 0.25), "read A: 1 of 4 estimated, "
       "slice 0 to 0.25 (%g + %g)", b.at, b.span);
    xgo__bar_fn(0.5, NULL, &b);
    xgo__bar_fn(1.0, NULL, &b);
    ok(H.n == 2 && near(H.v[0], 0.125) && near(H.v[1], 0.25) &&
       !strcmp(H.stage[0], "reading A"), "read A's half at 0.125, its end "
       "at 0.25, named 'reading A'");
    xgo__bar_begin(&b, XGO_BAR_CORE);
    ok(near(b.at, 0.25) && near(b.span, 0.25), "core: 1 of the 3 left, "
       "0.25 to 0.5");
    xgo__bar_fn(0.8, NULL, &b);
    xgo__bar_fn(0.2, NULL, &b);  /* back: held */
    xgo__bar_fn(-1, NULL, &b);
    ok(near(H.v[2], 0.45) && near(H.v[3], 0.45) && near(H.v[4], 0.45),
       "a stage's value going back (or below 0) holds the bar where it was");
    /* the records known: the write and a close of nothing */
    xgo__bar_plan(&b, XGO_BAR_WRITE, 6e9);
    xgo__bar_plan(&b, XGO_BAR_CLOSE, 0);
    xgo__bar_begin(&b, XGO_BAR_WRITE);
    ok(near(b.at, 0.5) && b.span < 0.5 && b.span > 0.5 * (1 - 1e-6),
       "write: what is left but the close's floor (%.12f)", b.span);
    xgo__bar_fn(1.0, NULL, &b);
    ends_below = H.v[H.n - 1] < 1.0;
    xgo__bar_begin(&b, XGO_BAR_CLOSE);
    ok(ends_below && b.span > 0 && near(b.at + b.span, 1.0),
       "the write ends below 1 (%.12f): the close, estimated at nothing, "
       "keeps the rest", H.v[H.n - 1]);
    xgo__bar_fn(1.0, NULL, &b);
    ok(H.v[H.n - 1] < 1.0, "the last stage's end is still below 1.0");
    ok(xgo__bar_done(&b) && H.v[H.n - 1] == 1.0 && monotone(),
       "done tells 1.0; the values never went back");

    /* the cut is the estimates' ratio, whatever their scale */
    xgo__bar_init(&b, NULL, NULL);
    xgo__bar_plan(&b, XGO_BAR_READ_A, 3);
    xgo__bar_plan(&b, XGO_BAR_READ_B, 7e3);
    xgo__bar_plan(&b, XGO_BAR_WRITE, 1.2e4);
    xgo__bar_begin(&b, XGO_BAR_READ_A);
    k = b.span > 0 && b.span < 1.5e3 / 2e4;  /* the floor: 1e3 */
    xgo__bar_begin(&b, XGO_BAR_READ_B);
    ok(k && near(b.span / (1 - b.at), 7e3 / 1.9e4) &&
       xgo__bar_fn(0.5, NULL, &b), "read B: 7 of the 19 left; no "
       "callback: never cancels");

    /* a cancel is heard in each stage */
    for (k = 0; k < XGO_BAR_STAGES; k++) {
        int heard;
        reset(k);
        xgo__bar_init(&b, hear, NULL);
        xgo__bar_plan(&b, k, 1e6);
        xgo__bar_begin(&b, k);
        heard = !xgo__bar_fn(0.5, NULL, &b);
        ok(heard, "a cancel in '%s' is heard", names[k]);
    }
}

/* Delaunay of the demo survey into a GeoPackage the job closes: what the
 * bar told, and when. */
static void real_run(const char *srcdir, const char *dir)
{
    struct xgo_job job;
    struct xgo_report rep;
    struct xg_stats st;
    char a[1024], out[1024], err[1024];
    GDALDatasetH ds;
    int rc, i, ones = 0;
    double end[XGO_BAR_STAGES] = {0};
    struct xgo_bar b;

    snprintf(a, sizeof a, "%s/data/survey.gpkg", srcdir);
    snprintf(out, sizeof out, "%s/tin.gpkg", dir);
    memset(&job, 0, sizeof job);
    job.op = xg_op_find("delaunay");
    job.a.path = a;
    job.opts.engine = XG_ENGINE_CPU;
    job.threads = 2;
    job.quiet = 1;
    job.report = &rep;
    job.close_dst = 1;
    job.progress = hear;
    reset(-1);
    H.path = out;
    ds = GDALCreate(GDALGetDriverByName("GPKG"), out, 0, 0, 0, GDT_Unknown,
                    NULL);
    rc = xgo_job_run(&job, ds, "triangles", NULL, &st, err, sizeof err);
    ok(rc == XG_OK && rep.written == 6232, "delaunay of the survey: 6232 "
       "triangles written (%s)", rc ? err : "ok");
    for (i = 0; i < H.n; i++) {
        int k;
        ones += H.v[i] >= 1.0;
        for (k = 0; k < XGO_BAR_STAGES; k++)
            if (!strcmp(H.stage[i], names[k]) && H.v[i] > end[k])
                end[k] = H.v[i];
    }
    ok(H.n > 3 && monotone(), "%d values, never back", H.n);
    ok(ones == 1 && H.v[H.n - 1] == 1.0 && !H.stage[H.n - 1][0],
       "1.0 told once, last");
    ok(H.complete_at_end, "at 1.0 the file is closed, its index complete "
       "(rtreecheck ok, a row per feature)");
    ok(end[XGO_BAR_CORE] > 0 && end[XGO_BAR_WRITE] > end[XGO_BAR_CORE] &&
       end[XGO_BAR_CLOSE] > end[XGO_BAR_WRITE] &&
       end[XGO_BAR_INDEX] > end[XGO_BAR_CLOSE] && end[XGO_BAR_INDEX] < 1.0,
       "the stages in order: computing, writing, closing, indexing, each "
       "ending below 1.0");

    /* the write, close and index slices: the estimates of 6232 records
     * into a GeoPackage whose index exactgeo builds */
    snprintf(out, sizeof out, "%s/est.gpkg", dir);
    ds = GDALCreate(GDALGetDriverByName("GPKG"), out, 0, 0, 0, GDT_Unknown,
                    NULL);
    xgo__rtree_defer_on(ds);
    xgo__bar_init(&b, NULL, NULL);
    xgo__bar_output(&b, ds, NULL, 1);
    xgo__bar_estimate_output(&b, 6232);
    {
        double w = end[XGO_BAR_WRITE] - end[XGO_BAR_CORE];
        double c = end[XGO_BAR_CLOSE] - end[XGO_BAR_WRITE];
        double x = 1.0 - end[XGO_BAR_CLOSE];
        double ew = b.est[XGO_BAR_WRITE], ec = b.est[XGO_BAR_CLOSE],
               ex = b.est[XGO_BAR_INDEX];
        ok(ew > 0 && ec > 0 && ex > 0 && fabs(w / x - ew / ex) < 1e-6 * ew / ex &&
               fabs(c / x - ec / ex) < 1e-6 * ec / ex,
           "the slices of write, close and index are as their estimates "
           "(%.6f : %.6f : %.6f against %g : %g : %g)", w, c, x, ew, ec,
           ex);
        xgo__bar_estimate_output(&b, 2 * 6232);
        ok(near(b.est[XGO_BAR_WRITE], 2 * ew) &&
           near(b.est[XGO_BAR_INDEX], 2 * ex), "twice the records, twice "
           "the estimates");
        xgo__bar_output(&b, ds, NULL, 0);
        xgo__bar_estimate_output(&b, 6232);
        ok(b.est[XGO_BAR_CLOSE] < 0 && b.est[XGO_BAR_INDEX] < 0,
           "a dst the caller closes: no close, no index on the bar");
    }
    xgo__rtree_finish(xgo__rtree_take(ds), XG_ECANCEL, NULL, NULL, err,
                      sizeof err);
    GDALClose(ds);

    /* cancelled while the index is built: the run fails, no 1.0 */
    snprintf(out, sizeof out, "%s/cancel.gpkg", dir);
    reset(XGO_BAR_INDEX);
    ds = GDALCreate(GDALGetDriverByName("GPKG"), out, 0, 0, 0, GDT_Unknown,
                    NULL);
    rc = xgo_job_run(&job, ds, "triangles", NULL, &st, err, sizeof err);
    ok(rc == XG_ECANCEL && H.v[H.n - 1] < 1.0 && !strcmp(H.stage[H.n - 1],
                                                        "indexing"),
       "a cancel while indexing: XG_ECANCEL, the bar never at 1.0 (%s)",
       rc ? err : "ok");
}

/* The delaunay cpu engine's progress while its strips run (20000
 * points on 2 threads: several strips): values between 0 and 1, never
 * back; a cancel there (at the first value past 0) is XG_ECANCEL, no
 * triangles. */
struct core_heard {
    double last;
    int n, between, back, cancel;
};
static int core_hear(double f, void *arg)
{
    struct core_heard *h = arg;
    h->back += h->n && f < h->last;
    h->between += f > 0 && f < 1;
    h->last = f;
    h->n++;
    return h->cancel && f > 0 && f < 1;
}

static void strips(void)
{
    struct xg_set pts = {0};
    struct xg_triangles out = {0};
    struct xg_opts opt = {.engine = XG_ENGINE_CPU};
    struct xg_ctx *ctx = xg_ctx_new();
    struct core_heard h;
    uint64_t x = 12345;
    int k, rc;
    for (k = 0; k < 20000; k++) {
        double p[3];
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        p[0] = 500000.0 + (double)(x >> 40) / 16.0;
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        p[1] = 7000000.0 + (double)(x >> 40) / 16.0;
        p[2] = 0;
        xg_set_push_point(&pts, p, k, 0);
    }
    xg_ctx_set_threads(ctx, 2);
    memset(&h, 0, sizeof h);
    xg_ctx_set_progress(ctx, core_hear, &h);
    rc = xg_delaunay(ctx, &pts, &opt, &out, NULL);
    ok(rc == XG_OK && h.between >= 1 && !h.back && h.last == 1.0,
       "delaunay cpu: %d progress values inside the run (the strips), "
       "never back, the last 1", h.between);
    memset(&h, 0, sizeof h);
    h.cancel = 1;
    rc = xg_delaunay(ctx, &pts, &opt, &out, NULL);
    ok(rc == XG_ECANCEL && out.n == 0, "delaunay cpu: a cancel while the "
       "strips run is XG_ECANCEL, no triangles (%d)", rc);
    xg_triangles_free(&out);
    xg_set_free(&pts);
    xg_ctx_free(ctx);
}

int main(void)
{
    const char *srcdir = getenv("top_srcdir");
    char dir[512];
    (void)tap_plan;
    GDALAllRegister();
    CPLSetErrorHandler(CPLQuietErrorHandler);
    snprintf(dir, sizeof dir, "%s/bar_t.XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir))
        tap_skip_all("cannot make a temporary folder");
    alone();
    strips();
    real_run(srcdir ? srcdir : ".", dir);
    {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            printf("# could not remove %s\n", dir);
    }
    tap_done();
    return tap_failed != 0;
}
