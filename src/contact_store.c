/*
 * contact_store.c -- one thread's contacts, appended in blocks that are
 * never moved, and copied out once in the order the caller asks.
 *
 * The cpu engine's walk (pair_engine.c) finds a contact per box pair on
 * maps like the world's (800,000 of them, 64 bytes each): a growing array
 * copied on every doubling, then sorted and merged into a third copy,
 * spent more time in page faults and copies than in the predicates.  Here
 * a block, once allocated, stays where it is (no realloc, no copy), the
 * blocks grow geometrically (a small run touches a few KiB) up to a size
 * that xg__big_alloc backs with huge pages (a few hundred faults, not
 * tens of thousands), and the contacts are copied exactly once, straight
 * to their place in the output.
 */
#include <stdlib.h>
#include <string.h>
#include "exactgeo.h"
#include "xg_mem.h"
#include "xg_sets.h"

#define FIRST_BLOCK ((size_t)1 << 10)   /* contacts */
#define LAST_BLOCK ((size_t)1 << 16)    /* 4 MiB: huge pages */

/* Appends an empty block to s, twice the last one's size (FIRST_BLOCK
 * first, LAST_BLOCK at most), starting at s->n in the stream; earlier
 * blocks never move.  XG_OK or XG_ENOMEM (s unchanged but for the grown
 * table). */
static int add_block(struct xg__cstore *s)
{
    size_t cap = s->nblk ? s->blk[s->nblk - 1].cap * 2 : FIRST_BLOCK;
    struct xg__cblock *b;
    if (cap > LAST_BLOCK)
        cap = LAST_BLOCK;
    if (xg__grow((void **)&s->blk, &s->blk_cap, s->nblk, sizeof *s->blk))
        return XG_ENOMEM;
    b = &s->blk[s->nblk];
    if (!(b->v = xg__big_alloc(cap * sizeof *b->v)))
        return XG_ENOMEM;
    b->n = 0;
    b->cap = cap;
    b->first = s->n;
    s->nblk++;
    return XG_OK;
}

int xg__cstore_append(struct xg__cstore *s, const struct xg_contact *v,
                      size_t n)
{
    while (n > 0) {
        struct xg__cblock *b = s->nblk ? &s->blk[s->nblk - 1] : NULL;
        size_t k;
        if (!b || b->n == b->cap) {
            if (add_block(s) != XG_OK)
                return XG_ENOMEM;
            b = &s->blk[s->nblk - 1];
        }
        k = b->cap - b->n < n ? b->cap - b->n : n;
        memcpy(b->v + b->n, v, k * sizeof *v);
        b->n += k;
        s->n += k;
        v += k;
        n -= k;
    }
    return XG_OK;
}

void xg__cstore_copy(const struct xg__cstore *s, size_t from, size_t n,
                     struct xg_contact *dst)
{
    size_t i = 0;
    /* The block holding from: blocks are few (tens), a scan will do. */
    while (i + 1 < s->nblk && s->blk[i + 1].first <= from)
        i++;
    while (n > 0) {
        const struct xg__cblock *b = &s->blk[i++];
        size_t at = from - b->first;
        size_t k = b->n - at < n ? b->n - at : n;
        memcpy(dst, b->v + at, k * sizeof *dst);
        dst += k;
        from += k;
        n -= k;
    }
}

void xg__cstore_free(struct xg__cstore *s)
{
    size_t i;
    for (i = 0; i < s->nblk; i++)
        free(s->blk[i].v);
    free(s->blk);
    memset(s, 0, sizeof *s);
}
