/*
 * exact_t.c -- the exact rounding helpers of src/exact.c against MPFR.
 *
 * xg__round_quotient(num, den, k) must be the double nearest to
 * num / (den 2^k), ties to even, subnormals and overflow included;
 * xg__lerp_exact must round D + t (E - D) the same way, coordinate by
 * coordinate; xg_lerp_fast (xg_filters.h) may decline but never certify
 * a wrong rounding.
 *
 * The reference: the exact rational value in mpq, rounded by MPFR at 53
 * bits with the exponent range of binary64 (emin -1073, emax 1024) and
 * mpfr_subnormalize, the documented way to emulate IEEE doubles.
 */
#include <gmp.h>
#include <mpfr.h>
#include "xg_exact.h"
#include "xg_interval.h"
#include "xg_filter_segtri.h"
#include "xg_test.h"

static mpfr_t fr;
static mpq_t qv, qa, qb;
static mpz_t zn, zd;

/* RN(qv) as a double, ties to even, with subnormals and overflow. */
static double ref_round(void)
{
    int inex = mpfr_set_q(fr, qv, MPFR_RNDN);
    inex = mpfr_subnormalize(fr, inex, MPFR_RNDN);
    (void)inex;
    return mpfr_get_d(fr, MPFR_RNDN);
}

/* Same value and, for zeros, both non-negative: the library promises
 * +0 for a zero result of a construction. */
static int same(double x, double y)
{
    return x == y || (isnan(x) && isnan(y));
}

/* A random integer of up to bits bits (at least 1), random sign. */
static void rand_mpz(mpz_t z, int bits, int sign)
{
    int i;
    mpz_set_ui(z, 0);
    for (i = 0; i < bits; i += 32) {
        mpz_mul_2exp(z, z, 32);
        mpz_add_ui(z, z, (unsigned long)(rng_u64() & 0xffffffffu));
    }
    mpz_fdiv_r_2exp(z, z, (mp_bitcnt_t)bits);
    if (mpz_sgn(z) == 0)
        mpz_set_ui(z, 1);
    if (sign && rng_int(2))
        mpz_neg(z, z);
}

static struct tally rq_random = {"round_quotient: random quotients over "
                                 "the whole range", 0, 0};
static struct tally rq_sub = {"round_quotient: subnormal and underflowing "
                              "results", 0, 0};
static struct tally rq_tie = {"round_quotient: exact ties go to even", 0, 0};
static struct tally rq_exact = {"round_quotient: representable quotients "
                                "come back exactly", 0, 0};
static struct tally rq_over = {"round_quotient: overflow to infinity at the "
                               "right place", 0, 0};

/* num / (den 2^k) against the reference. */
static void rq_case(struct tally *t, long k)
{
    double got, want;
    mpz_set(mpq_numref(qv), zn);
    mpz_set(mpq_denref(qv), zd);
    if (mpz_sgn(zd) < 0) {
        mpz_neg(mpq_numref(qv), mpq_numref(qv));
        mpz_neg(mpq_denref(qv), mpq_denref(qv));
    }
    mpq_canonicalize(qv);
    if (k >= 0)
        mpq_div_2exp(qv, qv, (mp_bitcnt_t)k);
    else
        mpq_mul_2exp(qv, qv, (mp_bitcnt_t)-k);
    want = ref_round();
    got = xg__round_quotient(zn, zd, k);
    CHECK(t, same(got, want) && (got != 0.0 || mpq_sgn(qv) == 0 ||
                                  signbit(got) == (mpq_sgn(qv) < 0)),
          "num %s / den %s / 2^%ld: got %a, want %a",
          mpz_get_str(NULL, 16, zn), mpz_get_str(NULL, 16, zd), k, got,
          want);
}

