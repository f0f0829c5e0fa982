/*
 * gpu_iv_t.c -- the interval operations by signs, the powers and the
 * incircle filter of the shared headers (xg_interval.h, xg_filters.h),
 * compiled by nvcc and run on the device, checked on the host: every
 * bound encloses the exact result (MPFR, GMP rationals), every certified
 * sign is the exact one, and where the device rounds once per bound (mul,
 * div, sqr: directed rounding, one operation) the bound is the exact
 * extreme rounded outward, bit for bit, as the four-corner hull gives it.
 * The intervals come from interval_t's generators (iv_ref.h), incircle's
 * points are random, exactly cocircular at UTM magnitudes (on a circle
 * of Pythagorean points, rectangles of rotated lattices), the same moved
 * by one ulp, and of wild magnitudes.
 * Prints "1..0 # SKIP no GPU" without a usable GPU.
 */
#include <gmp.h>
#include "test_kernels.h"
#include "xg_test.h"
#include "iv_ref.h"
#include "pred_ref.h"

static int small;   /* XG_GPU_T_SMALL: fewer cases, for compute-sanitizer */

static void *dev_copy(const void *h, size_t bytes)
{
    void *d = NULL;
    if (cudaMalloc(&d, bytes ? bytes : 1) != cudaSuccess)
        return NULL;
    if (h && bytes &&
        cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice) != cudaSuccess) {
        cudaFree(d);
        return NULL;
    }
    return d;
}

/* ---- intervals ---- */

static struct iv_tallies tl;
static struct tally once[3];

/* The device's result r of op on (a, b), drawn by generator g. */
static void check_iv(int op, int g, struct xg_iv a, struct xg_iv b,
                     struct xg_iv r)
{
    int finite = isfinite(a.lo) && isfinite(a.hi) && isfinite(b.lo) &&
                 isfinite(b.hi);
    /* One directed rounding per bound (mul, div, sqr): RD / RU of the
     * exact extreme, which mpfr_get_d gives from lo_t / hi_t (RD53, then
     * RD to the double format, subnormals and overflow included, is RD).
     * With an infinite operand a corner may be 0 * inf or inf / inf,
     * which the device turns into the whole line. */
    if (iv_ref_check(&tl, op, g, a, b, r) && finite &&
        (op == OP_MUL || op == OP_DIV || op == OP_SQR)) {
        struct tally *t = &once[op == OP_MUL ? 0 : op == OP_DIV ? 1 : 2];
        double lo = mpfr_get_d(lo_t, MPFR_RNDD);
        double hi = mpfr_get_d(hi_t, MPFR_RNDU);
        CHECK(t, r.lo == lo && r.hi == hi,
              "device %s [%a,%a] [%a,%a] -> [%a,%a], exact rounded [%a,%a]",
              op_name[op], a.lo, a.hi, b.lo, b.hi, r.lo, r.hi, lo, hi);
    }
}

/* Device result k (XG_IV_MORE per pair) -> the operation it is. */
static int more_op(int k)
{
    return k == 0 ? OP_MUL : k == 1 ? OP_DIV : k == 2 ? OP_SQR
                                                      : OP_POW0 + (k - 3);
}

