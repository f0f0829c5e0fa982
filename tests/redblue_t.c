/*
 * redblue_t.c -- 2D red/blue segment contacts: every kind on hand-built
 * cases at small, UTM and 1e15 magnitudes; the pair against an
 * independent rational reference (mpq, written here) on random,
 * near-degenerate and exactly degenerate data; seq, cpu and brute force
 * against each other on whole sets.
 */
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "exactgeo.h"
#include "tap.h"
#include "xg_rng.h"

/* ------------------------------------------------------------------ */
/* The reference: everything in rationals, by Cramer's rule. */

/* The double nearest q, ties to even (q within the finite range). */
static double round_q(const mpq_t q)
{
    double c = mpq_get_d(q), best = c, cand[2];
    mpq_t d, e, dist, bd;
    int i;
    mpq_inits(d, e, dist, bd, NULL);
    mpq_set_d(d, c);
    mpq_sub(bd, q, d);
    mpq_abs(bd, bd);
    cand[0] = nextafter(c, -INFINITY);
    cand[1] = nextafter(c, INFINITY);
    for (i = 0; i < 2; i++) {
        int cmp;
        mpq_set_d(e, cand[i]);
        mpq_sub(dist, q, e);
        mpq_abs(dist, dist);
        cmp = mpq_cmp(dist, bd);
        if (cmp < 0 || (cmp == 0 && ((uint64_t)fabs(cand[i] /
                                      ldexp(1.0, ilogb(cand[i]) - 52)) & 1) == 0)) {
            best = cand[i];
            mpq_set(bd, dist);
        }
    }
    mpq_clears(d, e, dist, bd, NULL);
    return best + 0.0;
}

/* cross(b - a, c - a) in rationals. */
static void cross_q(mpq_t r, mpq_t const *a, mpq_t const *b, mpq_t const *c)
{
    mpq_t u, v, w;
    mpq_inits(u, v, w, NULL);
    mpq_sub(u, b[0], a[0]);
    mpq_sub(v, c[1], a[1]);
    mpq_mul(r, u, v);
    mpq_sub(u, b[1], a[1]);
    mpq_sub(v, c[0], a[0]);
    mpq_mul(w, u, v);
    mpq_sub(r, r, w);
    mpq_clears(u, v, w, NULL);
}

static void point_at(mpq_t const *p0, mpq_t const *p1, const mpq_t t,
                     double out[3])
{
    mpq_t x, d;
    int k;
    mpq_inits(x, d, NULL);
    for (k = 0; k < 2; k++) {
        mpq_sub(d, p1[k], p0[k]);
        mpq_mul(d, d, t);
        mpq_add(x, p0[k], d);
        out[k] = round_q(x);
    }
    out[2] = 0.0;
    mpq_clears(x, d, NULL);
}

