// cgal_inside.cpp -- the CGAL peer of bench/bench_inside: the same data
// (bench/gen_inside.h), each solid a CGAL::Surface_mesh queried with
// CGAL::Side_of_triangle_mesh over the Exact_predicates_inexact_
// constructions_kernel (exact predicates), on std::threads.
//
//   cgal_inside K NTRI N STRIDE THREADS
//
// runs the points 0, STRIDE, 2 STRIDE, ... of the N-point lattice and
// prints "counts INSIDE BOUNDARY OUTSIDE seconds QUERIES build BUILD":
// (point, solid) pairs inside and on the boundary, points in no solid,
// the queries' wall seconds and the AABB trees' build seconds.
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Side_of_triangle_mesh.h>
#include <CGAL/Surface_mesh.h>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <thread>
#include <vector>
#include "gen_inside.h"

typedef CGAL::Exact_predicates_inexact_constructions_kernel K;
typedef K::Point_3 Point;
typedef CGAL::Surface_mesh<Point> Mesh;
typedef CGAL::Side_of_triangle_mesh<Mesh, K> Side;

static double now()
{
    return std::chrono::duration<double>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        std::fprintf(stderr, "usage: cgal_inside K NTRI N STRIDE THREADS\n");
        return 2;
    }
    int nsolid = std::atoi(argv[1]);
    size_t ntri = std::strtoull(argv[2], 0, 10);
    uint64_t n = std::strtoull(argv[3], 0, 10);
    uint64_t stride = std::strtoull(argv[4], 0, 10);
    int threads = std::atoi(argv[5]);
    gi_model m;
    if (gi_model_make(&m, nsolid, ntri, 7))
        return 2;

    double t0 = now();
    std::vector<Mesh> meshes(m.nsolid);
    {
        std::vector<std::map<std::array<double, 3>, Mesh::Vertex_index>> ids(
            m.nsolid);
        for (size_t t = 0; t < m.ntri; t++) {
            size_t s = (size_t)m.fid[t] - 1;
            Mesh::Vertex_index v[3];
            for (int q = 0; q < 3; q++) {
                const double *x = m.tri + 9 * t + 3 * q;
                std::array<double, 3> key = {{x[0], x[1], x[2]}};
                auto it = ids[s].find(key);
                if (it == ids[s].end())
                    it = ids[s].emplace(key, meshes[s].add_vertex(
                                                 Point(x[0], x[1], x[2])))
                             .first;
                v[q] = it->second;
            }
            if (meshes[s].add_face(v[0], v[1], v[2]) == Mesh::null_face()) {
                std::fprintf(stderr, "cgal_inside: solid %zu: face %zu "
                             "refused\n", s + 1, t);
                return 2;
            }
        }
    }
    std::vector<std::unique_ptr<Side>> side;
    for (auto &sm : meshes) {
        side.emplace_back(new Side(sm));
        (*side.back())(Point(0, 0, 0));     // builds the tree now
    }
    double build = now() - t0;

    uint64_t count = (n + stride - 1) / stride;
    std::atomic<uint64_t> in(0), on(0), out(0);
    std::vector<std::thread> pool;
    t0 = now();
    for (int th = 0; th < threads; th++)
        pool.emplace_back([&, th]() {
            uint64_t lo = count * th / threads, hi = count * (th + 1) / threads;
            uint64_t a = 0, b = 0, c = 0;
            for (uint64_t k = lo; k < hi; k++) {
                double p[3];
                gi_point(&m, n, 20, k * stride, p);
                Point P(p[0], p[1], p[2]);
                int any = 0;
                for (auto &s : side) {
                    CGAL::Bounded_side r = (*s)(P);
                    if (r == CGAL::ON_BOUNDED_SIDE)
                        a++, any = 1;
                    else if (r == CGAL::ON_BOUNDARY)
                        b++, any = 1;
                }
                c += !any;
            }
            in += a;
            on += b;
            out += c;
        });
    for (auto &t : pool)
        t.join();
    double q = now() - t0;
    std::printf("counts %llu %llu %llu seconds %.6f build %.6f\n",
                (unsigned long long)in.load(), (unsigned long long)on.load(),
                (unsigned long long)out.load(), q, build);
    gi_model_free(&m);
    return 0;
}
