/*
 * gpu_pinned.c -- host to device and back through pinned buffers kept
 * in the context, one set per device (pinning memory costs
 * milliseconds, and users rerun jobs).
 * Each of up to PIN_THREADS threads moves its chunks through its own two
 * pinned slots and queues their transfer on its own stream, so the CPU
 * copies and the bus overlap, at the bus's rate rather than the driver's
 * pageable path.  Shared by every GPU engine (xg_cuda.h).
 * A large upload can instead lock the source itself, in pieces, each
 * sent as soon as it is locked (xg__gpu_upload_locked): the bus reads
 * the memory where it lies, and no host core copies it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "xg_cuda.h"

#define PIN_CHUNK ((size_t)4 << 20)
#define PIN_THREADS 8
/* The slots' events: a thread that waits for its slot sleeps rather than
 * spins, leaving the core to the host's work beside the transfer (the
 * solids' preparation, a batch's finish). */
#define PIN_EVENT_FLAGS (cudaEventDisableTiming | cudaEventBlockingSync)

/* One device's buffers; the context holds a list, one per device used. */
struct pinned {
    int device;
    struct pinned *next;
    char *buf;                          /* PIN_THREADS x 2 slots */
    cudaStream_t st[PIN_THREADS];
    cudaEvent_t ev[PIN_THREADS][2];     /* slot free again */
};

/* Frees one device's buffers, that device made current meanwhile. */
static void pinned_free_one(struct pinned *pb)
{
    int t, prev = -1;
    if (cudaGetDevice(&prev) == cudaSuccess && prev != pb->device)
        cudaSetDevice(pb->device);
    for (t = 0; t < PIN_THREADS; t++) {
        if (pb->ev[t][0])
            cudaEventDestroy(pb->ev[t][0]);
        if (pb->ev[t][1])
            cudaEventDestroy(pb->ev[t][1]);
        if (pb->st[t])
            cudaStreamDestroy(pb->st[t]);
    }
    if (pb->buf)
        cudaFreeHost(pb->buf);
    if (prev >= 0 && prev != pb->device)
        cudaSetDevice(prev);
    cudaGetLastError();
    free(pb);
}

/* The context's gpu_free: every device's buffers. */
static void pinned_free(void *p)
{
    struct pinned *pb = p, *next;
    for (; pb; pb = next) {
        next = pb->next;
        pinned_free_one(pb);
    }
}

/* The context's buffers for the current device, made on first use and
 * added to its list; freed by xg_ctx_free. */
static int pinned_get(struct xg_ctx *ctx, struct pinned **out)
{
    struct pinned *pb;
    int t, rc, device;
    if ((rc = XG_CUDA(ctx, cudaGetDevice(&device))) != XG_OK)
        return rc;
    for (pb = ctx->gpu; pb; pb = pb->next)
        if (pb->device == device) {
            *out = pb;
            return XG_OK;
        }
    if (!(pb = calloc(1, sizeof *pb)))
        return xg__error(ctx, XG_ENOMEM, "out of memory for pinned buffers");
    pb->device = device;
    rc = XG_CUDA(ctx, cudaHostAlloc((void **)&pb->buf,
                                    2 * PIN_THREADS * PIN_CHUNK,
                                    cudaHostAllocDefault));
    for (t = 0; t < PIN_THREADS && rc == XG_OK; t++)
        if ((rc = XG_CUDA(ctx, cudaStreamCreateWithFlags(
                                   &pb->st[t], cudaStreamNonBlocking))) ==
                XG_OK &&
            (rc = XG_CUDA(ctx, cudaEventCreateWithFlags(
                                   &pb->ev[t][0], PIN_EVENT_FLAGS))) == XG_OK)
            rc = XG_CUDA(ctx, cudaEventCreateWithFlags(&pb->ev[t][1],
                                                       PIN_EVENT_FLAGS));
    if (rc != XG_OK) {
        pinned_free_one(pb);
        return rc;
    }
    pb->next = ctx->gpu;
    ctx->gpu = pb;
    ctx->gpu_free = pinned_free;
    *out = pb;
    return XG_OK;
}

