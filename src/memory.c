/*
 * memory.c -- the memory a run may take, and the check that refuses a run
 * whose estimate (xg_op_memory, from the operation table) exceeds it
 * before any work starts: a run the machine cannot hold fails at once
 * with the figures, rather than being killed halfway or thrashing.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "exactgeo.h"
#include "xg_ctx.h"

void xg_ctx_set_memory(struct xg_ctx *ctx, uint64_t bytes)
{
    if (ctx)
        ctx->memory = bytes;
}

/* The first number after key in a file of "key value" lines, times unit;
 * 0 when absent. */
static uint64_t file_value(const char *path, const char *key, uint64_t unit)
{
    char line[256];
    uint64_t v = 0;
    size_t k = strlen(key);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, k)) {
            unsigned long long x;
            if (sscanf(line + k, " %llu", &x) == 1)
                v = (uint64_t)x * unit;
            break;
        }
    fclose(f);
    return v;
}

/* cgroup v2: the limit of this process's group less its usage
 * (memory.max says "max" when there is none): XG_MEMORY_UNCHECKED then. */
static uint64_t cgroup_room(void)
{
    uint64_t max = file_value("/sys/fs/cgroup/memory.max", "", 1),
             used = file_value("/sys/fs/cgroup/memory.current", "", 1);
    if (!max)
        return XG_MEMORY_UNCHECKED;
    return used < max ? max - used : 0;
}

/* The bytes this process can have now: the least of the kernel's
 * MemAvailable (else the free pages) and the cgroup's room;
 * XG_MEMORY_UNCHECKED when nothing tells. */
static uint64_t machine_available(void)
{
    uint64_t avail = file_value("/proc/meminfo", "MemAvailable:", 1024),
             room = cgroup_room();
#ifdef _SC_AVPHYS_PAGES
    if (!avail) {
        long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
        if (pages > 0 && size > 0)
            avail = (uint64_t)pages * (uint64_t)size;
    }
#endif
    if (!avail)
        avail = XG_MEMORY_UNCHECKED;
    return room < avail ? room : avail;
}

uint64_t xg_ctx_memory(const struct xg_ctx *ctx)
{
    if (ctx && ctx->memory)
        return ctx->memory;
    return machine_available();
}

/* "1.18 MiB (1241600 bytes)": the size to read, and the exact count. */
static void say_bytes(char *buf, size_t len, uint64_t bytes)
{
    static const char *const unit[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = (double)bytes;
    int u = -1;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        u++;
    }
    if (u < 0)
        snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
    else
        snprintf(buf, len, "%.2f %s (%llu bytes)", v, unit[u],
                 (unsigned long long)bytes);
}

/* xg__memory_check (xg_ctx.h): op's estimate, with the records
 * known before the run where op makes outside records, against the
 * room; the refusal names the elements and both figures. */
int xg__memory_check(struct xg_ctx *ctx, const struct xg_op *op, size_t na,
                     size_t nb, uint64_t records)
{
    uint64_t need, room;
    char what[200], sneed[64], sroom[64];
    int w;
    if (!op || !ctx || ctx->memory == XG_MEMORY_UNCHECKED)
        return XG_OK;
    /* the records known before the run (inside's outside points) are
     * beyond the typical density the table's bytes hold */
    if (!((op->kinds >> XG_KIND_OUTSIDE) & 1u))
        records = 0;
    need = xg_op_memory(op, na, nb) +
           records * (uint64_t)sizeof(struct xg_contact);
    room = xg_ctx_memory(ctx);
    if (need <= room)
        return XG_OK;
    if (op->ninputs == 1)
        w = snprintf(what, sizeof what, "%zu %s", na, op->in[0].elements);
    else
        w = snprintf(what, sizeof what, "%zu %s x %zu %s", na,
                     op->in[0].elements, nb, op->in[1].elements);
    if (records && w > 0 && (size_t)w < sizeof what)
        snprintf(what + w, sizeof what - (size_t)w, " and %llu records at "
                 "least", (unsigned long long)records);
    say_bytes(sneed, sizeof sneed, need);
    say_bytes(sroom, sizeof sroom, room);
    return xg__error(ctx, XG_ENOMEM,
                     "%s need about %s of memory (estimate), more than the "
                     "%s it may take (%s): refused before it started", what,
                     sneed, sroom,
                     ctx->memory ? "the limit set" : "available now");
}
