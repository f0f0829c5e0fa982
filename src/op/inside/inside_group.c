/*
 * inside_group.c -- B's triangles grouped into solids by fid
 * (xg__solids_group).
 */
#include <stdlib.h>
#include <string.h>
#include "xg_solids.h"

/* Consecutive triangles of one fid. */
struct fid_run {
    int64_t key;          /* the fid, then the group's first triangle */
    uint32_t head, len;
};

/* Runs by key, then by their first triangle: a total order. */
static int run_before(const void *a, const void *b)
{
    const struct fid_run *x = a, *y = b;
    return x->key != y->key ? x->key < y->key : x->head < y->head;
}

/* xg__solids_group (xg_inside.h): the runs of one fid sorted together,
 * then by their group's first triangle.  Readers give one run per fid,
 * so the sorts are of runs, few. */
int xg__solids_group(const struct xg_set *b, uint32_t *order,
                     uint32_t **start, size_t *nsolid)
{
    size_t n = b->n, i, j, nr = 0, g = 0, w = 0;
    struct fid_run *r, *tmp;
    uint32_t *st;

    for (i = 0; i < n; i++)
        nr += i == 0 || b->fid[i] != b->fid[i - 1];
    r = malloc((nr + 1) * sizeof *r);
    tmp = malloc((nr + 1) * sizeof *tmp);
    st = malloc((nr + 1) * sizeof *st);
    if (!r || !tmp || !st) {
        free(r);
        free(tmp);
        free(st);
        return XG_ENOMEM;
    }
    for (i = 0, j = 0; i < n; i++)
        if (i == 0 || b->fid[i] != b->fid[i - 1]) {
            r[j].key = b->fid[i];
            r[j].head = (uint32_t)i;
            if (j)
                r[j - 1].len = r[j].head - r[j - 1].head;
            j++;
        }
    if (nr)
        r[nr - 1].len = (uint32_t)(n - r[nr - 1].head);
    xg__sort_stable(r, tmp, nr, sizeof *r, run_before);
    /* each run's key becomes its group's first triangle: the head of the
     * group's first run */
    for (j = 0; j < nr; j++) {
        int64_t fid = r[j].key;
        size_t k = j;
        while (k < nr && r[k].key == fid)
            k++;
        for (i = j; i < k; i++)
            r[i].key = (int64_t)r[j].head;
        j = k - 1;
    }
    xg__sort_stable(r, tmp, nr, sizeof *r, run_before);
    for (j = 0; j < nr; j++) {
        if (j == 0 || r[j].key != r[j - 1].key)
            st[g++] = (uint32_t)w;
        for (i = 0; i < r[j].len; i++)
            order[w++] = r[j].head + (uint32_t)i;
    }
    st[g] = (uint32_t)w;
    free(r);
    free(tmp);
    *start = st;
    *nsolid = g;
    return XG_OK;
}
