/*
 * job.c -- one run, stage by stage (xgo.h, struct xgo_run): open A and B
 * (or A alone, for an operation of one input), read them, run the core
 * and check its records where the job asks, write them (or keep them,
 * for the EXACTGEO driver), close.  xgo_job_run is that sequence; the
 * driver's run in regions is the partitioned run's (xgp_internal.h),
 * in this process.  What
 * differs by the shape of the operation's records (contacts, triangles)
 * is its row's (xgo_shape.h): this file never tests the shape.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cpl_error.h>
#include "xgp_internal.h"
#include "gpkg_rtree.h"


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

/* Closes dst (job->close_dst): timed, on the bar's close and index
 * stages (bar may be NULL: none); after a failure quietly, keeping rc
 * and err.  The GeoPackage layers the run created get their spatial
 * index here, after GDAL's close and before the tool renames its staging
 * file (gpkg_rtree.h): part of the close, in time and on the bar, which
 * reaches 1.0 only once all of it is done.  GDALClose itself tells no
 * progress (FlatGeobuf's sorts and writes the file again there): the bar
 * stands still through it, then moves by the slice the close's estimate
 * gave it. */
int xgo__close_dst(GDALDatasetH dst, int rc, struct xgo_report *rep,
                     struct xgo_bar *bar, char *err, size_t errlen)
{
    char name[1024];
    double t;
    struct xgo_rtree_todo *todo = xgo__rtree_take(dst);
    GDALProgressFunc pf = bar && bar->pf ? xgo__bar_fn : NULL;
    snprintf(name, sizeof name, "%s", GDALGetDescription(dst));
    if (rc != XG_OK) {
        CPLPushErrorHandler(CPLQuietErrorHandler);
        GDALClose(dst);
        CPLPopErrorHandler();
        return xgo__rtree_finish(todo, rc, NULL, NULL, err, errlen);
    }
    CPLDebug("EXACTGEO", "closing %s", name);
    CPLErrorReset();
    t = xgo__now();
    if (bar)
        xgo__bar_begin(bar, XGO_BAR_CLOSE);
    GDALClose(dst);
    CPLDebug("EXACTGEO", "GDAL closed %s in %.3f s", name, xgo__now() - t);
    if (CPLGetLastErrorType() == CE_Failure)
        rc = xgo__fail(err, errlen, XG_EIO, "%s: closing failed: %s", name,
                       CPLGetLastErrorMsg());
    if (rc == XG_OK && pf && !pf(1.0, NULL, bar))
        rc = xgo__fail(err, errlen, XG_ECANCEL, "cancelled");
    if (bar && todo)
        xgo__bar_begin(bar, XGO_BAR_INDEX);
    rc = xgo__rtree_finish(todo, rc, pf, bar, err, errlen);
    rep->close_seconds = xgo__now() - t;
    CPLDebug("EXACTGEO", "closed %s in %.3f s", name, rep->close_seconds);
    if (rc != XG_OK)
        return rc;
    if (bar && !xgo__bar_done(bar))
        return xgo__fail(err, errlen, XG_ECANCEL, "cancelled");
    return XG_OK;
}

/* One run's state, from the inputs opened to the records written or
 * kept: what the stages share (xgo_run_new to xgo_run_end). */
struct xgo_run {
    const struct xgo_job *job;
    const struct xgo_shape *sh;   /* job->op's shape's row              */
    struct xgo_report *rep;       /* job->report, or local              */
    struct xgo_report local;
    struct xg_stats *st;          /* the caller's, or own               */
    struct xg_stats own;
    struct xgo_src a, b;
    struct xg_set set[2];
    struct xgo_run_made m;        /* the inputs, their sets, the records */
    struct xg_ctx *ctx;
    struct xgo_relay rl;
    struct xgo_cap cap;           /* the run's warnings after the reads
                                     (the reader caps its own)          */
    struct xgo_bar bar;           /* the job's progress bar             */
    char *err;
    size_t errlen;
};

/* The check's findings (the counts that must be zero and are not), as
 * "2 not counter-clockwise, 1 not Delaunay" into buf ("" when none). */
static void findings(const struct xg_check_report *r, char *buf,
                     size_t len)
{
    size_t at = 0;
    int k;
    buf[0] = '\0';
    for (k = 0; k < r->n && at < len; k++)
        if (r->v[k].finding && r->v[k].n) {
            int w = snprintf(buf + at, len - at, "%s%llu %s", at ? ", " : "",
                             (unsigned long long)r->v[k].n, r->v[k].label);
            at += w > 0 ? (size_t)w : 0;
        }
}

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

/* The refusals of job before anything is opened: no operation, options
 * that do not fit it, no layer name; and for a single run (single),
 * regions (the partitioned run runs those: xgp_run, xgp__run_keep).
 * XG_OK or XG_EINVAL with the message. */
