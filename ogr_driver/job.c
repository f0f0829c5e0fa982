/*
 * job.c -- one run: read A and B (or A alone, for an operation of one
 * input), run the core, write the contacts (or the triangles).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cpl_error.h>
#include "xgo_internal.h"


/* Slice k of the job's progress bar (read A, read B, core, write, then
 * close when the job closes dst), as a scaled progress.  GDAL gives no
 * progress while a dataset closes, so the close slice moves from its start
 * straight to 1.0 once the dataset is closed: a bar at 100 means the
 * output is complete.  (A slice of the bar, not a timing stage: the core's
 * stages are enum xg_stage.) */
static void *progress_slice(const struct xgo_job *job, int k)
{
    static const double at[5] = {0.0, 0.1, 0.2, 0.85, 1.0};
    static const double at_close[6] = {0.0, 0.1, 0.2, 0.8, 0.9, 1.0};
    const double *x = job->close_dst ? at_close : at;
    if (!job->progress || k >= (job->close_dst ? 5 : 4))
        return NULL;
    return GDALCreateScaledProgress(x[k], x[k + 1], job->progress,
                                    job->progress_arg);
}

/* The error for input i of op (read from s) that leaves the core nothing
 * to work on: n elements read, none usable.  The words come from the
 * operation's table entry (what its elements are, what the core skips)
 * and from its reader (what a feature that gave no element was). */
int xgo__no_usable(const struct xg_op *op, int i, const struct xgo_src *s,
                     uint64_t n, char *err, size_t errlen)
{
    const char *what = op->in[i].elements;
    const char *barren = xgo__read_barren(op, i);
    const char *all = n ? op->in[i].skipped : "";
    char why[256] = "";
    size_t len = 0;
#define ADD(...)                                                           \
    do {                                                                   \
        int w_ = snprintf(why + len, sizeof why - len, __VA_ARGS__);       \
        if (w_ > 0)                                                        \
            len = len + (size_t)w_ < sizeof why ? len + (size_t)w_         \
                                                : sizeof why - 1;          \
    } while (0)
    ADD("%llu feature%s", (unsigned long long)s->nread,
        s->nread == 1 ? "" : "s");
    if (s->nogeom)
        ADD(": %llu without geometry", (unsigned long long)s->nogeom);
    if (s->barren)
        ADD("%s%llu %s", s->nogeom ? ", " : ": ",
            (unsigned long long)s->barren, barren);
    if (s->invalid)
        ADD("%s%llu not closed or crossing itself, skipped",
            s->nogeom || s->barren ? ", " : ": ",
            (unsigned long long)s->invalid);
    if (n == 1)
        ADD("; 1 %.*s, %s", (int)strlen(what) - 1, what, all);
    else if (n)
        ADD("; %llu %s, all %s", (unsigned long long)n, what, all);
#undef ADD
    return xgo__fail(err, errlen, XG_EINVAL,
                     "%s, layer '%s': no usable %s (%s)", s->path, s->name,
                     what, why);
}

/* Closes dst (job->close_dst): timed, through its own progress slice;
 * after a failure quietly, keeping rc and err. */
int xgo__close_dst(GDALDatasetH dst, int rc, struct xgo_report *rep,
                     void *sp, char *err, size_t errlen)
{
    char name[1024];
    double t;
    snprintf(name, sizeof name, "%s", GDALGetDescription(dst));
    if (rc != XG_OK) {
        CPLPushErrorHandler(CPLQuietErrorHandler);
        GDALClose(dst);
        CPLPopErrorHandler();
        return rc;
    }
    CPLDebug("EXACTGEO", "closing %s", name);
    CPLErrorReset();
    t = xgo__now();
    GDALClose(dst);
    rep->close_seconds = xgo__now() - t;
    CPLDebug("EXACTGEO", "closed %s in %.3f s", name, rep->close_seconds);
    if (CPLGetLastErrorType() == CE_Failure)
        return xgo__fail(err, errlen, XG_EIO, "%s: closing failed: %s", name,
                         CPLGetLastErrorMsg());
    if (sp && !GDALScaledProgress(1.0, NULL, sp))
        return xgo__fail(err, errlen, XG_ECANCEL, "cancelled");
    return XG_OK;
}

/* The check's findings that make a triangulation wrong, as "2 not
 * counter-clockwise, 1 not Delaunay" into buf ("" when none). */
