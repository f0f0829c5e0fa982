/*
 * bench_gpu.c -- the paper's Table 11.3 on this machine: seq, cpu, the
 * paper's four GPU strategies and ours (gpu-packed, the engine's default)
 * on one dump, in one run, results checked bit for bit against seq.
 *
 *   bench/bench_gpu [-n RUNS] [-g NX,NY,NZ] [-t THREADS] DUMP
 *
 * seq runs once (it is the slow baseline); cpu and each GPU strategy run
 * RUNS times (default 3) after one untimed GPU warm-up, and the table
 * shows medians.  Total is the wall-clock of the whole call: inputs in
 * host memory to sorted, de-duplicated contacts in host memory.  Exits 1
 * when any result differs from seq's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "xg_engine.h"
#include "cuda/install.h"
#include "xg_gpu.h"

#define MAX_RUNS 16
#define NCOL 7
#define COL_MULTI 5
#define COL_PACKED 6

static const char *col_name[NCOL] = {"seq", "cpu", "gpu-list", "gpu-seg",
                                     "gpu-tri", "gpu-multi", "gpu-packed"};

struct col {
    int nruns;
    struct xg_stats st[MAX_RUNS];
    struct xg_gpu_opts go[MAX_RUNS];
    double total[MAX_RUNS];
    int same, rc;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(const double *v, int n)
{
    double s[MAX_RUNS];
    if (n == 0)
        return 0.0;
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

/* Column k once: 0 seq, 1 cpu, 2.. the GPU strategies. */
static int run_col(struct xg_ctx *ctx, const struct xg_set *a,
                   const struct xg_set *b, const struct xg_opts *base, int k,
                   struct xg_stats *st, struct xg_gpu_opts *go,
                   double *total, struct xg_contacts *out)
{
    static const int strat[NCOL] = {0, 0, XG_GPU_LIST, XG_GPU_SEG,
                                    XG_GPU_TRI, XG_GPU_MULTI, XG_GPU_PACKED};
    struct xg_opts o = *base;
    double t0 = now();
    int rc;
    memset(go, 0, sizeof *go);
    if (k < 2) {
        o.engine = k == 0 ? XG_ENGINE_SEQ : XG_ENGINE_CPU;
        rc = xg_segtri(ctx, a, b, &o, out, st);
    } else {
        memset(st, 0, sizeof *st);
        go->strategy = strat[k];
        rc = xg__engine_pair(ctx, &xg__op_segtri, XG_ENGINE_GPU, a, b, &o,
                             &(struct xg__engine_knobs){0, go}, out, st);
        if (rc == XG_OK)
            st->engine = XG_ENGINE_GPU;     /* the engine counts the kinds */
    }
    *total = now() - t0;
    return rc;
}

static void row(const char *name, struct col *c, int stage)
{
    int k, i;
    printf("%-22s", name);
    for (k = 0; k < NCOL; k++) {
        double v[MAX_RUNS];
        for (i = 0; i < c[k].nruns; i++)
            v[i] = stage < 0 ? c[k].total[i] : c[k].st[i].seconds[stage];
        if (c[k].nruns)
            printf(" %10.4f", median(v, c[k].nruns));
        else
            printf(" %10s", "-");
    }
    printf("\n");
}

static void row_u64(const char *name, struct col *c, uint64_t (*f)(
                        const struct xg_stats *, const struct xg_gpu_opts *))
{
    int k;
    printf("%-22s", name);
    for (k = 0; k < NCOL; k++)
        if (c[k].nruns)
            printf(" %10llu", (unsigned long long)f(&c[k].st[0], &c[k].go[0]));
        else
            printf(" %10s", "-");
    printf("\n");
}

