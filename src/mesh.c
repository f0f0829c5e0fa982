/*
 * mesh.c -- the indexed mesh (xg_mesh.h): its build, which welds the
 * corners into vertices here through a hashed table of vertices and
 * leaves the edges to mesh_edges.c; its free; the counts of its edges
 * by their uses.
 */
#include <stdlib.h>
#include <string.h>
#include "xg_mesh.h"
#include "xg_mem.h"

/* A hash of a vertex's three coordinates (-0 already +0), by their
 * bits. */
static uint64_t vertex_hash(const double c[3])
{
    uint64_t h = 0x9e3779b97f4a7c15ull, w;
    int j;
    for (j = 0; j < 3; j++) {
        memcpy(&w, &c[j], 8);
        h ^= w;
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    return h;
}

/* One vertex in the weld's table: its number + 1 (0: an empty slot) and
 * the high 32 bits of its hash.  Eight bytes, so that the table of a
 * large surface stays small in cache; the tag spares most probes the
 * coordinates' comparison. */
struct vertex_slot {
    uint32_t vert, tag;
};

/* The weld's open-addressed table: cap slots (a power of two, at most
 * half full) in m->work.slot. */
struct weld {
    struct vertex_slot *tab;
    size_t cap;
};

/* The weld table's first size for n triangles: a closed surface has
 * about n / 2 vertices, so a power of two >= n leaves it at most half
 * full (it doubles when it would not be). */
static size_t table_cap(size_t n)
{
    size_t cap = 16;
    while (cap < n)
        cap *= 2;
    return cap;
}

/* Where vertex c (hash h) is in w's table, or the empty slot where it
 * goes: linear probing from h's low bits, the tag then the coordinates
 * (m's, bit for bit) deciding. */
static struct vertex_slot *weld_find(const struct xg__mesh *m,
                                     const struct weld *w, const double c[3],
                                     uint64_t h)
{
    uint32_t tag = (uint32_t)(h >> 32);
    size_t i;
    for (i = (size_t)h & (w->cap - 1);; i = (i + 1) & (w->cap - 1)) {
        struct vertex_slot *q = &w->tab[i];
        if (!q->vert || (q->tag == tag &&
                         memcmp(m->xyz + 3 * (size_t)(q->vert - 1), c,
                                3 * sizeof *c) == 0))
            return q;
    }
}

/* w's table, cap slots (a power of two above twice m's vertices), empty
 * then holding m's vertices: the first table of a build, and each time
 * it fills past half.  XG_OK or XG_ENOMEM. */
static int weld_table(struct xg__mesh *m, struct weld *w, size_t cap)
{
    struct xg__mesh_scratch *k = &m->work;
    size_t v;
    if (xg__reserve(&k->slot, &k->cap_slot, cap, sizeof *w->tab))
        return XG_ENOMEM;
    w->tab = k->slot;
    w->cap = cap;
    memset(w->tab, 0, cap * sizeof *w->tab);
    for (v = 0; v < m->nvert; v++) {
        const double *c = m->xyz + 3 * v;
        uint64_t h = vertex_hash(c);
        struct vertex_slot *q = weld_find(m, w, c, h);
        q->vert = (uint32_t)v + 1;
        q->tag = (uint32_t)(h >> 32);
    }
    return XG_OK;
}

/* Whether side k of triangle t (9 doubles) starts at its second end:
 * its ends ordered by x, then y, then z, on the first coordinate where
 * they differ (no swap when none does).  Its two directions give one
 * pair; the order is the one inside's closedness check has always used,
 * down to NaN, which != finds different and < orders as it falls. */
static int side_swapped(const double *t, int k)
{
    const double *u = t + 3 * k, *v = t + 3 * ((k + 1) % 3);
    int j;
    for (j = 0; j < 3; j++)
        if (u[j] != v[j])
            return v[j] < u[j];
    return 0;
}

/* The vertex of corner p (3 doubles) into *id: found in w, or added to
 * m (its coordinates with -0 as +0) and w.  XG_OK or XG_ENOMEM. */
static int weld_corner(struct xg__mesh *m, struct weld *w, const double *p,
                       uint32_t *id)
{
    double c[3];
    uint64_t h;
    struct vertex_slot *q;
    c[0] = p[0] + 0.0;   /* -0 + 0.0 is +0: one vertex, as == says */
    c[1] = p[1] + 0.0;
    c[2] = p[2] + 0.0;
    h = vertex_hash(c);
    q = weld_find(m, w, c, h);
    if (q->vert) {
        *id = q->vert - 1;
        return XG_OK;
    }
    if (xg__grow((void **)&m->xyz, &m->cap_xyz, m->nvert, sizeof c))
        return XG_ENOMEM;
    memcpy(m->xyz + 3 * m->nvert, c, sizeof c);
    q->vert = (uint32_t)m->nvert + 1;
    q->tag = (uint32_t)(h >> 32);
    *id = (uint32_t)m->nvert++;
    return 2 * m->nvert > w->cap ? weld_table(m, w, 2 * w->cap) : XG_OK;
}

/* m's vertices and triangles from the n triangles (xg__mesh_build's
 * arguments): each corner welded in turn, so that vertices are numbered
 * by their first corner; m->work.swap[t], bit k: side k of triangle t
 * swapped (side_swapped), while its coordinates are at hand.  XG_OK or
 * XG_ENOMEM. */
static int weld(struct xg__mesh *m, const double *xyz, const uint32_t *idx,
                size_t n)
{
    struct xg__mesh_scratch *k = &m->work;
    struct weld w;
    size_t t;
    int j, rc;
    if (xg__reserve((void **)&m->tri, &m->cap_tri, 3 * n, sizeof *m->tri) ||
        xg__reserve((void **)&k->swap, &k->cap_swap, n, 1))
        return XG_ENOMEM;
    rc = weld_table(m, &w, table_cap(n));
    for (t = 0; t < n && rc == XG_OK; t++) {
        const double *p = xyz + 9 * (size_t)(idx ? idx[t] : t);
        k->swap[t] = 0;
        for (j = 0; j < 3 && rc == XG_OK; j++) {
            k->swap[t] |= (uint8_t)(side_swapped(p, j) << j);
            rc = weld_corner(m, &w, p + 3 * j, &m->tri[3 * t + (size_t)j]);
        }
    }
    return rc;
}

/* xg__mesh_build (xg_mesh.h): welded, then its edges. */
int xg__mesh_build(struct xg__mesh *m, const double *xyz,
                   const uint32_t *idx, size_t n)
{
    int rc;
    m->nvert = m->nedge = m->ntri = 0;
    if (n > (UINT32_MAX - 1) / 3)
        return XG_ENOMEM;
    m->ntri = n;
    if (n == 0)
        return XG_OK;
    if ((rc = weld(m, xyz, idx, n)) != XG_OK)
        return rc;
    return xg__mesh_edges_build(m);
}

/* A huge page's bytes. */
#define HUGE_PAGE ((size_t)2 << 20)

/* One array of m's storage, *p with capacity *cap, replaced by a fresh
 * one of need elements of sz bytes when it holds fewer.  From a quarter
 * of a huge page up, it takes whole huge pages (xg__big_alloc): a
 * 1.5 MiB array would otherwise fault in 4 KiB at a time, as an array
 * of a part of a huge page does at its end.  XG_OK or XG_ENOMEM. */
static int reserve_big(void **p, size_t *cap, size_t need, size_t sz)
{
    size_t bytes;
    void *q;
    if (need <= *cap)
        return XG_OK;
    if (need > (SIZE_MAX - HUGE_PAGE) / sz)
        return XG_ENOMEM;
    bytes = need * sz;
    if (bytes >= HUGE_PAGE / 4)
        bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    if (!(q = xg__big_alloc(bytes)))
        return XG_ENOMEM;
    free(*p);
    *p = q;
    *cap = bytes / sz;
    return XG_OK;
}

/* xg__mesh_reserve (xg_mesh.h): each array at the most a build of n
 * triangles can need (3 n edges), but the vertices' at n + 3 (a closed
 * surface has n / 2 + 2, a soup of unshared corners 3 n: its arrays
 * grow), the weld's table at its first size; pages never written cost
 * nothing. */
int xg__mesh_reserve(struct xg__mesh *m, size_t n)
{
    struct xg__mesh_scratch *w = &m->work;
    size_t c = 3 * n, nv = n + 3;
    if (n > (UINT32_MAX - 1) / 3)
        return XG_ENOMEM;
    if (reserve_big((void **)&m->xyz, &m->cap_xyz, nv, 3 * sizeof *m->xyz) ||
        reserve_big((void **)&m->tri, &m->cap_tri, c, sizeof *m->tri) ||
        reserve_big((void **)&m->edge, &m->cap_edge, 2 * c,
                    sizeof *m->edge) ||
        reserve_big((void **)&m->edge_start, &m->cap_edge_start, c + 1,
                    sizeof *m->edge_start) ||
        reserve_big((void **)&m->use, &m->cap_use, c, sizeof *m->use) ||
        reserve_big(&w->slot, &w->cap_slot, table_cap(n),
                    sizeof(struct vertex_slot)) ||
        reserve_big((void **)&w->side, &w->cap_side, c, sizeof *w->side) ||
        reserve_big((void **)&w->start, &w->cap_start, nv + 1,
                    sizeof *w->start) ||
        reserve_big((void **)&w->cursor, &w->cap_cursor, nv,
                    sizeof *w->cursor) ||
        reserve_big((void **)&w->swap, &w->cap_swap, n, 1))
        return XG_ENOMEM;
    return XG_OK;
}

/* xg__mesh_free (xg_mesh.h). */
void xg__mesh_free(struct xg__mesh *m)
{
    if (!m)
        return;
    free(m->xyz);
    free(m->tri);
    free(m->edge);
    free(m->edge_start);
    free(m->use);
    free(m->work.slot);
    free(m->work.side);
    free(m->work.start);
    free(m->work.cursor);
    free(m->work.swap);
    memset(m, 0, sizeof *m);
}

/* xg__mesh_odd_edges (xg_mesh.h). */
uint64_t xg__mesh_odd_edges(const struct xg__mesh *m)
{
    uint64_t odd = 0;
    size_t e;
    for (e = 0; e < m->nedge; e++)
        odd += (m->edge_start[e + 1] - m->edge_start[e]) & 1u;
    return odd;
}

/* xg__mesh_irregular_edges (xg_mesh.h). */
uint64_t xg__mesh_irregular_edges(const struct xg__mesh *m)
{
    uint64_t bad = 0;
    size_t e;
    for (e = 0; e < m->nedge; e++)
        bad += m->edge_start[e + 1] - m->edge_start[e] != 2;
    return bad;
}
