/*
 * gpu_device.c -- the device (the context's choice, checked), a run's
 * stream (the caller's, or one of its own) and memory budget, the one
 * check of CUDA runtime calls, and the arena that owns a run's device
 * arrays.  Shared by every GPU engine (xg_cuda.h).
 */
#include <stdlib.h>
#include <string.h>
#include "xg_cuda.h"

/* Room left to the runtime (contexts, kernels' local memory, libraries'
 * scratch) when the budget is what the device has free. */
#define RUNTIME_ROOM ((uint64_t)512 << 20)

/* The engines' kernels are sm_90 code and compute_90 PTX. */
#define MIN_MAJOR 9

int xg__cuda_device_check(struct xg_ctx *ctx, int device, void *stream,
                          int *resolved)
{
    int n = 0, major = 0, minor = 0, own = -1;
    *resolved = device;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) {
        cudaGetLastError();
        return xg__error(ctx, XG_ENOGPU, "no CUDA device on this machine");
    }
    if (stream) {
        if (cudaStreamGetDevice((cudaStream_t)stream, &own) != cudaSuccess) {
            cudaGetLastError();
            return xg__error(ctx, XG_EINVAL, "the stream given for the GPU "
                             "is not a CUDA stream");
        }
        if (device >= 0 && own != device)
            return xg__error(ctx, XG_EINVAL, "the stream given belongs to "
                             "GPU %d, not to GPU %d", own, device);
        *resolved = device = own;
    }
    if (device >= n)
        return xg__error(ctx, XG_EINVAL, "GPU %d does not exist: this "
                         "machine has %d (0 to %d)", device, n, n - 1);
    if (device < 0 && cudaGetDevice(&device) != cudaSuccess) {
        cudaGetLastError();
        return xg__error(ctx, XG_ENOGPU, "no current CUDA device");
    }
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                               device) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor,
                               device) != cudaSuccess) {
        cudaGetLastError();
        return xg__error(ctx, XG_ENOGPU, "GPU %d cannot be queried", device);
    }
    if (major < MIN_MAJOR)
        return xg__error(ctx, XG_ENOGPU, "GPU %d has compute capability "
                         "%d.%d; the gpu engine needs %d.0 or later",
                         device, major, minor, MIN_MAJOR);
    return XG_OK;
}

int xg__cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n;
}

int xg__cuda_check(struct xg_ctx *ctx, cudaError_t e, const char *file,
                   int line, const char *what)
{
    if (e == cudaSuccess)
        return XG_OK;
    return xg__error(ctx, XG_EGPU, "%s:%d: %s: %s", file, line, what,
                     cudaGetErrorString(e));
}

int xg__gpu_open(struct xg_ctx *ctx, const struct xg_opts *opt,
                 struct xg_gpu *gpu)
{
    size_t free_b = 0, total_b = 0;
    int rc;
    memset(gpu, 0, sizeof *gpu);
    /* a kept worker thread (thread.c) may hold an earlier task's error,
     * which the launches' checks would take for their own */
    cudaGetLastError();
    if ((rc = XG_CUDA(ctx, cudaGetDevice(&gpu->prev_device))) != XG_OK)
        return rc;
    gpu->device = ctx && ctx->gpus[0] >= 0 ? ctx->gpus[0] : gpu->prev_device;
    if (gpu->device != gpu->prev_device &&
        (rc = XG_CUDA(ctx, cudaSetDevice(gpu->device))) != XG_OK) {
        gpu->device = gpu->prev_device;
        return rc;
    }
    if (ctx && ctx->gpu_stream)
        gpu->s = (cudaStream_t)ctx->gpu_stream;
    else if ((rc = XG_CUDA(ctx, cudaStreamCreateWithFlags(
                                    &gpu->s, cudaStreamNonBlocking))) !=
             XG_OK) {
        xg__gpu_close(gpu);
        return rc;
    }
    else
        gpu->own_stream = 1;
    /* Work the caller queued on its stream comes first: the budget is
     * what the device has free once it is done. */
    if ((rc = XG_CUDA(ctx, cudaStreamSynchronize(gpu->s))) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemGetInfo(&free_b, &total_b))) != XG_OK) {
        xg__gpu_close(gpu);
        return rc;
    }
    gpu->budget = free_b > RUNTIME_ROOM ? free_b - RUNTIME_ROOM : free_b / 2;
    if (opt && opt->gpu_mem_cap && opt->gpu_mem_cap < gpu->budget)
        gpu->budget = opt->gpu_mem_cap;
    return XG_OK;
}

void xg__gpu_close(struct xg_gpu *gpu)
{
    if (gpu->s && gpu->own_stream)
        cudaStreamDestroy(gpu->s);
    else if (gpu->s)
        cudaStreamSynchronize(gpu->s);   /* the caller's: left as found */
    gpu->s = NULL;
    gpu->own_stream = 0;
    if (gpu->device != gpu->prev_device)
        cudaSetDevice(gpu->prev_device);
    gpu->device = gpu->prev_device;
}

int xg__gpu_events(struct xg_ctx *ctx, cudaEvent_t ev[2])
{
    int rc;
    ev[0] = ev[1] = NULL;
    /* the end event sleeps its waiter (xg__gpu_fill): the host thread
     * that holds the device leaves its core to the host's work beside
     * the kernel */
    if ((rc = XG_CUDA(ctx, cudaEventCreate(&ev[0]))) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaEventCreateWithFlags(
                               &ev[1], cudaEventBlockingSync))) != XG_OK)
        xg__gpu_events_free(ev);
    return rc;
}

double xg__gpu_elapsed(cudaEvent_t ev[2])
{
    float ms = 0.0f;
    if (cudaEventElapsedTime(&ms, ev[0], ev[1]) != cudaSuccess) {
        cudaGetLastError();
        return 0.0;
    }
    return 1e-3 * (double)ms;
}

void xg__gpu_events_free(cudaEvent_t ev[2])
{
    if (ev[0])
        cudaEventDestroy(ev[0]);
    if (ev[1])
        cudaEventDestroy(ev[1]);
    ev[0] = ev[1] = NULL;
}

int xg__dmem_alloc(struct xg_ctx *ctx, struct xg_dmem *m, void **d_ptr,
                   size_t bytes)
{
    int rc;
    *d_ptr = NULL;
    if (m->n == XG_DMEM_MAX)
        return xg__error(ctx, XG_ELIMIT, "more than %d device arrays in "
                         "one GPU pass", XG_DMEM_MAX);
    if ((rc = XG_CUDA(ctx, cudaMalloc(d_ptr, bytes ? bytes : 1))) != XG_OK)
        return rc;
    m->p[m->n++] = *d_ptr;
    return XG_OK;
}

int xg__dmem_up(struct xg_ctx *ctx, struct xg_dmem *m, const void **d_ptr,
                const void *h, size_t bytes, cudaStream_t s)
{
    void *p;
    int rc = xg__dmem_alloc(ctx, m, &p, bytes);
    if (rc != XG_OK)
        return rc;
    if (bytes && (rc = XG_CUDA(ctx, cudaMemcpyAsync(p, h, bytes,
                                                    cudaMemcpyHostToDevice,
                                                    s))) != XG_OK)
        return rc;
    *d_ptr = p;
    return XG_OK;
}

void xg__dmem_pop(struct xg_dmem *m)
{
    if (m->n > 0) {
        cudaFree(m->p[--m->n]);
        m->p[m->n] = NULL;
    }
}

void xg__dmem_free(struct xg_dmem *m)
{
    while (m->n > 0)
        xg__dmem_pop(m);
}
