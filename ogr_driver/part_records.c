/*
 * part_records.c -- the records of a run in regions: kept, put in the
 * single-process order, and, on rank 0, written through ogr_driver's
 * writer (xgp__write) or kept for the EXACTGEO driver as a single run's
 * records (xgp__keep_records), with the copied attributes fetched by FID.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include "xg_grow.h"
#include "xgp_internal.h"

#define CMP(x, y) ((x) < (y) ? -1 : (x) > (y) ? 1 : 0)

/* A single run orders its contacts by (A element, B element), indices in
 * read order; the record of no B element (b = UINT32_MAX) comes last.
 * Read order is ascending (FID, element) where the driver reads in FID
 * order (GeoPackage, Shapefile), so these keys give the same order.  No
 * two records share all four keys: a pair has one contact. */
static int rec_cmp(const void *x, const void *y)
{
    const struct xgp_rec *a = x, *b = y;
    int c;
    if ((c = CMP(a->afid, b->afid)) || (c = CMP(a->asub, b->asub)))
        return c;
    if ((c = CMP(b->has_b, a->has_b)))
        return c;
    if (!a->has_b)
        return 0;
    if ((c = CMP(a->bfid, b->bfid)))
        return c;
    return CMP(a->bsub, b->bsub);
}

int xgp__rec_cmp(const struct xgp_rec *x, const struct xgp_rec *y)
{
    return rec_cmp(x, y);
}

void xgp__recs_sort(struct xgp_rec *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof *v, rec_cmp);
}

/* ---- the merge of sorted runs ---- */

/* Records read from a file's run at a time (one buffer per run): 4096,
 * fewer where the runs are many (8 MiB of buffers in all), 256 at
 * least. */
#define CUR_RECS 4096
#define CUR_BYTES ((size_t)8 << 20)
#define CUR_MIN 256

/* One sorted run: records at v[at .. n), more in the file when left. */
struct xgp_cur {
    const struct xgp_rec *v;
    size_t n, at;
    uint64_t off, left;       /* the file's: next offset, records left  */
    struct xgp_rec *buf;      /* a file's run's buffer                  */
};

/* Loads the next records of a file's run; XG_EIO. */
static int refill(struct xgp_merge *m, struct xgp_cur *c, char *err,
                  size_t errlen)
{
    size_t k = c->left < m->bufn ? (size_t)c->left : m->bufn;
    int rc = xgp__spill_read(m->sp, c->off, c->buf, k * sizeof *c->buf, err,
                             errlen);
    c->off += k * sizeof *c->buf;
    c->left -= k;
    c->v = c->buf;
    c->n = k;
    c->at = 0;
    return rc;
}

/* Whether run x's record goes before run y's (ties: the lower run). */
static int before(const struct xgp_merge *m, size_t x, size_t y)
{
    const struct xgp_cur *a = &m->cur[x], *b = &m->cur[y];
    int c = rec_cmp(&a->v[a->at], &b->v[b->at]);
    return c < 0 || (c == 0 && x < y);
}

/* The heap's entry at i moved down to its place. */
static void sift(struct xgp_merge *m, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, s = i, t;
        if (l < m->nheap && before(m, m->heap[l], m->heap[s]))
            s = l;
        if (r < m->nheap && before(m, m->heap[r], m->heap[s]))
            s = r;
        if (s == i)
            return;
        t = m->heap[i];
        m->heap[i] = m->heap[s];
        m->heap[s] = t;
        i = s;
    }
}

