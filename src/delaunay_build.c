/*
 * delaunay_build.c -- one Delaunay triangulation by incremental insertion
 * with flips (xg__dt_build), and the exact conflict tests every engine
 * shares (xg_delaunay.h).
 *
 * Order: points go in by rounds of a biased randomized insertion order
 * (a point's round from a hash of its set index, each round about twice
 * the one before), each round along a Hilbert curve, so that a walk from
 * the last insertion is short and no adversarial input order makes the
 * flips quadratic.  The order changes only the time, never the result:
 * with the perturbation the triangulation is unique.
 */
#include <stdlib.h>
#include <string.h>
#include "xg_delaunay.h"
#include "xg_filters.h"

int xg__dt_incircle(struct xg_counters *cnt, const double *a,
                    const double *b, const double *c, const double *p)
{
    const double *pt[4], *q[3];
    int order[4], i, s = xg_incircle(cnt, a, b, c, p);
    if (s != XG_ZERO)
        return s;
    pt[0] = a; pt[1] = b; pt[2] = c; pt[3] = p;
    xg__lex_desc4(a, b, c, p, order);
    for (i = 0; i < 4; i++) {
        int sg = xg__tie_term(pt, order[i], q);
        int o = xg_orient2d(cnt, q[0], q[1], q[2]);
        if (o != XG_ZERO)
            return sg * o;
    }
    return XG_ZERO;
}

/* p strictly between a and b, given the three collinear and distinct. */
static int strictly_between(const double *a, const double *b, const double *p)
{
    int ax = a[0] != b[0];  /* compare along x unless the line is vertical */
    double lo = ax ? a[0] : a[1], hi = ax ? b[0] : b[1];
    double t = ax ? p[0] : p[1];
    if (lo > hi) {
        double s = lo;
        lo = hi;
        hi = s;
    }
    return lo < t && t < hi;
}

int xg__dt_ghost_conflict(struct xg_counters *cnt, const double *a,
                          const double *b, const double *p)
{
    int o = xg_orient2d(cnt, a, b, p);
    return o > 0 || (o == 0 && strictly_between(a, b, p));
}

/* ---------------------------------------------------------------- */
/* Insertion order. */

static uint32_t hilbert_d(uint32_t x, uint32_t y)   /* 16-bit x, y */
{
    uint32_t d = 0, s;
    for (s = 1u << 15; s > 0; s >>= 1) {
        uint32_t rx = (x & s) > 0, ry = (y & s) > 0;
        d += s * s * ((3 * rx) ^ ry);
        if (ry == 0) {
            if (rx == 1) {
                x = s - 1 - x;
                y = s - 1 - y;
            }
            uint32_t t = x;
            x = y;
            y = t;
        }
    }
    return d;
}

static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int xg__radix_sort64(uint64_t *key, uint32_t *val, size_t n, int bits)
{
    uint64_t *k2 = malloc(n * sizeof *k2);
    uint32_t *v2 = malloc(n * sizeof *v2);
    int shift;
    if (!k2 || !v2) {
        free(k2);
        free(v2);
        return XG_ENOMEM;
    }
    for (shift = 0; shift < bits; shift += 11) {
        size_t cnt[2048] = {0}, i, sum = 0;
        for (i = 0; i < n; i++)
            cnt[(key[i] >> shift) & 2047]++;
        for (i = 0; i < 2048; i++) {
            size_t c = cnt[i];
            cnt[i] = sum;
            sum += c;
        }
        for (i = 0; i < n; i++) {
            size_t d = cnt[(key[i] >> shift) & 2047]++;
            k2[d] = key[i];
            v2[d] = val[i];
        }
        memcpy(key, k2, n * sizeof *key);
        memcpy(val, v2, n * sizeof *val);
    }
    free(k2);
    free(v2);
    return XG_OK;
}

