/*
 * write_batch.c -- the one feature pipeline of every writer (contacts,
 * lines, triangles): worker threads make the features of batches k+1,
 * k+2, ... while the calling thread, the only one that touches the
 * output dataset, writes batch k.  Features are written in record
 * order, so FIDs and order are those of a plain loop; with one thread
 * there is no worker and the loop is the plain one.
 *
 * Why: making an OGR feature (its geometry and fields, GDAL's
 * allocations) costs about as much as the driver's insert; on a second
 * core it overlaps the insert instead of adding to it.  A feature is
 * destroyed by the thread that made it (the worker that next fills its
 * slot): freeing it on the writer thread, into another thread's malloc
 * arena, made the pipeline slower than the plain loop (world map,
 * 2 cores: write 2.88 s against 2.15 s).
 *
 * A GeoPackage layer the direct writer takes (gpkg_direct.h): the same
 * features, each encoded into its row by the thread that made it and
 * destroyed there at once; the writer thread only inserts the rows.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "xgo_internal.h"
#include "gpkg_direct.h"

enum {
    BATCH = 512,      /* features a worker makes at a time */
    SLOTS_PER = 4,    /* batches in flight per worker */
    MAX_WORKERS = 7   /* more only wait on the one writer */
};

struct slot {
    size_t k;          /* the batch it holds, when ready */
    int ready;
    OGRFeatureH f[BATCH];
    struct xgo_gpkg_row *row;  /* the direct writer's rows, else NULL */
};

struct pipe {
    const struct xgo_batch *b;
    struct xgo_gpkg_direct *d;  /* NULL: OGR's route */
    pthread_mutex_t mu;
    pthread_cond_t cv_ready;   /* a slot was filled */
    pthread_cond_t cv_free;    /* a slot was emptied, or stop */
    size_t next;               /* the next batch a worker takes */
    size_t done;               /* batches the writer has written */
    size_t nbatch, nslot;
    int stop;
    struct slot *slot;
};

/* The builders to start for job's threads setting (0: every processor;
 * the calling thread is the writer, so one fewer), at most MAX_WORKERS
 * and never more than there are batches. */
static int workers_for(const struct xgo_job *job, size_t n)
{
    long t = job->threads;
    size_t nbatch = (n + BATCH - 1) / BATCH;
    if (t <= 0)
        t = sysconf(_SC_NPROCESSORS_ONLN);
    t -= 1;
    if (t > MAX_WORKERS)
        t = MAX_WORKERS;
    if (nbatch < 2 || t < 1)
        return 0;
    return (size_t)t > nbatch ? (int)nbatch : (int)t;
}

/* Destroys the features s holds (those of a batch written, or made
 * and not written) and empties it. */
static void slot_clear(struct slot *s)
{
    size_t m;
    for (m = 0; m < BATCH; m++)
        if (s->f[m]) {
            OGR_F_Destroy(s->f[m]);
            s->f[m] = NULL;
        }
}

/* Record i's row for the direct writer d: the writer's own encoder
 * where it has one, else its feature encoded and destroyed at once. */
static void make_row(const struct xgo_batch *b,
                     const struct xgo_gpkg_direct *d, size_t i,
                     struct xgo_gpkg_row *row)
{
    OGRFeatureH f;
    if (b->row) {
        b->row(b->arg, i, d, row);
        return;
    }
    f = b->make(b->arg, i);
    xgo__gpkg_row_encode(d, f, row);
    if (f)
        OGR_F_Destroy(f);
}

/* The features of batch k into s (records kB .. kB+BATCH, or to n),
 * after those of the batch it held before are destroyed; with d, their
 * rows instead (the features encoded and destroyed at once, s->row
 * reused). */
static void make_batch(const struct xgo_batch *b,
                       const struct xgo_gpkg_direct *d, size_t k,
                       struct slot *s)
{
    size_t i, lo = k * BATCH, hi = lo + BATCH < b->n ? lo + BATCH : b->n;
    slot_clear(s);
    for (i = lo; i < hi; i++) {
        if (d)
            make_row(b, d, i, &s->row[i - lo]);
        else
            s->f[i - lo] = b->make(b->arg, i);
    }
}

/* A worker: takes the next batch, waits until its slot is free (the
 * writer is done with the batch nslot before it), fills it, marks it
 * ready; ends at the last batch or on stop. */
static void *worker(void *arg)
{
    struct pipe *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        size_t k;
        struct slot *s;
        while (!p->stop && p->next < p->nbatch &&
               p->next >= p->done + p->nslot)
            pthread_cond_wait(&p->cv_free, &p->mu);
        if (p->stop || p->next >= p->nbatch)
            break;
        k = p->next++;
        s = &p->slot[k % p->nslot];
        pthread_mutex_unlock(&p->mu);
        make_batch(p->b, p->d, k, s);
        pthread_mutex_lock(&p->mu);
        s->k = k;
        s->ready = 1;
        pthread_cond_broadcast(&p->cv_ready);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Writes batch k's features, held in s (which keeps them, for the
 * worker that next fills s to destroy), in order, with the bookkeeping
 * of each, up to the first failure.  XG_OK or the failure. */
static int put_batch(const struct xgo_batch *b, struct xgo_gpkg_direct *d,
                     size_t k, struct slot *s, const struct xgo_batch_run *r,
                     char *err, size_t errlen)
{
    size_t i, lo = k * BATCH, hi = lo + BATCH < b->n ? lo + BATCH : b->n;
    int rc = XG_OK;
    for (i = lo; rc == XG_OK && i < hi; i++) {
        rc = d ? xgo__gpkg_direct_put(d, i, &s->row[i - lo], err, errlen)
               : b->put(b->arg, i, s->f[i - lo], err, errlen);
        if (rc == XG_OK)
            rc = xgo__write_step(r->job, r->dst, i, b->n, r->written, r->pf,
                                 r->pa, err, errlen);
    }
    return rc;
}

