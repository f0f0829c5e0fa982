/*
 * xg_grow.h -- the one growth rule of a growable array, for the core
 * (xg_mem.h's xg__reserve and xg__grow put the result codes on it) and
 * for the plugin (ogr_driver/: its readers, groups, records, captured
 * messages).  Self-contained on purpose: inline, no header of the house,
 * no context, nothing exported, so that the plugin, which otherwise
 * keeps to the public API, can include it and the house has one rule.
 */
#ifndef XG_GROW_H
#define XG_GROW_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Grows *v (elements of sz > 0 bytes, *cap of them allocated by
 * malloc/realloc; NULL and 0 to begin) to hold need elements at least:
 * its capacity doubled, from 64, until it does, what it held kept by
 * realloc.  0, or -1 when out of memory or when the capacity or its size
 * in bytes would not fit a size_t (*v and *cap then as they were: a size
 * never wraps to a small allocation).  The caller owns *v (free()).
 * Inline, the test first: callers push one element at a time, and
 * nearly always there is room already. */
static inline int xg__grow_array(void **v, size_t *cap, size_t need,
                                 size_t sz)
{
    size_t ncap = *cap;
    void *p;
    if (need <= ncap)
        return 0;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return -1; /* 2 * ncap would wrap */
        ncap = ncap ? 2 * ncap : 64;
    }
    if (ncap > SIZE_MAX / sz)
        return -1; /* ncap * sz would wrap */
    if (!(p = realloc(*v, ncap * sz)))
        return -1;
    *v = p;
    *cap = ncap;
    return 0;
}

#endif /* XG_GROW_H */
