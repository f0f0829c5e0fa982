/* geom.c -- growable element sets and contacts, and
 * the allocator of large working arrays. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include "exactgeo.h"
#include "xg_mem.h"
#include "xg_sets.h"

/* The arrays xg__big_alloc backs with huge pages: from BIG bytes, aligned
 * to HUGE_ALIGN (see xg__big_alloc). */
#define BIG (1u << 20)
#define HUGE_ALIGN (2u << 20)

/* *v (*cap elements of sz bytes) given a capacity of ncap > *cap
 * elements (ncap * sz not past SIZE_MAX), what it holds kept: realloc
 * below a megabyte; from there xg__big_alloc's huge pages (a copy, as
 * realloc's move would be): the reader's sets and the engines' records
 * are first touched page by page as they fill, and on 4 KiB pages those
 * faults were most of the read's own time (2*10^6 points, 2 cores: the
 * read 0.52 s against GDAL's Arrow floor of 0.22; 0.35 s on huge
 * pages). */
static int move_to(void **v, size_t *cap, size_t ncap, size_t sz)
{
    void *p;
    if (ncap * sz < BIG || *cap * sz >= BIG)
        p = realloc(*v, ncap * sz);
    else if ((p = xg__big_alloc(ncap * sz)) != NULL) {
        if (*cap)
            memcpy(p, *v, *cap * sz);
        free(*v);
    }
    if (!p)
        return XG_ENOMEM;
    *v = p;
    *cap = ncap;
    return XG_OK;
}

/* xg__reserve (xg_mem.h): xg__grow_array's rule (xg_grow.h), its
 * failure (out of memory, or a size past SIZE_MAX) as XG_ENOMEM; the
 * memory move_to's. */
int xg__reserve(void **v, size_t *cap, size_t need, size_t sz)
{
    size_t ncap;
    if (need <= *cap)
        return XG_OK;
    if (xg__grow_cap(*cap, need, sz, &ncap))
        return XG_ENOMEM;
    return move_to(v, cap, ncap, sz);
}

/* As xg__reserve, to exactly need elements: a count known ahead. */
static int reserve_exact(void **v, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap)
        return XG_OK;
    if (need > SIZE_MAX / sz)
        return XG_ENOMEM;
    return move_to(v, cap, need, sz);
}

int xg_elem_doubles(int elem)
{
    static const int doubles[XG_ELEM_COUNT] = {0, 3, 6, 9};
    return elem > XG_ELEM_NONE && elem < XG_ELEM_COUNT ? doubles[elem] : 0;
}

const char *xg_elem_name(int elem)
{
    static const char *const names[XG_ELEM_COUNT] = {
        "element", "point", "segment", "triangle"};
    return elem > XG_ELEM_NONE && elem < XG_ELEM_COUNT ? names[elem]
                                                        : "element";
}

int xg_set_push(struct xg_set *s, int elem, const double *xyz, int64_t fid,
                int64_t sub)
{
    const int nd = xg_elem_doubles(elem);
    size_t c1 = s->cap, c2 = s->cap, c3 = s->cap;
    if (nd == 0 || (s->elem != XG_ELEM_NONE && s->elem != elem))
        return XG_EINVAL;
    if (s->n >= UINT32_MAX)
        return XG_ELIMIT;
    if (xg__grow((void **)&s->xyz, &c1, s->n, (size_t)nd * sizeof(double)) ||
        xg__grow((void **)&s->fid, &c2, s->n, sizeof(int64_t)) ||
        xg__grow((void **)&s->sub, &c3, s->n, sizeof(int64_t)))
        return XG_ENOMEM;
    s->cap = c1;
    s->elem = elem;
    memcpy(s->xyz + (size_t)nd * s->n, xyz, (size_t)nd * sizeof(double));
    s->fid[s->n] = fid;
    s->sub[s->n] = sub;
    s->n++;
    return XG_OK;
}

int xg_set_reserve(struct xg_set *s, int elem, size_t n)
{
    const int nd = xg_elem_doubles(elem);
    size_t c1 = s->cap, c2 = s->cap, c3 = s->cap;
    if (nd == 0 || (s->elem != XG_ELEM_NONE && s->elem != elem))
        return XG_EINVAL;
    if (n <= s->cap)
        return XG_OK;
    if (reserve_exact((void **)&s->xyz, &c1, n, (size_t)nd * sizeof(double)) ||
        reserve_exact((void **)&s->fid, &c2, n, sizeof(int64_t)) ||
        reserve_exact((void **)&s->sub, &c3, n, sizeof(int64_t)))
        return XG_ENOMEM; /* each array at least s->cap still */
    s->cap = c1;
    s->elem = elem;
    return XG_OK;
}