static uint64_t f_cand(const struct xg_stats *s, const struct xg_gpu_opts *g)
{ (void)g; return s->candidates; }
static uint64_t f_bbox(const struct xg_stats *s, const struct xg_gpu_opts *g)
{ (void)g; return s->bbox_pairs; }
static uint64_t f_defer(const struct xg_stats *s, const struct xg_gpu_opts *g)
{ (void)g; return s->deferred; }
static uint64_t f_cfail(const struct xg_stats *s, const struct xg_gpu_opts *g)
{ (void)g; return s->cnt.construct_exact; }
static uint64_t f_ffail(const struct xg_stats *s, const struct xg_gpu_opts *g)
{ (void)g; return s->cnt.filter_failures; }
static uint64_t f_bound(const struct xg_stats *s, const struct xg_gpu_opts *g)
{ (void)s; return g->count_bound; }
static uint64_t f_hits(const struct xg_stats *s, const struct xg_gpu_opts *g)
{ (void)s; return g->hits; }
static uint64_t f_relaunch(const struct xg_stats *s,
                           const struct xg_gpu_opts *g)
{ (void)s; return g->relaunches; }
static uint64_t f_notown(const struct xg_stats *s, const struct xg_gpu_opts *g)
{ (void)s; return g->not_owned; }
static uint64_t f_skip_a(const struct xg_stats *s,
                         const struct xg_gpu_opts *g)
{ (void)g; return s->a_skipped; }
static uint64_t f_skip_b(const struct xg_stats *s,
                         const struct xg_gpu_opts *g)
{ (void)g; return s->b_skipped; }
static uint64_t f_refs(const struct xg_stats *s, const struct xg_gpu_opts *g)
{ (void)g; return s->grid_refs_a + s->grid_refs_b; }
static uint64_t f_devprep(const struct xg_stats *s,
                          const struct xg_gpu_opts *g)
{ (void)s; return (uint64_t)g->device_prep; }
static uint64_t f_long(const struct xg_stats *s, const struct xg_gpu_opts *g)
{ (void)g; return s->cnt.construct_ld; }
static uint64_t f_dd(const struct xg_stats *s, const struct xg_gpu_opts *g)
{ (void)g; return s->cnt.construct_dd; }
static uint64_t f_refined(const struct xg_stats *s,
                          const struct xg_gpu_opts *g)
{ (void)s; return g->refined; }
static uint64_t f_contacts(const struct xg_stats *s,
                           const struct xg_gpu_opts *g)
{
    (void)g;
    return s->contacts[0] + s->contacts[1] + s->contacts[2];
}

static void print_kernel_row(struct col *c, const char *name, int which)
{
    int k, i;
    printf("%-22s", name);
    for (k = 0; k < NCOL; k++) {
        double v[MAX_RUNS];
        for (i = 0; i < c[k].nruns; i++)
            v[i] = which ? c[k].go[i].interval_kernel_seconds
                         : c[k].go[i].count_kernel_seconds;
        if (k >= 2 && c[k].nruns)
            printf(" %10.6f", median(v, c[k].nruns));
        else
            printf(" %10s", "-");
    }
    printf("\n");
}

/* The interval kernel's floor for column k, from the FP64 instructions
 * the predicate must execute, counted in the source (a directed
 * operation is one instruction; an interval product is 8 products, 3
 * additions and 1 comparison for its NaN test and 6 comparisons for its
 * min/max; a sign test 2): the exact box test (21) and the plane half of
 * xg_segtri_fast (12 differences, a cross product, 2 dot products: 258)
 * for every pair whose boxes meet and that its cell owns; the edge half
 * (12 differences, 3 cross and 3 dot products: 546) for every pair whose
 * segment crosses the plane (counted by the packed kernel); t and the
 * point (an interval quotient, about 80, and 3 coordinates: about 150)
 * for every hit.  At one FP64 instruction per lane per clock
 * (H100/H200 SXM: 132 SMs x 64 lanes x 1.98 GHz = 16.7e12/s).  Bytes:
 * every coordinate read once and every hit written once, at 4.8 TB/s
 * (H200 HBM3e).  The candidates' box tests are shown apart: 6 float
 * comparisons each for gpu-packed (at 33.4e12/s), about 30 FP64
 * instructions with the boxes' min/max for the paper's kernel. */
