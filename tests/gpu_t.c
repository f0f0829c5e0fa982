/*
 * gpu_t.c -- the GPU engine: device intervals enclose the exact values
 * (GMP) on random and adversarial input; the device's fast pass never
 * contradicts the exact classification; every strategy, batched or not,
 * with or without a relaunch, gives exactly the CPU engine's contacts on
 * random, degenerate and (XG_PAPER_DUMP=path) paper-scale sets.
 * Prints "1..0 # SKIP no GPU" without a usable GPU.
 */
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "test_kernels.h"
#include "xg_engine.h"
#include "../bench/cuda/install.h"
#include "tap.h"
#include "xg_rng.h"
#include "xg_exact.h"
#include "op/segtri/xg_segtri.h"
#include "xg_gpu.h"

static int small;   /* XG_GPU_T_SMALL: fewer cases, for compute-sanitizer */

static uint64_t rnd(void) { return rng_u64(); }
static double unif(void) { return rng_unit(); }

/* A double of random magnitude 2^-1074 .. 2^1000 and sign, or a special
 * small integer. */
static double wild(void)
{
    double m = unif() + 0.5;
    int e = (int)(rnd() % 2100) - 1074;
    double v = ldexp(m, e > 1000 ? 1000 : e);
    if (rnd() % 8 == 0)
        v = (double)(int)(rnd() % 5);
    return rnd() & 1 ? -v : v;
}

/* x <= q (q exact rational)?  Infinite x counts as holding on its side. */
static int le_q(double x, const mpq_t q)
{
    mpq_t t;
    int r;
    if (isinf(x))
        return x < 0;
    if (isnan(x))
        return 0;
    mpq_init(t);
    mpq_set_d(t, x);
    r = mpq_cmp(t, q) <= 0;
    mpq_clear(t);
    return r;
}

static int ge_q(double x, const mpq_t q)
{
    mpq_t t;
    int r;
    if (isinf(x))
        return x > 0;
    if (isnan(x))
        return 0;
    mpq_init(t);
    mpq_set_d(t, x);
    r = mpq_cmp(t, q) >= 0;
    mpq_clear(t);
    return r;
}

static void *dev_copy(const void *h, size_t bytes)
{
    void *d = NULL;
    if (cudaMalloc(&d, bytes ? bytes : 1) != cudaSuccess)
        return NULL;
    if (h && bytes)
        cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
    return d;
}

