// The floor of case (a): moving its points (240 MB) to the device.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <cuda_runtime.h>
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
int main() {
    size_t sizes[2] = {240000000ull, 2400000000ull};
    for (int si = 0; si < 2; si++) {
        size_t n = sizes[si];
        char *h = (char *)malloc(n), *hp; void *d;
        memset(h, 1, n);
        cudaMalloc(&d, n); cudaMallocHost(&hp, n); memset(hp, 1, n);
        cudaMemcpy(d, h, 1 << 20, cudaMemcpyHostToDevice);
        for (int r = 0; r < 3; r++) {
            double t0 = now();
            cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
            double t1 = now();
            cudaHostRegister(h, n, 0);
            double t2 = now();
            cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
            double t3 = now();
            cudaHostUnregister(h);
            double t4 = now();
            cudaMemcpy(d, hp, n, cudaMemcpyHostToDevice);
            double t5 = now();
            printf("%zu MB: pageable %.2f ms (%.1f GB/s); register %.2f + copy %.2f (%.1f GB/s) + unregister %.2f ms; pinned %.2f ms (%.1f GB/s)\n",
                   n >> 20, 1e3*(t1-t0), n/(t1-t0)/1e9, 1e3*(t2-t1), 1e3*(t3-t2), n/(t3-t2)/1e9, 1e3*(t4-t3), 1e3*(t5-t4), n/(t5-t4)/1e9);
        }
        cudaFree(d); cudaFreeHost(hp); free(h);
    }
    return 0;
}