static void findings(const struct xg_delaunay_report *r, char *buf,
                     size_t len)
{
    const struct {
        uint64_t n;
        const char *what;
    } f[] = {{r->bad_index, "bad vertex indices"},
             {r->not_ccw, "not counter-clockwise"},
             {r->bad_edges, "bad edges"},
             {r->missing, "points missing or repeated"},
             {r->count_off, "off the Euler count"},
             {r->not_delaunay, "not Delaunay"},
             {r->not_canonical, "not canonical (cocircular)"}};
    size_t k, at = 0;
    buf[0] = '\0';
    for (k = 0; k < sizeof f / sizeof f[0] && at < len; k++)
        if (f[k].n) {
            int w = snprintf(buf + at, len - at, "%s%llu %s", at ? ", " : "",
                             (unsigned long long)f[k].n, f[k].what);
            at += w > 0 ? (size_t)w : 0;
        }
}

/* An operation that gives triangles (delaunay): the core on A's points,
 * a warning for merged points of another z, the check (job->verify),
 * then the triangles written. */
/* The job's GPUs (gpus) into ctx: every device present, or the list.
 * A machine without a usable one fails here, before anything is
 * written, as the gpu engine does. */
static int set_gpus(const struct xgo_job *job, struct xg_ctx *ctx,
                    char *err, size_t errlen)
{
    int dev[XG_GPUS_MAX], n = job->ngpus, k, rc;
    if (n < 0) {
        n = xg_gpu_count();
        if (n > XG_GPUS_MAX)
            n = XG_GPUS_MAX;
        if (n == 0)
            return xgo__fail(err, errlen, XG_ENOGPU, "gpus all: no GPU "
                             "found (the gpu engine needs a CUDA build and a "
                             "usable GPU)");
        for (k = 0; k < n; k++)
            dev[k] = k;
    } else {
        memcpy(dev, job->gpus, (size_t)n * sizeof *dev);
    }
    if ((rc = xg_ctx_set_gpus(ctx, dev, n)) != XG_OK)
        return xgo__fail(err, errlen, rc, "gpus: %s (the gpu engine needs "
                         "a CUDA build and a usable GPU)",
                         xg_ctx_errmsg(ctx));
    return XG_OK;
}

static int triangles(const struct xgo_job *job, struct xg_ctx *ctx,
                     struct xgo_src *a, struct xg_set *pts,
                     GDALDatasetH dst, const char *layer_name, char **lco,
                     struct xgo_kept **keep, OGRSpatialReferenceH srs,
                     struct xg_stats *st, struct xgo_report *rep,
                     void *sp_write, char *err, size_t errlen)
{
    const struct xg_op *op = job->op;
    struct xg_triangles t = {0};
    int rc = op->run_tri(ctx, pts, &job->opts, &t, st);
    double t0;
    if (rc == XG_EDEGENERATE) {
        /* fewer than three distinct points, or all on a line: the
         * input's fault, so name it */
        rc = xgo__fail(err, errlen, rc, "%s, layer '%s': %s", a->path,
                       a->name, *xg_ctx_errmsg(ctx) ? xg_ctx_errmsg(ctx)
                                                    : xg_strerror(rc));
        goto done;
    }
    if (rc) {
        xgo__fail(err, errlen, rc, "%s: %s", op->name,
                  *xg_ctx_errmsg(ctx) ? xg_ctx_errmsg(ctx) : xg_strerror(rc));
        goto done;
    }
    if (st->z_differ)
        xgo__warn(job->quiet, "%s, layer '%s': %llu point%s at the (x, y) "
                  "of another but with another z; merged, the z of the "
                  "lowest FID kept", a->path, a->name,
                  (unsigned long long)st->z_differ,
                  st->z_differ == 1 ? "" : "s");
    rep->triangles = t.n;
    if (job->test_break && t.n) {       /* testing: a wrong triangle */
        uint32_t v = t.v[0][1];
        t.v[0][1] = t.v[0][2];
        t.v[0][2] = v;
    }
    if (job->verify) {
        char what[512];
        t0 = xgo__now();
        rc = op->check(ctx, pts, (const uint32_t(*)[3])t.v, t.n,
                       &rep->verify);
        rep->verify_seconds = xgo__now() - t0;
        if (rc) {
            xgo__fail(err, errlen, rc, "%s: verifying: %s", op->name,
                      *xg_ctx_errmsg(ctx) ? xg_ctx_errmsg(ctx)
                                          : xg_strerror(rc));
            goto done;
        }
        rep->verified = 1;
        findings(&rep->verify, what, sizeof what);
        if (*what) {
            rc = xgo__fail(err, errlen, XG_EINVAL, "%s: --verify: the "
                           "triangulation is wrong: %s (of %llu triangles); "
                           "nothing written", op->name, what,
                           (unsigned long long)rep->verify.triangles);
            goto done;
        }
    }
    if (keep) {
        struct xgo_run_made m = {a, NULL, pts, NULL, &t, rep->has_z, srs};
        if ((rc = xgo__kept_new(keep, job, &m, layer_name, err, errlen)) ==
            XG_OK) {
            rep->written = xgo__kept_count(*keep);
            snprintf(rep->layer, sizeof rep->layer, "%s", layer_name);
        }
        goto done;
    }
    {
        struct xgo_write_tri w = {job, dst, layer_name, lco, srs, pts, &t,
                                  rep->has_z};
        t0 = xgo__now();
        rc = xgo__write_tri(&w, rep, sp_write ? GDALScaledProgress : NULL,
                            sp_write, err, errlen);
        rep->write_seconds = xgo__now() - t0;
    }
done:
    xg_triangles_free(&t);
    return rc;
}

