// cgal_pairs.cpp -- the CGAL peer of bench/bench_cpu: which pairs of a
// dump meet, by CGAL::box_intersection_d (closed boxes, the segment tree)
// and CGAL::do_intersect over the Exact_predicates_inexact_constructions_
// kernel (exact predicates, as ours are): segment x triangle in 3D for a
// segtri dump, segment x segment in 2D for a red/blue one.
//
//   cgal_pairs DUMP THREADS [RUNS [MODE]]
//
// THREADS 1 runs the sequential segment tree.  More run MODE: "tbb",
// CGAL's own parallel tree (CGAL::Parallel_tag over TBB, limited to
// THREADS by tbb::global_control; a build with TBB, bench/local.mk),
// which copies both ranges four times and runs 16 sub-trees, and on two
// cores was slower than one thread; or "slabs" (the default), ours: the
// x axis cut into THREADS slabs of as many B boxes each, one std::thread
// per slab running the sequential tree over the boxes that meet its
// slab, a pair counted only in the slab holding the low x of the
// intersection of its boxes (so once).  Zero-length segments and collinear triangles
// are left out, as our engines leave them out (do_intersect's
// precondition).  Prints, per run, "pairs HITS boxpairs BOXPAIRS seconds
// S": the pairs that meet (our contacts count: one per pair), the box
// pairs reported, and the wall seconds from the elements to the count
// (objects, boxes, tree, predicates; reading the dump excluded).
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/box_intersection_d.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
#ifdef CGAL_LINKED_WITH_TBB
#include <tbb/global_control.h>
#include <tbb/task_arena.h>
#endif
extern "C" {
#include "exactgeo.h"
}

typedef CGAL::Exact_predicates_inexact_constructions_kernel K;

static double now()
{
    return std::chrono::duration<double>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Per-thread tallies, one cache line each, so that 17M callbacks do not
// fight over one counter.
struct tally {
    unsigned long long hits, boxes;
    char pad[48];
};

static int slot()
{
#ifdef CGAL_LINKED_WITH_TBB
    int i = tbb::this_task_arena::current_thread_index();
    return i >= 0 && i < 256 ? i : 0;
#else
    return 0;
#endif
}

// A box and its element's index (ids numbered as the boxes are made).
template <int D>
using Box = CGAL::Box_intersection_d::Box_with_info_d<
    double, D, std::size_t, CGAL::Box_intersection_d::ID_EXPLICIT>;

static int use_tbb;             // MODE "tbb"

// The slabs: thread t takes the boxes that meet [cut[t], cut[t + 1]]
// and keeps a pair when max(a.min x, b.min x) lies in [cut[t],
// cut[t + 1]) (the last slab closed), which exactly one slab does.
template <class B, class Fn>
static void slabs(std::vector<B> &a, std::vector<B> &b, Fn fn, int threads)
{
    std::vector<double> xs, cut(threads + 1);
    xs.reserve(b.size());
    for (const auto &x : b)
        xs.push_back(x.min_coord(0));
    std::sort(xs.begin(), xs.end());
    cut[0] = -HUGE_VAL;
    cut[threads] = HUGE_VAL;
    for (int t = 1; t < threads; t++)
        cut[t] = xs.empty() ? 0.0 : xs[xs.size() * t / threads];
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++)
        pool.emplace_back([&, t]() {
            double lo = cut[t], hi = cut[t + 1];
            int last = t == threads - 1;
            std::vector<B> sa, sb;
            for (const auto &x : a)
                if (x.max_coord(0) >= lo && x.min_coord(0) <= hi)
                    sa.push_back(x);
            for (const auto &x : b)
                if (x.max_coord(0) >= lo && x.min_coord(0) <= hi)
                    sb.push_back(x);
            CGAL::box_intersection_d(
                sa.begin(), sa.end(), sb.begin(), sb.end(),
                [&](const B &x, const B &y) {
                    double m = std::max(x.min_coord(0), y.min_coord(0));
                    if (m >= lo && (m < hi || last))
                        fn(x, y, t);
                });
        });
    for (auto &th : pool)
        th.join();
}

// fn(box of a, box of b, thread): every pair of boxes that meet, once.
template <class B, class Fn>
static void intersect(std::vector<B> &a, std::vector<B> &b, Fn fn,
                      int threads)
{
    if (threads > 1 && !use_tbb) {
        slabs(a, b, fn, threads);
        return;
    }
    if (threads > 1) {
#ifdef CGAL_LINKED_WITH_TBB
        CGAL::box_intersection_d<CGAL::Parallel_tag>(
            a.begin(), a.end(), b.begin(), b.end(),
            [&](const B &x, const B &y) { fn(x, y, slot()); });
        return;
#endif
    }
    CGAL::box_intersection_d(a.begin(), a.end(), b.begin(), b.end(),
                             [&](const B &x, const B &y) { fn(x, y, 0); });
}

