/*
 * bench_inside.c -- the point-in-solid benchmark (prints figures; not a
 * test).  Data from bench/gen_inside.h: (a) 8 solids, ~10^5 triangles,
 * 10^7 block centroids; (b) 16 solids, ~10^6 triangles, 10^8 centroids;
 * 2% of the points exactly on vertices, edges and faces.  Per case:
 * seq (a subsample, extrapolated), cpu on all threads, the seed's GPU
 * method (a subsample when the whole would take over ~30 s), ours on the
 * GPU (a warm-up, then REPS runs: their median, with its stages, and
 * every run's time), and the CGAL peer
 * (bench/cgal_inside, run as a program on a subsample, extrapolated);
 * then 10^9 points over (b)'s solids in slices of 10^8.  Records of
 * every engine are compared with the cpu engine's on the points they ran.
 * The check that no solid crosses itself (xg__solids_crossing), which
 * every call makes: its seconds alone (best of 3, on the prepared
 * solids), and the cpu and gpu calls again without it
 * (xg_opts.solids_checked), its cost in the whole call.
 *
 *   bench_inside [-t THREADS] [-p CGAL_PEER] [-q | -d N] [-r REPS] [-g]
 *                                  (-q: 1/100 sizes; -d N: 1/N sizes;
 *                                   -g: cpu and ours on the GPU only)
 *
 * Without a GPU the GPU rows and the 10^9 run are left out, so the cpu
 * engine can be weighed against CGAL on any machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "xg_engine.h"
#include "op/inside/xg_inside.h"
#include "xg_thread.h"
#include "gen_inside.h"
#include "cuda/install.h"
#include "xg_ctx.h"
#include "xg_mem.h"

static int threads = 0, have_gpu = 0;
static uint64_t divide = 1;    /* -q: 100; -d N: N */
#define MAX_REPS 9
static int reps = 3;            /* -r: timed runs of ours on the GPU */
static int gpu_only = 0;        /* -g */
static const char *peer = "bench/cgal_inside";

struct gen_job {
    const struct gi_model *m;
    uint64_t n, i0, stride;     /* points i0 + stride k of n */
    struct xg_set *a;
};

static void gen_worker(void *arg, int tid)
{
    struct gen_job *g = arg;
    size_t lo, hi, k;
    xg__share(g->a->n, threads, tid, &lo, &hi);
    for (k = lo; k < hi; k++) {
        uint64_t i = g->i0 + g->stride * k;
        gi_point(g->m, g->n, 20, i, g->a->xyz + 3 * k);
        g->a->fid[k] = (int64_t)i;
        g->a->sub[k] = 0;
    }
}

/* a = cnt points of the n-point lattice: i0, i0 + stride, ... */
static void points(struct xg_set *a, const struct gi_model *m, uint64_t n,
                   uint64_t i0, uint64_t stride, size_t cnt)
{
    struct gen_job g;
    if (a->cap < cnt) {
        free(a->xyz);
        free(a->fid);
        free(a->sub);
        a->xyz = xg__big_alloc(cnt * 3 * sizeof(double));
        a->fid = xg__big_alloc(cnt * sizeof(int64_t));
        a->sub = xg__big_alloc(cnt * sizeof(int64_t));
        if (!a->xyz || !a->fid || !a->sub) {
            fprintf(stderr, "bench_inside: out of memory\n");
            exit(2);
        }
        a->cap = cnt;
    }
    a->elem = XG_ELEM_POINT;
    a->n = cnt;
    g.m = m;
    g.n = n;
    g.i0 = i0;
    g.stride = stride;
    g.a = a;
    xg__parallel(threads, gen_worker, &g);
}

static void kinds(const struct xg_contacts *c, uint64_t k[3])
{
    size_t i;
    k[0] = k[1] = k[2] = 0;
    for (i = 0; i < c->n; i++)
        k[c->v[i].kind == XG_KIND_INSIDE     ? 0
          : c->v[i].kind == XG_KIND_BOUNDARY ? 1
                                             : 2]++;
}

/* One engine on a: its seconds (wall), out and st.  checked: without
 * the self-crossing check (xg_opts.solids_checked). */
