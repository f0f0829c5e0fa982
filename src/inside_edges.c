/*
 * inside_edges.c -- the open edges of a triangulated surface: a hash
 * table of its edges, each counting its uses; an edge used an odd number
 * of times is open.  inside's closedness check (inside_check.c) and the
 * public xg_open_edges.
 */
#include <stdlib.h>
#include <string.h>
#include "xg_inside.h"
#include "xg_mem.h"

/* An edge's ends, the lesser (by x, then y, then z) first, -0 as +0. */
static void edge_ends(const double *t, int k, double e[6])
{
    const double *u = t + 3 * k, *v = t + 3 * ((k + 1) % 3);
    int j, swap = 0;
    for (j = 0; j < 3; j++)
        if (u[j] != v[j]) {
            swap = v[j] < u[j];
            break;
        }
    for (j = 0; j < 3; j++) {
        e[j] = (swap ? v[j] : u[j]) + 0.0;
        e[3 + j] = (swap ? u[j] : v[j]) + 0.0;
    }
}

/* A hash of an edge's six coordinates (edge_ends' order), by bits. */
static uint64_t edge_hash(const double e[6])
{
    uint64_t h = 0x9e3779b97f4a7c15ull, w;
    int j;
    for (j = 0; j < 6; j++) {
        memcpy(&w, &e[j], 8);
        h ^= w;
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    return h;
}

/* One edge seen: its number + 1 (0: an empty slot), and a tag: the
 * high 31 bits of its hash, then the parity of its uses in bit 0.  Eight
 * bytes, so that the table of a large solid stays small in cache; the
 * tag spares the coordinates' comparison for most probes. */
struct edge_slot {
    uint32_t edge, tag;
};

/* xg__open_edges (xg_inside.h): each edge inserted by its ends, found
 * by tag then exactly by its coordinates, its parity flipped. */
int xg__open_edges(const double *xyz, const uint32_t *idx, size_t n,
                   uint64_t *open)
{
    size_t cap = 16, m = 3 * n, e, i;
    struct edge_slot *tab;
    uint64_t odd = 0;

    *open = 0;
    if (n == 0)
        return XG_OK;
    if (m > UINT32_MAX - 1)
        return XG_ENOMEM;
    while (cap < 2 * m)
        cap *= 2;
    if (!(tab = xg__big_calloc(cap, sizeof *tab)))
        return XG_ENOMEM;
    for (e = 0; e < m; e++) {
        double k[6], o[6];
        const double *t = xyz + 9 * (size_t)(idx ? idx[e / 3] : e / 3);
        uint64_t h;
        uint32_t tag;
        edge_ends(t, (int)(e % 3), k);
        h = edge_hash(k);
        tag = (uint32_t)(h >> 32) & ~1u;
        for (i = (size_t)h & (cap - 1);; i = (i + 1) & (cap - 1)) {
            struct edge_slot *q = &tab[i];
            const double *u;
            size_t f;
            if (!q->edge) {
                q->edge = (uint32_t)e + 1;
                q->tag = tag | 1u;
                break;
            }
            if ((q->tag & ~1u) != tag)
                continue;
            /* equal tags: the coordinates decide, exactly */
            f = q->edge - 1;
            u = xyz + 9 * (size_t)(idx ? idx[f / 3] : f / 3);
            edge_ends(u, (int)(f % 3), o);
            if (memcmp(o, k, sizeof k) == 0) {
                q->tag ^= 1u;
                break;
            }
        }
    }
    for (i = 0; i < cap; i++)
        odd += tab[i].edge && (tab[i].tag & 1u);
    free(tab);
    *open = odd;
    return XG_OK;
}

/* xg_open_edges (exactgeo.h): xg__open_edges over the whole array. */
int xg_open_edges(const double *tri, size_t ntri, uint64_t *open)
{
    if (!open || (!tri && ntri))
        return XG_EINVAL;
    return xg__open_edges(tri, NULL, ntri, open);
}