struct pin_copy {
    struct pinned *pb;
    char *dst;
    const char *src;
    size_t n;
    int nthreads, down;         /* down: device to host */
    int check;                  /* up: doubles, checked as they pass */
    int bad[PIN_THREADS];       /* per thread: a non-finite one seen */
    cudaError_t err[PIN_THREADS];
};

/* Thread tid takes chunks tid, tid + nthreads, ... in its two slots;
 * done when its stream has moved them all.  Up: each chunk is copied
 * into a slot, then sent.  Down: each chunk is fetched into a slot, and
 * copied out when the slot is next needed, or at the end. */
static void pin_worker(void *arg, int tid)
{
    struct pin_copy *c = arg;
    struct pinned *pb = c->pb;
    size_t off, step = (size_t)c->nthreads * PIN_CHUNK, at[2] = {0, 0},
                len[2] = {0, 0};
    int k = 0, j, used[2] = {0, 0}, last = -1;
    /* A kept worker thread (thread.c) has whichever device an earlier
     * task left current, and maybe its error: the buffers' device
     * first, the error cleared. */
    cudaError_t e = (cudaGetLastError(), cudaSetDevice(pb->device));
    for (off = (size_t)tid * PIN_CHUNK; off < c->n && e == cudaSuccess;
         off += step, k ^= 1) {
        char *slot = pb->buf + (size_t)(2 * tid + k) * PIN_CHUNK;
        if (used[k] &&
            (e = cudaEventSynchronize(pb->ev[tid][k])) != cudaSuccess)
            break;
        if (used[k] && c->down)
            memcpy(c->dst + at[k], slot, len[k]);
        at[k] = off;
        len[k] = c->n - off < PIN_CHUNK ? c->n - off : PIN_CHUNK;
        if (!c->down)
            memcpy(slot, c->src + off, len[k]);
        /* in cache still: the check costs no second pass over memory */
        if (c->check && !c->bad[tid])
            c->bad[tid] = xg__nonfinite_run((const double *)slot,
                                            len[k] / sizeof(double));
        if ((e = c->down ? cudaMemcpyAsync(slot, c->src + off, len[k],
                                           cudaMemcpyDeviceToHost,
                                           pb->st[tid])
                         : cudaMemcpyAsync(c->dst + off, slot, len[k],
                                           cudaMemcpyHostToDevice,
                                           pb->st[tid])) == cudaSuccess)
            e = cudaEventRecord(pb->ev[tid][k], pb->st[tid]);
        used[k] = 1;
        last = k;
    }
    /* the stream's last transfer done, and all before it: waited for on
     * its event, which sleeps (PIN_EVENT_FLAGS) */
    if (e == cudaSuccess && last >= 0)
        e = cudaEventSynchronize(pb->ev[tid][last]);
    for (j = 0; j < 2 && e == cudaSuccess && c->down; j++)
        if (used[j])
            memcpy(c->dst + at[j], pb->buf + (size_t)(2 * tid + j) * PIN_CHUNK,
                   len[j]);
    c->err[tid] = e;
}

/* bytes from src to dst through the pinned buffers, down or up; with
 * bad, up, *bad = whether a double of src is infinite or NaN. */
static int pin_move(struct xg_ctx *ctx, void *dst, const void *src,
                    size_t bytes, int down, int *bad)
{
    struct pinned *pb = NULL;
    struct pin_copy c;
    size_t nchunk = (bytes + PIN_CHUNK - 1) / PIN_CHUNK;
    int t, rc;
    if (bad)
        *bad = 0;
    if (bytes == 0)
        return XG_OK;
    if (!ctx) {
        /* no context to keep buffers in (the API takes a NULL one): the
         * driver's own copy, the check on the source */
        if (bad)
            *bad = xg__nonfinite_run(src, bytes / sizeof(double));
        return XG_CUDA(ctx, cudaMemcpy(dst, src, bytes,
                                       down ? cudaMemcpyDeviceToHost
                                            : cudaMemcpyHostToDevice));
    }
    if ((rc = pinned_get(ctx, &pb)) != XG_OK)
        return rc;
    memset(&c, 0, sizeof c);
    c.pb = pb;
    c.dst = dst;
    c.src = src;
    c.n = bytes;
    c.down = down;
    c.check = bad != NULL;
    c.nthreads = xg__threads(ctx) < PIN_THREADS ? xg__threads(ctx)
                                               : PIN_THREADS;
    if ((size_t)c.nthreads > nchunk)
        c.nthreads = (int)nchunk;
    if ((rc = xg__parallel(c.nthreads, pin_worker, &c)) != XG_OK)
        return xg__error(ctx, rc, "cannot start threads");
    /* The workers' own calls, reported with this line. */
    for (t = 0; t < c.nthreads; t++)
        if ((rc = xg__cuda_check(ctx, c.err[t], __FILE__, __LINE__,
                                 down ? "pinned download"
                                      : "pinned upload")) != XG_OK)
            return rc;
    for (t = 0; t < c.nthreads && bad; t++)
        *bad |= c.bad[t];
    return XG_OK;
}