/* order[k]: the job index inserted k-th. */
static int insertion_order(const struct xg__dt_job *job, uint32_t *order)
{
    const double *xyz = job->pts->xyz;
    size_t n = job->n, k;
    double lo[2] = {xyz[3 * (size_t)job->gid[0]],
                    xyz[3 * (size_t)job->gid[0] + 1]};
    double hi[2] = {lo[0], lo[1]}, sx, sy;
    uint64_t *key;
    int rc;
    for (k = 1; k < n; k++) {
        const double *p = xyz + 3 * (size_t)job->gid[k];
        lo[0] = p[0] < lo[0] ? p[0] : lo[0];
        hi[0] = p[0] > hi[0] ? p[0] : hi[0];
        lo[1] = p[1] < lo[1] ? p[1] : lo[1];
        hi[1] = p[1] > hi[1] ? p[1] : hi[1];
    }
    /* one scale for both axes: a long thin strip keeps square cells */
    sx = hi[0] - lo[0] > hi[1] - lo[1] ? hi[0] - lo[0] : hi[1] - lo[1];
    sx = sx > 0 ? 65535.0 / sx : 0;
    sy = sx;
    key = malloc(n * sizeof *key);
    if (!key)
        return XG_ENOMEM;
    for (k = 0; k < n; k++) {
        const double *p = xyz + 3 * (size_t)job->gid[k];
        double fx = (p[0] - lo[0]) * sx, fy = (p[1] - lo[1]) * sy;
        uint32_t qx = fx >= 0 && fx <= 65535 ? (uint32_t)fx : 0;
        uint32_t qy = fy >= 0 && fy <= 65535 ? (uint32_t)fy : 0;
        /* rounds: the round of a point is 20 minus the trailing zeros of
         * its hash, so round r holds about 2^(r-20) of the points */
        uint64_t h = mix64(job->gid[k]) | (1ull << 20);
        uint64_t round = 20 - (uint64_t)__builtin_ctzll(h);
        key[k] = round << 32 | hilbert_d(qx, qy);
        order[k] = (uint32_t)k;
    }
    rc = xg__radix_sort64(key, order, n, 37);
    free(key);
    return rc;
}

/* ---------------------------------------------------------------- */
/* The triangulation. */

struct builder {
    struct xg__dt *dt;
    const double *xy;        /* local points, 2 doubles, insertion order */
    struct xg_counters *cnt;
    uint32_t *stack;         /* triangles whose vertex 0 is the new point */
    size_t nstack, capstack;
    uint32_t last;           /* a real triangle to start walks from */
};

#define TRI(u) ((u) >> 2)
#define IDX(u) ((u)&3)

static void link2(struct xg__dt *dt, uint32_t t, int i, uint32_t u, int j)
{
    dt->adj[t][i] = 4 * u + (uint32_t)j;
    dt->adj[u][j] = 4 * t + (uint32_t)i;
}

/* Sets adj[t][i] to the outside neighbour ref (4 u + j) and its back link. */
static void link_ref(struct xg__dt *dt, uint32_t t, int i, uint32_t ref)
{
    dt->adj[t][i] = ref;
    dt->adj[TRI(ref)][IDX(ref)] = 4 * t + (uint32_t)i;
}

static void set_tri(struct xg__dt *dt, uint32_t t, uint32_t a, uint32_t b,
                    uint32_t c)
{
    dt->v[t][0] = a;
    dt->v[t][1] = b;
    dt->v[t][2] = c;
}

static int is_ghost(const struct xg__dt *dt, uint32_t t)
{
    return dt->v[t][0] == XG_DT_GHOST || dt->v[t][1] == XG_DT_GHOST ||
           dt->v[t][2] == XG_DT_GHOST;
}

static int push(struct builder *B, uint32_t t)
{
    if (B->nstack == B->capstack &&
        xg__grow((void **)&B->stack, &B->capstack, B->nstack + 1,
                 sizeof *B->stack))
        return XG_ENOMEM;
    B->stack[B->nstack++] = t;
    return XG_OK;
}

#define P(k) (B->xy + 2 * (size_t)(k))

/* Whether p conflicts with triangle u (a ghost or not). */
static int conflicts(struct builder *B, uint32_t u, const double *p)
{
    const uint32_t *v = B->dt->v[u];
    int g;
    for (g = 0; g < 3; g++)
        if (v[g] == XG_DT_GHOST)
            return xg__dt_ghost_conflict(B->cnt, P(v[(g + 1) % 3]),
                                         P(v[(g + 2) % 3]), p);
    return xg__dt_incircle(B->cnt, P(v[0]), P(v[1]), P(v[2]), p) > 0;
}

/* Flips until every triangle on the stack (vertex 0 the new point p) is
 * locally Delaunay with its far neighbour. */