static void test_iv_ops(struct xg_ctx *ctx)
{
    const size_t N = small ? 2000 : 20000;
    struct xg_iv *iv = malloc(2 * N * sizeof *iv), *ops = malloc(4 * N *
                                                                 sizeof *ops);
    struct xg_iv *d_iv, *d_ops;
    size_t i, bad[4] = {0, 0, 0, 0};
    mpq_t c[4], lo, hi, q1, q2;
    int op, k;

    for (i = 0; i < 2 * N; i++) {
        double x = wild(), y = rnd() % 3 ? x : wild();
        if (rnd() % 4 == 0)       /* neighbours: cancellation */
            y = nextafter(x, rnd() & 1 ? INFINITY : -INFINITY);
        iv[i].lo = x < y ? x : y;
        iv[i].hi = x < y ? y : x;
    }
    d_iv = dev_copy(iv, 2 * N * sizeof *iv);
    d_ops = dev_copy(NULL, 4 * N * sizeof *ops);
    ok(d_iv && d_ops && xg__cuda_iv_ops(ctx, d_iv, N, d_ops, 0) == XG_OK &&
           cudaMemcpy(ops, d_ops, 4 * N * sizeof *ops,
                      cudaMemcpyDeviceToHost) == cudaSuccess,
       "device interval operations ran");
    for (k = 0; k < 4; k++)
        mpq_init(c[k]);
    mpq_inits(lo, hi, q1, q2, NULL);
    for (i = 0; i < N; i++) {
        struct xg_iv a = iv[2 * i], b = iv[2 * i + 1];
        double ac[2] = {a.lo, a.hi}, bc[2] = {b.lo, b.hi};
        for (op = 0; op < 4; op++) {
            struct xg_iv r = ops[4 * i + op];
            if (op == 3 && !(b.lo > 0.0 || b.hi < 0.0))
                continue;
            /* exact corners */
            for (k = 0; k < 4; k++) {
                mpq_set_d(q1, ac[k >> 1]);
                mpq_set_d(q2, op == 1 ? bc[1 - (k & 1)] : bc[k & 1]);
                switch (op) {
                case 0: mpq_add(c[k], q1, q2); break;
                case 1: mpq_sub(c[k], q1, q2); break;
                case 2: mpq_mul(c[k], q1, q2); break;
                default: mpq_div(c[k], q1, q2); break;
                }
            }
            mpq_set(lo, c[0]);
            mpq_set(hi, c[0]);
            for (k = 1; k < 4; k++) {
                if (mpq_cmp(c[k], lo) < 0)
                    mpq_set(lo, c[k]);
                if (mpq_cmp(c[k], hi) > 0)
                    mpq_set(hi, c[k]);
            }
            if (!le_q(r.lo, lo) || !ge_q(r.hi, hi))
                bad[op]++;
        }
    }
    ok(bad[0] == 0, "device add encloses the exact sum (%zu bad)", bad[0]);
    ok(bad[1] == 0, "device sub encloses the exact difference (%zu bad)",
       bad[1]);
    ok(bad[2] == 0, "device mul encloses the exact product (%zu bad)",
       bad[2]);
    ok(bad[3] == 0, "device div encloses the exact quotient (%zu bad)",
       bad[3]);
    for (k = 0; k < 4; k++)
        mpq_clear(c[k]);
    mpq_clears(lo, hi, q1, q2, NULL);
    cudaFree(d_iv);
    cudaFree(d_ops);
    free(iv);
    free(ops);
}

/* Four points: random, near-coplanar (a plane point nudged by an ulp),
 * exactly coplanar at UTM magnitudes, or wild magnitudes. */
static void orient_case(double *p, int kind)
{
    int i, k;
    double o[3] = {500000.25, 7000000.5, 1234.125};
    switch (kind) {
    case 0:
        for (i = 0; i < 12; i++)
            p[i] = unif() * 2 - 1;
        break;
    case 1: /* d = a + s (b - a) + t (c - a), rounded, then nudged */
    case 2: /* lattice points of one plane: exactly coplanar */
        for (i = 0; i < 9; i++)
            p[i] = o[i % 3] + (kind == 1 ? unif() * 100
                                         : (double)(rnd() % 64) * 0.25);
        if (kind == 2) {
            int s = (int)(rnd() % 5) - 2, t = (int)(rnd() % 5) - 2;
            for (k = 0; k < 3; k++)
                p[9 + k] = p[k] + s * (p[3 + k] - p[k]) +
                           t * (p[6 + k] - p[k]);
        } else {
            double s = unif(), t = unif();
            for (k = 0; k < 3; k++) {
                p[9 + k] = p[k] + s * (p[3 + k] - p[k]) +
                           t * (p[6 + k] - p[k]);
                if (rnd() & 1)
                    p[9 + k] = nextafter(p[9 + k], INFINITY);
            }
        }
        break;
    default:
        for (i = 0; i < 12; i++)
            p[i] = ldexp(unif() - 0.5, (int)(rnd() % 600) - 300);
        break;
    }
}

