/*
 * bench_delaunay.c -- the Delaunay benchmark (prints figures; not a test).
 * Sets from bench/gen_delaunay.h (uniform, lattice, clustered) at the
 * sizes asked; per set: seq (up to -S points), cpu on all threads, gpu
 * when this build and machine have one, each compared with the cpu
 * engine's list; the peers: CGAL's Delaunay_triangulation_2 (EPICK, one
 * thread; bench/cgal_delaunay), Qhull through scipy and CuPy's GPU
 * Delaunay (bench/peers_delaunay.py: on the points as they are, and
 * moved exactly to 0, as CuPy is usually timed), up to -P and -Q points
 * (Qhull up to -H, default -Q: it takes minutes at 10^7); and every
 * result up to -A points audited exactly by xg_delaunay_check (ours the
 * cpu engine's).
 *
 *   bench_delaunay [-t THREADS] [-n N,N,..] [-s SETS] [-S SEQ_MAX] [-P CGAL_MAX]
 *                  [-Q PY_PEERS_MAX] [-H QHULL_MAX] [-A AUDIT_MAX]
 *                  [-L PEER_SECONDS]
 *                  [-c CGAL_PEER] [-y PY_PEERS] [-w TMPDIR] [-D]
 *
 * Sizes take 1e6-style numbers.  -D prints a digest of each engine's
 * triangle list (FNV-1a over its indices), so that two builds can be
 * compared list for list without keeping the lists.  A peer past PEER_SECONDS (default 120)
 * is stopped and reported as failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "op/delaunay/xg_delaunay.h"
#include "xg_thread.h"
#include "gen_delaunay.h"
#include "xg_ctx.h"

static int threads = 0;
static uint64_t seq_max = 10000000, peer_max = 10000000, py_max = 1000000;
static uint64_t qhull_max = UINT64_MAX;   /* -H; UINT64_MAX: py_max */
static uint64_t audit_max = 1000000;
static const char *cgal = "bench/cgal_delaunay", *py = "bench/peers_delaunay.py";
static const char *tmp = "/tmp";
static int peer_limit = 120;   /* seconds a peer may take */
static const char *only_sets = NULL;   /* -s: names, comma-separated */
static int digests = 0;                /* -D */

struct gen_job {
    int set;
    uint64_t n;
    struct xg_set *s;
};

static void gen_worker(void *arg, int tid)
{
    struct gen_job *g = arg;
    size_t lo, hi, k;
    xg__share(g->s->n, threads, tid, &lo, &hi);
    for (k = lo; k < hi; k++) {
        gd_point(g->set, g->n, k, g->s->xyz + 3 * k);
        g->s->fid[k] = (int64_t)k;
        g->s->sub[k] = 0;
    }
}

static int make_set(int set, uint64_t n, struct xg_set *s)
{
    struct gen_job g;
    memset(s, 0, sizeof *s);
    s->elem = XG_ELEM_POINT;
    s->n = s->cap = n;
    s->xyz = malloc(3 * n * sizeof *s->xyz);
    s->fid = malloc(n * sizeof *s->fid);
    s->sub = malloc(n * sizeof *s->sub);
    if (!s->xyz || !s->fid || !s->sub)
        return -1;
    g.set = set;
    g.n = n;
    g.s = s;
    return xg__parallel(threads, gen_worker, &g);
}

static void audit_line(const char *who, const struct xg_delaunay_report *r,
                       double secs)
{
    int valid = r->bad_index == 0 && r->not_ccw == 0 && r->bad_edges == 0 &&
                r->missing == 0 && r->count_off == 0 && r->not_delaunay == 0;
    printf("    audit %-6s %s: %llu triangles; bad index %llu, not ccw %llu, "
           "bad edges %llu, missing %llu, count off %llu, not Delaunay "
           "%llu, ties off rule %llu (%.2f s)\n",
           who, valid ? "VALID" : "INVALID",
           (unsigned long long)r->triangles, (unsigned long long)r->bad_index,
           (unsigned long long)r->not_ccw, (unsigned long long)r->bad_edges,
           (unsigned long long)r->missing, (unsigned long long)r->count_off,
           (unsigned long long)r->not_delaunay,
           (unsigned long long)r->not_canonical, secs);
}

/* Runs a peer command; its first line of output is its seconds. */
static double run_peer(const char *cmd)
{
    char line[256];
    double secs = -1;
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    if (fgets(line, sizeof line, p) && strncmp(line, "unavailable", 11))
        secs = atof(line);
    while (fgets(line, sizeof line, p))
        ;
    if (pclose(p) != 0)
        return -1;
    return secs;
}

