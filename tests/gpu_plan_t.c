/*
 * gpu_plan_t.c -- the GPU engine's host-side logic, without a GPU: the
 * multi-block tables (the paper's Tables 11.1 and 11.2, and exact cover
 * of every cell's pairs), the ownership rule (each box-meeting pair
 * evaluated in exactly one cell), the count pass's estimate (never below
 * what the interval pass reports, on random and degenerate sets), and
 * the batching (ranges within budget, covering every cell's pairs once,
 * with local numbers that map back), and the count pass's pair split.
 */
#include <stdlib.h>
#include <string.h>
#include "exactgeo.h"
#include "op/segtri/xg_segtri.h"
#include "xg_grid.h"
#include "xg_gpuhost.h"
#include "xg_boxes.h"
#include "xg_interval.h"
#include "xg_filter_segtri.h"
#include "tap.h"
#include "xg_rng.h"

static uint64_t rnd(void) { return rng_u64(); }
static double unif(void) { return rng_unit(); }

static void paper_tables(void)
{
    /* Table 11.1: T_c = 3 2 1 3, S_c = 4 3 1 1, four threads a block. */
    const uint32_t b_start[5] = {0, 3, 5, 6, 9};
    const uint32_t a_start[5] = {0, 4, 7, 8, 9};
    const uint32_t cell[7] = {0, 0, 0, 1, 1, 2, 3};
    const uint64_t first[7] = {0, 4, 8, 0, 4, 0, 0};
    /* The paper prints End 0 for block 6, but cell 3 holds 3 x 1 = 3
     * pairs, 0..2: a misprint (its own rule, blocks = T_c S_c / Th,
     * gives the one block that must then end at pair 2). */
    const uint64_t last[7] = {3, 7, 11, 3, 5, 0, 2};
    struct xg_blocks bt;
    int rc = xg__blocks_build(a_start, b_start, 0, 4, 4, &bt);
    ok(rc == XG_OK && bt.n == 7 && bt.pairs == 12 + 6 + 1 + 3 &&
           !memcmp(bt.cell, cell, sizeof cell) &&
           !memcmp(bt.first, first, sizeof first) &&
           !memcmp(bt.last, last, sizeof last),
       "block tables reproduce the paper's Table 11.2");
    /* The paper's worked example: thread 2 of block 4 takes pair 5 of
     * cell 1, i.e. segment 5 % 3 = 2 and triangle 5 / 3 = 1. */
    {
        uint64_t P = bt.first[4] + 1;
        uint32_t S = a_start[2] - a_start[1];
        ok(bt.cell[4] == 1 && P == 5 && P % S == 2 && P / S == 1,
           "the paper's example thread: block 4 -> cell 1, segment 2, "
           "triangle 1");
    }
    xg__blocks_free(&bt);
}

static void tables_cover(void)
{
    enum { NC = 200 };
    uint32_t a_start[NC + 1], b_start[NC + 1];
    struct xg_blocks bt;
    size_t c, k, bad = 0;
    unsigned th = 64;
    uint8_t *seen[NC];
    a_start[0] = b_start[0] = 0;
    for (c = 0; c < NC; c++) {
        a_start[c + 1] = a_start[c] + (uint32_t)(rnd() % 4 ? rnd() % 9 : 0);
        b_start[c + 1] = b_start[c] + (uint32_t)(rnd() % 3 ? rnd() % 90 : 0);
    }
    ok(xg__blocks_build(a_start, b_start, 0, NC, th, &bt) == XG_OK,
       "block tables built for %d random cells", NC);
    for (c = 0; c < NC; c++)
        seen[c] = calloc((size_t)(a_start[c + 1] - a_start[c]) *
                                 (b_start[c + 1] - b_start[c]) + 1, 1);
    for (k = 0; k < bt.n; k++) {
        uint64_t p;
        c = bt.cell[k];
        if (bt.last[k] < bt.first[k] || bt.last[k] - bt.first[k] >= th)
            bad++;
        for (p = bt.first[k]; p <= bt.last[k]; p++)
            seen[c][p]++;
    }
    for (c = 0; c < NC; c++) {
        uint64_t n = (uint64_t)(a_start[c + 1] - a_start[c]) *
                     (b_start[c + 1] - b_start[c]), p;
        for (p = 0; p < n; p++)
            bad += seen[c][p] != 1;
        free(seen[c]);
    }
    ok(bad == 0, "every pair of every cell falls in exactly one block, "
       "blocks of at most %u pairs (%zu bad)", th, bad);
    xg__blocks_free(&bt);
}

/* Random sets over a small box, some at UTM offsets on a lattice so that
 * boxes touch exactly at cell borders. */