static int legalize(struct builder *B, uint32_t pk)
{
    struct xg__dt *dt = B->dt;
    const double *p = P(pk);
    while (B->nstack) {
        uint32_t t = B->stack[--B->nstack];
        uint32_t ref = dt->adj[t][0], u = TRI(ref);
        int j = (int)IDX(ref), j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        uint32_t x = dt->v[t][1], y = dt->v[t][2], w = dt->v[u][j];
        uint32_t A1, A2, B1, B2;
        /* a hull edge seen from inside never flips */
        if (w == XG_DT_GHOST && x != XG_DT_GHOST && y != XG_DT_GHOST)
            continue;
        if (!conflicts(B, u, p))
            continue;
        A1 = dt->adj[t][1];
        A2 = dt->adj[t][2];
        B1 = dt->adj[u][j1];
        B2 = dt->adj[u][j2];
        /* (p, x, y) + (w, y, x) -> (p, x, w) + (p, w, y) */
        set_tri(dt, t, pk, x, w);
        set_tri(dt, u, pk, w, y);
        link_ref(dt, t, 0, B1);
        link2(dt, t, 1, u, 2);
        link_ref(dt, t, 2, A2);
        link_ref(dt, u, 0, B2);
        link_ref(dt, u, 1, A1);
        if (push(B, t) || push(B, u))
            return XG_ENOMEM;
    }
    return XG_OK;
}

static uint32_t new_tri(struct xg__dt *dt)
{
    return (uint32_t)dt->ntri++;
}

/* Where p lies: *t the triangle, *where 3 inside (or beyond a ghost's
 * edge), 0..2 on the edge opposite that vertex, 4 + i on vertex i. */
static void locate(struct builder *B, const double *p, uint32_t *tout,
                   int *where)
{
    struct xg__dt *dt = B->dt;
    uint32_t t = B->last;
    unsigned spin = 0;
    int g, came = -1;   /* the edge the walk came in by: p is strictly
                           inside it, no need to ask again */
    /* start from a real triangle: a slot remembered may have become a
     * ghost by a later flip */
    for (g = 0; g < 3; g++)
        if (dt->v[t][g] == XG_DT_GHOST)
            t = TRI(dt->adj[t][g]);
    for (;;) {
        const uint32_t *v = dt->v[t];
        int k, zero = -1, nzero = 0, moved = 0;
        if (v[0] == XG_DT_GHOST || v[1] == XG_DT_GHOST ||
            v[2] == XG_DT_GHOST) {
            *tout = t;
            *where = 3;
            return;
        }
        spin++;
        for (k = 0; k < 3; k++) {
            int e = (int)((k + spin) % 3), o;
            if (e == came)
                continue;
            o = xg_orient2d(B->cnt, P(v[(e + 1) % 3]), P(v[(e + 2) % 3]), p);
            if (o < 0) {
                came = (int)IDX(dt->adj[t][e]);
                t = TRI(dt->adj[t][e]);
                moved = 1;
                break;
            }
            if (o == 0) {
                nzero++;
                zero = e;
            }
        }
        if (moved)
            continue;
        *tout = t;
        if (nzero == 0)
            *where = 3;
        else if (nzero == 1)
            *where = zero;
        else {
            /* two edges through p: p is their common vertex, the one not
             * opposite either, i.e. the vertex whose two edges vanish */
            int i;
            for (i = 0; i < 3; i++) {
                int o1 = xg_orient2d(B->cnt, P(v[i]), P(v[(i + 1) % 3]), p);
                int o2 = xg_orient2d(B->cnt, P(v[(i + 2) % 3]), P(v[i]), p);
                if (o1 == 0 && o2 == 0)
                    break;
            }
            *where = 4 + i;
        }
        return;
    }
}

/* Splits t (vertex 0 moved to where the loop wants) around pk: 1 -> 3. */
static int split3(struct builder *B, uint32_t t, uint32_t pk)
{
    struct xg__dt *dt = B->dt;
    uint32_t a = dt->v[t][0], b = dt->v[t][1], c = dt->v[t][2];
    uint32_t na = dt->adj[t][0], nb = dt->adj[t][1], nc = dt->adj[t][2];
    uint32_t t1 = new_tri(dt), t2 = new_tri(dt);
    set_tri(dt, t, pk, b, c);
    set_tri(dt, t1, pk, c, a);
    set_tri(dt, t2, pk, a, b);
    link_ref(dt, t, 0, na);
    link_ref(dt, t1, 0, nb);
    link_ref(dt, t2, 0, nc);
    link2(dt, t, 1, t1, 2);
    link2(dt, t, 2, t2, 1);
    link2(dt, t1, 1, t2, 2);
    if (push(B, t) || push(B, t1) || push(B, t2))
        return XG_ENOMEM;
    return XG_OK;
}

