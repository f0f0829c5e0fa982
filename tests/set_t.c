/*
 * set_t.c -- struct xg_set, the one element set: kinds fixed by the first
 * push, pushes of another kind refused, engines refusing sets of the
 * wrong kind, and the dump keeping the kinds.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "exactgeo.h"
#include "tap.h"

int main(void)
{
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_set pts = {0}, segs = {0}, tris = {0}, ra = {0}, rb = {0};
    struct xg_contacts out = {0};
    const double p[3] = {0.5, 0.5, -1}, q[3] = {0.5, 0.5, 1};
    const double a[3] = {0, 0, 0}, b[3] = {2, 0, 0}, c[3] = {0, 2, 0};
    char path[64];
    int rc;

    ok(xg_elem_doubles(XG_ELEM_POINT) == 3 &&
           xg_elem_doubles(XG_ELEM_SEGMENT) == 6 &&
           xg_elem_doubles(XG_ELEM_TRIANGLE) == 9 &&
           xg_elem_doubles(XG_ELEM_NONE) == 0 &&
           xg_elem_doubles(XG_ELEM_COUNT) == 0,
       "doubles per element: 3, 6, 9; 0 for no kind");
    ok(strcmp(xg_elem_name(XG_ELEM_TRIANGLE), "triangle") == 0 &&
           strcmp(xg_elem_name(-1), "element") == 0,
       "element names");

    ok(xg_set_push_point(&pts, p, 4, 0) == XG_OK && pts.elem == XG_ELEM_POINT &&
           pts.n == 1 && memcmp(pts.xyz, p, sizeof p) == 0 && pts.fid[0] == 4,
       "a point set: the first push fixes the kind");
    ok(xg_set_push_segment(&pts, p, q, 5, 0) == XG_EINVAL && pts.n == 1,
       "a segment pushed into a point set: XG_EINVAL, set unchanged");
    ok(xg_set_push(&pts, XG_ELEM_NONE, p, 1, 0) == XG_EINVAL &&
           xg_set_push(&pts, XG_ELEM_COUNT, p, 1, 0) == XG_EINVAL,
       "xg_set_push refuses kinds that are not kinds");
    ok(xg_set_push_segment(&segs, p, q, 7, 3) == XG_OK &&
           segs.elem == XG_ELEM_SEGMENT && segs.xyz[2] == -1 &&
           segs.xyz[5] == 1 && segs.sub[0] == 3,
       "a segment set holds p then q");
    ok(xg_set_push_triangle(&tris, a, b, c, 9, 0) == XG_OK &&
           tris.elem == XG_ELEM_TRIANGLE && tris.xyz[3] == 2 &&
           tris.xyz[7] == 2,
       "a triangle set holds a, b, c");

    rc = xg_segtri(ctx, &segs, &tris, NULL, &out, NULL);
    ok(rc == XG_OK && out.n == 1 && out.v[0].kind == XG_KIND_PROPER,
       "segtri on a segment and a triangle set: one proper contact");
    rc = xg_segtri(ctx, &tris, &segs, NULL, &out, NULL);
    ok(rc == XG_EINVAL && out.n == 0 &&
           strstr(xg_ctx_errmsg(ctx), "triangles, not segments") != NULL,
       "segtri with the sets swapped: XG_EINVAL naming the kinds (%s)",
       xg_ctx_errmsg(ctx));
    rc = xg_redblue(ctx, &segs, &tris, NULL, &out, NULL);
    ok(rc == XG_EINVAL, "redblue with a triangle set B: XG_EINVAL");
    rc = xg_segtri(ctx, &pts, &tris, NULL, &out, NULL);
    ok(rc == XG_EINVAL, "segtri with a point set A: XG_EINVAL");

    snprintf(path, sizeof path, "/tmp/set_t-%ld.xgd", (long)getpid());
    rc = xg_dump_write(ctx, path, &segs, &tris);
    ok(rc == XG_OK && xg_dump_read(ctx, path, &ra, &rb) == XG_OK &&
           ra.elem == XG_ELEM_SEGMENT && rb.elem == XG_ELEM_TRIANGLE &&
           rb.n == 1 && memcmp(rb.xyz, tris.xyz, 9 * sizeof(double)) == 0,
       "a segtri dump reads back as segments and triangles");
    xg_set_free(&ra);
    xg_set_free(&rb);
    rc = xg_dump_write(ctx, path, &segs, &segs);
    ok(rc == XG_OK && xg_dump_read(ctx, path, &ra, &rb) == XG_OK &&
           ra.elem == XG_ELEM_SEGMENT && rb.elem == XG_ELEM_SEGMENT &&
           rb.n == 1 && memcmp(rb.xyz, segs.xyz, 6 * sizeof(double)) == 0,
       "a red/blue dump reads back as two segment sets");
    xg_set_free(&ra);
    xg_set_free(&rb);
    rc = xg_dump_write(ctx, path, &pts, &tris);
    ok(rc == XG_OK && xg_dump_read(ctx, path, &ra, &rb) == XG_OK &&
           ra.elem == XG_ELEM_POINT && rb.elem == XG_ELEM_TRIANGLE &&
           ra.n == pts.n && memcmp(ra.xyz, pts.xyz, 3 * pts.n *
                                   sizeof(double)) == 0,
       "an inside dump reads back as points and triangles");
    ok(xg_dump_write(ctx, path, &pts, &segs) == XG_EINVAL &&
           xg_dump_write(ctx, path, &tris, &pts) == XG_EINVAL,
       "no dump format for points with segments, triangles with points: "
       "XG_EINVAL");
    remove(path);

    xg_set_free(&pts);
    xg_set_free(&segs);
    xg_set_free(&tris);
    xg_set_free(&ra);
    xg_set_free(&rb);
    ok(pts.n == 0 && pts.xyz == NULL && pts.elem == XG_ELEM_NONE,
       "xg_set_free leaves a zeroed set");
    xg_set_free(NULL);
    xg_contacts_free(&out);
    xg_ctx_free(ctx);
    {   /* xg_set_reserve: a known count in one allocation (past the
         * huge-page megabyte: the elements already pushed copied over),
         * then pushes that never move it; another kind refused */
        struct xg_set r = {0};
        const double *before;
        size_t i, n = 100000, good = 1;
        for (i = 0; i < 10; i++) {
            const double v[3] = {(double)i, -(double)i, 0.25};
            xg_set_push_point(&r, v, (int64_t)i, (int64_t)i + 1);
        }
        ok(xg_set_reserve(&r, XG_ELEM_SEGMENT, n) == XG_EINVAL &&
               xg_set_reserve(&r, XG_ELEM_POINT, n) == XG_OK && r.cap == n &&
               xg_set_reserve(&r, XG_ELEM_POINT, 5) == XG_OK && r.cap == n,
           "xg_set_reserve: exactly the count asked (%zu), smaller a no-op, "
           "another kind XG_EINVAL", n);
        before = r.xyz;
        for (i = 10; i < n; i++) {
            const double v[3] = {(double)i, -(double)i, 0.25};
            good &= xg_set_push_point(&r, v, (int64_t)i, (int64_t)i + 1) ==
                    XG_OK;
        }
        for (i = 0; i < n; i++)
            good &= r.xyz[3 * i] == (double)i &&
                    r.xyz[3 * i + 1] == -(double)i &&
                    r.fid[i] == (int64_t)i && r.sub[i] == (int64_t)i + 1;
        ok(good && r.n == n && r.xyz == before && r.cap == n,
           "xg_set_reserve: %zu pushes after it, none moved the set, every "
           "element kept (the 10 before it too)", n - 10);
        xg_set_free(&r);
    }
    {   /* xg_contacts_reserve: room at once, what it held kept */
        struct xg_contacts c = {0};
        size_t i, n = 50000, good = 1;
        struct xg_contact *before;
        for (i = 0; i < 3; i++) {
            if (xg_contacts_reserve(&c, c.n + 1) != XG_OK) {
                good = 0;
                break;
            }
            memset(&c.v[c.n], 0, sizeof c.v[0]);
            c.v[c.n].a = (uint32_t)i;
            c.v[c.n++].p[0] = 0.5 * (double)i;
        }
        ok(good && xg_contacts_reserve(&c, n) == XG_OK && c.cap == n &&
               xg_contacts_reserve(&c, 7) == XG_OK && c.cap == n &&
               c.n == 3 && c.v[2].a == 2 && c.v[2].p[0] == 1.0 &&
               c.v[1].a == 1,
           "xg_contacts_reserve: exactly the count asked (%zu), smaller a "
           "no-op, the 3 contacts held kept", n);
        before = c.v;
        for (i = 3; i < n; i++)
            c.v[c.n++].a = (uint32_t)i;
        ok(c.v == before && c.n == n && c.v[n - 1].a == n - 1,
           "xg_contacts_reserve: filled to its room without moving");
        xg_contacts_free(&c);
    }
    tap_done();
    return tap_failed != 0;
}
