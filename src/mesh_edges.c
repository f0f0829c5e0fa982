/*
 * mesh_edges.c -- the indexed mesh's edges (xg_mesh.h), once its
 * vertices are welded: every triangle side listed under its first end
 * (the one CSR build, xg_csr.h), each vertex's list sorted by the other
 * end, and each run of one other end an edge with its uses.
 */
#include <stdlib.h>
#include <string.h>
#include "xg_mesh.h"
#include "xg_csr.h"
#include "xg_mem.h"

/* qsort's order of uint64_t. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* key[0 .. n-1] ascending (all distinct: any sort gives one order).  A
 * vertex lists about six sides, so an insertion sort; a fan's apex may
 * list thousands, so qsort past a few dozen. */
static void sort_keys(uint64_t *key, size_t n)
{
    size_t i, j;
    if (n > 32) {
        qsort(key, n, sizeof *key, cmp_u64);
        return;
    }
    for (i = 1; i < n; i++) {
        uint64_t k = key[i];
        for (j = i; j > 0 && key[j - 1] > k; j--)
            key[j] = key[j - 1];
        key[j] = k;
    }
}

/* The sides listed by first end in m->work: side[start[v] ..
 * start[v+1]-1] are vertex v's, each as other end << 32 | use, sorted.
 * XG_OK or XG_ENOMEM. */
static int list_sides(struct xg__mesh *m)
{
    struct xg__mesh_scratch *w = &m->work;
    size_t n = m->ntri, t, v;
    int k;
    if (xg__reserve((void **)&w->cursor, &w->cap_cursor, m->nvert,
                    sizeof *w->cursor) ||
        xg__reserve((void **)&w->start, &w->cap_start, m->nvert + 1,
                    sizeof *w->start) ||
        xg__reserve((void **)&w->side, &w->cap_side, 3 * n, sizeof *w->side))
        return XG_ENOMEM;
    memset(w->cursor, 0, m->nvert * sizeof *w->cursor);
    for (t = 0; t < n; t++) {       /* count */
        const uint32_t *c = m->tri + 3 * t;
        for (k = 0; k < 3; k++)
            w->cursor[c[(w->swap[t] >> k) & 1 ? (k + 1) % 3 : k]]++;
    }
    /* cannot fail: 3 n < 2^32, checked */
    if (xg__csr_scan32(w->cursor, w->start, m->nvert) != XG_OK)
        return XG_ENOMEM;
    for (t = 0; t < n; t++) {       /* fill, in use order */
        const uint32_t *c = m->tri + 3 * t;
        for (k = 0; k < 3; k++) {
            int s = (w->swap[t] >> k) & 1;
            uint32_t a = c[s ? (k + 1) % 3 : k], b = c[s ? k : (k + 1) % 3];
            w->side[w->cursor[a]++] = (uint64_t)b << 32 | (3 * t + (size_t)k);
        }
    }
    for (v = 0; v < m->nvert; v++)
        sort_keys(w->side + w->start[v], w->start[v + 1] - w->start[v]);
    return XG_OK;
}

/* m's edges from the sorted sides (list_sides'): a new edge wherever the
 * first end or the other end changes.  XG_OK or XG_ENOMEM. */
static int make_edges(struct xg__mesh *m)
{
    const uint32_t *start = m->work.start;
    const uint64_t *side = m->work.side;
    size_t nuse = 3 * m->ntri, v, i, e = 0;
    for (v = 0; v < m->nvert; v++)
        for (i = start[v]; i < start[v + 1]; i++)
            e += i == start[v] || side[i] >> 32 != side[i - 1] >> 32;
    if (xg__reserve((void **)&m->edge, &m->cap_edge, 2 * e,
                    sizeof *m->edge) ||
        xg__reserve((void **)&m->edge_start, &m->cap_edge_start, e + 1,
                    sizeof *m->edge_start) ||
        xg__reserve((void **)&m->use, &m->cap_use, nuse, sizeof *m->use))
        return XG_ENOMEM;
    m->nedge = e;
    for (e = 0, v = 0; v < m->nvert; v++)
        for (i = start[v]; i < start[v + 1]; i++) {
            if (i == start[v] || side[i] >> 32 != side[i - 1] >> 32) {
                m->edge[2 * e] = (uint32_t)v;
                m->edge[2 * e + 1] = (uint32_t)(side[i] >> 32);
                m->edge_start[e++] = (uint32_t)i;
            }
            m->use[i] = (uint32_t)side[i];
        }
    m->edge_start[e] = (uint32_t)nuse;
    return XG_OK;
}

/* xg__mesh_edges_build (xg_mesh.h): sides listed, then edges made. */
int xg__mesh_edges_build(struct xg__mesh *m)
{
    int rc = list_sides(m);
    return rc == XG_OK ? make_edges(m) : rc;
}
