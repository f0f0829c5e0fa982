/*
 * delaunay_core.cuh -- the GPU Delaunay engine's steps (delaunay_gpu.cu),
 * written once for the device and for a host emulation (XG_DT_EMUL: each
 * "kernel" a loop over its threads, which tests the logic on a machine
 * without a GPU; tests/dt_emul.cpp).
 *
 * The method (the seed, gDel2D-like: parallel insertion, parallel
 * flipping), over local vertex numbers 0 .. m-1 (the distinct points,
 * lexicographically sorted) and the conventions of src/xg_delaunay.h
 * (ghost triangles with XG_DT_GHOST, counter-clockwise real triangles,
 * adj = 4 u + j):
 *
 *   0. The convex hull's corners (host, exactly) are triangulated as a fan
 *      and closed with a ghost per hull edge.  Every other point then lies
 *      in the closed hull: inside a real triangle, or on one of its edges
 *      (a hull edge included).  So no step ever inserts a point into a
 *      ghost, the hull never changes shape, and no edge with a ghost on
 *      either side is ever flipped (a hull edge split at a collinear point
 *      leaves two ghosts whose far vertices are collinear with the shared
 *      one: the ghost conflict rule says no flip).
 *   1. Location: each uninserted point walks (visibility walk) from the
 *      triangle it lay in to the one that holds it now, only when that
 *      triangle changed since its last walk.  Not brute force: the walk
 *      follows the neighbours.  The visibility walk terminates in a
 *      Delaunay triangulation (Edelsbrunner), which is what the
 *      triangulation is whenever the points walk (after the flips).
 *   2. Insertion: each triangle with points takes one (the smallest hash
 *      of the point number wins an atomicMin on the triangle: the same
 *      choice on every run); a point on an edge needs both triangles of
 *      the edge.  Splits 1 -> 3 and 2 -> 4, in parallel: each touches
 *      only the triangles it won.
 *   3. Flipping (Lawson), in rounds: every edge of a triangle changed in
 *      the last round is tested (the perturbed in-circle test of
 *      xg__dt_incircle: the far vertex conflicts with the near triangle);
 *      each conflicting edge claims its two triangles (atomicMin of the
 *      edge number), and the edges that won both flip.  The losers are
 *      tested again in the next round.  Terminates: with exact, consistent
 *      predicates of the lifted, perturbed points, each flip replaces two
 *      triangles by two strictly lower ones on the lifted surface, so no
 *      triangulation comes back and there are finitely many.  It ends when
 *      no edge conflicts: every edge locally Delaunay with the hull fixed,
 *      which (the Delaunay lemma, for the lifted perturbed points) is the
 *      one Delaunay triangulation.
 *   Every sign comes from the interval filters (xg_filters.h); a sign the
 *   interval does not certify is queued, decided exactly on the host
 *   (xg_orient2d, and the perturbed in-circle), and sent back before the
 *   step goes on.  Nothing is decided in floating point beyond what an
 *   interval certifies.
 *
 * Adjacency writes between concurrent changes go through two phases: a
 * step writes its triangles, with each edge it took over from an old
 * triangle marked stale (bit 31: the old (triangle, slot)), and records
 * where each old edge now lies (newloc); the fix-up then resolves the
 * stale references, and writes the back reference into an unchanged
 * neighbour (the one writer of that entry).
 */
#ifndef XG_DELAUNAY_CORE_CUH
#define XG_DELAUNAY_CORE_CUH

#include <stdint.h>
#include "xg_filter_orient.h"

#define DT_G 0xFFFFFFFFu            /* XG_DT_GHOST */
#define DT_STALE 0x80000000u
#define DT_NONE 0xFFFFFFFFu

/* point kinds */
#define DT_K_E0 0                   /* on the edge opposite slot 0, 1, 2 */
#define DT_K_IN 3                   /* strictly inside its triangle */
#define DT_K_WAIT 4                 /* its walk waits for the host */
#define DT_K_DONE 5                 /* inserted */
#define DT_K_NEW 6                  /* not located yet */

/* errors (bits of cnt[DT_C_ERR]) */
#define DT_E_OUTSIDE 1              /* a point outside the hull */
#define DT_E_DUP 2                  /* a point on a vertex */
#define DT_E_WALK 4                 /* a walk past its step bound */
#define DT_E_CAP 8                  /* triangles past their room */

