/*
 * read_arrow.c -- the Arrow route of a read: one OGR_L_GetArrowStream
 * per input (geometries as WKB, the FID included), the plain features
 * parsed straight from the batches by the reader's WKB entry, every
 * other one (NULL, empty, not finite, another type or dimension, a blob
 * the parser leaves alone) fetched by its id with OGR_L_GetFeature and
 * read by today's per-feature code (xgo__read_one), so that each message
 * naming a file, layer and feature is today's by construction.  The
 * features, their order, their elements and counts are those of today's
 * route (read.c's read_features); the config option XG_READ_ARROW=NO
 * forces that route, for tests that compare the two.
 *
 * GDAL 3.6's stream is three to five times faster than a loop over
 * OGR_L_GetNextFeature for points (issue 33); batches of 4096 features
 * were measured best (the default of 65536 is 2.5x slower on polygons,
 * and a batch is memory first touched).  Lines and surfaces take 1024:
 * as fast on 2*10^6 triangles, and the world map's 4556 provinces, whose
 * first batch of 4096 held nearly all of them, peak 12 MB lower (2
 * cores, issue 33 part 2).
 *
 * The pull of the next batch already overlaps the parse of this one:
 * GDAL 3.6's GeoPackage stream fills batch k+1 on a thread of its own,
 * through a second connection to the file, while the caller holds batch
 * k (a clone and a second open per stream under strace; none with
 * GDAL_NUM_THREADS=1 or on one CPU).  A puller thread of ours would
 * queue behind it, and GDAL's messages from it would miss the read's
 * handlers, which are the calling thread's (CPLPushErrorHandlerEx).
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <assert.h>
#include <string.h>
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <ogr_recordbatch.h>
#include "xgo_read.h"

/* The mean bytes of the geometry blob of a GeoPackage layer's first
 * ARROW_SAMPLE rows (0 where SQLite cannot tell). */
enum { ARROW_SAMPLE = 64, ARROW_MAX_MEAN_BLOB = 1024 };
static double mean_blob(const struct xgo_src *s)
{
    const char *g = OGR_L_GetGeometryColumn(s->lyr);
    char *sql = NULL, *qg, *qt;
    OGRLayerH res;
    double mean = 0;
    if (!g || !*g)
        return 0;
    qg = CPLEscapeString(g, -1, CPLES_SQLI);
    qt = CPLEscapeString(OGR_L_GetName(s->lyr), -1, CPLES_SQLI);
    sql = CPLStrdup(CPLSPrintf("SELECT avg(length(\"%s\")) FROM (SELECT "
                               "\"%s\" FROM \"%s\" LIMIT %d)", qg, qg, qt,
                               ARROW_SAMPLE));
    CPLFree(qg);
    CPLFree(qt);
    CPLPushErrorHandler(CPLQuietErrorHandler);
    res = GDALDatasetExecuteSQL(s->ds, sql, NULL, NULL);
    if (res) {
        OGRFeatureH f = OGR_L_GetNextFeature(res);
        if (f) {
            mean = OGR_F_GetFieldAsDouble(f, 0);
            OGR_F_Destroy(f);
        }
        GDALDatasetReleaseResultSet(s->ds, res);
    }
    CPLPopErrorHandler();
    CPLErrorReset();
    CPLFree(sql);
    return mean;
}

/* Whether the read r may take the Arrow route (xgo_read.h).  Kept
 * attributes and groups need the OGR feature of every feature read; a
 * driver without a fast stream would build the batches from those very
 * features.  The plan of a run in regions (visit) needs only ids and
 * elements. */