static void test_orient3d(struct xg_ctx *ctx)
{
    const size_t N = small ? 2000 : 20000;
    double *pts = malloc(12 * N * sizeof *pts);
    struct xg_iv *res = malloc(N * sizeof *res), *d_res;
    double *d_pts;
    size_t i, bad = 0, zero_certified = 0, unsure = 0;
    mpz_t z[12], det;
    mpq_t q;

    for (i = 0; i < N; i++)
        orient_case(pts + 12 * i, (int)(i % 4));
    d_pts = dev_copy(pts, 12 * N * sizeof *pts);
    d_res = dev_copy(NULL, N * sizeof *res);
    ok(d_pts && d_res && xg__cuda_orient3d_iv(ctx, d_pts, N, d_res, 0) ==
                             XG_OK &&
           cudaMemcpy(res, d_res, N * sizeof *res, cudaMemcpyDeviceToHost) ==
               cudaSuccess,
       "device orient3d ran");
    for (i = 0; i < 12; i++)
        mpz_init(z[i]);
    mpz_init(det);
    mpq_init(q);
    for (i = 0; i < N; i++) {
        const double *p = pts + 12 * i;
        int k = xg__exact_shift(p, 12), j, s;
        for (j = 0; j < 12; j++)
            xg__mpz_set_scaled(z[j], p[j], k);
        xg__orient3d_mpz(det, (mpz_t const *)z, (mpz_t const *)z + 3,
                         (mpz_t const *)z + 6, (mpz_t const *)z + 9);
        mpq_set_z(q, det);
        if (k >= 0)
            mpq_div_2exp(q, q, 3 * (unsigned long)k);
        else
            mpq_mul_2exp(q, q, 3 * (unsigned long)-k);
        if (!le_q(res[i].lo, q) || !ge_q(res[i].hi, q))
            bad++;
        s = xg_iv_sign(res[i]);
        if (s == XG_UNSURE)
            unsure++;
        else if (s != mpz_sgn(det))
            bad++;
        if (s == XG_ZERO)
            zero_certified++;
    }
    ok(bad == 0, "device orient3d intervals enclose the exact determinant "
       "and certify only its sign (%zu bad of %zu; %zu unsure, %zu zeros)",
       bad, N, unsure, zero_certified);
    for (i = 0; i < 12; i++)
        mpz_clear(z[i]);
    mpz_clear(det);
    mpq_clear(q);
    cudaFree(d_pts);
    cudaFree(d_res);
    free(pts);
    free(res);
}

/* Random and degenerate sets: lattice coordinates (multiples of 1/4
 * over a few units, at UTM offsets) make coplanar segments, crossings
 * through vertices and edges, endpoints on triangles. */
static void make_set(struct xg_set *a, struct xg_set *b, size_t na,
                     size_t nb, int lattice, double spread)
{
    double o[3] = {500000.25, 7000000.5, 250.0};
    size_t i;
    int k;
    for (i = 0; i < na; i++) {
        double p[3], q[3];
        for (k = 0; k < 3; k++) {
            if (lattice) {
                p[k] = o[k] + (double)(rnd() % 9) * 0.25;
                q[k] = o[k] + (double)(rnd() % 9) * 0.25;
            } else {
                p[k] = o[k] + unif() * spread;
                q[k] = p[k] + (unif() - 0.5) * spread * 0.2;
            }
        }
        xg_set_push_segment(a, p, q, (int64_t)i, 0);
    }
    for (i = 0; i < nb; i++) {
        double v[3][3];
        int j;
        for (k = 0; k < 3; k++) {
            double c = o[k] + unif() * spread;
            for (j = 0; j < 3; j++)
                v[j][k] = lattice ? o[k] + (double)(rnd() % 9) * 0.25
                                  : c + (unif() - 0.5) * spread * 0.1;
        }
        xg_set_push_triangle(b, v[0], v[1], v[2], (int64_t)i, 0);
    }
}

static const char *sname[XG_GPU_NSTRAT] = {"multi-block", "list of pairs",
                                           "segment/thread",
                                           "triangle/thread",
                                           "packed multi-block"};

