/*
 * bench_cpu.c -- the laptop path (issue 16): our CPU engines against
 * CGAL's box_intersection_d + do_intersect (bench/cgal_pairs), shape by
 * shape, in one run.
 *
 *   bench/bench_cpu [-s SHAPES] [-S SCALE] [-t T1,T2,..] [-n RUNS]
 *                   [--seed N] [--world DUMP] [--cgal PATH]
 *
 * SHAPES: a comma list of bench/gen_shapes.h's (default all four), made
 * in memory; --world adds a dump read from disk (the red/blue world map,
 * `exactgeo redblue ... --dump`; any segtri or red/blue dump does).
 * Threads default to 1, 2 and all online processors.  Per shape: seq
 * once (the reference), then the cpu engine and the CGAL peer at each
 * thread count, each RUNS times (default 3; the fastest is printed:
 * other jobs share this machine).  CGAL on several threads runs twice,
 * split into slabs by us and with its own Parallel_tag (cgal_pairs.cpp),
 * and the faster counts.  Printed: wall seconds of the whole
 * call (ours: xg_segtri / xg_redblue; CGAL: objects, boxes, tree and
 * predicates), their ratio CGAL / ours (the target is >= 3 at 2 and at
 * all threads), our stage split, the broad phase's figures (candidate
 * pairs of the grid's cells, the box pairs CGAL reports, the pairs our
 * cpu engine evaluated), and the checks: every cpu run's contacts equal
 * seq's byte for byte, and our contact count equals CGAL's count of
 * pairs that meet.  Exits 1 when a check fails.  No GPU needed.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "exactgeo.h"
#include "gen_shapes.h"

#define MAX_THREADS 16

struct opts {
    const char *shapes, *world, *cgal;
    double scale;
    uint64_t seed;
    int threads[MAX_THREADS], nthreads, runs;
};

struct peer {
    int ran;                    /* 0: not run (no peer, or it failed) */
    unsigned long long pairs, boxpairs;
    double seconds;             /* fastest run */
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Our engine on the pair the sets' kinds name. */
static int run_ours(struct xg_ctx *ctx, const struct xg_set *a,
                    const struct xg_set *b, int engine,
                    struct xg_contacts *out, struct xg_stats *st,
                    double *seconds)
{
    struct xg_opts o;
    double t;
    int rc;
    memset(&o, 0, sizeof o);
    o.engine = engine;
    t = now();
    rc = b->elem == XG_ELEM_SEGMENT ? xg_redblue(ctx, a, b, &o, out, st)
                                    : xg_segtri(ctx, a, b, &o, out, st);
    *seconds = now() - t;
    return rc;
}

/* The peer in one mode (cgal_pairs: "slabs" or "tbb"), its fastest run
 * in *p; p->ran stays 0 when it did not run. */
static void run_peer_mode(const struct opts *op, const char *dump,
                          int threads, const char *mode, struct peer *p)
{
    char cmd[4096], line[256];
    FILE *f;
    memset(p, 0, sizeof *p);
    if (!op->cgal || access(op->cgal, X_OK) != 0)
        return;
    snprintf(cmd, sizeof cmd, "'%s' '%s' %d %d %s 2>/dev/null", op->cgal,
             dump, threads, op->runs, mode);
    if (!(f = popen(cmd, "r")))
        return;
    while (fgets(line, sizeof line, f)) {
        unsigned long long h, bp;
        double s;
        if (sscanf(line, "pairs %llu boxpairs %llu seconds %lf", &h, &bp,
                   &s) != 3)
            continue;
        if (!p->ran || s < p->seconds)
            p->seconds = s;
        p->pairs = h;
        p->boxpairs = bp;
        p->ran = 1;
    }
    if (pclose(f) != 0)
        p->ran = 0;
}

/* CGAL at its best on this many threads: one thread, else the faster of
 * our slabs and CGAL's own Parallel_tag (mode says which). */
static void run_peer(const struct opts *op, const char *dump, int threads,
                     struct peer *p, const char **mode)
{
    struct peer q;
    *mode = threads > 1 ? "slabs" : "seq";
    run_peer_mode(op, dump, threads, "slabs", p);
    if (threads < 2)
        return;
    run_peer_mode(op, dump, threads, "tbb", &q);
    if (q.ran && (!p->ran || q.seconds < p->seconds)) {
        *p = q;
        *mode = "tbb";
    }
}

static void cell(double s)
{
    printf(" %9.3f", s);
}

