/*
 * bench_regions.c -- the partitioned run on the GPU (issue 15): one run
 * of the whole sets on one device, the same cut into regions on that
 * device, and the regions over a list of devices (a device may repeat:
 * two workers on one GPU), each with its time split into select (hull,
 * plan, each region's elements), compute (the regions' runs) and gather
 * (the merge), and every answer checked bit for bit against the whole
 * run's (and the cpu engine's, once).
 *
 *   bench/bench_regions [--gpus D1,D2,...] [--regions N] [-n RUNS]
 *                       [-t THREADS] [--no-cpu] (DUMP | --inside NPOINTS)
 *
 * DUMP: any xg_dump (segtri's, redblue's or inside's: the sets' kinds
 * say which operation runs).  --inside NPOINTS: bench/gen_inside.h's
 * solids (16 of them, 10^6 triangles) and NPOINTS block centroids.
 * --regions defaults to XG_REGIONS_PER_GPU per listed device; RUNS (3)
 * timed runs of each after one untimed warm-up, medians shown.  Exits 1
 * when any answer differs.  Runs on the GPU machine (no GDAL there).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exactgeo.h"
#include "xg_ctx.h"
#include "xg_regions.h"
#include "gen_inside.h"

#define MAX_RUNS 16

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The operation the sets' kinds call for. */
static const struct xg__region_op *op_of(const struct xg_set *a,
                                         const struct xg_set *b,
                                         const char **name)
{
    if (a->elem == XG_ELEM_SEGMENT && b->elem == XG_ELEM_TRIANGLE) {
        *name = "segtri";
        return xg__segtri_region;
    }
    if (a->elem == XG_ELEM_SEGMENT && b->elem == XG_ELEM_SEGMENT) {
        *name = "redblue";
        return xg__redblue_region;
    }
    *name = "inside";
    return xg__inside_region;
}

static void make_inside(struct xg_set *a, struct xg_set *b, uint64_t n)
{
    struct gi_model m;
    uint64_t i;
    size_t t;
    if (gi_model_make(&m, 16, 1000000, 7)) {
        fprintf(stderr, "bench_regions: out of memory\n");
        exit(2);
    }
    for (t = 0; t < m.ntri; t++) {
        const double *v = m.tri + 9 * t;
        xg_set_push_triangle(b, v, v + 3, v + 6, m.fid[t], 0);
    }
    for (i = 0; i < n; i++) {
        double p[3];
        gi_point(&m, n, 20, i, p);
        xg_set_push_point(a, p, (int64_t)i, 0);
    }
    gi_model_free(&m);
}

/* One configuration: devs (n of them) and nreg regions (0: the whole
 * run, not partitioned), RUNS timed runs; the answer of its last run in
 * out. */
static int bench(const char *label, const struct xg__region_op *rop,
                 const struct xg_set *a, const struct xg_set *b,
                 struct xg_opts opt, int threads, const int *devs, int n,
                 int nreg, int runs, struct xg_contacts *out,
                 const struct xg_contacts *ref)
{
    double tot[MAX_RUNS], sel[MAX_RUNS], comp[MAX_RUNS], gat[MAX_RUNS];
    struct xg_stats st;
    struct xg__regions_times tm;
    struct xg_ctx *ctx = xg_ctx_new();
    int r, rc = XG_OK, same;
    xg_ctx_set_threads(ctx, threads);
    if (opt.engine == XG_ENGINE_GPU &&
        (rc = xg_ctx_set_gpus(ctx, devs, n)) != XG_OK) {
        printf("%-26s failed: %s\n", label, xg_ctx_errmsg(ctx));
        xg_ctx_free(ctx);
        return 1;
    }
    for (r = -1; r < runs && rc == XG_OK; r++) {
        double t0 = xg__now();
        memset(&tm, 0, sizeof tm);
        if (nreg > 0)
            rc = xg__regions_run(ctx, rop, a, b, &opt, nreg, out, &st, &tm);
        else
            rc = rop->run(ctx, a, b, &opt, out, &st);
        if (r >= 0) {
            tot[r] = xg__now() - t0;
            sel[r] = tm.select;
            comp[r] = tm.compute;
            gat[r] = tm.gather;
        }
    }
    if (rc != XG_OK) {
        printf("%-26s failed: %s\n", label, xg_ctx_errmsg(ctx));
        xg_ctx_free(ctx);
        return 1;
    }
    same = !ref || xg_contacts_diff(ref, out) == SIZE_MAX;
    if (nreg > 0)
        printf("%-26s %9.4f %9.4f %9.4f %9.4f %6d %10zu %s\n", label,
               median(tot, runs), median(sel, runs), median(comp, runs),
               median(gat, runs), st.gpus, out->n,
               same ? "same" : "DIFFERS");
    else
        printf("%-26s %9.4f %9s %9s %9s %6d %10zu %s\n", label,
               median(tot, runs), "-", "-", "-", st.gpus, out->n,
               same ? "same" : "DIFFERS");
    fflush(stdout);
    xg_ctx_free(ctx);
    return !same;
}