int xg__gpu_upload(struct xg_ctx *ctx, void *d_dst, const void *src,
                   size_t bytes)
{
    return pin_move(ctx, d_dst, src, bytes, 0, NULL);
}

int xg__gpu_upload_finite(struct xg_ctx *ctx, double *d_dst,
                          const double *src, size_t n, int *bad)
{
    return pin_move(ctx, d_dst, src, n * sizeof *src, 0, bad);
}

int xg__gpu_download(struct xg_ctx *ctx, void *dst, const void *d_src,
                     size_t bytes)
{
    return pin_move(ctx, dst, d_src, bytes, 1, NULL);
}

/* ---- uploads from the source itself, locked in pieces ---- */

#define LOCK_PIECE ((size_t)128 << 20)

/* Piece k of the bytes at src: its start and length.  Pieces after the
 * first start on page boundaries, so that no page is locked twice. */
static void lock_piece(const char *src, size_t bytes, size_t k, size_t page,
                       const char **at, size_t *len)
{
    uintptr_t lo = (uintptr_t)src, hi = lo + bytes, mask = ~(uintptr_t)(page - 1);
    uintptr_t a = k ? ((lo + k * LOCK_PIECE) & mask) : lo;
    uintptr_t b = (lo + (k + 1) * LOCK_PIECE) & mask;
    if (a < lo)
        a = lo;
    if (b > hi || k + 1 >= (bytes + LOCK_PIECE - 1) / LOCK_PIECE)
        b = hi;
    *at = (const char *)a;
    *len = b > a ? b - a : 0;
}

void xg__gpu_unlock(const void *src, size_t bytes, size_t locked)
{
    size_t k, len, page = (size_t)sysconf(_SC_PAGESIZE);
    const char *at;
    for (k = 0; k < locked; k++) {
        lock_piece(src, bytes, k, page, &at, &len);
        if (len)
            cudaHostUnregister((void *)at);
    }
    cudaGetLastError();
}

int xg__gpu_upload_locked(struct xg_ctx *ctx, void *d_dst, const void *src,
                          size_t bytes, cudaStream_t s, size_t *locked)
{
    size_t k, n = (bytes + LOCK_PIECE - 1) / LOCK_PIECE, len,
              page = (size_t)sysconf(_SC_PAGESIZE);
    const char *at;
    cudaError_t e;
    *locked = 0;
    for (k = 0; k < n; k++) {
        lock_piece(src, bytes, k, page, &at, &len);
        if (!len)
            continue;
        /* read-only: the device never writes the caller's memory */
        if (cudaHostRegister((void *)at, len, cudaHostRegisterReadOnly) !=
            cudaSuccess) {
            /* not lockable here: what is locked goes back once sent */
            cudaGetLastError();
            cudaStreamSynchronize(s);
            xg__gpu_unlock(src, bytes, k);
            *locked = 0;
            return XG_GPU_UNLOCKED;
        }
        *locked = k + 1;
        if ((e = cudaMemcpyAsync((char *)d_dst + (at - (const char *)src),
                                 at, len, cudaMemcpyHostToDevice, s)) !=
            cudaSuccess)
            return xg__cuda_check(ctx, e, __FILE__, __LINE__,
                                  "locked upload");
    }
    return XG_CUDA(ctx, cudaStreamSynchronize(s));
}
