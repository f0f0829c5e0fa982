/*
 * main.c -- the command-line tool exactgeo:
 *   exactgeo segtri  [options] DST A_SRC B_SRC
 *   exactgeo redblue [options] DST A_SRC B_SRC
 * in ogr2ogr's manner.  The output is staged next to DST and renamed into
 * place on success only (staging.c), or streamed to /vsistdout/ (stream.c);
 * DST is checked against the inputs first (dstcheck.c); signals:
 * interrupt.c.  The work is xgo_job_run (ogr_driver/).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <gdal.h>
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include "dstcheck.h"
#include "exactgeo.h"
#include "interrupt.h"
#include "pathmap.h"
#include "sidefile.h"
#include "staging.h"
#include "stream.h"
#include "xgo.h"

struct opts {
    const char *op, *dst, *format, *nln, *stats;
    char **lco, **dsco, **acopy, **bcopy;
    int overwrite, append, progress, quiet;
};

static const char usage_text[] =
    "Usage: exactgeo segtri  [options] DST A_SRC B_SRC\n"
    "       exactgeo redblue [options] DST A_SRC B_SRC\n"
    "\n"
    "segtri:  contacts of 3D lines A (drill holes) with 3D surfaces B (meshes)\n"
    "redblue: contacts of 2D segments of A and B (lines, polygon rings)\n"
    "\n"
    "Output:\n"
    "  -f FORMAT        GDAL vector driver (default: from DST's extension, GPKG)\n"
    "  -nln NAME        output layer name (default: contacts; a single-file\n"
    "                   Shapefile is named after its file, as with ogr2ogr)\n"
    "  -lco K=V         layer creation option (repeatable).  GeoPackage builds\n"
    "                   its spatial index when the file is closed: on large\n"
    "                   outputs -lco SPATIAL_INDEX=NO is much faster (no index)\n"
    "  -dsco K=V        dataset creation option (repeatable)\n"
    "  -overwrite       replace an existing DST (the whole dataset; in a\n"
    "                   Shapefile folder, only NAME.* and NAME_lines.*)\n"
    "  -append          add the layer (or its features) to an existing DST\n"
    "  CSV output holds the geometry as WKT (-lco GEOMETRY=... to change it).\n"
    "Inputs:\n"
    "  -al LAYER        layer of A_SRC (needed when it has several)\n"
    "  -bl LAYER        layer of B_SRC\n"
    "  -where SQL       attribute filter on A\n"
    "  -bwhere SQL      attribute filter on B\n"
    "  -spat XMIN YMIN XMAX YMAX   spatial filter on A: only features that\n"
    "                   meet the box, in A's CRS (as ogr2ogr -spat)\n"
    "  -bspat XMIN YMIN XMAX YMAX  spatial filter on B\n"
    "  -acopy F1,F2|all copy these fields of A, as a_F1, a_F2, ...\n"
    "  -bcopy F1,F2|all copy these fields of B, as b_F1, ...\n"
    "  A filter that selects nothing, or an input with no usable segment or\n"
    "  triangle, is an error: an empty output would read as \"no contacts\".\n"
    "Run:\n"
    "  --engine E       auto (default), seq, cpu or gpu\n"
    "  --grid N|NX,NY,NZ  grid cells per axis (default: chosen from the counts)\n"
    "  --threads N      cpu engine threads (default: all processors)\n"
    "  --stats FILE     write the run's figures as JSON\n"
    "  --dump FILE      write both inputs as a core dump (no GDAL needed to read\n"
    "                   it; the benchmarks and the GPU machine use it)\n"
    "  -progress        show progress (100 once DST is closed and complete)\n"
    "  -q               quiet: no summary, no warnings\n"
    "  --help, --version\n"
    "\n"
    "Output fields, one feature per contact, in (A, B) order:\n"
    "  a_fid, a_seg     A's feature id; the segment's index in it, from 0\n"
    "  b_fid, b_tri     B's feature id; the triangle's index in it (redblue:\n"
    "                   b_seg, the segment's)\n"
    "  kind             how they meet (below)\n"
    "  a_*, b_*         the fields copied with -acopy, -bcopy\n"
    "  geometry         a point (proper, touch) or a two-point line (coplanar,\n"
    "                   overlap); 3D for segtri, in the inputs' CRS\n"
    "Kinds:\n"
    "  proper           they cross at one point, inside both\n"
    "  touch            one shared point otherwise (an endpoint, through an\n"
    "                   edge or a vertex, a T-junction)\n"
    "  coplanar         segtri: the segment lies in the triangle's plane and\n"
    "                   shares a stretch of it\n"
    "  overlap          redblue: collinear segments sharing a stretch\n"
    "Exit status: 0 done; 1 error, nothing written; 2 usage error;\n"
    "  130 (SIGINT) or 143 (SIGTERM) interrupted, nothing written.\n"
    "Not ogr2ogr: -sql, -t_srs, -clipsrc, -select, ... are refused with the\n"
    "alternative.  The same job as a read-only GDAL dataset (EXACTGEO driver):\n"
    "  ogrinfo -al -so \"EXACTGEO:op=segtri;a=A_SRC;b=B_SRC\"\n"
    "(see README.md, \"Using exactgeo from GDAL\").\n";

/* ogr2ogr options people type, and what to do instead. */
static const struct {
    const char *opt, *instead;
} refused[] = {
    {"-sql", "use -where/-bwhere for attribute filters, or ogr2ogr -sql "
             "first"},
    {"-dialect", "use -where/-bwhere for attribute filters, or ogr2ogr "
                 "-sql first"},
    {"-t_srs", "reproject the input with ogr2ogr -t_srs first (exactgeo "
               "never reprojects)"},
    {"-s_srs", "assign or reproject with ogr2ogr first (exactgeo never "
               "reprojects)"},
    {"-a_srs", "assign a CRS with ogr2ogr -a_srs first (the output has the "
               "inputs' CRS)"},
    {"-ct", "reproject with ogr2ogr first (exactgeo never reprojects)"},
    {"-spat_srs", "give -spat/-bspat in the inputs' CRS"},
    {"-clipsrc", "use -spat/-bspat for a box, or clip with ogr2ogr first"},
    {"-clipdst", "use -spat/-bspat for a box, or clip with ogr2ogr first"},
    {"-select", "use -acopy/-bcopy to choose the fields copied"},
    {"-nlt", "the output holds points, and lines for shared stretches"},
    {"-update", "use -append"},
    {"-skipfailures", "fix the feature named in the error, or leave it out "
                      "with -where"},
    {"-explodecollections", "multi-part inputs are read part by part "
                            "already (a_seg counts over the parts)"},
    {"-preserve_fid", "a_fid and b_fid hold the inputs' feature ids"},
    {"-geomfield", "the first geometry field of each input is used"},
};