/* pk on the edge of real triangle t opposite its vertex e: 2 -> 4. */
static int split4(struct builder *B, uint32_t t, int e, uint32_t pk)
{
    struct xg__dt *dt = B->dt;
    uint32_t c = dt->v[t][e], a = dt->v[t][(e + 1) % 3],
             b = dt->v[t][(e + 2) % 3];
    uint32_t ref = dt->adj[t][e], n = TRI(ref);
    int j = (int)IDX(ref);
    uint32_t d = dt->v[n][j];
    uint32_t Ebc = dt->adj[t][(e + 1) % 3], Eca = dt->adj[t][(e + 2) % 3];
    uint32_t Ead = dt->adj[n][(j + 1) % 3], Edb = dt->adj[n][(j + 2) % 3];
    uint32_t t1 = new_tri(dt), t3 = new_tri(dt);
    set_tri(dt, t, pk, b, c);
    set_tri(dt, t1, pk, c, a);
    set_tri(dt, n, pk, a, d);
    set_tri(dt, t3, pk, d, b);
    link_ref(dt, t, 0, Ebc);
    link_ref(dt, t1, 0, Eca);
    link_ref(dt, n, 0, Ead);
    link_ref(dt, t3, 0, Edb);
    link2(dt, t, 1, t1, 2);
    link2(dt, t, 2, t3, 1);
    link2(dt, t1, 1, n, 2);
    link2(dt, n, 1, t3, 2);
    if (push(B, t) || push(B, t1) || push(B, n) || push(B, t3))
        return XG_ENOMEM;
    return XG_OK;
}

/* Rotates t so that its vertex i comes first (adjacency follows). */
static void rotate_to(struct xg__dt *dt, uint32_t t, int i)
{
    uint32_t v[3], a[3];
    int k;
    if (i == 0)
        return;
    for (k = 0; k < 3; k++) {
        v[k] = dt->v[t][(k + i) % 3];
        a[k] = dt->adj[t][(k + i) % 3];
    }
    for (k = 0; k < 3; k++) {
        dt->v[t][k] = v[k];
        link_ref(dt, t, k, a[k]);
    }
}

/* The first real triangle with vertex 0 the new point, for the next walk. */
static void remember(struct builder *B, uint32_t t0, uint32_t pk)
{
    struct xg__dt *dt = B->dt;
    uint32_t t = t0;
    int guard = 0;
    /* walk around pk until a real triangle; pk is vertex 0 of t0 */
    while (is_ghost(dt, t) && guard++ < 4) {
        int i;
        for (i = 0; i < 3 && dt->v[t][i] != pk; i++)
            ;
        t = TRI(dt->adj[t][(i + 1) % 3]);
    }
    if (!is_ghost(dt, t))
        B->last = t;
}

/* job->tri: the real triangles of job->dt as set indices (dt_gid). */
static int emit(struct xg__dt_job *job)
{
    const struct xg__dt *dt = &job->dt;
    size_t nt = 0, t;
    free(job->tri);
    job->tri = malloc((dt->ntri ? dt->ntri : 1) * sizeof *job->tri);
    if (!job->tri)
        return XG_ENOMEM;
    for (t = 0; t < dt->ntri; t++) {
        if (is_ghost(dt, (uint32_t)t))
            continue;
        job->tri[nt][0] = job->dt_gid[dt->v[t][0]];
        job->tri[nt][1] = job->dt_gid[dt->v[t][1]];
        job->tri[nt][2] = job->dt_gid[dt->v[t][2]];
        nt++;
    }
    job->ntri = nt;
    return XG_OK;
}

/* Inserts point k where locate found it (where < 4: not on a vertex):
 * the split, the flips, the next walk's start. */
