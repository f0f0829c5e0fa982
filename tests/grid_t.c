/*
 * grid_t.c -- the engines (seq, and cpu on 1, 2 and 3 threads) over the
 * uniform grid give exactly the contacts of brute force over all pairs
 * with xg_segtri_pair: same pairs in the same (a, b) order, same kinds,
 * bitwise-equal points, whatever the grid resolution (1, 7, default, 64
 * cells per axis, non-cubic).  Stats must add up.  Sets: random, a UTM
 * lattice mesh with holes through its vertices and edges and segments
 * in its planes, zero-length segments and collinear triangles, all in
 * one cell, boxes touching only at cell boundaries, empty sets.  Also
 * the dump file round trip and its errors (segtri's and inside's formats).
 */
#define _POSIX_C_SOURCE 200809L
#include <gmp.h>
#include <unistd.h>
#include "exactgeo.h"
#include "xg_test.h"

/* ---- brute force ---- */

static int seg_degenerate(const double *s)
{
    return s[0] == s[3] && s[1] == s[4] && s[2] == s[5];
}

/* Collinear triangle, decided with rationals here (not src/). */
static int tri_degenerate(const double *t)
{
    mpq_t u[3], v[3], a, b;
    int i, zero = 1;
    mpq_inits(a, b, NULL);
    for (i = 0; i < 3; i++) {
        mpq_inits(u[i], v[i], NULL);
        mpq_set_d(a, t[3 + i]);
        mpq_set_d(b, t[i]);
        mpq_sub(u[i], a, b);
        mpq_set_d(a, t[6 + i]);
        mpq_sub(v[i], a, b);
    }
    for (i = 0; i < 3 && zero; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        mpq_mul(a, u[j], v[k]);
        mpq_mul(b, u[k], v[j]);
        zero = mpq_equal(a, b);
    }
    for (i = 0; i < 3; i++)
        mpq_clears(u[i], v[i], NULL);
    mpq_clears(a, b, NULL);
    return zero;
}

static void box_of(const double *v, int npts, double box[6])
{
    int i, k;
    for (k = 0; k < 3; k++) {
        box[k] = box[3 + k] = v[k];
        for (i = 1; i < npts; i++) {
            if (v[3 * i + k] < box[k])
                box[k] = v[3 * i + k];
            if (v[3 * i + k] > box[3 + k])
                box[3 + k] = v[3 * i + k];
        }
    }
}

static int meet(const double *p, const double *q)
{
    int k;
    for (k = 0; k < 3; k++)
        if (p[k] > q[3 + k] || q[k] > p[3 + k])
            return 0;
    return 1;
}

static int push(struct xg_contacts *c, const struct xg_contact *x)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        struct xg_contact *v = realloc(c->v, cap * sizeof *v);
        if (!v)
            return 1;
        c->v = v;
        c->cap = cap;
    }
    c->v[c->n++] = *x;
    return 0;
}

struct expect {
    struct xg_contacts c;
    uint64_t a_skipped, b_skipped, bbox_pairs, a_in, b_in;
    uint64_t kinds[XG_KIND_COUNT];
};

