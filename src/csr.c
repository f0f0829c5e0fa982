/*
 * csr.c -- the scans of the one CSR build (xg_csr.h): counts into
 * cursors and starts, by shares or by key ranges.  The count and fill
 * loops are the callers', inline.
 */
#include <stdlib.h>
#include "exactgeo.h"
#include "xg_csr.h"

/* xg__csr_init (xg_csr.h): the table zeroed, its size checked first. */
int xg__csr_init(struct xg__csr *c, size_t nkey, int nslot)
{
    c->nkey = nkey;
    c->nslot = nslot;
    c->at = NULL;
    if (nkey < 1 || nslot < 1 || nkey > SIZE_MAX / sizeof *c->at / (size_t)nslot)
        return XG_ENOMEM;
    c->at = calloc((size_t)nslot * nkey, sizeof *c->at);
    return c->at ? XG_OK : XG_ENOMEM;
}

/* xg__csr_free (xg_csr.h): NULL, or c after a failed init, is fine. */
void xg__csr_free(struct xg__csr *c)
{
    if (!c)
        return;
    free(c->at);
    c->at = NULL;
}

/* xg__csr_scan (xg_csr.h): keys outer, shares inner, so that key k's
 * items come share 0's first: each list in item order. */
int xg__csr_scan(struct xg__csr *c, size_t *start, size_t *total)
{
    size_t run = 0, k, n;
    int s;
    for (k = 0; k < c->nkey; k++) {
        if (start)
            start[k] = run;
        for (s = 0; s < c->nslot; s++) {
            size_t *at = c->at + (size_t)s * c->nkey + k;
            n = *at;
            *at = run;
            if (n > SIZE_MAX - run)
                return XG_ELIMIT;
            run += n;
        }
    }
    if (start)
        start[c->nkey] = run;
    *total = run;
    return XG_OK;
}

/* xg__csr_offsets (xg_csr.h). */
uint64_t xg__csr_offsets(uint32_t *count, size_t k0, size_t k1)
{
    uint64_t run = 0;
    size_t k;
    for (k = k0; k < k1; k++) {
        uint32_t n = count[k];
        /* a range's offsets fit 32 bits when the whole list does, which
         * xg__csr_bases checks before any offset is used */
        count[k] = (uint32_t)run;
        run += n;
    }
    return run;
}

/* xg__csr_bases (xg_csr.h): the limit tested before each addition. */
int xg__csr_bases(const uint64_t *total, size_t nrange, uint64_t *base,
                  uint32_t *end)
{
    uint64_t run = 0;
    size_t r;
    for (r = 0; r < nrange; r++) {
        if (total[r] > UINT32_MAX - run)
            return XG_ELIMIT;
        base[r] = run;
        run += total[r];
    }
    *end = (uint32_t)run;
    return XG_OK;
}

/* xg__csr_starts (xg_csr.h). */
void xg__csr_starts(uint32_t *cursor, uint32_t *start, size_t k0,
                    size_t k1, uint32_t base)
{
    size_t k;
    for (k = k0; k < k1; k++) {
        cursor[k] += base;
        start[k] = cursor[k];
    }
}

/* xg__csr_scan32 (xg_csr.h): one range, its base 0. */
int xg__csr_scan32(uint32_t *count, uint32_t *start, size_t nkey)
{
    uint64_t total = xg__csr_offsets(count, 0, nkey), base;
    int rc = xg__csr_bases(&total, 1, &base, &start[nkey]);
    if (rc == XG_OK)
        xg__csr_starts(count, start, 0, nkey, 0);
    return rc;
}