int xgo__read_arrow_fits(const struct xgo_reader *r)
{
    const struct xgo_src *s = r->s;
    if (s->ncopy > 0 || r->groups)
        return 0;
    if (!CPLTestBool(CPLGetConfigOption("XG_READ_ARROW", "YES")))
        return 0;
    /* Lines and surfaces: GeoPackage only, whose stream hands over the
     * stored WKB as it is.  FlatGeobuf's decodes every geometry of a
     * batch at once and warns then ("Non closed ring detected"), where
     * today's route warns otherwise (feature by feature, or, without
     * the spatial index, not at all): its messages would change. */
    if (r->job->op->in[r->input].elem != XG_ELEM_POINT &&
        (!s->ds || !GDALGetDatasetDriver(s->ds) ||
         strcmp(GDALGetDriverShortName(GDALGetDatasetDriver(s->ds)),
                "GPKG") != 0))
        return 0;
    if (!OGR_L_TestCapability(s->lyr, OLCFastGetArrowStream))
        return 0;
    /* Lines and surfaces of large features: GDAL 3.6's stream copies
     * each blob into a buffer it grows as it goes, which costs more than
     * the OGR route saves (2-core VM, read stage, medians of 3: 2*10^5
     * lines of 161 bytes 0.24 s against 0.41; 2*10^4 of 1025 bytes 0.30
     * against 0.30; 4000 of 4865 bytes 0.42 against 0.28; the world map
     * 0.24 against 0.18, 20 MB more memory; 8 solids of 10^6 triangles
     * 1.79 s against 1.43) */
    if (r->job->op->in[r->input].elem != XG_ELEM_POINT &&
        mean_blob(s) > ARROW_MAX_MEAN_BLOB)
        return 0;
    return 1;
}

/* The columns of the stream the route reads: the FID and the layer's
 * first geometry, WKB in 32-bit (large 0) or 64-bit offsets. */
struct cols {
    int fid, geom, large;
};

/* The columns of schema sc for layer lyr into c: 0, or -1 where the
 * stream is not what the route reads. */
static int find_cols(OGRLayerH lyr, const struct ArrowSchema *sc,
                     struct cols *c)
{
    const char *fname = OGR_L_GetFIDColumn(lyr);
    const char *gname = OGR_L_GetGeometryColumn(lyr);
    int64_t i;
    c->fid = c->geom = -1;
    c->large = 0;
    if (!fname || !*fname)
        fname = "OGC_FID";    /* GDAL's name where the layer has none */
    if (!gname || !*gname)
        gname = "wkb_geometry";
    for (i = 0; i < sc->n_children; i++) {
        const struct ArrowSchema *ch = sc->children[i];
        if (strcmp(ch->name, fname) == 0 && strcmp(ch->format, "l") == 0)
            c->fid = (int)i;
        else if (strcmp(ch->name, gname) == 0 &&
                 (strcmp(ch->format, "z") == 0 ||
                  strcmp(ch->format, "Z") == 0)) {
            c->geom = (int)i;
            c->large = ch->format[0] == 'Z';
        }
    }
    return c->fid >= 0 && c->geom >= 0 ? 0 : -1;
}

/* Whether the elements first .. r->set->n - 1 of the current feature
 * pass -spat's box as OGR's filter of a rectangle decides it (an
 * envelope inside the box, else GEOS's intersects): 1 they do, 0 they do
 * not, -1 where only GEOS can tell (OGR's route then reads the feature).
 * Points: exact, one point in the box (edges included) is enough.  Lines
 * and triangles: their vertices are the geometry's, so their envelope is
 * the geometry's: inside the box, they pass; apart from it, they do not;
 * across its edge, -1. */
