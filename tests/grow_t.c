/*
 * grow_t.c -- the one growable array (src/xg_grow.h's rule, xg_mem.h's
 * xg__reserve and xg__grow on it): the capacity from 64 and doubled,
 * what the array held kept, no call when there is room; and the sizes
 * near SIZE_MAX / element size refused with the array as it was, never
 * wrapped to a small allocation that a caller would then write past.
 */
#include <stdint.h>
#include <stdlib.h>
#include "exactgeo.h"
#include "xg_grow.h"
#include "xg_mem.h"
#include "tap.h"

/* Growth from nothing, in steps, and the content kept. */
static void test_growth(void)
{
    int *v = NULL, *was, good = 1;
    size_t cap = 0, i;
    ok(xg__grow_array((void **)&v, &cap, 1, sizeof *v) == 0 && v &&
       cap == 64, "first growth: capacity 64");
    for (i = 0; i < 64; i++)
        v[i] = (int)i;
    was = v;
    ok(xg__grow_array((void **)&v, &cap, 64, sizeof *v) == 0 && v == was &&
       cap == 64, "room enough: nothing moves");
    ok(xg__grow_array((void **)&v, &cap, 1000, sizeof *v) == 0 &&
       cap == 1024, "1000 needed: doubled to 1024");
    for (i = 0; i < 64; i++)
        good &= v[i] == (int)i;
    ok(good, "what it held is kept");
    ok(xg__grow_array((void **)&v, &cap, 1025, sizeof *v) == 0 &&
       cap == 2048, "one past: doubled once");
    free(v);
}

/* A refusal leaves *v and *cap as they were. */
static int refused(size_t cap0, size_t need, size_t sz)
{
    void *v = malloc(16), *was = v;
    size_t cap = cap0;
    int rc = xg__grow_array(&v, &cap, need, sz);
    int same = v == was && cap == cap0;
    free(v);
    return rc == -1 && same;
}

/* Sizes past SIZE_MAX: refused, not wrapped.  The capacities given are
 * never allocated: a refusal comes before any realloc. */
static void test_overflow(void)
{
    size_t top8 = SIZE_MAX / 8;
    /* doubling from 64 reaches 2^61 (on 64 bits) > SIZE_MAX / 8: 2^61 *
     * 8 would wrap to 0 */
    ok(refused(0, top8, 8), "need SIZE_MAX/8, 8-byte elements: refused");
    ok(refused(0, top8 + 1, 8), "need past SIZE_MAX/8: refused");
    ok(refused(0, SIZE_MAX, 1), "need SIZE_MAX bytes: refused");
    ok(refused(0, 1, SIZE_MAX / 32), "64 huge elements: refused");
    ok(refused(SIZE_MAX / 2 + 1, SIZE_MAX, 1),
       "capacity past SIZE_MAX/2: doubling refused");
    ok(refused(top8 / 2 + 1, top8 / 2 + 2, 8),
       "doubling past SIZE_MAX/8 elements: refused");
}

/* The core's layer: XG_OK / XG_ENOMEM on the same rule, and xg__grow's
 * one more. */
static void test_core(void)
{
    double *v = NULL;
    void *p = NULL;
    size_t cap = 0, n;
    ok(xg__reserve((void **)&v, &cap, 100, sizeof *v) == XG_OK &&
       cap == 128, "xg__reserve: 100 in 128");
    for (n = 0; n < 1000; n++)
        if (xg__grow((void **)&v, &cap, n, sizeof *v) != XG_OK)
            break;
        else
            v[n] = (double)n;
    ok(n == 1000 && cap == 1024 && v[999] == 999.0,
       "xg__grow: 1000 pushed, capacity 1024");
    free(v);
    cap = 0;
    ok(xg__reserve(&p, &cap, SIZE_MAX / 4, 4) == XG_ENOMEM && !p &&
       cap == 0, "xg__reserve past SIZE_MAX: XG_ENOMEM, untouched");
}

int main(void)
{
    test_growth();
    test_overflow();
    test_core();
    tap_done();
    return tap_exit();
}
