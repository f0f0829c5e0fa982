/*
 * part_run.c -- a run in regions on every rank of a communicator
 * (xgp_run, xgp.h): rank 0 plans (every feature read once, filed in its
 * temporary file under the strips it meets, the regions cut by the work)
 * and, in rounds, sends each rank the features of its next region (region
 * k on rank k mod P); the ranks run them, keep the records each region
 * owns sorted in their own file, stop together when one fails, and send
 * their records to rank 0, which merges the sorted runs into the
 * single-process order and hands them to the run's sink: written into a
 * dataset (the tool, xgp_run) or kept for the EXACTGEO driver
 * (xgp__keep_run).  One run, two ends.
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
 * failure (by region) as the run's, else the checks, the records merged
 * (rank 0's runs in its file, sp and runs, and those the others sent
 * after their figures) and handed to the sink (written, or kept: then
 * src's datasets, their copied attributes, go with them). */
static int finish(const struct xgo_job *job, int size, char *all,
                  const size_t *len, const struct xgp_spill *sp,
                  const struct xgp_runs *runs, struct xgo_src src[2],
                  OGRSpatialReferenceH srs, const struct sink *sk,
                  struct xg_stats *st, struct xgo_report *rep,
                  struct xgo_bar *bar, char *err, size_t errlen)
{
    struct xgp_rec *v = NULL;
    struct xgp_merge m;
    size_t nrec = 0, at = 0;
    int r, rc = XG_OK, failed = -1, have_run = 0;
    struct slice sl = {bar, 0, 1};
    double t;

    for (r = 0, at = 0; r < size; at += len[r], r++) {
        const struct xgp_part *p = (const struct xgp_part *)(all + at);
        if (len[r] < sizeof *p ||
            (len[r] - sizeof *p) / sizeof *v < p->nrec)
            return xgo__fail(err, errlen, XG_EIO, "rank %d sent %zu bytes, "
                             "not its figures and records", r, len[r]);
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
    /* the other ranks' records, each rank's after its figures, into one
     * array (rank 0's stay in its file) */
    if (nrec && !(v = malloc(nrec * sizeof *v)))
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    for (r = 0, at = 0, nrec = 0; r < size; at += len[r], r++) {
        const struct xgp_part *p = (const struct xgp_part *)(all + at);
        if (p->nrec)
            memcpy(v + nrec, all + at + sizeof *p, p->nrec * sizeof *v);
        nrec += p->nrec;
    }
    t = xgo__now();
    if ((rc = xgp__merge_begin(&m, sp, runs, v, nrec, err, errlen)) ==
        XG_OK) {
        xgo__bar_estimate_output(bar, (double)m.n);
        xgo__bar_begin(bar, XGO_BAR_WRITE);
        if (sk->keep)
            rc = xgp__keep_records(job, sk->layer_name, srs, src, &m, rep,
                                   sk->keep, slice_fn, &sl, err, errlen);
        else
            rc = xgp__write(job, sk->dst, sk->layer_name, sk->lco, srs, src,
                            &m, rep, slice_fn, &sl, err, errlen);
    }
    xgp__merge_end(&m);
    /* written into a dst the caller closes, or kept: the run is over */
    if (rc == XG_OK && !job->close_dst)
        xgo__bar_done(bar);
    rep->write_seconds = xgo__now() - t;
    rep->per_rank[0].write_seconds = rep->write_seconds;
    free(v);
    return rc;
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
    struct xgp_plan plan;     /* rank 0: the plan, its file             */
    struct xgp_spill own;     /* another rank's file                    */
    struct xgp_spill *sp;     /* this rank's file: the plan's on rank 0 */
    int round;                /* the round being shipped                */
    double make_seconds;      /* rank 0: making the round's regions     */
    struct xgp_buf mine;      /* this rank's region in the round        */
    struct xgp_buf tmp;       /* scratch of the regions' loads          */
    struct xg_ctx *ctx;
    struct xgp_part part;     /* what this rank did, for rank 0         */
    struct xgo_bar bar;       /* the job's progress bar (rank 0's whole
                                 run; another rank's regions alone)    */
    struct xgp_runs runs;     /* the records its regions own, sorted,
                                 in its file                           */
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
                 !(P->len = calloc((size_t)comm->size, sizeof *P->len)))
            ph.rc = xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        else {
            double t = xgo__now();
            ph.rc = xgp__plan(job, P->n, P->src, &P->srs, P->regions,
                              P->rep, &P->bar, &P->plan, err, errlen);
            P->part.rank.read_seconds = xgo__now() - t;
            CPLDebug("EXACTGEO", "the plan: %.3f s, %llu bytes filed",
                     P->part.rank.read_seconds,
                     (unsigned long long)P->plan.sp.end);
        }
    }
    comm->bcast(comm, &ph, sizeof ph);
    if (ph.rc == XG_OK)
        comm->bcast(comm, P->regions, (size_t)P->n * sizeof *P->regions);
    return ph.rc;
}

/* Each rank's file (rank 0's is the plan's) and context: a failure's
 * message in its part (the rounds then run nothing on it). */
