/* ops_t.c -- the operation table (src/ops.c, src/op/): every entry consistent, and
 * each entry's run gives what calling its engine directly gives. */
#include <stdio.h>
#include <string.h>
#include "exactgeo.h"
#include "tap.h"

static int text(const char *s)
{
    return s && *s;
}

/* Every field of one input filled, its kind a real element, its index
 * field named after its side (a_..., b_...) or absent (NULL: whole
 * features, as inside's solids); skipped may be "" (the core skips none)
 * but not NULL; closed only on triangles (the surfaces it speaks of). */
static int input_ok(const struct xg_op_input *in, char side)
{
    return in->elem > XG_ELEM_NONE && in->elem < XG_ELEM_COUNT &&
           text(in->noun) && text(in->accepts) && text(in->elements) &&
           in->skipped != NULL &&
           (in->sub_field == NULL ||
            (text(in->sub_field) && in->sub_field[0] == side &&
             in->sub_field[1] == '_')) &&
           text(in->count_key) && text(in->skip_key) &&
           (in->closed == 0 ||
            (in->closed == 1 && in->elem == XG_ELEM_TRIANGLE));
}

/* The count named key of rep, UINT64_MAX when it has none or when it is
 * not a finding (finding 1) or a figure (0) as said. */
static uint64_t count(const struct xg_check_report *rep, const char *key,
                      int finding)
{
    int k;
    for (k = 0; k < rep->n; k++)
        if (strcmp(rep->v[k].key, key) == 0)
            return rep->v[k].finding == finding ? rep->v[k].n : UINT64_MAX;
    return UINT64_MAX;
}

/* The sum of rep's findings: 0 when the check found nothing. */
static uint64_t findings(const struct xg_check_report *rep)
{
    uint64_t n = 0;
    int k;
    for (k = 0; k < rep->n; k++)
        n += rep->v[k].finding ? rep->v[k].n : 0;
    return n;
}

/* op's --stats counters: at least one, each named and inside struct
 * xg_stats on a whole uint64_t, distinct keys, none past the array. */
static int counters_ok(const struct xg_op *op)
{
    int k, j, n = 0;
    for (k = 0; k < XG_OP_COUNTERS && op->counters[k].key; k++) {
        const struct xg_op_counter *c = &op->counters[k];
        if (!text(c->key) || c->offset % sizeof(uint64_t) != 0 ||
            c->offset + sizeof(uint64_t) > sizeof(struct xg_stats))
            return 0;
        for (j = 0; j < k; j++)
            if (strcmp(op->counters[j].key, c->key) == 0)
                return 0;
        n++;
    }
    for (; k < XG_OP_COUNTERS; k++)
        if (op->counters[k].key)
            return 0;
    return n > 0;
}

/* The kinds an operation's records take: some, all real kinds. */
static int kinds_ok(unsigned kinds)
{
    return kinds != 0 && (kinds >> XG_KIND_COUNT) == 0;
}

/* A tiny input of the element kind elem: three elements around the
 * origin that meet a set of the other side's kind; triangles that must
 * be closed: a tetrahedron (one solid) with the origin on its face
 * x + y + z = 0. */
static void fill(struct xg_set *s, int elem, int side, int closed)
{
    static const double v[4][3] = {
        {-2, -2, -2}, {4, -2, -2}, {-2, 4, -2}, {-2, -2, 4}};
    static const int face[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2},
                                   {1, 2, 3}};
    static const double seg[3][6] = {
        {-1, 0, 0.5, 1, 0, 0.5},      /* through the triangles, flat */
        {0.2, -1, -1, 0.2, 1, 1},     /* across */
        {0, 0, 0, 2, 2, 0},           /* in the plane z = 0 */
    };
    static const double tri[3][9] = {
        {-2, -2, 0, 2, -2, 0, 0, 2, 0},
        {0, -2, -2, 0, 2, -2, 0, 0, 2},
        {-2, 0, -2, 2, 0, -2, 0, 0, 2},
    };
    static const double pt[3][3] = {{0, 0, 0}, {1, 1, 1}, {0.5, 0, 0}};
    int i;
    if (closed && elem == XG_ELEM_TRIANGLE) {
        for (i = 0; i < 4; i++)
            xg_set_push_triangle(s, v[face[i][0]], v[face[i][1]],
                                 v[face[i][2]], 10, i);
        return;
    }
    for (i = 0; i < 3; i++) {
        const double *xyz = elem == XG_ELEM_TRIANGLE  ? tri[i]
                            : elem == XG_ELEM_SEGMENT ? seg[(i + side) % 3]
                                                      : pt[i];
        xg_set_push(s, elem, xyz, 10 + i, 0);
    }
}