/* Returns 0 (none) or 1 with kind, p, q set as the library defines. */
static int reference(const double *sa, const double *sb, struct xg_contact *c)
{
    mpq_t v[8], den, t, u, one, zero, s0, s1, lo, hi, dot, len, w;
    mpq_t *p0 = v, *p1 = v + 2, *q0 = v + 4, *q1 = v + 6;
    int i, r = 0;
    double in[8] = {sa[0], sa[1], sa[3], sa[4], sb[0], sb[1], sb[3], sb[4]};
    for (i = 0; i < 8; i++) {
        mpq_init(v[i]);
        mpq_set_d(v[i], in[i]);
    }
    mpq_inits(den, t, u, one, zero, s0, s1, lo, hi, dot, len, w, NULL);
    mpq_set_ui(one, 1, 1);
    memset(c, 0, sizeof *c);
    {
        /* den = cross(P1 - P0, Q1 - Q0) */
        mpq_t e[2], f[2];
        mpq_inits(e[0], e[1], f[0], f[1], NULL);
        mpq_sub(e[0], p1[0], p0[0]);
        mpq_sub(e[1], p1[1], p0[1]);
        mpq_sub(f[0], q1[0], q0[0]);
        mpq_sub(f[1], q1[1], q0[1]);
        mpq_mul(den, e[0], f[1]);
        mpq_mul(w, e[1], f[0]);
        mpq_sub(den, den, w);
        if (mpq_sgn(den) != 0) {
            /* P0 + t e = Q0 + u f: t = cross(Q0-P0, f) / den,
             * u = cross(Q0-P0, e) / den. */
            mpq_t g[2];
            mpq_inits(g[0], g[1], NULL);
            mpq_sub(g[0], q0[0], p0[0]);
            mpq_sub(g[1], q0[1], p0[1]);
            mpq_mul(t, g[0], f[1]);
            mpq_mul(w, g[1], f[0]);
            mpq_sub(t, t, w);
            mpq_div(t, t, den);
            mpq_mul(u, g[0], e[1]);
            mpq_mul(w, g[1], e[0]);
            mpq_sub(u, u, w);
            mpq_div(u, u, den);
            if (mpq_sgn(t) >= 0 && mpq_cmp(t, one) <= 0 && mpq_sgn(u) >= 0 &&
                mpq_cmp(u, one) <= 0) {
                r = 1;
                c->kind = mpq_sgn(t) > 0 && mpq_cmp(t, one) < 0 &&
                                  mpq_sgn(u) > 0 && mpq_cmp(u, one) < 0
                              ? XG_KIND_PROPER
                              : XG_KIND_TOUCH;
                point_at(p0, p1, t, c->p);
            }
            mpq_clears(g[0], g[1], NULL);
        } else {
            cross_q(w, p0, p1, q0);
            if (mpq_sgn(w) == 0) {  /* collinear: parameters along A */
                mpq_mul(len, e[0], e[0]);
                mpq_mul(w, e[1], e[1]);
                mpq_add(len, len, w);
                for (i = 0; i < 2; i++) {
                    mpq_t *q = i ? q1 : q0, *s = i ? &s1 : &s0;
                    mpq_sub(w, q[0], p0[0]);
                    mpq_mul(dot, w, e[0]);
                    mpq_sub(w, q[1], p0[1]);
                    mpq_mul(w, w, e[1]);
                    mpq_add(dot, dot, w);
                    mpq_div(*s, dot, len);
                }
                if (mpq_cmp(s0, s1) > 0)
                    mpq_swap(s0, s1);
                mpq_set(lo, mpq_sgn(s0) > 0 ? s0 : zero);
                mpq_set(hi, mpq_cmp(s1, one) < 0 ? s1 : one);
                if (mpq_cmp(lo, hi) <= 0) {
                    r = 1;
                    point_at(p0, p1, lo, c->p);
                    if (mpq_cmp(lo, hi) == 0) {
                        c->kind = XG_KIND_TOUCH;
                    } else {
                        c->kind = XG_KIND_OVERLAP;
                        point_at(p0, p1, hi, c->q);
                    }
                }
            }
        }
        mpq_clears(e[0], e[1], f[0], f[1], NULL);
    }
    for (i = 0; i < 8; i++)
        mpq_clear(v[i]);
    mpq_clears(den, t, u, one, zero, s0, s1, lo, hi, dot, len, w, NULL);
    return r;
}

/* ------------------------------------------------------------------ */

static int same_contact(int r1, const struct xg_contact *c1, int r2,
                        const struct xg_contact *c2)
{
    if (r1 != r2)
        return 0;
    if (!r1)
        return 1;
    return c1->kind == c2->kind && memcmp(c1->p, c2->p, sizeof c1->p) == 0 &&
           (c1->kind != XG_KIND_OVERLAP ||
            memcmp(c1->q, c2->q, sizeof c1->q) == 0);
}

static double ox, oy;

static void mk(double *s, double x0, double y0, double x1, double y1)
{
    s[0] = ox + x0; s[1] = oy + y0; s[2] = 0.0;
    s[3] = ox + x1; s[4] = oy + y1; s[5] = 0.0;
}

static int at(const double *p, double x, double y)
{
    return p[0] == ox + x && p[1] == oy + y && p[2] == 0.0;
}