static void compare_engines(struct xg_ctx *ctx, const char *what,
                            const struct xg_set *a, const struct xg_set *b,
                            int all, size_t cap)
{
    struct xg_opts opt;
    struct xg_contacts ref = {0}, out = {0};
    struct xg_stats st;
    struct xg_gpu_opts go;
    struct xg__engine_knobs k = {0, &go};
    uint64_t skip_a, skip_b, cand;
    int s, rc;

    memset(&opt, 0, sizeof opt);
    opt.engine = XG_ENGINE_CPU;
    rc = xg_segtri(ctx, a, b, &opt, &ref, &st);
    ok(rc == XG_OK, "%s: cpu engine ran (%zu contacts, %llu deferred)", what,
       ref.n, (unsigned long long)st.deferred);
    skip_a = st.a_skipped;
    skip_b = st.b_skipped;
    cand = st.candidates;
    for (s = 0; s < XG_GPU_NSTRAT; s++) {
        if (!all && s != XG_GPU_MULTI && s != XG_GPU_PACKED)
            continue;
        memset(&go, 0, sizeof go);
        go.strategy = s;
        memset(&st, 0, sizeof st);
        rc = xg__engine_pair(ctx, &xg__op_segtri, XG_ENGINE_GPU, a, b, &opt,
                             &k, &out, &st);
        ok(rc == XG_OK && xg_contacts_diff(&ref, &out) == SIZE_MAX,
           "%s: gpu %s equals cpu (%zu contacts; bound %llu >= hits %llu; "
           "%llu deferred, %llu points double-double on the GPU, %llu "
           "points rounded on the host)",
           what, sname[s], out.n, (unsigned long long)go.count_bound,
           (unsigned long long)go.hits, (unsigned long long)st.deferred,
           (unsigned long long)go.refined,
           (unsigned long long)go.construct_fail);
        if (s == XG_GPU_MULTI || s == XG_GPU_PACKED)
            ok(rc == XG_OK && go.device_prep && st.a_skipped == skip_a &&
                   st.b_skipped == skip_b && st.candidates == cand,
               "%s: prepared on the GPU, the same skipped elements "
               "(%llu, %llu) and candidate pairs (%llu) as the cpu", what,
               (unsigned long long)st.a_skipped,
               (unsigned long long)st.b_skipped,
               (unsigned long long)st.candidates);
    }
    for (s = 0; s < XG_GPU_NSTRAT; s++) {
        if (s != XG_GPU_MULTI && s != XG_GPU_PACKED)
            continue;
        /* Forced relaunch: the capacity starts at one entry. */
        memset(&go, 0, sizeof go);
        go.strategy = s;
        go.slack = -1.0;
        rc = xg__engine_pair(ctx, &xg__op_segtri, XG_ENGINE_GPU, a, b, &opt,
                             &k, &out, &st);
        ok(rc == XG_OK && xg_contacts_diff(&ref, &out) == SIZE_MAX &&
               (go.hits <= 1 || go.relaunches),
           "%s: %s: an output estimate that falls short is detected and "
           "relaunched (%llu relaunches)", what, sname[s],
           (unsigned long long)go.relaunches);
        /* Batches: a small device-memory cap. */
        memset(&go, 0, sizeof go);
        go.strategy = s;
        opt.gpu_mem_cap = cap;
        rc = xg__engine_pair(ctx, &xg__op_segtri, XG_ENGINE_GPU, a, b, &opt,
                             &k, &out, &st);
        ok(rc == XG_OK && xg_contacts_diff(&ref, &out) == SIZE_MAX &&
               go.batches > 1 && go.strategy == s,
           "%s: %s: in %llu batches under a %zu KiB cap, equals cpu", what,
           sname[s], (unsigned long long)go.batches, cap >> 10);
        opt.gpu_mem_cap = 0;
    }
    /* The public entry: auto picks the GPU. */
    opt.engine = XG_ENGINE_AUTO;
    rc = xg_segtri(ctx, a, b, &opt, &out, &st);
    ok(rc == XG_OK && st.engine == XG_ENGINE_GPU && xg_contacts_diff(&ref, &out) == SIZE_MAX,
       "%s: engine auto runs on the GPU and equals cpu", what);
    xg_contacts_free(&ref);
    xg_contacts_free(&out);
}

