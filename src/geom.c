/* geom.c -- growable arrays of segments, triangles and contacts, and
 * the allocator of large working arrays. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include "xg_internal.h"

/* Grows *v (elements of size sz, n used, *cap allocated) to hold one more. */
static int grow(void **v, size_t *cap, size_t n, size_t sz)
{
    size_t ncap;
    void *p;
    if (n < *cap)
        return XG_OK;
    ncap = *cap ? *cap * 2 : 64;
    if (ncap > SIZE_MAX / sz)
        return XG_ENOMEM;
    p = realloc(*v, ncap * sz);
    if (!p)
        return XG_ENOMEM;
    *v = p;
    *cap = ncap;
    return XG_OK;
}

/* Grows the three parallel arrays of a set to hold one more element. */
static int grow_set(double **xyz, int64_t **fid, int64_t **sub, size_t *cap,
                    size_t n, size_t ncoord)
{
    size_t c1 = *cap, c2 = *cap, c3 = *cap;
    if (n < *cap)
        return XG_OK;
    if (grow((void **)xyz, &c1, n, ncoord * sizeof(double)) ||
        grow((void **)fid, &c2, n, sizeof(int64_t)) ||
        grow((void **)sub, &c3, n, sizeof(int64_t)))
        return XG_ENOMEM;
    *cap = c1;
    return XG_OK;
}

int xg_segs_push(struct xg_segs *s, const double p[3], const double q[3],
                 int64_t fid, int64_t sub)
{
    double *v;
    if (s->n >= UINT32_MAX)
        return XG_ELIMIT;
    if (grow_set(&s->xyz, &s->fid, &s->sub, &s->cap, s->n, 6))
        return XG_ENOMEM;
    v = s->xyz + 6 * s->n;
    memcpy(v, p, 3 * sizeof *v);
    memcpy(v + 3, q, 3 * sizeof *v);
    s->fid[s->n] = fid;
    s->sub[s->n] = sub;
    s->n++;
    return XG_OK;
}

void xg_segs_free(struct xg_segs *s)
{
    if (!s)
        return;
    free(s->xyz);
    free(s->fid);
    free(s->sub);
    memset(s, 0, sizeof *s);
}

int xg_tris_push(struct xg_tris *t, const double a[3], const double b[3],
                 const double c[3], int64_t fid, int64_t sub)
{
    double *v;
    if (t->n >= UINT32_MAX)
        return XG_ELIMIT;
    if (grow_set(&t->xyz, &t->fid, &t->sub, &t->cap, t->n, 9))
        return XG_ENOMEM;
    v = t->xyz + 9 * t->n;
    memcpy(v, a, 3 * sizeof *v);
    memcpy(v + 3, b, 3 * sizeof *v);
    memcpy(v + 6, c, 3 * sizeof *v);
    t->fid[t->n] = fid;
    t->sub[t->n] = sub;
    t->n++;
    return XG_OK;
}

void xg_tris_free(struct xg_tris *t)
{
    if (!t)
        return;
    free(t->xyz);
    free(t->fid);
    free(t->sub);
    memset(t, 0, sizeof *t);
}

int xg__contacts_push(struct xg_contacts *c, const struct xg_contact *x)
{
    if (grow((void **)&c->v, &c->cap, c->n, sizeof *c->v))
        return XG_ENOMEM;
    c->v[c->n++] = *x;
    return XG_OK;
}

void xg_contacts_free(struct xg_contacts *c)
{
    if (!c)
        return;
    free(c->v);
    memset(c, 0, sizeof *c);
}

size_t xg_contacts_diff(const struct xg_contacts *x,
                        const struct xg_contacts *y)
{
    size_t i, n = x->n < y->n ? x->n : y->n;
    for (i = 0; i < n; i++) {
        const struct xg_contact *p = &x->v[i], *q = &y->v[i];
        if (p->a != q->a || p->b != q->b || p->kind != q->kind ||
            memcmp(p->p, q->p, sizeof p->p) != 0 ||
            memcmp(p->q, q->q, sizeof p->q) != 0)
            return i;
    }
    return x->n == y->n ? SIZE_MAX : n;
}

static int by_pair(const void *x, const void *y)
{
    const struct xg_contact *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    return 0;
}

void xg__contacts_sort(struct xg_contacts *c)
{
    if (c->n > 1)
        qsort(c->v, c->n, sizeof *c->v, by_pair);
}

/* Large working arrays (grid, boxes) are touched once, page by page, and
 * with 4 KiB pages the first-touch faults cost as much as the work that
 * fills them (about 50,000 faults for a million triangles).  Aligned to
 * 2 MiB and marked for transparent huge pages, they take a few hundred. */
#define BIG (4u << 20)
#define HUGE_ALIGN (2u << 20)

void *xg__big_alloc(size_t bytes)
{
    void *p = NULL;
    if (bytes < BIG)
        return malloc(bytes ? bytes : 1);
    if (posix_memalign(&p, HUGE_ALIGN, bytes) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

void *xg__big_calloc(size_t n, size_t size)
{
    void *p;
    if (size && n > SIZE_MAX / size)
        return NULL;
    if (n * size < BIG)
        return calloc(n ? n : 1, size ? size : 1);
    p = xg__big_alloc(n * size);
    if (p)
        memset(p, 0, n * size);
    return p;
}
