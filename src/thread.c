/*
 * thread.c -- run one function on n threads, the calling one included,
 * on worker threads kept from call to call.
 *
 * Starting threads is dear: on the 16-thread GPU hosts an empty call on
 * 16 fresh threads took 0.72 ms, and a point-in-solid run makes some 25
 * calls (the grid's phases, the runs, each batch's finish), so that
 * starting threads was about half of a 40 ms run.  The workers park on
 * a condition variable of their own between calls.  A call takes idle
 * workers from the pool and starts new ones only for what it lacks, so
 * calls may run side by side and inside one another (the gpu engine's
 * two sides each run threaded steps) without waiting for each other:
 * the pool grows to the most threads ever busy at once.
 *
 * Workers run with every signal blocked, so that a signal (the tool's
 * SIGINT) reaches the thread that handles it; a worker that cannot be
 * started leaves its tid to the calling thread (every tid runs exactly
 * once).  A forked child forgets the pool (its workers are not there);
 * unloading the library or exiting stops and joins the idle workers.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include "exactgeo.h"
#include "xg_thread.h"

enum { W_IDLE, W_POSTED, W_DONE, W_STOP };

struct worker {
    pthread_t th;
    pthread_mutex_t mu;         /* guards state, fn, arg, tid */
    pthread_cond_t cv;          /* state changed */
    int state;
    void (*fn)(void *arg, int tid);
    void *arg;
    int tid;
    struct worker *next;        /* in the idle list */
};

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static struct worker *pool_idle;        /* under pool_mu */
static int pool_stopped;                /* under pool_mu: unloading */
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

/* A worker's thread (p its struct worker): waits for posted work, runs
 * fn(arg, tid) outside the lock, says W_DONE; ends at W_STOP. */
static void *worker_main(void *p)
{
    struct worker *w = p;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (w->state != W_POSTED && w->state != W_STOP)
            pthread_cond_wait(&w->cv, &w->mu);
        if (w->state == W_STOP)
            break;
        pthread_mutex_unlock(&w->mu);
        w->fn(w->arg, w->tid);
        pthread_mutex_lock(&w->mu);
        w->state = W_DONE;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* In a forked child only the forking thread exists: the workers, idle
 * or busy, are not there, and pool_mu may have been held. */
static void pool_forget(void)
{
    pthread_mutex_init(&pool_mu, NULL);
    pool_idle = NULL;           /* their memory is the parent's image */
}

/* Once per process (pool_once): has a forked child forget the pool
 * (pool_forget). */
static void pool_init(void)
{
    (void)pthread_atfork(NULL, NULL, pool_forget);
}

/* Tells w to end.  join: wait for it (an idle worker), else let it go. */
static void worker_stop(struct worker *w, int join)
{
    pthread_mutex_lock(&w->mu);
    w->state = W_STOP;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    if (join) {
        pthread_join(w->th, NULL);
        pthread_cond_destroy(&w->cv);
        pthread_mutex_destroy(&w->mu);
        free(w);
    } else {
        pthread_detach(w->th);
    }
}

/* On exit and when the library is unloaded: no parked worker may wake
 * in code that is gone.  Workers still busy in a call return to the
 * caller, which lets them go (xg__parallel). */
__attribute__((destructor)) static void pool_stop(void)
{
    struct worker *w, *next;
    pthread_mutex_lock(&pool_mu);
    pool_stopped = 1;
    w = pool_idle;
    pool_idle = NULL;
    pthread_mutex_unlock(&pool_mu);
    for (; w; w = next) {
        next = w->next;
        worker_stop(w, 1);
    }
}

/* A new parked worker, or NULL when none can be started. */
static struct worker *worker_new(void)
{
    struct worker *w = calloc(1, sizeof *w);
    sigset_t all, old;
    int rc;
    if (!w)
        return NULL;
    if (pthread_mutex_init(&w->mu, NULL) != 0) {
        free(w);
        return NULL;
    }
    if (pthread_cond_init(&w->cv, NULL) != 0) {
        pthread_mutex_destroy(&w->mu);
        free(w);
        return NULL;
    }
    w->state = W_IDLE;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&w->th, NULL, worker_main, w);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        pthread_cond_destroy(&w->cv);
        pthread_mutex_destroy(&w->mu);
        free(w);
        return NULL;
    }
    return w;
}

/* Up to n workers into ws: idle ones first, then new ones; how many. */
static int workers_take(struct worker **ws, int n)
{
    int k = 0;
    pthread_once(&pool_once, pool_init);
    pthread_mutex_lock(&pool_mu);
    for (; k < n && pool_idle; k++) {
        ws[k] = pool_idle;
        pool_idle = pool_idle->next;
    }
    pthread_mutex_unlock(&pool_mu);
    for (; k < n; k++)
        if (!(ws[k] = worker_new()))
            break;
    return k;
}

/* Parks the n workers ws, each done with its work, in the idle list;
 * after pool_stop (the library unloading) lets them end instead, as
 * nothing would stop them later. */
static void workers_give(struct worker **ws, int n)
{
    int k, stopped;
    pthread_mutex_lock(&pool_mu);
    stopped = pool_stopped;
    for (k = 0; k < n && !stopped; k++) {
        ws[k]->next = pool_idle;
        pool_idle = ws[k];
    }
    pthread_mutex_unlock(&pool_mu);
    for (k = 0; k < n && stopped; k++)
        worker_stop(ws[k], 0);
}

#define ON_STACK 64

int xg__parallel(int nthreads, void (*fn)(void *arg, int tid), void *arg)
{
    struct worker *stack[ON_STACK], **ws = stack;
    int n, k, t;

    if (nthreads <= 1) {
        fn(arg, 0);
        return XG_OK;
    }
    if (nthreads - 1 > ON_STACK &&
        !(ws = malloc((size_t)(nthreads - 1) * sizeof *ws)))
        return XG_ENOMEM;
    /* tid k + 1 on worker k; the tids of workers that could not be had
     * on this thread, after tid 0 */
    n = workers_take(ws, nthreads - 1);
    for (k = 0; k < n; k++) {
        struct worker *w = ws[k];
        pthread_mutex_lock(&w->mu);
        w->fn = fn;
        w->arg = arg;
        w->tid = k + 1;
        w->state = W_POSTED;
        pthread_cond_broadcast(&w->cv);
        pthread_mutex_unlock(&w->mu);
    }
    fn(arg, 0);
    for (t = n + 1; t < nthreads; t++)
        fn(arg, t);
    for (k = 0; k < n; k++) {
        struct worker *w = ws[k];
        pthread_mutex_lock(&w->mu);
        while (w->state != W_DONE)
            pthread_cond_wait(&w->cv, &w->mu);
        w->state = W_IDLE;
        pthread_mutex_unlock(&w->mu);
    }
    workers_give(ws, n);
    if (ws != stack)
        free(ws);
    return XG_OK;
}
