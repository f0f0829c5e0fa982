/*
 * delaunay_state.cuh -- the GPU Delaunay engine's state (struct dt_d:
 * triangles, points, lists, the questions' queue, the counters), the
 * atomics of the device and of the host emulation, and the filtered
 * predicates every step asks.
 * Part of delaunay_core.cuh (the method is described there), which
 * includes the parts in order; not included alone.
 */
#ifndef XG_DELAUNAY_STATE_CUH
#define XG_DELAUNAY_STATE_CUH

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

/* The atomics the steps use, the device's and the emulation's (one
 * thread at a time there): dt_atomic_add returns the old *p and adds v;
 * dt_atomic_min64 lowers *p to v; dt_atomic_exch returns the old *p and
 * stores v; dt_atomic_or sets v's bits in *p.  DT_HD marks a step's
 * function, a device function or the emulation's host one. */
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

/* A bijection of 32 bits that shuffles the points' order (the claims'
 * tie-break: the same on every run). */
DT_HD uint32_t dt_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* The coordinates (x, y) of local point v. */
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

/* Queues a question for the host: kind 0 orient2d(v0, v1, v2) for point
 * who, kind 1 the flip test of edge who (4 T + k: v3 against v0 v1 v2),
 * with the points' coordinates.  *queued: whether the queue had room
 * (else the asker asks again later). */
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

#endif