/* One shape: prints its rows; returns 0 when every check holds. */
static int bench_shape(const struct opts *op, const char *name,
                       struct xg_set *a, struct xg_set *b)
{
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_contacts ref = {0};
    struct xg_stats st;
    char dump[] = "/tmp/bench_cpu_XXXXXX";
    double sec;
    int fd, i, r, bad = 0, have_dump = 0;

    if (!ctx)
        return 1;
    if ((fd = mkstemp(dump)) >= 0) {
        close(fd);
        have_dump = xg_dump_write(ctx, dump, a, b) == XG_OK;
    }
    xg_ctx_set_threads(ctx, 1);
    if (run_ours(ctx, a, b, XG_ENGINE_SEQ, &ref, &st, &sec) != XG_OK) {
        fprintf(stderr, "bench_cpu: %s: %s\n", name, xg_ctx_errmsg(ctx));
        xg_ctx_free(ctx);
        return 1;
    }
    printf("\n%s: %zu A, %zu B (%s); grid %d x %d x %d; %zu contacts "
           "(seq)\n",
           name, a->n, b->n,
           b->elem == XG_ELEM_SEGMENT ? "red/blue segments"
                                      : "segments x triangles",
           st.grid[0], st.grid[1], st.grid[2], ref.n);
    printf("  broad phase: %llu candidate pairs in the cells (seq), "
           "%llu box pairs\n",
           (unsigned long long)st.candidates,
           (unsigned long long)st.bbox_pairs);
    printf("  %-4s %3s %9s %9s %9s | %9s %9s %9s %9s | %12s  %s\n", "eng",
           "thr", "ours s", "CGAL s", "CGAL/ours", "prepare", "intersect",
           "exact", "unique", "evaluated", "checks");
    printf("  %-4s %3d", "seq", 1);
    cell(sec);
    printf(" %9s %9s |", "", "");
    cell(st.seconds[XG_STAGE_PREPARE]);
    cell(st.seconds[XG_STAGE_INTERSECT]);
    cell(st.seconds[XG_STAGE_EXACT]);
    cell(st.seconds[XG_STAGE_UNIQUE]);
    printf(" | %12llu  reference\n", (unsigned long long)st.bbox_pairs);

    for (i = 0; i < op->nthreads; i++) {
        struct xg_stats best = {0};
        struct peer p;
        const char *mode;
        double fastest = 0.0;
        int same = 1;
        xg_ctx_set_threads(ctx, op->threads[i]);
        for (r = 0; r < op->runs; r++) {
            struct xg_contacts out = {0};
            if (run_ours(ctx, a, b, XG_ENGINE_CPU, &out, &st, &sec) !=
                XG_OK) {
                fprintf(stderr, "bench_cpu: %s: %s\n", name,
                        xg_ctx_errmsg(ctx));
                same = 0;
                break;
            }
            if (xg_contacts_diff(&ref, &out) != SIZE_MAX)
                same = 0;
            if (r == 0 || sec < fastest) {
                fastest = sec;
                best = st;
            }
            xg_contacts_free(&out);
        }
        if (r < op->runs) {
            bad = 1;
            break;
        }
        run_peer(op, have_dump ? dump : "", op->threads[i], &p, &mode);
        printf("  %-4s %3d", "cpu", op->threads[i]);
        cell(fastest);
        if (p.ran) {
            cell(p.seconds);
            printf(" %8.2fx", fastest > 0.0 ? p.seconds / fastest : 0.0);
        } else {
            printf(" %9s %9s", "not run", "");
        }
        printf(" |");
        cell(best.seconds[XG_STAGE_PREPARE]);
        cell(best.seconds[XG_STAGE_INTERSECT]);
        cell(best.seconds[XG_STAGE_EXACT]);
        cell(best.seconds[XG_STAGE_UNIQUE]);
        printf(" | %12llu  %s", (unsigned long long)best.bbox_pairs,
               same ? "= seq" : "DIFFERENT from seq");
        if (p.ran)
            printf(", CGAL (%s) %llu pairs meet%s (%llu box pairs)", mode,
                   p.pairs, p.pairs == ref.n ? " = ours" : ": DIFFERENT count",
                   p.boxpairs);
        printf("\n");
        fflush(stdout);
        bad |= !same || (p.ran && p.pairs != ref.n);
    }
    if (have_dump)
        remove(dump);
    xg_contacts_free(&ref);
    xg_ctx_free(ctx);
    return bad;
}