/* The context's device and stream (xg_ctx_set_gpu): runs on device 0
 * and on a stream the caller made give the default run's contacts, for
 * segtri and red/blue (a against itself); a device past those present
 * is XG_EINVAL; the caller's stream is left alive and idle, and the
 * thread's current device as it was. */
static void test_device_stream(const struct xg_set *a, const struct xg_set *b)
{
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_opts opt;
    struct xg_contacts ref = {0}, rref = {0}, out = {0}, rout = {0};
    struct xg_stats st;
    cudaStream_t s = NULL;
    int n = 0, dev = -1, rc, k;

    memset(&opt, 0, sizeof opt);
    opt.engine = XG_ENGINE_GPU;
    rc = xg_segtri(ctx, a, b, &opt, &ref, &st);
    if (rc == XG_OK)
        rc = xg_redblue(ctx, a, a, &opt, &rref, &st);
    ok(rc == XG_OK && ref.n > 0 && rref.n > 0,
       "default device and stream: %zu segtri, %zu red/blue contacts", ref.n,
       rref.n);
    cudaGetDeviceCount(&n);
    rc = xg_ctx_set_gpu(ctx, n, NULL);
    ok(rc == XG_EINVAL && xg_ctx_gpu(ctx) == -1,
       "device %d (%d present): XG_EINVAL (\"%s\"), choice kept", n, n,
       xg_ctx_errmsg(ctx));
    ok(cudaStreamCreate(&s) == cudaSuccess, "a stream of the caller's");
    for (k = 0; k < 2; k++) {
        const char *how = k ? "the caller's stream" : "device 0";
        rc = k ? xg_ctx_set_gpu(ctx, -1, s) : xg_ctx_set_gpu(ctx, 0, NULL);
        ok(rc == XG_OK && xg_ctx_gpu(ctx) == 0 &&
               xg_ctx_gpu_stream(ctx) == (k ? (void *)s : NULL),
           "%s: chosen (device %d)", how, xg_ctx_gpu(ctx));
        rc = xg_segtri(ctx, a, b, &opt, &out, &st);
        ok(rc == XG_OK && xg_contacts_diff(&ref, &out) == SIZE_MAX,
           "%s: segtri equals the default run (%zu contacts)", how, out.n);
        rc = xg_redblue(ctx, a, a, &opt, &rout, &st);
        ok(rc == XG_OK && xg_contacts_diff(&rref, &rout) == SIZE_MAX,
           "%s: red/blue equals the default run (%zu contacts)", how,
           rout.n);
    }
    ok(cudaStreamQuery(s) == cudaSuccess && cudaGetDevice(&dev) ==
           cudaSuccess && dev == 0,
       "the caller's stream is alive and idle, the current device still 0");
    if (n > 1) {
        rc = xg_ctx_set_gpu(ctx, 1, s);
        ok(rc == XG_EINVAL, "a stream of device 0 for device 1: XG_EINVAL");
        rc = xg_ctx_set_gpu(ctx, 1, NULL);
        if (rc == XG_OK)
            rc = xg_segtri(ctx, a, b, &opt, &out, &st);
        ok(rc == XG_OK && xg_contacts_diff(&ref, &out) == SIZE_MAX &&
               cudaGetDevice(&dev) == cudaSuccess && dev == 0,
           "device 1: equals device 0's, and device 0 is current again");
    }
    xg_ctx_free(ctx);
    cudaStreamDestroy(s);
    xg_contacts_free(&ref);
    xg_contacts_free(&rref);
    xg_contacts_free(&out);
    xg_contacts_free(&rout);
}