static void make_set(struct xg_set *a, struct xg_set *b, size_t na,
                     size_t nb, int lattice)
{
    double o[3] = {500000.25, 7000000.5, 250.0};
    size_t i;
    int k, j;
    for (i = 0; i < na; i++) {
        double p[3], q[3];
        for (k = 0; k < 3; k++) {
            p[k] = o[k] + (lattice ? (double)(rnd() % 9) * 0.25
                                   : unif() * 10.0);
            q[k] = lattice ? o[k] + (double)(rnd() % 9) * 0.25
                           : p[k] + (unif() - 0.5) * 3.0;
        }
        xg_set_push_segment(a, p, q, (int64_t)i, 0);
    }
    for (i = 0; i < nb; i++) {
        double v[3][3];
        for (k = 0; k < 3; k++) {
            double c = o[k] + unif() * 10.0;
            for (j = 0; j < 3; j++)
                v[j][k] = lattice ? o[k] + (double)(rnd() % 9) * 0.25
                                  : c + (unif() - 0.5) * 1.5;
        }
        xg_set_push_triangle(b, v[0], v[1], v[2], (int64_t)i, 0);
    }
}

/* Ownership and the count estimate on one set. */
static void owner_and_count(const char *what, int lattice)
{
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_set a = {0};
    struct xg_set b = {0};
    struct xg_opts opt;
    struct xg_stats st;
    struct xg_grid g;
    size_t i, j, c, bad_own = 0, meet = 0, short_count = 0, kept = 0,
                    reported = 0;
    uint32_t *owned;

    make_set(&a, &b, 150, 600, lattice);
    memset(&opt, 0, sizeof opt);
    opt.grid[0] = opt.grid[1] = opt.grid[2] = 6;
    memset(&st, 0, sizeof st);
    ok(xg__segtri_prepare(ctx, &a, &b, &opt, 2, &g, &st) == XG_OK,
       "%s: grid built", what);
    owned = calloc(a.n * b.n, sizeof *owned);
    for (c = 0; c < g.ncell; c++) {
        uint32_t ia, ib;
        for (ia = g.a_start[c]; ia < g.a_start[c + 1]; ia++)
            for (ib = g.b_start[c]; ib < g.b_start[c + 1]; ib++) {
                uint32_t p = g.a_items[ia], q = g.b_items[ib];
                if (xg__boxes_meet(g.a_box + 6 * (size_t)p,
                                   g.b_box + 6 * (size_t)q) &&
                    xg__grid_owns(&g, c, g.a_cell + 6 * (size_t)p,
                                  g.b_cell + 6 * (size_t)q)) {
                    struct xg_iv t;
                    float sf[6], tf[9];
                    int k, maybe, r;
                    owned[p * b.n + q]++;
                    for (k = 0; k < 6; k++)
                        sf[k] = (float)(a.xyz[6 * p + k] - g.lo[k % 3]);
                    for (k = 0; k < 9; k++)
                        tf[k] = (float)(b.xyz[9 * q + k] - g.lo[k % 3]);
                    maybe = xg_segtri_maybe_f(sf, tf);
                    r = xg_segtri_fast(a.xyz + 6 * p, b.xyz + 9 * q, &t);
                    kept += maybe;
                    reported += r != XG_SEGTRI_MISS;
                    short_count += r != XG_SEGTRI_MISS && !maybe;
                }
            }
    }
    for (i = 0; i < a.n; i++)
        for (j = 0; j < b.n; j++) {
            int m = g.a_cell[6 * i] <= g.a_cell[6 * i + 3] &&
                    g.b_cell[6 * j] <= g.b_cell[6 * j + 3] &&
                    xg__boxes_meet(g.a_box + 6 * i, g.b_box + 6 * j);
            meet += m;
            bad_own += owned[i * b.n + j] != (uint32_t)m;
        }
    ok(bad_own == 0, "%s: each of the %zu box-meeting pairs is owned by "
       "exactly one cell, the others by none (%zu bad)", what, meet, bad_own);
    ok(short_count == 0 && kept >= reported,
       "%s: the float count (%zu) keeps every pair the interval pass "
       "reports (%zu)", what, kept, reported);
    free(owned);
    xg__grid_free(&g);
    xg_set_free(&a);
    xg_set_free(&b);
    xg_ctx_free(ctx);
}

