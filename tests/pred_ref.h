/*
 * pred_ref.h -- what the predicates' tests share (orient_t, incircle_t;
 * gpu_t the reference only): exact references in GMP rationals
 * (mpq_set_d is exact), written from the definitions and sharing no code
 * with src/exact.c or src/orient.c; and the tallies of one predicate on
 * one class of input.
 */
#ifndef XG_PRED_REF_H
#define XG_PRED_REF_H

#include <gmp.h>
#include <math.h>
#include "xg_interval.h"
#ifdef XG_TEST_H
#include "exactgeo.h"
#endif

/* det = the 4x4 determinant with rows (x, y, x^2 + y^2, 1) of a, b, c,
 * d, by Leibniz's formula (24 signed products): Shewchuk's incircle,
 * positive when d lies inside the circle through a, b, c taken
 * counter-clockwise.  (Subtracting d's row from the others and expanding
 * along the last column gives the 3x3 determinant of the differences
 * that src/ evaluates; nothing here is shared with it.)  Returns the
 * sign of det. */
static inline int ref_lifted(mpq_t det, const double *const p[4],
                             mpq_t z[4]);

static inline int ref_incircle(mpq_t det, const double *a, const double *b,
                               const double *c, const double *d)
{
    const double *p[4] = {a, b, c, d};
    mpq_t z[4], t;
    int r, s;
    mpq_init(t);
    for (r = 0; r < 4; r++) {
        mpq_init(z[r]);
        mpq_set_d(z[r], p[r][0]);
        mpq_mul(z[r], z[r], z[r]);
        mpq_set_d(t, p[r][1]);
        mpq_mul(t, t, t);
        mpq_add(z[r], z[r], t);
    }
    s = ref_lifted(det, p, z);
    for (r = 0; r < 4; r++)
        mpq_clear(z[r]);
    mpq_clear(t);
    return s;
}

/* det = the 4x4 determinant with rows (x, y, z, 1) of the four points
 * with the heights z given (incircle's lifted determinant when z = x^2 +
 * y^2; the Delaunay tests raise one height to read a derivative).
 * Returns its sign. */
static inline int ref_lifted(mpq_t det, const double *const p[4], mpq_t z[4])
{
    mpq_t m[4][4], t;
    int r, i0, i1, i2, i3;

    mpq_init(t);
    for (r = 0; r < 4; r++) {
        mpq_inits(m[r][0], m[r][1], m[r][2], m[r][3], NULL);
        mpq_set_d(m[r][0], p[r][0]);
        mpq_set_d(m[r][1], p[r][1]);
        mpq_set(m[r][2], z[r]);
        mpq_set_ui(m[r][3], 1, 1);
    }
    mpq_set_ui(det, 0, 1);
    for (i0 = 0; i0 < 4; i0++)
        for (i1 = 0; i1 < 4; i1++)
            for (i2 = 0; i2 < 4; i2++) {
                int inv;
                if (i1 == i0 || i2 == i0 || i2 == i1)
                    continue;
                i3 = 6 - i0 - i1 - i2;
                inv = (i0 > i1) + (i0 > i2) + (i0 > i3) + (i1 > i2) +
                      (i1 > i3) + (i2 > i3);
                mpq_mul(t, m[0][i0], m[1][i1]);
                mpq_mul(t, t, m[2][i2]);
                mpq_mul(t, t, m[3][i3]);
                if (inv & 1)
                    mpq_sub(det, det, t);
                else
                    mpq_add(det, det, t);
            }
    for (r = 0; r < 4; r++)
        mpq_clears(m[r][0], m[r][1], m[r][2], m[r][3], NULL);
    mpq_clear(t);
    return mpq_sgn(det);
}

/* Does iv enclose q?  An infinite bound holds on its side; a NaN bound
 * counts only when it leaves the sign unsure (no information). */
static inline int ref_encloses(struct xg_iv iv, const mpq_t q)
{
    mpq_t t;
    int lo_ok, hi_ok;
    if (isnan(iv.lo) || isnan(iv.hi))
        return xg_iv_sign(iv) == XG_UNSURE;
    mpq_init(t);
    if (isinf(iv.lo))
        lo_ok = iv.lo < 0;
    else {
        mpq_set_d(t, iv.lo);
        lo_ok = mpq_cmp(t, q) <= 0;
    }
    if (isinf(iv.hi))
        hi_ok = iv.hi > 0;
    else {
        mpq_set_d(t, iv.hi);
        hi_ok = mpq_cmp(t, q) >= 0;
    }
    mpq_clear(t);
    return lo_ok && hi_ok;
}

