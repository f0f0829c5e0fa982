/*
 * part_region.c -- one region of a run in regions, on the rank that has
 * it: the features rank 0's plan gave it read by FID with the readers of
 * a single run, the operation's engine run on them, the contacts the
 * region owns kept and named by their sources' ids.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cpl_error.h>
#include "xgp_internal.h"


/* The elements the core skips among the first n of s (input i): s's own
 * figure when n is all of s, else a run over those n against nothing
 * (which prepares and counts them, and finds no contact). */
static int skipped(struct xg_ctx *ctx, const struct xg_op *op,
                   const struct xgo_job *job, int i, const struct xg_set *s,
                   size_t n, const struct xg_stats *whole, uint64_t *out)
{
    struct xg_set view = *s, none = {0};
    struct xg_contacts c = {0};
    struct xg_stats st;
    struct xg_opts o = xgo__core_opts(job);
    int rc;
    if (n == s->n) {
        *out = i ? whole->b_skipped : whole->a_skipped;
        return XG_OK;
    }
    view.n = n;
    none.elem = op->in[1 - i].elem;
    o.engine = XG_ENGINE_CPU;     /* the same count on every engine */
    o.outside = 0;
    rc = op->run(ctx, i ? &none : &view, i ? &view : &none, &o, &c, &st);
    xg_contacts_free(&c);
    *out = i ? st.b_skipped : st.a_skipped;
    return rc;
}

/* The ascending union of two ascending lists (disjoint: a feature is
 * owned or not), into *out (allocated; the caller frees it). */
static int merge(const int64_t *a, size_t na, const int64_t *b, size_t nb,
                 int64_t **out)
{
    size_t i = 0, j = 0, k = 0;
    if (!(*out = malloc((na + nb > 0 ? na + nb : 1) * sizeof **out)))
        return XG_ENOMEM;
    while (i < na || j < nb)
        (*out)[k++] = j == nb || (i < na && a[i] < b[j]) ? a[i++] : b[j++];
    return XG_OK;
}

/* set's elements of the features listed in own (ascending) moved before
 * the others, in their order; *n receives their count. */
static int owned_first(struct xg_set *set, const int64_t *own, size_t nown,
                       size_t *n)
{
    struct xg_set t = {0};
    size_t d = (size_t)xg_elem_doubles(set->elem), i;
    int pass;
    t.elem = set->elem;
    *n = 0;
    for (pass = 0; pass < 2; pass++)
        for (i = 0; i < set->n; i++) {
            int64_t fid = set->fid[i];
            const int64_t *p = bsearch(&fid, own, nown, sizeof *own,
                                       xgp__fid_cmp);
            if ((p != NULL) != (pass == 0))
                continue;
            if (xg_set_push(&t, set->elem, set->xyz + d * i, fid,
                            set->sub[i]) != XG_OK) {
                xg_set_free(&t);
                return XG_ENOMEM;
            }
            *n += pass == 0;
        }
    xg_set_free(set);
    *set = t;
    return XG_OK;
}

/* The features of f's lists of input i read into set, those the region
 * owns first (*own elements of them), with the single run's reader (job,
 * quiet): the input opened again without its filters, which the plan
 * applied.  The order of a region's elements does not matter otherwise:
 * its records are named by ids. */
static int read_lists(const struct xgo_job *job, int i,
                      const struct xgp_fids *f, struct xg_set *set,
                      size_t *own, char *err, size_t errlen)
{
    struct xgo_input in = i ? job->b : job->a;
    struct xgo_src s;
    struct xgo_report rep;    /* the plan's counts are the run's */
    struct xgp_fetch fetch;
    int64_t *all = NULL;
    int rc;
    *own = 0;
    if (f->n[i][0] + f->n[i][1] == 0)
        return XG_OK;
    in.where = NULL;
    in.spat_set = 0;
    in.copy = XGO_COPY_NONE;  /* rank 0 fetches those it writes */
    in.fields = NULL;
    memset(&rep, 0, sizeof rep);
    memset(&fetch, 0, sizeof fetch);
    /* what GDAL says while opening, rank 0's plan said once already */
    CPLPushErrorHandler(CPLQuietErrorHandler);
    rc = xgo__src_open(&s, &in, i ? "B" : "A", err, errlen);
    CPLPopErrorHandler();
    if (rc == XG_OK &&
        (merge(f->v[i][0], f->n[i][0], f->v[i][1], f->n[i][1], &all) !=
             XG_OK ||
         xgp__fetch_begin(&fetch, &s, all, f->n[i][0] + f->n[i][1]) !=
             XG_OK))
        rc = xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    if (rc == XG_OK) {
        s.next = xgp__fetch_next;
        s.next_arg = &fetch;
        rc = xgo__read(&s, job, i, set, &rep, NULL, NULL, err, errlen);
    }
    if (rc == XG_OK &&
        owned_first(set, f->v[i][0], f->n[i][0], own) != XG_OK)
        rc = xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    xgp__fetch_end(&fetch);
    free(all);
    xgo__src_close(&s);
    return rc;
}

/* The core on a region's sets (quiet: rank 0's plan gave the
 * warnings), progress through pf/pa; the engine, threads and grid of
 * the rank's first run, and the work figures, into part; the contacts
 * in *c (the caller frees them).  A region without an A element has
 * nothing to run (every record has an A element). */
