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
 * of them), then the others, each group in the buffer's order (bin by
 * bin, each bin in the order the plan read: ascending FIDs in
 * GeoPackage and Shapefile, so the region's contacts come out of the
 * core as a few ascending runs of the single-process order:
 * region_keep); the features counted into *features.  XG_ENOMEM, XG_EIO
 * (a buffer cut short). */
static int entries_to_set(const unsigned char *p, size_t n, int elem,
                          struct xg_set *set, size_t *own,
                          uint64_t *features)
{
    size_t d = (size_t)xg_elem_doubles(elem), at, total = 0, o = 0, ne = 0;
    *own = 0;
    set->elem = elem;
    for (at = 0; at + sizeof(struct xgp_ent) <= n; ne++) {
        struct xgp_ent h;
        size_t m;
        memcpy(&h, p + at, sizeof h);
        m = h.m & XGP_ENT_COUNT;
        /* m elements of 8 bytes or more each must fit what is left */
        if (m > (n - at - sizeof h) / 8 ||
            xgp__ent_body(&h, d) > n - at - sizeof h)
            return XG_EIO;
        total += m;
        *own += h.c0 ? m : 0;
        at += sizeof h + xgp__ent_body(&h, d);
    }
    if (at != n)
        return XG_EIO;
    *features += ne;
    if (total == 0)
        return XG_OK;
    if (xg_set_reserve(set, elem, total) != XG_OK)
        return XG_ENOMEM;
    set->n = *own;            /* the others go after the owned */
    for (at = 0; at < n;) {
        struct xgp_ent h;
        size_t j, m;
        memcpy(&h, p + at, sizeof h);
        at += sizeof h;
        m = h.m & XGP_ENT_COUNT;
        for (j = 0; j < m; j++) {
            size_t i = h.c0 ? o++ : set->n++;
            set->sub[i] = (int64_t)j;
            if (h.m & XGP_ENT_SUBS) {
                memcpy(&set->sub[i], p + at, sizeof(int64_t));
                at += sizeof(int64_t);
            }
            memcpy(set->xyz + d * i, p + at, d * sizeof(double));
            at += d * sizeof(double);
            set->fid[i] = h.fid;
        }
    }
    return XG_OK;
}

/* The region's features (in: xgp__plan_region's) into set[0] and set[1]
 * (kinds of op), those it owns first (own[i] elements). */
static int region_sets(const struct xg_op *op, const struct xgp_buf *in,
                       struct xg_set set[2], size_t own[2],
                       uint64_t *features, char *err, size_t errlen)
{
    const unsigned char *p = in->p;
    size_t len = in->len;
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

/* A region's records are made and written this many at a time (4.2
 * MiB), and a piece may hold this many ascending runs at most (each
 * written as it is); past it the piece is sorted into one.  Testing
 * only (EXACTGEO_TEST_RECORD_PIECE=N): pieces of N records, every piece
 * with a descent sorted, so that small fixtures take every path. */
#define PIECE_RECS 50000
#define RUNS_MAX 64

/* Appends the n records v (ascending) to sp, as the run runs->v[last]
 * continued when cont (it ends where they begin), else as a new run. */
static int put_run(struct xgp_spill *sp, struct xgp_runs *runs,
                   const struct xgp_rec *v, size_t n, int cont, char *err,
                   size_t errlen)
{
    struct xgp_chunk run;
    int rc;
    if (!cont && xg__grow_array((void **)&runs->v, &runs->cap, runs->n + 1,
                                sizeof *runs->v))
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    run.len = n * sizeof *v;
    if ((rc = xgp__spill_write(sp, v, (size_t)run.len, &run.off, err,
                               errlen)) != XG_OK)
        return rc;
    if (cont)
        runs->v[runs->n - 1].len += run.len;
    else
        runs->v[runs->n++] = run;
    runs->nrec += n;
    return XG_OK;
}

/* The contacts of c that region r owns, as records named by their
 * sources' ids (set's fid and sub), appended to sp as sorted runs (runs),
 * PIECE_RECS at a time: the core gives them in (A element, B element)
 * order and the sets hold their features bin by bin, each in ascending
 * FIDs, owned first, so they come as a few ascending runs (about two a
 * bin at most), each written as it is, a run
 * going on from piece to piece (the file grows by nothing else
 * meanwhile); a piece of more than RUNS_MAX is sorted into one.  Their
 * kinds and number into part.  XG_ENOMEM, XG_EIO. */
static int region_keep(const struct xg_region *r, struct xg_contacts *c,
                       const struct xg_set set[2], struct xgp_part *part,
                       struct xgp_spill *sp, struct xgp_runs *runs,
                       char *err, size_t errlen)
{
    struct xgp_rec *v, last;
    size_t at, j, lo, m, nrun, piece = PIECE_RECS, most = RUNS_MAX;
    const char *test = getenv("EXACTGEO_TEST_RECORD_PIECE");
    int rc = XG_OK, any = 0;
    xg_contacts_keep_owned(c, r);
    part->rank.contacts += c->n;
    if (c->n == 0)
        return XG_OK;
    if (test && atoi(test) > 0) {
        piece = (size_t)atoi(test);
        most = 1;
    }
    m = c->n < piece ? c->n : piece;
    if (xg__grow_array((void **)&runs->scratch, &runs->scratch_cap, m,
                       sizeof *runs->scratch))
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    v = runs->scratch;
    memset(&last, 0, sizeof last);
    for (at = 0; at < c->n && rc == XG_OK; at += m) {
        m = c->n - at < piece ? c->n - at : piece;
        for (j = 0, nrun = 1; j < m; j++) {
            const struct xg_contact *x = &c->v[at + j];
            struct xgp_rec *rec = &v[j];
            memset(rec, 0, sizeof *rec);
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
            nrun += j > 0 && xgp__rec_cmp(&v[j - 1], rec) > 0;
        }
        if (nrun > most) {
            xgp__recs_sort(v, m);
            nrun = 1;
        }
        for (lo = 0, j = 1; j <= m && rc == XG_OK; j++) {
            if (j < m && (nrun == 1 || xgp__rec_cmp(&v[j - 1], &v[j]) <= 0))
                continue;
            /* the last run goes on where this one begins after it */
            rc = put_run(sp, runs, v + lo, j - lo,
                         any && xgp__rec_cmp(&last, &v[lo]) <= 0, err,
                         errlen);
            last = v[j - 1];
            any = 1;
            lo = j;
        }
    }
    return rc;
}

/* xgp_internal.h: region r's features into sets, run, its owned
 * contacts kept; the owned elements (and those the core skips among
 * them) counted. */
int xgp__region_run(const struct xgo_job *job, struct xg_ctx *ctx,
                    const struct xg_region *r, struct xgp_buf *in,
                    struct xgp_part *part,
                    struct xgp_spill *sp,
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
    rc = region_sets(op, in, set, own, &part->rank.features, err, errlen);
    xgp__buf_trim(in);
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
