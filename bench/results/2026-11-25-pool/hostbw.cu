// Host memory floor of case (a): 16 threads copying its 228 MB of points
// into pinned memory (the staging a copy-based upload needs), and writing
// its 1.86 million 64-byte records (119 MB), into memory touched before.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <thread>
#include <vector>
#include <cuda_runtime.h>
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
static void par(int T, size_t n, char *dst, const char *src) {
    std::vector<std::thread> th;
    for (int t = 0; t < T; t++) th.emplace_back([=] { size_t lo = n * t / T, hi = n * (t + 1) / T;
        if (src) memcpy(dst + lo, src + lo, hi - lo); else memset(dst + lo, t + 1, hi - lo); });
    for (auto &x : th) x.join();
}
int main() {
    size_t pts = 240000000ull, rec = 1860965ull * 64;
    char *h = (char *)aligned_alloc(1 << 21, pts), *pin, *out = (char *)aligned_alloc(1 << 21, rec);
    if (cudaMallocHost(&pin, pts) != cudaSuccess) { pin = (char *)aligned_alloc(1 << 21, pts); printf("(no pinned memory: plain)\n"); }
    memset(h, 1, pts); memset(pin, 0, pts); memset(out, 0, rec);
    for (int T : {8, 16}) for (int r = 0; r < 3; r++) {
        double t0 = now(); par(T, pts, pin, h); double t1 = now(); par(T, rec, out, nullptr); double t2 = now();
        printf("%2d threads: copy 228 MB into pinned %.2f ms (%.1f GB/s); write 119 MB of records %.2f ms (%.1f GB/s)\n",
               T, 1e3 * (t1 - t0), pts / (t1 - t0) / 1e9, 1e3 * (t2 - t1), rec / (t2 - t1) / 1e9);
    }
    return 0;
}
