/*
 * inside_edges.c -- the open edges of a triangulated surface: the edges
 * of its indexed mesh (xg_mesh.h) used an odd number of times.
 * inside's closedness check (inside_check.c) and the public
 * xg_open_edges.
 */
#include <string.h>
#include "xg_inside.h"
#include "xg_mesh.h"

/* xg__open_edges (xg_inside.h): the mesh of the n triangles, its odd
 * edges. */
int xg__open_edges(struct xg__mesh *m, const double *xyz,
                   const uint32_t *idx, size_t n, uint64_t *open)
{
    int rc = xg__mesh_build(m, xyz, idx, n);
    *open = rc == XG_OK ? xg__mesh_odd_edges(m) : 0;
    return rc;
}

/* xg_open_edges (exactgeo.h): xg__open_edges over the whole array, in a
 * mesh of its own. */
int xg_open_edges(const double *tri, size_t ntri, uint64_t *open)
{
    struct xg__mesh m;
    int rc;
    if (!open || (!tri && ntri))
        return XG_EINVAL;
    memset(&m, 0, sizeof m);
    rc = xg__mesh_reserve(&m, ntri);
    if (rc == XG_OK)
        rc = xg__open_edges(&m, tri, NULL, ntri, open);
    xg__mesh_free(&m);
    return rc;
}
