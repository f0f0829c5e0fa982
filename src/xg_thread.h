/* xg_thread.h -- the one threading primitive the engines use. */
#ifndef XG_THREAD_H
#define XG_THREAD_H

/* Calls fn(arg, tid) for tid = 0 .. nthreads-1, concurrently, and returns
 * when all have returned.  tid 0 runs on the calling thread. */
int xg__parallel(int nthreads, void (*fn)(void *arg, int tid), void *arg);

/* [lo, hi) of the tid-th of nthreads equal shares of n items. */
static inline void xg__share(size_t n, int nthreads, int tid, size_t *lo,
                             size_t *hi)
{
    *lo = n * (size_t)tid / (size_t)nthreads;
    *hi = n * (size_t)(tid + 1) / (size_t)nthreads;
}

#endif
