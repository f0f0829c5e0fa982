/*
 * main.c -- the command-line tool exactgeo:
 *   exactgeo OPERATION [options] DST A_SRC B_SRC
 * in ogr2ogr's manner, for each operation of the table (exactgeo.h; the
 * help text: help.c).  The command line: args.c; how the tool speaks and
 * ends: tool.c.  The output is staged next to DST and renamed into place
 * on success only (staging.c), or streamed to /vsistdout/ (stream.c);
 * DST and the side files are checked against the inputs and each other
 * first (dstcheck.c), and what DST's format holds (dstprobe.c); signals:
 * interrupt.c.  The work is xgo_job_run (ogr_driver/), or, in regions
 * (--regions) or on the ranks of an MPI job (mpirun, srun), xgp_run
 * (mpi/): then only rank 0 stages and writes the output and speaks; the
 * other ranks wait for its go and run their regions.
 *
 * main's steps: the command line, the run's set-up, DST and the side
 * files checked, the output opened (staged), the run, its outcome
 * committed and reported.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <gdal.h>
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include "args.h"
#include "dstcheck.h"
#include "dstprobe.h"
#include "exactgeo.h"
#include "interrupt.h"
#include "pathmap.h"
#include "sidefile.h"
#include "staging.h"
#include "stream.h"
#include "summary.h"
#include "tool.h"
#include "xgo.h"
#include "xgp_mpi.h"

struct progress {
    int show;
};

/* One run of the tool: what main's steps share. */
struct run {
    struct opts o;
    struct xgo_job job;
    struct xgo_report rep;
    struct xg_stats st;
    struct progress prog;
    struct staging stg;
    struct sidefile stats_f, dump_f;
    struct dstcheck_inputs inputs;
    struct dstcheck_dst target;
    GDALDriverH drv;          /* creates DST; NULL: DST opened to append */
    GDALDriverH out_drv;      /* DST's format */
    GDALDatasetH ds;          /* the output, staged */
    int exists;               /* DST exists already */
    int stream;               /* DST is standard output */
    char layer[256];          /* the output layer's name */
    char err[2048];
};

/* GDAL's progress callback (arg a struct progress): pauses where the
 * tests ask (intr_test_pause), cancels once a signal is caught, and
 * draws GDAL's progress bar when shown. */
static int CPL_STDCALL progress(double f, const char *msg, void *arg)
{
    const struct progress *p = arg;
    intr_test_pause(msg);
    if (intr_caught())
        return FALSE;
    if (p->show)
        return GDALTermProgress(f, msg, NULL);
    return TRUE;
}

/* The driver from -f, else from DST's extension, else GPKG; exits when
 * there is no such driver, it cannot create, or the extension names
 * none. */