/* The writer's side with nw workers: each batch in order as it becomes
 * ready; on a failure the workers are told to stop, joined, and what
 * they made is destroyed. */
static int run_piped(struct pipe *p, pthread_t *th, int nw,
                     const struct xgo_batch_run *r, char *err, size_t errlen)
{
    size_t k, j;
    int rc = XG_OK, i;
    for (k = 0; rc == XG_OK && k < p->nbatch; k++) {
        struct slot *s = &p->slot[k % p->nslot];
        pthread_mutex_lock(&p->mu);
        while (!(s->ready && s->k == k))
            pthread_cond_wait(&p->cv_ready, &p->mu);
        pthread_mutex_unlock(&p->mu);
        rc = put_batch(p->b, p->d, k, s, r, err, errlen);
        pthread_mutex_lock(&p->mu);
        s->ready = 0;
        p->done = k + 1;
        if (rc != XG_OK)
            p->stop = 1;
        pthread_cond_broadcast(&p->cv_free);
        pthread_mutex_unlock(&p->mu);
    }
    for (i = 0; i < nw; i++)
        pthread_join(th[i], NULL);
    /* the last batches written, and after a failure those made and not
     * written */
    for (j = 0; j < p->nslot; j++)
        slot_clear(&p->slot[j]);
    return rc;
}

/* The plain loop of the direct writer: make, encode, insert, count. */
static int run_plain_direct(const struct xgo_batch *b,
                            struct xgo_gpkg_direct *d,
                            const struct xgo_batch_run *r, char *err,
                            size_t errlen)
{
    struct xgo_gpkg_row row;
    size_t i;
    int rc = XG_OK;
    memset(&row, 0, sizeof row);
    for (i = 0; rc == XG_OK && i < b->n; i++) {
        make_row(b, d, i, &row);
        rc = xgo__gpkg_direct_put(d, i, &row, err, errlen);
        if (rc == XG_OK)
            rc = xgo__write_step(r->job, r->dst, i, b->n, r->written, r->pf,
                                 r->pa, err, errlen);
    }
    xgo__gpkg_row_clear(&row);
    return rc;
}

/* The plain loop: make, write, count, one record after the other. */
static int run_plain(const struct xgo_batch *b, struct xgo_gpkg_direct *d,
                     const struct xgo_batch_run *r, char *err, size_t errlen)
{
    size_t i;
    int rc = XG_OK;
    if (d)
        return run_plain_direct(b, d, r, err, errlen);
    for (i = 0; rc == XG_OK && i < b->n; i++) {
        OGRFeatureH f = b->make(b->arg, i);
        rc = b->put(b->arg, i, f, err, errlen);
        if (f)
            OGR_F_Destroy(f);
        if (rc == XG_OK)
            rc = xgo__write_step(r->job, r->dst, i, b->n, r->written, r->pf,
                                 r->pa, err, errlen);
    }
    return rc;
}

/* The pipeline with nw workers (d: the direct writer's, or NULL). */
static int run_workers(const struct xgo_batch *b, struct xgo_gpkg_direct *d,
                       int nw, const struct xgo_batch_run *r, char *err,
                       size_t errlen)
{
    int i, rc;
    size_t j;
    pthread_t th[MAX_WORKERS];
    struct pipe p = {0};

    p.b = b;
    p.d = d;
    p.nbatch = (b->n + BATCH - 1) / BATCH;
    p.nslot = (size_t)nw * SLOTS_PER;
    p.slot = calloc(p.nslot, sizeof *p.slot);
    for (j = 0; d && p.slot && j < p.nslot; j++)
        if (!(p.slot[j].row = calloc(BATCH, sizeof *p.slot[j].row)))
            break;
    if (!p.slot || (d && j < p.nslot)) {
        rc = run_plain(b, d, r, err, errlen);  /* no memory for speed */
        goto out;
    }
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv_ready, NULL);
    pthread_cond_init(&p.cv_free, NULL);
    for (i = 0; i < nw; i++)
        if (pthread_create(&th[i], NULL, worker, &p) != 0)
            break;
    if (i == 0) {
        rc = run_plain(b, d, r, err, errlen);  /* no thread: the plain way */
    } else {
        rc = run_piped(&p, th, i, r, err, errlen);
    }
    pthread_cond_destroy(&p.cv_free);
    pthread_cond_destroy(&p.cv_ready);
    pthread_mutex_destroy(&p.mu);
out:
    for (j = 0; p.slot && j < p.nslot; j++) {
        size_t m;
        for (m = 0; p.slot[j].row && m < BATCH; m++)
            xgo__gpkg_row_clear(&p.slot[j].row[m]);
        free(p.slot[j].row);
    }
    free(p.slot);
    return rc;
}

int xgo__batch_write(const struct xgo_batch *b, const struct xgo_batch_run *r,
                     char *err, size_t errlen)
{
    int nw = workers_for(r->job, b->n), rc;
    struct xgo_gpkg_direct *d = NULL;

    if (r->lyr && r->tx &&
        (rc = xgo__gpkg_direct_begin(r->dst, r->lyr, b->n, r->tx, &d,
                                     err, errlen)) != XG_OK)
        return rc;
    rc = nw == 0 ? run_plain(b, d, r, err, errlen)
                 : run_workers(b, d, nw, r, err, errlen);
    return xgo__gpkg_direct_end(d, rc, err, errlen);
}