/* One hand-built case, in both roles (A/B swapped) and checked against
 * the reference too. */
static void case2(const char *where, const char *what, const double *a,
                  const double *b, int want_r, int kind, double px,
                  double py, double qx, double qy)
{
    struct xg_contact c, ref;
    int r = xg_redblue_pair(NULL, a, b, &c), rr = reference(a, b, &ref);
    int good = r == want_r;
    if (good && r) {
        good = c.kind == kind && at(c.p, px, py);
        if (kind == XG_KIND_OVERLAP)
            good = good && at(c.q, qx, qy);
    }
    ok(good && same_contact(r, &c, rr, &ref), "%s: %s", where, what);
    r = xg_redblue_pair(NULL, b, a, &c);
    ok(r == want_r && (!r || c.kind == kind), "%s: %s (swapped)", where, what);
}

static void hand_built(const char *where)
{
    double a[6], b[6];
    const int P = XG_KIND_PROPER, T = XG_KIND_TOUCH, O = XG_KIND_OVERLAP;

    mk(a, 0, 0, 4, 4); mk(b, 0, 4, 4, 0);
    case2(where, "proper X at (2,2)", a, b, 1, P, 2, 2, 0, 0);
    mk(a, 0, 0, 3, 1); mk(b, 1, 0, 1, 4);
    case2(where, "proper crossing at (1,1/3), rounded", a, b, 1, P, 1,
          (oy + 1.0 / 3.0) - oy, 0, 0);
    mk(a, 0, 0, 4, 0); mk(b, 2, 0, 2, 3);
    case2(where, "T-junction: endpoint in the interior", a, b, 1, T, 2, 0,
          0, 0);
    mk(a, 0, 0, 4, 0); mk(b, 4, 0, 6, 3);
    case2(where, "shared vertex", a, b, 1, T, 4, 0, 0, 0);
    mk(a, 0, 0, 4, 0); mk(b, 4, 0, 8, 0);
    case2(where, "collinear, end to end: touch", a, b, 1, T, 4, 0, 0, 0);
    mk(a, 0, 0, 4, 0); mk(b, 5, 0, 8, 0);
    case2(where, "collinear, apart: none", a, b, 0, 0, 0, 0, 0, 0);
    mk(a, 0, 0, 8, 0); mk(b, 2, 0, 5, 0);
    case2(where, "collinear, B inside A", a, b, 1, O, 2, 0, 5, 0);
    mk(a, 2, 1, 5, 1); mk(b, 0, 1, 8, 1);
    case2(where, "collinear, A inside B", a, b, 1, O, 2, 1, 5, 1);
    mk(a, 0, 0, 4, 4); mk(b, 2, 2, 6, 6);
    case2(where, "collinear, partial (diagonal)", a, b, 1, O, 2, 2, 4, 4);
    mk(a, 0, 0, 0, 4); mk(b, 0, 3, 0, 4);
    case2(where, "collinear vertical, sharing an end", a, b, 1, O, 0, 3, 0,
          4);
    mk(a, 1, 2, 5, 3); mk(b, 1, 2, 5, 3);
    case2(where, "identical", a, b, 1, O, 1, 2, 5, 3);
    mk(a, 1, 2, 5, 3); mk(b, 5, 3, 1, 2);
    case2(where, "reversed", a, b, 1, O, 1, 2, 5, 3);
    mk(a, 8, 0, 0, 0); mk(b, 2, 0, 5, 0);
    case2(where, "A runs backwards: stretch in A's direction", a, b, 1, O, 5,
          0, 2, 0);
    mk(a, 0, 0, 4, 0); mk(b, 0, 1, 4, 1);
    case2(where, "parallel: none", a, b, 0, 0, 0, 0, 0, 0);
    mk(a, 0, 0, 4, 0); mk(b, 2, 0.25, 3, 4);
    case2(where, "near miss above the line", a, b, 0, 0, 0, 0, 0, 0);
    mk(a, 0, 0, 4, 4); mk(b, 1, 1, 3, 0);
    case2(where, "endpoint on a diagonal", a, b, 1, T, 1, 1, 0, 0);
}

