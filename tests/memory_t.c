/*
 * memory_t.c -- the memory check (exactgeo.h, xg_ctx_set_memory,
 * xg_op_memory): every operation refuses a run whose estimate exceeds the
 * memory it may take, before any work (XG_ENOMEM, no output, the
 * message giving the estimate and the limit), and runs the same inputs
 * when the limit allows them or there is no check; the estimate is the
 * operation table's bytes per element; the machine's available memory is
 * read (Linux).  No result here depends on the machine's memory: every
 * refusal and every run is under a limit the test sets.
 */
#include <string.h>
#include "exactgeo.h"
#include "tap.h"

/* On a 40 x 40 lattice at UTM magnitudes: a triangle per cell and a
 * vertical segment through it (segtri), a point per cell in a cube
 * (inside, delaunay), a horizontal and a vertical 2D segment per cell
 * that cross (redblue). */
static int fill(struct xg_set *seg, struct xg_set *tri, struct xg_set *pts,
                struct xg_set *cube, struct xg_set *h, struct xg_set *v)
{
    int i, j, rc = XG_OK;
    for (j = 0; j < 40 && rc == XG_OK; j++)
        for (i = 0; i < 40 && rc == XG_OK; i++) {
            double p[3] = {500000.25 + i, 7000000.5 + j, 0},
                   q[3] = {500000.25 + i + 1, 7000000.5 + j, 0},
                   r[3] = {500000.25 + i, 7000000.5 + j + 1, 0},
                   s0[3] = {500000.5 + i, 7000000.75 + j, -1},
                   s1[3] = {500000.5 + i, 7000000.75 + j, 1};
            rc = xg_set_push_triangle(tri, p, q, r, j * 40 + i, 0);
            if (rc == XG_OK)
                rc = xg_set_push_segment(seg, s0, s1, j * 40 + i, 0);
            if (rc == XG_OK)
                rc = xg_set_push_point(pts, s0, j * 40 + i, 0);
            /* 2D: a horizontal and a vertical segment crossing */
            s0[0] = p[0];
            s1[0] = q[0];
            s1[1] = s0[1];
            if (rc == XG_OK)
                rc = xg_set_push_segment(h, s0, s1, j * 40 + i, 0);
            s0[0] = s1[0] = 500000.75 + i;
            s0[1] = p[1];
            s1[1] = r[1];
            if (rc == XG_OK)
                rc = xg_set_push_segment(v, s0, s1, j * 40 + i, 0);
        }
    {
        /* the unit cube's 12 triangles, outward */
        static const int f[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6},
                                     {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                                     {1, 2, 6}, {1, 6, 5}, {2, 3, 7},
                                     {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
        double v[8][3];
        int k;
        for (k = 0; k < 8; k++) {
            v[k][0] = 500000.0 + 50.0 * ((k == 1 || k == 2 || k == 5 || k == 6));
            v[k][1] = 7000000.0 + 50.0 * ((k == 2 || k == 3 || k == 6 || k == 7));
            v[k][2] = k < 4 ? -5.0 : 5.0;
        }
        for (k = 0; k < 12 && rc == XG_OK; k++)
            rc = xg_set_push_triangle(cube, v[f[k][0]], v[f[k][1]],
                                      v[f[k][2]], 1, k);
    }
    return rc;
}

/* op over a, b under limit (with outside records when outside): its
 * result code, its record count in *n */
static int run_opt(struct xg_ctx *ctx, const char *name,
                   const struct xg_set *a, const struct xg_set *b,
                   uint64_t limit, int outside, size_t *n)
{
    const struct xg_op *op = xg_op_find(name);
    struct xg_opts opt;
    int rc;
    memset(&opt, 0, sizeof opt);
    opt.engine = XG_ENGINE_CPU;
    opt.outside = outside;
    xg_ctx_set_memory(ctx, limit);
    if (op->shape == XG_SHAPE_TRIANGLES) {
        struct xg_triangles t = {0};
        rc = op->run_tri(ctx, a, &opt, &t, NULL);
        *n = t.n;
        xg_triangles_free(&t);
    } else {
        struct xg_contacts c = {0};
        rc = op->run(ctx, a, b, &opt, &c, NULL);
        *n = c.n;
        xg_contacts_free(&c);
    }
    return rc;
}

static int run(struct xg_ctx *ctx, const char *name, const struct xg_set *a,
               const struct xg_set *b, uint64_t limit, size_t *n)
{
    return run_opt(ctx, name, a, b, limit, 0, n);
}

int main(void)
{
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_set seg = {0}, tri = {0}, pts = {0}, cube = {0}, h = {0},
                  v = {0};
    static const char *const names[4] = {"segtri", "redblue", "inside",
                                         "delaunay"};
    size_t k;

    if (!ctx || fill(&seg, &tri, &pts, &cube, &h, &v) != XG_OK) {
        printf("Bail out! setup\n");
        return 1;
    }
    xg_ctx_set_threads(ctx, 2);
    for (k = 0; k < 4; k++) {
        const struct xg_op *op = xg_op_find(names[k]);
        const struct xg_set *a = k == 0 ? &seg : k == 1 ? &h : &pts;
        const struct xg_set *b = k == 0 ? &tri : k == 1 ? &v : &cube;
        size_t nb = op->ninputs == 1 ? 0 : b->n, n1 = 0, n2 = 0, n3 = 1;
        uint64_t need = xg_op_memory(op, a->n, nb);
        char said[64];
        int rc;

        ok(op->in[0].bytes > 0 && (op->ninputs == 1 || op->in[1].bytes > 0) &&
               need == (uint64_t)op->in[0].bytes * a->n +
                           (uint64_t)op->in[1].bytes * nb,
           "%s: the estimate is the table's bytes per element times the "
           "counts (%llu bytes for %zu x %zu)", names[k],
           (unsigned long long)need, a->n, nb);
        rc = run(ctx, names[k], a, k == 3 ? NULL : b, XG_MEMORY_UNCHECKED, &n1);
        ok(rc == XG_OK && n1 > 0, "%s: no check: runs (%zu records)",
           names[k], n1);
        rc = run(ctx, names[k], a, k == 3 ? NULL : b, need, &n2);
        ok(rc == XG_OK && n2 == n1,
           "%s: a limit equal to the estimate: runs, the same %zu records",
           names[k], n2);
        rc = run(ctx, names[k], a, k == 3 ? NULL : b, need - 1, &n3);
        snprintf(said, sizeof said, "(%llu bytes) of memory (estimate)",
                 (unsigned long long)need);
        ok(rc == XG_ENOMEM && n3 == 0 &&
               strstr(xg_ctx_errmsg(ctx), "estimate") &&
               strstr(xg_ctx_errmsg(ctx), said) &&
               strstr(xg_ctx_errmsg(ctx), "the limit set") &&
               strstr(xg_ctx_errmsg(ctx), op->in[0].elements),
           "%s: one byte less: XG_ENOMEM before any work, no records, the "
           "message gives the estimate: %s", names[k], xg_ctx_errmsg(ctx));
    }
    {
        /* inside with outside records: one per point whatever the data,
         * 64 bytes each beyond the table's estimate (issue 31, item 5) */
        const struct xg_op *op = xg_op_find("inside");
        uint64_t need = xg_op_memory(op, pts.n, cube.n) +
                        (uint64_t)pts.n * sizeof(struct xg_contact);
        size_t n1 = 0, n2 = 1;
        int rc1 = run_opt(ctx, "inside", &pts, &cube, need, 1, &n1),
            rc2 = run_opt(ctx, "inside", &pts, &cube, need - 1, 1, &n2);
        ok(rc1 == XG_OK && n1 >= pts.n && rc2 == XG_ENOMEM && n2 == 0 &&
               strstr(xg_ctx_errmsg(ctx), "1600 records at least"),
           "inside with outside records: the estimate adds 64 bytes a "
           "point (%llu bytes: runs, %zu records; one less refused: %s)",
           (unsigned long long)need, n1, xg_ctx_errmsg(ctx));
    }
    xg_ctx_set_memory(ctx, 0);
#ifdef __linux__
    ok(xg_ctx_memory(ctx) > 0 && xg_ctx_memory(ctx) != XG_MEMORY_UNCHECKED,
       "auto: the machine's available memory is read (%.2f GiB)",
       (double)xg_ctx_memory(ctx) / 1073741824.0);
#endif
    xg_ctx_set_memory(ctx, 12345);
    ok(xg_ctx_memory(ctx) == 12345, "a limit set is the limit");
    xg_ctx_set_memory(ctx, XG_MEMORY_UNCHECKED);
    ok(xg_ctx_memory(ctx) == XG_MEMORY_UNCHECKED, "none: unchecked");

    xg_set_free(&seg);
    xg_set_free(&tri);
    xg_set_free(&pts);
    xg_set_free(&cube);
    xg_set_free(&h);
    xg_set_free(&v);
    xg_ctx_free(ctx);
    tap_done();
    return tap_exit();
}
