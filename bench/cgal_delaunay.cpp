// cgal_delaunay.cpp -- the CGAL peer of bench_delaunay:
// Delaunay_triangulation_2 with exact predicates (EPICK), one thread, on
// the points of a binary file (n x 2 doubles); prints the seconds of the
// triangulation and writes its finite faces (int32 x 3, point indices)
// to the output file, for bench_delaunay's exact audit.
//
//   cgal_delaunay POINTS.bin TRIANGLES.bin
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Delaunay_triangulation_2.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

typedef CGAL::Exact_predicates_inexact_constructions_kernel K;
typedef CGAL::Triangulation_vertex_base_with_info_2<uint32_t, K> Vb;
typedef CGAL::Triangulation_data_structure_2<Vb> Tds;
typedef CGAL::Delaunay_triangulation_2<K, Tds> DT;

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: cgal_delaunay POINTS.bin TRIANGLES.bin\n");
        return 2;
    }
    std::FILE *f = std::fopen(argv[1], "rb");
    if (!f)
        return 1;
    std::vector<double> xy;
    double buf[2];
    while (std::fread(buf, sizeof buf, 1, f) == 1) {
        xy.push_back(buf[0]);
        xy.push_back(buf[1]);
    }
    std::fclose(f);
    size_t n = xy.size() / 2;
    std::vector<std::pair<K::Point_2, uint32_t>> pts;
    pts.reserve(n);
    for (size_t i = 0; i < n; i++)
        pts.emplace_back(K::Point_2(xy[2 * i], xy[2 * i + 1]), (uint32_t)i);
    auto t0 = std::chrono::steady_clock::now();
    DT dt;
    dt.insert(pts.begin(), pts.end());   // spatial sort inside
    auto t1 = std::chrono::steady_clock::now();
    std::printf("%.6f\n", std::chrono::duration<double>(t1 - t0).count());
    std::FILE *o = std::fopen(argv[2], "wb");
    if (!o)
        return 1;
    for (auto fc = dt.finite_faces_begin(); fc != dt.finite_faces_end(); ++fc) {
        int32_t v[3] = {(int32_t)fc->vertex(0)->info(),
                        (int32_t)fc->vertex(1)->info(),
                        (int32_t)fc->vertex(2)->info()};
        std::fwrite(v, sizeof v, 1, o);
    }
    std::fclose(o);
    return 0;
}
