/*
 * delaunay_run.cuh -- the host's part of the GPU Delaunay engine: the
 * hull and the first triangles, the rounds of delaunay_core.cuh, and the
 * exact answers to the questions the filters left.  Included by
 * delaunay_gpu.cu (the device) and tests/dt_emul.cpp (the emulation);
 * the includer defines struct dt_env's first member dt_d d, ctx, and
 * DT_LAUNCH(E, f, n), dt_alloc, dt_h2d, dt_d2h, dt_sync.
 */
#ifndef XG_DELAUNAY_RUN_CUH
#define XG_DELAUNAY_RUN_CUH

#include <stdlib.h>
#include <string.h>

/* The perturbed in-circle sign, exactly: xg__dt_incircle, the host
 * engines' own. */
#define dt_incircle_host xg__dt_incircle

static int dt_get_ctr(struct dt_env *E)
{
    int rc = dt_d2h(E, E->ctr, E->d.cnt, sizeof E->ctr);
    if (rc == XG_OK && (E->ctr[DT_C_ERR] & DT_E_CAP))
        rc = xg__error(E->ctx, XG_EGPU, "gpu delaunay: no room for "
                       "the triangles");
    if (rc == XG_OK && E->ctr[DT_C_ERR])
        rc = xg__error(E->ctx, XG_EGPU, "gpu delaunay: inconsistent "
                       "location (error bits %u)", E->ctr[DT_C_ERR]);
    return rc;
}

/* Waits for the uploads queued (their host buffers are freed next). */
static int dt_sync_up(struct dt_env *E)
{
    return dt_d2h(E, NULL, NULL, 0);
}

static int dt_set_ctr(struct dt_env *E, int which, uint32_t v)
{
    E->ctr[which] = v;
    return dt_h2d(E, E->d.cnt + which, &v, sizeof v);
}

/* The questions in the queue (nq of them, at most qcap) answered
 * exactly on the host and sent back. */
static int dt_answer(struct dt_env *E, uint32_t nq, uint32_t *npos)
{
    struct dt_q *q = E->hq;
    uint32_t i;
    int rc;
    if (nq > E->d.qcap)
        nq = E->d.qcap;
    if ((rc = dt_d2h(E, q, E->d.q, nq * sizeof *q)) != XG_OK)
        return rc;
    for (i = 0; i < nq; i++) {
        const double *c = q[i].c;
        if (q[i].kind == 0)
            q[i].ans = xg_orient2d(E->cnt, c, c + 2, c + 4);
        else
            *npos += (q[i].ans = dt_incircle_host(E->cnt, c, c + 2, c + 4,
                                                  c + 6)) == XG_POS;
    }
    E->questions += nq;
    return dt_h2d(E, E->d.q, q, nq * sizeof *q);
}

/* Walks every pending point until each is located. */
static int dt_locate(struct dt_env *E, uint32_t npend)
{
    int rc;
    for (;;) {
        if ((rc = dt_set_ctr(E, DT_C_NQ, 0)) != XG_OK)
            return rc;
        DT_LAUNCH(E, dt_walk, npend);
        E->d.force = 0;
        E->d.last_walk = E->d.cur - 1;  /* this step changed nothing yet */
        if ((rc = dt_get_ctr(E)) != XG_OK)
            return rc;
        if (E->ctr[DT_C_NQ] == 0)
            return XG_OK;
        {
            uint32_t pos = 0;
            if ((rc = dt_answer(E, E->ctr[DT_C_NQ], &pos)) != XG_OK)
                return rc;
        }
        DT_LAUNCH(E, dt_hint, E->ctr[DT_C_NQ] < E->d.qcap
                                  ? E->ctr[DT_C_NQ] : E->d.qcap);
    }
}

/* Lawson's rounds from the active list in act_next (its length in
 * cnt[DT_C_NACT], at most bound).  One synchronisation a round: the
 * counts after the test; the lists' lengths stay on the device, the
 * launches sized by bounds (delaunay_core.cuh's dyn). */
static int dt_flips(struct dt_env *E, uint32_t bound)
{
    int rc;
    double t0 = xg__now();
    while (bound) {
        uint32_t *t = E->d.act, ncand, unq = 0;
        E->d.act = E->d.act_next;
        E->d.act_next = t;
        E->d.cur++;
        E->flip_rounds++;
        DT_LAUNCH(E, dt_rotate, 1);
        DT_LAUNCH_DYN(E, dt_test, bound, DT_C_NLIST);
        if ((rc = dt_get_ctr(E)) != XG_OK)
            return rc;
        ncand = E->ctr[DT_C_NCAND];
        if (E->ctr[DT_C_NQ]) {
            uint32_t nq = E->ctr[DT_C_NQ] < E->d.qcap ? E->ctr[DT_C_NQ]
                                                      : E->d.qcap, pos = 0;
            unq = E->ctr[DT_C_NQ] - nq;
            if ((rc = dt_answer(E, nq, &pos)) != XG_OK)
                return rc;
            DT_LAUNCH(E, dt_apply, nq);
            ncand += pos;
        }
        if (ncand) {
            DT_LAUNCH_DYN(E, dt_flip_claim, ncand, DT_C_NCAND);
            DT_LAUNCH_DYN(E, dt_flip, ncand, DT_C_NCAND);
        }
        /* winners list two triangles, losers and unasked doubts one */
        bound = ncand || unq ? 2 * ncand + unq : 0;
        if (bound > E->d.cap)
            bound = E->d.cap;
        if (ncand)
            DT_LAUNCH_DYN(E, dt_fixup, bound, DT_C_NACT);
#ifdef DT_EMUL_CHECK
        DT_EMUL_CHECK(E, "flip");
#endif
    }
    E->t_flip += xg__now() - t0;
    return XG_OK;
}