static void test_fast_pass(struct xg_ctx *ctx)
{
    const size_t N = small ? 2000 : 20000;
    struct xg_set a = {0};
    struct xg_set b = {0};
    int *res = malloc(N * sizeof *res), *d_res;
    struct xg_iv *t = malloc(N * sizeof *t), *d_t;
    double *d_seg, *d_tri;
    size_t i, bad = 0, defer = 0;

    make_set(&a, &b, N / 2, N / 2, 1, 2.0);
    make_set(&a, &b, N / 2, N / 2, 0, 3.0);
    d_seg = dev_copy(a.xyz, 6 * N * sizeof(double));
    d_tri = dev_copy(b.xyz, 9 * N * sizeof(double));
    d_res = dev_copy(NULL, N * sizeof *res);
    d_t = dev_copy(NULL, N * sizeof *t);
    ok(xg__cuda_segtri_fast(ctx, d_seg, d_tri, N, d_res, d_t, 0) == XG_OK &&
           cudaMemcpy(res, d_res, N * sizeof *res, cudaMemcpyDeviceToHost) ==
               cudaSuccess,
       "device fast pass ran");
    for (i = 0; i < N; i++) {
        const double *s = a.xyz + 6 * i, *tr = b.xyz + 9 * i;
        struct xg_contact c;
        int hit;
        if (xg__seg_is_degenerate(s) || xg__tri_is_degenerate(NULL, tr))
            continue;
        memset(&c, 0, sizeof c);
        hit = xg__segtri_exact(&(struct xg_counters){0}, s, tr, &c);
        switch (res[i]) {
        case XG_SEGTRI_MISS:
            bad += hit != 0;
            break;
        case XG_SEGTRI_PROPER:
            bad += !(hit && c.kind == XG_KIND_PROPER);
            break;
        case XG_SEGTRI_TOUCH:
            bad += !(hit && c.kind == XG_KIND_TOUCH);
            break;
        default:
            defer++;
        }
    }
    ok(bad == 0, "device fast pass never contradicts the exact "
       "classification (%zu bad, %zu deferred of %zu)", bad, defer, N);
    cudaFree(d_seg);
    cudaFree(d_tri);
    cudaFree(d_res);
    cudaFree(d_t);
    free(res);
    free(t);
    xg_set_free(&a);
    xg_set_free(&b);
}

/* Drill holes (long, near vertical) through small triangles at UTM
 * coordinates: tilted, horizontal (an axis-aligned plane), or a few ulps
 * from degenerate.  Every point the device certifies must be the exactly
 * rounded one, and nearly all of the ordinary ones must be certified. */
