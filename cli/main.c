/*
 * main.c -- the command-line tool exactgeo:
 *   exactgeo OPERATION [options] DST A_SRC B_SRC
 * in ogr2ogr's manner, for each operation of the table (exactgeo.h; the
 * help text: help.c).  Run options go through the one parser the
 * EXACTGEO: connection strings use (xgo_option_set).  The output is staged next to DST and renamed into
 * place on success only (staging.c), or streamed to /vsistdout/ (stream.c);
 * DST and the side files are checked against the inputs and each other
 * first (dstcheck.c), and what DST's format holds (dstprobe.c); signals:
 * interrupt.c.  The work is xgo_job_run (ogr_driver/), or, in regions
 * (--regions) or on the ranks of an MPI job (mpirun, srun), xgp_run
 * (mpi/): then only rank 0 stages and writes the output and speaks; the
 * other ranks wait for its go and run their regions.
 */
#define _POSIX_C_SOURCE 200809L
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
#include "dstprobe.h"
#include "exactgeo.h"
#include "help.h"
#include "interrupt.h"
#include "pathmap.h"
#include "sidefile.h"
#include "staging.h"
#include "stream.h"
#include "summary.h"
#include "xgo.h"
#include "xgp.h"

struct opts {
    const char *dst, *format, *nln, *stats;
    char **lco, **dsco;
    int overwrite, append, progress, quiet;
};

/* The tool's run options and their keys in the one parser; a flag (the
 * option alone, no value) sets its key to flag. */
static const struct {
    const char *opt, *key, *flag;
} run_opts[] = {
    {"-al", "al", NULL},         {"-bl", "bl", NULL},
    {"-where", "awhere", NULL},  {"-bwhere", "bwhere", NULL},
    {"-acopy", "acopy", NULL},   {"-bcopy", "bcopy", NULL},
    {"--engine", "engine", NULL}, {"--grid", "grid", NULL},
    {"--threads", "threads", NULL}, {"--gpus", "gpus", NULL},
    {"-spat", "aspat", NULL},
    {"-bspat", "bspat", NULL},   {"-outside", "outside", "yes"},
    {"-skip-invalid", "skip_invalid", "yes"}, {"--verify", "verify", "yes"},
    {"--tin", "tin", "yes"},     {"--regions", "regions", NULL},
    {"--max-memory", "max_memory", NULL},
    {"-oo", "oo", NULL},         {"-aoo", "aoo", NULL},
    {"-boo", "boo", NULL},       {"-bgroup", "bgroup", NULL},
    {"--solids-checked", "solids_checked", "yes"},
};

