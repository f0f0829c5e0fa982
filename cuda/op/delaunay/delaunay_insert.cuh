/*
 * delaunay_insert.cuh -- the GPU Delaunay engine's location (each pending
 * point walks to its triangle) and insertion (1 -> 3 and 2 -> 4 splits
 * of the triangles each point won), and the fix-up of the stale
 * references both leave.
 * Part of delaunay_core.cuh (the method is described there), which
 * includes the parts in order; not included alone.
 */
#ifndef XG_DELAUNAY_INSERT_CUH
#define XG_DELAUNAY_INSERT_CUH

/* ---- 1. location ---- */

/* Pending point pend[i], located, claims the triangles it needs (below). */
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

/* Question i's host answer, when it is a walk's (kind 0), kept among
 * its point's DT_HINTS latest (a ring) for dt_orient. */
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

/* Pending point pend[i] claims its triangle (and for a point on an edge
 * the one across) with its key: the lowest key of the step wins each. */
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

/* Triangle t becomes (a, b, c) with neighbour references n0, n1, n2 (4 u
 * + slot, or stale), stamped with this step and listed active for the
 * next round. */
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

/* Pending point pend[i] inserted where it won every triangle it needs
 * (a 1 -> 3 or a 2 -> 4 split, two new triangles from the counter), the
 * old edges' new places in newloc; else listed pending again. */
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

/* The stale references of triangle act_next[i], when this step changed
 * it, resolved: through newloc where the neighbour changed too, else by
 * writing the back reference into the unchanged neighbour (its one
 * writer). */
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

#endif