// One run over a segtri dump: A segments, B triangles.
static double run3(const xg_set &sa, const xg_set &sb, int threads,
                   tally *t)
{
    double t0 = now();
    std::vector<K::Segment_3> segs;
    std::vector<K::Triangle_3> tris;
    segs.reserve(sa.n);
    tris.reserve(sb.n);
    for (size_t i = 0; i < sa.n; i++) {
        const double *s = sa.xyz + 6 * i;
        K::Segment_3 g(K::Point_3(s[0], s[1], s[2]),
                       K::Point_3(s[3], s[4], s[5]));
        if (!g.is_degenerate())
            segs.push_back(g);
    }
    for (size_t i = 0; i < sb.n; i++) {
        const double *v = sb.xyz + 9 * i;
        K::Triangle_3 g(K::Point_3(v[0], v[1], v[2]),
                        K::Point_3(v[3], v[4], v[5]),
                        K::Point_3(v[6], v[7], v[8]));
        if (!g.is_degenerate())
            tris.push_back(g);
    }
    std::vector<Box<3>> ba, bb;
    ba.reserve(segs.size());
    bb.reserve(tris.size());
    for (size_t i = 0; i < segs.size(); i++)
        ba.push_back(Box<3>(segs[i].bbox(), i));
    for (size_t i = 0; i < tris.size(); i++)
        bb.push_back(Box<3>(tris[i].bbox(), i));
    intersect(ba, bb,
              [t, &segs, &tris](const Box<3> &x, const Box<3> &y, int th) {
                  tally &c = t[th];
                  c.boxes++;
                  c.hits += CGAL::do_intersect(segs[x.info()], tris[y.info()]);
              },
              threads);
    return now() - t0;
}

// One run over a red/blue dump: A and B segments, in (x, y).
static double run2(const xg_set &sa, const xg_set &sb, int threads,
                   tally *t)
{
    double t0 = now();
    std::vector<K::Segment_2> s[2];
    std::vector<Box<2>> b[2];
    const xg_set *in[2] = {&sa, &sb};
    for (int k = 0; k < 2; k++) {
        s[k].reserve(in[k]->n);
        for (size_t i = 0; i < in[k]->n; i++) {
            const double *v = in[k]->xyz + 6 * i;
            K::Segment_2 g(K::Point_2(v[0], v[1]), K::Point_2(v[3], v[4]));
            if (!g.is_degenerate())
                s[k].push_back(g);
        }
        b[k].reserve(s[k].size());
        for (size_t i = 0; i < s[k].size(); i++)
            b[k].push_back(Box<2>(s[k][i].bbox(), i));
    }
    intersect(b[0], b[1],
              [t, &s](const Box<2> &x, const Box<2> &y, int th) {
                  tally &c = t[th];
                  c.boxes++;
                  c.hits += CGAL::do_intersect(s[0][x.info()], s[1][y.info()]);
              },
              threads);
    return now() - t0;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 5) {
        std::fprintf(stderr, "usage: cgal_pairs DUMP THREADS [RUNS [MODE]]\n");
        return 2;
    }
    int threads = std::atoi(argv[2]), runs = argc > 3 ? std::atoi(argv[3]) : 1;
    if (threads < 1 || threads > 256 || runs < 1) {
        std::fprintf(stderr, "cgal_pairs: THREADS 1..256, RUNS >= 1\n");
        return 2;
    }
    use_tbb = argc > 4 && !std::strcmp(argv[4], "tbb");
#ifndef CGAL_LINKED_WITH_TBB
    if (threads > 1 && use_tbb) {
        std::fprintf(stderr, "cgal_pairs: built without TBB: 1 thread only\n");
        return 3;
    }
#else
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                              (size_t)threads);
#endif
    xg_ctx *ctx = xg_ctx_new();
    xg_set a = xg_set(), b = xg_set();
    if (!ctx || xg_dump_read(ctx, argv[1], &a, &b) != XG_OK) {
        std::fprintf(stderr, "cgal_pairs: %s: %s\n", argv[1],
                     ctx ? xg_ctx_errmsg(ctx) : "out of memory");
        return 1;
    }
    int twod = b.elem == XG_ELEM_SEGMENT;
    for (int r = 0; r < runs; r++) {
        std::vector<tally> t(256, tally());
        double sec = twod ? run2(a, b, threads, t.data())
                          : run3(a, b, threads, t.data());
        unsigned long long hits = 0, boxes = 0;
        for (const auto &c : t) {
            hits += c.hits;
            boxes += c.boxes;
        }
        std::printf("pairs %llu boxpairs %llu seconds %.6f\n", hits, boxes,
                    sec);
        std::fflush(stdout);
    }
    xg_set_free(&a);
    xg_set_free(&b);
    xg_ctx_free(ctx);
    return 0;
}