static void peer(struct xg_ctx *ctx, const struct xg_set *s, const char *who,
                 const char *cmd, const char *out, double ours)
{
    double secs = run_peer(cmd), t0;
    FILE *f;
    long bytes;
    uint32_t (*t)[3];
    size_t nt, i;
    struct xg_delaunay_report rep;
    if (secs < 0) {
        printf("  %-28s unavailable or failed\n", who);
        return;
    }
    f = fopen(out, "rb");
    if (!f)
        return;
    fseek(f, 0, SEEK_END);
    bytes = ftell(f);
    fseek(f, 0, SEEK_SET);
    nt = (size_t)bytes / 12;
    t = malloc((nt ? nt : 1) * sizeof *t);
    if (!t || fread(t, 12, nt, f) != nt) {
        fclose(f);
        free(t);
        return;
    }
    fclose(f);
    /* peers may turn either way: turn each counter-clockwise first */
    for (i = 0; i < nt; i++)
        if (t[i][0] < s->n && t[i][1] < s->n && t[i][2] < s->n &&
            xg_orient2d(NULL, s->xyz + 3 * (size_t)t[i][0],
                        s->xyz + 3 * (size_t)t[i][1],
                        s->xyz + 3 * (size_t)t[i][2]) < 0) {
            uint32_t x = t[i][1];
            t[i][1] = t[i][2];
            t[i][2] = x;
        }
    printf("  %-28s %9.3f s   ours cpu %.1fx faster\n", who, secs,
           secs / ours);
    if (s->n <= audit_max) {
        t0 = xg__now();
        xg_delaunay_check(ctx, s, (const uint32_t(*)[3])t, nt, &rep);
        audit_line(who, &rep, xg__now() - t0);
    } else
        printf("    (%zu triangles; not audited above %llu points)\n", nt,
               (unsigned long long)audit_max);
    free(t);
    unlink(out);
}

static double engine(struct xg_ctx *ctx, const struct xg_set *s, int e,
                     struct xg_triangles *t, struct xg_stats *st)
{
    struct xg_opts o;
    double t0;
    int rc;
    memset(&o, 0, sizeof o);
    o.engine = e;
    t0 = xg__now();
    rc = xg_delaunay(ctx, s, &o, t, st);
    t0 = xg__now() - t0;
    if (rc != XG_OK) {
        printf("  %s: %s (%s)\n", xg_engine_name(e), xg_strerror(rc),
               xg_ctx_errmsg(ctx));
        return -1;
    }
    return t0;
}

/* -D: FNV-1a 64 of the list's indices, printed under the engine's line. */
static void digest_line(const char *who, const struct xg_triangles *t)
{
    uint64_t h = 0xcbf29ce484222325ull;
    size_t i;
    if (!digests)
        return;
    for (i = 0; i < 3 * t->n; i++) {
        h ^= t->v[i / 3][i % 3];
        h *= 0x100000001b3ull;
    }
    printf("    digest %s %zu triangles %016llx\n", who, t->n,
           (unsigned long long)h);
}

static void stats_line(const char *who, double secs, const struct xg_stats *st,
                       size_t n)
{
    printf("  %-28s %9.3f s   %.2f Mpoints/s; merged %llu; predicates %llu, "
           "filter failures %llu, GMP %llu (%.3f s, %.2f%% of the time)",
           who, secs, n / secs / 1e6, (unsigned long long)st->a_skipped,
           (unsigned long long)st->cnt.predicates,
           (unsigned long long)st->cnt.filter_failures,
           (unsigned long long)st->cnt.exact_evals, st->cnt.exact_seconds,
           100.0 * st->cnt.exact_seconds / secs /
               (st->threads > 0 ? st->threads : 1));
    if (st->engine == XG_ENGINE_CPU)
        printf("; %d strips, %llu builds", st->grid[0],
               (unsigned long long)st->candidates);
    printf("\n");
}