static int region_core(const struct xgo_job *job, struct xg_ctx *ctx,
                       struct xg_set set[2], struct xgp_part *part,
                       struct xg_contacts *c, struct xg_stats *st,
                       GDALProgressFunc pf, void *pa, char *err,
                       size_t errlen)
{
    const struct xg_op *op = job->op;
    struct xgo_relay rl = {pf, pa};
    int rc;
    if (set[0].n == 0)
        return XG_OK;
    xg_ctx_set_progress(ctx, pf ? xgo__relay : NULL, &rl);
    struct xg_opts o = xgo__core_opts(job);
    rc = op->run(ctx, &set[0], &set[1], &o, c, st);
    xg_ctx_set_progress(ctx, NULL, NULL);
    if (rc == XG_ECANCEL)
        xgo__fail(err, errlen, rc, "cancelled");
    else if (rc)
        xgo__fail(err, errlen, rc, "%s: %s", op->name,
                  *xg_ctx_errmsg(ctx) ? xg_ctx_errmsg(ctx)
                                      : xg_strerror(rc));
    if (rc == XG_OK && !part->has_run) {
        part->has_run = 1;
        part->st.engine = st->engine;
        part->st.threads = st->threads;
        memcpy(part->st.grid, st->grid, sizeof st->grid);
    }
    /* the work only: its counts of elements and contacts are the
     * region's, not the owned ones (the caller adds those) */
    xg_stats_add_work(&part->st, st, 1);
    return rc;
}

/* The contacts of c that region r owns, appended to out as records
 * named by their sources' ids (set's fid and sub); their kinds and
 * number into part.  XG_ENOMEM. */
static int region_keep(const struct xg_region *r, struct xg_contacts *c,
                       const struct xg_set set[2], struct xgp_part *part,
                       struct xgp_recs *out, char *err, size_t errlen)
{
    size_t j;
    int rc = XG_OK;
    xg_contacts_keep_owned(c, r);
    for (j = 0; j < c->n && rc == XG_OK; j++) {
        const struct xg_contact *x = &c->v[j];
        struct xgp_rec rec;
        memset(&rec, 0, sizeof rec);
        rec.afid = set[0].fid[x->a];
        rec.asub = set[0].sub[x->a];
        rec.has_b = x->b != UINT32_MAX;
        if (rec.has_b) {
            rec.bfid = set[1].fid[x->b];
            rec.bsub = set[1].sub[x->b];
        }
        rec.kind = x->kind;
        memcpy(rec.p, x->p, sizeof rec.p);
        memcpy(rec.q, x->q, sizeof rec.q);
        part->st.contacts[x->kind]++;
        if (xgp__recs_push(out, &rec) != XG_OK)
            rc = xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    }
    part->rank.contacts += c->n;
    return rc;
}

/* xgp_internal.h: region r read by FID, run, its owned contacts kept;
 * the owned elements (and those the core skips among them) counted. */
int xgp__region_run(const struct xgo_job *job, struct xg_ctx *ctx,
                    const struct xg_region *r, const struct xgp_fids *f,
                    struct xgp_part *part, struct xgp_recs *out,
                    GDALProgressFunc pf, void *pa, char *err,
                    size_t errlen)
{
    const struct xg_op *op = job->op;
    struct xgo_job quiet = *job;
    struct xg_set set[2] = {{0}, {0}};
    struct xg_contacts c = {0};
    struct xg_stats st;
    size_t own[2] = {0, 0};
    double t;
    int i, rc = XG_OK;

    memset(&st, 0, sizeof st);
    quiet.quiet = 1;
    t = xgo__now();
    for (i = 0; i < op->ninputs && rc == XG_OK; i++) {
        set[i].elem = op->in[i].elem;
        rc = read_lists(&quiet, i, f, &set[i], &own[i], err, errlen);
        part->rank.features += f->n[i][0] + f->n[i][1];
    }
    part->rank.read_seconds += xgo__now() - t;
    if (rc == XG_OK && pf && !pf(0.5, NULL, pa))
        rc = xgo__fail(err, errlen, XG_ECANCEL, "cancelled");
    t = xgo__now();
    if (rc == XG_OK)
        rc = region_core(job, ctx, set, part, &c, &st, pf, pa, err, errlen);
    if (rc == XG_OK) {
        uint64_t sk[2] = {0, 0};
        for (i = 0; i < op->ninputs && rc == XG_OK; i++)
            if (own[i])
                rc = skipped(ctx, op, job, i, &set[i], own[i], &st, &sk[i]);
        if (rc)
            xgo__fail(err, errlen, rc, "%s: %s", op->name,
                      *xg_ctx_errmsg(ctx) ? xg_ctx_errmsg(ctx)
                                          : xg_strerror(rc));
        part->st.a_count += own[0];
        part->st.b_count += own[1];
        part->st.a_skipped += sk[0];
        part->st.b_skipped += sk[1];
    }
    if (rc == XG_OK)
        rc = region_keep(r, &c, set, part, out, err, errlen);
    part->rank.compute_seconds += xgo__now() - t;
    xg_contacts_free(&c);
    xg_set_free(&set[0]);
    xg_set_free(&set[1]);
    return rc;
}