static int prepare(struct prun *P)
{
    struct xgp_part *part = &P->part;
    int rc = XG_OK;
    if (P->comm->rank == 0) {
        P->sp = &P->plan.sp;
    } else {
        P->sp = &P->own;
        rc = xgp__spill_open(&P->own, P->job->spill_dir, part->err,
                             sizeof part->err);
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

/* The scatter's make (xgp_comm.scatter): rank r's region in this round,
 * from rank 0's plan; none past the last region. */
static int make_region(void *arg, int r, struct xgp_buf *b)
{
    struct prun *P = arg;
    int k = P->round + r, rc;
    double t = xgo__now();
    b->len = 0;
    if (r == 1 || P->comm->size == 1)
        P->make_seconds = 0;
    if (k >= P->n)
        return XG_OK;
    rc = xgp__plan_region(&P->plan, k, b, &P->tmp, P->part.err,
                          sizeof P->part.err);
    P->make_seconds += xgo__now() - t;
    return rc;
}

/* The rounds: region first + rank in each; after each, every rank
 * learns whether one failed (or was cancelled), and all stop.  rc: this
 * rank's failure so far.  The outcome into the part. */
static void rounds(struct prun *P, int rc)
{
    struct xgp_comm *comm = P->comm;
    struct xgp_part *part = &P->part;
    struct slice sl = {&P->bar, 0.0, 0.0};
    int first, mine = 0, stop,
        nmine = (P->n - comm->rank + comm->size - 1) / comm->size;
    part->region = -1;
    xgo__bar_begin(&P->bar, XGO_BAR_CORE);
    for (first = 0; first < P->n; first += comm->size) {
        int k = first + comm->rank, e;
        double t = xgo__now();
        /* every rank takes part in the scatter, whatever its state */
        P->round = first;
        e = comm->scatter(comm, make_region, P, &P->mine);
        CPLDebug("EXACTGEO", "rank %d: round %d: its region's %zu bytes in "
                 "%.3f s (rank 0: the regions made in %.3f s)", comm->rank,
                 first / comm->size, P->mine.len, xgo__now() - t,
                 P->make_seconds);
        part->rank.read_seconds += xgo__now() - t;
        xgp__buf_trim(&P->tmp);
        if (rc == XG_OK && e != XG_OK)
            rc = e == XG_ENOMEM && comm->rank != 0
                     ? xgo__fail(part->err, sizeof part->err, e,
                                 "out of memory")
                     : e;
        if (rc == XG_OK && k < P->n) {
            sl.at = (double)mine / nmine;
            sl.span = 1.0 / nmine;
            rc = xgp__region_run(P->job, P->ctx, &P->regions[k], &P->mine,
                                 part, P->sp, &P->runs, slice_fn, &sl,
                                 part->err, sizeof part->err);
            if (rc)
                part->region = k;
            part->rank.regions++;
            mine++;
        } else if (rc != XG_OK && part->region < 0 && k < P->n) {
            part->region = k;
        }
        stop = rc != XG_OK;
        comm->max(comm, &stop);
        if (stop)
            break;
    }
    part->rc = rc;
    if (rc && part->region < 0)
        part->region = P->n;  /* not a region's failure: after them */
    /* the regions are done: their buffers go before the write's */
    xgp__plan_drop(&P->plan);
    free(P->mine.p);
    free(P->tmp.p);
    free(P->runs.scratch);
    memset(&P->mine, 0, sizeof P->mine);
    memset(&P->tmp, 0, sizeof P->tmp);
    P->runs.scratch = NULL;
    P->runs.scratch_cap = 0;
}

/* The figures, then, from a rank other than 0, its records (rank 0's
 * stay in its file for the merge), to rank 0 (the gather's code). */
static int send(struct prun *P)
{
    struct xgp_part *part = &P->part;
    size_t rec = sizeof(struct xgp_rec), at = 0, k;
    double t = xgo__now();
    int rc = XG_OK;
    part->nrec = P->comm->rank != 0 && part->rc == XG_OK ? P->runs.nrec : 0;
    if (!(P->buf = malloc(sizeof *part + part->nrec * rec))) {
        /* with nothing to send but the failure: the figures alone */
        part->rc = XG_ENOMEM;
        part->nrec = 0;
        snprintf(part->err, sizeof part->err, "out of memory");
    }
    for (k = 0; P->buf && part->nrec && k < P->runs.n && rc == XG_OK; k++) {
        rc = xgp__spill_read(P->sp, P->runs.v[k].off,
                             P->buf + sizeof *part + at,
                             (size_t)P->runs.v[k].len, part->err,
                             sizeof part->err);
        at += (size_t)P->runs.v[k].len;
    }
    if (rc != XG_OK) {
        part->rc = rc;
        part->nrec = 0;
    }
    if (P->buf)
        memcpy(P->buf, part, sizeof *part);
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
        rc = finish(P->job, comm->size, P->all, P->len, P->sp, &P->runs,
                    P->src, P->srs, sk, P->st, rep, &P->bar, P->err,
                    P->errlen);
    }
    return rc;
}

/* Frees what the stages allocated. */
static void prun_free(struct prun *P)
{
    xg_ctx_free(P->ctx);
    free(P->regions);
    xgp__plan_free(&P->plan);
    xgp__spill_close(&P->own);
    free(P->runs.v);
    free(P->runs.scratch);
    free(P->mine.p);
    free(P->tmp.p);
    free(P->buf);
    free(P->all);
    free(P->len);
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
    P.plan.sp.fd = P.own.fd = -1;
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
    rounds(&P, prepare(&P));
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