static void brute(const struct xg_set *a, const struct xg_set *b,
                  struct expect *e)
{
    size_t i, j;
    char *bad_b = calloc(b->n + 1, 1);
    double *bb = malloc((b->n + 1) * 6 * sizeof(double));
    double hull[2][6];
    int have[2] = {0, 0}, k;
    memset(e, 0, sizeof *e);
    for (j = 0; j < b->n; j++) {
        bad_b[j] = (char)tri_degenerate(b->xyz + 9 * j);
        e->b_skipped += (uint64_t)bad_b[j];
        box_of(b->xyz + 9 * j, 3, bb + 6 * j);
    }
    for (i = 0; i < a->n; i++) {
        const double *s = a->xyz + 6 * i;
        double ab[6];
        if (seg_degenerate(s)) {
            e->a_skipped++;
            continue;
        }
        box_of(s, 2, ab);
        for (j = 0; j < b->n; j++) {
            struct xg_contact c;
            if (bad_b[j])
                continue;
            if (meet(ab, bb + 6 * j))
                e->bbox_pairs++;
            memset(&c, 0, sizeof c);
            if (xg_segtri_pair(NULL, s, b->xyz + 9 * j, &c)) {
                c.a = (uint32_t)i;
                c.b = (uint32_t)j;
                c.pad = 0;
                if (c.kind != XG_KIND_OVERLAP)
                    c.q[0] = c.q[1] = c.q[2] = 0.0;
                e->kinds[c.kind]++;
                if (push(&e->c, &c))
                    abort();
            }
        }
    }
    /* elements whose box meets the intersection of the two hulls: with
     * one cell, candidates = a_in * b_in */
    for (k = 0; k < 2; k++) {
        size_t nn = k ? b->n : a->n, q;
        for (q = 0; q < nn; q++) {
            double bx[6];
            int d;
            if (k ? bad_b[q] : seg_degenerate(a->xyz + 6 * q))
                continue;
            box_of(k ? b->xyz + 9 * q : a->xyz + 6 * q, k ? 3 : 2, bx);
            for (d = 0; d < 3; d++) {
                if (!have[k] || bx[d] < hull[k][d])
                    hull[k][d] = bx[d];
                if (!have[k] || bx[3 + d] > hull[k][3 + d])
                    hull[k][3 + d] = bx[3 + d];
            }
            have[k] = 1;
        }
    }
    if (have[0] && have[1]) {
        double reg[6];
        int d, empty = 0;
        for (d = 0; d < 3; d++) {
            reg[d] = fmax(hull[0][d], hull[1][d]);
            reg[3 + d] = fmin(hull[0][3 + d], hull[1][3 + d]);
            empty |= reg[d] > reg[3 + d];
        }
        for (k = 0; k < 2 && !empty; k++) {
            size_t nn = k ? b->n : a->n, q;
            for (q = 0; q < nn; q++) {
                double bx[6];
                if (k ? bad_b[q] : seg_degenerate(a->xyz + 6 * q))
                    continue;
                box_of(k ? b->xyz + 9 * q : a->xyz + 6 * q, k ? 3 : 2, bx);
                if (meet(bx, reg))
                    *(k ? &e->b_in : &e->a_in) += 1;
            }
        }
    }
    free(bad_b);
    free(bb);
}

/* ---- the engines against brute force ---- */

static struct tally t_same = {"engines = brute force (pairs, order, kinds, "
                              "bitwise points)", 0, 0};
static struct tally t_stats = {"stats add up (counts, skipped, bbox pairs, "
                               "candidates, kinds, grid)", 0, 0};
static struct tally t_rc = {"every run returns XG_OK", 0, 0};