#ifdef XG_TEST_H
/* The tallies of one predicate on one class of input (for the tests that
 * include xg_test.h first), and its counts: all calls, and those at unit
 * and UTM scales (plain_), the magnitudes the product sees. */
struct pred_stats {
    struct tally pred, exact, filt, encl, cnt, sym, constr;
    long calls, failures, zeros;
    long zero_failures;         /* filter failures where det = 0       */
    long zero_proved;           /* the filter said zero (det = 0)      */
    long mid_settled;           /* filter failures settled without GMP */
    long plain_calls, plain_failures, plain_mid;
    char names[7][96];
};

static inline void pred_stats_init(struct pred_stats *s, const char *pred,
                                   const char *cls)
{
    static const char *const what[7] = {
        "predicate = reference", "exact stage = reference",
        "filter never certifies a wrong sign", "filter interval encloses det",
        "counters count calls and failures", "sign symmetries",
        "construction is what it claims"};
    struct tally *t[7] = {&s->pred, &s->exact, &s->filt, &s->encl,
                          &s->cnt, &s->sym, &s->constr};
    int i;
    for (i = 0; i < 7; i++) {
        snprintf(s->names[i], sizeof s->names[i], "%s, %s: %s", pred, cls,
                 what[i]);
        t[i]->what = s->names[i];
    }
}

/* Counts one call whose filter answered f, of exact sign ref, k the
 * counters of that call alone, plain when at unit or UTM scale; checks
 * the counters: one predicate, a failure when the filter failed, at most
 * one GMP evaluation (each predicate has a stage in doubles between) and
 * seconds only with it, no construction. */
static inline void pred_stats_count(struct pred_stats *s, int f, int ref,
                                    const struct xg_counters *k, int plain)
{
    int mid = k->filter_failures > k->exact_evals;
    CHECK(&s->cnt, k->predicates == 1 &&
                       k->filter_failures == (uint64_t)(f == XG_UNSURE) &&
                       k->exact_evals <= k->filter_failures &&
                       (k->exact_evals == 1 || k->exact_seconds == 0.0) &&
                       k->constructions == 0 && k->construct_exact == 0,
          "counters %llu %llu %llu after filter %d",
          (unsigned long long)k->predicates,
          (unsigned long long)k->filter_failures,
          (unsigned long long)k->exact_evals, f);
    s->calls++;
    s->failures += f == XG_UNSURE;
    s->zeros += ref == 0;
    s->zero_failures += ref == 0 && f == XG_UNSURE;
    s->zero_proved += ref == 0 && f == XG_ZERO;
    s->mid_settled += mid;
    if (plain) {
        s->plain_calls++;
        s->plain_failures += f == XG_UNSURE;
        s->plain_mid += mid;
    }
}

/* The TAP lines of the class's tallies, and its counts as a comment. */
static inline void pred_stats_report(struct pred_stats *s, const char *pred,
                                     const char *cls)
{
    tally_ok(&s->pred);
    tally_ok(&s->exact);
    tally_ok(&s->filt);
    tally_ok(&s->encl);
    tally_ok(&s->cnt);
    tally_ok(&s->sym);
    if (s->constr.n)
        tally_ok(&s->constr);
    printf("# %s, %s: %ld calls, %ld filter failures (%.2f%%), %ld zero, "
           "%ld settled by the middle stage (%.1f%% of the failures); "
           "unit/UTM scales: %ld calls, %ld failures, %ld settled by the "
           "middle stage\n",
           pred, cls, s->calls, s->failures,
           s->calls ? 100.0 * (double)s->failures / (double)s->calls : 0.0,
           s->zeros, s->mid_settled,
           s->failures ? 100.0 * (double)s->mid_settled / (double)s->failures
                       : 0.0,
           s->plain_calls, s->plain_failures, s->plain_mid);
}
#endif /* XG_TEST_H */

#endif /* XG_PRED_REF_H */