/* xgo_job_run, or with keep (dst NULL) xgo__job_keep. */
static int job_run(const struct xgo_job *job, GDALDatasetH dst,
                   const char *layer_name, char **lco, struct xgo_kept **keep,
                   struct xg_stats *st, char *err, size_t errlen)
{
    struct xgo_src a, b;
    struct xgo_report local = {0}, *rep = job->report ? job->report : &local;
    struct xg_stats st_local;
    struct xg_set set[2] = {{0}, {0}};
    struct xg_contacts out = {0};
    struct xg_opts core_opts;
    struct xg_ctx *ctx = NULL;
    OGRSpatialReferenceH srs = NULL;
    struct xgo_relay rl = {job->progress, NULL};
    GDALProgressFunc pf = job->progress ? GDALScaledProgress : NULL;
    void *sp[5] = {NULL, NULL, NULL, NULL, NULL};
    const struct xg_op *op = job->op;
    struct xgo_cap cap;       /* the run's warnings after the reads (the
                                 reader caps its own) */
    int rc, k;
    double t;

    memset(&cap, 0, sizeof cap);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(rep, 0, sizeof *rep);
    if (!st)
        st = &st_local;
    memset(st, 0, sizeof *st);
    if (!dst && !keep)
        return xgo__fail(err, errlen, XG_EINVAL, "no output dataset");
    if (!op) {
        char names[256];
        xgo_op_list(names, sizeof names);
        rc = xgo__fail(err, errlen, XG_EINVAL, "no operation (expected %s)",
                       names);
        goto done;
    }
    if ((rc = xgo_options_check(job, err, errlen)) != XG_OK)
        goto done;
    if (job->regions) {
        rc = xgo__fail(err, errlen, XG_EINVAL, "regions=%d: a run in "
                       "regions goes through the exactgeo tool "
                       "(--regions, mpirun), not this call", job->regions);
        goto done;
    }
    if (!layer_name || !*layer_name) {
        rc = xgo__fail(err, errlen, XG_EINVAL, "no output layer name");
        goto done;
    }
    for (k = 0; k < 5; k++)
        sp[k] = progress_slice(job, k);

    rc = xgo__src_open(&a, &job->a, "A", err, errlen);
    if (!rc && op->ninputs > 1)
        rc = xgo__src_open(&b, &job->b, "B", err, errlen);
    if (!rc && op->ninputs > 1)
        rc = xgo__srs_check(&a, &b, &srs, err, errlen);
    else if (!rc)
        srs = xgo__layer_srs(a.lyr);
    if (rc)
        goto done;
    snprintf(rep->a_layer, sizeof rep->a_layer, "%s", a.name);
    snprintf(rep->b_layer, sizeof rep->b_layer, "%s", b.name);