static void run_all(const char *name, const struct xg_set *a,
                    const struct xg_set *b, const int *extra_grid)
{
    static const int grids[][3] = {{1, 1, 1}, {7, 7, 7}, {0, 0, 0},
                                   {64, 64, 64}, {3, 17, 5}, {1, 1, 40}};
    struct expect e;
    struct xg_ctx *ctx = xg_ctx_new();
    int gi, ei, ng = (int)(sizeof grids / sizeof grids[0]);
    brute(a, b, &e);
    printf("# %s: %zu segments, %zu triangles, %zu contacts (%llu proper, "
           "%llu touch, %llu coplanar), %llu box pairs\n", name, a->n, b->n,
           e.c.n, (unsigned long long)e.kinds[0],
           (unsigned long long)e.kinds[1], (unsigned long long)e.kinds[2],
           (unsigned long long)e.bbox_pairs);
    for (gi = 0; gi <= ng; gi++) {
        const int *gr = gi < ng ? grids[gi] : extra_grid;
        if (!gr)
            continue;
        /* engines: seq, then cpu on 1, 2, 3 threads */
        for (ei = 0; ei < 4; ei++) {
            struct xg_opts opt;
            struct xg_contacts out = {0};
            struct xg_stats st;
            size_t w = 0;
            int rc, k, th = ei == 0 ? 1 : ei;
            uint64_t sum = 0;
            memset(&opt, 0, sizeof opt);
            opt.engine = ei == 0 ? XG_ENGINE_SEQ : XG_ENGINE_CPU;
            memcpy(opt.grid, gr, sizeof opt.grid);
            xg_ctx_set_threads(ctx, th);
            rc = xg_segtri(ctx, a, b, &opt, &out, &st);
            CHECK(&t_rc, rc == XG_OK, "%s: %s", name, xg_ctx_errmsg(ctx));
            if (rc != XG_OK)
                continue;
            w = xg_contacts_diff(&out, &e.c);
            CHECK(&t_same, w == SIZE_MAX,
                  "%s, engine %s, %d threads, grid %dx%dx%d: %zu contacts, "
                  "brute force %zu; first difference at %zu (%u,%u)",
                  name, xg_engine_name(opt.engine), th, gr[0], gr[1], gr[2],
                  out.n, e.c.n, w, w < out.n ? out.v[w].a : 0,
                  w < out.n ? out.v[w].b : 0);
            for (k = 0; k < XG_KIND_COUNT; k++)
                sum += st.contacts[k] == e.kinds[k];
            CHECK(&t_stats,
                  st.engine == opt.engine && st.threads == th &&
                      st.a_count == a->n && st.b_count == b->n &&
                      st.a_skipped == e.a_skipped &&
                      st.b_skipped == e.b_skipped &&
                      /* seq evaluates every box pair; cpu's segments
                       * walk past those far from them */
                      (opt.engine == XG_ENGINE_SEQ
                           ? st.bbox_pairs == e.bbox_pairs
                           : st.bbox_pairs <= e.bbox_pairs &&
                                 st.bbox_pairs >= e.c.n) &&
                      st.candidates >= st.bbox_pairs &&
                      st.deferred <= st.bbox_pairs &&
                      sum == XG_KIND_COUNT &&
                      (gr[0] == 0 || (st.grid[0] == gr[0] &&
                                      st.grid[1] == gr[1] &&
                                      st.grid[2] == gr[2])) &&
                      (gr[0] != 1 || gr[1] != 1 || gr[2] != 1 ||
                       st.candidates == e.a_in * e.b_in) &&
                      st.grid_refs_a >= e.a_in && st.grid_refs_b >= e.b_in &&
                      /* a coplanar contact needs sD = sE = 0, which the
                       * fast pass leaves to the exact stage (it proves
                       * only the edges' zeros of axis-parallel
                       * segments: touches) */
                      st.deferred >= e.kinds[XG_KIND_OVERLAP] &&
                      st.cnt.predicates >= st.bbox_pairs,
                  "%s, %s, %d threads, grid %dx%dx%d: skipped %llu/%llu "
                  "(want %llu/%llu), bbox pairs %llu (want %llu), "
                  "candidates %llu (one cell: want %llu), grid %dx%dx%d",
                  name, xg_engine_name(opt.engine), th, gr[0], gr[1], gr[2],
                  (unsigned long long)st.a_skipped,
                  (unsigned long long)st.b_skipped,
                  (unsigned long long)e.a_skipped,
                  (unsigned long long)e.b_skipped,
                  (unsigned long long)st.bbox_pairs,
                  (unsigned long long)e.bbox_pairs,
                  (unsigned long long)st.candidates,
                  (unsigned long long)(e.a_in * e.b_in), st.grid[0],
                  st.grid[1], st.grid[2]);
            xg_contacts_free(&out);
        }
    }
    xg_contacts_free(&e.c);
    xg_ctx_free(ctx);
}

/* ---- sets ---- */

static void push_seg(struct xg_set *a, const double p[3], const double q[3])
{
    if (xg_set_push_segment(a, p, q, (int64_t)a->n + 100, 0) != XG_OK)
        abort();
}

static void push_tri(struct xg_set *b, const double *p, const double *q,
                     const double *r)
{
    if (xg_set_push_triangle(b, p, q, r, (int64_t)b->n + 1000, (int64_t)b->n % 7) !=
        XG_OK)
        abort();
}

