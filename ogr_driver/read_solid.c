/*
 * read_solid.c -- the inputs that must be solids (xg_op_input.closed,
 * inside's B): each feature, or each group of -bgroup, a closed surface
 * (no edge used by an odd number of its triangles) that does not cross
 * itself, checked as it is read so that the message names it;
 * -skip-invalid drops it with a warning instead.
 */
#include "xgo_read.h"

/* The n triangles at tri, of `who` ("feature 3", or a group of
 * -bgroup), are not a solid, for the reason what: an error naming it,
 * or with -skip-invalid a warning, *drop set and *count counted. */
static int not_solid(struct xgo_reader *r, const char *who, const char *what,
                     uint64_t *count, int *drop)
{
    if (!r->job->skip_invalid)
        return FAIL(r, XG_EFORMAT, "%s, layer '%s', %s: %s", r->s->path,
                    r->s->name, who, what);
    xgo__warn(r->quiet, "%s, layer '%s', %s: %s; skipped", r->s->path,
              r->s->name, who, what);
    *drop = 1;
    r->s->invalid++;
    (*count)++;
    return XG_OK;
}

/* The closed surface of the n triangles at tri must not cross itself
 * (xg_self_crossing; unless the user vouches for it, --solids-checked):
 * not_solid naming a crossing pair of its triangles, by sub (their
 * b_tri), or by their index among the n where sub is NULL (a group's
 * triangles are numbered so). */
static int crossing_check(struct xgo_reader *r, const double *tri, size_t n,
                          const int64_t *sub, const char *who, int *drop)
{
    struct xg_ctx *ctx;
    size_t pair[2];
    int found = 0, rc;
    char what[256];
    if (r->job->opts.solids_checked)
        return XG_OK;
    if (!(ctx = xg_ctx_new()))
        return FAIL(r, XG_ENOMEM, "out of memory");
    xg_ctx_set_threads(ctx, r->job->threads);
    rc = xg_self_crossing(ctx, tri, n, pair, &found);
    xg_ctx_free(ctx);
    if (rc != XG_OK)
        return FAIL(r, rc, "out of memory");
    if (!found)
        return XG_OK;
    snprintf(what, sizeof what, "surface crosses itself: its triangles "
             "%lld and %lld meet other than at an edge or a vertex they "
             "share (give parts that overlap as separate features)",
             (long long)(sub ? sub[pair[0]] : (int64_t)pair[0]),
             (long long)(sub ? sub[pair[1]] : (int64_t)pair[1]));
    return not_solid(r, who, what, &r->rep->crossing, drop);
}

/* Whether the n triangles at tri (b_tri numbers at sub, or NULL: their
 * index), of `who`, form a closed surface that does not cross itself:
 * XG_OK; else an error naming it, or with -skip-invalid a warning and
 * *drop set (counted).  A wireframe's lone triangles (one or two per
 * feature, a polygon of a 3DFACE) get a hint: group them with -bgroup
 * (bgroup= in a connection string). */
static int surface_closed(struct xgo_reader *r, const double *tri, size_t n,
                          const int64_t *sub, const char *who, int *drop)
{
    const struct xgo_input *in = r->input ? &r->job->b : &r->job->a;
    int tool = !in->layer_opt || in->layer_opt[0] == '-';
    uint64_t open = 0;
    char what[512];
    *drop = 0;
    if (n == 0)
        return XG_OK;
    if (xg_open_edges(tri, n, &open) != XG_OK)
        return FAIL(r, XG_ENOMEM, "out of memory");
    if (open == 0)
        return crossing_check(r, tri, n, sub, who, drop);
    snprintf(what, sizeof what, "surface is not closed: %llu open edge%s "
             "(edges used by an odd number of its triangles)%s%s%s",
             (unsigned long long)open, open == 1 ? "" : "s",
             n <= 2 && !in->group ? "; a wireframe of one triangle per "
                                    "feature? group them into solids by a "
                                    "field: " : "",
             n <= 2 && !in->group ? (tool ? "-bgroup " : "bgroup=") : "",
             n <= 2 && !in->group ? "FIELD" : "");
    return not_solid(r, who, what, &r->rep->not_closed, drop);
}

/* The feature just read (elements first .. set->n - 1) must be a
 * closed surface (surface_closed); dropped when -skip-invalid skips it.
 * A feature whose polygons were skipped (not planar, degenerate) is
 * usually open and ends here too. */
int xgo__read_closed(struct xgo_reader *r, size_t first)
{
    struct xg_set *set = r->set;
    char who[64];
    int drop, rc;
    snprintf(who, sizeof who, "feature %lld", (long long)r->fid);
    rc = surface_closed(r, set->xyz + 9 * first, set->n - first,
                        set->sub + first, who, &drop);
    if (rc == XG_OK && drop)
        set->n = first;
    return rc;
}

/* A group of -bgroup must be a closed surface (xgo_group_check). */
int xgo__read_group_closed(void *arg, const double *tri, size_t n,
                           const char *key, GIntBig fid, size_t nfeat,
                           int *drop)
{
    struct xgo_reader *r = arg;
    const struct xgo_input *in = r->input ? &r->job->b : &r->job->a;
    char who[512];
    snprintf(who, sizeof who, "group %s = '%s' (%zu feature%s, the lowest "
             "FID %lld)", in->group, key, nfeat, nfeat == 1 ? "" : "s",
             (long long)fid);
    return surface_closed(r, tri, n, NULL, who, drop);
}
