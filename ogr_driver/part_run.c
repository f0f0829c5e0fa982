/*
 * part_run.c -- a run in regions on every rank of a communicator
 * (xgp_run, xgp.h): rank 0 plans (every feature read once, each listed
 * for the regions it meets) and sends each rank its regions' lists; the
 * ranks run their regions in rounds (region k on rank k mod P), stop
 * together when one fails, and send their records to rank 0, which puts
 * them in the single-process order and hands them to the run's sink:
 * written into a dataset (the tool, xgp_run) or kept for the EXACTGEO
 * driver (xgp__keep_run).  One run, two ends.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "xgp_internal.h"
#include "gpkg_rtree.h"


/* What rank 0 broadcasts: its plan, or its failure. */
struct plan_head {
    int32_t rc;               /* the plan's failure: every rank stops   */
    int32_t n;                /* regions that follow                    */
};

/* Where rank 0 puts the records, once sorted: written into dst's layer
 * layer_name (created with lco), as xgo_job_run writes them, or, when
 * keep is set (dst NULL), kept there for the EXACTGEO driver, as
 * xgo__job_keep keeps them. */
struct sink {
    GDALDatasetH dst;
    const char *layer_name;
    char **lco;
    struct xgo_kept **keep;
};

/* A part of a stage of the job's progress bar (bar.c; the stages: on
 * rank 0 the plan's reads, then on every rank its regions (the core),
 * on rank 0 the write or the records kept, the close and the index):
 * one region of this rank's among its regions' stage, or a whole
 * stage. */
struct slice {
    struct xgo_bar *bar;
    double at, span;          /* of the stage                          */
};

/* GDAL's progress callback for a slice (arg: struct slice): f of the
 * slice mapped onto the bar's stage.  FALSE (cancel) when the job's
 * callback says so; TRUE when the job has none. */
static int CPL_STDCALL slice_fn(double f, const char *msg, void *arg)
{
    const struct slice *s = arg;
    return xgo__bar_fn(s->at + s->span * f, msg, s->bar);
}

/* The figures of one rank's part added to the run's (the features'
 * counts are the plan's, in rep already). */
static void add_part(struct xg_stats *st, struct xgo_report *rep,
                     const struct xgp_part *p, int *have_run)
{
    int k;
    if (p->rank.read_seconds > rep->read_seconds)
        rep->read_seconds = p->rank.read_seconds;
    if (p->has_run && !*have_run) {
        *have_run = 1;
        st->engine = p->st.engine;
        st->threads = p->st.threads;
        memcpy(st->grid, p->st.grid, sizeof st->grid);
    }
    st->a_count += p->st.a_count;
    st->b_count += p->st.b_count;
    st->a_skipped += p->st.a_skipped;
    st->b_skipped += p->st.b_skipped;
    for (k = 0; k < XG_KIND_COUNT; k++)
        st->contacts[k] += p->st.contacts[k];
    xg_stats_add_work(st, &p->st, 1);
}

/* Rank 0 after the gather: each rank's part into the report, the first
 * failure (by region) as the run's, else the checks, the records sorted
 * and handed to the sink (written, or kept: then src's datasets, their
 * copied attributes, go with them). */
static int finish(const struct xgo_job *job, int size, char *all,
                  const size_t *len, struct xgo_src src[2],
                  OGRSpatialReferenceH srs, const struct sink *sk,
                  struct xg_stats *st, struct xgo_report *rep,
                  struct xgo_bar *bar, char *err, size_t errlen)
{
    struct xgp_rec *v = NULL;
    size_t nrec = 0, at = 0;
    int r, rc = XG_OK, failed = -1, have_run = 0;
    struct slice sl = {bar, 0, 1};
    double t;