static void die(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

/* Hidden working names (staging folder, temporary side files) and the
 * user's names for them: every message goes through it. */
static struct pathmap names;

static void die(const char *fmt, ...)
{
    char msg[4096], shown[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pathmap_apply(&names, msg, shown, sizeof shown);
    fprintf(stderr, "exactgeo: %s\n", shown);
    exit(1);
}

static void usage_error(const char *fmt, const char *arg)
{
    fputs("exactgeo: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'exactgeo --help'.\n", stderr);
    exit(2);
}

static int quiet_flag;

/* Warnings printed (unless -q), and debug messages where CPL_DEBUG asks
 * for them; failures are reported by our own message, which includes
 * GDAL's where it helps. */
static void CPL_STDCALL on_cpl_error(CPLErr cls, CPLErrorNum no,
                                     const char *msg)
{
    char shown[4096];
    (void)no;
    if (cls != CE_Debug && (cls != CE_Warning || quiet_flag))
        return;
    pathmap_apply(&names, msg, shown, sizeof shown);
    if (cls == CE_Debug)
        fprintf(stderr, "%s\n", shown);
    else
        fprintf(stderr, "exactgeo: warning: %s\n", shown);
}

struct progress {
    int show;
};

static int CPL_STDCALL progress(double f, const char *msg, void *arg)
{
    const struct progress *p = arg;
    intr_test_pause();
    if (intr_caught())
        return FALSE;
    if (p->show)
        return GDALTermProgress(f, msg, NULL);
    return TRUE;
}

static long parse_long(const char *opt, const char *s, long lo, long hi)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s: '%%s' is not an integer in %ld..%ld",
                 opt, lo, hi);
        usage_error(buf, s);
    }
    return v;
}

static void parse_grid(const char *s, int grid[3])
{
    char **t = CSLTokenizeString2(s, ",", 0);
    int n = CSLCount(t), k;
    if (n != 1 && n != 3)
        usage_error("--grid: '%s' is not N or NX,NY,NZ", s);
    for (k = 0; k < 3; k++)
        grid[k] = (int)parse_long("--grid", t[n == 1 ? 0 : k], 1, 1 << 20);
    CSLDestroy(t);
}