/* counters */
#define DT_C_NTRI 0
#define DT_C_NACT 1                 /* the next active list */
#define DT_C_NCAND 2
#define DT_C_NQ 3
#define DT_C_NPEND 4                /* the next pending list */
#define DT_C_ERR 5
#define DT_C_INS 6
#define DT_C_FLIPS 7
#define DT_C_STEPS 8                /* walk steps */
#define DT_C_NLIST 9                /* the active list being tested */
#define DT_C_COUNT 10

#define DT_HINTS 4                  /* host answers kept per point */
#define DT_WALK_MAX (1u << 26)

/* A question for the host: an orient2d (walks) or a flip test. */
struct dt_q {
    uint32_t kind;                  /* 0 orient(v0, v1, v2), 1 flip */
    uint32_t who;                   /* the point, or 4 T + k */
    uint32_t v[4];
    int32_t ans;
    uint32_t pad;
    double c[8];                    /* the points' x, y: the host needs
                                       no copy of all of them */
};

struct dt_d {
    const double *xy;               /* 2 per point */
    uint32_t m, cap, qcap;
    uint32_t *tv, *ta;              /* 3 per triangle */
    unsigned long long *claim;      /* per triangle */
    uint32_t *stamp, *amark;        /* per triangle */
    uint32_t *newloc;               /* 3 per triangle */
    uint32_t *act, *act_next;       /* active triangle lists */
    uint32_t *cand;                 /* edges 4 T + k to flip */
    uint32_t *loc;                  /* per point */
    uint8_t *kind;                  /* per point */
    uint64_t *hkey;                 /* DT_HINTS per point: a << 32 | b */
    int8_t *hsign;                  /* DT_HINTS per point */
    uint8_t *hring;                 /* per point */
    uint32_t *pend, *pend_next;     /* uninserted points */
    struct dt_q *q;
    uint32_t *cnt;                  /* DT_C_COUNT */
    uint32_t cur;                   /* this step's stamp */
    uint32_t last_walk;             /* the stamp at the last walk */
    uint32_t n;                     /* the list's length */
    int force;                      /* walk every pending point */
    int dyn;                        /* >= 0: threads past cnt[dyn] idle */
    double poly[16];                /* hull candidates: not inside it */
    double *cxy;                    /* their coordinates */
    int npoly;
    const uint32_t *l2g;            /* output: local -> set index */
    uint32_t *outt;                 /* output: 3 per real triangle */
};

#ifdef XG_DT_EMUL
#define DT_HD static inline
static inline uint32_t dt_atomic_add(uint32_t *p, uint32_t v)
{
    uint32_t o = *p;
    *p += v;
    return o;
}
static inline void dt_atomic_min64(unsigned long long *p,
                                   unsigned long long v)
{
    if (v < *p)
        *p = v;
}
static inline uint32_t dt_atomic_exch(uint32_t *p, uint32_t v)
{
    uint32_t o = *p;
    *p = v;
    return o;
}
static inline void dt_atomic_or(uint32_t *p, uint32_t v) { *p |= v; }
#else
#define DT_HD static __device__ __forceinline__
DT_HD uint32_t dt_atomic_add(uint32_t *p, uint32_t v)
{
    return atomicAdd(p, v);
}
DT_HD void dt_atomic_min64(unsigned long long *p, unsigned long long v)
{
    atomicMin(p, v);
}
DT_HD uint32_t dt_atomic_exch(uint32_t *p, uint32_t v)
{
    return atomicExch(p, v);
}
DT_HD void dt_atomic_or(uint32_t *p, uint32_t v) { atomicOr(p, v); }
#endif

DT_HD uint32_t dt_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

DT_HD const double *dt_p(const struct dt_d *d, uint32_t v)
{
    return d->xy + 2 * (size_t)v;
}

/* orient2d(a, b, p) for point p: the filter, else a host answer kept for
 * p, else XG_UNSURE. */
DT_HD int dt_orient(const struct dt_d *d, uint32_t p, uint32_t a,
                    uint32_t b)
{
    int s = xg_iv_sign(xg_orient2d_iv(dt_p(d, a), dt_p(d, b), dt_p(d, p)));
    int r;
    if (s != XG_UNSURE)
        return s;
    for (r = 0; r < DT_HINTS; r++) {
        uint64_t k = d->hkey[(size_t)p * DT_HINTS + r];
        if (k == (((uint64_t)a << 32) | b))
            return d->hsign[(size_t)p * DT_HINTS + r];
        if (k == (((uint64_t)b << 32) | a))
            return -d->hsign[(size_t)p * DT_HINTS + r];
    }
    return XG_UNSURE;
}

