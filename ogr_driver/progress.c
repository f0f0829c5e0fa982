/*
 * progress.c -- the run's clock and the core's progress relayed to a
 * GDAL progress function: one of each for the job (job.c) and the runs
 * in regions (mpi/).
 */
#include <time.h>
#include "xgo_internal.h"

double xgo__now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int xgo__relay(double fraction, void *user)
{
    const struct xgo_relay *r = user;
    return r->pf && !r->pf(fraction, NULL, r->pa);
}