static void random_set(struct xg_set *a, struct xg_set *b, int na, int nb,
                       double side, const double o[3])
{
    int i, k;
    for (i = 0; i < na; i++) {
        double p[3], q[3];
        for (k = 0; k < 3; k++) {
            p[k] = o[k] + rng_range(0.0, side);
            q[k] = p[k] + rng_range(-0.15, 0.15) * side;
        }
        push_seg(a, p, q);
    }
    for (i = 0; i < nb; i++) {
        double v[9];
        for (k = 0; k < 3; k++) {
            v[k] = o[k] + rng_range(0.0, side);
            v[3 + k] = v[k] + rng_range(-0.1, 0.1) * side;
            v[6 + k] = v[k] + rng_range(-0.1, 0.1) * side;
        }
        push_tri(b, v, v + 3, v + 6);
    }
}

/* A height-field mesh on a quarter-metre lattice at UTM coordinates,
 * flat in one corner, with vertical holes through its vertices and edge
 * midpoints, segments lying in its faces, zero-length segments and
 * collinear triangles (every value exact). */
static void mesh_set(struct xg_set *a, struct xg_set *b, int n)
{
    static const double o[3] = {500000.25, 7000000.5, 350.75};
    int i, j;
#define H(i, j) ((i) < n / 2 && (j) < n / 2 ? 0.0 : (double)(((i) * 7 + (j) * 3) % 5) * 0.25)
#define V(v, i, j) (v[0] = o[0] + (i) * 0.25, v[1] = o[1] + (j) * 0.25, v[2] = o[2] + H(i, j))
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            double p00[3], p10[3], p01[3], p11[3];
            V(p00, i, j);
            V(p10, i + 1, j);
            V(p01, i, j + 1);
            V(p11, i + 1, j + 1);
            push_tri(b, p00, p10, p11);
            push_tri(b, p00, p11, p01);
        }
    for (i = 0; i <= n; i += 2)
        for (j = 0; j <= n; j += 3) {
            double p[3], q[3];
            V(p, i, j);
            q[0] = p[0];
            q[1] = p[1];
            q[2] = p[2] - 3.0;
            p[2] += 2.0;
            push_seg(a, p, q);                  /* through a vertex */
            p[0] += 0.125;                      /* through an edge */
            q[0] += 0.125;
            push_seg(a, p, q);
            p[2] = o[2] + H(i, j);              /* endpoint on the mesh */
            p[0] -= 0.125;
            q[0] -= 0.125;
            if (i < n && j < n)
                push_seg(a, p, q);
        }
    /* in the flat corner: coplanar segments, along edges and across */
    for (i = 0; i + 3 < n / 2; i += 2) {
        double p[3], q[3];
        V(p, i, 0);
        V(q, i + 3, 2);
        push_seg(a, p, q);
        V(p, 0, i);
        V(q, n / 2, i);
        push_seg(a, p, q);
        V(q, 0, i);                             /* zero length */
        push_seg(a, q, q);
    }
    {
        double p[3], q[3], r[3];
        V(p, 0, 0);
        V(q, 2, 2);
        V(r, 4, 4);
        push_tri(b, p, q, r);                   /* collinear */
        push_tri(b, p, p, q);
        push_tri(b, p, p, p);
    }
#undef V
#undef H
}

/* Everything inside one tiny region: whatever the grid asks for, most
 * elements span every cell or share one. */
static void one_cell_set(struct xg_set *a, struct xg_set *b)
{
    static const double o[3] = {500000.25, 7000000.5, 350.75};
    random_set(a, b, 40, 60, 0x1p-20, o);
}

/* Unit cubes: segments and triangles whose boxes touch only on the
 * planes x, y, z = integer, which are cell boundaries of an 8x8x8 grid
 * over [0,8]^3. */
