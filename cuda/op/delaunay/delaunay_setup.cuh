/*
 * delaunay_setup.cuh -- the GPU Delaunay engine's set-up (the points'
 * state, the hull's corners marked, the candidates for the hull) and
 * its output (the real triangles as set indices).
 * Part of delaunay_core.cuh (the method is described there), which
 * includes the parts in order; not included alone.
 */
#ifndef XG_DELAUNAY_SETUP_CUH
#define XG_DELAUNAY_SETUP_CUH

/* ---- set-up and output ---- */

/* Point i pending, not located, in triangle 0, with no host answers. */
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
