/*
 * xg_test.h -- what the core's TAP tests share: a seeded random source,
 * generators of awkward doubles, and tallies that fold many checks into
 * one TAP assertion (a million ok lines would swamp the log).
 *
 * The random source is xg_rng.h's, the one every test draws from:
 * XG_TEST_SEED in the environment changes the seed; the seed in use is
 * printed as a TAP comment so that a failure can be replayed.
 */
#ifndef XG_TEST_H
#define XG_TEST_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "xg_rng.h"

/* ---- random source: xg_rng.h (rng_seed_from_env, rng_u64, ...) ---- */

/* A double with random sign and 53 random significand bits and binary
 * exponent uniform in emin .. emax (as frexp counts it); below -1021
 * the result is subnormal and loses low bits, which is what we want. */
static inline double rng_exp(int emin, int emax)
{
    double m = 0.5 + 0.5 * rng_unit();      /* [1/2, 1) */
    double x = ldexp(m, emin + rng_int(emax - emin + 1));
    return rng_u64() & 1 ? -x : x;
}

/* x moved by k units in the last place (k may be negative). */
static inline double ulps(double x, int k)
{
    for (; k > 0; k--)
        x = nextafter(x, HUGE_VAL);
    for (; k < 0; k++)
        x = nextafter(x, -HUGE_VAL);
    return x;
}

/* UTM-like magnitudes: easting, northing, elevation and their
 * neighbours, the coordinates the product actually sees. */
static inline double rng_utm(void)
{
    static const double base[] = {500000.25, 7000000.5, 350.75, 499999.75,
                                  6999999.5, 0.0,       -1250.125};
    double b = base[rng_int((int)(sizeof base / sizeof base[0]))];
    switch (rng_int(4)) {
    case 0:
        return b;
    case 1:
        return ulps(b, rng_int(7) - 3);
    case 2:
        return b + rng_range(-1000.0, 1000.0);
    default:
        return b + (double)(rng_int(4001) - 2000) * 0.125;
    }
}

/* ---- scales: the magnitudes the predicates' tests draw from ---- */

enum scale { S_UNIT, S_UTM, S_TINY, S_SUBNORMAL, S_HUGE, S_MIXED, S_COUNT };

/* A random coordinate at scale s. */
static inline double rng_coord(int s)
{
    switch (s) {
    case S_UNIT: return rng_range(-1.0, 1.0);
    case S_UTM: return rng_utm();
    case S_TINY: return ldexp(rng_range(-1.0, 1.0), -900);
    case S_SUBNORMAL: return ldexp(rng_range(-1.0, 1.0), -1060);
    case S_HUGE: return ldexp(rng_range(-1.0, 1.0), 500);
    default: return rng_exp(-200, 200);
    }
}

/* The quantum of the dyadic constructions at scale s: small enough that
 * a base point (rng_base) plus a few thousand quanta is exact there. */
static inline double scale_quantum(int s)
{
    switch (s) {
    case S_UTM: return 0.25;
    case S_TINY: return 0x1p-930;
    case S_SUBNORMAL: return 0x1p-1074;
    case S_HUGE: return 0x1p+470;
    default: return 0x1p-30;
    }
}

/* A small dyadic step at scale s, -1000 .. 1000 quanta: base + step * t
 * is exact for t in -8..8. */
static inline double rng_step(int s)
{
    return (double)(rng_int(2001) - 1000) * scale_quantum(s);
}

/* A base coordinate, a multiple of the quantum, so that the dyadic
 * constructions from it stay exact. */
static inline double rng_base(int s)
{
    if (s == S_UTM)
        return floor(rng_utm() * 4.0) * 0.25;
    return (double)(rng_int(1 << 20) - (1 << 19)) * scale_quantum(s);
}

/* ---- tallies: many checks, one TAP line ---- */

struct tally {
    const char *what;
    long n, bad;
};

/* Counts a check; the first few failures are printed as TAP comments. */
#define CHECK(t, cond, ...)                                             \
    do {                                                                \
        (t)->n++;                                                       \
        if (!(cond) && (t)->bad++ < 5) {                                \
            printf("# %s: ", (t)->what);                                \
            printf(__VA_ARGS__);                                        \
            printf("\n");                                               \
        }                                                               \
    } while (0)

static inline int tally_ok(const struct tally *t)
{
    return ok(t->n > 0 && t->bad == 0, "%s: %ld checks, %ld failed", t->what,
              t->n, t->bad);
}

#endif
