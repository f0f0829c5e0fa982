/* thread.c -- run one function on n threads, the calling one included. */
#include <pthread.h>
#include <stdlib.h>
#include "xg_internal.h"
#include "xg_thread.h"

struct job {
    void (*fn)(void *arg, int tid);
    void *arg;
    int tid;
};

static void *trampoline(void *p)
{
    struct job *j = p;
    j->fn(j->arg, j->tid);
    return NULL;
}

int xg__parallel(int nthreads, void (*fn)(void *arg, int tid), void *arg)
{
    pthread_t *th;
    struct job *jobs;
    int i, started = 0;

    if (nthreads <= 1) {
        fn(arg, 0);
        return XG_OK;
    }
    th = malloc((size_t)nthreads * sizeof *th);
    jobs = malloc((size_t)nthreads * sizeof *jobs);
    if (!th || !jobs) {
        free(th);
        free(jobs);
        return XG_ENOMEM;
    }
    for (i = 1; i < nthreads; i++) {
        jobs[i].fn = fn;
        jobs[i].arg = arg;
        jobs[i].tid = i;
        if (pthread_create(&th[i], NULL, trampoline, &jobs[i]) != 0)
            break;
        started = i;
    }
    /* Threads that could not start leave their share to the caller's:
     * every tid must run exactly once. */
    for (i = started + 1; i < nthreads; i++)
        fn(arg, i);
    fn(arg, 0);
    for (i = 1; i <= started; i++)
        pthread_join(th[i], NULL);
    free(th);
    free(jobs);
    return XG_OK;
}