int xgp__merge_begin(struct xgp_merge *m, const struct xgp_spill *sp,
                     const struct xgp_runs *runs, const struct xgp_rec *mem,
                     size_t nmem, char *err, size_t errlen)
{
    size_t k, i, nm = 0;
    int rc = XG_OK;
    memset(m, 0, sizeof *m);
    m->sp = sp;
    /* the memory's runs: where a record goes before the one ahead */
    for (k = 0; k < nmem; k++)
        nm += k == 0 || rec_cmp(&mem[k], &mem[k - 1]) < 0;
    m->ncur = nm + (runs ? runs->n : 0);
    m->cur = calloc(m->ncur ? m->ncur : 1, sizeof *m->cur);
    m->heap = malloc((m->ncur ? m->ncur : 1) * sizeof *m->heap);
    if (!m->cur || !m->heap)
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    for (k = 0, i = 0; k < nmem; k++) {
        if (k > 0 && rec_cmp(&mem[k], &mem[k - 1]) >= 0) {
            m->cur[i - 1].n++;
            continue;
        }
        m->cur[i].v = mem + k;
        m->cur[i++].n = 1;
    }
    m->n = nmem;
    m->bufn = CUR_RECS;
    if (runs && runs->n && CUR_BYTES / runs->n / sizeof(struct xgp_rec) <
                               CUR_RECS)
        m->bufn = CUR_BYTES / runs->n / sizeof(struct xgp_rec);
    if (m->bufn < CUR_MIN)
        m->bufn = CUR_MIN;
    for (k = 0; runs && k < runs->n && rc == XG_OK; k++, i++) {
        struct xgp_cur *c = &m->cur[i];
        c->off = runs->v[k].off;
        c->left = runs->v[k].len / sizeof(struct xgp_rec);
        m->n += c->left;
        if (!(c->buf = malloc(m->bufn * sizeof *c->buf)))
            rc = xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        else
            rc = refill(m, c, err, errlen);
    }
    if (rc != XG_OK)
        return rc;
    for (k = 0; k < m->ncur; k++)
        if (m->cur[k].at < m->cur[k].n)
            m->heap[m->nheap++] = k;
    for (k = m->nheap / 2; k-- > 0;)
        sift(m, k);
    return XG_OK;
}

const struct xgp_rec *xgp__merge_next(struct xgp_merge *m, int *rc,
                                      char *err, size_t errlen)
{
    struct xgp_cur *c;
    if (m->nheap == 0)
        return NULL;
    c = &m->cur[m->heap[0]];
    m->rec = c->v[c->at++];
    if (c->at == c->n && c->left &&
        (*rc = refill(m, c, err, errlen)) != XG_OK)
        return NULL;
    if (c->at == c->n)
        m->heap[0] = m->heap[--m->nheap];
    sift(m, 0);
    return &m->rec;
}

void xgp__merge_end(struct xgp_merge *m)
{
    size_t k;
    for (k = 0; k < m->ncur; k++)
        free(m->cur[k].buf);
    free(m->cur);
    free(m->heap);
    memset(m, 0, sizeof *m);
}

/* The attributes of the features the records name, fetched by FID
 * (OGR_L_GetFeature) and kept in a cache of FETCH_KEEP features per
 * input, each in the slot of its FID modulo FETCH_KEEP: the records run
 * in A's order, so A's features come once each; B's come in any order,
 * and a B of fewer features than that (solids, meshes, a map's
 * provinces) is fetched once per feature, not once per record. */
#define FETCH_KEEP 4096
struct fetch {
    struct xgo_src *src[2];
    const int64_t *fid[2];
    OGRFeatureH have[2][FETCH_KEEP];
};

/* Feature fid of s, for its attributes (the caller owns it): NULL,
 * with the message in err, when it cannot be fetched. */
static OGRFeatureH fetch_one(struct xgo_src *s, GIntBig fid, char *err,
                             size_t errlen)
{
    OGRFeatureH f;
    CPLErrorReset();
    f = OGR_L_GetFeature(s->lyr, fid);
    if (!f)
        xgo__fail(err, errlen, XG_EIO, "%s, layer '%s', feature %lld: "
                  "cannot fetch it to copy its fields: %s", s->path,
                  s->name, (long long)fid,
                  *CPLGetLastErrorMsg() ? CPLGetLastErrorMsg()
                                        : "no such feature");
    return f;
}