static void test_iv(struct xg_ctx *ctx)
{
    const size_t rounds = small ? 300 : 4000;
    const size_t N = rounds * GEN_COUNT;
    struct xg_iv *iv = malloc(2 * N * sizeof *iv);
    struct xg_iv *out = malloc(XG_IV_MORE * N * sizeof *out);
    struct xg_iv *d_iv, *d_out;
    int *gen = malloc(N * sizeof *gen);
    size_t i;
    int k, ran;

    /* pairs as interval_t draws them: both from one generator, or the
     * second from any */
    for (i = 0; i < N; i++) {
        int g = (int)(i % GEN_COUNT);
        gen[i] = g;
        iv[2 * i] = draw_iv(g, NULL);
        iv[2 * i + 1] = rng_int(2) ? draw_iv(g, &iv[2 * i])
                                   : draw_iv(rng_int(GEN_COUNT), NULL);
    }
    d_iv = dev_copy(iv, 2 * N * sizeof *iv);
    d_out = dev_copy(NULL, XG_IV_MORE * N * sizeof *out);
    ran = d_iv && d_out &&
          xg__cuda_iv_more(ctx, d_iv, N, d_out, 0) == XG_OK &&
          cudaMemcpy(out, d_out, XG_IV_MORE * N * sizeof *out,
                     cudaMemcpyDeviceToHost) == cudaSuccess;
    ok(ran, "device mul, div, sqr, pow 0..7 ran on %zu interval pairs", N);
    iv_tallies_init(&tl, "device ");
    once[0].what = "device mul by signs: the exact extremes rounded "
                   "outward, bit for bit (finite operands)";
    once[1].what = "device div by signs: the exact extremes rounded "
                   "outward, bit for bit (finite operands)";
    once[2].what = "device sqr: the exact extremes rounded outward, bit "
                   "for bit (finite operands)";
    if (ran)
        for (i = 0; i < N; i++)
            for (k = 0; k < XG_IV_MORE; k++)
                check_iv(more_op(k), gen[i], iv[2 * i], iv[2 * i + 1],
                         out[XG_IV_MORE * i + k]);
    for (k = 0; k < 3; k++)
        tally_ok(&once[k]);
    printf("# device interval operations checked: %ld\n",
           iv_tallies_report(&tl, OP_MUL));   /* the ones run here */
    cudaFree(d_iv);
    cudaFree(d_out);
    free(iv);
    free(out);
    free(gen);
}

/* ---- incircle ---- */

enum { K_RANDOM, K_UTM, K_CIRCLE, K_NUDGED, K_RECT, K_WILD, K_COUNT };
static const char *const kind_name[K_COUNT] = {
    "random unit", "random UTM", "exactly cocircular (3-4-5 circle, UTM)",
    "cocircular moved by 1 ulp", "rotated lattice rectangle (UTM)",
    "wild magnitudes"};

/* The 12 points of x^2 + y^2 = 25 with integer coordinates. */
static const int c345[12][2] = {{5, 0}, {4, 3}, {3, 4}, {0, 5}, {-3, 4},
                                {-4, 3}, {-5, 0}, {-4, -3}, {-3, -4},
                                {0, -5}, {3, -4}, {4, -3}};

/* Four points (8 doubles) of the given kind. */
static void incircle_case(double *p, int kind)
{
    double o[2] = {500000.25 + 0.25 * rng_int(4000),
                   7000000.5 + 0.25 * rng_int(4000)};
    int i, j, pick[4];
    switch (kind) {
    case K_RANDOM:
        for (i = 0; i < 8; i++)
            p[i] = rng_range(-1.0, 1.0);
        break;
    case K_UTM:
        for (i = 0; i < 8; i++)
            p[i] = o[i & 1] + rng_range(-500.0, 500.0);
        break;
    case K_CIRCLE:
    case K_NUDGED: {
        double t = 0.25 * (1 + rng_int(64));
        for (i = 0; i < 4; i++) {       /* four distinct of the 12 */
            do {
                pick[i] = rng_int(12);
                for (j = 0; j < i && pick[j] != pick[i]; j++)
                    ;
            } while (j < i);
            p[2 * i] = o[0] + c345[pick[i]][0] * t;
            p[2 * i + 1] = o[1] + c345[pick[i]][1] * t;
        }
        if (kind == K_NUDGED) {          /* off the circle: |d - o| grows */
            int ax = abs(c345[pick[3]][0]) >= abs(c345[pick[3]][1]) ? 0 : 1;
            p[6 + ax] = ulps(p[6 + ax], p[6 + ax] > o[ax] ? 1 : -1);
        }
        break;
    }
    case K_RECT: {
        double u[2] = {0.25 * (rng_int(17) - 8), 0.25 * (1 + rng_int(8))};
        double v[2] = {-u[1], u[0]};
        int i1 = rng_int(5), j1 = rng_int(5), i2 = i1 + 1 + rng_int(3),
            j2 = j1 + 1 + rng_int(3);
        int ii[4] = {i1, i2, i2, i1}, jj[4] = {j1, j1, j2, j2};
        for (i = 0; i < 4; i++)
            for (j = 0; j < 2; j++)
                p[2 * i + j] = o[j] + ii[i] * u[j] + jj[i] * v[j];
        break;
    }
    default:
        for (i = 0; i < 8; i++)
            p[i] = ldexp(rng_unit() - 0.5, rng_int(600) - 300);
        break;
    }
}