    for (r = 0, at = 0; r < size; at += len[r], r++) {
        const struct xgp_part *p = (const struct xgp_part *)(all + at);
        if (len[r] < sizeof *p)
            return xgo__fail(err, errlen, XG_EIO, "rank %d sent %zu bytes, "
                             "not its figures", r, len[r]);
        rep->per_rank[r] = p->rank;
        add_part(st, rep, p, &have_run);
        nrec += p->nrec;
        if (p->rc && (failed < 0 || p->region < failed)) {
            failed = p->region;
            rc = p->rc;
            snprintf(err, errlen, "%s", p->err);
        }
    }
    if (rc)
        return rc;
    /* the single run's check after its core, on the summed counts */
    if ((rc = xgo__all_skipped(job->op, st, &src[0], &src[1], err,
                               errlen)) != XG_OK)
        return rc;
    /* the records, each rank's after its figures, into one array */
    if (!(v = malloc((nrec ? nrec : 1) * sizeof *v)))
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    for (r = 0, at = 0, nrec = 0; r < size; at += len[r], r++) {
        const struct xgp_part *p = (const struct xgp_part *)(all + at);
        memcpy(v + nrec, all + at + sizeof *p, p->nrec * sizeof *v);
        nrec += p->nrec;
    }
    t = xgo__now();
    xgp__recs_sort(v, nrec);
    xgo__bar_estimate_output(bar, (double)nrec);
    xgo__bar_begin(bar, XGO_BAR_WRITE);
    if (sk->keep)
        rc = xgp__keep_records(job, sk->layer_name, srs, src, v, nrec,
                               rep, sk->keep, slice_fn, &sl, err, errlen);
    else
        rc = xgp__write(job, sk->dst, sk->layer_name, sk->lco, srs, src, v,
                        nrec, rep, slice_fn, &sl, err, errlen);
    /* written into a dst the caller closes, or kept: the run is over */
    if (rc == XG_OK && !job->close_dst)
        xgo__bar_done(bar);
    rep->write_seconds = xgo__now() - t;
    rep->per_rank[0].write_seconds = rep->write_seconds;
    free(v);
    return rc;
}

/* The lists of region k, the next in *at (rank's part of the plan, up
 * to end): XG_EIO when the part does not hold them. */
static int region_fids(const char **at, const char *end, int k,
                       struct xgp_fids *f)
{
    struct xgp_head h;
    int i, o;
    if ((size_t)(end - *at) < sizeof h)
        return XG_EIO;
    memcpy(&h, *at, sizeof h);
    *at += sizeof h;
    if (h.region != k)
        return XG_EIO;
    for (i = 0; i < 2; i++)
        for (o = 0; o < 2; o++) {
            if (h.n[i][o] > (size_t)(end - *at) / sizeof(int64_t))
                return XG_EIO;
            f->v[i][o] = (const int64_t *)(const void *)*at;
            f->n[i][o] = (size_t)h.n[i][o];
            *at += f->n[i][o] * sizeof(int64_t);
        }
    return XG_OK;
}

/* One rank's run in regions: what xgp_run's stages share. */
struct prun {
    struct xgp_comm *comm;
    const struct xgo_job *job;
    struct xgo_report *rep;
    struct xg_stats *st;
    int n;                    /* regions                                */
    struct xgo_src src[2];    /* rank 0: the inputs the plan opened     */
    OGRSpatialReferenceH srs; /* rank 0: their CRS                      */
    struct xg_region *regions;
    void **parts;             /* rank 0: each rank's part of the plan   */
    size_t *parts_len;        /* ... and its bytes                      */
    char *plan;               /* this rank's part                       */
    size_t plan_len;
    struct xg_ctx *ctx;
    struct xgp_part part;     /* what this rank did, for rank 0         */
    struct xgo_bar bar;       /* the job's progress bar (rank 0's whole
                                 run; another rank's regions alone)    */
    struct xgp_recs recs;     /* the records its regions own            */
    char *buf, *all;          /* what it sends; rank 0: what all sent   */
    size_t *len;              /* rank 0: what each rank sent            */
    size_t len_other;         /* the other ranks' (unused)              */
    char *err;
    size_t errlen;
};

/* Rank 0 plans (or says why not) and every rank learns the plan's
 * outcome and the regions: the plan's code, the same on every rank. */
static int plan_head(struct prun *P, const struct sink *sk)
{
    struct xgp_comm *comm = P->comm;
    const struct xgo_job *job = P->job;
    struct plan_head ph;
    char *err = P->err;
    size_t errlen = P->errlen;
    memset(&ph, 0, sizeof ph);
    ph.n = P->n;
    if (!(P->regions = calloc((size_t)P->n, sizeof *P->regions)))
        ph.rc = XG_ENOMEM;
    if (comm->rank == 0) {
        if (!job->op || !(job->op->options & XG_OPT_REGIONS))
            ph.rc = xgo__fail(err, errlen, XG_EINVAL, "a run in regions "
                              "takes an operation that runs in regions");
        else if (P->n < comm->size)
            ph.rc = xgo__fail(err, errlen, XG_EINVAL, "%d regions for %d "
                              "ranks: each rank needs one at least", P->n,
                              comm->size);
        else if (!sk->dst && !sk->keep)
            ph.rc = xgo__fail(err, errlen, XG_EINVAL, "no output dataset");
        else if (ph.rc == XG_ENOMEM ||
                 !(P->len = calloc((size_t)comm->size, sizeof *P->len)) ||
                 !(P->parts = calloc((size_t)comm->size,
                                     sizeof *P->parts)) ||
                 !(P->parts_len = calloc((size_t)comm->size,
                                         sizeof *P->parts_len)))
            ph.rc = xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        else {
            double t = xgo__now();
            ph.rc = xgp__plan(job, P->n, comm->size, P->src, &P->srs,
                              P->regions, P->rep, &P->bar, P->parts,
                              P->parts_len, err, errlen);
            P->part.rank.read_seconds = xgo__now() - t;
        }
    }
    comm->bcast(comm, &ph, sizeof ph);
    if (ph.rc == XG_OK)
        comm->bcast(comm, P->regions, (size_t)P->n * sizeof *P->regions);
    return ph.rc;
}

