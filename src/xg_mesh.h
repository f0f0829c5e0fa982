/*
 * xg_mesh.h -- the indexed mesh: a triangle soup (9 doubles a triangle)
 * turned into vertices, triangles as three vertex numbers, and the
 * undirected edges with the triangles that use them.  The one notion of
 * "the edges of a surface" in the library: inside's closedness check
 * (inside_edges.c, xg_open_edges) counts on it, and what checks a mesh
 * next (selfx, mesh x mesh) should too.
 *
 * Exact throughout, nothing rounded or snapped:
 *   - two corners are one vertex when their coordinates are the same
 *     doubles bit for bit, -0 taken as +0 (x + 0.0): 1 ulp apart is two
 *     vertices;
 *   - an edge is the pair of its ends ordered by x, then y, then z, on
 *     the first coordinate where they differ (mesh.c's side_swapped);
 *     its two directions are one edge.
 * The build is sequential and its result depends on the input's order
 * only: vertices are numbered by their first corner, edges by (first
 * end, second end), each edge's uses ascending.
 */
#ifndef XG_MESH_H
#define XG_MESH_H

#include <stddef.h>
#include <stdint.h>
#include "exactgeo.h"

/* An indexed mesh; every array is the mesh's, freed by xg__mesh_free.
 * Triangle t is the t-th triangle the build was given.  A use is a
 * triangle's side: use 3 t + k is the side from corner k to corner
 * (k + 1) % 3 of triangle t.  A triangle with two corners one vertex
 * uses an edge twice (or an edge from a vertex to itself): the counts
 * below are of uses, so that such a triangle counts as its three
 * sides. */
struct xg__mesh {
    size_t nvert;
    double *xyz;          /* 3 per vertex: its coordinates, -0 as +0  */
    size_t ntri;
    uint32_t *tri;        /* 3 per triangle: its corners' vertices    */
    size_t nedge;
    uint32_t *edge;       /* 2 per edge: its ends, ordered            */
    uint32_t *edge_start; /* nedge + 1: edge e's uses are             */
    uint32_t *use;        /* use[edge_start[e] .. edge_start[e+1]-1]  */
    /* The build's storage, kept for the next build into the same mesh
     * (a thread's next solid): the arrays above and the build's scratch,
     * each with its capacity in elements (xg__reserve's).  Fresh pages
     * fault in at their first write, which costs the build of a solid of
     * 60k triangles more than its work. */
    size_t cap_xyz, cap_tri, cap_edge, cap_edge_start, cap_use;
    struct xg__mesh_scratch {
        void *slot;       /* the weld's table (mesh.c)                */
        uint64_t *side;   /* the sides by first end (mesh_edges.c)    */
        uint32_t *start, *cursor;   /* their CSR (xg_csr.h)           */
        uint8_t *swap;    /* per triangle: its sides' order           */
        size_t cap_slot, cap_side, cap_start, cap_cursor, cap_swap;
    } work;
};

/* Builds m from the n triangles idx[0 .. n-1] of xyz (9 doubles each;
 * idx NULL: triangles 0 .. n-1): the vertices welded, the triangles
 * indexed, the edges and their uses (each edge's ascending).  m is the
 * caller's: zeroed, or a previous build's, whose storage it reuses
 * (grown where needed) and whose answer it replaces.  Free it with
 * xg__mesh_free, after a failure too.  XG_OK, or XG_ENOMEM (also when
 * 3 n does not fit 32 bits: the uses are numbered in 32 bits). */
int xg__mesh_build(struct xg__mesh *m, const double *xyz,
                   const uint32_t *idx, size_t n);

/* Sizes m's storage (zeroed or a previous build's) for a build of n
 * triangles, each array at the most the build can need, on huge pages
 * (xg__big_alloc; pages never written cost nothing), so that the build
 * neither grows its arrays by copies nor faults their fresh pages in
 * 4 KiB at a time: xg_open_edges' one build at 2.5 * 10^5 triangles,
 * 0.10 s without, 0.03 s with (0.07 s: the edge table it replaced).
 * Arrays already large enough are kept.  XG_OK or XG_ENOMEM. */
int xg__mesh_reserve(struct xg__mesh *m, size_t n);

/* xg__mesh_build's second step (mesh_edges.c): m's edges and their uses
 * from its vertices and triangles, made; m->work.swap[t], bit k: side k
 * of triangle t starts at its second end (the first step finds it,
 * where the coordinates are).  XG_OK or XG_ENOMEM. */
int xg__mesh_edges_build(struct xg__mesh *m);

/* Frees m's arrays and its storage and zeroes it; m may be NULL, or a
 * zeroed or failed build. */
void xg__mesh_free(struct xg__mesh *m);

/* The uses of edge e < m->nedge (their number, the array at *use: the
 * mesh's); triangle use[i] / 3 holds it as its side use[i] % 3. */
static inline size_t xg__mesh_edge_uses(const struct xg__mesh *m, size_t e,
                                        const uint32_t **use)
{
    *use = m->use + m->edge_start[e];
    return m->edge_start[e + 1] - m->edge_start[e];
}

/* The edges used an odd number of times: a closed surface has none (its
 * every edge used by two triangles, or by an even number where two
 * solids touch along it).  inside's closedness test. */
uint64_t xg__mesh_odd_edges(const struct xg__mesh *m);

/* The edges not used exactly twice: open (once) or non-manifold (three
 * times or more). */
uint64_t xg__mesh_irregular_edges(const struct xg__mesh *m);

#endif /* XG_MESH_H */
