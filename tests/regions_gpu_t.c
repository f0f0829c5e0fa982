/*
 * regions_gpu_t.c -- the gpu engine over several devices (xg_ctx_set_gpus)
 * and in regions: with devices {0} (whole, and cut into 5 regions) and
 * {0, 0} (one GPU twice: two workers, two contexts, two streams on it,
 * taking regions from one counter; 6 regions, and 7, and with a memory
 * cap that forces batches), xg_segtri, xg_redblue and xg_inside (with
 * and without outside records) give the cpu engine's contacts bit for
 * bit, on the lattice data whose contacts crowd the cuts and on random
 * data at UTM magnitudes (tests/regions_data.h); an open solid fails as
 * the whole run does.  Where the machine has several GPUs, the same on
 * distinct devices too: {1} alone, {0,1}, {1,0} in 7 regions, and with
 * four, {0,1,2,3} and {3,2,1,0,3} in 9 regions under a memory cap (the
 * kept worker threads of thread.c then run on every device in turn, so
 * a device left current by an earlier task would show here).  Prints
 * "1..0 # SKIP no GPU" where there is none.
 * XG_REGIONS_GPU_T_SMALL makes the sets small (compute-sanitizer).
 */
#include <stdlib.h>
#include <string.h>
#include "exactgeo.h"
#include "tap.h"
#include "regions_data.h"

static size_t scale = 8;

struct config {
    const char *name;
    int devs[5], ndev, regions;
    size_t cap;
    int need;                   /* the GPUs the machine must have */
};

static const struct config configs[] = {
    {"gpu {0}", {0}, 1, 0, 0, 1},
    {"gpu {0}, 5 regions", {0}, 1, 5, 0, 1},
    {"gpu {0,0}", {0, 0}, 2, 0, 0, 1},
    {"gpu {0,0}, 7 regions", {0, 0}, 2, 7, 0, 1},
    {"gpu {0,0}, 4 regions, 64 MiB cap", {0, 0}, 2, 4, (size_t)64 << 20, 1},
    {"gpu {1}", {1}, 1, 0, 0, 2},
    {"gpu {0,1}", {0, 1}, 2, 0, 0, 2},
    {"gpu {1,0}, 7 regions", {1, 0}, 2, 7, 0, 2},
    {"gpu {0,1,2,3}", {0, 1, 2, 3}, 4, 0, 0, 4},
    {"gpu {3,2,1,0,3}, 9 regions, 64 MiB cap", {3, 2, 1, 0, 3}, 5, 9,
     (size_t)64 << 20, 4},
    /* after the others: a kept worker that ran on device 1 or 3 must not
     * carry it into a run on {0} */
    {"gpu {0} again", {0}, 1, 0, 0, 2},
};
#define NCONFIG (sizeof configs / sizeof configs[0])

static int ngpu;                /* xg_gpu_count() */

