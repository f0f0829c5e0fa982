/*
 * part_region.c -- one region of a run in regions, on the rank that has
 * it: the features rank 0's plan filed for it (read once, by the plan,
 * with the single run's reader) made into sets, the operation's engine
 * run on them, the contacts the region owns kept, named by their
 * sources' ids, sorted and put in the rank's file until the merge.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cpl_error.h>
#include "xg_grow.h"
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

/* One input's entries (n bytes at p, xgp__plan_region's) into set, of
 * kind elem: the elements of the features the region owns first (*own
 * of them), then the others, each group in the buffer's order; the
 * features counted into *features.  The
 * order of a region's elements does not matter otherwise: its records
 * are named by ids.  XG_ENOMEM, XG_EIO (a buffer cut short). */
static int entries_to_set(const unsigned char *p, size_t n, int elem,
                          struct xg_set *set, size_t *own,
                          uint64_t *features)
{
    size_t d = (size_t)xg_elem_doubles(elem), at, total = 0, o = 0;
    int pass;
    *own = 0;
    set->elem = elem;
    for (pass = 0; pass < 2; pass++) {
        for (at = 0; at + sizeof(struct xgp_ent) <= n;) {
            struct xgp_ent h;
            size_t j, step = sizeof(int64_t) + d * sizeof(double);
            memcpy(&h, p + at, sizeof h);
            at += sizeof h;
            if ((size_t)h.m > (n - at) / step)
                return XG_EIO;
            if (pass == 0) {
                ++*features;
                total += h.m;
                *own += h.c0 ? h.m : 0;
                at += h.m * step;
                continue;
            }
            for (j = 0; j < h.m; j++, at += step) {
                size_t k = h.c0 ? o++ : set->n++;
                memcpy(&set->sub[k], p + at, sizeof(int64_t));
                memcpy(set->xyz + d * k, p + at + sizeof(int64_t),
                       d * sizeof(double));
                set->fid[k] = h.fid;
            }
        }
        if (pass == 0) {
            if (total && xg_set_reserve(set, elem, total) != XG_OK)
                return XG_ENOMEM;
            set->n = *own;    /* the others go after the owned */
        }
    }
    return set->n == total && o == *own ? XG_OK : XG_EIO;
}

/* The region's features (buf, len: xgp__plan_region's) into set[0] and
 * set[1] (kinds of op), those it owns first (own[i] elements). */
static int region_sets(const struct xg_op *op, const void *buf, size_t len,
                       struct xg_set set[2], size_t own[2],
                       uint64_t *features, char *err, size_t errlen)
{
    const unsigned char *p = buf;
    uint64_t na = 0;
    int rc = XG_OK, i;
    if (len >= sizeof na)
        memcpy(&na, p, sizeof na);
    if (len < sizeof na || na > len - sizeof na)
        return xgo__fail(err, errlen, XG_EIO, "a region's features cut "
                         "short");
    for (i = 0; i < op->ninputs && rc == XG_OK; i++) {
        size_t at = i ? sizeof na + (size_t)na : sizeof na;
        size_t n = i ? len - at : (size_t)na;
        rc = entries_to_set(p + at, n, op->in[i].elem, &set[i], &own[i],
                            features);
    }
    if (rc == XG_ENOMEM)
        return xgo__fail(err, errlen, rc, "out of memory");
    if (rc)
        return xgo__fail(err, errlen, rc, "a region's features cut short");
    return XG_OK;
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

/* The contacts of c that region r owns, as records named by their
 * sources' ids (set's fid and sub), sorted, appended to sp as one run
 * (runs); their kinds and number into part.  XG_ENOMEM, XG_EIO. */
static int region_keep(const struct xg_region *r, struct xg_contacts *c,
                       const struct xg_set set[2], struct xgp_part *part,
                       struct xgp_spill *sp, struct xgp_runs *runs,
                       char *err, size_t errlen)
{
    struct xgp_rec *v;
    struct xgp_chunk run;
    size_t j;
    int rc;
    xg_contacts_keep_owned(c, r);
    part->rank.contacts += c->n;
    if (c->n == 0)
        return XG_OK;
    if (xg__grow_array((void **)&runs->v, &runs->cap, runs->n + 1,
                       sizeof *runs->v) ||
        !(v = calloc(c->n, sizeof *v)))
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    for (j = 0; j < c->n; j++) {
        const struct xg_contact *x = &c->v[j];
        struct xgp_rec *rec = &v[j];
        rec->afid = set[0].fid[x->a];
        rec->asub = set[0].sub[x->a];
        rec->has_b = x->b != UINT32_MAX;
        if (rec->has_b) {
            rec->bfid = set[1].fid[x->b];
            rec->bsub = set[1].sub[x->b];
        }
        rec->kind = x->kind;
        memcpy(rec->p, x->p, sizeof rec->p);
        memcpy(rec->q, x->q, sizeof rec->q);
        part->st.contacts[x->kind]++;
    }
    xgp__recs_sort(v, c->n);
    run.len = c->n * sizeof *v;
    rc = xgp__spill_write(sp, v, (size_t)run.len, &run.off, err, errlen);
    free(v);
    if (rc == XG_OK) {
        runs->v[runs->n++] = run;
        runs->nrec += c->n;
    }
    return rc;
}

/* xgp_internal.h: region r's features into sets, run, its owned
 * contacts kept; the owned elements (and those the core skips among
 * them) counted. */
int xgp__region_run(const struct xgo_job *job, struct xg_ctx *ctx,
                    const struct xg_region *r, const void *buf, size_t len,
                    struct xgp_part *part, struct xgp_spill *sp,
                    struct xgp_runs *runs, GDALProgressFunc pf, void *pa,
                    char *err, size_t errlen)
{
    const struct xg_op *op = job->op;
    struct xg_set set[2] = {{0}, {0}};
    struct xg_contacts c = {0};
    struct xg_stats st;
    size_t own[2] = {0, 0};
    double t;
    int i, rc = XG_OK;

    memset(&st, 0, sizeof st);
    t = xgo__now();
    rc = region_sets(op, buf, len, set, own, &part->rank.features, err,
                     errlen);
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
        rc = region_keep(r, &c, set, part, sp, runs, err, errlen);
    part->rank.compute_seconds += xgo__now() - t;
    xg_contacts_free(&c);
    xg_set_free(&set[0]);
    xg_set_free(&set[1]);
    return rc;
}