/* The write's attrs (struct xgo_write): element i of input which is
 * record i. */
static OGRFeatureH fetch_attrs(void *arg, int which, size_t i, char *err,
                               size_t errlen)
{
    struct fetch *f = arg;
    GIntBig fid = f->fid[which][i];
    OGRFeatureH *h = &f->have[which][(uint64_t)fid % FETCH_KEEP];
    if (*h && OGR_F_GetFID(*h) == fid)
        return *h;
    OGR_F_Destroy(*h);
    *h = fetch_one(f->src[which], fid, err, errlen);
    return *h;
}

/* Only attributes are fetched from the inputs that copy some: their
 * drivers need not decode the geometries. */
static void attrs_only(const struct xgo_job *job, struct xgo_src src[2])
{
    static const char *const no_geometry[] = {"OGR_GEOMETRY", NULL};
    int k;
    for (k = 0; k < job->op->ninputs; k++)
        if (src[k].ncopy)
            OGR_L_SetIgnoredFields(src[k].lyr, (const char **)no_geometry);
}

/* The records' limit: contact i names elements by 32-bit indices. */
static int too_many(size_t n, char *err, size_t errlen)
{
    if (n > UINT32_MAX - 1)
        return xgo__fail(err, errlen, XG_ELIMIT, "%zu contacts: more than "
                         "one output can hold (%u)", n, UINT32_MAX - 1);
    return XG_OK;
}

int xgp__write(const struct xgo_job *job, GDALDatasetH dst,
               const char *layer_name, char **lco,
               OGRSpatialReferenceH srs, struct xgo_src src[2],
               struct xgp_merge *m, struct xgo_report *rep,
               GDALProgressFunc pf, void *pa, char *err, size_t errlen)
{
    size_t n = (size_t)m->n;
    struct xg_set aset = {0}, bids = {0};
    struct xg_contacts c = {0};
    int64_t *bfid, *bsub;
    struct fetch *f = NULL;
    size_t i;
    int rc;

    if ((rc = too_many(n, err, errlen)) != XG_OK)
        return rc;
    /* the writer takes contacts and element ids: contact i names A
     * element i and B element i, whose ids are record i's.  The library
     * sizes the arrays (on huge pages: the pages of 4 KiB, touched once
     * each, cost as much as the merge); the sets' coordinates are never
     * touched, so never paged in */
    if (xg_set_reserve(&aset, XG_ELEM_POINT, n ? n : 1) != XG_OK ||
        xg_set_reserve(&bids, XG_ELEM_POINT, n ? n : 1) != XG_OK ||
        xg_contacts_reserve(&c, n ? n : 1) != XG_OK) {
        rc = xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        goto done;
    }
    bfid = bids.fid;
    bsub = bids.sub;
    for (i = 0; i < n; i++) {
        struct xg_contact *x = &c.v[i];
        const struct xgp_rec *v = xgp__merge_next(m, &rc, err, errlen);
        if (!v) {
            if (rc == XG_OK)
                rc = xgo__fail(err, errlen, XG_EIO, "the records' merge "
                               "ended short");
            goto done;
        }
        memset(x, 0, sizeof *x);
        aset.fid[i] = v->afid;
        aset.sub[i] = v->asub;
        bfid[i] = v->bfid;
        bsub[i] = v->bsub;
        x->a = (uint32_t)i;
        x->b = v->has_b ? (uint32_t)i : UINT32_MAX;
        x->kind = v->kind;
        memcpy(x->p, v->p, sizeof x->p);
        memcpy(x->q, v->q, sizeof x->q);
    }
    aset.n = c.n = n;
    if (!(f = calloc(1, sizeof *f))) {
        rc = xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
        goto done;
    }
    f->src[0] = &src[0];
    f->src[1] = &src[1];
    f->fid[0] = aset.fid;
    f->fid[1] = bfid;
    attrs_only(job, src);
    {
        struct xgo_write w = {job,  job->op->dim, dst,  layer_name,
                              lco,  srs,          &src[0], &src[1],
                              &aset, bfid,        bsub, &c,
                              fetch_attrs, f};
        rc = xgo_shape_of(job->op)->write_pairs(&w, rep, pf, pa, err,
                                                errlen);
    }
    for (i = 0; i < FETCH_KEEP; i++) {
        OGR_F_Destroy(f->have[0][i]);
        OGR_F_Destroy(f->have[1][i]);
    }
done:
    free(f);
    xg_set_free(&aset);
    xg_set_free(&bids);
    xg_contacts_free(&c);
    return rc;
}