/* ------------------------------------------------------------------ */

static uint64_t next(void) { return rng_u64(); }
static double unit(void) { return rng_unit(); }

/* A random segment of the chosen family: coarse lattice (collinear,
 * shared vertices, T-junctions everywhere), UTM doubles, 1 ulp nudges
 * off the lattice, and points on the other segment's line. */
static void random_pair(int family, double *a, double *b)
{
    int k;
    double bx = 500000.25, by = 7000000.5;
    switch (family) {
    case 0:
        for (k = 0; k < 6; k++)
            a[k] = k % 3 == 2 ? 0.0 : (double)(next() % 5);
        for (k = 0; k < 6; k++)
            b[k] = k % 3 == 2 ? 0.0 : (double)(next() % 5);
        break;
    case 1:
        for (k = 0; k < 6; k++)
            a[k] = k % 3 == 2 ? 0.0 : (k % 3 ? by : bx) + 100.0 * unit();
        for (k = 0; k < 6; k++)
            b[k] = k % 3 == 2 ? 0.0 : (k % 3 ? by : bx) + 100.0 * unit();
        break;
    case 2:
        for (k = 0; k < 6; k++)
            a[k] = k % 3 == 2 ? 0.0 : (k % 3 ? by : bx) + (double)(next() % 9);
        for (k = 0; k < 6; k++) {
            b[k] = k % 3 == 2 ? 0.0 : (k % 3 ? by : bx) + (double)(next() % 9);
            if (k % 3 != 2 && next() % 3 == 0)
                b[k] = nextafter(b[k], next() & 1 ? INFINITY : -INFINITY);
        }
        break;
    default: {
        /* b's ends on a's line (the double nearest a point of it), at
         * 1e15: exact collinearity sometimes, near-misses otherwise. */
        double big = 1e15, t0 = unit() * 2 - 0.5, t1 = unit() * 2 - 0.5;
        a[0] = big + (double)(next() % 64); a[1] = big + (double)(next() % 64);
        a[3] = big + (double)(next() % 64); a[4] = big + (double)(next() % 64);
        a[2] = a[5] = 0.0;
        if (next() & 1) { t0 = (double)(next() % 5) / 4; }
        b[0] = a[0] + t0 * (a[3] - a[0]); b[1] = a[1] + t0 * (a[4] - a[1]);
        b[3] = a[0] + t1 * (a[3] - a[0]); b[4] = a[1] + t1 * (a[4] - a[1]);
        if (next() % 4 == 0) { b[3] = a[3] + 3; b[4] = a[4] - 5; }
        b[2] = b[5] = 0.0;
    } break;
    }
}

static int degenerate(const double *s) { return s[0] == s[3] && s[1] == s[4]; }

static void diag(const double *a, const double *b, int r,
                 const struct xg_contact *c, int rr,
                 const struct xg_contact *ref)
{
    printf("# a = (%.17g %.17g)-(%.17g %.17g) b = (%.17g %.17g)-(%.17g %.17g)\n",
           a[0], a[1], a[3], a[4], b[0], b[1], b[3], b[4]);
    printf("#   got %d kind %d p (%.17g %.17g) q (%.17g %.17g)\n", r,
           r ? c->kind : -1, c->p[0], c->p[1], c->q[0], c->q[1]);
    printf("#   ref %d kind %d p (%.17g %.17g) q (%.17g %.17g)\n", rr,
           rr ? ref->kind : -1, ref->p[0], ref->p[1], ref->q[0], ref->q[1]);
}

