/*
 * thread_t.c -- xg__parallel on its kept workers (src/thread.c): every
 * tid runs exactly once, tid 0 on the calling thread, the others on
 * threads with every signal blocked; calls one after another reuse the
 * workers, calls inside a call and calls from several threads at once
 * each get their own; a forked child, whose workers are not there,
 * still runs every tid.  Outcomes are counts and thread identities,
 * never timings.  TAP.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "exactgeo.h"
#include "xg_thread.h"
#include "tap.h"

#define MAXT 80

struct job {
    atomic_int runs[MAXT];      /* per tid: how many times it ran */
    atomic_int blocked;         /* tids > 0 that found SIGINT blocked */
    atomic_int bad;             /* tids out of range */
    pthread_t caller, tid0;
    pthread_t th[MAXT];
    int n;
    int nest;                   /* each tid runs a call of nest threads */
    struct job *inner;          /* per tid of this call: the inner job */
};

static void job_init(struct job *j, int n)
{
    int t;
    memset(j, 0, sizeof *j);
    for (t = 0; t < MAXT; t++)
        atomic_init(&j->runs[t], 0);
    atomic_init(&j->blocked, 0);
    atomic_init(&j->bad, 0);
    j->n = n;
    j->caller = pthread_self();
}

static void body(void *arg, int tid)
{
    struct job *j = arg;
    if (tid < 0 || tid >= j->n) {
        atomic_fetch_add(&j->bad, 1);
        return;
    }
    atomic_fetch_add(&j->runs[tid], 1);
    j->th[tid] = pthread_self();
    if (tid == 0) {
        j->tid0 = pthread_self();
    } else {
        sigset_t cur;
        pthread_sigmask(SIG_BLOCK, NULL, &cur);
        if (sigismember(&cur, SIGINT) == 1)
            atomic_fetch_add(&j->blocked, 1);
    }
    if (j->nest) {
        struct job *in = &j->inner[tid];
        job_init(in, j->nest);
        xg__parallel(j->nest, body, in);
    }
}

/* Every tid of j ran once, none out of range. */
static int each_once(const struct job *j)
{
    int t;
    if (atomic_load(&j->bad))
        return 0;
    for (t = 0; t < j->n; t++)
        if (atomic_load(&j->runs[t]) != 1)
            return 0;
    return 1;
}

/* The tids ran on n different threads. */
static int distinct(const struct job *j)
{
    int a, b;
    for (a = 0; a < j->n; a++)
        for (b = a + 1; b < j->n; b++)
            if (pthread_equal(j->th[a], j->th[b]))
                return 0;
    return 1;
}

static void rounds(void)
{
    static struct job j;
    int n, r, once = 1, caller = 1, dist = 1, blocked = 1, rc = 0;
    for (r = 0; r < 50; r++)
        for (n = 1; n <= MAXT; n += n < 20 ? 1 : 13) {
            job_init(&j, n);
            rc |= xg__parallel(n, body, &j);
            once &= each_once(&j);
            caller &= pthread_equal(j.tid0, j.caller) != 0;
            dist &= distinct(&j);
            blocked &= atomic_load(&j.blocked) == n - 1;
        }
    ok(rc == XG_OK, "50 rounds of calls on 1..%d threads return XG_OK",
       MAXT);
    ok(once, "every tid runs exactly once, in every call");
    ok(caller, "tid 0 runs on the calling thread");
    ok(dist, "the tids of one call run on as many threads");
    ok(blocked, "tids past 0 run with SIGINT blocked");
}

/* The workers of one call come back for the next: two calls of 8 run
 * their tids 1..7 on the same threads, in some order. */
static void reuse(void)
{
    static struct job a, b;
    int t, u, same = 1;
    job_init(&a, 8);
    xg__parallel(8, body, &a);
    job_init(&b, 8);
    xg__parallel(8, body, &b);
    for (t = 1; t < 8; t++) {
        int found = 0;
        for (u = 1; u < 8; u++)
            found |= pthread_equal(a.th[t], b.th[u]) != 0;
        same &= found;
    }
    ok(each_once(&a) && each_once(&b) && same,
       "a second call runs on the first call's workers");
}

static void nested(void)
{
    static struct job outer;
    static struct job inner[6];
    int t, once = 1;
    job_init(&outer, 6);
    outer.nest = 5;
    outer.inner = inner;
    xg__parallel(6, body, &outer);
    for (t = 0; t < 6; t++)
        once &= each_once(&inner[t]) &&
                pthread_equal(inner[t].tid0, outer.th[t]) != 0;
    ok(each_once(&outer) && once, "6 threads each running a call of 5 "
       "inside it: every tid of every call once, tid 0 on its caller");
}

/* Calls from several threads at once. */
static void *side(void *arg)
{
    struct job *j = arg;
    int r, ok_all = 1;
    for (r = 0; r < 200; r++) {
        job_init(j, 7);
        xg__parallel(7, body, j);
        ok_all &= each_once(j);
    }
    return ok_all ? j : NULL;
}

static void concurrent(void)
{
    static struct job j[4];
    pthread_t th[4];
    void *res;
    int k, good = 1, started = 0;
    for (k = 0; k < 4; k++)
        started += pthread_create(&th[k], NULL, side, &j[k]) == 0;
    for (k = 0; k < started; k++) {
        pthread_join(th[k], &res);
        good &= res != NULL;
    }
    ok(started == 4 && good, "4 threads making 200 calls of 7 each at "
       "once: every tid once in every call");
}

static void forked(void)
{
    static struct job j;
    int status = 0;
    pid_t pid;
    job_init(&j, 12);
    xg__parallel(12, body, &j);    /* the parent has idle workers */
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        int r, good = 1;
        for (r = 0; r < 20; r++) {
            job_init(&j, 12);
            xg__parallel(12, body, &j);
            good &= each_once(&j) && distinct(&j);
        }
        _exit(good ? 0 : 3);
    }
    ok(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0,
       "a forked child (the parent's workers not in it) runs every tid of "
       "20 calls of 12 once, on 12 threads");
}

int main(void)
{
    rounds();
    reuse();
    nested();
    concurrent();
    forked();
    tap_done();
    return tap_exit();
}