static void boundary_set(struct xg_set *a, struct xg_set *b)
{
    int i, j, k;
    double lo[3] = {0, 0, 0}, hi[3] = {8, 8, 8};
    push_seg(a, lo, hi);         /* fixes the region: the main diagonal */
    push_tri(b, lo, (double[]){8, 0, 0}, hi);
    for (i = 0; i < 8; i++)
        for (j = 0; j < 8; j += 2)
            for (k = 0; k < 8; k += 3) {
                double p[3] = {i, j + 0.5, k + 0.5}, q[3] = {i, j + 0.5, k + 1.0};
                double t0[3] = {i - 1.0 < 0 ? 0 : i - 1.0, j, k};
                double t1[3] = {i, j + 1.0, k + 1.0};
                double t2[3] = {i, j, k + 1.0};
                push_seg(a, p, q);               /* on the plane x = i */
                if (i > 0)
                    push_tri(b, t0, t1, t2);     /* box ends at x = i */
                p[0] = q[0] = i + 0.5;
                p[1] = j + 1.0;                  /* touches y = j + 1 */
                q[1] = j + 2.0;
                push_seg(a, p, q);
            }
}

/* ---- dump files ---- */

static int write_bytes(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    int okw;
    if (!f)
        return 0;
    okw = fwrite(p, 1, n, f) == n;
    return fclose(f) == 0 && okw;
}

/* Round trip and damage of a dump of a and b, in the format their kinds
 * call for, whose marker is want_marker. */
static void dump_tests(const struct xg_set *a, const struct xg_set *b,
                       const char *want_marker)
{
    size_t pa = (size_t)xg_elem_doubles(a->elem),
           pb = (size_t)xg_elem_doubles(b->elem);
    char path[] = "/tmp/xg_grid_t_XXXXXX";
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_set ra = {0};
    struct xg_set rb = {0};
    int fd = mkstemp(path), rc;
    char *buf;
    long size;
    FILE *f;

    if (fd < 0) {
        ok(0, "cannot make a temporary file");
        return;
    }
    close(fd);
    rc = xg_dump_write(ctx, path, a, b);
    ok(rc == XG_OK, "dump: write %zu %ss and %zu %ss", a->n,
       xg_elem_name(a->elem), b->n, xg_elem_name(b->elem));
    f = fopen(path, "rb");
    {
        char m[9] = "";
        ok(f && fread(m, 1, 8, f) == 8 && strcmp(m, want_marker) == 0,
           "dump: marker %s", want_marker);
    }
    if (f)
        fclose(f);
    rc = xg_dump_read(ctx, path, &ra, &rb);
    ok(rc == XG_OK && ra.n == a->n && rb.n == b->n && ra.elem == a->elem &&
           rb.elem == b->elem &&
           memcmp(ra.xyz, a->xyz, pa * a->n * sizeof(double)) == 0 &&
           memcmp(ra.fid, a->fid, a->n * sizeof(int64_t)) == 0 &&
           memcmp(ra.sub, a->sub, a->n * sizeof(int64_t)) == 0 &&
           memcmp(rb.xyz, b->xyz, pb * b->n * sizeof(double)) == 0 &&
           memcmp(rb.fid, b->fid, b->n * sizeof(int64_t)) == 0 &&
           memcmp(rb.sub, b->sub, b->n * sizeof(int64_t)) == 0,
       "dump: read back bitwise equal (coordinates, fids, subs)");
    xg_set_free(&ra);
    xg_set_free(&rb);

    /* the whole file, then cut short at several places */
    f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    rewind(f);
    buf = malloc((size_t)size);
    if (fread(buf, 1, (size_t)size, f) != (size_t)size)
        size = 0;
    fclose(f);
    {
        long cuts[] = {0, 5, 8, 20, 31, 32, size / 2, size - 1};
        int i, all = 1;
        for (i = 0; i < 8; i++) {
            struct xg_set ta = {0};
            struct xg_set tb = {0};
            write_bytes(path, buf, (size_t)cuts[i]);
            rc = xg_dump_read(ctx, path, &ta, &tb);
            if (rc != XG_EFORMAT || ta.xyz || tb.xyz) {
                printf("# cut at %ld: %s\n", cuts[i], xg_strerror(rc));
                all = 0;
            }
        }
        ok(all, "dump: a truncated file gives XG_EFORMAT and no arrays");
    }
    {
        /* a valid header that claims 2^32 - 1 segments: must be refused
         * as malformed, not answered with a 200 GB allocation */
        struct xg_set ta = {0};
        struct xg_set tb = {0};
        uint64_t big = UINT32_MAX;
        memcpy(buf + 16, &big, sizeof big);
        write_bytes(path, buf, (size_t)size);
        rc = xg_dump_read(ctx, path, &ta, &tb);
        ok(rc == XG_EFORMAT, "dump: counts larger than the file give "
           "XG_EFORMAT (%s: %s)", xg_strerror(rc), xg_ctx_errmsg(ctx));
        xg_set_free(&ta);
        xg_set_free(&tb);
    }
    {
        struct xg_set ta = {0};
        struct xg_set tb = {0};
        long i;
        for (i = 0; i < size; i++)
            buf[i] = (char)rng_u64();
        write_bytes(path, buf, (size_t)size);
        rc = xg_dump_read(ctx, path, &ta, &tb);
        ok(rc == XG_EFORMAT && strstr(xg_ctx_errmsg(ctx), path) != NULL,
           "dump: garbage gives XG_EFORMAT, the message names the file");
        memcpy(buf, want_marker, 8);
        buf[8] = 0;                             /* byte-order marker wrong */
        write_bytes(path, buf, (size_t)size);
        rc = xg_dump_read(ctx, path, &ta, &tb);
        ok(rc == XG_EFORMAT, "dump: the right magic with a wrong byte-order "
           "marker gives XG_EFORMAT");
    }
    remove(path);
    {
        struct xg_set ta = {0};
        struct xg_set tb = {0};
        rc = xg_dump_read(ctx, path, &ta, &tb);
        ok(rc == XG_EIO, "dump: a missing file gives XG_EIO");
        rc = xg_dump_write(ctx, "/nonexistent-dir/x.xgd", a, b);
        ok(rc == XG_EIO, "dump: an unwritable path gives XG_EIO");
    }
    free(buf);
    xg_ctx_free(ctx);
}