static void test_dd_device(struct xg_ctx *ctx)
{
    const size_t N = small ? 3000 : 30000;
    double *seg = malloc(N * 6 * sizeof *seg), *tri = malloc(N * 9 * sizeof *tri);
    double *p = malloc(N * 3 * sizeof *p), *d_seg, *d_tri, *d_p;
    int *okv = malloc(N * sizeof *okv), *d_ok;
    size_t i, n = 0, bad = 0, cert[3] = {0, 0, 0}, tot[3] = {0, 0, 0};
    while (n < N) {
        double *s = seg + 6 * n, *t = tri + 9 * n;
        double o[3] = {500000.25 + unif() * 1000, 7000000.5 + unif() * 1000,
                       200.0 + unif() * 100};
        int kind = (int)(n % 3), j, k;
        for (j = 0; j < 3; j++)
            for (k = 0; k < 3; k++)
                t[3 * j + k] = o[k] + (k < 2 ? (unif() - 0.5) * 4.0
                                            : kind == 1 ? 0.0
                                                        : (unif() - 0.5) * 2.0);
        if (kind == 2) {        /* C a few ulps off the line AB */
            for (k = 0; k < 3; k++)
                t[6 + k] = t[k] + (t[3 + k] - t[k]) * 0.5;
            t[8] = nextafter(t[8], t[8] + (rnd() & 1 ? 1 : -1));
        }
        for (k = 0; k < 2; k++) {
            s[k] = o[k] + (unif() - 0.5) * 2.0;
            s[3 + k] = s[k] + (unif() - 0.5) * 20.0;
        }
        s[2] = o[2] + 100.0 + unif() * 300.0;
        s[5] = o[2] - 100.0 - unif() * 300.0;
        {
            int sd = xg_orient3d(NULL, t, t + 3, t + 6, s);
            int se = xg_orient3d(NULL, t, t + 3, t + 6, s + 3);
            if (sd == XG_ZERO || se == XG_ZERO || sd == se)
                continue;       /* not strictly crossing the plane */
        }
        n++;
    }
    d_seg = dev_copy(seg, N * 6 * sizeof *seg);
    d_tri = dev_copy(tri, N * 9 * sizeof *tri);
    d_p = dev_copy(NULL, N * 3 * sizeof *p);
    d_ok = dev_copy(NULL, N * sizeof *okv);
    ok(xg__cuda_plane_point_dd(ctx, d_seg, d_tri, N, d_ok, d_p, 0) == XG_OK &&
           cudaMemcpy(okv, d_ok, N * sizeof *okv, cudaMemcpyDeviceToHost) ==
               cudaSuccess &&
           cudaMemcpy(p, d_p, N * 3 * sizeof *p, cudaMemcpyDeviceToHost) ==
               cudaSuccess,
       "device double-double stage ran");
    for (i = 0; i < N; i++) {
        double r[3];
        tot[i % 3]++;
        if (!okv[i])
            continue;
        cert[i % 3]++;
        xg__plane_point_exact(seg + 6 * i, tri + 9 * i, r);
        bad += memcmp(r, p + 3 * i, sizeof r) != 0;
    }
    ok(bad == 0, "every point the device certifies in double-double is the "
       "exactly rounded one (%zu wrong of %zu certified)", bad,
       cert[0] + cert[1] + cert[2]);
    ok(cert[0] * 100 >= tot[0] * 99 && cert[1] * 100 >= tot[1] * 99,
       "the device certifies >= 99%% of drill holes through tilted (%zu of "
       "%zu) and horizontal (%zu of %zu) triangles; a few ulps from "
       "degenerate: %zu of %zu", cert[0], tot[0], cert[1], tot[1], cert[2],
       tot[2]);
    cudaFree(d_seg);
    cudaFree(d_tri);
    cudaFree(d_p);
    cudaFree(d_ok);
    free(seg);
    free(tri);
    free(p);
    free(okv);
}

int main(void)
{
    struct xg_ctx *ctx;
    const char *paper = getenv("XG_PAPER_DUMP");

    (void)tap_plan;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!xg_gpu_available())
        tap_skip_all("no GPU");
    rng_seed_from_env(0x243F6A8885A308D3ULL);
    small = getenv("XG_GPU_T_SMALL") && *getenv("XG_GPU_T_SMALL");
    xg__gpu_bench_install();    /* the paper's strategies, compared too */
    ctx = xg_ctx_new();
    test_iv_ops(ctx);
    test_orient3d(ctx);
    test_fast_pass(ctx);
    test_dd_device(ctx);
    {
        struct xg_set a = {0};
        struct xg_set b = {0};
        make_set(&a, &b, 300, 3000, 0, 40.0);
        compare_engines(ctx, "random", &a, &b, 1, 64 << 10);
        test_device_stream(&a, &b);
        xg_set_free(&a);
        xg_set_free(&b);
    }
    {
        struct xg_set a = {0};
        struct xg_set b = {0};
        make_set(&a, &b, 400, 400, 1, 2.0);
        compare_engines(ctx, "degenerate lattice", &a, &b, 1,
                        small ? 256 << 10 : 64 << 10);
        xg_set_free(&a);
        xg_set_free(&b);
    }
    if (paper && *paper) {
        struct xg_set a = {0};
        struct xg_set b = {0};
        if (ok(xg_dump_read(ctx, paper, &a, &b) == XG_OK, "read %s", paper))
            compare_engines(ctx, "paper-scale", &a, &b, 1, 48 << 20);
        xg_set_free(&a);
        xg_set_free(&b);
    }
    xg_ctx_free(ctx);
    tap_done();
    return tap_exit();
}