static void against_reference(void)
{
    static const char *names[] = {"small lattice", "UTM random",
                                  "UTM lattice nudged by an ulp",
                                  "1e15 on-the-line"};
    int family;
    for (family = 0; family < 4; family++) {
        int i, n = 0, bad = 0, hits = 0, kinds[3] = {0, 0, 0};
        for (i = 0; i < 4000; i++) {
            double a[6], b[6];
            struct xg_contact c, ref;
            int r, rr;
            random_pair(family, a, b);
            if (degenerate(a) || degenerate(b))
                continue;
            n++;
            r = xg_redblue_pair(NULL, a, b, &c);
            rr = reference(a, b, &ref);
            if (!same_contact(r, &c, rr, &ref)) {
                if (bad++ < 3)
                    diag(a, b, r, &c, rr, &ref);
            }
            if (rr) {
                hits++;
                kinds[ref.kind]++;
            }
        }
        ok(bad == 0, "%s: %d pairs (%d contacts: %d proper, %d touch, "
           "%d overlap) equal the rational reference", names[family], n,
           hits, kinds[0], kinds[1], kinds[2]);
    }
}

/* ------------------------------------------------------------------ */
/* Whole sets: seq, cpu (3 threads) and brute force over every pair. */

static void random_set(struct xg_set *s, size_t n, int lattice, double bx,
                       double by)
{
    size_t i;
    for (i = 0; i < n; i++) {
        double p[3] = {0, 0, 0}, q[3] = {0, 0, 0};
        if (lattice) {
            p[0] = bx + (double)(next() % 40);
            p[1] = by + (double)(next() % 40);
            q[0] = p[0] + (double)(next() % 7) - 3;
            q[1] = p[1] + (double)(next() % 7) - 3;
        } else {
            p[0] = bx + 40 * unit();
            p[1] = by + 40 * unit();
            q[0] = p[0] + 6 * unit() - 3;
            q[1] = p[1] + 6 * unit() - 3;
        }
        p[2] = 5.0 * unit();        /* z is ignored */
        xg_set_push_segment(s, p, q, (int64_t)i, 0);
    }
}

static void engines(const char *what, int lattice, double bx, double by)
{
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_set a = {0}, b = {0};
    struct xg_contacts seq = {0}, cpu = {0}, brute = {0};
    struct xg_opts opt;
    struct xg_stats st;
    size_t i, j, skipped = 0;
    int rc;

    random_set(&a, 700, lattice, bx, by);
    random_set(&b, 600, lattice, bx, by);
    for (i = 0; i < a.n; i++)
        skipped += degenerate(a.xyz + 6 * i);
    for (i = 0; i < a.n; i++) {
        if (degenerate(a.xyz + 6 * i))
            continue;
        for (j = 0; j < b.n; j++) {
            struct xg_contact c;
            if (degenerate(b.xyz + 6 * j))
                continue;
            if (reference(a.xyz + 6 * i, b.xyz + 6 * j, &c)) {
                c.a = (uint32_t)i;
                c.b = (uint32_t)j;
                if (brute.n == brute.cap) {
                    brute.cap = brute.cap ? 2 * brute.cap : 256;
                    brute.v = realloc(brute.v, brute.cap * sizeof *brute.v);
                }
                brute.v[brute.n++] = c;
            }
        }
    }
    memset(&opt, 0, sizeof opt);
    opt.engine = XG_ENGINE_SEQ;
    rc = xg_redblue(ctx, &a, &b, &opt, &seq, &st);
    ok(rc == XG_OK && xg_contacts_diff(&seq, &brute) == SIZE_MAX,
       "%s: seq equals the rational brute force (%zu contacts)", what,
       brute.n);
    ok(st.a_skipped == skipped && st.grid[2] == 1,
       "%s: %zu zero-length A segments skipped; grid %d x %d x %d", what,
       skipped, st.grid[0], st.grid[1], st.grid[2]);
    xg_ctx_set_threads(ctx, 3);
    opt.engine = XG_ENGINE_CPU;
    opt.grid[0] = 7;                /* a coarse grid, many shared cells */
    opt.grid[1] = 5;
    rc = xg_redblue(ctx, &a, &b, &opt, &cpu, &st);
    ok(rc == XG_OK && xg_contacts_diff(&cpu, &seq) == SIZE_MAX,
       "%s: cpu (3 threads, 7 x 5 grid) equals seq", what);
    xg_contacts_free(&seq);
    xg_contacts_free(&cpu);
    free(brute.v);
    xg_set_free(&a);
    xg_set_free(&b);
    xg_ctx_free(ctx);
}