/* Each rank receives its part of the plan and makes its context: a
 * failure's message in its part (the rounds then run nothing on it). */
static int receive(struct prun *P)
{
    struct xgp_comm *comm = P->comm;
    struct xgp_part *part = &P->part;
    int rc = XG_OK, r;
    if (comm->scatter(comm, P->parts, P->parts_len, (void **)&P->plan,
                      &P->plan_len) != XG_OK)
        rc = xgo__fail(part->err, sizeof part->err, XG_ENOMEM,
                       "out of memory");
    if (P->parts)
        for (r = 0; r < comm->size; r++) {
            free(P->parts[r]);
            P->parts[r] = NULL;
        }
    if (rc == XG_OK &&
        (!(P->ctx = xg_ctx_new()) ||
         xg_ctx_set_threads(P->ctx, P->job->threads) != XG_OK))
        rc = xgo__fail(part->err, sizeof part->err, XG_ENOMEM,
                       "out of memory");
    if (rc == XG_OK)
        xg_ctx_set_memory(P->ctx, P->job->memory);
    return rc;
}

/* The rounds: region first + rank in each; after each, every rank
 * learns whether one failed (or was cancelled), and all stop.  rc: this
 * rank's failure so far.  The outcome into the part. */
static void rounds(struct prun *P, int rc)
{
    struct xgp_comm *comm = P->comm;
    struct xgp_part *part = &P->part;
    const char *plan_at = P->plan;
    struct slice sl = {&P->bar, 0.0, 0.0};
    int first, mine = 0, stop,
        nmine = (P->n - comm->rank + comm->size - 1) / comm->size;
    part->region = -1;
    xgo__bar_begin(&P->bar, XGO_BAR_CORE);
    for (first = 0; first < P->n; first += comm->size) {
        int k = first + comm->rank;
        if (rc == XG_OK && k < P->n) {
            struct xgp_fids f;
            sl.at = (double)mine / nmine;
            sl.span = 1.0 / nmine;
            if (region_fids(&plan_at, P->plan + P->plan_len, k, &f) !=
                XG_OK)
                rc = xgo__fail(part->err, sizeof part->err, XG_EIO,
                               "rank %d: the plan of region %d is cut short",
                               comm->rank, k);
            else
                rc = xgp__region_run(P->job, P->ctx, &P->regions[k], &f,
                                     part, &P->recs, slice_fn, &sl,
                                     part->err, sizeof part->err);
            if (rc)
                part->region = k;
            part->rank.regions++;
            mine++;
        }
        stop = rc != XG_OK;
        comm->max(comm, &stop);
        if (stop)
            break;
    }
    part->rc = rc;
    if (rc && part->region < 0)
        part->region = P->n;  /* not a region's failure: after them */
    part->nrec = rc ? 0 : P->recs.n;
}

/* The figures, then the records, to rank 0 (the gather's code). */
static int send(struct prun *P)
{
    struct xgp_part *part = &P->part;
    size_t rec = sizeof *P->recs.v;
    double t = xgo__now();
    int rc;
    if (!(P->buf = malloc(sizeof *part + part->nrec * rec))) {
        /* with nothing to send but the failure: the figures alone */
        part->rc = XG_ENOMEM;
        part->nrec = 0;
        snprintf(part->err, sizeof part->err, "out of memory");
    }
    if (P->buf) {
        memcpy(P->buf, part, sizeof *part);
        if (part->nrec)       /* recs.v is NULL when there are none */
            memcpy(P->buf + sizeof *part, P->recs.v, part->nrec * rec);
    }
    free(P->recs.v);
    P->recs.v = NULL;
    rc = P->comm->gather(P->comm, P->buf ? (void *)P->buf : (void *)part,
                         P->buf ? sizeof *part + part->nrec * rec
                                : sizeof *part,
                         (void **)&P->all, P->len ? P->len : &P->len_other);
    part->rank.gather_seconds = xgo__now() - t;
    return rc;
}