/* The rounds: locate (and claim), insert, flip, until every point is
 * in.  Two synchronisations a round besides the flips' and the
 * questions': the walk's count of questions, and the counts at the end.
 * After each round cancelled(E, points left) may stop the run
 * (XG_ECANCEL); NULL: never. */
static int dt_rounds(struct dt_env *E, uint32_t npend,
                     int (*cancelled)(struct dt_env *E, uint32_t npend))
{
    int rc;
    E->d.force = 1;
    while (npend) {
        uint32_t *t, bound;
        double t0 = xg__now();
        E->rounds++;
        E->d.cur++;
        DT_LAUNCH(E, dt_round_start, 1);
        if ((rc = dt_locate(E, npend)) != XG_OK)
            return rc;
        E->t_loc += xg__now() - t0;
        DT_LAUNCH(E, dt_insert, npend);
        bound = npend < E->d.cap / 4 ? 4 * npend : E->d.cap;
        DT_LAUNCH_DYN(E, dt_fixup, bound, DT_C_NACT);
#ifdef DT_EMUL_CHECK
        DT_EMUL_CHECK(E, "insert");
#endif
        if ((rc = dt_flips(E, bound)) != XG_OK)
            return rc;
        if ((rc = dt_get_ctr(E)) != XG_OK)
            return rc;
        if (E->ctr[DT_C_INS] == 0)
            return xg__error(E->ctx, XG_EGPU, "gpu delaunay: a round "
                             "inserted no point");
        npend = E->ctr[DT_C_NPEND];
        t = E->d.pend;
        E->d.pend = E->d.pend_next;
        E->d.pend_next = t;
        if (npend && cancelled && cancelled(E, npend))
            return xg__error(E->ctx, XG_ECANCEL, "cancelled");
    }
    return XG_OK;
}

/* ---- the first triangles: the hull's corners as a fan ---- */

struct dt_edge {
    uint64_t key;       /* a << 32 | b, the directed edge */
    uint32_t ref;       /* 4 t + slot */
};

static int dt_edge_cmp(const void *x, const void *y)
{
    const struct dt_edge *a = (const struct dt_edge *)x;
    const struct dt_edge *b = (const struct dt_edge *)y;
    return a->key < b->key ? -1 : a->key > b->key;
}

/* Adjacency of nt triangles (3 vertices each) by matching each directed
 * edge with its reverse.  XG_OK or XG_ENOMEM / XG_EGPU. */
static int dt_adjacency(struct xg_ctx *ctx, const uint32_t *tv, uint32_t nt,
                        uint32_t *ta)
{
    struct dt_edge *e = (struct dt_edge *)malloc(3 * (size_t)nt * sizeof *e);
    uint32_t t;
    int k;
    if (!e)
        return xg__error(ctx, XG_ENOMEM, "out of memory");
    for (t = 0; t < nt; t++)
        for (k = 0; k < 3; k++) {
            uint64_t a = tv[3 * t + (k + 1) % 3], b = tv[3 * t + (k + 2) % 3];
            e[3 * t + k].key = (a << 32) | b;
            e[3 * t + k].ref = 4 * t + (uint32_t)k;
        }
    qsort(e, 3 * (size_t)nt, sizeof *e, dt_edge_cmp);
    for (t = 0; t < nt; t++)
        for (k = 0; k < 3; k++) {
            uint64_t a = tv[3 * t + (k + 1) % 3], b = tv[3 * t + (k + 2) % 3];
            struct dt_edge key, *f;
            key.key = (b << 32) | a;
            f = (struct dt_edge *)bsearch(&key, e, 3 * (size_t)nt, sizeof *e,
                                          dt_edge_cmp);
            if (!f) {
                free(e);
                return xg__error(ctx, XG_EGPU, "gpu delaunay: the first "
                                 "triangles are not closed");
            }
            ta[3 * t + k] = f->ref;
        }
    free(e);
    return XG_OK;
}