static double run_ex(struct xg_ctx *ctx, const struct xg_set *a,
                     const struct xg_set *b, int engine, int outside,
                     int checked, struct xg_contacts *out,
                     struct xg_stats *st)
{
    struct xg_opts opt;
    double t0;
    int rc;
    memset(&opt, 0, sizeof opt);
    memset(st, 0, sizeof *st);
    opt.engine = engine < 0 ? XG_ENGINE_GPU : engine;
    opt.outside = outside;
    opt.solids_checked = checked;
    xg_contacts_free(out);      /* the last run's records: not this one's */
    t0 = xg__now();
    rc = engine == -1
             ? xg__engine_pair(ctx, &xg__op_inside, XG_ENGINE_GPU, a, b, &opt,
                               &(struct xg__engine_knobs){XG__IN_SEED, NULL},
                               out, st)
             : xg_inside(ctx, a, b, &opt, out, st);
    if (rc != XG_OK) {
        fprintf(stderr, "bench_inside: engine %d: %s\n", engine,
                xg_ctx_errmsg(ctx));
        exit(2);
    }
    return xg__now() - t0;
}

static double run(struct xg_ctx *ctx, const struct xg_set *a,
                  const struct xg_set *b, int engine, int outside,
                  struct xg_contacts *out, struct xg_stats *st)
{
    return run_ex(ctx, a, b, engine, outside, 0, out, st);
}

/* The self-crossing check alone on b's prepared solids: its seconds,
 * the best of 3 (none crosses itself, else the benchmark stops). */
static double check_alone(struct xg_ctx *ctx, const struct xg_set *b)
{
    struct xg__solids S;
    struct xg_opts opt;
    struct xg_stats st;
    double best = 0.0;
    int r;
    memset(&opt, 0, sizeof opt);
    memset(&st, 0, sizeof st);
    opt.solids_checked = 1;     /* prepared without it: timed below */
    if (xg__solids_prepare(ctx, b, &opt, threads, 1, &S, &st) != XG_OK) {
        fprintf(stderr, "bench_inside: %s\n", xg_ctx_errmsg(ctx));
        exit(2);
    }
    for (r = 0; r < 3; r++) {
        double t0 = xg__now(), t;
        if (xg__solids_crossing(ctx, b, &S, S.g.b_box, threads, &st.cnt) !=
            XG_OK) {
            fprintf(stderr, "bench_inside: %s\n", xg_ctx_errmsg(ctx));
            exit(2);
        }
        t = xg__now() - t0;
        if (r == 0 || t < best)
            best = t;
    }
    xg__solids_free(&S);
    return best;
}

/* The median of reps runs of the gpu engine (checked: without the
 * self-crossing check), after a warm-up; every run's time into runs. */
static double gpu_median(struct xg_ctx *ctx, const struct xg_set *a,
                         const struct xg_set *b, int checked,
                         struct xg_contacts *out, struct xg_stats *st_med,
                         char *runs, size_t len)
{
    double tr[MAX_REPS] = {0}, sorted[MAX_REPS] = {0}, med;
    struct xg_stats str[MAX_REPS];
    int r, q;
    run_ex(ctx, a, b, XG_ENGINE_GPU, 0, checked, out, &str[0]);
    for (r = 0; r < reps; r++) {
        tr[r] = run_ex(ctx, a, b, XG_ENGINE_GPU, 0, checked, out, &str[r]);
        /* insertion into sorted, for the median */
        for (q = r; q > 0 && sorted[q - 1] > tr[r]; q--)
            sorted[q] = sorted[q - 1];
        sorted[q] = tr[r];
    }
    med = sorted[reps / 2];
    for (r = 0; r < reps && tr[r] != med; r++)
        ;
    *st_med = str[r];
    runs[0] = '\0';
    for (r = 0; r < reps; r++)
        snprintf(runs + strlen(runs), len - strlen(runs), "%s%.3f",
                 r ? ", " : "", tr[r]);
    return med;
}

static const char *same(const struct xg_contacts *x,
                        const struct xg_contacts *y)
{
    return xg_contacts_diff(x, y) == SIZE_MAX ? "identical" : "DIFFERENT";
}

static void exact_share(const struct xg_stats *st, char *buf, size_t len)
{
    snprintf(buf, len, "%llu filter failures, %llu exact of %llu "
             "predicates (%.2g%%), %llu deferred",
             (unsigned long long)st->cnt.filter_failures,
             (unsigned long long)st->cnt.exact_evals,
             (unsigned long long)st->cnt.predicates,
             st->cnt.predicates ? 100.0 * (double)st->cnt.exact_evals /
                                      (double)st->cnt.predicates
                                : 0.0,
             (unsigned long long)st->deferred);
}

/* The CGAL peer on every stride-th point: its counts and seconds
 * (queries extrapolated to all n points, plus the build).  -1 when the
 * peer is missing. */
