/*
 * bench_memory.c -- the memory an operation takes beyond its inputs,
 * per input element (issue 16): the figures behind docs/memory.md and
 * the constants of src/memory.c's estimate.
 *
 * Each measurement runs in a child process: it makes the inputs, resets
 * the kernel's high-water mark of its resident memory (/proc/self/
 * clear_refs), notes its resident size, runs the operation, and reports
 * the high-water mark less that size: the run's own peak, inputs not
 * counted.  Per operation three runs, (na, nb), (2 na, nb), (na, 2 nb),
 * give bytes per element of A and of B by differences (the outputs the
 * data makes included: contacts grow with the inputs).
 *
 *   segtri:   bench/gen_shapes.h's paper shape (holes x stacked meshes);
 *   redblue:  a 2D dump (-r DUMP: bench/gen_maps' output, the world map);
 *   inside:   bench/gen_inside.h's block model (points x solids);
 *   delaunay: bench/gen_delaunay.h's uniform points.
 *
 * Usage: bench_memory [-S SCALE] [-t THREADS] [-r REDBLUE.xgd]
 * Linux only (/proc); prints figures, asserts nothing.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "exactgeo.h"
#include "gen_delaunay.h"
#include "gen_inside.h"
#include "gen_shapes.h"

struct measure {
    long long na, nb, out;  /* elements of A and B, records written */
    long long bytes;        /* the run's peak beyond its inputs      */
    int rc;
};

static long long status_kb(const char *key)
{
    char line[256];
    long long v = -1;
    size_t k = strlen(key);
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, k) && line[k] == ':') {
            v = atoll(line + k + 1);
            break;
        }
    fclose(f);
    return v;
}

static int reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f)
        return -1;
    fputs("5", f);
    return fclose(f);
}

/* One operation's run over its inputs, in the child. */
enum { OP_SEGTRI, OP_REDBLUE, OP_INSIDE, OP_DELAUNAY, OP_COUNT };
static const char *const op_name[OP_COUNT] = {"segtri", "redblue", "inside",
                                              "delaunay"};

struct job {
    int op, threads;
    double scale;
    const char *dump;
    double fa, fb;          /* A's and B's size factors */
};

static int make_inputs(const struct job *j, struct xg_ctx *ctx,
                       struct xg_set *a, struct xg_set *b)
{
    int rc = XG_OK;
    if (j->op == OP_SEGTRI) {
        struct xg_set a2 = {0};
        /* B from the shape at scale * fb, A from the shape at scale *
         * fa (its holes; the sheets made for it are dropped) */
        if ((rc = gs_make("paper", 11, j->scale * j->fb, a, b)))
            return rc;
        xg_set_free(a);
        {
            struct xg_set b2 = {0};
            rc = gs_make("paper", 11, j->scale * j->fa, &a2, &b2);
            xg_set_free(&b2);
        }
        *a = a2;
        return rc;
    }
    if (j->op == OP_REDBLUE) {
        struct xg_set ra = {0}, rb = {0};
        size_t k;
        if ((rc = xg_dump_read(ctx, j->dump, &ra, &rb)))
            return rc;
        /* fa, fb of 1 take every other element, 2 all of them */
        for (k = 0; k < ra.n && rc == XG_OK; k++)
            if (j->fa >= 2 || k % 2 == 0)
                rc = xg_set_push_segment(a, ra.xyz + 6 * k, ra.xyz + 6 * k + 3,
                                         ra.fid[k], ra.sub[k]);
        for (k = 0; k < rb.n && rc == XG_OK; k++)
            if (j->fb >= 2 || k % 2 == 0)
                rc = xg_set_push_segment(b, rb.xyz + 6 * k, rb.xyz + 6 * k + 3,
                                         rb.fid[k], rb.sub[k]);
        xg_set_free(&ra);
        xg_set_free(&rb);
        return rc;
    }
    if (j->op == OP_INSIDE) {
        struct gi_model m;
        uint64_t n = (uint64_t)(2e6 * j->scale * j->fa), i;
        size_t t;
        double p[3];
        if (gi_model_make(&m, 8, (size_t)(1e5 * j->scale * j->fb), 7))
            return XG_ENOMEM;
        for (t = 0; t < m.ntri && rc == XG_OK; t++)
            rc = xg_set_push_triangle(b, m.tri + 9 * t, m.tri + 9 * t + 3,
                                      m.tri + 9 * t + 6, m.fid[t],
                                      (int64_t)t);
        for (i = 0; i < n && rc == XG_OK; i++) {
            gi_point(&m, n, 20, i, p);
            rc = xg_set_push_point(a, p, (int64_t)i, 0);
        }
        gi_model_free(&m);
        return rc;
    }
    {
        uint64_t n = (uint64_t)(1e6 * j->scale * j->fa), i;
        double p[3];
        for (i = 0; i < n && rc == XG_OK; i++) {
            gd_point(GD_UNIFORM, n, i, p);
            rc = xg_set_push_point(a, p, (int64_t)i, 0);
        }
        return rc;
    }
}