/* The perturbed in-circle sign of w against the counter-clockwise real
 * triangle a, b, c (xg__dt_incircle's rule, exactgeo.h), or XG_UNSURE. */
DT_HD int dt_incircle(const double *a, const double *b, const double *c,
                      const double *w)
{
    struct xg_iv v = xg_incircle_iv(a, b, c, w);
    const double *p[4];
    int order[4], k, s;
    s = xg_iv_sign(v);
    if (s != XG_ZERO)
        return s;
    p[0] = a; p[1] = b; p[2] = c; p[3] = w;
    xg__lex_desc4(a, b, c, w, order);
    for (k = 0; k < 4; k++) {
        const double *q[3];
        int sg = xg__tie_term(p, order[k], q);
        int o = xg_iv_sign(xg_orient2d_iv(q[0], q[1], q[2]));
        if (o == XG_UNSURE)
            return XG_UNSURE;
        if (o != XG_ZERO)
            return sg * o;
    }
    return XG_UNSURE;       /* four collinear points: never in a flip */
}

DT_HD void dt_push_q(struct dt_d *d, uint32_t kind, uint32_t who,
                     uint32_t v0, uint32_t v1, uint32_t v2, uint32_t v3,
                     int *queued)
{
    uint32_t k = dt_atomic_add(&d->cnt[DT_C_NQ], 1);
    *queued = k < d->qcap;
    if (*queued) {
        struct dt_q *e = &d->q[k];
        e->kind = kind;
        e->who = who;
        e->v[0] = v0;
        e->v[1] = v1;
        e->v[2] = v2;
        e->v[3] = v3;
        e->ans = XG_UNSURE;
        e->c[0] = dt_p(d, v0)[0];
        e->c[1] = dt_p(d, v0)[1];
        e->c[2] = dt_p(d, v1)[0];
        e->c[3] = dt_p(d, v1)[1];
        e->c[4] = dt_p(d, v2)[0];
        e->c[5] = dt_p(d, v2)[1];
        if (kind == 1) {
            e->c[6] = dt_p(d, v3)[0];
            e->c[7] = dt_p(d, v3)[1];
        }
    }
}

/* ---- 1. location ---- */

DT_HD void dt_claim(struct dt_d *d, uint32_t i);

/* The walk of pending point pend[i]: ends with kind and loc set, and
 * the point's claim made (or DT_K_WAIT and a question queued). */
DT_HD void dt_walk(struct dt_d *d, uint32_t i)
{
    uint32_t p = d->pend[i], t = d->loc[p], steps = 0;
    int kd = d->kind[p];
    if (kd == DT_K_DONE)
        return;
    if (!d->force && kd <= DT_K_IN && d->stamp[t] <= d->last_walk) {
        dt_claim(d, i);             /* its triangle has not changed */
        return;
    }
    for (;;) {
        const uint32_t *v = d->tv + 3 * (size_t)t;
        int s[3], k, zeros = 0, moved = 0;
        if (++steps > DT_WALK_MAX) {
            dt_atomic_or(&d->cnt[DT_C_ERR], DT_E_WALK);
            d->kind[p] = DT_K_WAIT;
            return;
        }
        if (v[0] == DT_G || v[1] == DT_G || v[2] == DT_G) {
            /* a ghost: only a point outside the hull gets here */
            dt_atomic_or(&d->cnt[DT_C_ERR], DT_E_OUTSIDE);
            d->kind[p] = DT_K_WAIT;
            d->loc[p] = t;
            return;
        }
        for (k = 0; k < 3; k++) {
            uint32_t a = v[(k + 1) % 3], b = v[(k + 2) % 3];
            s[k] = dt_orient(d, p, a, b);
            if (s[k] == XG_UNSURE) {
                int queued;
                d->loc[p] = t;
                d->kind[p] = DT_K_WAIT;
                dt_push_q(d, 0, p, a, b, p, 0, &queued);
                (void)queued;   /* not queued: asked again next time */
                return;
            }
            if (s[k] == XG_NEG) {
                t = d->ta[3 * (size_t)t + k] >> 2;
                moved = 1;
                break;
            }
        }
        if (moved)
            continue;
        d->loc[p] = t;
        for (k = 0; k < 3; k++)
            zeros += s[k] == XG_ZERO;
        if (zeros == 0) {
            d->kind[p] = DT_K_IN;
        } else if (zeros == 1) {
            for (k = 0; k < 3; k++)
                if (s[k] == XG_ZERO)
                    d->kind[p] = (uint8_t)(DT_K_E0 + k);
        } else {
            dt_atomic_or(&d->cnt[DT_C_ERR], DT_E_DUP);
            d->kind[p] = DT_K_WAIT;
        }
        break;
    }
    dt_claim(d, i);
}

