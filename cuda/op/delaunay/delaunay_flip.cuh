/*
 * delaunay_flip.cuh -- the GPU Delaunay engine's flips (Lawson's, in
 * rounds: the edges tested, claimed, flipped), the pending list's
 * compaction and the counters between steps.
 * Part of delaunay_core.cuh (the method is described there), which
 * includes the parts in order; not included alone.
 */
#ifndef XG_DELAUNAY_FLIP_CUH
#define XG_DELAUNAY_FLIP_CUH

/* ---- 3. flipping ---- */

/* Whether triangle t is a ghost (a vertex is XG_DT_GHOST). */
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

/* Candidate edge cand[i] (4 T + k) claims its two triangles with its
 * key: the lowest edge of the step wins each. */
DT_HD void dt_flip_claim(struct dt_d *d, uint32_t i)
{
    uint32_t e = d->cand[i], T = e >> 2;
    uint32_t u = d->ta[3 * (size_t)T + (e & 3)] >> 2;
    dt_atomic_min64(&d->claim[T], dt_key(d, e));
    dt_atomic_min64(&d->claim[u], dt_key(d, e));
}

/* Candidate edge cand[i] flipped when it won both its triangles (T' =
 * (a, b, w), U' = (a, w, c), the old edges' places in newloc); else its
 * triangle is tested again next round. */
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

/* Pending point pend[i] listed in pend_next unless inserted. */
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

/* an insertion round: its counters from zero */
DT_HD void dt_round_start(struct dt_d *d, uint32_t i)
{
    (void)i;
    d->cnt[DT_C_NACT] = 0;
    d->cnt[DT_C_INS] = 0;
    d->cnt[DT_C_NPEND] = 0;
}

#endif
