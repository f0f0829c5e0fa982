/*
 * region_run.c -- one region of a run in regions, on the rank that has
 * it: the features meeting its reach read with the readers of a single
 * run, the operation's engine run on them, the contacts the region owns
 * kept and named by their sources' ids.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cpl_error.h>
#include "xgp_internal.h"


/* Appends the elements of from to to (the foreign features' after the
 * owned ones: the order of a region's elements does not matter, its
 * records are named by ids). */
static int append(struct xg_set *to, const struct xg_set *from)
{
    size_t i;
    int d = xg_elem_doubles(from->elem);
    for (i = 0; i < from->n; i++)
        if (xg_set_push(to, from->elem, from->xyz + (size_t)d * i,
                        from->fid[i], from->sub[i]) != XG_OK)
            return XG_ENOMEM;
    return XG_OK;
}

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
    struct xg_opts o = job->opts;
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

/* The core's work figures of one run added to sum (its counts of
 * elements and contacts are the region's, not the owned ones: the
 * caller adds those). */
static void add_work(struct xg_stats *sum, const struct xg_stats *st)
{
    int k;
    sum->grid_refs_a += st->grid_refs_a;
    sum->grid_refs_b += st->grid_refs_b;
    sum->candidates += st->candidates;
    sum->bbox_pairs += st->bbox_pairs;
    sum->deferred += st->deferred;
    xg_counters_add(&sum->cnt, &st->cnt);
    for (k = 0; k < XG_STAGE_COUNT; k++)
        sum->seconds[k] += st->seconds[k];
}

int xgp__region_run(const struct xgo_job *job, struct xg_ctx *ctx, int k,
                    const struct xg_region *r, const double clip[4],
                    struct xgp_part *part, struct xgp_recs *out,
                    GDALProgressFunc pf, void *pa, char *err,
                    size_t errlen)
{
    const struct xg_op *op = job->op;
    struct xgo_src s[2];
    struct xg_set set[2] = {{0}, {0}}, foreign[2] = {{0}, {0}};
    struct xgo_report rep;
    struct xg_contacts c = {0};
    struct xg_stats st;
    struct xgo_relay rl = {pf, pa};
    size_t own[2] = {0, 0}, j;
    double reach[4], t;
    int i, rc = XG_OK;

    memset(s, 0, sizeof s);
    memset(&rep, 0, sizeof rep);
    memset(&st, 0, sizeof st);
    xg_region_reach(r, reach);
    for (i = 0; i < 2; i++) {
        reach[i] = reach[i] > clip[i] ? reach[i] : clip[i];
        reach[i + 2] = reach[i + 2] < clip[i + 2] ? reach[i + 2]
                                                  : clip[i + 2];
    }
    t = xgo__now();
    for (i = 0; i < op->ninputs && rc == XG_OK; i++) {
        /* the job's input with the region's reach as OGR's filter; the
         * user's box, if any, is tested per feature by the reader; no
         * attributes (rank 0 fetches those it writes) */
        struct xgo_input in = i ? job->b : job->a;
        in.spat_set = 1;
        memcpy(in.spat, reach, sizeof reach);
        in.copy = XGO_COPY_NONE;
        in.fields = NULL;
        /* what GDAL says while opening (a CRS it guesses, a driver's
         * notice) rank 0's plan said once already: not again for each
         * region */
        CPLPushErrorHandler(CPLQuietErrorHandler);
        rc = xgo__src_open(&s[i], &in, i ? "B" : "A", err, errlen);
        CPLPopErrorHandler();
        if (rc)
            break;
        s[i].region = r;
        s[i].foreign = &foreign[i];
        s[i].user_box_set = (i ? job->b : job->a).spat_set;
        memcpy(s[i].user_box, (i ? job->b : job->a).spat,
               sizeof s[i].user_box);
        foreign[i].elem = set[i].elem = op->in[i].elem;
        rc = xgo__read(&s[i], job, i, &set[i], &rep, NULL, NULL, err,
                       errlen);
        /* a box never returns features without geometry: region 0
         * counts them, as a single run would, unless the user's box
         * leaves them out anyway */
        if (rc == XG_OK && k == 0 && !(i ? job->b : job->a).spat_set) {
            struct xgo_src whole;
            struct xgo_input plain = i ? job->b : job->a;
            plain.copy = XGO_COPY_NONE;
            plain.fields = NULL;
            CPLPushErrorHandler(CPLQuietErrorHandler);
            rc = xgo__src_open(&whole, &plain, i ? "B" : "A", err, errlen);
            CPLPopErrorHandler();
            if (rc == XG_OK)
                rc = xgo__read_nogeom(&whole, job, &rep, err, errlen);
            s[i].nread += whole.nread;
            s[i].nogeom += whole.nogeom;
            xgo__src_close(&whole);
        }
        own[i] = set[i].n;
        if (rc == XG_OK && append(&set[i], &foreign[i]) != XG_OK)
            rc = xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        part->rank.features += s[i].nseen;
        part->features[i] += s[i].nread;
        part->nogeom[i] += s[i].nogeom;
        part->barren[i] += s[i].barren;
        part->invalid[i] += s[i].invalid;
    }
    part->rank.read_seconds += xgo__now() - t;
    if (rc == XG_OK && pf && !pf(0.5, NULL, pa))
        rc = xgo__fail(err, errlen, XG_ECANCEL, "cancelled");
    t = xgo__now();
    /* every record has an A element: a region without one has none */
    if (rc == XG_OK && set[0].n > 0) {
        xg_ctx_set_progress(ctx, pf ? xgo__relay : NULL, &rl);
        rc = op->run(ctx, &set[0], &set[1], &job->opts, &c, &st);
        xg_ctx_set_progress(ctx, NULL, NULL);
        if (rc == XG_ECANCEL)
            xgo__fail(err, errlen, rc, "cancelled");
        else if (rc)
            xgo__fail(err, errlen, rc, "%s: %s", op->name,
                      *xg_ctx_errmsg(ctx) ? xg_ctx_errmsg(ctx)
                                          : xg_strerror(rc));
        if (rc == XG_OK && !part->has_run) {
            part->has_run = 1;
            part->st.engine = st.engine;
            part->st.threads = st.threads;
            memcpy(part->st.grid, st.grid, sizeof st.grid);
        }
        add_work(&part->st, &st);
    }
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
    if (rc == XG_OK) {
        xg_contacts_keep_owned(&c, r);
        for (j = 0; j < c.n && rc == XG_OK; j++) {
            const struct xg_contact *x = &c.v[j];
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
        part->rank.contacts += c.n;
    }
    part->rank.compute_seconds += xgo__now() - t;
    part->triangulated += rep.triangulated;
    part->nonplanar += rep.nonplanar;
    part->bad_polygons += rep.bad_polygons;
    part->not_closed += rep.not_closed;
    part->crossing += rep.crossing;
    part->has_z |= rep.has_z;
    xg_contacts_free(&c);
    for (i = 0; i < 2; i++) {
        xg_set_free(&set[i]);
        xg_set_free(&foreign[i]);
        xgo__src_close(&s[i]);
    }
    return rc;
}