static int insert_at(struct builder *B, uint32_t t, int where, uint32_t k)
{
    struct xg__dt *dt = B->dt;
    int rc;
    if (where == 3) {
        /* inside a real triangle, or beyond a ghost's edge: rotate a
         * ghost (a, b, G) to have G last, so that split3 makes (p, a, b)
         * the real one */
        int g;
        for (g = 0; g < 3 && dt->v[t][g] != XG_DT_GHOST; g++)
            ;
        if (g < 3)
            rotate_to(dt, t, (g + 1) % 3);
        rc = split3(B, t, k);
    } else
        rc = split4(B, t, where, k);
    if (rc != XG_OK || (rc = legalize(B, k)) != XG_OK)
        return rc;
    remember(B, t, k);
    return XG_OK;
}

int xg__dt_build(struct xg__dt_job *job)
{
    size_t n = job->n, k, i1 = 0, i2 = 0;
    uint32_t *order = NULL, *keep_of = NULL, *merged_into = NULL;
    double *xy = NULL;
    struct xg__dt *dt = &job->dt;
    struct builder B;
    int rc = XG_ENOMEM, o;
    const double *xyz = job->pts->xyz;
    const int64_t *fid = job->pts->fid;

    memset(&B, 0, sizeof B);
    memset(dt, 0, sizeof *dt);
    job->tri = NULL;
    job->ntri = 0;
    if (n < 3)
        return XG_EDEGENERATE;
    order = malloc(n * sizeof *order);
    xy = malloc(2 * n * sizeof *xy);
    keep_of = malloc(n * sizeof *keep_of);  /* local -> job index kept */
    dt->cap = 2 * n + 8;
    dt->v = malloc(dt->cap * sizeof *dt->v);
    dt->adj = malloc(dt->cap * sizeof *dt->adj);
    if (job->want_merges) {
        job->merged = calloc(n, 1);
        job->z_differ = calloc(n, 1);
        merged_into = malloc(n * sizeof *merged_into);
        if (!job->merged || !job->z_differ || !merged_into)
            goto out;
    }
    if (!order || !xy || !keep_of || !dt->v || !dt->adj)
        goto out;
    if ((rc = insertion_order(job, order)) != XG_OK)
        goto out;
    for (k = 0; k < n; k++) {
        const double *p = xyz + 3 * (size_t)job->gid[order[k]];
        xy[2 * k] = p[0];
        xy[2 * k + 1] = p[1];
        keep_of[k] = order[k];
    }
    B.dt = dt;
    B.xy = xy;
    B.cnt = &job->cnt;

    /* the first triangle: local 0, the first point apart from it, the
     * first point off their line */
    for (k = 1; k < n && !i1; k++)
        if (xy[2 * k] != xy[0] || xy[2 * k + 1] != xy[1])
            i1 = k;
    for (k = i1 + 1; i1 && k < n && !i2; k++)
        if (xg_orient2d(B.cnt, xy, xy + 2 * i1, xy + 2 * k) != 0)
            i2 = k;
    if (!i2) {
        rc = XG_EDEGENERATE;
        goto out;
    }
    o = xg_orient2d(B.cnt, xy, xy + 2 * i1, xy + 2 * i2);
    {
        uint32_t p0 = 0, p1 = (uint32_t)(o > 0 ? i1 : i2),
                 p2 = (uint32_t)(o > 0 ? i2 : i1);
        set_tri(dt, 0, p0, p1, p2);
        set_tri(dt, 1, p1, p0, XG_DT_GHOST);
        set_tri(dt, 2, p2, p1, XG_DT_GHOST);
        set_tri(dt, 3, p0, p2, XG_DT_GHOST);
        dt->ntri = 4;
        link2(dt, 0, 0, 2, 2);
        link2(dt, 0, 1, 3, 2);
        link2(dt, 0, 2, 1, 2);
        link2(dt, 1, 0, 3, 1);
        link2(dt, 1, 1, 2, 0);
        link2(dt, 2, 1, 3, 0);
        B.last = 0;
    }

    for (k = 1; k < n; k++) {
        uint32_t t;
        int where;
        if (k == i1 || k == i2)
            continue;
        locate(&B, xy + 2 * k, &t, &where);
        if (where >= 4) {
            /* the same (x, y) as vertex m: keep the lower (fid, index) */
            uint32_t m = dt->v[t][where - 4];
            uint32_t gk = job->gid[keep_of[k]], gm = job->gid[keep_of[m]];
            int k_first = fid[gk] < fid[gm] || (fid[gk] == fid[gm] && gk < gm);
            if (job->want_merges) {
                uint32_t loser = k_first ? keep_of[m] : keep_of[k];
                job->merged[loser] = 1;
                merged_into[loser] = m;
            }
            if (k_first)
                keep_of[m] = keep_of[k];
            continue;
        }
        if ((rc = insert_at(&B, t, where, (uint32_t)k)) != XG_OK)
            goto out;
    }

    /* the local points' set indices (a merged copy's keeper), then the
     * real triangles as set indices */
    rc = XG_ENOMEM;
    job->dt_gid = malloc(n * sizeof *job->dt_gid);
    if (!job->dt_gid)
        goto out;
    for (k = 0; k < n; k++)
        job->dt_gid[k] = job->gid[keep_of[k]];
    if ((rc = emit(job)) != XG_OK)
        goto out;
    if (job->want_merges) {
        /* a merged point's z against its vertex's final keeper */
        for (k = 0; k < n; k++)
            if (job->merged[k]) {
                uint32_t keeper = job->gid[keep_of[merged_into[k]]];
                job->z_differ[k] = xyz[3 * (size_t)job->gid[k] + 2] !=
                                   xyz[3 * (size_t)keeper + 2];
            }
    }
    rc = XG_OK;
out:
    if (rc == XG_OK && job->want_dt) {
        job->dt_n = n;
        job->dt_xy = xy;
        xy = NULL;
    }
    if (rc != XG_OK || !job->want_dt) {
        free(dt->v);
        free(dt->adj);
        memset(dt, 0, sizeof *dt);
        free(job->dt_gid);
        job->dt_gid = NULL;
    }
    free(order);
    free(xy);
    free(keep_of);
    free(merged_into);
    free(B.stack);
    return rc;
}