/* An element's ids: its feature's FID, its index in the feature. */
struct ids {
    int64_t fid, sub;
};

/* qsort's order of element ids: ascending (FID, index in the feature). */
static int ids_cmp(const void *x, const void *y)
{
    const struct ids *a = x, *b = y;
    int c = CMP(a->fid, b->fid);
    return c ? c : CMP(a->sub, b->sub);
}

/* set (of kind elem, its ids only: no coordinates) = the elements of
 * input i (0: A, 1: B) that the n records v name, each once, in
 * ascending (FID, index): the order a single run reads them in where
 * the driver reads in FID order.  XG_ENOMEM (set then holds what was
 * allocated: the caller frees it with xg_set_free). */
static int named_set(const struct xgp_rec *v, size_t n, int i, int elem,
                     struct xg_set *set)
{
    struct ids *t = malloc((n ? n : 1) * sizeof *t);
    size_t k, m = 0;
    set->elem = elem;
    set->fid = malloc((n ? n : 1) * sizeof *set->fid);
    set->sub = malloc((n ? n : 1) * sizeof *set->sub);
    if (!t || !set->fid || !set->sub) {
        free(t);
        return XG_ENOMEM;
    }
    set->cap = n;
    for (k = 0; k < n; k++)
        if (i == 0 || v[k].has_b) {
            t[m].fid = i ? v[k].bfid : v[k].afid;
            t[m].sub = i ? v[k].bsub : v[k].asub;
            m++;
        }
    if (m > 1)
        qsort(t, m, sizeof *t, ids_cmp);
    for (k = 0; k < m; k++)
        if (k == 0 || ids_cmp(&t[k], &t[k - 1]) != 0) {
            set->fid[set->n] = t[k].fid;
            set->sub[set->n++] = t[k].sub;
        }
    free(t);
    return XG_OK;
}

/* The index in set (named_set's, which holds it) of the element of ids
 * (fid, sub). */
