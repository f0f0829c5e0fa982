/*
 * job.c -- one run: read A and B, run the core, write the contacts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cpl_error.h>
#include "xgo_internal.h"

const char *xgo_b_sub_name(const char *op)
{
    return op && strcmp(op, "redblue") == 0 ? "b_seg" : "b_tri";
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The core's progress through the job's GDAL one (scaled). */
struct relay {
    GDALProgressFunc pf;
    void *pa;
};

static int relay(double fraction, void *user)
{
    const struct relay *r = user;
    return !r->pf(fraction, NULL, r->pa);
}

/* Stage k of 4 (read A, read B, core, write), as a scaled progress. */
static void *stage(const struct xgo_job *job, int k)
{
    static const double at[5] = {0.0, 0.1, 0.2, 0.85, 1.0};
    if (!job->progress)
        return NULL;
    return GDALCreateScaledProgress(at[k], at[k + 1], job->progress,
                                    job->progress_arg);
}

int xgo_job_run(const struct xgo_job *job, GDALDatasetH dst,
                const char *layer_name, char **lco, struct xg_stats *st,
                char *err, size_t errlen)
{
    struct xgo_src a, b;
    struct xgo_report local = {0}, *rep = job->report ? job->report : &local;
    struct xg_stats st_local;
    struct xg_segs asegs = {0}, bsegs = {0};
    struct xg_tris btris = {0};
    struct xg_contacts out = {0};
    struct xg_ctx *ctx = NULL;
    OGRSpatialReferenceH srs = NULL;
    struct relay rl = {job->progress, NULL};
    GDALProgressFunc pf = job->progress ? GDALScaledProgress : NULL;
    void *sp[4] = {NULL, NULL, NULL, NULL};
    int dim, rc, k;
    double t;

    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(rep, 0, sizeof *rep);
    if (!st)
        st = &st_local;
    memset(st, 0, sizeof *st);
    if (!job->op || (strcmp(job->op, "segtri") && strcmp(job->op, "redblue")))
        return xgo__fail(err, errlen, XG_EINVAL,
                         "unknown operation '%s' (segtri or redblue)",
                         job->op ? job->op : "(null)");
    dim = strcmp(job->op, "segtri") == 0 ? 3 : 2;
    if (!dst || !layer_name || !*layer_name)
        return xgo__fail(err, errlen, XG_EINVAL, "no output dataset or layer");
    for (k = 0; k < 4; k++)
        sp[k] = stage(job, k);

    rc = xgo__src_open(&a, &job->a, "A", err, errlen);
    if (!rc)
        rc = xgo__src_open(&b, &job->b, "B", err, errlen);
    if (!rc)
        rc = xgo__srs_check(&a, &b, &srs, err, errlen);
    if (rc)
        goto done;
    snprintf(rep->a_layer, sizeof rep->a_layer, "%s", a.name);
    snprintf(rep->b_layer, sizeof rep->b_layer, "%s", b.name);

    t = now();
    if (dim == 3) {
        rc = xgo__read_segs3d(&a, job, &asegs, rep, pf, sp[0], err, errlen);
        if (!rc)
            rc = xgo__read_tris(&b, job, &btris, rep, pf, sp[1], err, errlen);
    } else {
        rc = xgo__read_segs2d(&a, job, &asegs, rep, pf, sp[0], err, errlen);
        if (!rc)
            rc = xgo__read_segs2d(&b, job, &bsegs, rep, pf, sp[1], err,
                                  errlen);
    }
    rep->a_features = a.nread;
    rep->b_features = b.nread;
    rep->read_seconds = now() - t;
    if (rc)
        goto done;

    if (!(ctx = xg_ctx_new())) {
        rc = xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        goto done;
    }
    if (job->dump_path &&
        (rc = dim == 3 ? xg_dump_write(ctx, job->dump_path, &asegs, &btris)
                       : xg_dump_write_segs(ctx, job->dump_path, &asegs,
                                            &bsegs)) != XG_OK) {
        xgo__fail(err, errlen, rc, "%s", xg_ctx_errmsg(ctx));
        goto done;
    }
    if ((rc = xg_ctx_set_threads(ctx, job->threads)) != XG_OK) {
        xgo__fail(err, errlen, rc, "%s", xg_ctx_errmsg(ctx));
        goto done;
    }
    if (job->progress) {
        rl.pa = sp[2];
        rl.pf = GDALScaledProgress;
        xg_ctx_set_progress(ctx, relay, &rl);
    }
    rc = dim == 3 ? xg_segtri(ctx, &asegs, &btris, &job->opts, &out, st)
                  : xg_redblue(ctx, &asegs, &bsegs, &job->opts, &out, st);
    if (rc) {
        xgo__fail(err, errlen, rc, "%s: %s", job->op,
                  *xg_ctx_errmsg(ctx) ? xg_ctx_errmsg(ctx) : xg_strerror(rc));
        goto done;
    }
    {
        struct xgo_write w = {job, dim, dst, layer_name, lco, srs, &a, &b,
                              &asegs, dim == 3 ? btris.fid : bsegs.fid,
                              dim == 3 ? btris.sub : bsegs.sub, &out};
        t = now();
        rc = xgo__write(&w, rep, pf, sp[3], err, errlen);
        rep->write_seconds = now() - t;
    }

done:
    xg_ctx_free(ctx);
    xg_contacts_free(&out);
    xg_segs_free(&asegs);
    xg_segs_free(&bsegs);
    xg_tris_free(&btris);
    xgo__src_close(&a);
    xgo__src_close(&b);
    for (k = 0; k < 4; k++)
        if (sp[k])
            GDALDestroyScaledProgress(sp[k]);
    return rc;
}