static double cgal(int K, size_t ntri, uint64_t n, uint64_t stride,
                   uint64_t k[3], double *build)
{
    char cmd[512], line[512];
    double q = -1.0, tb = 0.0;
    FILE *f;
    if (access(peer, X_OK) != 0)
        return -1.0;
    snprintf(cmd, sizeof cmd, "%s %d %zu %llu %llu %d", peer, K, ntri,
             (unsigned long long)n, (unsigned long long)stride, threads);
    if (!(f = popen(cmd, "r")))
        return -1.0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long a, b, c;
        double x, y;
        if (sscanf(line, "counts %llu %llu %llu seconds %lf build %lf", &a,
                   &b, &c, &x, &y) == 5) {
            k[0] = a, k[1] = b, k[2] = c;
            q = x;
            tb = y;
        }
    }
    pclose(f);
    *build = tb;
    return q < 0 ? -1.0 : tb + q * (double)stride;
}

static void one_case(struct xg_ctx *ctx, const char *name, int K,
                     size_t ntri, uint64_t n)
{
    struct gi_model m;
    struct xg_set a = {0}, b = {0}, sub = {0};
    struct xg_contacts cpu = {0}, gpu = {0}, x = {0}, ref = {0};
    struct xg_stats st_cpu, st_gpu, st;
    uint64_t k[3], kc[3] = {0, 0, 0}, stride, nsub;
    double t_cpu, t_gpu, t_seq, t_seed, t_cgal, tb, t, t_chk, t_cpu_nc;
    double t_gpu_nc = 0.0;
    char buf[256], gpu_runs[MAX_REPS * 16], gpu_runs_nc[MAX_REPS * 16];
    size_t i;

    if (gi_model_make(&m, K, ntri, 7)) {
        fprintf(stderr, "bench_inside: out of memory\n");
        exit(2);
    }
    for (i = 0; i < m.ntri; i++)
        xg_set_push_triangle(&b, m.tri + 9 * i, m.tri + 9 * i + 3,
                             m.tri + 9 * i + 6, m.fid[i], 0);
    t = xg__now();
    points(&a, &m, n, 0, 1, n);
    printf("\n== case %s: %d solids, %zu triangles, %llu points "
           "(generated in %.2f s)\n", name, K, m.ntri,
           (unsigned long long)n, xg__now() - t);

    t_cpu = run(ctx, &a, &b, XG_ENGINE_CPU, 0, &cpu, &st_cpu);
    kinds(&cpu, k);
    printf("records: %llu inside, %llu boundary (points in no solid: not "
           "recorded)\n", (unsigned long long)k[0], (unsigned long long)k[1]);
    if (have_gpu) {
        t_gpu = gpu_median(ctx, &a, &b, 0, &gpu, &st_gpu, gpu_runs,
                           sizeof gpu_runs);
        t_gpu_nc = gpu_median(ctx, &a, &b, 1, &x, &st, gpu_runs_nc,
                              sizeof gpu_runs_nc);
    } else {
        t_gpu = 0.0;
    }
    /* the self-crossing check: alone, and the cpu call with and without
     * it, alternated, the median of each */
    t_chk = check_alone(ctx, &b);
    {
        double on[MAX_REPS], off[MAX_REPS];
        int r, q;
        for (r = 0; r < reps; r++) {
            double u = run_ex(ctx, &a, &b, XG_ENGINE_CPU, 0, 0, &x, &st);
            double v = run_ex(ctx, &a, &b, XG_ENGINE_CPU, 0, 1, &x, &st);
            for (q = r; q > 0 && on[q - 1] > u; q--)
                on[q] = on[q - 1];
            on[q] = u;
            for (q = r; q > 0 && off[q - 1] > v; q--)
                off[q] = off[q - 1];
            off[q] = v;
        }
        t_cpu_nc = off[reps / 2];
        printf("%-28s %10.3f s  (%d threads, alone on the prepared solids, "
               "best of 3); cpu call %.3f s with it, %.3f s without "
               "(solids_checked; medians of %d alternated): %+.1f%%\n",
               "self-crossing check", t_chk, threads, on[reps / 2],
               t_cpu_nc, reps,
               100.0 * (on[reps / 2] - t_cpu_nc) / t_cpu_nc);
    }
    if (have_gpu)
        printf("%-28s %10.3f s  with it (median), %.3f s without "
               "(solids_checked; runs %s): %+.1f%%\n",
               "  ours gpu", t_gpu, t_gpu_nc, gpu_runs_nc,
               100.0 * (t_gpu - t_gpu_nc) / t_gpu_nc);
    if (gpu_only)
        goto gpu_rows;

    /* seq on a subsample: grow it until it takes 2 s. */
    for (nsub = 16;; nsub *= 2) {
        stride = n / nsub;
        points(&sub, &m, n, 0, stride, nsub);
        t_seq = run(ctx, &sub, &b, XG_ENGINE_SEQ, 0, &x, &st);
        if (t_seq > 2.0 || nsub >= n / 4)
            break;
    }
    run(ctx, &sub, &b, XG_ENGINE_CPU, 0, &ref, &st);
    printf("%-28s %10.3f s  (extrapolated from %llu points: %.3f s) %s\n",
           "seq (1 thread)", t_seq * (double)n / (double)nsub,
           (unsigned long long)nsub, t_seq, same(&x, &ref));

    printf("%-28s %10.3f s  (%d threads; prepare %.3f, walk %.3f) ", "cpu",
           t_cpu, threads, st_cpu.seconds[XG_STAGE_PREPARE],
           st_cpu.seconds[XG_STAGE_INTERSECT]);
    exact_share(&st_cpu, buf, sizeof buf);
    printf("%s\n", buf);

    /* The seed's GPU method: the whole set when it would take <= 30 s. */
    for (nsub = 4096; have_gpu; nsub *= 4) {
        if (nsub >= n) {
            nsub = n;
            stride = 1;
            t_seed = run(ctx, &a, &b, -1, 0, &x, &st);
            printf("%-28s %10.3f s  %s\n", "seed's GPU method", t_seed,
                   same(&x, &cpu));
            break;
        }
        stride = n / nsub;
        points(&sub, &m, n, 0, stride, nsub);
        t_seed = run(ctx, &sub, &b, -1, 0, &x, &st);
        if (t_seed * (double)n / (double)nsub <= 30.0 && nsub * 4 < n)
            if (t_seed < 0.5)
                continue;
        if (t_seed * (double)n / (double)nsub > 30.0 || t_seed >= 0.5) {
            run(ctx, &sub, &b, XG_ENGINE_CPU, 0, &ref, &st);
            printf("%-28s %10.3f s  (extrapolated from %llu points: %.3f s) "
                   "%s\n", "seed's GPU method",
                   t_seed * (double)n / (double)nsub,
                   (unsigned long long)nsub, t_seed, same(&x, &ref));
            break;
        }
    }

gpu_rows:
    if (have_gpu) {
    printf("%-28s %10.3f s  in memory (xg_inside call to records in host "
           "memory) %s\n", "ours gpu", t_gpu, same(&gpu, &cpu));
    printf("    median of %d runs after a warm-up: %s s\n", reps, gpu_runs);
    printf("    prepare %.3f  upload %.3f  intersect %.3f  sort %.3f  "
           "download %.3f  exact+records %.3f\n",
           st_gpu.seconds[XG_STAGE_PREPARE], st_gpu.seconds[XG_STAGE_UPLOAD],
           st_gpu.seconds[XG_STAGE_INTERSECT],
           st_gpu.seconds[XG_STAGE_UNIQUE],
           st_gpu.seconds[XG_STAGE_DOWNLOAD], st_gpu.seconds[XG_STAGE_EXACT]);
    exact_share(&st_gpu, buf, sizeof buf);
    printf("    %s; %llu column pairs, %llu boxes held\n", buf,
           (unsigned long long)st_gpu.candidates,
           (unsigned long long)st_gpu.bbox_pairs);
    } else {
        printf("%-28s (no GPU on this machine)\n", "ours gpu");
    }

    if (gpu_only)
        goto out;
    /* CGAL on a subsample of about 10^6 points (all of them if fewer). */
    stride = n > 1000000 ? n / 1000000 : 1;
    t_cgal = cgal(K, ntri, n, stride, kc, &tb);
    if (t_cgal < 0) {
        printf("%-28s (not built: configure found no CGAL headers)\n",
               "CGAL Side_of_triangle_mesh");
    } else {
        uint64_t ko[3] = {0, 0, 0};
        for (i = 0; i < cpu.n; i++)
            if (cpu.v[i].a % stride == 0)
                ko[cpu.v[i].kind == XG_KIND_INSIDE ? 0 : 1]++;
        {
            /* outside: points of the subsample in no solid */
            uint64_t any = 0, last = UINT64_MAX;
            for (i = 0; i < cpu.n; i++)
                if (cpu.v[i].a % stride == 0 && cpu.v[i].a != last) {
                    any++;
                    last = cpu.v[i].a;
                }
            ko[2] = (n + stride - 1) / stride - any;
        }
        printf("%-28s %10.3f s  (%d threads; build %.3f s, queries "
               "extrapolated from every %llu-th point)\n",
               "CGAL Side_of_triangle_mesh", t_cgal, threads, tb,
               (unsigned long long)stride);
        printf("    CGAL counts %llu inside, %llu boundary, %llu outside; "
               "ours %llu, %llu, %llu: %s\n",
               (unsigned long long)kc[0], (unsigned long long)kc[1],
               (unsigned long long)kc[2], (unsigned long long)ko[0],
               (unsigned long long)ko[1], (unsigned long long)ko[2],
               kc[0] == ko[0] && kc[1] == ko[1] && kc[2] == ko[2]
                   ? "same"
                   : "DIFFERENT");
        if (have_gpu)
            printf("ratio ours gpu vs CGAL (%d threads): %.1fx (target >= "
                   "100x)\n", threads, t_cgal / t_gpu);
        printf("ratio cpu vs CGAL (same %d threads): %.1fx (target >= 5x)\n",
               threads, t_cgal / t_cpu);
    }
out:
    xg_contacts_free(&cpu);
    xg_contacts_free(&gpu);
    xg_contacts_free(&x);
    xg_contacts_free(&ref);
    xg_set_free(&a);
    xg_set_free(&sub);
    xg_set_free(&b);
    gi_model_free(&m);
}