static void test_incircle(struct xg_ctx *ctx)
{
    const size_t N = small ? 3000 : 30000;
    double *pts = malloc(8 * N * sizeof *pts), *d_pts;
    struct xg_iv *res = malloc(N * sizeof *res), *d_res;
    struct tally encl[K_COUNT], sgn[K_COUNT];
    static char en[K_COUNT][96], sn[K_COUNT][96];
    long unsure[K_COUNT] = {0}, zero[K_COUNT] = {0}, zcert[K_COUNT] = {0};
    mpq_t det;
    size_t i;
    int k, ran;

    for (i = 0; i < N; i++)
        incircle_case(pts + 8 * i, (int)(i % K_COUNT));
    d_pts = dev_copy(pts, 8 * N * sizeof *pts);
    d_res = dev_copy(NULL, N * sizeof *res);
    ran = d_pts && d_res &&
          xg__cuda_incircle_iv(ctx, d_pts, N, d_res, 0) == XG_OK &&
          cudaMemcpy(res, d_res, N * sizeof *res, cudaMemcpyDeviceToHost) ==
              cudaSuccess;
    ok(ran, "device incircle ran on %zu cases", N);
    for (k = 0; k < K_COUNT; k++) {
        snprintf(en[k], sizeof en[k], "device incircle, %s: the interval "
                 "encloses the exact determinant", kind_name[k]);
        snprintf(sn[k], sizeof sn[k], "device incircle, %s: a certified "
                 "sign is the exact sign", kind_name[k]);
        encl[k].what = en[k];
        encl[k].n = encl[k].bad = 0;
        sgn[k].what = sn[k];
        sgn[k].n = sgn[k].bad = 0;
    }
    mpq_init(det);
    for (i = 0; ran && i < N; i++) {
        const double *p = pts + 8 * i;
        int kind = (int)(i % K_COUNT);
        int ref = ref_incircle(det, p, p + 2, p + 4, p + 6);
        int s = xg_iv_sign(res[i]);
        CHECK(&encl[kind], ref_encloses(res[i], det),
              "[%a,%a] at (%a,%a) (%a,%a) (%a,%a) (%a,%a)", res[i].lo,
              res[i].hi, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
        CHECK(&sgn[kind], s == XG_UNSURE || s == ref,
              "sign %d, exact %d at (%a,%a) (%a,%a) (%a,%a) (%a,%a)", s, ref,
              p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
        unsure[kind] += s == XG_UNSURE;
        zero[kind] += ref == 0;
        zcert[kind] += s == XG_ZERO;
    }
    for (k = 0; k < K_COUNT; k++) {
        tally_ok(&encl[k]);
        tally_ok(&sgn[k]);
        printf("# device incircle, %s: %ld cases, %ld unsure, %ld exactly "
               "zero, %ld zeros certified on the device\n", kind_name[k],
               encl[k].n, unsure[k], zero[k], zcert[k]);
    }
    ok(ran && zero[K_CIRCLE] == encl[K_CIRCLE].n &&
           zero[K_RECT] == encl[K_RECT].n && zero[K_NUDGED] == 0,
       "device incircle: the cocircular constructions are cocircular, the "
       "nudged ones are not");
    mpq_clear(det);
    cudaFree(d_pts);
    cudaFree(d_res);
    free(pts);
    free(res);
}

int main(void)
{
    struct xg_ctx *ctx;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!xg_gpu_available())
        tap_skip_all("no GPU");
    rng_seed_from_env(0x13198A2E03707344ULL);
    small = getenv("XG_GPU_T_SMALL") && *getenv("XG_GPU_T_SMALL");
    iv_ref_init();
    ctx = xg_ctx_new();
    test_iv(ctx);
    test_incircle(ctx);
    xg_ctx_free(ctx);
    iv_ref_free();
    return tap_done(), tap_exit();
}