int main(int argc, char **argv)
{
    struct xg_set a = {0}, b = {0};
    struct xg_contacts whole = {0}, part = {0};
    struct xg_opts opt;
    struct xg_ctx *ctx = xg_ctx_new();
    const struct xg__region_op *rop;
    const char *path = NULL, *name;
    int devs[XG_GPUS_MAX] = {0}, ndev = 1, nreg = 0, runs = 3, threads = 0;
    int cpu = 1, bad = 0, i;
    uint64_t inside_n = 0;
    char label[64];

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--gpus") && i + 1 < argc) {
            char *p = argv[++i];
            for (ndev = 0; *p && ndev < XG_GPUS_MAX; ndev++) {
                devs[ndev] = (int)strtol(p, &p, 10);
                if (*p == ',')
                    p++;
            }
        } else if (!strcmp(argv[i], "--regions") && i + 1 < argc) {
            nreg = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "-t") && i + 1 < argc) {
            threads = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--no-cpu")) {
            cpu = 0;
        } else if (!strcmp(argv[i], "--inside") && i + 1 < argc) {
            inside_n = strtoull(argv[++i], NULL, 10);
        } else if (argv[i][0] != '-' && !path) {
            path = argv[i];
        } else {
            fprintf(stderr, "usage: bench_regions [--gpus D1,D2,...] "
                            "[--regions N] [-n RUNS] [-t THREADS] [--no-cpu] "
                            "(DUMP | --inside NPOINTS)\n");
            return 2;
        }
    }
    if (runs < 1 || runs > MAX_RUNS || ndev < 1 || (!path && !inside_n)) {
        fprintf(stderr, "bench_regions: bad arguments (try without any)\n");
        return 2;
    }
    if (nreg <= 0)
        nreg = XG_REGIONS_PER_GPU * ndev;
    if (path && xg_dump_read(ctx, path, &a, &b) != XG_OK) {
        fprintf(stderr, "bench_regions: %s\n", xg_ctx_errmsg(ctx));
        return 2;
    }
    if (!path)
        make_inside(&a, &b, inside_n);
    rop = op_of(&a, &b, &name);
    printf("%s: %zu x %zu elements; devices", name, a.n, b.n);
    for (i = 0; i < ndev; i++)
        printf("%s%d", i ? "," : " ", devs[i]);
    printf("; %d regions; medians of %d runs (s)\n", nreg, runs);
    printf("%-26s %9s %9s %9s %9s %6s %10s\n", "run", "total", "select",
           "compute", "gather", "gpus", "contacts");
    memset(&opt, 0, sizeof opt);
    opt.engine = XG_ENGINE_GPU;
    bad |= bench("gpu, whole, 1 device", rop, &a, &b, opt, threads, devs, 1,
                 0, runs, &whole, NULL);
    snprintf(label, sizeof label, "gpu, %d regions, 1 device", nreg);
    bad |= bench(label, rop, &a, &b, opt, threads, devs, 1, nreg, runs,
                 &part, &whole);
    if (ndev > 1) {
        snprintf(label, sizeof label, "gpu, %d regions, %d devices", nreg,
                 ndev);
        bad |= bench(label, rop, &a, &b, opt, threads, devs, ndev, nreg,
                     runs, &part, &whole);
    }
    if (cpu) {
        opt.engine = XG_ENGINE_CPU;
        bad |= bench("cpu, whole", rop, &a, &b, opt, threads, devs, 1, 0, 1,
                     &part, &whole);
    }
    printf("%s\n", bad ? "DIFFERENT ANSWERS" : "all answers identical");
    xg_contacts_free(&whole);
    xg_contacts_free(&part);
    xg_set_free(&a);
    xg_set_free(&b);
    xg_ctx_free(ctx);
    return bad;
}