static int refuse(const struct xgo_job *job, const char *layer_name,
                  int single, char *err, size_t errlen)
{
    int rc;
    if (!job->op) {
        char names[256];
        xgo_op_list(names, sizeof names);
        return xgo__fail(err, errlen, XG_EINVAL, "no operation (expected %s)",
                         names);
    }
    if ((rc = xgo_options_check(job, err, errlen)) != XG_OK)
        return rc;
    if (single && job->regions)
        return xgo__fail(err, errlen, XG_EINVAL, "regions=%d: a run in "
                         "regions goes through xgp_run (the exactgeo "
                         "tool's --regions, mpirun), not this call",
                         job->regions);
    if (!layer_name || !*layer_name)
        return xgo__fail(err, errlen, XG_EINVAL, "no output layer name");
    return XG_OK;
}

/* Opens job's inputs into a and b (B where the operation has one),
 * checks that they share a CRS, and takes it (*srs, not owned; A's
 * alone otherwise): the single run's and the partitioned run's plan's
 * (part_plan.c) opening.  The caller closes a and b (xgo__src_close),
 * whatever the outcome. */
int xgo__open_inputs(const struct xgo_job *job, struct xgo_src *a,
                     struct xgo_src *b, OGRSpatialReferenceH *srs,
                     char *err, size_t errlen)
{
    int rc, two = job->op->ninputs > 1;
    rc = xgo__src_open(a, &job->a, "A", err, errlen);
    if (!rc && two)
        rc = xgo__src_open(b, &job->b, "B", err, errlen);
    if (!rc && two)
        rc = xgo__srs_check(a, b, srs, err, errlen);
    else if (!rc)
        *srs = xgo__layer_srs(a->lyr);
    return rc;
}

/* The bar's estimates (bar_costs.c) from what the run knows before
 * stage: the inputs' feature counts, their elements once read, the
 * records once made. */
static void plan(struct xgo_run *r, int stage)
{
    const struct xg_op *op = r->job->op;
    double feat[2] = {-1, -1}, elem[2] = {-1, -1};
    int i;
    for (i = 0; i < op->ninputs; i++) {
        struct xgo_src *s = i ? &r->b : &r->a;
        feat[i] = (double)xgo__src_count(s);
        if (i < stage)
            elem[i] = (double)r->set[i].n;
    }
    xgo__bar_estimate(&r->bar, op, feat, elem,
                      stage > XGO_BAR_CORE ? (double)r->m.n : -1);
}

/* Reads the inputs into r->set, timed: an input that gives no element
 * at all is an error naming what its features were. */
static int read_inputs(struct xgo_run *r, GDALProgressFunc pf)
{
    const struct xg_op *op = r->job->op;
    double t = xgo__now();
    int rc = XG_OK, i;
    for (i = 0; rc == XG_OK && i < op->ninputs; i++) {
        struct xgo_src *s = i ? &r->b : &r->a;
        xgo__bar_begin(&r->bar, XGO_BAR_READ_A + i);
        rc = xgo__read(s, r->job, i, &r->set[i], r->rep, pf, &r->bar,
                       r->err, r->errlen);
        if (!rc && r->set[i].n == 0)
            rc = xgo__no_usable(op, i, s, 0, r->err, r->errlen);
        if (!rc)
            plan(r, i + 1);
    }
    r->rep->a_features = r->a.nread;
    r->rep->b_features = r->b.nread;
    r->rep->read_seconds = xgo__now() - t;
    r->m.has_z = r->rep->has_z;
    return rc;
}

/* The core's context (r->ctx, owned by r): the dump of the inputs when
 * asked, the threads, the memory, the GPUs, the progress relay. */
static int make_ctx(struct xgo_run *r)
{
    const struct xgo_job *job = r->job;
    int rc;
    if (!(r->ctx = xg_ctx_new()))
        return xgo__fail(r->err, r->errlen, XG_ENOMEM, "out of memory");
    if (job->dump_path &&
        (rc = xg_dump_write(r->ctx, job->dump_path, &r->set[0],
                            &r->set[1])) != XG_OK)
        return xgo__fail(r->err, r->errlen, rc, "%s", xg_ctx_errmsg(r->ctx));
    if ((rc = xg_ctx_set_threads(r->ctx, job->threads)) != XG_OK)
        return xgo__fail(r->err, r->errlen, rc, "%s", xg_ctx_errmsg(r->ctx));
    xg_ctx_set_memory(r->ctx, job->memory);
    if (job->ngpus &&
        (rc = set_gpus(job, r->ctx, r->err, r->errlen)) != XG_OK)
        return rc;
    if (job->progress) {
        r->rl.pa = &r->bar;
        r->rl.pf = xgo__bar_fn;
        xg_ctx_set_progress(r->ctx, xgo__relay, &r->rl);
    }
    return XG_OK;
}