static int spat_meets(const struct xgo_reader *r, size_t first)
{
    const double *b = r->s->spat, *xyz = r->set->xyz;
    size_t k = (size_t)xg_elem_doubles(r->set->elem), i, nv;
    double lo[2], hi[2];
    if (r->set->elem == XG_ELEM_POINT) {
        for (i = first; i < r->set->n; i++)
            if (xyz[3 * i] >= b[0] && xyz[3 * i] <= b[2] &&
                xyz[3 * i + 1] >= b[1] && xyz[3 * i + 1] <= b[3])
                return 1;
        return 0;
    }
    nv = (r->set->n - first) * (k / 3);
    xyz += first * k;
    lo[0] = hi[0] = xyz[0];
    lo[1] = hi[1] = xyz[1];
    for (i = 0; i < nv; i++) {
        const double *p = xyz + 3 * i;
        lo[0] = p[0] < lo[0] ? p[0] : lo[0];
        lo[1] = p[1] < lo[1] ? p[1] : lo[1];
        hi[0] = p[0] > hi[0] ? p[0] : hi[0];
        hi[1] = p[1] > hi[1] ? p[1] : hi[1];
    }
    if (hi[0] < b[0] || hi[1] < b[1] || b[2] < lo[0] || b[3] < lo[1])
        return 0;
    if (lo[0] >= b[0] && lo[1] >= b[1] && hi[0] <= b[2] && hi[1] <= b[3])
        return 1;
    return -1;
}

/* Whether geometry g (may be NULL) passes the layer's spatial filter as
 * OGRLayer::FilterGeometry decides it: NULL and empty do not, then the
 * envelopes, then GEOS's intersects. */
static int passes(OGRLayerH lyr, OGRGeometryH g)
{
    OGRGeometryH flt = OGR_L_GetSpatialFilter(lyr);
    OGREnvelope e, fe;
    if (!flt)
        return 1;
    if (!g || OGR_G_IsEmpty(g))
        return 0;
    OGR_G_GetEnvelope(g, &e);
    OGR_G_GetEnvelope(flt, &fe);
    if (e.MaxX < fe.MinX || e.MaxY < fe.MinY || fe.MaxX < e.MinX ||
        fe.MaxY < e.MinY)
        return 0;
    if (e.MinX >= fe.MinX && e.MinY >= fe.MinY && e.MaxX <= fe.MaxX &&
        e.MaxY <= fe.MaxY)
        return 1;
    return OGR_G_Intersects(flt, g) != 0;
}

/* The features read by id: a second handle on the input, opened at the
 * first one.  The stream's own layer cannot serve them: GDAL 3.6's
 * GeoPackage restarts the stream after a GetFeature (a read without
 * end). */
struct by_id {
    GDALDatasetH ds;
    OGRLayerH lyr;
};

/* The feature fid, which the WKB reader left alone, read through OGR by
 * today's code from the handle h, unless -spat's box drops it (*read
 * 0). */
static int by_id(struct xgo_reader *r, struct by_id *h, xgo_geom_fn fn,
                 GIntBig fid, GIntBig ord, int *read)
{
    struct xgo_src *s = r->s;
    const struct xgo_input *in = r->input ? &r->job->b : &r->job->a;
    OGRFeatureH f = NULL;
    *read = 0;
    if (!h->ds) {
        h->ds = GDALOpenEx(s->path, GDAL_OF_VECTOR | GDAL_OF_READONLY, NULL,
                           in->open_options, NULL);
        h->lyr = h->ds ? GDALDatasetGetLayerByName(h->ds, s->name) : NULL;
    }
    if (h->lyr)
        f = OGR_L_GetFeature(h->lyr, fid);
    if (!f)
        return FAIL(r, XG_EIO, "%s, layer '%s': reading failed after %lld "
                               "features: %s", s->path, s->name,
                    (long long)ord, CPLGetLastErrorMsg());
    if (s->spat && !passes(s->lyr, OGR_F_GetGeometryRef(f))) {
        OGR_F_Destroy(f);
        return XG_OK;
    }
    *read = 1;
    return xgo__read_one(r, fn, f, ord);
}

/* One feature of a batch: fid, its blob w of len bytes (NULL: none),
 * through wfn where it is plain, else by_id.  *read 1 where it is a
 * feature of the read (-spat's box may drop it). */