int main(void)
{
    size_t n = xg_op_count(), i, j;
    struct xg_ctx *ctx = xg_ctx_new();
    (void)tap_skip_all;

    ok(n >= 3, "the table has entries (%zu)", n);
    ok(xg_op_at(n) == NULL && xg_op_find(NULL) == NULL &&
           xg_op_find("") == NULL && xg_op_find("no such op") == NULL,
       "past the end, NULL and unknown names give NULL");
    for (i = 0; i < n; i++) {
        const struct xg_op *op = xg_op_at(i);
        int unique = 1;
        for (j = 0; j < n; j++)
            if (j != i && strcmp(xg_op_at(j)->name, op->name) == 0)
                unique = 0;
        ok(op && text(op->name) && unique && xg_op_find(op->name) == op,
           "%s: its name is unique and xg_op_find finds this entry",
           op->name);
        /* the options it takes agree with what it is: outside records
         * where its kinds have them, -skip-invalid where an input must be
         * closed, --solids-checked too, --verify where it has a check,
         * --tin, no copies, grid or regions where it gives triangles,
         * -bgroup where B is triangles of contacts; and its texts (the
         * layer of a shape other than contacts and triangles is named
         * after its records: boxmeet's segments, a test operation) */
        {
            unsigned o = op->options, tri = op->shape == XG_SHAPE_TRIANGLES;
            ok(!!(o & XG_OPT_OUTSIDE) == ((op->kinds >> XG_KIND_OUTSIDE) & 1u) &&
                   !!(o & XG_OPT_SKIP_INVALID) ==
                       (op->in[0].closed || op->in[1].closed) &&
                   !!(o & XG_OPT_VERIFY) == (op->check != NULL) &&
                   !!(o & XG_OPT_TIN) == tri && !!(o & XG_OPT_COPY) == !tri &&
                   !!(o & XG_OPT_GRID) == !tri &&
                   !!(o & XG_OPT_REGIONS) == !tri &&
                   !!(o & XG_OPT_SOLIDS_CHECKED) ==
                       (op->in[0].closed || op->in[1].closed) &&
                   !!(o & XG_OPT_GROUP) ==
                       (op->ninputs > 1 && op->shape == XG_SHAPE_CONTACTS &&
                        op->in[1].elem == XG_ELEM_TRIANGLE) &&
                   (o >> 9) == 0,
               "%s: options 0x%x fit its kinds, inputs, check and output",
               op->name, o);
            ok(text(op->layer) && text(op->records) &&
                   op->records[strlen(op->records) - 1] == 's' &&
                   text(op->output_geometry) && text(op->parts) &&
                   strcmp(op->layer,
                          tri ? "triangles"
                          : op->shape == XG_SHAPE_CONTACTS ? "contacts"
                                                           : op->records) == 0,
               "%s: layer '%s', records '%s', output and parts described",
               op->name, op->layer ? op->layer : "", op->records ? op->records
                                                                : "");
        }
        /* contacts: kinds and run; lines: run, kinds or none;
         * triangles: no kinds, run_tri */
        ok(text(op->title) && text(op->summary) && text(op->contract) &&
               (op->dim == 2 || op->dim == 3) &&
               (op->shape == XG_SHAPE_CONTACTS
                    ? op->run != NULL && op->run_tri == NULL &&
                          kinds_ok(op->kinds)
                : op->shape == XG_SHAPE_LINES
                    ? op->run != NULL && op->run_tri == NULL &&
                          (op->kinds == 0 || kinds_ok(op->kinds))
                    : op->shape == XG_SHAPE_TRIANGLES && op->run == NULL &&
                          op->run_tri != NULL && op->kinds == 0),
           "%s: title, summary, contract, dim %d, kinds 0x%x, its run for "
           "its shape (%d)", op->name, op->dim, op->kinds, op->shape);
        ok(counters_ok(op), "%s: its --stats counters named, each a count "
           "of xg_stats, the keys distinct", op->name);
        if (op->ninputs == 2)
            ok(input_ok(&op->in[0], 'a') && input_ok(&op->in[1], 'b') &&
                   strcmp(op->in[0].count_key, op->in[1].count_key) != 0 &&
                   strcmp(op->in[0].skip_key, op->in[1].skip_key) != 0,
               "%s: both inputs described; their --stats keys differ",
               op->name);
        else
            ok(op->ninputs == 1 && input_ok(&op->in[0], 'a') &&
                   op->in[1].elem == XG_ELEM_NONE && !op->in[1].noun &&
                   !op->in[1].count_key && !op->in[1].sub_field,
               "%s: one input described, in[1] zeroed (ninputs %d)",
               op->name, op->ninputs);
    }
    ok(xg_op_find("segtri") && xg_op_find("segtri")->dim == 3 &&
           xg_op_find("redblue") && xg_op_find("redblue")->dim == 2 &&
           xg_op_find("inside") && xg_op_find("inside")->dim == 3 &&
           xg_op_find("SEGTRI") == NULL,
       "segtri (3D), redblue (2D) and inside (3D) are there; names are "
       "case-sensitive");
    {
        const struct xg_op *st = xg_op_find("segtri"),
                           *rb = xg_op_find("redblue"),
                           *in = xg_op_find("inside");
        unsigned contacts = (1u << XG_KIND_PROPER) | (1u << XG_KIND_TOUCH) |
                            (1u << XG_KIND_OVERLAP),
                 places = (1u << XG_KIND_INSIDE) | (1u << XG_KIND_BOUNDARY) |
                          (1u << XG_KIND_OUTSIDE);
        ok(st && rb && in && st->kinds == contacts && rb->kinds == contacts &&
               in->kinds == places,
           "segtri and redblue yield proper, touch, overlap; inside yields "
           "inside, boundary, outside");
        ok(st && rb && in && !st->in[0].closed && !st->in[1].closed &&
               !rb->in[0].closed && !rb->in[1].closed &&
               !in->in[0].closed && in->in[1].closed,
           "only inside's B must be closed surfaces");
        ok(in && in->in[0].elem == XG_ELEM_POINT &&
               in->in[1].elem == XG_ELEM_TRIANGLE &&
               in->in[1].sub_field == NULL && in->in[0].sub_field &&
               strcmp(in->in[0].sub_field, "a_part") == 0,
           "inside: points (a_part) in solids (no B index field)");
        ok(st && rb && in && st->ninputs == 2 && rb->ninputs == 2 &&
               in->ninputs == 2 && st->shape == XG_SHAPE_CONTACTS &&
               rb->shape == XG_SHAPE_CONTACTS &&
               in->shape == XG_SHAPE_CONTACTS && !st->check &&
               !rb->check && !in->check,
           "segtri, redblue and inside: two inputs, contacts, no check");
    }
    {
        const struct xg_op *dt = xg_op_find("delaunay");
        ok(dt && dt->ninputs == 1 && dt->shape == XG_SHAPE_TRIANGLES &&
               dt->dim == 2 && dt->in[0].elem == XG_ELEM_POINT &&
               dt->run_tri == xg_delaunay && dt->check != NULL &&
               dt->in[0].sub_field == NULL,
           "delaunay: one input of points, triangles, xg_delaunay and its "
           "check");
        if (dt) {
            /* run_tri gives what xg_delaunay gives; check finds it right */
            static const double p[5][3] = {{0, 0, 1}, {4, 0.5, 2},
                                           {3.5, 4, 3}, {-0.5, 3, 4},
                                           {1.5, 1.25, 5}};
            struct xg_set s = {0};
            struct xg_triangles got = {0}, want = {0};
            struct xg_opts opt = {.engine = XG_ENGINE_SEQ};
            struct xg_delaunay_report d;
            struct xg_check_report rep;
            int rc1, rc2, rc3, rc4;
            for (i = 0; i < 5; i++)
                xg_set_push_point(&s, p[i], (int64_t)i + 1, 0);
            rc1 = dt->run_tri(ctx, &s, &opt, &got, NULL);
            rc2 = xg_delaunay(ctx, &s, &opt, &want, NULL);
            rc3 = dt->check(ctx, &s, NULL, &got, &rep);
            rc4 = xg_delaunay_check(ctx, &s, (const uint32_t(*)[3])got.v,
                                    got.n, &d);
            ok(rc1 == XG_OK && rc2 == XG_OK && got.n == 4 &&
                   want.n == got.n &&
                   memcmp(got.v, want.v, got.n * sizeof *got.v) == 0 &&
                   rc3 == XG_OK && count(&rep, "points", 0) == 5 &&
                   count(&rep, "triangles", 0) == 4 &&
                   count(&rep, "hull_vertices", 0) == 4 &&
                   findings(&rep) == 0 && rep.n == 10,
               "delaunay: run_tri gives xg_delaunay's %zu triangles; check "
               "finds them right", got.n);
            ok(rc4 == XG_OK && rep.ok && rep.wrong &&
                   count(&rep, "not_ccw", 1) == d.not_ccw &&
                   count(&rep, "bad_edges", 1) == d.bad_edges &&
                   count(&rep, "not_delaunay", 1) == d.not_delaunay &&
                   count(&rep, "not_canonical", 1) == d.not_canonical &&
                   count(&rep, "bad_index", 1) == d.bad_index &&
                   count(&rep, "missing", 1) == d.missing &&
                   count(&rep, "count_off", 1) == d.count_off,
               "delaunay: the check's counts are xg_delaunay_check's, the "
               "findings marked");
            /* a clockwise triangle: a finding, named */
            {
                uint32_t v = got.v[0][1];
                got.v[0][1] = got.v[0][2];
                got.v[0][2] = v;
            }
            rc3 = dt->check(ctx, &s, NULL, &got, &rep);
            ok(rc3 == XG_OK && count(&rep, "not_ccw", 1) == 1 &&
                   findings(&rep) > 0,
               "delaunay: a triangle turned clockwise is a finding "
               "(not_ccw %llu)",
               (unsigned long long)count(&rep, "not_ccw", 1));
            xg_triangles_free(&got);
            xg_triangles_free(&want);
            xg_set_free(&s);
        }
    }

    /* run equals the engine called directly */
    {
        static const struct {
            const char *name;
            xg_op_run_fn direct;
        } direct[] = {{"segtri", xg_segtri}, {"redblue", xg_redblue},
                      {"inside", xg_inside}};
        for (i = 0; i < sizeof direct / sizeof direct[0]; i++) {
            const struct xg_op *op = xg_op_find(direct[i].name);
            struct xg_set a = {0}, b = {0};
            struct xg_contacts got = {0}, want = {0};
            struct xg_opts opt = {.engine = XG_ENGINE_SEQ};
            int rc1, rc2;
            if (!op) {
                ok(0, "%s: in the table", direct[i].name);
                continue;
            }
            fill(&a, op->in[0].elem, 0, op->in[0].closed);
            fill(&b, op->in[1].elem, 1, op->in[1].closed);
            rc1 = op->run(ctx, &a, &b, &opt, &got, NULL);
            rc2 = direct[i].direct(ctx, &a, &b, &opt, &want, NULL);
            ok(rc1 == XG_OK && rc2 == XG_OK && want.n > 0 &&
                   xg_contacts_diff(&got, &want) == SIZE_MAX,
               "%s: run gives the %zu contacts the engine gives directly",
               op->name, want.n);
            /* the kinds the entry names are the ones its run checks */
            if (op->in[0].elem != op->in[1].elem) {
                xg_contacts_free(&got);
                ok(op->run(ctx, &b, &a, &opt, &got, NULL) == XG_EINVAL,
                   "%s: inputs of the other kinds swapped in: refused",
                   op->name);
            }
            xg_contacts_free(&got);
            xg_contacts_free(&want);
            xg_set_free(&a);
            xg_set_free(&b);
        }
    }
    xg_ctx_free(ctx);
    tap_done();
    return tap_exit();
}
