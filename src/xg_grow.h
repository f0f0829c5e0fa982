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
/* The rule alone: the capacity *cap grows to for need elements of sz
 * bytes, into *ncap; 0, or -1 where it or its bytes would pass
 * SIZE_MAX. */
static inline int xg__grow_cap(size_t cap, size_t need, size_t sz,
                               size_t *ncap)
{
    while (cap < need) {
        if (cap > SIZE_MAX / 2)
            return -1; /* 2 * cap would wrap */
        cap = cap ? 2 * cap : 64;
    }
    if (cap > SIZE_MAX / sz)
        return -1; /* cap * sz would wrap */
    *ncap = cap;
    return 0;
}

static inline int xg__grow_array(void **v, size_t *cap, size_t need,
                                 size_t sz)
{
    size_t ncap;
    void *p;
    if (need <= *cap)
        return 0;
    if (xg__grow_cap(*cap, need, sz, &ncap))
        return -1;
    if (!(p = realloc(*v, ncap * sz)))
        return -1;
    *v = p;
    *cap = ncap;
    return 0;
}

#endif /* XG_GROW_H */