/* -spat / -bspat: four numbers after argv[*i]. */
static void parse_box(int argc, char **argv, int *i, struct xgo_input *in)
{
    const char *opt = argv[*i];
    int k;
    if (*i + 4 >= argc)
        usage_error("%s needs four values: XMIN YMIN XMAX YMAX", opt);
    for (k = 0; k < 4; k++) {
        const char *v = argv[++*i];
        char *end;
        in->spat[k] = strtod(v, &end);
        if (!*v || *end || !isfinite(in->spat[k])) {
            char buf[256];
            snprintf(buf, sizeof buf, "%s: '%%s' is not a number", opt);
            usage_error(buf, v);
        }
    }
    if (!(in->spat[0] <= in->spat[2] && in->spat[1] <= in->spat[3]))
        usage_error("%s: want XMIN YMIN XMAX YMAX, with XMIN <= XMAX and "
                    "YMIN <= YMAX", opt);
    in->spat_set = 1;
}

static void parse_copy(const char *s, struct xgo_input *in, char ***keep)
{
    if (strcmp(s, "all") == 0) {
        in->copy = XGO_COPY_ALL;
        return;
    }
    *keep = CSLTokenizeString2(s, ",", CSLT_STRIPLEADSPACES |
                                            CSLT_STRIPENDSPACES);
    if (CSLCount(*keep) == 0)
        usage_error("empty field list '%s'", s);
    in->copy = XGO_COPY_LIST;
    in->fields = (const char *const *)*keep;
}

/* The driver from -f, else from DST's extension, else GPKG. */
static GDALDriverH pick_driver(const char *format, const char *dst)
{
    GDALDriverH drv;
    const char *ext = CPLGetExtension(dst);
    int i, n;
    if (format) {
        drv = GDALGetDriverByName(format);
        if (!drv || !GDALGetMetadataItem(drv, GDAL_DCAP_VECTOR, NULL))
            die("-f %s: no such vector driver in this GDAL", format);
        if (!GDALGetMetadataItem(drv, GDAL_DCAP_CREATE, NULL))
            die("-f %s: this driver cannot create datasets", format);
        return drv;
    }
    if (!*ext)
        return GDALGetDriverByName("GPKG");
    n = GDALGetDriverCount();
    for (i = 0; i < n; i++) {
        const char *exts;
        char **list;
        int hit;
        drv = GDALGetDriver(i);
        exts = GDALGetMetadataItem(drv, GDAL_DMD_EXTENSIONS, NULL);
        if (!exts || !GDALGetMetadataItem(drv, GDAL_DCAP_VECTOR, NULL) ||
            !GDALGetMetadataItem(drv, GDAL_DCAP_CREATE, NULL))
            continue;
        list = CSLTokenizeString2(exts, " ", 0);
        hit = CSLFindString(list, ext) >= 0;
        CSLDestroy(list);
        if (hit)
            return drv;
    }
    die("%s: cannot tell the format from the extension '.%s'; use -f", dst,
        ext);
}