static void child(const struct job *j, int fd)
{
    struct measure m;
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_set a = {0}, b = {0};
    struct xg_opts opt;
    long long rss0;
    ssize_t w;

    memset(&m, 0, sizeof m);
    memset(&opt, 0, sizeof opt);
    opt.engine = XG_ENGINE_CPU;
    if (!ctx || xg_ctx_set_threads(ctx, j->threads))
        _exit(3);
    m.rc = make_inputs(j, ctx, &a, &b);
    m.na = (long long)a.n;
    m.nb = (long long)b.n;
    if (m.rc == XG_OK && reset_peak())
        m.rc = -1;
    rss0 = status_kb("VmRSS");
    if (m.rc == XG_OK) {
        if (j->op == OP_DELAUNAY) {
            struct xg_triangles t = {0};
            m.rc = xg_delaunay(ctx, &a, &opt, &t, NULL);
            m.out = (long long)t.n;
        } else {
            struct xg_contacts c = {0};
            m.rc = j->op == OP_SEGTRI    ? xg_segtri(ctx, &a, &b, &opt, &c, NULL)
                   : j->op == OP_REDBLUE ? xg_redblue(ctx, &a, &b, &opt, &c, NULL)
                                         : xg_inside(ctx, &a, &b, &opt, &c, NULL);
            m.out = (long long)c.n;
        }
    }
    m.bytes = 1024 * (status_kb("VmHWM") - rss0);
    w = write(fd, &m, sizeof m);
    _exit(w == (ssize_t)sizeof m ? 0 : 4);
}

static int measure(const struct job *j, struct measure *m)
{
    int fds[2], status;
    pid_t pid;
    if (pipe(fds))
        return -1;
    fflush(stdout);
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(fds[0]);
        child(j, fds[1]);
    }
    close(fds[1]);
    if (read(fds[0], m, sizeof *m) != (ssize_t)sizeof *m)
        m->rc = -1;
    close(fds[0]);
    waitpid(pid, &status, 0);
    return m->rc;
}

int main(int argc, char **argv)
{
    double scale = 1.0;
    int threads = 0, op, i;
    const char *dump = NULL;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-S") && i + 1 < argc)
            scale = atof(argv[++i]);
        else if (!strcmp(argv[i], "-t") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc)
            dump = argv[++i];
        else {
            fprintf(stderr, "usage: bench_memory [-S SCALE] [-t THREADS] "
                            "[-r REDBLUE.xgd]\n");
            return 2;
        }
    }
    if (scale <= 0) {
        fprintf(stderr, "bench_memory: -S must be positive\n");
        return 2;
    }
    printf("bench_memory: scale %g, cpu engine, %d thread(s) (0: all); the "
           "run's peak resident memory beyond its inputs\n\n", scale, threads);
    printf("%-9s %11s %11s %11s %10s\n", "op", "A", "B", "records",
           "peak MiB");
    for (op = 0; op < OP_COUNT; op++) {
        struct job j = {op, threads, scale, dump, 1, 1};
        struct measure m[3];
        int runs = op == OP_DELAUNAY ? 2 : 3, r;
        if (op == OP_REDBLUE && !dump) {
            printf("%-9s (no -r DUMP: skipped)\n", op_name[op]);
            continue;
        }
        for (r = 0; r < runs; r++) {
            j.fa = r == 1 ? 2 : 1;
            j.fb = r == 2 ? 2 : 1;
            if (measure(&j, &m[r]))
                break;
            printf("%-9s %11lld %11lld %11lld %10.1f\n", r ? "" : op_name[op],
                   m[r].na, m[r].nb, m[r].out, m[r].bytes / 1048576.0);
        }
        if (r < runs) {
            printf("%-9s failed (code %d)\n", op_name[op], m[r].rc);
            continue;
        }
        printf("%-9s per element of A: %.0f bytes", "",
               (double)(m[1].bytes - m[0].bytes) / (double)(m[1].na - m[0].na));
        if (runs == 3)
            printf(", of B: %.0f bytes",
                   (double)(m[2].bytes - m[0].bytes) / (double)(m[2].nb - m[0].nb));
        printf("\n\n");
    }
    return 0;
}
