/*
 * group.c -- the features of an input grouped by a field (-bgroup): one
 * solid or mesh per distinct value, as mining packages export a
 * wireframe (a DXF of 3DFACE entities, one triangle each, the solid
 * named by the entity's layer).  The reader records each feature that
 * gave elements (xgo__group_add); xgo__group_finish then moves each
 * group's elements together, gives them the group's id and numbers them
 * in it, and keeps one set of attributes per group.
 *
 * A group's id is the lowest FID of its features; its elements are those
 * of its features in ascending FID, each feature's in its order, so that
 * sub (b_tri) counts over the group as it counts over the parts of one
 * feature; the groups come in ascending id.  Its attributes (-bcopy) are
 * those of that lowest feature, the group's value among them.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include "xg_grow.h"
#include "xgo_internal.h"

int xgo__group_add(struct xgo_groups *g, const struct xgo_src *s,
                   OGRFeatureH f, GIntBig fid, size_t first, size_t end,
                   size_t kept, char *err, size_t errlen)
{
    struct xgo_group_feat *m;
    if (!OGR_F_IsFieldSetAndNotNull(f, g->field))
        return xgo__fail(err, errlen, XG_EFORMAT, "%s, layer '%s', feature "
                         "%lld: field '%s' is NULL: no group to put it in",
                         s->path, s->name, (long long)fid,
                         OGR_Fld_GetNameRef(OGR_F_GetFieldDefnRef(f,
                                                                  g->field)));
    if (xg__grow_array((void **)&g->v, &g->cap, g->n + 1, sizeof *g->v))
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    m = &g->v[g->n];
    if (!(m->key = strdup(OGR_F_GetFieldAsString(f, g->field))))
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    m->fid = fid;
    m->first = first;
    m->end = end;
    m->kept = kept;
    g->n++;
    return XG_OK;
}

/* By group value, then FID. */
static int by_key_fid(const void *pa, const void *pb)
{
    const struct xgo_group_feat *a = *(const struct xgo_group_feat *const *)pa;
    const struct xgo_group_feat *b = *(const struct xgo_group_feat *const *)pb;
    int c = strcmp(a->key, b->key);
    if (c)
        return c;
    return (a->fid > b->fid) - (a->fid < b->fid);
}

/* One group: its members, from at in the sorted list. */
struct group {
    size_t at, nfeat;
    GIntBig fid;              /* the lowest of its members' */
};

/* qsort order of struct group: ascending by the lowest member's FID, so
 * that the groups' numbers follow their FIDs, whatever their keys. */
static int by_fid(const void *pa, const void *pb)
{
    const struct group *a = pa, *b = pb;
    return (a->fid > b->fid) - (a->fid < b->fid);
}

/* Frees g's keys and table (not g); NULL is a no-op, and g is left empty
 * so that a second free does nothing. */
void xgo__groups_free(struct xgo_groups *g)
{
    size_t i;
    if (!g)
        return;
    for (i = 0; i < g->n; i++)
        free(g->v[i].key);
    free(g->v);
    g->v = NULL;
    g->n = g->cap = 0;
}

int xgo__group_finish(struct xgo_groups *g, struct xgo_src *s,
                      struct xg_set *set, xgo_group_check check, void *arg,
                      char *err, size_t errlen)
{
    const size_t nd = (size_t)xg_elem_doubles(set->elem);
    struct xgo_group_feat **p = NULL;
    struct group *gr = NULL;
    double *xyz = NULL;
    int64_t *fid = NULL, *sub = NULL;
    OGRFeatureH *feat = NULL;
    size_t *firsts = NULL, ng = 0, nkept = 0, w = 0, i, j, e;
    int rc = XG_OK;

    if (set->n == 0 || g->n == 0)
        goto done;
    p = malloc(g->n * sizeof *p);
    gr = malloc(g->n * sizeof *gr);
    xyz = malloc(set->n * nd * sizeof *xyz);
    fid = malloc(set->n * sizeof *fid);
    sub = malloc(set->n * sizeof *sub);
    if (s->ncopy > 0) {
        feat = malloc(g->n * sizeof *feat);
        firsts = malloc(g->n * sizeof *firsts);
    }
    if (!p || !gr || !xyz || !fid || !sub ||
        (s->ncopy > 0 && (!feat || !firsts))) {
        rc = xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        goto done;
    }
    for (i = 0; i < g->n; i++)
        p[i] = &g->v[i];
    qsort(p, g->n, sizeof *p, by_key_fid);
    for (i = 0; i < g->n; i = j) {
        for (j = i + 1; j < g->n && strcmp(p[j]->key, p[i]->key) == 0; j++)
            ;
        gr[ng].at = i;
        gr[ng].nfeat = j - i;
        gr[ng++].fid = p[i]->fid;
    }
    qsort(gr, ng, sizeof *gr, by_fid);
    for (i = 0; i < ng && rc == XG_OK; i++) {
        size_t w0 = w;
        int drop = 0;
        for (j = gr[i].at; j < gr[i].at + gr[i].nfeat; j++)
            for (e = p[j]->first; e < p[j]->end; e++, w++) {
                memcpy(xyz + nd * w, set->xyz + nd * e, nd * sizeof *xyz);
                fid[w] = gr[i].fid;
                sub[w] = (int64_t)(w - w0);
            }
        if (check)
            rc = check(arg, xyz + nd * w0, w - w0, p[gr[i].at]->key,
                       gr[i].fid, gr[i].nfeat, &drop);
        if (drop)
            w = w0;
        else if (s->ncopy > 0) {
            /* the lowest feature's attributes stand for the group */
            size_t k = p[gr[i].at]->kept;
            feat[nkept] = s->feat[k];
            s->feat[k] = NULL;
            firsts[nkept++] = w0;
        }
    }
    if (rc != XG_OK)
        goto done;
    {
        struct xg_set grouped = {.elem = set->elem, .n = w, .cap = set->n,
                                 .xyz = xyz, .fid = fid, .sub = sub};
        xg_set_free(set);
        *set = grouped;
        xyz = NULL;
        fid = sub = NULL;
    }
    if (s->ncopy > 0) {
        for (i = 0; i < s->nfeat; i++)
            if (s->feat[i])
                OGR_F_Destroy(s->feat[i]);
        free(s->feat);
        free(s->first);
        s->feat = feat;
        s->first = firsts;
        s->nfeat = nkept;
        s->cap = g->n;
        feat = NULL;
        firsts = NULL;
    }
    g->ngroups = ng;
done:
    for (i = 0; feat && i < nkept; i++)   /* a failure: those moved here */
        OGR_F_Destroy(feat[i]);
    free(p);
    free(gr);
    free(xyz);
    free(fid);
    free(sub);
    free(feat);
    free(firsts);
    return rc;
}