/* A host answer for a walk's question. */
DT_HD void dt_hint(struct dt_d *d, uint32_t i)
{
    const struct dt_q *e = &d->q[i];
    uint32_t p;
    size_t r;
    if (e->kind != 0)
        return;
    p = e->who;
    r = (size_t)p * DT_HINTS + d->hring[p] % DT_HINTS;
    d->hring[p]++;
    d->hkey[r] = ((uint64_t)e->v[0] << 32) | e->v[1];
    d->hsign[r] = (int8_t)e->ans;
}

/* ---- 2. insertion ---- */

/* Claims need no reset: a key carries the complement of the step's
 * stamp above, so any claim of this step beats every older one, and below
 * a number unique in the step (dt_hash is a bijection of 32 bits: the
 * points' order is shuffled, the same on every run). */
DT_HD unsigned long long dt_key(const struct dt_d *d, uint32_t low)
{
    return ((unsigned long long)(~d->cur) << 32) | low;
}

/* The triangles a located point needs: its own, and for a point on an
 * edge the one across. */
DT_HD int dt_needs(const struct dt_d *d, uint32_t p, uint32_t *t,
                   uint32_t *u)
{
    int kd = d->kind[p];
    if (kd > DT_K_IN)
        return 0;
    *t = d->loc[p];
    if (kd == DT_K_IN)
        return 1;
    *u = d->ta[3 * (size_t)*t + kd] >> 2;
    return 2;
}

DT_HD void dt_claim(struct dt_d *d, uint32_t i)
{
    uint32_t p = d->pend[i], t, u;
    int k = dt_needs(d, p, &t, &u);
    if (k >= 1)
        dt_atomic_min64(&d->claim[t], dt_key(d, dt_hash(p)));
    if (k == 2)
        dt_atomic_min64(&d->claim[u], dt_key(d, dt_hash(p)));
}

/* Adds t to the active list of the round marked r (once). */
DT_HD void dt_activate(struct dt_d *d, uint32_t t, uint32_t r)
{
    if (dt_atomic_exch(&d->amark[t], r) != r)
        d->act_next[dt_atomic_add(&d->cnt[DT_C_NACT], 1)] = t;
}

DT_HD void dt_set(struct dt_d *d, uint32_t t, uint32_t a, uint32_t b,
                  uint32_t c, uint32_t n0, uint32_t n1, uint32_t n2)
{
    uint32_t *v = d->tv + 3 * (size_t)t, *n = d->ta + 3 * (size_t)t;
    v[0] = a; v[1] = b; v[2] = c;
    n[0] = n0; n[1] = n1; n[2] = n2;
    d->stamp[t] = d->cur;
    dt_activate(d, t, d->cur + 1);
}

/* The reference across the old edge (t, slot), marked stale: read before
 * t is rewritten. */
DT_HD uint32_t dt_stale(const struct dt_d *d, uint32_t t, int k)
{
    return DT_STALE | d->ta[3 * (size_t)t + k];
}