void xg__dt_job_free(struct xg__dt_job *job)
{
    free(job->tri);
    free(job->merged);
    free(job->z_differ);
    free(job->dt.v);
    free(job->dt.adj);
    free(job->dt_gid);
    free(job->dt_xy);
    job->tri = NULL;
    job->merged = job->z_differ = NULL;
    job->dt_gid = NULL;
    job->dt_xy = NULL;
    memset(&job->dt, 0, sizeof job->dt);
}

int xg__dt_insert_more(struct xg__dt_job *job, const uint32_t *more,
                       size_t nmore)
{
    struct xg__dt *dt = &job->dt;
    struct builder B;
    size_t n0 = job->dt_n, n = n0 + nmore, i;
    const double *xyz = job->pts->xyz;
    const int64_t *fid = job->pts->fid;
    int rc = XG_ENOMEM;
    void *p;

    memset(&B, 0, sizeof B);
    if (!(p = realloc(job->dt_xy, 2 * n * sizeof *job->dt_xy)))
        return XG_ENOMEM;
    job->dt_xy = p;
    if (!(p = realloc(job->dt_gid, n * sizeof *job->dt_gid)))
        return XG_ENOMEM;
    job->dt_gid = p;
    if (dt->cap < 2 * n + 8) {
        dt->cap = 2 * n + 8;
        if (!(p = realloc(dt->v, dt->cap * sizeof *dt->v)))
            return XG_ENOMEM;
        dt->v = p;
        if (!(p = realloc(dt->adj, dt->cap * sizeof *dt->adj)))
            return XG_ENOMEM;
        dt->adj = p;
    }
    B.dt = dt;
    B.xy = job->dt_xy;
    B.cnt = &job->cnt;
    B.last = 0;
    for (i = 0; i < nmore; i++) {
        uint32_t k = (uint32_t)(n0 + i), tr, g = more[i];
        int where;
        job->dt_xy[2 * (size_t)k] = xyz[3 * (size_t)g];
        job->dt_xy[2 * (size_t)k + 1] = xyz[3 * (size_t)g + 1];
        job->dt_gid[k] = g;
        locate(&B, job->dt_xy + 2 * (size_t)k, &tr, &where);
        if (where >= 4) {
            /* a copy of a vertex: the merge rule picks the keeper */
            uint32_t m = dt->v[tr][where - 4], gm = job->dt_gid[m];
            if (fid[g] < fid[gm] || (fid[g] == fid[gm] && g < gm))
                job->dt_gid[m] = g;
            continue;
        }
        if ((rc = insert_at(&B, tr, where, k)) != XG_OK)
            goto out;
    }
    job->dt_n = n;
    if ((rc = emit(job)) != XG_OK)
        goto out;
    rc = XG_OK;
out:
    free(B.stack);
    return rc;
}