int main(void)
{
    struct xg_set a = {0}, e_a = {0};
    struct xg_set b = {0}, e_b = {0};
    static const int g8[3] = {8, 8, 8};
    double o[3] = {0, 0, 0};

    rng_seed_from_env(64);

    random_set(&a, &b, 300, 500, 10.0, o);
    run_all("random", &a, &b, NULL);
    dump_tests(&a, &b, "XGDUMP01");
    {
        /* inside's format: A points (the first ends of the segments,
         * MultiPoint indices in sub), B the same triangles */
        struct xg_set pts = {0};
        size_t i;
        for (i = 0; i < a.n; i++)
            xg_set_push_point(&pts, a.xyz + 6 * i, a.fid[i], (int64_t)(i % 3));
        dump_tests(&pts, &b, "XGDUMP3P");
        xg_set_free(&pts);
    }
    xg_set_free(&a);
    xg_set_free(&b);

    mesh_set(&a, &b, 16);
    run_all("UTM lattice mesh", &a, &b, NULL);
    ok(a.n > 0, "mesh set built");
    xg_set_free(&a);
    xg_set_free(&b);

    one_cell_set(&a, &b);
    run_all("all in one tiny region", &a, &b, NULL);
    xg_set_free(&a);
    xg_set_free(&b);

    boundary_set(&a, &b);
    run_all("boxes touching at cell boundaries", &a, &b, g8);
    xg_set_free(&a);
    xg_set_free(&b);

    /* empty and all-degenerate sets */
    random_set(&a, &b, 20, 20, 1.0, o);
    run_all("A empty", &e_a, &b, NULL);
    run_all("B empty", &a, &e_b, NULL);
    run_all("both empty", &e_a, &e_b, NULL);
    {
        double p[3] = {1, 2, 3}, q[3] = {2, 4, 6}, r[3] = {3, 6, 9};
        struct xg_set da = {0};
        struct xg_set db = {0};
        push_seg(&da, p, p);
        push_tri(&db, p, q, r);
        run_all("only degenerate elements", &da, &db, NULL);
        run_all("degenerate A, random B", &da, &b, NULL);
        xg_set_free(&da);
        xg_set_free(&db);
    }
    xg_set_free(&a);
    xg_set_free(&b);

    tally_ok(&t_rc);
    tally_ok(&t_same);
    tally_ok(&t_stats);
    return tap_done(), tap_exit();
}