/* The operation's check on the run's records (job->verify), timed, its
 * findings in rep->verify: a finding fails the run, nothing written. */
static int verify(struct xgo_run *r)
{
    const struct xg_op *op = r->job->op;
    struct xgo_report *rep = r->rep;
    char what[512];
    double t = xgo__now();
    int rc = op->check(r->ctx, &r->set[0], op->ninputs > 1 ? &r->set[1]
                                                           : NULL,
                       r->m.records, &rep->verify);
    rep->verify_seconds = xgo__now() - t;
    if (rc)
        return xgo__fail(r->err, r->errlen, rc, "%s: verifying: %s",
                         op->name, *xg_ctx_errmsg(r->ctx)
                                       ? xg_ctx_errmsg(r->ctx)
                                       : xg_strerror(rc));
    rep->verified = 1;
    findings(&rep->verify, what, sizeof what);
    if (*what)
        return xgo__fail(r->err, r->errlen, XG_EINVAL, "%s: --verify: %s: "
                         "%s (of %llu %s); nothing written", op->name,
                         rep->verify.wrong, what, (unsigned long long)r->m.n,
                         op->records);
    return XG_OK;
}

/* The check after the core, a single run's and the partitioned run's
 * (on its summed counts): an input of op whose every element the core
 * skipped (degenerate) leaves nothing to write; the error names what a
 * (input 0) or b (input 1) read. */
int xgo__all_skipped(const struct xg_op *op, const struct xg_stats *st,
                     const struct xgo_src *a, const struct xgo_src *b,
                     char *err, size_t errlen)
{
    int i;
    for (i = 0; i < op->ninputs; i++) {
        uint64_t n = i ? st->b_count : st->a_count;
        if ((i ? st->b_skipped : st->a_skipped) == n)
            return xgo__no_usable(op, i, i ? b : a, n, err, errlen);
    }
    return XG_OK;
}

/* The core on the sets (the shape's run), then what leaves the run
 * nothing to write: an input whose every element the core skipped
 * (degenerate), the check's findings (job->verify). */
static int run_core(struct xgo_run *r)
{
    int rc;
    xgo__bar_begin(&r->bar, XGO_BAR_CORE);
    rc = r->sh->run(r->ctx, &r->m, r->st, r->rep, r->err, r->errlen);
    if (rc == XG_OK)
        rc = xgo__all_skipped(r->job->op, r->st, &r->a, &r->b, r->err,
                              r->errlen);
    if (rc == XG_OK && r->job->verify)
        rc = verify(r);
    return rc;
}

/* xgo.h: a run of job, its report and figures cleared. */
int xgo_run_new(struct xgo_run **out, const struct xgo_job *job,
                struct xg_stats *st, char *err, size_t errlen)
{
    struct xgo_run *r = calloc(1, sizeof *r);
    *out = r;
    if (!r)
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    r->job = job;
    r->sh = xgo_shape_of(job->op);
    r->rep = job->report ? job->report : &r->local;
    r->st = st ? st : &r->own;
    r->err = err;
    r->errlen = errlen;
    r->m = (struct xgo_run_made){job, &r->a, &r->b, r->set, NULL, NULL, 0,
                                 0, NULL};
    xgo__bar_init(&r->bar, job->progress, job->progress_arg);
    memset(r->rep, 0, sizeof *r->rep);
    memset(r->st, 0, sizeof *r->st);
    return XG_OK;
}

/* xgo.h: the refusals, then the inputs opened, their CRSs checked; the
 * progress bar's first estimates made (from the features' counts). */
int xgo_run_open(struct xgo_run *r, const char *layer_name)
{
    int rc;
    if ((rc = refuse(r->job, layer_name, 1, r->err, r->errlen)) != XG_OK)
        return rc;
    rc = xgo__open_inputs(r->job, &r->a, &r->b, &r->m.srs, r->err,
                          r->errlen);
    if (rc)
        return rc;
    plan(r, 0);
    snprintf(r->rep->a_layer, sizeof r->rep->a_layer, "%s", r->a.name);
    snprintf(r->rep->b_layer, sizeof r->rep->b_layer, "%s", r->b.name);
    return XG_OK;
}

/* xgo.h: every feature of the inputs read. */
int xgo_run_read(struct xgo_run *r)
{
    return read_inputs(r, r->job->progress ? xgo__bar_fn : NULL);
}

/* xgo.h: the context, the core, the checks after it.  The warnings
 * are capped from here to xgo_run_end (the reader caps its own). */
int xgo_run_exec(struct xgo_run *r)
{
    int rc;
    xgo__cap_begin(&r->cap);
    if ((rc = make_ctx(r)) == XG_OK)
        rc = run_core(r);
    return rc;
}