static void summary(const struct opts *o, const struct xgo_job *job,
                    const struct xg_stats *st, const struct xgo_report *rep)
{
    int dim = strcmp(o->op, "segtri") == 0 ? 3 : 2, k;
    uint64_t total = 0;
    double core = 0;
    for (k = 0; k < XG_KIND_COUNT; k++)
        total += st->contacts[k];
    for (k = 0; k < XG_STAGE_COUNT; k++)
        if (k != XG_STAGE_EXACT)
            core += st->seconds[k];
    printf("exactgeo %s\n", o->op);
    printf("  A: %s, layer '%s': %llu features, %llu segments "
           "(%llu of zero length, skipped)\n", job->a.path, rep->a_layer,
           (unsigned long long)rep->a_features,
           (unsigned long long)st->a_count,
           (unsigned long long)st->a_skipped);
    if (dim == 3)
        printf("  B: %s, layer '%s': %llu features, %llu triangles "
               "(%llu degenerate, skipped); %llu polygons triangulated, "
               "%llu non-planar and %llu degenerate polygons skipped\n",
               job->b.path, rep->b_layer,
               (unsigned long long)rep->b_features,
               (unsigned long long)st->b_count,
               (unsigned long long)st->b_skipped,
               (unsigned long long)rep->triangulated,
               (unsigned long long)rep->nonplanar,
               (unsigned long long)rep->bad_polygons);
    else
        printf("  B: %s, layer '%s': %llu features, %llu segments "
               "(%llu of zero length, skipped)\n", job->b.path, rep->b_layer,
               (unsigned long long)rep->b_features,
               (unsigned long long)st->b_count,
               (unsigned long long)st->b_skipped);
    if (rep->null_geoms)
        printf("  features without geometry, skipped: %llu\n",
               (unsigned long long)rep->null_geoms);
    printf("  engine %s, %d thread%s, grid %dx%dx%d\n",
           xg_engine_name(st->engine), st->threads, st->threads == 1 ? "" : "s",
           st->grid[0], st->grid[1], st->grid[2]);
    printf("  contacts: %llu (%llu proper, %llu touch, %llu %s)\n",
           (unsigned long long)total,
           (unsigned long long)st->contacts[XG_KIND_PROPER],
           (unsigned long long)st->contacts[XG_KIND_TOUCH],
           (unsigned long long)st->contacts[XG_KIND_OVERLAP],
           xg_kind_name(XG_KIND_OVERLAP, dim));
    printf("  seconds: read %.3f, compute %.3f, write %.3f, close %.3f\n",
           rep->read_seconds, core, rep->write_seconds, rep->close_seconds);
    printf("  output: %s, layer '%s'", o->dst, rep->layer);
    if (rep->lines_layer[0])
        printf(" and '%s' (lines)", rep->lines_layer);
    printf(", %llu features\n", (unsigned long long)rep->written);
}

int main(int argc, char **argv)
{
    struct opts o;
    struct xgo_job job;
    struct xgo_report rep;
    struct xg_stats st;
    struct progress prog = {0};
    struct staging stg;
    struct sidefile stats_f, dump_f;
    const char *pos[3];
    char **keep_a = NULL, **keep_b = NULL, err[2048];
    GDALDriverH drv;
    GDALDatasetH ds;
    struct stat sb;
    int i, npos = 0, rc, exists, stream;
    char layer[256];

    memset(&o, 0, sizeof o);
    memset(&job, 0, sizeof job);
    memset(&stats_f, 0, sizeof stats_f);
    memset(&dump_f, 0, sizeof dump_f);
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--version") == 0) {
            printf("exactgeo %s (GDAL %s)\n", XG_VERSION,
                   GDALVersionInfo("RELEASE_NAME"));
            return 0;
        }
    }
    if (argc < 2)
        usage_error("%s", "no operation given (segtri or redblue)");
    o.op = argv[1];
    if (strcmp(o.op, "segtri") && strcmp(o.op, "redblue"))
        usage_error("unknown operation '%s' (segtri or redblue)", o.op);
    job.op = o.op;
    job.a.layer_opt = "-al";
    job.b.layer_opt = "-bl";

    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
#define VALUE() (i + 1 < argc ? argv[++i] : (usage_error("%s needs a value", a), ""))
        if (a[0] != '-' || a[1] == '\0') {
            if (npos == 3)
                usage_error("unexpected argument '%s'", a);
            pos[npos++] = a;
        } else if (!strcmp(a, "-f")) {
            o.format = VALUE();
        } else if (!strcmp(a, "-nln")) {
            o.nln = VALUE();
        } else if (!strcmp(a, "-lco")) {
            o.lco = CSLAddString(o.lco, VALUE());
        } else if (!strcmp(a, "-dsco")) {
            o.dsco = CSLAddString(o.dsco, VALUE());
        } else if (!strcmp(a, "-overwrite")) {
            o.overwrite = 1;
        } else if (!strcmp(a, "-append")) {
            o.append = 1;
        } else if (!strcmp(a, "-al")) {
            job.a.layer = VALUE();
        } else if (!strcmp(a, "-bl")) {
            job.b.layer = VALUE();
        } else if (!strcmp(a, "-where")) {
            job.a.where = VALUE();
        } else if (!strcmp(a, "-bwhere")) {
            job.b.where = VALUE();
        } else if (!strcmp(a, "-spat")) {
            parse_box(argc, argv, &i, &job.a);
        } else if (!strcmp(a, "-bspat")) {
            parse_box(argc, argv, &i, &job.b);
        } else if (!strcmp(a, "-acopy")) {
            parse_copy(VALUE(), &job.a, &keep_a);
        } else if (!strcmp(a, "-bcopy")) {
            parse_copy(VALUE(), &job.b, &keep_b);
        } else if (!strcmp(a, "-progress")) {
            o.progress = 1;
        } else if (!strcmp(a, "-q") || !strcmp(a, "-quiet")) {
            o.quiet = 1;
        } else if (!strcmp(a, "--engine")) {
            const char *v = VALUE();
            if ((job.opts.engine = xg_engine_parse(v)) < 0)
                usage_error("--engine: '%s' is not auto, seq, cpu or gpu", v);
        } else if (!strcmp(a, "--grid")) {
            parse_grid(VALUE(), job.opts.grid);
        } else if (!strcmp(a, "--threads")) {
            job.threads = (int)parse_long("--threads", VALUE(), 0, 1024);
        } else if (!strcmp(a, "--stats")) {
            o.stats = VALUE();
        } else if (!strcmp(a, "--dump")) {
            job.dump_path = VALUE();
        } else {
            size_t k;
            for (k = 0; k < sizeof refused / sizeof *refused; k++)
                if (!strcmp(a, refused[k].opt)) {
                    fprintf(stderr, "exactgeo: %s is not supported: %s\n"
                                    "Try 'exactgeo --help'.\n",
                            a, refused[k].instead);
                    exit(2);
                }
            usage_error("unknown option '%s'", a);
        }
