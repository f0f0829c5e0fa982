/* clock.c -- the monotonic clock the stage timings use. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#include "xg_ctx.h"

double xg__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
