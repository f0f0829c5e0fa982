/* thread.c -- run one function on n threads, the calling one included. */
#include <pthread.h>
#include <stdlib.h>
#include "xg_internal.h"
#include "xg_thread.h"

/* The threads of one call start one another in a binary tree: the
 * thread of tids lo..hi-1 hands the upper half to a new thread, then
 * the upper half of what is left, and so on, and runs lo itself.  A call
 * on 16 threads waits for 4 thread starts one after the other, not 15
 * (each some tens of microseconds: at 16 threads, with about ten calls a
 * run, a tenth of a 25 ms run went in starting threads). */
struct call {
    void (*fn)(void *arg, int tid);
    void *arg;
    pthread_t *th;              /* th[t]: the thread running tids t.. */
    int *hi;                    /* hi[t]: the end of that thread's tids */
};

struct start {
    struct call *c;
    int lo;
};

static void run_tids(struct call *c, int lo, int hi);

static void *trampoline(void *p)
{
    struct start *s = p;
    run_tids(s->c, s->lo, s->c->hi[s->lo]);
    return NULL;
}

static void run_tids(struct call *c, int lo, int hi)
{
    struct start st[32];        /* one per halving: log2(tids) + 1 */
    int mid[32], n = 0, k;

    while (hi - lo > 1 && n < 32) {
        int m = lo + (hi - lo) / 2;
        st[n].c = c;
        st[n].lo = m;
        c->hi[m] = hi;
        /* A thread that cannot start leaves its tids to this one: every
         * tid must run exactly once. */
        if (pthread_create(&c->th[m], NULL, trampoline, &st[n]) != 0)
            break;
        mid[n++] = m;
        hi = m;
    }
    for (k = lo; k < hi; k++)
        c->fn(c->arg, k);
    while (n > 0)
        pthread_join(c->th[mid[--n]], NULL);
}

int xg__parallel(int nthreads, void (*fn)(void *arg, int tid), void *arg)
{
    struct call c;

    if (nthreads <= 1) {
        fn(arg, 0);
        return XG_OK;
    }
    c.fn = fn;
    c.arg = arg;
    c.th = malloc((size_t)nthreads * sizeof *c.th);
    c.hi = malloc((size_t)nthreads * sizeof *c.hi);
    if (!c.th || !c.hi) {
        free(c.th);
        free(c.hi);
        return XG_ENOMEM;
    }
    run_tids(&c, 0, nthreads);
    free(c.th);
    free(c.hi);
    return XG_OK;
}
