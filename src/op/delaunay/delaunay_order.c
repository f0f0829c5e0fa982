/*
 * delaunay_order.c -- the order in which one build inserts its points,
 * and the radix sort it (and the audit) sorts keys with.
 *
 * Points go in by rounds of a biased randomized insertion order (a
 * point's round from a hash of its set index, each round about twice the
 * one before), each round along a Hilbert curve, so that a walk from the
 * last insertion is short and no adversarial input order makes the flips
 * quadratic.  The order changes only the time, never the result: with
 * the perturbation the triangulation is unique.
 */
#include <stdlib.h>
#include <string.h>
#include "delaunay_builder.h"
#include "xg_hilbert.h"

/* A 64-bit hash of z (splitmix64's step): the same z, the same hash
 * on every run and machine. */
static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Stable LSD radix sort of key[0 .. n-1] on their low bits bits, val[]
 * moved alongside, 11 bits a pass (xg_delaunay.h).  Scratch of n keys and
 * values, freed before it returns.  XG_OK or XG_ENOMEM (key and val
 * untouched). */
int xg__radix_sort64(uint64_t *key, uint32_t *val, size_t n, int bits)
{
    uint64_t *k2 = malloc(n * sizeof *k2);
    uint32_t *v2 = malloc(n * sizeof *v2);
    int shift;
    if (!k2 || !v2) {
        free(k2);
        free(v2);
        return XG_ENOMEM;
    }
    for (shift = 0; shift < bits; shift += 11) {
        size_t cnt[2048] = {0}, i, sum = 0;
        for (i = 0; i < n; i++)
            cnt[(key[i] >> shift) & 2047]++;
        for (i = 0; i < 2048; i++) {
            size_t c = cnt[i];
            cnt[i] = sum;
            sum += c;
        }
        for (i = 0; i < n; i++) {
            size_t d = cnt[(key[i] >> shift) & 2047]++;
            k2[d] = key[i];
            v2[d] = val[i];
        }
        memcpy(key, k2, n * sizeof *key);
        memcpy(val, v2, n * sizeof *val);
    }
    free(k2);
    free(v2);
    return XG_OK;
}

/* The points' rounds and Hilbert positions as keys, sorted
 * (delaunay_builder.h): order[k] the job index inserted k-th. */
int xg__dt_insertion_order(const struct xg__dt_job *job, uint32_t *order)
{
    const double *xyz = job->pts->xyz;
    size_t n = job->n, k;
    double lo[2] = {xyz[3 * (size_t)job->gid[0]],
                    xyz[3 * (size_t)job->gid[0] + 1]};
    double hi[2] = {lo[0], lo[1]}, sx, sy;
    uint64_t *key;
    int rc;
    for (k = 1; k < n; k++) {
        const double *p = xyz + 3 * (size_t)job->gid[k];
        lo[0] = p[0] < lo[0] ? p[0] : lo[0];
        hi[0] = p[0] > hi[0] ? p[0] : hi[0];
        lo[1] = p[1] < lo[1] ? p[1] : lo[1];
        hi[1] = p[1] > hi[1] ? p[1] : hi[1];
    }
    /* one scale for both axes: a long thin strip keeps square cells */
    sx = hi[0] - lo[0] > hi[1] - lo[1] ? hi[0] - lo[0] : hi[1] - lo[1];
    sx = sx > 0 ? 65535.0 / sx : 0;
    sy = sx;
    key = malloc(n * sizeof *key);
    if (!key)
        return XG_ENOMEM;
    for (k = 0; k < n; k++) {
        const double *p = xyz + 3 * (size_t)job->gid[k];
        double fx = (p[0] - lo[0]) * sx, fy = (p[1] - lo[1]) * sy;
        uint32_t qx = fx >= 0 && fx <= 65535 ? (uint32_t)fx : 0;
        uint32_t qy = fy >= 0 && fy <= 65535 ? (uint32_t)fy : 0;
        /* rounds: the round of a point is 20 minus the trailing zeros of
         * its hash, so round r holds about 2^(r-20) of the points */
        uint64_t h = mix64(job->gid[k]) | (1ull << 20);
        uint64_t round = 20 - (uint64_t)__builtin_ctzll(h);
        key[k] = round << 32 | xg__hilbert16(qx, qy);
        order[k] = (uint32_t)k;
    }
    rc = xg__radix_sort64(key, order, n, 37);
    free(key);
    return rc;
}
