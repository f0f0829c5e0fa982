/*
 * xg_csr.h -- the one way to build a compressed sparse row list (CSR):
 * keys 0 .. nkey-1 (a grid's cells, the regions, a triangulation's
 * strips, the surfaces), key k listing items[start[k] .. start[k+1]-1].
 * Every build takes the same three steps:
 *
 *   count: each item adds one to the count of every key it goes to;
 *   scan:  the counts become where each key's items start (an exclusive
 *          prefix sum), and start[] is written;
 *   fill:  each item is written at its key's cursor, which moves on.
 *
 * The fill keeps the order in which the items are offered: each key
 * lists its items in item order, whatever the thread count, and that
 * order is what makes the engines' outputs the same on any threads.
 * How the work is shared decides the form:
 *
 *   by shares (struct xg__csr; few keys): the items are cut into nslot
 *   shares in item order (xg__share's, one a thread), each counting
 *   into its own row and filling from its own cursors; the scan takes
 *   the keys in turn and, within a key, the shares in turn.  Its table
 *   is nslot x nkey, so it suits tens of keys, not a grid's millions.
 *
 *   by key ranges (one row of 32-bit counts; many keys): the keys are
 *   cut into ranges (a grid's slabs of layers), each thread counts and
 *   fills its range alone from the items in order; xg__csr_offsets
 *   scans a range from 0, xg__csr_bases places the ranges one after
 *   the other, xg__csr_starts moves a range's offsets to its base.  One
 *   range is the sequential build.  Items are numbered in 32 bits there
 *   (the grid's, which the device reads), so the whole list is too.
 *
 * What an item is and which keys it goes to stay with the caller: the
 * loops that count and fill are each module's own, with this header's
 * steps inline in them.
 */
#ifndef XG_CSR_H
#define XG_CSR_H

#include <stddef.h>
#include <stdint.h>

/* ---- by shares ---- */

struct xg__csr {
    size_t nkey;          /* keys 0 .. nkey - 1 */
    int nslot;            /* the items' shares, in item order */
    size_t *at;           /* [slot][key]: the counts, then the cursors */
};

/* c with every count 0, for nkey keys (>= 1) and nslot shares (>= 1):
 * XG_OK, or XG_ENOMEM (also when nslot x nkey does not fit a size_t).
 * The caller frees c with xg__csr_free, which c may be after a failure
 * too. */
int xg__csr_init(struct xg__csr *c, size_t nkey, int nslot);
void xg__csr_free(struct xg__csr *c);

/* Count step: one more item of share slot goes to key. */
static inline void xg__csr_count(struct xg__csr *c, int slot, size_t key)
{
    c->at[(size_t)slot * c->nkey + key]++;
}

/* Count step, n items at once (a share that counted in a local). */
static inline void xg__csr_add(struct xg__csr *c, int slot, size_t key,
                               size_t n)
{
    c->at[(size_t)slot * c->nkey + key] += n;
}

/* Scan step: the counts become cursors, key by key and within a key
 * share by share, so that key k's items come share 0's first; start
 * (nkey + 1 entries, or NULL) gets where each key's items begin and, at
 * start[nkey], the total, as does *total.  XG_OK, or XG_ELIMIT when the
 * total passes SIZE_MAX (nothing then holds). */
int xg__csr_scan(struct xg__csr *c, size_t *start, size_t *total);

/* Fill step: where share slot's next item of key goes (the scan's
 * cursor, then moved on by one). */
static inline size_t xg__csr_next(struct xg__csr *c, int slot, size_t key)
{
    return c->at[(size_t)slot * c->nkey + key]++;
}

/* Fill step for a share that writes its items of key in a run of its
 * own: where the first goes (the cursor, left as it is). */
static inline size_t xg__csr_cursor(const struct xg__csr *c, int slot,
                                    size_t key)
{
    return c->at[(size_t)slot * c->nkey + key];
}

/* ---- by key ranges ---- */

/* Scan step of one range: count[k0 .. k1-1] become offsets from 0 (an
 * exclusive prefix sum, in place); returns their total. */
uint64_t xg__csr_offsets(uint32_t *count, size_t k0, size_t k1);

/* The ranges one after the other: base[r] = total[0] + .. + total[r-1]
 * for the nrange ranges' totals (xg__csr_offsets'), *end the sum (the
 * last entry of start[]).  XG_OK, or XG_ELIMIT when the sum passes
 * UINT32_MAX: the items are numbered in 32 bits. */
int xg__csr_bases(const uint64_t *total, size_t nrange, uint64_t *base,
                  uint32_t *end);

/* A range's offsets moved to its base: cursor[k] += base, start[k] the
 * result, for k in k0 .. k1-1; cursor then serves the fill. */
void xg__csr_starts(uint32_t *cursor, uint32_t *start, size_t k0,
                    size_t k1, uint32_t base);

/* The sequential build's scan, one range of all nkey keys: count's
 * offsets, start[0 .. nkey] (start[nkey] the total) and count's cursors
 * at the starts.  XG_OK, or XG_ELIMIT past UINT32_MAX items. */
int xg__csr_scan32(uint32_t *count, uint32_t *start, size_t nkey);

#endif