static void round_quotient_tests(int rounds)
{
    int i;
    for (i = 0; i < rounds; i++) {
        int nb = 1 + rng_int(180), db = 1 + rng_int(180);
        long target, k;
        /* random: the quotient's exponent anywhere in -1100 .. 1030 */
        rand_mpz(zn, nb, 1);
        rand_mpz(zd, db, 1);
        target = rng_int(4) ? -1100 + rng_int(2131) : -1080 + rng_int(60);
        k = (long)nb - db - target;
        rq_case(target < -1022 ? &rq_sub : target > 1023 ? &rq_over
                                                         : &rq_random, k);

        /* ties: the midpoint of a double x and its upper neighbour,
         * (2X + 1) 2^(q-1) with x = X 2^q, times a common factor */
        {
            double x = fabs(rng_int(4) ? rng_exp(-1074, 1023)
                                       : rng_exp(-1074, -1020));
            int e;
            long q;
            if (x == 0.0 || x == DBL_MAX)
                x = 1.0;
            (void)frexp(x, &e);
            q = e - 53 > -1074 ? e - 53 : -1074;
            mpz_set_d(zn, ldexp(x, (int)-q));  /* X, exact */
            mpz_mul_2exp(zn, zn, 1);
            mpz_add_ui(zn, zn, 1);
            rand_mpz(zd, 1 + rng_int(40), 0);
            mpz_mul(zn, zn, zd);
            if (rng_int(2))
                mpz_neg(zn, zn);
            if (rng_int(3) == 0) {
                mpz_neg(zn, zn);
                mpz_neg(zd, zd);
            }
            rq_case(&rq_tie, 1 - q);
        }

        /* exactly representable: a double's significand over 1 */
        {
            double x = rng_exp(-1074, 1024);
            int e;
            double m = frexp(x, &e);
            long kk;
            mpz_set_d(zn, ldexp(m, 53));
            mpz_set_ui(zd, 1);
            kk = 53 - e;
            {
                unsigned long f = 1 + (unsigned long)rng_int(1000);
                mpz_mul_ui(zn, zn, f);
                mpz_mul_ui(zd, zd, f);
            }
            rq_case(&rq_exact, kk);
            CHECK(&rq_exact, xg__round_quotient(zn, zd, kk) == x,
                  "%a does not come back", x);
        }

        /* overflow edge: around DBL_MAX and its rounding boundary
         * DBL_MAX + half an ulp = (2^54 - 1) 2^970 */
        {
            mpz_set_ui(zn, 1);
            mpz_mul_2exp(zn, zn, 54);
            mpz_sub_ui(zn, zn, 3);             /* 2^54 - 1, then */
            mpz_add_ui(zn, zn, (unsigned long)rng_int(5)); /* -2 .. +2 */
            rand_mpz(zd, 1 + rng_int(8), 0);
            mpz_abs(zd, zd);
            mpz_mul(zn, zn, zd);
            rq_case(&rq_over, -970);
        }
    }
}

/* ---- lerp ---- */

static struct tally le_random = {"lerp_exact: D + t (E - D) rounded to "
                                 "nearest", 0, 0};
static struct tally le_ends = {"lerp_exact: t = 0 and t = 1 give D and E (+0 for -0)",
                               0, 0};
static struct tally lf_never = {"lerp_fast never certifies a wrong "
                                "rounding", 0, 0};
static struct tally lf_agree = {"lerp_fast and lerp_exact agree bitwise "
                                "where both answer", 0, 0};
static long lf_calls, lf_certified;

static double lerp_coord(int sc)
{
    switch (sc) {
    case 0: return rng_utm();
    case 1: return rng_range(-4.0, 4.0);
    case 2: return rng_exp(-1074, -1000);
    case 3: return rng_exp(-60, 60);
    case 4: return ldexp(rng_range(-1.0, 1.0), 1000);
    default: return 0.0;           /* drill holes: set by the caller */
    }
}

/* The reference for one coordinate: RN(D + (tn/td)(E - D)). */
static double ref_lerp(double d, double e, const mpz_t tn, const mpz_t td)
{
    mpq_set_z(qa, tn);
    mpq_set_z(qb, td);
    mpq_div(qa, qa, qb);           /* t */
    mpq_set_d(qv, e);
    mpq_set_d(qb, d);
    mpq_sub(qv, qv, qb);           /* E - D */
    mpq_mul(qv, qv, qa);
    mpq_add(qv, qv, qb);
    return ref_round();
}