static int one(struct xgo_reader *r, struct by_id *h, xgo_geom_fn fn,
               xgo_wkb_fn wfn, GIntBig fid, const unsigned char *w, size_t len, GIntBig ord,
               int *read)
{
    size_t first = r->set->n;
    int zkind = r->zkind, has_z = r->rep->has_z, taken = 0, rc, meets;
    GIntBig zfid = r->zfid;
    r->fid = fid;
    r->sub = 0;
    r->vtx = 0;
    if (w && (rc = wfn(r, w, len, &taken)) != XG_OK)
        return rc;
    meets = taken && r->s->spat ? spat_meets(r, first) : 1;
    if (meets <= 0) {
        /* a candidate of the stream's float32 boxes that OGR's own
         * filter drops (as if never read), or one only OGR can judge */
        r->set->n = first;
        r->zkind = zkind;
        r->zfid = zfid;
        r->rep->has_z = has_z;
        *read = 0;
        if (meets == 0)
            return XG_OK;
        taken = 0;
    }
    if (!taken)
        return by_id(r, h, fn, fid, ord, read);
    /* a plain feature gives an element or more: never barren */
    assert(r->set->n > first);
    r->s->nread++;
    *read = 1;
    /* as read.c's feature() checks it, with the same message; then the
     * plan's visit, as read.c's xgo__read_one calls it */
    rc = r->closed ? xgo__read_closed(r, first) : XG_OK;
    if (rc == XG_OK && r->s->visit)
        rc = r->s->visit(r->s->visit_arg, fid, r->set, first, r->err,
                         r->errlen);
    return rc;
}

/* The features of batch a (columns c) in order, *ord counting them. */
static int batch(struct xgo_reader *r, struct by_id *h, xgo_geom_fn fn,
                 xgo_wkb_fn wfn,
                 const struct ArrowArray *a, const struct cols *c,
                 GIntBig total, GIntBig *ord, GDALProgressFunc pf, void *pa)
{
    const struct ArrowArray *cf = a->children[c->fid];
    const struct ArrowArray *cg = a->children[c->geom];
    const int64_t *fids = (const int64_t *)cf->buffers[1] + cf->offset;
    const unsigned char *valid = cg->buffers[0];
    const unsigned char *data = cg->buffers[2];
    int64_t i;
    int rc = XG_OK, read;
    for (i = 0; i < a->length && rc == XG_OK; i++) {
        int64_t j = i + cg->offset, b0, b1;
        const unsigned char *w = NULL;
        if (!valid || (valid[j >> 3] >> (j & 7) & 1)) {
            if (c->large) {
                b0 = ((const int64_t *)cg->buffers[1])[j];
                b1 = ((const int64_t *)cg->buffers[1])[j + 1];
            } else {
                b0 = ((const int32_t *)cg->buffers[1])[j];
                b1 = ((const int32_t *)cg->buffers[1])[j + 1];
            }
            w = data + b0;
        } else
            b0 = b1 = 0;
        rc = one(r, h, fn, wfn, fids[i], w, (size_t)(b1 - b0), *ord, &read);
        if (rc == XG_OK && read) {
            ++*ord;
            rc = xgo__read_progress(r, *ord, total, pf, pa);
        }
    }
    return rc;
}

/* What GDAL said while it filled one batch, held until the batch is
 * there: given then as it came (xgo__cap_begin's handler shows or counts
 * it), or, for warnings on the first batch, dropped, the read then going
 * today's way, which says them in their places.  Held whole, however
 * many: the handler counts what it does not show. */
struct said {
    size_t n, cap;
    int warnings;
    struct said_msg {
        CPLErr cls;
        CPLErrorNum no;
        char *msg;            /* owned; NULL where memory ran out */
    } *m;
};

static void CPL_STDCALL said_handler(CPLErr cls, CPLErrorNum no,
                                     const char *msg)
{
    struct said *w = CPLGetErrorHandlerUserData();
    w->warnings += cls == CE_Warning;
    if (xg__grow_array((void **)&w->m, &w->cap, w->n + 1, sizeof *w->m))
        return;
    w->m[w->n].cls = cls;
    w->m[w->n].no = no;
    w->m[w->n++].msg = strdup(msg);
}