static void batches(void)
{
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_set a = {0};
    struct xg_set b = {0};
    struct xg_opts opt;
    struct xg_stats st;
    struct xg_grid g;
    size_t *bounds = NULL, nb = 0, i, c, bad = 0, over = 0;
    uint64_t budget = 8192, refs = 0;

    make_set(&a, &b, 200, 800, 0);
    memset(&opt, 0, sizeof opt);
    opt.grid[0] = opt.grid[1] = opt.grid[2] = 8;
    memset(&st, 0, sizeof st);
    xg__segtri_prepare(ctx, &a, &b, &opt, 1, &g, &st);
    i = (size_t)xg__gpu_plan_batches(&g, 64, budget, &bounds, &nb);
    ok(i == XG_OK && nb > 1 && bounds[0] == 0 && bounds[nb] == g.ncell,
       "batch plan: %zu ranges over %zu cells", nb, g.ncell);
    for (i = 0; i < nb; i++) {
        struct xg_gpu_batch bt;
        if (bounds[i + 1] <= bounds[i])
            bad++;
        if (xg__gpu_batch_bytes(&g, bounds[i], bounds[i + 1], 64) > budget &&
            bounds[i + 1] - bounds[i] > 1)
            over++;
        if (xg__gpu_batch_gather(&g, a.xyz, b.xyz, bounds[i], bounds[i + 1],
                                 &bt) != XG_OK) {
            bad++;
            continue;
        }
        /* Each cell's local lists map back to the global lists, and the
         * local coordinates are the global element's. */
        for (c = bounds[i]; c < bounds[i + 1]; c++) {
            size_t lc = c - bounds[i], r;
            if (bt.a_start[lc + 1] - bt.a_start[lc] !=
                    g.a_start[c + 1] - g.a_start[c] ||
                bt.b_start[lc + 1] - bt.b_start[lc] !=
                    g.b_start[c + 1] - g.b_start[c]) {
                bad++;
                continue;
            }
            for (r = 0; r < g.a_start[c + 1] - g.a_start[c]; r++) {
                uint32_t l = bt.a_items[bt.a_start[lc] + r];
                bad += bt.a_map[l] != g.a_items[g.a_start[c] + r] ||
                       memcmp(bt.seg + 6 * l, a.xyz + 6 * bt.a_map[l],
                              48) != 0 ||
                       memcmp(bt.a_cell + 6 * l, g.a_cell + 6 * bt.a_map[l],
                              24) != 0;
                refs++;
            }
            for (r = 0; r < g.b_start[c + 1] - g.b_start[c]; r++) {
                uint32_t l = bt.b_items[bt.b_start[lc] + r];
                bad += bt.b_map[l] != g.b_items[g.b_start[c] + r] ||
                       memcmp(bt.tri + 9 * l, b.xyz + 9 * bt.b_map[l],
                              72) != 0;
                refs++;
            }
        }
        xg__gpu_batch_free(&bt);
    }
    ok(over == 0, "every range of more than one cell fits the budget");
    ok(bad == 0 && refs == g.a_start[g.ncell] + g.b_start[g.ncell],
       "the ranges cover every cell once and their local numbers map back "
       "(%llu refs, %zu bad)", (unsigned long long)refs, bad);
    free(bounds);
    xg__grid_free(&g);
    xg_set_free(&a);
    xg_set_free(&b);
    xg_ctx_free(ctx);
}

/* The count pass's split of pair P into segment P % S and triangle
 * P / S without a division: every small S against every P up to a few
 * multiples of it, then the edges (P near 2^32, S near P, S = 1, S a
 * power of two and its neighbours) and random pairs. */
static int split_matches(uint32_t P, uint32_t S)
{
    uint32_t seg, tri = xg__pair_split(P, S, xg__pair_magic(S), &seg);
    return tri == P / S && seg == P % S;
}

static void pair_split(void)
{
    const uint32_t edge_p[] = {0, 1, 2, 0x7fffffffu, 0x80000000u,
                               0xfffffffeu, 0xffffffffu, 0xfffff000u};
    uint64_t tried = 0, bad = 0;
    uint32_t S, P;
    size_t i;
    int k;
    for (S = 1; S <= 600; S++)
        for (P = 0; P < 5 * S + 1000; P++, tried++)
            bad += !split_matches(P, S);
    for (k = 0; k < 32; k++) {
        uint32_t pw = (uint32_t)1 << k, near[3] = {pw - 1, pw, pw + 1};
        for (i = 0; i < 3; i++) {
            size_t j;
            if (near[i] == 0)
                continue;
            for (j = 0; j < sizeof edge_p / sizeof *edge_p; j++, tried++)
                bad += !split_matches(edge_p[j], near[i]);
            for (j = 0; j < 3; j++, tried++)    /* P = S - 1, S, S + 1 */
                bad += !split_matches(near[i] - 1 + (uint32_t)j, near[i]);
        }
    }
    for (i = 0; i < 3000000; i++, tried++) {
        uint64_t r = rnd();
        uint32_t s = (uint32_t)(r >> 32) >> (r % 32);
        P = (uint32_t)r;
        if (s == 0)
            s = 1;
        bad += !split_matches(P, s);
        /* the last P of a cell: S x T - 1 */
        tried++;
        bad += !split_matches(0xffffffffu - (0xffffffffu % s) - 1, s);
    }
    ok(bad == 0, "pair split without division equals / and %% "
       "(%llu of %llu wrong)", (unsigned long long)bad,
       (unsigned long long)tried);
}

int main(void)
{
    (void)tap_plan;
    (void)tap_skip_all;
    rng_seed_from_env(2026);
    paper_tables();
    tables_cover();
    owner_and_count("random", 0);
    owner_and_count("lattice", 1);
    batches();
    pair_split();
    tap_done();
    return tap_exit();
}