/* xgo.h: the records written through the shape's writer, then freed. */
int xgo_run_write(struct xgo_run *r, GDALDatasetH dst,
                  const char *layer_name, char **lco)
{
    GDALProgressFunc pf = r->job->progress ? xgo__bar_fn : NULL;
    double t = xgo__now();
    int rc;
    if (r->job->close_dst)    /* the index built at our close */
        xgo__rtree_defer_on(dst);
    xgo__bar_output(&r->bar, dst, lco, r->job->close_dst);
    plan(r, XGO_BAR_WRITE);
    xgo__bar_begin(&r->bar, XGO_BAR_WRITE);
    rc = r->sh->write(&r->m, dst, layer_name, lco, r->rep, pf, &r->bar,
                          r->err, r->errlen);
    r->rep->write_seconds = xgo__now() - t;
    r->sh->free_res(r->m.res);
    r->m.res = NULL;
    return rc;
}

/* xgo_internal.h: the records kept for the driver, not written. */
int xgo__run_keep(struct xgo_run *r, const char *layer_name,
                  struct xgo_kept **keep)
{
    int rc;
    xgo__bar_begin(&r->bar, XGO_BAR_WRITE);
    rc = xgo__kept_new(keep, r->job, &r->m, layer_name, r->rep, r->err,
                       r->errlen);
    /* the features are made when read: the bar ends here */
    if (rc == XG_OK)
        xgo__bar_done(&r->bar);
    return rc;
}

/* xgo.h: dst closed where the job says, then r freed. */
int xgo_run_end(struct xgo_run *r, GDALDatasetH dst, int rc)
{
    if (!r)
        return rc;
    /* the core's memory goes before the close, where a GeoPackage's
     * spatial index takes its own (gpkg_rtree.c): the run's peak stays
     * the core's */
    xg_ctx_free(r->ctx);
    if (r->sh)
        r->sh->free_res(r->m.res);
    xg_set_free(&r->set[0]);
    xg_set_free(&r->set[1]);
    if (r->job->close_dst && dst)
        rc = xgo__close_dst(dst, rc, r->rep, &r->bar, r->err, r->errlen);
    else if (rc == XG_OK && dst)  /* written, the caller closes dst */
        xgo__bar_done(&r->bar);
    xgo__cap_end(&r->cap);
    xgo__src_close(&r->a);
    xgo__src_close(&r->b);
    free(r);
    return rc;
}

/* xgo_job_run, or with keep (dst NULL) xgo__job_keep: the stages, in
 * order, the first failure ending the run; dst closed at the end where
 * the job says (job->close_dst), whatever the outcome. */
static int job_run(const struct xgo_job *job, GDALDatasetH dst,
                   const char *layer_name, char **lco, struct xgo_kept **keep,
                   struct xg_stats *st, char *err, size_t errlen)
{
    struct xgo_run *r;
    int rc = xgo_run_new(&r, job, st, err, errlen);
    if (rc != XG_OK) {
        struct xgo_report spare;  /* a failure's close fills none */
        if (job->close_dst && dst)
            rc = xgo__close_dst(dst, rc, &spare, NULL, err, errlen);
        return rc;
    }
    if (!dst && !keep) {
        xgo_run_end(r, NULL, XG_OK);
        return xgo__fail(err, errlen, XG_EINVAL, "no output dataset");
    }
    /* the bar's estimates know the output, and our index */
    if (dst && job->close_dst)
        xgo__rtree_defer_on(dst);
    xgo__bar_output(&r->bar, dst, lco, job->close_dst);
    if ((rc = xgo_run_open(r, layer_name)) == XG_OK &&
        (rc = xgo_run_read(r)) == XG_OK && (rc = xgo_run_exec(r)) == XG_OK)
        rc = keep ? xgo__run_keep(r, layer_name, keep)
                  : xgo_run_write(r, dst, layer_name, lco);
    return xgo_run_end(r, dst, rc);
}

/* xgo.h: one run, written to dst. */
int xgo_job_run(const struct xgo_job *job, GDALDatasetH dst,
                const char *layer_name, char **lco, struct xg_stats *st,
                char *err, size_t errlen)
{
    return job_run(job, dst, layer_name, lco, NULL, st, err, errlen);
}

/* xgo_internal.h: one run, kept for the driver; in regions, the
 * partitioned run in this process, its records kept. */
int xgo__job_keep(const struct xgo_job *job, const char *layer_name,
                  struct xgo_kept **out, struct xg_stats *st, char *err,
                  size_t errlen)
{
    struct xgp_comm one;
    int rc;
    *out = NULL;
    if (!job->regions)
        return job_run(job, NULL, layer_name, NULL, out, st, err, errlen);
    if ((rc = refuse(job, layer_name, 0, err, errlen)) != XG_OK)
        return rc;
    xgp_comm_local(&one);
    return xgp__run_keep(&one, job, layer_name, out, st, err, errlen);
}