/* The strict corners of the convex hull of the candidate points cand[0 ..
 * nc-1] (local numbers, ascending = lexicographic order; cxy[2 i] the
 * coordinates of cand[i]), counter-clockwise, as local numbers into h
 * (room for nc + 1); returns their count (Andrew's monotone chain,
 * exact). */
static uint32_t dt_hull(struct xg_counters *cnt, const double *cxy,
                        const uint32_t *cand, uint32_t nc, uint32_t *h)
{
    uint32_t k = 0, i, lower;
    if (nc < 3) {
        for (i = 0; i < nc; i++)
            h[i] = cand[i];
        return nc;
    }
    for (i = 0; i < nc; i++) {
        while (k >= 2 && xg_orient2d(cnt, cxy + 2 * (size_t)h[k - 2],
                                     cxy + 2 * (size_t)h[k - 1],
                                     cxy + 2 * (size_t)i) <= 0)
            k--;
        h[k++] = i;
    }
    lower = k + 1;
    for (i = nc - 1; i-- > 0;) {
        while (k >= lower && xg_orient2d(cnt, cxy + 2 * (size_t)h[k - 2],
                                         cxy + 2 * (size_t)h[k - 1],
                                         cxy + 2 * (size_t)i) <= 0)
            k--;
        h[k++] = i;
    }
    for (i = 0; i + 1 < k; i++)
        h[i] = cand[h[i]];
    return k - 1;           /* the first point came back at the end */
}

/* The fan of the hull corners h[0 .. k-1] with its ghosts, uploaded as
 * the first triangles; the corners marked inserted; every other point
 * pending in pend.  Returns the pending count in *npend. */
static int dt_start(struct dt_env *E, const uint32_t *h, uint32_t k,
                    uint32_t *npend)
{
    uint32_t nt = 2 * k - 2, i, *tv, *ta, *hc, *ta2, *am;
    int rc;
    tv = (uint32_t *)malloc(3 * (size_t)nt * sizeof *tv);
    ta = (uint32_t *)malloc(3 * (size_t)nt * sizeof *ta);
    hc = (uint32_t *)malloc((size_t)k * sizeof *hc);
    ta2 = (uint32_t *)malloc((size_t)nt * sizeof *ta2);
    am = (uint32_t *)malloc((size_t)nt * sizeof *am);
    if (!tv || !ta || !hc || !ta2 || !am) {
        rc = xg__error(E->ctx, XG_ENOMEM, "out of memory");
        goto out;
    }
    for (i = 1; i + 1 < k; i++) {
        tv[3 * (i - 1)] = h[0];
        tv[3 * (i - 1) + 1] = h[i];
        tv[3 * (i - 1) + 2] = h[i + 1];
    }
    for (i = 0; i < k; i++) {
        uint32_t g = k - 2 + i;
        tv[3 * g] = h[(i + 1) % k];
        tv[3 * g + 1] = h[i];
        tv[3 * g + 2] = DT_G;
    }
    if ((rc = dt_adjacency(E->ctx, tv, nt, ta)) != XG_OK)
        goto out;
    memcpy(hc, h, (size_t)k * sizeof *hc);
    /* the fan is no Delaunay triangulation, and a visibility walk may
     * cycle in one that is not: flipped first, every triangle active */
    for (i = 0; i < nt; i++) {
        ta2[i] = i;
        am[i] = E->d.cur + 1;
    }
    if ((rc = dt_h2d(E, E->d.act_next, ta2, (size_t)nt * 4)) != XG_OK ||
        (rc = dt_h2d(E, E->d.amark, am, (size_t)nt * 4)) != XG_OK ||
        (rc = dt_sync_up(E)) != XG_OK)
        goto out;
    if ((rc = dt_h2d(E, E->d.tv, tv, 3 * (size_t)nt * sizeof *tv)) !=
            XG_OK ||
        (rc = dt_h2d(E, E->d.ta, ta, 3 * (size_t)nt * sizeof *ta)) !=
            XG_OK ||
        (rc = dt_h2d(E, E->d.cand, hc, (size_t)k * sizeof *hc)) != XG_OK ||
        (rc = dt_set_ctr(E, DT_C_NTRI, nt)) != XG_OK ||
        (rc = dt_set_ctr(E, DT_C_NPEND, 0)) != XG_OK)
        goto out;
    DT_LAUNCH(E, dt_init_pt, E->d.m);
    DT_LAUNCH(E, dt_mark_done, k);
    DT_LAUNCH(E, dt_compact, E->d.m);
    if ((rc = dt_get_ctr(E)) != XG_OK)
        goto out;
    *npend = E->ctr[DT_C_NPEND];
    if ((rc = dt_set_ctr(E, DT_C_NACT, nt)) != XG_OK ||
        (rc = dt_flips(E, nt)) != XG_OK)
        goto out;
    {
        uint32_t *t = E->d.pend;
        E->d.pend = E->d.pend_next;
        E->d.pend_next = t;
    }
out:
    free(tv);
    free(ta);
    free(hc);
    free(ta2);
    free(am);
    return rc;
}

#endif
