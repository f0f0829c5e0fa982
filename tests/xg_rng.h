/*
 * xg_rng.h -- the tests' one random source: splitmix64, seeded once per
 * program by rng_seed_from_env().  Every test that draws random numbers
 * draws them here, so that any failure can be replayed:
 *
 *   XG_TEST_SEED=N tests/foo_t      (decimal, or 0x... hexadecimal)
 *
 * Without XG_TEST_SEED each test uses its own fixed seed (the argument of
 * rng_seed_from_env), so `make check` is deterministic; the seed in use
 * is printed as the TAP comment "# seed N".
 */
#ifndef XG_RNG_H
#define XG_RNG_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

/* Seeds the source from XG_TEST_SEED, or with `fallback` when it is unset
 * or empty, and prints the seed as a TAP comment.  Call it once, at the
 * start of main, before any other rng_* call. */
static inline void rng_seed_from_env(uint64_t fallback)
{
    const char *s = getenv("XG_TEST_SEED");
    rng_state = s && *s ? strtoull(s, NULL, 0) : fallback;
    printf("# seed %llu (set XG_TEST_SEED to replay another)\n",
           (unsigned long long)rng_state);
}

static inline uint64_t rng_u64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Uniform in 0 .. n-1 (n > 0; the bias is irrelevant here). */
static inline int rng_int(int n) { return (int)(rng_u64() % (uint64_t)n); }

/* Uniform in [0, 1) with 53 random bits. */
static inline double rng_unit(void)
{
    return (double)(rng_u64() >> 11) * 0x1p-53;
}

static inline double rng_range(double lo, double hi)
{
    return lo + (hi - lo) * rng_unit();
}

#endif