static uint32_t index_of(const struct xg_set *set, int64_t fid, int64_t sub)
{
    const struct ids want = {fid, sub};
    size_t lo = 0, hi = set->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct ids at = {set->fid[mid], set->sub[mid]};
        if (ids_cmp(&at, &want) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (uint32_t)lo;
}

/* The attributes to copy of the features that set's elements name, as
 * the reader keeps them in s for a single run (s->feat, s->first: one
 * per feature, with the index of its first element), fetched by FID
 * from s (opened, nothing kept yet).  XG_EIO naming the feature that
 * cannot be fetched, XG_ENOMEM; what was kept stays s's either way. */
static int keep_attrs(struct xgo_src *s, const struct xg_set *set,
                      char *err, size_t errlen)
{
    size_t k, nf = 0;
    for (k = 0; k < set->n; k++)
        nf += k == 0 || set->fid[k] != set->fid[k - 1];
    s->feat = malloc((nf ? nf : 1) * sizeof *s->feat);
    s->first = malloc((nf ? nf : 1) * sizeof *s->first);
    if (!s->feat || !s->first)
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    s->cap = nf;
    for (k = 0; k < set->n; k++)
        if (k == 0 || set->fid[k] != set->fid[k - 1]) {
            OGRFeatureH f = fetch_one(s, set->fid[k], err, errlen);
            if (!f)
                return XG_EIO;
            s->feat[s->nfeat] = f;
            s->first[s->nfeat++] = k;
        }
    return XG_OK;
}

/* The n records v as a single run's (struct xgo_run_made of a shape of
 * pairs, whose records are struct xgo_contacts_res): the elements they
 * name (named_set), each record a contact between them, in v's order,
 * the copied attributes in src.  m->res and set are the caller's to
 * free, whatever the outcome. */
static int as_made(const struct xgo_job *job, OGRSpatialReferenceH srs,
                   struct xgo_src src[2], const struct xgp_rec *v, size_t n,
                   struct xg_set set[2], struct xgo_run_made *m, char *err,
                   size_t errlen)
{
    struct xgo_contacts_res *res = calloc(1, sizeof *res);
    size_t k;
    int i, rc = XG_OK;
    *m = (struct xgo_run_made){job, &src[0], &src[1], set, res, NULL, 0, 0,
                               srs};
    if (!res || !(res->c.v = malloc((n ? n : 1) * sizeof *res->c.v)))
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    res->c.cap = n;
    for (i = 0; i < job->op->ninputs; i++)
        if (named_set(v, n, i, job->op->in[i].elem, &set[i]) != XG_OK)
            return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    for (k = 0; k < n; k++) {
        struct xg_contact *x = &res->c.v[k];
        memset(x, 0, sizeof *x);
        x->a = index_of(&set[0], v[k].afid, v[k].asub);
        x->b = v[k].has_b ? index_of(&set[1], v[k].bfid, v[k].bsub)
                          : UINT32_MAX;
        x->kind = v[k].kind;
        memcpy(x->p, v[k].p, sizeof x->p);
        memcpy(x->q, v[k].q, sizeof x->q);
    }
    res->c.n = n;
    m->records = &res->c;
    m->n = n;
    attrs_only(job, src);
    for (i = 0; i < job->op->ninputs && rc == XG_OK; i++)
        if (src[i].ncopy)
            rc = keep_attrs(&src[i], &set[i], err, errlen);
    return rc;
}

int xgp__keep_records(const struct xgo_job *job, const char *layer_name,
                      OGRSpatialReferenceH srs, struct xgo_src src[2],
                      struct xgp_merge *mg, struct xgo_report *rep,
                      struct xgo_kept **keep, GDALProgressFunc pf, void *pa,
                      char *err, size_t errlen)
{
    const struct xgo_shape *sh = xgo_shape_of(job->op);
    struct xg_set set[2] = {{0}, {0}};
    struct xgo_run_made m;
    size_t n = (size_t)mg->n, k;
    struct xgp_rec *v;
    int rc;
    *keep = NULL;
    if ((rc = too_many(n, err, errlen)) != XG_OK)
        return rc;
    /* the driver keeps the records: all of them, in order */
    if (!(v = malloc((n ? n : 1) * sizeof *v)))
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    for (k = 0; k < n; k++) {
        const struct xgp_rec *x = xgp__merge_next(mg, &rc, err, errlen);
        if (!x) {
            free(v);
            return rc ? rc : xgo__fail(err, errlen, XG_EIO, "the records' "
                                       "merge ended short");
        }
        v[k] = *x;
    }
    /* the shapes that run in regions are those of pairs (write_pairs),
     * whose records are struct xgo_contacts_res */
    assert(sh->write_pairs);
    rc = as_made(job, srs, src, v, n, set, &m, err, errlen);
    /* kept takes what m names, src included: nothing left to free */
    if (rc == XG_OK)
        rc = xgo__kept_new(keep, job, &m, layer_name, rep, err, errlen);
    sh->free_res(m.res);
    xg_set_free(&set[0]);
    xg_set_free(&set[1]);
    free(v);
    /* the features are made when read: the bar ends here */
    if (rc == XG_OK && pf)
        pf(1.0, NULL, pa);
    return rc;
}