static GDALDriverH pick_driver(const char *format, const char *dst)
{
    GDALDriverH drv;
    const char *ext = CPLGetExtension(dst);
    int i, n;
    if (format) {
        drv = GDALGetDriverByName(format);
        if (!drv || !GDALGetMetadataItem(drv, GDAL_DCAP_VECTOR, NULL))
            tool_die("-f %s: no such vector driver in this GDAL", format);
        if (!GDALGetMetadataItem(drv, GDAL_DCAP_CREATE, NULL))
            tool_die("-f %s: this driver cannot create datasets", format);
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
    tool_die("%s: cannot tell the format from the extension '.%s'; use -f",
             dst, ext);
}

/* The run set up from the command line (r->o, r->job parsed): signals
 * caught, DST told standard output or a file, the job's messages,
 * report and progress, the testing hooks; GDAL's drivers and the tool's
 * error handler. */
static void setup(struct run *r)
{
    intr_install();
    if ((r->stream = stream_dst(r->o.dst, r->err, sizeof r->err)) < 0)
        tool_usage_error("%s", r->err);
    if (r->stream && r->o.append)
        tool_usage_error("%s: cannot append to standard output", r->o.dst);
    r->job.quiet = tool_quiet = r->o.quiet;
    r->job.report = &r->rep;
    r->prog.show = r->o.progress && !r->o.quiet;
    r->job.progress = progress;
    r->job.progress_arg = &r->prog;
    {
        /* testing hook: make the write fail after N features */
        const char *fa = getenv("EXACTGEO_TEST_FAIL_AFTER");
        if (fa)
            r->job.fail_after = strtoll(fa, NULL, 10);
        /* and turn a triangle around, for --verify to find */
        r->job.test_break = getenv("EXACTGEO_TEST_BREAK_TRIANGLES") != NULL;
    }
    GDALAllRegister();
    CPLSetErrorHandler(tool_on_cpl_error);
}

/* A rank other than 0 of an MPI job: rank 0's go, its regions, and its
 * outcome; never returns. */
static void other_rank(struct run *r)
{
    int go = 0, rc;
    tool_comm.bcast(&tool_comm, &go, sizeof go);
    if (go)
        tool_leave(go);
    r->prog.show = 0;
    rc = xgp_run(&tool_comm, &r->job, NULL, NULL, NULL, &r->st, r->err,
                 sizeof r->err);
    free(r->rep.per_rank);
    xgo_options_free(&r->job);
    if (intr_caught()) {
        tool_comm.end(&tool_comm);
        intr_exit();
    }
    tool_leave(rc ? 1 : 0);
}

/* DST checked before any work (rank 0): its name, never an input nor a
 * file of an input's dataset; not there unless -overwrite or -append;
 * its driver (r->drv, r->out_drv) and its layer's name (r->layer), a
 * single-file Shapefile's its file's; --tin asked of its format.  A
 * failure ends the process. */
static void check_dst(struct run *r)
{
    struct opts *o = &r->o;
    struct stat sb;
    if (!r->stream && dstcheck_name(o->dst, r->err, sizeof r->err) != 0)
        tool_usage_error("%s", r->err);
    {
        const char *in[2] = {r->job.a.path, r->job.b.path};
        const char *name[2] = {"A", "B"};
        dstcheck_inputs_find(&r->inputs, in, name, r->job.op->ninputs);
    }
    if (!r->stream &&
        (dstcheck_dst_init(&r->target, o->dst, r->err, sizeof r->err) != 0 ||
         dstcheck(&r->target, &r->inputs, r->err, sizeof r->err) != 0))
        tool_die("%s", r->err);

    r->exists = !r->stream && stat(o->dst, &sb) == 0;
    if (r->exists && !o->overwrite && !o->append)
        tool_die("%s: exists; use -overwrite to replace it or -append to "
                 "add to it", o->dst);
    if (o->append && r->exists) {
        r->drv = NULL;
        r->out_drv = GDALIdentifyDriverEx(o->dst, GDAL_OF_VECTOR, NULL,
                                          NULL);
    } else {
        r->out_drv = r->drv = pick_driver(o->format, o->dst);
        if (dstcheck_format(r->drv, r->err, sizeof r->err) != 0)
            tool_usage_error("%s", r->err);
    }
    snprintf(r->layer, sizeof r->layer, "%s",
             o->nln ? o->nln : xgo_default_layer(r->job.op));
    /* a single-file Shapefile names its layer after the file, whatever
     * the name asked for (ogr2ogr does the same): say so */
    if (EQUAL(CPLGetExtension(o->dst), "shp") &&
        (!r->drv || EQUAL(GDALGetDriverShortName(r->drv), "ESRI Shapefile"))) {
        char base[256];
        snprintf(base, sizeof base, "%s", CPLGetBasename(o->dst));
        if (o->nln && strcmp(o->nln, base) != 0 && !o->quiet)
            fprintf(stderr, "exactgeo: warning: -nln %s is ignored: a "
                            "single-file Shapefile names its layer after "
                            "its file ('%s')\n", o->nln, base);
        snprintf(r->layer, sizeof r->layer, "%s", base);
    }
    if (r->job.tin && dstprobe_tin(r->out_drv, o->dst, r->layer, o->dsco,
                                   o->lco, r->err, sizeof r->err) != 0)
        tool_usage_error("%s", r->err);
}

/* The side outputs (--stats, --dump) checked now, not after all the
 * work: never DST, a file of its dataset (asked of its format) or an
 * input, nor each other; then the inputs' and DST's records freed.  A
 * failure ends the process. */
static void check_sides(struct run *r)
{
    struct opts *o = &r->o;
    const char *dump = r->job.dump_path;
    struct dstcheck_dst *dst = r->stream ? NULL : &r->target;
    if (!r->stream && (o->stats || dump))
        dstcheck_dst_beside(&r->target,
                            dstprobe_files(r->out_drv, o->dst, r->layer,
                                           o->dsco, o->lco));
    if (o->stats && (dstcheck_side("--stats", o->stats, dst, &r->inputs,
                                   r->err, sizeof r->err) != 0 ||
                     sidefile_check(&r->stats_f, "--stats", o->stats,
                                    r->err, sizeof r->err) != 0))
        tool_die("%s", r->err);
    if (dump && (dstcheck_side("--dump", dump, dst, &r->inputs, r->err,
                               sizeof r->err) != 0 ||
                 sidefile_check(&r->dump_f, "--dump", dump, r->err,
                                sizeof r->err) != 0))
        tool_die("%s", r->err);
    if (o->stats && dump) {
        char a[PATH_MAX], b[PATH_MAX];
        if (samefile_place(o->stats, a, sizeof a) == 0 &&
            samefile_place(dump, b, sizeof b) == 0 && samefile_same(a, b))
            tool_usage_error("--stats and --dump name the same file '%s'",
                             o->stats);
    }
    dstcheck_dst_free(&r->target);
    dstcheck_inputs_free(&r->inputs);
}

/* The output opened: streamed, or staged beside DST (created, or opened
 * for update to append: of the format -f names, if any), r->ds; a
 * Shapefile folder of one layer appended to without -nln gives its
 * layer.  A failure ends the process, the staging undone. */
static void open_dst(struct run *r)
{
    struct opts *o = &r->o;
    const char *kind;
    if (r->stream) {
        if (stream_driver_ok(GDALGetDriverShortName(r->drv), r->err,
                             sizeof r->err))
            tool_usage_error("%s", r->err);
        if (stream_begin(r->err, sizeof r->err))
            tool_die("%s", r->err);
        staging_direct(&r->stg, o->dst);
    } else {
        staging_sweep(o->dst, o->quiet ? NULL : stderr);
        if (staging_begin(&r->stg, o->dst, r->layer, o->append && r->exists,
                          o->overwrite && r->exists, r->err,
                          sizeof r->err) != 0)
            tool_die("%s", r->err);
        pathmap_add_staging(&tool_names, r->stg.dir, r->stg.path, o->dst);
    }
    CPLErrorReset();
    if (r->drv)
        r->ds = GDALCreate(r->drv, r->stg.path, 0, 0, 0, GDT_Unknown,
                           o->dsco);
    else
        r->ds = GDALOpenEx(r->stg.path, GDAL_OF_VECTOR | GDAL_OF_UPDATE,
                           NULL, NULL, NULL);
    if (!r->ds) {
        staging_abort(&r->stg);
        tool_die("%s: cannot %s: %s", o->dst,
                 r->drv ? "create" : "open for update",
                 *CPLGetLastErrorMsg() ? CPLGetLastErrorMsg()
                                       : "driver error");
    }
    kind = GDALGetDriverShortName(GDALGetDatasetDriver(r->ds));
    if (staging_check_kind(&r->stg, kind, r->err, sizeof r->err) != 0) {
        GDALClose(r->ds);
        staging_abort(&r->stg);
        tool_die("%s", r->err);
    }
    if (!r->drv && o->format && !EQUAL(kind, o->format)) {
        char is[64];
        snprintf(is, sizeof is, "%s", kind);
        GDALClose(r->ds);
        staging_abort(&r->stg);
        tool_die("%s: is %s, not %s; cannot append", o->dst, is, o->format);
    }
    /* appending to a Shapefile folder of one layer, without -nln: into
     * that layer */
    if (!r->drv && !o->nln && EQUAL(kind, "ESRI Shapefile") &&
        GDALDatasetGetLayerCount(r->ds) == 1)
        snprintf(r->layer, sizeof r->layer, "%s",
                 OGR_L_GetName(GDALDatasetGetLayer(r->ds, 0)));
}

/* The work: --dump's file begun, the other ranks given their go, the
 * job run (in regions, or as one) into r->ds, which it closes, and
 * standard output ended.  A signal caught by then ends the process
 * (nothing written, or the stream cut short).  Returns the run's code,
 * its message in r->err. */
static int run_job(struct run *r)
{
    struct xgo_job *job = &r->job;
    int rc;
    if (job->dump_path) {
        if (sidefile_begin(&r->dump_f, r->err, sizeof r->err) != 0) {
            GDALClose(r->ds);
            staging_abort(&r->stg);
            tool_die("%s", r->err);
        }
        pathmap_add(&tool_names, r->dump_f.tmp, r->dump_f.path);
        job->dump_path = r->dump_f.tmp;
    }
    /* the job closes ds (its time and progress are the "close" stage) */
    job->close_dst = 1;
    /* a run in regions keeps its temporary file beside the output, on
     * the disk the user chose for it (unlinked at once) */
    job->spill_dir = *r->stg.dir ? r->stg.dir : NULL;
    if (tool_go_pending) {
        int go = 0;
        tool_go_pending = 0;
        tool_comm.bcast(&tool_comm, &go, sizeof go);
    }
    if (job->regions)
        rc = xgp_run(&tool_comm, job, r->ds, r->layer, r->o.lco, &r->st,
                     r->err, sizeof r->err);
    else
        rc = xgo_job_run(job, r->ds, r->layer, r->o.lco, &r->st, r->err,
                         sizeof r->err);
    if (rc == XG_OK && r->stream && stream_end(r->err, sizeof r->err) != 0)
        rc = XG_EIO;
    /* the last moment a signal stops the run: past it, the run ends */
    if (intr_caught()) {
        staging_abort(&r->stg);
        sidefile_abort(&r->stats_f);
        sidefile_abort(&r->dump_f);
        fprintf(stderr, "exactgeo: interrupted; %s\n",
                r->stream ? "the output on standard output is incomplete"
                          : "nothing written");
        tool_comm.end(&tool_comm);
        intr_exit();
    }
    return rc;
}

/* The run's outcome rc: on success --stats written, DST put in place,
 * then the side files, and the summary printed (unless -q); on failure
 * everything undone and the message printed.  Ends the process. */
static void finish(struct run *r, int rc)
{
    struct opts *o = &r->o;
    if (rc == XG_OK && o->stats) {
        if (sidefile_begin(&r->stats_f, r->err, sizeof r->err) != 0)
            rc = XG_EIO;
        else
            pathmap_add(&tool_names, r->stats_f.tmp, r->stats_f.path);
        if (rc == XG_OK)
            rc = xgo_stats_write_json(r->stats_f.tmp, &r->job, &r->st,
                                      &r->rep, r->err, sizeof r->err);
    }
    if (rc == XG_OK && staging_commit(&r->stg, r->err, sizeof r->err) != 0)
        rc = XG_EIO;
    /* DST is in place: now the side files */
    if (rc == XG_OK &&
        ((o->stats &&
          sidefile_commit(&r->stats_f, r->err, sizeof r->err) != 0) ||
         (r->job.dump_path &&
          sidefile_commit(&r->dump_f, r->err, sizeof r->err) != 0))) {
        sidefile_abort(&r->stats_f);
        sidefile_abort(&r->dump_f);
        tool_die("%s written, but %s", o->dst, r->err);
    }
    if (rc != XG_OK) {
        staging_abort(&r->stg);
        sidefile_abort(&r->stats_f);
        sidefile_abort(&r->dump_f);
        tool_die("%s", r->err);
    }
    if (!o->quiet)
        summary_print(o->dst, &r->job, &r->st, &r->rep);
    CSLDestroy(o->lco);
    CSLDestroy(o->dsco);
    xgo_options_free(&r->job);
    free(r->rep.per_rank);
    tool_leave(0);
}

/* The tool: exit 0 done, 1 failed, 2 a usage error (tool.h). */
int main(int argc, char **argv)
{
    static struct run run;
    struct run *r = &run;

    tool_comm_open(&argc, &argv);
    args_early(argc, argv);
    args_parse(argc, argv, &r->o, &r->job);
    setup(r);
    if (tool_comm.rank > 0)
        other_rank(r);
    tool_go_pending = tool_comm.size > 1;
    check_dst(r);
    check_sides(r);
    open_dst(r);
    finish(r, run_job(r));
    return 0;
}