    t = xgo__now();
    rc = xgo__read(&a, job, 0, &set[0], rep, pf, sp[0], err, errlen);
    if (!rc && set[0].n == 0)
        rc = xgo__no_usable(op, 0, &a, 0, err, errlen);
    if (!rc && op->ninputs > 1)
        rc = xgo__read(&b, job, 1, &set[1], rep, pf, sp[1], err, errlen);
    if (!rc && op->ninputs > 1 && set[1].n == 0)
        rc = xgo__no_usable(op, 1, &b, 0, err, errlen);
    rep->a_features = a.nread;
    rep->b_features = b.nread;
    rep->read_seconds = xgo__now() - t;
    if (rc)
        goto done;

    xgo__cap_begin(&cap);
    if (!(ctx = xg_ctx_new())) {
        rc = xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        goto done;
    }
    if (job->dump_path &&
        (rc = xg_dump_write(ctx, job->dump_path, &set[0], &set[1])) !=
            XG_OK) {
        xgo__fail(err, errlen, rc, "%s", xg_ctx_errmsg(ctx));
        goto done;
    }
    if ((rc = xg_ctx_set_threads(ctx, job->threads)) != XG_OK) {
        xgo__fail(err, errlen, rc, "%s", xg_ctx_errmsg(ctx));
        goto done;
    }
    xg_ctx_set_memory(ctx, job->memory);
    if (job->ngpus && (rc = set_gpus(job, ctx, err, errlen)) != XG_OK)
        goto done;
    if (job->progress) {
        rl.pa = sp[2];
        rl.pf = GDALScaledProgress;
        xg_ctx_set_progress(ctx, xgo__relay, &rl);
    }
    if (op->output == XG_OUTPUT_TRIANGLES) {
        rc = triangles(job, ctx, &a, &set[0], dst, layer_name, lco, keep,
                       srs, st, rep, sp[3], err, errlen);
        goto done;
    }
    core_opts = xgo__core_opts(job);
    rc = op->run(ctx, &set[0], &set[1], &core_opts, &out, st);
    if (rc) {
        xgo__fail(err, errlen, rc, "%s: %s", op->name,
                  *xg_ctx_errmsg(ctx) ? xg_ctx_errmsg(ctx) : xg_strerror(rc));
        goto done;
    }
    /* every element degenerate: the core skipped them all */
    if (st->a_skipped == st->a_count) {
        rc = xgo__no_usable(op, 0, &a, st->a_count, err, errlen);
        goto done;
    }
    if (st->b_skipped == st->b_count) {
        rc = xgo__no_usable(op, 1, &b, st->b_count, err, errlen);
        goto done;
    }
    if (keep) {
        struct xgo_run_made m = {&a, &b, set, &out, NULL, 0, srs};
        if ((rc = xgo__kept_new(keep, job, &m, layer_name, err, errlen)) ==
            XG_OK) {
            rep->written = xgo__kept_count(*keep);
            snprintf(rep->layer, sizeof rep->layer, "%s", layer_name);
        }
        goto done;
    }
    {
        struct xgo_write w = {job,  op->dim,     dst,         layer_name,
                              lco,  srs,         &a,          &b,
                              &set[0], set[1].fid, set[1].sub, &out,
                              NULL, NULL};
        t = xgo__now();
        rc = xgo__write(&w, rep, pf, sp[3], err, errlen);
        rep->write_seconds = xgo__now() - t;
    }

done:
    /* kept: the features are made when read; the bar ends here */
    if (keep && rc == XG_OK && sp[3])
        GDALScaledProgress(1.0, NULL, sp[3]);
    if (job->close_dst && dst)
        rc = xgo__close_dst(dst, rc, rep, sp[4], err, errlen);
    xgo__cap_end(&cap);
    xg_ctx_free(ctx);
    xg_contacts_free(&out);
    xg_set_free(&set[0]);
    xg_set_free(&set[1]);
    xgo__src_close(&a);
    xgo__src_close(&b);
    for (k = 0; k < 5; k++)
        if (sp[k])
            GDALDestroyScaledProgress(sp[k]);
    return rc;
}

int xgo_job_run(const struct xgo_job *job, GDALDatasetH dst,
                const char *layer_name, char **lco, struct xg_stats *st,
                char *err, size_t errlen)
{
    return job_run(job, dst, layer_name, lco, NULL, st, err, errlen);
}

int xgo__job_keep(const struct xgo_job *job, const char *layer_name,
                  struct xgo_kept **out, struct xg_stats *st, char *err,
                  size_t errlen)
{
    *out = NULL;
    return job_run(job, NULL, layer_name, NULL, out, st, err, errlen);
}