/* The next batch of st into a (st's get_next), what GDAL said meanwhile
 * held in w (said again, or dropped, by say). */
static int pull(struct ArrowArrayStream *st, struct ArrowArray *a,
                struct said *w)
{
    int rc;
    w->n = 0;
    w->warnings = 0;
    CPLPushErrorHandlerEx(said_handler, w);
    CPLSetCurrentErrorHandlerCatchDebug(FALSE);
    rc = st->get_next(st, a);
    CPLPopErrorHandler();
    return rc;
}

/* Says again what w holds to the handlers of the read (drop 0), or
 * drops it; frees the messages. */
static void say(struct said *w, int drop)
{
    size_t k;
    for (k = 0; k < w->n; k++) {
        if (!drop && w->m[k].msg)
            CPLError(w->m[k].cls, w->m[k].no, "%s", w->m[k].msg);
        free(w->m[k].msg);
    }
    w->n = 0;
}

/* Reads r->s through its Arrow stream (xgo_read.h). */
int xgo__read_arrow(struct xgo_reader *r, xgo_geom_fn fn, xgo_wkb_fn wfn,
                    GIntBig total, GIntBig *ord, GDALProgressFunc pf,
                    void *pa, int *declined)
{
    struct xgo_src *s = r->s;
    struct ArrowArrayStream st;
    struct ArrowSchema sc;
    struct ArrowArray a;
    struct cols c;
    struct by_id h = {NULL, NULL};
    struct said w = {0, 0, 0, NULL};
    char **opt = NULL;
    int rc = XG_OK, ok, got;
    *declined = 1;
    opt = CSLSetNameValue(opt, "GEOMETRY_ENCODING", "WKB");
    opt = CSLSetNameValue(opt, "INCLUDE_FID", "YES");
    opt = CSLSetNameValue(opt, "MAX_FEATURES_IN_BATCH",
                          r->job->op->in[r->input].elem == XG_ELEM_POINT
                              ? "4096" : "1024");
    ok = OGR_L_GetArrowStream(s->lyr, &st, opt);
    CSLDestroy(opt);
    if (!ok) {
        CPLErrorReset();
        return XG_OK;
    }
    if (st.get_schema(&st, &sc) == 0) {
        ok = find_cols(s->lyr, &sc, &c) == 0;
        sc.release(&sc);
    } else
        ok = 0;
    got = ok ? pull(&st, &a, &w) : -1;
    if (!ok || (got == 0 && w.warnings > 0)) {
        /* a stream the route does not read, or one GDAL warned on at the
         * first batch: today's route from the start, which says it in its
         * places */
        if (got == 0 && a.release)
            a.release(&a);
        say(&w, 1);
        free(w.m);
        st.release(&st);
        OGR_L_ResetReading(s->lyr);
        CPLErrorReset();
        return XG_OK;
    }
    *declined = 0;
    CPLDebug("EXACTGEO", "%s, layer '%s': read through its Arrow stream",
             s->path, s->name);
    while (rc == XG_OK) {
        say(&w, 0);
        if (got != 0) {
            const char *e = st.get_last_error(&st);
            rc = FAIL(r, XG_EIO, "%s, layer '%s': reading failed after "
                                 "%lld features: %s", s->path, s->name,
                      (long long)*ord, e ? e : CPLGetLastErrorMsg());
            break;
        }
        if (!a.release)
            break;
        rc = batch(r, &h, fn, wfn, &a, &c, total, ord, pf, pa);
        a.release(&a);
        if (rc == XG_OK)
            got = pull(&st, &a, &w);
    }
    say(&w, 0);
    free(w.m);
    st.release(&st);
    if (h.ds)
        GDALClose(h.ds);
    if (rc == XG_OK && CPLGetLastErrorType() == CE_Failure)
        rc = FAIL(r, XG_EIO, "%s, layer '%s': reading failed after %lld "
                             "features: %s", s->path, s->name,
                  (long long)*ord, CPLGetLastErrorMsg());
    return rc;
}