static void lerp_tests(int rounds)
{
    int i, k;
    for (i = 0; i < rounds; i++) {
        double D[3], E[3], out[3], fast[3], want[3];
        int sc = rng_int(6), hit;
        struct xg_iv tiv;
        for (k = 0; k < 3; k++) {
            D[k] = lerp_coord(sc);
            E[k] = rng_int(4) ? lerp_coord(sc) : ulps(D[k], rng_int(5) - 2);
            if (sc == 5) {  /* a drill hole: UTM, hundreds of metres */
                static const double o[3] = {500000.25, 7000000.5, 350.75};
                D[k] = o[k] + rng_range(-1e4, 1e4);
                E[k] = D[k] + rng_range(-200.0, 200.0);
            }
        }
        if (sc == 4 && rng_int(2)) {     /* E - D overflows */
            D[0] = -DBL_MAX;
            E[0] = DBL_MAX;
        }
        /* t = tn / td with small integers (as doubles, so that the
         * interval below can be made), either sign of td */
        mpz_set_si(zd, 1 + rng_int(1 << 20));
        switch (rng_int(16)) {
        case 0: mpz_set_si(zn, 0); break;
        case 1: mpz_set(zn, zd); break;
        default: mpz_set_si(zn, rng_int((int)mpz_get_si(zd) + 1)); break;
        }
        if (rng_int(4) == 0) {
            mpz_neg(zn, zn);
            mpz_neg(zd, zd);
        }
        xg__lerp_exact(D, E, zn, zd, 3, out);
        for (k = 0; k < 3; k++)
            want[k] = ref_lerp(D[k], E[k], zn, zd);
        if (mpz_sgn(zn) == 0 || mpz_cmp(zn, zd) == 0) {
            /* the end itself, with -0 made +0 as every output point */
            const double *e0 = mpz_sgn(zn) == 0 ? D : E;
            double end[3];
            for (k = 0; k < 3; k++)
                end[k] = e0[k] + 0.0;
            CHECK(&le_ends, memcmp(out, end, sizeof out) == 0,
                  "t = %s gives (%a,%a,%a)", mpz_sgn(zn) ? "1" : "0", out[0],
                  out[1], out[2]);
        }
        for (k = 0; k < 3; k++)
            CHECK(&le_random, same(out[k], want[k]),
                  "D %a E %a t %ld/%ld: got %a, want %a", D[k], E[k],
                  mpz_get_si(zn), mpz_get_si(zd), out[k], want[k]);

        /* the fast path with an enclosure of t, sometimes widened */
        tiv = xg_iv_div(xg_iv_point(mpz_get_d(zn)), xg_iv_point(mpz_get_d(zd)));
        if (sc != 5 && rng_int(3) == 0) {
            tiv.lo = ulps(tiv.lo, -rng_int(4));
            tiv.hi = ulps(tiv.hi, rng_int(4));
        }
        hit = xg_lerp_fast(D, E, tiv, 3, fast);
        if (sc == 5) {                 /* easting and northing alone */
            double xy[2];
            lf_calls++;
            lf_certified += xg_lerp_fast(D, E, tiv, 2, xy);
        }
        if (hit) {
            for (k = 0; k < 3; k++) {
                CHECK(&lf_never, same(fast[k], want[k]),
                      "D %a E %a t %ld/%ld: certified %a, want %a", D[k],
                      E[k], mpz_get_si(zn), mpz_get_si(zd), fast[k],
                      want[k]);
                CHECK(&lf_agree, memcmp(&fast[k], &out[k], sizeof(double)) ==
                                     0 || (mpz_sgn(zn) == 0 ||
                                           mpz_cmp(zn, zd) == 0),
                      "D %a E %a: fast %a, exact %a", D[k], E[k], fast[k],
                      out[k]);
            }
        }
    }
}

int main(void)
{
    rng_seed_from_env(500000);
    mpfr_set_emin(-1073);
    mpfr_set_emax(1024);
    mpfr_init2(fr, 53);
    mpq_inits(qv, qa, qb, NULL);
    mpz_inits(zn, zd, NULL);

    round_quotient_tests(60000);
    tally_ok(&rq_random);
    tally_ok(&rq_sub);
    tally_ok(&rq_tie);
    tally_ok(&rq_exact);
    tally_ok(&rq_over);

    lerp_tests(40000);
    tally_ok(&le_random);
    tally_ok(&le_ends);
    tally_ok(&lf_never);
    tally_ok(&lf_agree);
    /* Speed, not correctness, but a filter that never certifies would
     * pass every check above: on drill-hole-like input it must answer. */
    ok(lf_certified * 100 > lf_calls * 99, "lerp_fast certifies over 99%% "
       "of UTM easting/northing pairs (%ld of %ld)", lf_certified, lf_calls);

    mpz_clears(zn, zd, NULL);
    mpq_clears(qv, qa, qb, NULL);
    mpfr_clear(fr);
    mpfr_free_cache();
    return tap_done(), tap_exit();
}