static void check_op(const char *name, xg_op_run_fn run,
                     const struct xg_set *a, const struct xg_set *b,
                     int outside)
{
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_contacts cpu = {0}, gpu = {0};
    struct xg_opts opt;
    struct xg_stats sc, sg;
    size_t k;
    memset(&opt, 0, sizeof opt);
    opt.engine = XG_ENGINE_CPU;
    opt.outside = outside;
    if (run(ctx, a, b, &opt, &cpu, &sc) != XG_OK) {
        ok(0, "%s: cpu: %s", name, xg_ctx_errmsg(ctx));
        xg_ctx_free(ctx);
        return;
    }
    for (k = 0; k < NCONFIG; k++) {
        const struct config *c = &configs[k];
        int rc, want_regions;
        if (c->need > ngpu)
            continue;
        opt.engine = XG_ENGINE_GPU;
        opt.regions = c->regions;
        opt.gpu_mem_cap = c->cap;
        rc = xg_ctx_set_gpus(ctx, c->devs, c->ndev);
        if (rc == XG_OK)
            rc = run(ctx, a, b, &opt, &gpu, &sg);
        if (rc != XG_OK) {
            ok(0, "%s, %s: %s", name, c->name, xg_ctx_errmsg(ctx));
            continue;
        }
        want_regions = c->regions > 1 ? c->regions
                       : c->ndev > 1  ? XG_REGIONS_PER_GPU * c->ndev
                                      : 1;
        ok(xg_contacts_diff(&cpu, &gpu) == SIZE_MAX &&
               sg.a_skipped == sc.a_skipped && sg.b_skipped == sc.b_skipped &&
               !memcmp(sg.contacts, sc.contacts, sizeof sg.contacts) &&
               sg.gpus == c->ndev && sg.regions == want_regions,
           "%s, %s: %zu contacts, the cpu engine's bit for bit (first "
           "difference %zu), counts equal, %d GPUs, %d regions", name,
           c->name, gpu.n, xg_contacts_diff(&cpu, &gpu), sg.gpus,
           sg.regions);
    }
    xg_contacts_free(&cpu);
    xg_contacts_free(&gpu);
    xg_ctx_free(ctx);
}

static void open_solid(void)
{
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_set a = {0}, b = {0};
    struct xg_contacts c = {0};
    struct xg_opts opt;
    char whole[1024];
    int devs[2] = {0, 0}, rc;
    if (ngpu >= 2)
        devs[1] = 1;
    memset(&opt, 0, sizeof opt);
    rd_inside(&a, &b, 300, 9, 1, 3, 7);
    opt.engine = XG_ENGINE_CPU;
    xg_inside(ctx, &a, &b, &opt, &c, NULL);
    snprintf(whole, sizeof whole, "%s", xg_ctx_errmsg(ctx));
    opt.engine = XG_ENGINE_GPU;
    xg_ctx_set_gpus(ctx, devs, 2);
    rc = xg_inside(ctx, &a, &b, &opt, &c, NULL);
    ok(rc == XG_EFORMAT && !strcmp(whole, xg_ctx_errmsg(ctx)) && c.n == 0,
       "an open solid on gpu {0,%d}: the whole cpu run's failure: %s",
       devs[1], xg_ctx_errmsg(ctx));
    xg_contacts_free(&c);
    xg_set_free(&a);
    xg_set_free(&b);
    xg_ctx_free(ctx);
}

int main(void)
{
    int lattice, outside;
    if (!xg_gpu_available())
        tap_skip_all("no GPU");
    ngpu = xg_gpu_count();
    printf("# %d GPUs: the configurations of up to %d devices run\n", ngpu,
           ngpu >= 4 ? 4 : ngpu >= 2 ? 2 : 1);
    if (getenv("XG_REGIONS_GPU_T_SMALL"))
        scale = 1;
    rng_seed_from_env(1516);
    for (lattice = 1; lattice >= 0; lattice--) {
        const char *w = lattice ? "lattice" : "random UTM";
        char name[64];
        struct xg_set a = {0}, b = {0};
        rd_segtri(&a, &b, 700 * scale, 500 * scale, lattice);
        snprintf(name, sizeof name, "segtri, %s", w);
        check_op(name, xg_segtri, &a, &b, 0);
        xg_set_free(&a);
        xg_set_free(&b);
        rd_redblue(&a, &b, 600 * scale, 600 * scale, lattice);
        snprintf(name, sizeof name, "redblue, %s", w);
        check_op(name, xg_redblue, &a, &b, 0);
        xg_set_free(&a);
        xg_set_free(&b);
        for (outside = 0; outside < 2; outside++) {
            rd_inside(&a, &b, 1500 * scale, 12, lattice, 0, 0);
            snprintf(name, sizeof name, "inside, %s%s", w,
                     outside ? ", outside" : "");
            check_op(name, xg_inside, &a, &b, outside);
            xg_set_free(&a);
            xg_set_free(&b);
        }
    }
    open_solid();
    tap_done();
    return tap_exit();
}