static int parse_threads(const char *s, struct opts *op)
{
    char *end;
    op->nthreads = 0;
    while (*s && op->nthreads < MAX_THREADS) {
        long t = strtol(s, &end, 10);
        if (end == s || t < 1 || t > 1024)
            return 0;
        op->threads[op->nthreads++] = (int)t;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return 0;
    }
    return op->nthreads > 0;
}

static void usage(FILE *f)
{
    fputs("usage: bench_cpu [-s SHAPES] [-S SCALE] [-t T1,T2,..] [-n RUNS]\n"
          "                 [--seed N] [--world DUMP] [--cgal PATH]\n"
          "  SHAPES: comma list of paper,horizons,clustered,axis (default\n"
          "  all); threads default 1,2,all; RUNS default 3 (fastest shown);\n"
          "  --cgal default: cgal_pairs next to this program.\n",
          f);
}

int main(int argc, char **argv)
{
    struct opts op;
    char peer[4096], host[256] = "?", list[256];
    const char *slash;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int i, bad = 0;

    memset(&op, 0, sizeof op);
    op.shapes = "paper,horizons,clustered,axis";
    op.scale = 1.0;
    op.seed = 11;
    op.runs = 3;
    if (online < 1)
        online = 1;
    op.threads[op.nthreads++] = 1;
    if (online >= 2)
        op.threads[op.nthreads++] = 2;
    if (online > 2)
        op.threads[op.nthreads++] = (int)online;
    /* Next to this program; libtool runs it from .libs/ in the build. */
    slash = strrchr(argv[0], '/');
    i = slash ? (int)(slash - argv[0] + 1) : 0;
    if (i >= 6 && !strncmp(argv[0] + i - 6, ".libs/", 6))
        i -= 6;
    snprintf(peer, sizeof peer, "%.*scgal_pairs", i, argv[0]);
    op.cgal = peer;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-s") && i + 1 < argc) {
            op.shapes = argv[++i];
        } else if (!strcmp(argv[i], "-S") && i + 1 < argc) {
            op.scale = strtod(argv[++i], NULL);
        } else if (!strcmp(argv[i], "-t") && i + 1 < argc) {
            if (!parse_threads(argv[++i], &op)) {
                usage(stderr);
                return 2;
            }
        } else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
            op.runs = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            op.seed = strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--world") && i + 1 < argc) {
            op.world = argv[++i];
        } else if (!strcmp(argv[i], "--cgal") && i + 1 < argc) {
            op.cgal = argv[++i];
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (op.runs < 1 || !(op.scale >= 0.001 && op.scale <= 100.0)) {
        usage(stderr);
        return 2;
    }
    gethostname(host, sizeof host - 1);
    printf("bench_cpu: %s, %ld processors online; scale %g, seed %llu; "
           "fastest of %d run(s); CGAL peer: %s\n",
           host, online, op.scale, (unsigned long long)op.seed, op.runs,
           access(op.cgal, X_OK) == 0 ? op.cgal : "none (not run)");
    snprintf(list, sizeof list, "%s", op.shapes);
    for (char *save = NULL, *s = strtok_r(list, ",", &save); s;
         s = strtok_r(NULL, ",", &save)) {
        struct xg_set a = {0}, b = {0};
        int rc = gs_make(s, op.seed, op.scale, &a, &b);
        if (rc != XG_OK) {
            fprintf(stderr, "bench_cpu: shape '%s': %s\n", s,
                    xg_strerror(rc));
            bad = 1;
        } else {
            bad |= bench_shape(&op, s, &a, &b);
        }
        xg_set_free(&a);
        xg_set_free(&b);
    }
    if (op.world) {
        struct xg_ctx *ctx = xg_ctx_new();
        struct xg_set a = {0}, b = {0};
        if (!ctx || xg_dump_read(ctx, op.world, &a, &b) != XG_OK) {
            fprintf(stderr, "bench_cpu: %s: %s\n", op.world,
                    ctx ? xg_ctx_errmsg(ctx) : "out of memory");
            bad = 1;
        } else {
            bad |= bench_shape(&op, op.world, &a, &b);
        }
        xg_set_free(&a);
        xg_set_free(&b);
        xg_ctx_free(ctx);
    }
    printf("\nchecks: %s\n", bad ? "FAILED (see above)"
                                 : "all cpu runs equal seq; CGAL's counts "
                                   "equal ours");
    return bad;
}