/* 10^9 points over case (b)'s solids, in slices of 10^8. */
static void billion(struct xg_ctx *ctx, uint64_t n, uint64_t slice)
{
    struct gi_model m;
    struct xg_set a = {0}, b = {0};
    struct xg_contacts out = {0};
    struct xg_stats st;
    uint64_t k[3], tot[3] = {0, 0, 0}, i0;
    double t_gen = 0, t_run = 0, t;
    size_t i;
    if (gi_model_make(&m, 16, 1000000 / divide, 7))
        exit(2);
    for (i = 0; i < m.ntri; i++)
        xg_set_push_triangle(&b, m.tri + 9 * i, m.tri + 9 * i + 3,
                             m.tri + 9 * i + 6, m.fid[i], 0);
    for (i0 = 0; i0 < n; i0 += slice) {
        t = xg__now();
        points(&a, &m, n, i0, 1, slice);
        t_gen += xg__now() - t;
        t_run += run(ctx, &a, &b, XG_ENGINE_GPU, 0, &out, &st);
        kinds(&out, k);
        tot[0] += k[0];
        tot[1] += k[1];
    }
    printf("\n== %llu points over case (b)'s solids, %llu calls of "
           "xg_inside (gpu) over slices of %llu: %.2f s in xg_inside "
           "(%.2f s generating points); %llu inside, %llu boundary "
           "records: completed\n",
           (unsigned long long)n, (unsigned long long)(n / slice),
           (unsigned long long)slice, t_run, t_gen,
           (unsigned long long)tot[0], (unsigned long long)tot[1]);
    xg_contacts_free(&out);
    xg_set_free(&a);
    xg_set_free(&b);
    gi_model_free(&m);
}