DT_HD void dt_insert(struct dt_d *d, uint32_t i)
{
    uint32_t p = d->pend[i], t, u, base;
    int need = dt_needs(d, p, &t, &u), kd = d->kind[p];
    unsigned long long key = dt_key(d, dt_hash(p));
    if (!need || d->claim[t] != key || (need == 2 && d->claim[u] != key)) {
        d->pend_next[dt_atomic_add(&d->cnt[DT_C_NPEND], 1)] = p;
        return;                     /* still pending */
    }
    base = dt_atomic_add(&d->cnt[DT_C_NTRI], 2);
    if (base + 2 > d->cap) {
        dt_atomic_or(&d->cnt[DT_C_ERR], DT_E_CAP);
        return;
    }
    d->kind[p] = DT_K_DONE;
    dt_atomic_add(&d->cnt[DT_C_INS], 1);
    if (need == 1) {
        /* 1 -> 3: T_k replaces vertex k by p; its slot k keeps the old
         * edge, and T_k's slot j (j != k) meets T_j's slot k. */
        const uint32_t *v = d->tv + 3 * (size_t)t;
        uint32_t v0 = v[0], v1 = v[1], v2 = v[2];
        uint32_t T[3], o0 = dt_stale(d, t, 0), o1 = dt_stale(d, t, 1),
                 o2 = dt_stale(d, t, 2);
        T[0] = t; T[1] = base; T[2] = base + 1;
        d->newloc[3 * (size_t)t + 0] = 4 * T[0] + 0;
        d->newloc[3 * (size_t)t + 1] = 4 * T[1] + 1;
        d->newloc[3 * (size_t)t + 2] = 4 * T[2] + 2;
        dt_set(d, T[0], p, v1, v2, o0, 4 * T[1] + 0, 4 * T[2] + 0);
        dt_set(d, T[1], v0, p, v2, 4 * T[0] + 1, o1, 4 * T[2] + 1);
        dt_set(d, T[2], v0, v1, p, 4 * T[0] + 2, 4 * T[1] + 2, o2);
    } else {
        /* 2 -> 4: p on the edge x y of t = (vi, x, y), u = (w, y, x).
         * A = (vi, x, p) B = (vi, p, y) C = (w, y, p) D = (w, p, x). */
        int ki = kd - DT_K_E0, kj, jx, jy;
        uint32_t vi, x, y, w, A = t, B = base, C = u, D = base + 1;
        uint32_t nb;
        const uint32_t *vt = d->tv + 3 * (size_t)t;
        const uint32_t *vu = d->tv + 3 * (size_t)u;
        nb = d->ta[3 * (size_t)t + ki];
        kj = (int)(nb & 3);
        vi = vt[ki];
        x = vt[(ki + 1) % 3];
        y = vt[(ki + 2) % 3];
        w = vu[kj];
        jy = (kj + 1) % 3;      /* u = (w, y, x) from slot kj */
        jx = (kj + 2) % 3;
        d->newloc[3 * (size_t)t + (ki + 1) % 3] = 4 * B + 1; /* opp x */
        d->newloc[3 * (size_t)t + (ki + 2) % 3] = 4 * A + 2; /* opp y */
        d->newloc[3 * (size_t)u + jx] = 4 * C + 2;           /* opp x */
        d->newloc[3 * (size_t)u + jy] = 4 * D + 1;           /* opp y */
        {
            uint32_t sx = dt_stale(d, t, (ki + 1) % 3);
            uint32_t sy = dt_stale(d, t, (ki + 2) % 3);
            uint32_t ux = dt_stale(d, u, jx), uy = dt_stale(d, u, jy);
            dt_set(d, A, vi, x, p, 4 * D + 0, 4 * B + 2, sy);
            dt_set(d, B, vi, p, y, 4 * C + 0, sx, 4 * A + 1);
            dt_set(d, C, w, y, p, 4 * B + 0, 4 * D + 2, ux);
            dt_set(d, D, w, p, x, 4 * A + 0, uy, 4 * C + 1);
        }
    }
}

/* ---- the fix-up of stale references (after insertion and flips) ---- */

DT_HD void dt_fixup(struct dt_d *d, uint32_t i)
{
    uint32_t T = d->act_next[i];
    int k;
    if (d->stamp[T] != d->cur)
        return;                     /* listed, not changed */
    for (k = 0; k < 3; k++) {
        uint32_t r = d->ta[3 * (size_t)T + k], u, j;
        if (!(r & DT_STALE))
            continue;
        r &= ~DT_STALE;
        u = r >> 2;
        j = r & 3;
        if (d->stamp[u] == d->cur) {
            r = d->newloc[3 * (size_t)u + j];
        } else {
            d->ta[3 * (size_t)u + j] = 4 * T + (uint32_t)k;
        }
        d->ta[3 * (size_t)T + k] = r;
    }
}

/* ---- 3. flipping ---- */