static void die(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

/* Hidden working names (staging folder, temporary side files) and the
 * user's names for them: every message goes through it. */
static struct pathmap names;

/* The processes of this run: this one alone, or the ranks of an MPI job.
 * Rank 0 alone prints messages (the others fail alike, or learn of its
 * failure), so that a failed run says one thing once. */
static struct xgp_comm comm;
/* Rank 0 of several owes the others its go (0) or its exit code: they
 * wait for it while it checks DST and stages the output. */
static int go_pending;

static void leave(int code)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

/* Ends this process with code, after letting the other ranks go. */
static void leave(int code)
{
    if (go_pending) {
        int go = code;
        go_pending = 0;
        comm.bcast(&comm, &go, sizeof go);
    }
    comm.end(&comm);
    exit(code);
}

static void die(const char *fmt, ...)
{
    char msg[4096], shown[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pathmap_apply(&names, msg, shown, sizeof shown);
    if (comm.rank == 0)
        fprintf(stderr, "exactgeo: %s\n", shown);
    leave(1);
}

/* The operation, once known: usage errors point to its own --help. */
static const struct xg_op *help_op;

static void try_help(void)
{
    fprintf(stderr, "Try 'exactgeo %s%s--help'.\n",
            help_op ? help_op->name : "", help_op ? " " : "");
}

static void usage_error(const char *fmt, const char *arg)
{
    if (comm.rank == 0) {
        fputs("exactgeo: ", stderr);
        fprintf(stderr, fmt, arg);
        fputc('\n', stderr);
        try_help();
    }
    leave(2);
}

/* comm: the MPI job when an MPI launcher started this process, else this
 * process alone; exits when that cannot be. */
static void comm_open(int *argc, char ***argv)
{
    char err[512];
    int n = xgp_launched();
    xgp_comm_local(&comm);
    if (n == 0)
        return;
    if (xgp_comm_mpi(&comm, argc, argv, err, sizeof err) != XG_OK) {
        if (n == 1)           /* one process: as if started alone */
            return;
        fprintf(stderr, "exactgeo: %s\n", err);
        exit(1);
    }
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

/* Sets run option argv[*i] (a key of run_opts) from its value: flag when
 * not NULL, else the next argument (-spat, -bspat: the next four); exits
 * on a usage error. */
static void run_option(int argc, char **argv, int *i, const char *key,
                       const char *flag, struct xgo_job *job)
{
    const char *opt = argv[*i];
    char box[512], msg[1024], err[512];
    const char *value;
    if (flag) {
        value = flag;
    } else if (strcmp(key, "aspat") == 0 || strcmp(key, "bspat") == 0) {
        if (*i + 4 >= argc)
            usage_error("%s needs four values: XMIN YMIN XMAX YMAX", opt);
        snprintf(box, sizeof box, "%s %s %s %s", argv[*i + 1],
                 argv[*i + 2], argv[*i + 3], argv[*i + 4]);
        *i += 4;
        value = box;
    } else {
        if (*i + 1 >= argc)
            usage_error("%s needs a value", opt);
        value = argv[++*i];
    }
    if (xgo_option_set(job, key, value, err, sizeof err) != XG_OK) {
        snprintf(msg, sizeof msg, "%s: %s", opt, err);
        usage_error("%s", msg);
    }
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

int main(int argc, char **argv)
{
    struct opts o;
    struct xgo_job job;
    struct xgo_report rep;
    struct xg_stats st;
    struct progress prog = {0};
    struct staging stg;
    struct sidefile stats_f, dump_f;
    struct dstcheck_inputs inputs;
    struct dstcheck_dst target;
    const char *pos[3] = {NULL, NULL, NULL};
    char err[2048];
    GDALDriverH drv, out_drv;
    GDALDatasetH ds;
    struct stat sb;
    int i, npos = 0, rc, exists, stream;
    char layer[256];

    memset(&o, 0, sizeof o);
    memset(&job, 0, sizeof job);
    memset(&stats_f, 0, sizeof stats_f);
    memset(&dump_f, 0, sizeof dump_f);
    memset(&rep, 0, sizeof rep);
    memset(&target, 0, sizeof target);
    comm_open(&argc, &argv);
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            /* exactgeo OP --help: that operation's */
            const struct xg_op *op = xg_op_find(argv[1]);
            if (comm.rank == 0 && op)
                help_print_op(stdout, op);
            else if (comm.rank == 0)
                help_print(stdout);
            leave(0);
        }
        if (strcmp(argv[i], "--operations") == 0)
            leave(comm.rank != 0 || xgo_ops_write_json(stdout) == XG_OK
                      ? 0 : 1);
        if (strcmp(argv[i], "--version") == 0) {
            if (comm.rank == 0)
                printf("exactgeo %s (GDAL %s)\n", XG_VERSION,
                       GDALVersionInfo("RELEASE_NAME"));
            leave(0);
        }
    }
    if (argc < 2) {
        xgo_op_list(err, sizeof err);
        usage_error("no operation given (%s)", err);
    }
    if (xgo_option_set(&job, "op", argv[1], err, sizeof err) != XG_OK)
        usage_error("%s", err);
    help_op = job.op;
    job.a.layer_opt = "-al";
    job.b.layer_opt = "-bl";

    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
#define VALUE() (i + 1 < argc ? argv[++i] : (usage_error("%s needs a value", a), ""))
        if (a[0] != '-' || a[1] == '\0') {
            if (npos == 1 + job.op->ninputs)
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
        } else if (!strcmp(a, "-progress")) {
            o.progress = 1;
        } else if (!strcmp(a, "-q") || !strcmp(a, "-quiet")) {
            o.quiet = 1;
        } else if (!strcmp(a, "--stats")) {
            o.stats = VALUE();
        } else if (!strcmp(a, "--dump")) {
            job.dump_path = VALUE();
        } else {
            char instead[512];
            int refused = help_refused(job.op, a, instead, sizeof instead);
            size_t k;
            for (k = 0; k < sizeof run_opts / sizeof *run_opts; k++)
                if (!strcmp(a, run_opts[k].opt))
                    break;
            if (k < sizeof run_opts / sizeof *run_opts) {
                run_option(argc, argv, &i, run_opts[k].key,
                           run_opts[k].flag, &job);
                continue;
            }
            if (refused) {
                if (comm.rank == 0) {
                    fprintf(stderr, "exactgeo: %s is not supported: %s\n", a,
                            instead);
                    try_help();
                }
                leave(2);
            }
            usage_error("unknown option '%s'", a);
        }
#undef VALUE
    }
    if (npos != 1 + job.op->ninputs) {
        char args[64];
        help_args(job.op, args, sizeof args);
        usage_error("expected %s", args);
    }
    if (o.overwrite && o.append)
        usage_error("%s", "-overwrite and -append exclude each other");
    /* the ranks of an MPI job run in regions, one at least each */
    if (comm.size > 1 && !job.regions) {
        char n[32];
        snprintf(n, sizeof n, "%d", comm.size);
        if (xgo_option_set(&job, "regions", n, err, sizeof err) != XG_OK) {
            char msg[4096];
            snprintf(msg, sizeof msg, "%d MPI ranks: %s", comm.size, err);
            usage_error("%s", msg);
        }
    }
    if (job.regions && job.regions < comm.size) {
        char msg[256];
        snprintf(msg, sizeof msg, "--regions %d with %d MPI ranks: each "
                 "rank needs one region at least", job.regions, comm.size);
        usage_error("%s", msg);
    }
    if (job.regions && job.dump_path)
        usage_error("%s", "--dump writes the inputs whole: not in a run in "
                    "regions (--regions, mpirun)");
    o.dst = pos[0];
    job.a.path = pos[1];
    job.b.path = pos[2];          /* NULL for an operation of one input */
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
        /* and turn a triangle around, for --verify to find */
        job.test_break = getenv("EXACTGEO_TEST_BREAK_TRIANGLES") != NULL;
    }

    GDALAllRegister();
    CPLSetErrorHandler(on_cpl_error);
    if (comm.rank > 0) {
        /* the other ranks: rank 0's go, the regions, and its outcome */
        int go = 0;
        comm.bcast(&comm, &go, sizeof go);
        if (go)
            leave(go);
        prog.show = 0;
        rc = xgp_run(&comm, &job, NULL, NULL, NULL, &st, err, sizeof err);
        free(rep.per_rank);
        xgo_options_free(&job);
        if (intr_caught()) {
            comm.end(&comm);
            intr_exit();
        }
        leave(rc ? 1 : 0);
    }
    go_pending = comm.size > 1;
    if (!stream && dstcheck_name(o.dst, err, sizeof err) != 0)
        usage_error("%s", err);
    {
        const char *in[2] = {job.a.path, job.b.path}, *name[2] = {"A", "B"};
        dstcheck_inputs_find(&inputs, in, name, job.op->ninputs);
    }
    if (!stream && (dstcheck_dst_init(&target, o.dst, err, sizeof err) != 0 ||
                    dstcheck(&target, &inputs, err, sizeof err) != 0))
        die("%s", err);

    exists = !stream && stat(o.dst, &sb) == 0;
    if (exists && !o.overwrite && !o.append)
        die("%s: exists; use -overwrite to replace it or -append to add to it",
            o.dst);
    if (o.append && exists) {
        drv = NULL;
        out_drv = GDALIdentifyDriverEx(o.dst, GDAL_OF_VECTOR, NULL, NULL);
    } else {
        out_drv = drv = pick_driver(o.format, o.dst);
        if (dstcheck_format(drv, err, sizeof err) != 0)
            usage_error("%s", err);
    }
    snprintf(layer, sizeof layer, "%s",
             o.nln ? o.nln : xgo_default_layer(job.op));
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
    if (job.tin && dstprobe_tin(out_drv, o.dst, layer, o.dsco, o.lco, err,
                                sizeof err) != 0)
        usage_error("%s", err);
    /* side outputs: a bad path must fail now, not after all the work;
     * never DST, a file of its dataset (asked of its format) or an input */
    if (!stream && (o.stats || job.dump_path))
        dstcheck_dst_beside(&target, dstprobe_files(out_drv, o.dst, layer,
                                                    o.dsco, o.lco));
    if (o.stats && (dstcheck_side("--stats", o.stats, stream ? NULL : &target,
                                  &inputs, err, sizeof err) != 0 ||
                    sidefile_check(&stats_f, "--stats", o.stats, err,
                                   sizeof err) != 0))
        die("%s", err);
    if (job.dump_path &&
        (dstcheck_side("--dump", job.dump_path, stream ? NULL : &target,
                       &inputs, err, sizeof err) != 0 ||
         sidefile_check(&dump_f, "--dump", job.dump_path, err,
                        sizeof err) != 0))
        die("%s", err);
    if (o.stats && job.dump_path) {
        char a[PATH_MAX], b[PATH_MAX];
        if (samefile_place(o.stats, a, sizeof a) == 0 &&
            samefile_place(job.dump_path, b, sizeof b) == 0 &&
            samefile_same(a, b))
            usage_error("--stats and --dump name the same file '%s'",
                        o.stats);
    }
    dstcheck_dst_free(&target);
    dstcheck_inputs_free(&inputs);

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
    if (staging_check_kind(&stg, GDALGetDriverShortName(
                                     GDALGetDatasetDriver(ds)),
                           err, sizeof err) != 0) {
        GDALClose(ds);
        staging_abort(&stg);
        die("%s", err);
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
    /* appending to a Shapefile folder of one layer, without -nln: into
     * that layer */
    if (!drv && !o.nln &&
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
    if (go_pending) {
        int go = 0;
        go_pending = 0;
        comm.bcast(&comm, &go, sizeof go);
    }
    if (job.regions)
        rc = xgp_run(&comm, &job, ds, layer, o.lco, &st, err, sizeof err);
    else
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
        comm.end(&comm);
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
        summary_print(o.dst, &job, &st, &rep);
    CSLDestroy(o.lco);
    CSLDestroy(o.dsco);
    xgo_options_free(&job);
    free(rep.per_rank);
    leave(0);
}
