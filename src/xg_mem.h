/*
 * xg_mem.h -- memory: large working arrays and the one growable array
 * (geom.c).
 */
#ifndef XG_MEM_H
#define XG_MEM_H

#include <stddef.h>
#include "exactgeo.h"
#include "xg_grow.h"

/* ---- large arrays (geom.c) ---- */

/* malloc / calloc for working arrays of many megabytes, backed by huge
 * pages where the system has them; freed with free(). */
void *xg__big_alloc(size_t bytes);
void *xg__big_calloc(size_t n, size_t size);

/* ---- the growable array (geom.c; its rule in xg_grow.h) ---- */
/* The one growable array: *v (elements of size sz, *cap allocated,
 * realloc's) grown to hold need elements at least, its capacity doubled
 * (from 64) until it does, what it held kept (xg__grow_array); XG_OK or
 * XG_ENOMEM (*v and *cap then as they were), the core's result codes on
 * the shared rule.  Out of line: the realloc stays out of the callers. */
int xg__reserve(void **v, size_t *cap, size_t need, size_t sz);
/* xg__reserve of one more than the n used.  Inline, the test first:
 * callers push one element at a time (a record, a contact), and a call
 * per push showed (callgrind, bench_inside: +10M instructions). */
static inline int xg__grow(void **v, size_t *cap, size_t n, size_t sz)
{
    return n < *cap ? XG_OK : xg__reserve(v, cap, n + 1, sz);
}

#endif /* XG_MEM_H */