DT_HD int dt_ghost(const struct dt_d *d, uint32_t t)
{
    const uint32_t *v = d->tv + 3 * (size_t)t;
    return v[0] == DT_G || v[1] == DT_G || v[2] == DT_G;
}

/* The edges of active triangle act[i] that it owns, tested (i below
 * cnt[DT_C_NLIST]). */
DT_HD void dt_test(struct dt_d *d, uint32_t i)
{
    uint32_t T = d->act[i];
    const uint32_t *v = d->tv + 3 * (size_t)T;
    int k;
    if (dt_ghost(d, T))
        return;                     /* hull edges never flip (above) */
    for (k = 0; k < 3; k++) {
        uint32_t nb = d->ta[3 * (size_t)T + k], u = nb >> 2, w;
        int s;
        if (d->amark[u] >= d->cur && u < T)
            continue;               /* u tests it */
        if (dt_ghost(d, u))
            continue;
        w = d->tv[3 * (size_t)u + (nb & 3)];
        s = dt_incircle(dt_p(d, v[k]), dt_p(d, v[(k + 1) % 3]),
                        dt_p(d, v[(k + 2) % 3]), dt_p(d, w));
        if (s == XG_POS) {
            d->cand[dt_atomic_add(&d->cnt[DT_C_NCAND], 1)] = 4 * T + k;
        } else if (s == XG_UNSURE) {
            int queued;
            dt_push_q(d, 1, 4 * T + k, v[k], v[(k + 1) % 3],
                      v[(k + 2) % 3], w, &queued);
            if (!queued)            /* no room: tested again next round */
                dt_activate(d, T, d->cur + 1);
        }
    }
}

/* The host's answers to the flip tests. */
DT_HD void dt_apply(struct dt_d *d, uint32_t i)
{
    const struct dt_q *e = &d->q[i];
    if (e->kind == 1 && e->ans == XG_POS)
        d->cand[dt_atomic_add(&d->cnt[DT_C_NCAND], 1)] = e->who;
}

DT_HD void dt_flip_claim(struct dt_d *d, uint32_t i)
{
    uint32_t e = d->cand[i], T = e >> 2;
    uint32_t u = d->ta[3 * (size_t)T + (e & 3)] >> 2;
    dt_atomic_min64(&d->claim[T], dt_key(d, e));
    dt_atomic_min64(&d->claim[u], dt_key(d, e));
}

DT_HD void dt_flip(struct dt_d *d, uint32_t i)
{
    uint32_t e = d->cand[i], T = e >> 2, nb, u, a, b, c, w;
    uint32_t eb, ec, ub, uc;
    int k = (int)(e & 3), j, k1, k2, j1, j2;
    nb = d->ta[3 * (size_t)T + k];
    u = nb >> 2;
    j = (int)(nb & 3);
    if (d->claim[T] != dt_key(d, e) || d->claim[u] != dt_key(d, e)) {
        dt_activate(d, T, d->cur + 1);      /* tested again */
        return;
    }
    k1 = (k + 1) % 3; k2 = (k + 2) % 3;
    j1 = (j + 1) % 3; j2 = (j + 2) % 3;
    a = d->tv[3 * (size_t)T + k];
    b = d->tv[3 * (size_t)T + k1];
    c = d->tv[3 * (size_t)T + k2];
    w = d->tv[3 * (size_t)u + j];           /* u = (w, c, b) */
    eb = dt_stale(d, T, k1);                /* edge c a */
    ec = dt_stale(d, T, k2);                /* edge a b */
    uc = dt_stale(d, u, j1);                /* edge b w (opposite c) */
    ub = dt_stale(d, u, j2);                /* edge w c (opposite b) */
    /* T' = (a, b, w), U' = (a, w, c) */
    d->newloc[3 * (size_t)T + k1] = 4 * u + 1;
    d->newloc[3 * (size_t)T + k2] = 4 * T + 2;
    d->newloc[3 * (size_t)u + j1] = 4 * T + 0;
    d->newloc[3 * (size_t)u + j2] = 4 * u + 0;
    dt_set(d, T, a, b, w, uc, 4 * u + 2, ec);
    dt_set(d, u, a, w, c, ub, eb, 4 * T + 1);
    dt_atomic_add(&d->cnt[DT_C_FLIPS], 1);
}

/* ---- the pending list ---- */