static void print_floor(struct col *c, int k, const struct xg_set *a,
                        const struct xg_set *b)
{
    const struct xg_stats *sm = &c[k].st[0];
    const struct xg_gpu_opts *gm = &c[k].go[0];
    uint64_t cross = c[COL_PACKED].go[0].plane_crossings;
    double v[MAX_RUNS], t_int, f_ops, f_box, f_bytes, flr;
    int i;
    if (!c[k].nruns || !c[COL_PACKED].nruns)
        return;
    for (i = 0; i < c[k].nruns; i++)
        v[i] = c[k].go[i].interval_kernel_seconds;
    t_int = median(v, c[k].nruns);
    f_ops = ((double)sm->bbox_pairs * (21.0 + 258.0) +
             (double)cross * 546.0 + (double)gm->hits * 150.0) / 16.7e12;
    f_box = k == COL_PACKED ? (double)sm->candidates * 6.0 / 33.4e12
                            : (double)sm->candidates * 30.0 / 16.7e12;
    f_bytes = ((double)a->n * 48.0 + (double)b->n * 72.0 +
               (double)gm->hits * 40.0) / 4.8e12;
    flr = f_ops > f_bytes ? f_ops : f_bytes;
    printf("floor of the %s interval kernel: FP64 %.6f s (%llu owned box "
           "pairs x 279, %llu plane crossings x 546, %llu hits x 150), "
           "bytes %.6f s; floor %.6f s; kernel %.6f s (events, median), "
           "ratio %.1fx; with every candidate's box test (%llu) %.6f s, "
           "ratio %.1fx\n", col_name[k], f_ops,
           (unsigned long long)sm->bbox_pairs, (unsigned long long)cross,
           (unsigned long long)gm->hits, f_bytes, flr, t_int,
           flr > 0 ? t_int / flr : 0.0, (unsigned long long)sm->candidates,
           flr + f_box, flr + f_box > 0 ? t_int / (flr + f_box) : 0.0);
}