static void bad_input(void)
{
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_set a = {0}, b = {0};
    struct xg_contacts out = {0};
    double p[3] = {1, 2, NAN}, q[3] = {3, 4, 0}, r[3] = {NAN, 0, 0};
    int rc;
    xg_set_push_segment(&a, p, q, 7, 0);
    xg_set_push_segment(&b, q, p, 9, 0);
    rc = xg_redblue(ctx, &a, &b, NULL, &out, NULL);
    ok(rc == XG_OK && out.n == 1 && out.v[0].kind == XG_KIND_OVERLAP,
       "a NaN z is ignored (reversed identical segments overlap)");
    xg_set_push_segment(&b, r, q, 11, 0);
    rc = xg_redblue(ctx, &a, &b, NULL, &out, NULL);
    ok(rc == XG_EINVAL && strstr(xg_ctx_errmsg(ctx), "feature 11"),
       "a NaN x is refused, naming the feature: %s", xg_ctx_errmsg(ctx));
    xg_contacts_free(&out);
    xg_set_free(&a);
    xg_set_free(&b);
    xg_ctx_free(ctx);
}

/* The check of the coordinates goes a block of elements at a time, on
 * threads: the first bad element is the one named, wherever the blocks
 * and the threads' shares fall, and a NaN or infinite z never counts. */
static void bad_input_many(void)
{
    /* 140,000: three threads' shares (one per 65,536 elements) */
    enum { N = 140000 };
    static const size_t bad_at[] = {0, 1023, 1024, 46666, 46667, 93334, N - 1};
    static const int threads[] = {1, 3, 8};
    size_t k, i, first;
    int t, rc;
    for (k = 0; k < sizeof bad_at / sizeof *bad_at; k++)
        for (t = 0; t < 3; t++) {
            struct xg_ctx *ctx = xg_ctx_new();
            struct xg_set a = {0}, b = {0};
            struct xg_contacts out = {0};
            char want[64];
            for (i = 0; i < N; i++) {
                double p[3] = {(double)i, 0.0, i % 2 ? NAN : INFINITY};
                double q[3] = {(double)i + 0.5, 1.0, 0.0};
                if (i == bad_at[k] || i == N - 1)
                    p[i % 2] = i == N - 1 ? -INFINITY : NAN;
                xg_set_push_segment(&a, p, q, 100 + (int64_t)i, 0);
            }
            xg_set_push_segment(&b, (double[3]){0, 0, 0},
                                (double[3]){1, 1, 0}, 1, 0);
            xg_ctx_set_threads(ctx, threads[t]);
            first = bad_at[k];
            snprintf(want, sizeof want, "segment %zu (feature %lld)", first,
                     100 + (long long)first);
            rc = xg_redblue(ctx, &a, &b, NULL, &out, NULL);
            ok(rc == XG_EINVAL && strstr(xg_ctx_errmsg(ctx), want),
               "a bad coordinate in segment %zu of %d on %d threads: %s",
               first, N, threads[t], xg_ctx_errmsg(ctx));
            xg_contacts_free(&out);
            xg_set_free(&a);
            xg_set_free(&b);
            xg_ctx_free(ctx);
        }
}

int main(void)
{
    (void)tap_plan;         /* the plan comes at the end */
    (void)tap_skip_all;
    rng_seed_from_env(1254572);
    ox = oy = 0.0;
    hand_built("small");
    ox = 500000.25;
    oy = 7000000.5;
    hand_built("UTM");
    ox = 1e15;
    oy = 1e15 + 8;
    hand_built("1e15");
    against_reference();
    engines("lattice (degenerate)", 1, 0.0, 0.0);
    engines("lattice at UTM", 1, 500000.25, 7000000.5);
    engines("random at UTM", 0, 500000.25, 7000000.5);
    bad_input();
    bad_input_many();
    tap_done();
    return tap_exit();
}