DT_HD void dt_compact(struct dt_d *d, uint32_t i)
{
    uint32_t p = d->pend[i];
    if (d->kind[p] != DT_K_DONE)
        d->pend_next[dt_atomic_add(&d->cnt[DT_C_NPEND], 1)] = p;
}

/* ---- counters between steps (one thread) ---- */

/* a flip round: the last list becomes the one tested */
DT_HD void dt_rotate(struct dt_d *d, uint32_t i)
{
    (void)i;
    d->cnt[DT_C_NLIST] = d->cnt[DT_C_NACT];
    d->cnt[DT_C_NACT] = 0;
    d->cnt[DT_C_NCAND] = 0;
    d->cnt[DT_C_NQ] = 0;
}

DT_HD void dt_round_start(struct dt_d *d, uint32_t i)
{
    (void)i;
    d->cnt[DT_C_NACT] = 0;
    d->cnt[DT_C_INS] = 0;
    d->cnt[DT_C_NPEND] = 0;
}

/* ---- set-up and output ---- */

DT_HD void dt_init_pt(struct dt_d *d, uint32_t i)
{
    int r;
    d->pend[i] = i;
    d->loc[i] = 0;
    d->kind[i] = DT_K_NEW;
    d->hring[i] = 0;
    for (r = 0; r < DT_HINTS; r++)
        d->hkey[(size_t)i * DT_HINTS + r] = ~(uint64_t)0;
}

/* the hull corners (listed in cand) are vertices already */
DT_HD void dt_mark_done(struct dt_d *d, uint32_t i)
{
    d->kind[d->cand[i]] = DT_K_DONE;
}

/* The polygon's vertices without repeats in a row (ties pick one point
 * for several directions). */
static inline void dt_poly_dedup(struct dt_d *d)
{
    int k, n = 0;
    for (k = 0; k < d->npoly; k++) {
        const double *p = d->poly + 2 * k;
        if (n && p[0] == d->poly[2 * (n - 1)] &&
            p[1] == d->poly[2 * (n - 1) + 1])
            continue;
        d->poly[2 * n] = p[0];
        d->poly[2 * n + 1] = p[1];
        n++;
    }
    while (n > 1 && d->poly[0] == d->poly[2 * (n - 1)] &&
           d->poly[1] == d->poly[2 * (n - 1) + 1])
        n--;
    d->npoly = n;
}

/* Point i unless the filter certifies it strictly left of every edge of
 * the closed polygon poly (npoly input points, about counter-clockwise):
 * such a point has a positive winding number, so it lies strictly inside
 * the convex hull of the polygon's vertices (were it outside or on the
 * boundary, the directions to the vertices would lie in a half-plane, and
 * edges each turning strictly counter-clockwise could not close a turn).
 * Those are no hull points; the rest are listed in pend_next. */
DT_HD void dt_hullcand(struct dt_d *d, uint32_t i)
{
    int k;
    for (k = 0; k < d->npoly; k++) {
        const double *a = d->poly + 2 * k;
        const double *b = d->poly + 2 * ((k + 1) % d->npoly);
        if (xg_iv_sign(xg_orient2d_iv(a, b, dt_p(d, i))) != XG_POS)
            break;
    }
    if (d->npoly < 3 || k < d->npoly)
        d->pend_next[dt_atomic_add(&d->cnt[DT_C_NPEND], 1)] = i;
}

/* The coordinates of the points pend_next[i] (the hull's candidates),
 * into cxy. */
DT_HD void dt_gather(struct dt_d *d, uint32_t i)
{
    d->cxy[2 * (size_t)i] = dt_p(d, d->pend_next[i])[0];
    d->cxy[2 * (size_t)i + 1] = dt_p(d, d->pend_next[i])[1];
}

/* The real triangles, as set indices. */
DT_HD void dt_collect(struct dt_d *d, uint32_t t)
{
    const uint32_t *v = d->tv + 3 * (size_t)t;
    uint32_t k;
    if (dt_ghost(d, t))
        return;
    k = dt_atomic_add(&d->cnt[DT_C_NPEND], 1);
    d->outt[3 * (size_t)k] = d->l2g[v[0]];
    d->outt[3 * (size_t)k + 1] = d->l2g[v[1]];
    d->outt[3 * (size_t)k + 2] = d->l2g[v[2]];
}

#endif