/* Rank 0 after the gather (rc: its code): the report's per-rank
 * figures, the failure or the records to the sink (finish). */
static int gathered(struct prun *P, int rc, const struct sink *sk)
{
    struct xgp_comm *comm = P->comm;
    struct xgo_report *rep = P->rep;
    /* the layers' names first: the keep sink takes the inputs */
    snprintf(rep->a_layer, sizeof rep->a_layer, "%s", P->src[0].name);
    snprintf(rep->b_layer, sizeof rep->b_layer, "%s", P->src[1].name);
    if (rc == XG_OK && !(rep->per_rank = calloc((size_t)comm->size,
                                                sizeof *rep->per_rank)))
        rc = XG_ENOMEM;
    if (rc != XG_OK) {
        xgo__fail(P->err, P->errlen, rc, "out of memory");
    } else {
        /* rank 0's gather time is its own: patch it into its part */
        ((struct xgp_part *)P->all)->rank.gather_seconds =
            P->part.rank.gather_seconds;
        rep->ranks = comm->size;
        rep->regions = P->n;
        rc = finish(P->job, comm->size, P->all, P->len, P->src, P->srs, sk,
                    P->st, rep, &P->bar, P->err, P->errlen);
    }
    return rc;
}

/* Frees what the stages allocated. */
static void prun_free(struct prun *P)
{
    int r;
    xg_ctx_free(P->ctx);
    free(P->regions);
    if (P->parts)
        for (r = 0; r < P->comm->size; r++)
            free(P->parts[r]);
    free(P->parts);
    free(P->parts_len);
    free(P->plan);
    free(P->buf);
    free(P->all);
    free(P->len);
    free(P->recs.v);
    xgo__src_close(&P->src[0]);
    xgo__src_close(&P->src[1]);
}

/* xgp_run and xgp__run_keep: the run in regions on every rank of comm,
 * its records to sk on rank 0; dst (sk->dst) closed at the end where
 * the job says, whatever the outcome. */
static int run(struct xgp_comm *comm, const struct xgo_job *job,
               const struct sink *sk, struct xg_stats *st, char *err,
               size_t errlen)
{
    struct xgo_report local;
    struct xg_stats own;      /* where the caller wants no figures */
    struct prun P;
    int rc, stop;

    memset(&P, 0, sizeof P);
    P.comm = comm;
    P.job = job;
    P.rep = job->report ? job->report : &local;
    if (!st)
        st = &own;
    P.st = st;
    P.err = err;
    P.errlen = errlen;
    memset(P.rep, 0, sizeof *P.rep);
    memset(st, 0, sizeof *st);
    if (err && errlen)
        err[0] = '\0';
    P.n = job->regions ? job->regions : comm->size;
    xgo__bar_init(&P.bar, job->progress, job->progress_arg);
    xgo__bar_output(&P.bar, sk->dst, sk->lco, job->close_dst);

    if ((rc = plan_head(&P, sk)) != XG_OK)
        goto done;
    rounds(&P, receive(&P));
    rc = send(&P);
    if (comm->rank != 0) {
        /* rank 0 reports the run's outcome; this rank's own failure (or
         * another's) makes its code non-zero too */
        stop = P.part.rc;
        comm->max(comm, &stop);
        rc = stop;
        goto done;
    }
    rc = gathered(&P, rc, sk);
    stop = rc;
    comm->max(comm, &stop);

done:
    if (comm->rank == 0 && sk->dst && job->close_dst)
        rc = xgo__close_dst(sk->dst, rc, P.rep, &P.bar, err, errlen);
    if (comm->rank != 0 && err && errlen)
        err[0] = '\0';
    prun_free(&P);
    if (P.rep == &local)      /* no caller to free the per-rank figures */
        free(local.per_rank);
    return rc;
}

/* xgp.h: the records written into dst. */
int xgp_run(struct xgp_comm *comm, const struct xgo_job *job,
            GDALDatasetH dst, const char *layer_name, char **lco,
            struct xg_stats *st, char *err, size_t errlen)
{
    struct sink sk = {dst, layer_name, lco, NULL};
    if (dst && job->close_dst && comm->rank == 0)
        xgo__rtree_defer_on(dst);  /* the index built at our close */
    return run(comm, job, &sk, st, err, errlen);
}

/* xgp_internal.h: the records kept for the driver. */
int xgp__run_keep(struct xgp_comm *comm, const struct xgo_job *job,
                  const char *layer_name, struct xgo_kept **keep,
                  struct xg_stats *st, char *err, size_t errlen)
{
    struct sink sk = {NULL, layer_name, NULL, keep};
    *keep = NULL;
    return run(comm, job, &sk, st, err, errlen);
}
