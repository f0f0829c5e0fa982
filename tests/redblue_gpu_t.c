/*
 * redblue_gpu_t.c -- the GPU red/blue engines (ours and the paper's)
 * against the cpu engine on degenerate lattices and random UTM sets.
 * Prints "1..0 # SKIP no GPU" where there is none.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "xg_engine.h"
#ifdef XG_HAVE_CUDA
#include "../bench/cuda/install.h"
#endif
#include "tap.h"
#include "xg_rng.h"
#include "op/redblue/xg_redblue.h"

static uint64_t next(void) { return rng_u64(); }
static double unit(void) { return rng_unit(); }

static void random_set(struct xg_set *s, size_t n, int lattice, double span)
{
    size_t i;
    for (i = 0; i < n; i++) {
        double p[3] = {500000.25, 7000000.5, 0}, q[3] = {0, 0, 0};
        if (lattice) {
            p[0] += (double)(next() % (uint64_t)span);
            p[1] += (double)(next() % (uint64_t)span);
            q[0] = p[0] + (double)(next() % 7) - 3;
            q[1] = p[1] + (double)(next() % 7) - 3;
            if (next() % 5 == 0)
                q[1] = nextafter(q[1], INFINITY);
        } else {
            p[0] += span * unit();
            p[1] += span * unit();
            q[0] = p[0] + 6 * unit() - 3;
            q[1] = p[1] + 6 * unit() - 3;
        }
        xg_set_push_segment(s, p, q, (int64_t)i, 0);
    }
}

static void compare(struct xg_ctx *ctx, const char *what, size_t n,
                    int lattice, double span, const int grid[2])
{
    struct xg_set a = {0}, b = {0};
    struct xg_contacts cpu = {0}, gpu = {0}, pap = {0};
    struct xg__engine_knobs paper = {XG__RB_PAPER, NULL};
    struct xg_opts opt;
    struct xg_stats st, sg;
    int rc1, rc2, rc3;
    random_set(&a, n, lattice, span);
    random_set(&b, n + 17, lattice, span);
    memset(&opt, 0, sizeof opt);
    if (grid) {
        opt.grid[0] = grid[0];
        opt.grid[1] = grid[1];
    }
    opt.engine = XG_ENGINE_CPU;
    rc1 = xg_redblue(ctx, &a, &b, &opt, &cpu, &st);
    opt.engine = XG_ENGINE_GPU;
    rc2 = xg_redblue(ctx, &a, &b, &opt, &gpu, &sg);
    opt.grid[2] = 1;
    memset(&sg, 0, sizeof sg);
    rc3 = xg__engine_pair(ctx, &xg__op_redblue, XG_ENGINE_GPU, &a, &b, &opt,
                          &paper, &pap, &sg);
    ok(rc1 == XG_OK && rc2 == XG_OK && xg_contacts_diff(&gpu, &cpu) == SIZE_MAX,
       "%s: gpu (ours) equals cpu (%zu contacts: %llu proper, %llu touch, "
       "%llu overlap)", what, cpu.n, (unsigned long long)st.contacts[0],
       (unsigned long long)st.contacts[1], (unsigned long long)st.contacts[2]);
    ok(rc3 == XG_OK && xg_contacts_diff(&pap, &cpu) == SIZE_MAX,
       "%s: gpu (paper's pair list) equals cpu", what);
    xg_contacts_free(&cpu);
    xg_contacts_free(&gpu);
    xg_contacts_free(&pap);
    xg_set_free(&a);
    xg_set_free(&b);
}

int main(void)
{
    struct xg_ctx *ctx;
    static const int coarse[2] = {3, 2};
    (void)tap_plan;
    if (!xg_gpu_available())
        tap_skip_all("no GPU");
    rng_seed_from_env(20000);
#ifdef XG_HAVE_CUDA
    xg__gpu_bench_install();    /* the paper's method, compared too */
#endif
    ctx = xg_ctx_new();
    compare(ctx, "lattice 40 m, 3000 segments", 3000, 1, 40, NULL);
    compare(ctx, "lattice 40 m, coarse 3 x 2 grid", 3000, 1, 40, coarse);
    compare(ctx, "random UTM, 20000 segments", 20000, 0, 400, NULL);
    compare(ctx, "lattice 400 m, 50000 segments", 50000, 1, 400, NULL);
    xg_ctx_free(ctx);
    tap_done();
    return tap_exit();
}