int main(int argc, char **argv)
{
    struct xg_ctx *ctx = xg_ctx_new();
    int c;
    xg__gpu_bench_install();    /* the seed's method, timed too */
    while ((c = getopt(argc, argv, "t:p:qd:r:g")) != -1) {
        if (c == 't')
            threads = atoi(optarg);
        else if (c == 'p')
            peer = optarg;
        else if (c == 'q')
            divide = 100;
        else if (c == 'd' && atoi(optarg) > 0)
            divide = (uint64_t)atoi(optarg);
        else if (c == 'r' && atoi(optarg) > 0 && atoi(optarg) <= MAX_REPS)
            reps = atoi(optarg);
        else if (c == 'g')
            gpu_only = 1;
        else {
            fprintf(stderr, "usage: bench_inside [-t THREADS] [-p CGAL_PEER] "
                            "[-q | -d DIVISOR] [-r REPS (1-9)] [-g]\n");
            return 2;
        }
    }
    if (threads <= 0)
        threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    xg_ctx_set_threads(ctx, threads);
    have_gpu = xg_gpu_available();
    printf("bench_inside: %d threads; points: block centroids on a 1/16 m "
           "grid, 2%% on vertices, edges, faces\n", threads);
    one_case(ctx, "(a)", 8, 100000 / divide, 10000000 / divide);
    one_case(ctx, "(b)", 16, 1000000 / divide, 100000000 / divide);
    if (have_gpu && !gpu_only)
        billion(ctx, 1000000000 / divide, 100000000 / divide);
    xg_ctx_free(ctx);
    return 0;
}