int main(int argc, char **argv)
{
    struct xg_ctx *ctx = xg_ctx_new();
    uint64_t sizes[8] = {1000000, 10000000};
    int nsizes = 2, opt, set, k;
    char *list = NULL;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while ((opt = getopt(argc, argv, "t:n:s:S:P:Q:H:A:L:c:y:w:D")) != -1) {
        switch (opt) {
        case 't': threads = atoi(optarg); break;
        case 'n': list = optarg; break;
        case 'S': seq_max = (uint64_t)strtod(optarg, NULL); break;
        case 'P': peer_max = (uint64_t)strtod(optarg, NULL); break;
        case 'Q': py_max = (uint64_t)strtod(optarg, NULL); break;
        case 'H': qhull_max = (uint64_t)strtod(optarg, NULL); break;
        case 'A': audit_max = (uint64_t)strtod(optarg, NULL); break;
        case 'L': peer_limit = atoi(optarg); break;
        case 's': only_sets = optarg; break;
        case 'c': cgal = optarg; break;
        case 'y': py = optarg; break;
        case 'w': tmp = optarg; break;
        case 'D': digests = 1; break;
        default:
            fprintf(stderr, "usage: bench_delaunay [-t THREADS] [-n N,N,..] "
                    "[-S SEQ_MAX] [-P CGAL_MAX] [-Q PY_PEERS_MAX] [-H QHULL_MAX] "
                    "[-A AUDIT_MAX] [-L PEER_SECONDS] [-c CGAL] [-y PY] "
                    "[-w DIR] [-D]\n");
            return 2;
        }
    }
    if (list) {
        char *tok = strtok(list, ",");
        nsizes = 0;
        while (tok && nsizes < 8) {
            sizes[nsizes++] = (uint64_t)strtod(tok, NULL);
            tok = strtok(NULL, ",");
        }
    }
    xg_ctx_set_threads(ctx, threads);
    threads = xg_ctx_threads(ctx);
    if (threads <= 0)
        threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    printf("bench_delaunay: %d threads, gpu %s\n", threads,
           xg_gpu_available() ? "yes" : "no");
    for (k = 0; k < nsizes; k++)
        for (set = 0; set < GD_COUNT; set++) {
            struct xg_set s;
            struct xg_triangles tc = {0}, tx = {0};
            struct xg_stats st;
            struct xg_delaunay_report rep;
            double cpu, secs, t0;
            uint64_t n = sizes[k];
            char pts[512], out[512], cmd[2048];
            if (only_sets && !strstr(only_sets, gd_name[set]))
                continue;
            if (make_set(set, n, &s)) {
                printf("%s %llu: out of memory\n", gd_name[set],
                       (unsigned long long)n);
                continue;
            }
            printf("%s, %llu points\n", gd_name[set], (unsigned long long)n);
            cpu = engine(ctx, &s, XG_ENGINE_CPU, &tc, &st);
            if (cpu < 0)
                goto next;
            stats_line("ours, cpu", cpu, &st, n);
            digest_line("cpu", &tc);
            if (n <= seq_max) {
                secs = engine(ctx, &s, XG_ENGINE_SEQ, &tx, &st);
                if (secs > 0) {
                    stats_line("ours, seq", secs, &st, n);
                    digest_line("seq", &tx);
                    printf("    seq list %s the cpu engine's\n",
                           tx.n == tc.n && !memcmp(tx.v, tc.v, tx.n * 12)
                               ? "identical to" : "DIFFERS FROM");
                }
                xg_triangles_free(&tx);
            }
            if (xg_gpu_available()) {
                secs = engine(ctx, &s, XG_ENGINE_GPU, &tx, &st);
                if (secs > 0) {
                    stats_line("ours, gpu", secs, &st, n);
                    digest_line("gpu", &tx);
                    printf("    gpu list %s the cpu engine's\n",
                           tx.n == tc.n && !memcmp(tx.v, tc.v, tx.n * 12)
                               ? "identical to" : "DIFFERS FROM");
                }
                xg_triangles_free(&tx);
            }
            if (n <= audit_max) {
                t0 = xg__now();
                xg_delaunay_check(ctx, &s, (const uint32_t(*)[3])tc.v, tc.n,
                                  &rep);
                audit_line("ours", &rep, xg__now() - t0);
            }
            if (n <= peer_max) {
                FILE *f;
                size_t i;
                snprintf(pts, sizeof pts, "%s/bd_points.bin", tmp);
                snprintf(out, sizeof out, "%s/bd_tri.bin", tmp);
                f = fopen(pts, "wb");
                for (i = 0; f && i < n; i++)
                    fwrite(s.xyz + 3 * i, sizeof(double), 2, f);
                if (f)
                    fclose(f);
                snprintf(cmd, sizeof cmd, "timeout %d %s %s %s", peer_limit,
                         cgal, pts, out);
                peer(ctx, &s, "CGAL DT2 (EPICK, 1 thread)", cmd, out, cpu);
                if (n <= (qhull_max == UINT64_MAX ? py_max : qhull_max)) {
                    snprintf(cmd, sizeof cmd, "timeout %d python3 %s qhull "
                             "%s %s", peer_limit, py, pts, out);
                    peer(ctx, &s, "Qhull (scipy)", cmd, out, cpu);
                }
                if (n <= py_max) {
                    snprintf(cmd, sizeof cmd, "timeout %d python3 %s cupy "
                             "%s %s", peer_limit, py, pts, out);
                    peer(ctx, &s, "CuPy Delaunay (GPU)", cmd, out, cpu);
                    snprintf(cmd, sizeof cmd, "timeout %d python3 %s "
                             "cupy-local %s %s", peer_limit, py, pts, out);
                    peer(ctx, &s, "CuPy Delaunay (GPU), points moved to 0",
                         cmd, out, cpu);
                }
                unlink(pts);
            }
        next:
            xg_triangles_free(&tc);
            xg_set_free(&s);
            fflush(stdout);
        }
    xg_ctx_free(ctx);
    return 0;
}
