/*
 * xg_sets.h -- element sets and contact lists inside the library: a
 * set's kind, contacts pushed, sorted and merged (geom.c), and one
 * thread's contacts in blocks never moved (contact_store.c).
 */
#ifndef XG_SETS_H
#define XG_SETS_H

#include "exactgeo.h"

/* ---- element sets (geom.c) ---- */

/* Non-zero when set s holds elements of kind elem, or nothing at all (a
 * set never pushed into has no kind and fits any). */
static inline int xg__set_fits(const struct xg_set *s, int elem)
{
    return s->elem == elem || (s->n == 0 && s->elem == XG_ELEM_NONE);
}

/* ---- contact lists (geom.c) ---- */

/* Appends x to c (grown as needed); XG_OK or XG_ENOMEM. */
int xg__contacts_push(struct xg_contacts *c, const struct xg_contact *x);
/* Sorts by (a, b); short lists (one segment's) by insertion. */
void xg__contacts_sort(struct xg_contacts *c);
/* The n lists, each in (a, b) order, merged into out (replaced; caller
 * frees) in (a, b) order; a pair found in two lists keeps the first
 * list's first.  XG_OK or XG_ENOMEM (out then empty). */
int xg__contacts_merge(const struct xg_contacts *const *lists, size_t n,
                       struct xg_contacts *out);

/* ---- one thread's contacts in blocks never moved (contact_store.c) ----
 * Appended in runs; contacts from..from+n-1 of the stream (in the order
 * appended) copied out once.  Zero-initialise; free with
 * xg__cstore_free. */
struct xg__cblock {
    struct xg_contact *v;
    size_t n, cap, first;       /* first: its index in the stream */
};
struct xg__cstore {
    struct xg__cblock *blk;
    size_t nblk, blk_cap, n;    /* n: contacts in all blocks */
};
/* Appends the n contacts at v; XG_OK, or XG_ENOMEM (those that fitted
 * are kept). */
int xg__cstore_append(struct xg__cstore *s, const struct xg_contact *v,
                      size_t n);
/* Copies contacts from .. from + n - 1 of the stream (from + n <= s->n)
 * to dst, which holds n. */
void xg__cstore_copy(const struct xg__cstore *s, size_t from, size_t n,
                     struct xg_contact *dst);
void xg__cstore_free(struct xg__cstore *s);

#endif /* XG_SETS_H */