#undef VALUE
    }
    if (npos != 3)
        usage_error("%s", "expected DST A_SRC B_SRC");
    if (o.overwrite && o.append)
        usage_error("%s", "-overwrite and -append exclude each other");
    o.dst = pos[0];
    job.a.path = pos[1];
    job.b.path = pos[2];
    intr_install();
    if ((stream = stream_dst(o.dst, err, sizeof err)) < 0)
        usage_error("%s", err);
    if (stream && o.append)
        usage_error("%s: cannot append to standard output", o.dst);
    job.quiet = quiet_flag = o.quiet;
    job.report = &rep;
    prog.show = o.progress && !o.quiet;
    job.progress = progress;
    job.progress_arg = &prog;
    {
        /* testing hook: make the write fail after N features */
        const char *fa = getenv("EXACTGEO_TEST_FAIL_AFTER");
        if (fa)
            job.fail_after = strtoll(fa, NULL, 10);
    }

    GDALAllRegister();
    CPLSetErrorHandler(on_cpl_error);
    if (!stream) {
        const char *in[2] = {job.a.path, job.b.path}, *name[2] = {"A", "B"};
        if (dstcheck(o.dst, in, name, 2, err, sizeof err) != 0)
            die("%s", err);
    }

    exists = !stream && stat(o.dst, &sb) == 0;
    if (exists && !o.overwrite && !o.append)
        die("%s: exists; use -overwrite to replace it or -append to add to it",
            o.dst);
    if (o.append && exists) {
        drv = NULL;
    } else {
        drv = pick_driver(o.format, o.dst);
    }
    snprintf(layer, sizeof layer, "%s", o.nln ? o.nln : "contacts");
    /* a single-file Shapefile names its layer after the file, whatever
     * the name asked for (ogr2ogr does the same): say so */
    if (EQUAL(CPLGetExtension(o.dst), "shp") &&
        (!drv || EQUAL(GDALGetDriverShortName(drv), "ESRI Shapefile"))) {
        char base[256];
        snprintf(base, sizeof base, "%s", CPLGetBasename(o.dst));
        if (o.nln && strcmp(o.nln, base) != 0 && !o.quiet)
            fprintf(stderr, "exactgeo: warning: -nln %s is ignored: a "
                            "single-file Shapefile names its layer after "
                            "its file ('%s')\n", o.nln, base);
        snprintf(layer, sizeof layer, "%s", base);
    }
    /* side outputs: a bad path must fail now, not after all the work */
    {
        const char *protect[] = {job.a.path, job.b.path, o.dst, NULL};
        if (o.stats && sidefile_check(&stats_f, "--stats", o.stats, protect,
                                      err, sizeof err) != 0)
            die("%s", err);
        if (job.dump_path && sidefile_check(&dump_f, "--dump", job.dump_path,
                                            protect, err, sizeof err) != 0)
            die("%s", err);
        if (o.stats && job.dump_path && strcmp(o.stats, job.dump_path) == 0)
            usage_error("--stats and --dump name the same file '%s'",
                        o.stats);
    }

    if (stream) {
        if (stream_driver_ok(GDALGetDriverShortName(drv), err, sizeof err))
            usage_error("%s", err);
        if (stream_begin(err, sizeof err))
            die("%s", err);
        staging_direct(&stg, o.dst);
    } else {
        staging_sweep(o.dst, o.quiet ? NULL : stderr);
        if (staging_begin(&stg, o.dst, layer, o.append && exists,
                          o.overwrite && exists, err, sizeof err) != 0)
            die("%s", err);
        pathmap_add_staging(&names, stg.dir, stg.path, o.dst);
    }
    CPLErrorReset();
    if (drv)
        ds = GDALCreate(drv, stg.path, 0, 0, 0, GDT_Unknown, o.dsco);
    else
        ds = GDALOpenEx(stg.path, GDAL_OF_VECTOR | GDAL_OF_UPDATE, NULL,
                        NULL, NULL);
    if (!ds) {
        staging_abort(&stg);
        die("%s: cannot %s: %s", o.dst, drv ? "create" : "open for update",
            *CPLGetLastErrorMsg() ? CPLGetLastErrorMsg() : "driver error");
    }
    if (!drv && o.format &&
        !EQUAL(GDALGetDriverShortName(GDALGetDatasetDriver(ds)), o.format)) {
        char is[64];
        snprintf(is, sizeof is, "%s",
                 GDALGetDriverShortName(GDALGetDatasetDriver(ds)));
        GDALClose(ds);
        staging_abort(&stg);
        die("%s: is %s, not %s; cannot append", o.dst, is, o.format);
    }
    if (!drv && !o.nln && strcmp(o.op, "segtri") == 0 &&
        EQUAL(GDALGetDriverShortName(GDALGetDatasetDriver(ds)),
              "ESRI Shapefile") &&
        GDALDatasetGetLayerCount(ds) == 1)
        snprintf(layer, sizeof layer, "%s",
                 OGR_L_GetName(GDALDatasetGetLayer(ds, 0)));

    if (job.dump_path) {
        if (sidefile_begin(&dump_f, err, sizeof err) != 0) {
            GDALClose(ds);
            staging_abort(&stg);
            die("%s", err);
        }
        pathmap_add(&names, dump_f.tmp, dump_f.path);
        job.dump_path = dump_f.tmp;
    }
    /* the job closes ds (its time and progress are the "close" stage) */
    job.close_dst = 1;
    rc = xgo_job_run(&job, ds, layer, o.lco, &st, err, sizeof err);
    if (rc == XG_OK && stream && stream_end(err, sizeof err) != 0)
        rc = XG_EIO;
    /* the last moment a signal stops the run: past it, the run ends */
    if (intr_caught()) {
        staging_abort(&stg);
        sidefile_abort(&stats_f);
        sidefile_abort(&dump_f);
        fprintf(stderr, "exactgeo: interrupted; %s\n",
                stream ? "the output on standard output is incomplete"
                       : "nothing written");
        intr_exit();
    }
    if (rc == XG_OK && o.stats) {
        if (sidefile_begin(&stats_f, err, sizeof err) != 0)
            rc = XG_EIO;
        else
            pathmap_add(&names, stats_f.tmp, stats_f.path);
        if (rc == XG_OK)
            rc = xgo_stats_write_json(stats_f.tmp, &job, &st, &rep, err,
                                      sizeof err);
    }
    if (rc == XG_OK && staging_commit(&stg, err, sizeof err) != 0)
        rc = XG_EIO;
    /* DST is in place: now the side files */
    if (rc == XG_OK && ((o.stats && sidefile_commit(&stats_f, err,
                                                    sizeof err) != 0) ||
                        (job.dump_path && sidefile_commit(&dump_f, err,
                                                          sizeof err) != 0))) {
        sidefile_abort(&stats_f);
        sidefile_abort(&dump_f);
        die("%s written, but %s", o.dst, err);
    }
    if (rc != XG_OK) {
        staging_abort(&stg);
        sidefile_abort(&stats_f);
        sidefile_abort(&dump_f);
        die("%s", err);
    }
    if (!o.quiet)
        summary(&o, &job, &st, &rep);
    CSLDestroy(o.lco);
    CSLDestroy(o.dsco);
    CSLDestroy(keep_a);
    CSLDestroy(keep_b);
    return 0;
}