int main(int argc, char **argv)
{
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_set a = {0};
    struct xg_set b = {0};
    struct xg_opts opt;
    struct xg_contacts ref = {0}, out = {0};
    static struct col c[NCOL];
    const char *path = NULL;
    int runs = 3, k, i, bad = 0;

    setvbuf(stdout, NULL, _IOLBF, 0);
    xg__gpu_bench_install();    /* the paper's strategies, timed too */
    memset(&opt, 0, sizeof opt);
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-t") && i + 1 < argc)
            xg_ctx_set_threads(ctx, atoi(argv[++i]));
        else if (!strcmp(argv[i], "-g") && i + 1 < argc) {
            if (sscanf(argv[++i], "%d,%d,%d", &opt.grid[0], &opt.grid[1],
                       &opt.grid[2]) != 3) {
                fprintf(stderr, "bench_gpu: -g wants NX,NY,NZ\n");
                return 2;
            }
        } else
            path = argv[i];
    }
    if (runs < 1 || runs > MAX_RUNS || !path) {
        fprintf(stderr, "usage: bench_gpu [-n RUNS (1..%d)] [-g NX,NY,NZ] "
                        "[-t THREADS] DUMP\n", MAX_RUNS);
        return 2;
    }
    if (xg_dump_read(ctx, path, &a, &b) != XG_OK) {
        fprintf(stderr, "bench_gpu: %s\n", xg_ctx_errmsg(ctx));
        return 1;
    }
    if (!xg_gpu_available()) {
        fprintf(stderr, "bench_gpu: no usable GPU\n");
        return 1;
    }
    printf("%s: %zu segments, %zu triangles, %d threads\n", path, a.n, b.n,
           xg_ctx_threads(ctx));
    {   /* warm-up: CUDA context, module load */
        struct xg_stats st;
        struct xg_gpu_opts go;
        double t;
        run_col(ctx, &a, &b, &opt, NCOL - 1, &st, &go, &t, &out);
        printf("warm-up gpu-packed: %.4f s\n", t);
    }
    for (k = 0; k < NCOL; k++) {
        int n = k == 0 ? 1 : runs;
        c[k].same = 1;
        for (i = 0; i < n; i++) {
            int rc = run_col(ctx, &a, &b, &opt, k, &c[k].st[i], &c[k].go[i],
                             &c[k].total[i], k == 0 ? &ref : &out);
            if (rc != XG_OK) {
                printf("%s: %s: %s\n", col_name[k], xg_strerror(rc),
                       xg_ctx_errmsg(ctx));
                c[k].rc = rc;
                bad = 1;
                break;
            }
            c[k].nruns++;
            if (k > 0 && xg_contacts_diff(&ref, &out) != SIZE_MAX)
                c[k].same = 0;
            fprintf(stderr, "  %s run %d: %.4f s\n", col_name[k], i,
                    c[k].total[i]);
        }
        fprintf(stderr, "%s done\n", col_name[k]);
    }
    printf("grid %dx%dx%d; seconds, median of %d runs (seq: 1 run)\n",
           c[0].st[0].grid[0], c[0].st[0].grid[1], c[0].st[0].grid[2], runs);
    printf("%-22s", "");
    for (k = 0; k < NCOL; k++)
        printf(" %10s", col_name[k]);
    printf("\n");
    row("Preprocessing", c, XG_STAGE_PREPARE);
    row("Memory (CPU to GPU)", c, XG_STAGE_UPLOAD);
    row("Intersection", c, XG_STAGE_INTERSECT);
    row("Memory (GPU to CPU)", c, XG_STAGE_DOWNLOAD);
    row("Rationals", c, XG_STAGE_EXACT);
    row("Ensure uniqueness", c, XG_STAGE_UNIQUE);
    row("Total", c, -1);
    {
        printf("%-22s", "  count pass (s)");
        for (k = 0; k < NCOL; k++) {
            double v[MAX_RUNS];
            for (i = 0; i < c[k].nruns; i++)
                v[i] = c[k].go[i].count_seconds;
            if (k >= 2 && c[k].nruns)
                printf(" %10.5f", median(v, c[k].nruns));
            else
                printf(" %10s", "-");
        }
        printf("\n%-22s", "  interval pass (s)");
        for (k = 0; k < NCOL; k++) {
            double v[MAX_RUNS];
            for (i = 0; i < c[k].nruns; i++)
                v[i] = c[k].go[i].interval_seconds;
            if (k >= 2 && c[k].nruns)
                printf(" %10.5f", median(v, c[k].nruns));
            else
                printf(" %10s", "-");
        }
        printf("\n");
        print_kernel_row(c, "  count kernel (s)", 0);
        print_kernel_row(c, "  interval kernel (s)", 1);
    }
    row_u64("candidate pairs", c, f_cand);
    row_u64("box pairs, owned", c, f_bbox);
    row_u64("box pairs, not owned", c, f_notown);
    row_u64("count-pass bound", c, f_bound);
    row_u64("interval-pass hits", c, f_hits);
    row_u64("relaunches", c, f_relaunch);
    row_u64("skipped segments", c, f_skip_a);
    row_u64("skipped triangles", c, f_skip_b);
    row_u64("grid references", c, f_refs);
    row_u64("prepared on GPU", c, f_devprep);
    row_u64("deferred to GMP", c, f_defer);
    row_u64("points dd bound (host)", c, f_long);
    row_u64("points dd intervals", c, f_dd);
    row_u64("  of them on the GPU", c, f_refined);
    row_u64("points rounded by GMP", c, f_cfail);
    row_u64("filter failures", c, f_ffail);
    row_u64("contacts", c, f_contacts);
    printf("%-22s", "same as seq");
    for (k = 0; k < NCOL; k++)
        printf(" %10s", c[k].nruns == 0 ? "-" : k == 0 ? "ref"
                        : c[k].same           ? "yes"
                                              : "NO");
    printf("\n");
    for (k = 1; k < NCOL; k++) {
        double ts = c[0].total[0];
        if (c[k].nruns)
            printf("speedup over seq, %-10s total %8.1fx  intersection "
                   "%8.1fx\n", col_name[k], ts / median(c[k].total,
                                                         c[k].nruns),
                   c[0].st[0].seconds[XG_STAGE_INTERSECT] /
                       c[k].st[0].seconds[XG_STAGE_INTERSECT]);
        if (c[k].nruns && !c[k].same)
            bad = 1;
    }
    print_floor(c, COL_MULTI, &a, &b);
    print_floor(c, COL_PACKED, &a, &b);
    xg_contacts_free(&ref);
    xg_contacts_free(&out);
    xg_set_free(&a);
    xg_set_free(&b);
    xg_ctx_free(ctx);
    return bad;
}