int xg_set_push_point(struct xg_set *s, const double p[3], int64_t fid,
                      int64_t sub)
{
    return xg_set_push(s, XG_ELEM_POINT, p, fid, sub);
}

int xg_set_push_segment(struct xg_set *s, const double p[3],
                        const double q[3], int64_t fid, int64_t sub)
{
    const double v[6] = {p[0], p[1], p[2], q[0], q[1], q[2]};
    return xg_set_push(s, XG_ELEM_SEGMENT, v, fid, sub);
}

int xg_set_push_triangle(struct xg_set *s, const double a[3],
                         const double b[3], const double c[3], int64_t fid,
                         int64_t sub)
{
    const double v[9] = {a[0], a[1], a[2], b[0], b[1], b[2],
                         c[0], c[1], c[2]};
    return xg_set_push(s, XG_ELEM_TRIANGLE, v, fid, sub);
}

void xg_set_free(struct xg_set *s)
{
    if (!s)
        return;
    free(s->xyz);
    free(s->fid);
    free(s->sub);
    memset(s, 0, sizeof *s);
}

int xg__contacts_push(struct xg_contacts *c, const struct xg_contact *x)
{
    if (xg__grow((void **)&c->v, &c->cap, c->n, sizeof *c->v))
        return XG_ENOMEM;
    c->v[c->n++] = *x;
    return XG_OK;
}

int xg_contacts_reserve(struct xg_contacts *c, size_t n)
{
    return reserve_exact((void **)&c->v, &c->cap, n, sizeof *c->v);
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

/* qsort order of contacts by (a, b) alone: contacts of one pair
 * compare equal. */
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
    size_t i, j;
    /* The cpu engine sorts each segment's few contacts: qsort's call
     * per comparison would cost more than the comparisons. */
    if (c->n <= 16) {
        for (i = 1; i < c->n; i++) {
            struct xg_contact x = c->v[i];
            for (j = i; j > 0 && by_pair(&c->v[j - 1], &x) > 0; j--)
                c->v[j] = c->v[j - 1];
            c->v[j] = x;
        }
        return;
    }
    /* Engines that make their contacts in order pay one pass, not
     * qsort's copies of 64-byte records. */
    for (i = 1; i < c->n; i++)
        if (by_pair(&c->v[i - 1], &c->v[i]) > 0) {
            qsort(c->v, c->n, sizeof *c->v, by_pair);
            return;
        }
}

int xg__contacts_merge(const struct xg_contacts *const *lists, size_t n,
                       struct xg_contacts *out)
{
    size_t total = 0, *pos, i;
    for (i = 0; i < n; i++)
        total += lists[i]->n;
    out->v = malloc((total ? total : 1) * sizeof *out->v);
    pos = calloc(n ? n : 1, sizeof *pos);
    if (!out->v || !pos) {
        free(out->v);
        free(pos);
        memset(out, 0, sizeof *out);
        return XG_ENOMEM;
    }
    out->cap = total ? total : 1;
    out->n = 0;
    while (out->n < total) {
        size_t best = 0;
        const struct xg_contact *bv = NULL;
        for (i = 0; i < n; i++) {
            const struct xg_contact *x;
            if (pos[i] == lists[i]->n)
                continue;
            x = &lists[i]->v[pos[i]];
            if (!bv || by_pair(x, bv) < 0) {
                bv = x;
                best = i;
            }
        }
        out->v[out->n++] = *bv;
        pos[best]++;
    }
    free(pos);
    return XG_OK;
}

/* Large working arrays (grid, boxes) are touched once, page by page, and
 * with 4 KiB pages the first-touch faults cost as much as the work that
 * fills them (about 50,000 faults for a million triangles).  Aligned to
 * 2 MiB and marked for transparent huge pages, they take a few hundred.
 * From 1 MiB: a world map's grid counters and lists (2.5 MiB each) took
 * a quarter of its faults under 4 MiB, and on a virtual machine a 4 KiB
 * first touch runs at 0.1 to 2 GB/s against 6 to 11 for huge pages. */

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
