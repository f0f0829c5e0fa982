/*
 * csr_t.c -- the one CSR build (src/xg_csr.h, src/csr.c): by shares
 * and by key ranges, against a reference written here (each key's items
 * found by a pass over all items in order).  Random keys, items that go
 * to no key or to several, keys with no item, one key, no item; every
 * share count from 1 to 7 (on threads for the shares, as the engines
 * run it) gives the reference's lists, each in item order; the guards
 * of the sizes (a table past SIZE_MAX, a total past SIZE_MAX, a list
 * past 2^32 items) refuse without writing.
 */
#include <stdint.h>
#include "exactgeo.h"
#include "xg_csr.h"
#include "xg_test.h"
#include "xg_thread.h"

/* An item's keys: up to MAXK of them, ascending, none twice. */
#define MAXK 4

struct data {
    size_t n, nkey;
    int *nk;              /* per item: how many keys */
    size_t *key;          /* per item: MAXK keys */
};

/* n items over nkey keys: each goes to 0 .. maxk keys drawn at random,
 * ascending (an item may go to none, a key may get none). */
static void make_data(struct data *d, size_t n, size_t nkey, int maxk)
{
    size_t i;
    d->n = n;
    d->nkey = nkey;
    d->nk = calloc(n ? n : 1, sizeof *d->nk);
    d->key = calloc((n ? n : 1) * MAXK, sizeof *d->key);
    for (i = 0; i < n; i++) {
        int m = rng_int(maxk + 1), j, k;
        for (j = 0; j < m; j++) {
            size_t key = (size_t)rng_int((int)nkey), *v = d->key + MAXK * i;
            for (k = 0; k < d->nk[i] && v[k] != key; k++)
                ;
            if (k < d->nk[i])
                continue;           /* drawn twice: once is enough */
            for (k = d->nk[i]; k > 0 && v[k - 1] > key; k--)
                v[k] = v[k - 1];
            v[k] = key;
            d->nk[i]++;
        }
    }
}

static void free_data(struct data *d)
{
    free(d->nk);
    free(d->key);
}

/* The reference: start (nkey + 1) and items, key by key, each key's
 * items in item order.  Returns the total. */
static size_t reference(const struct data *d, size_t *start, uint32_t *items)
{
    size_t k, i, at = 0;
    int j;
    for (k = 0; k < d->nkey; k++) {
        start[k] = at;
        for (i = 0; i < d->n; i++)
            for (j = 0; j < d->nk[i]; j++)
                if (d->key[MAXK * i + j] == k)
                    items[at++] = (uint32_t)i;
    }
    start[d->nkey] = at;
    return at;
}

/* ---- by shares, on threads ---- */

struct shares_job {
    const struct data *d;
    struct xg__csr *c;
    uint32_t *items;
    int nslot, fill;
};

/* Count or fill this share's items, as the engines' workers do. */
static void shares_worker(void *arg, int tid)
{
    struct shares_job *J = arg;
    size_t lo, hi, i;
    int j;
    xg__share(J->d->n, J->nslot, tid, &lo, &hi);
    for (i = lo; i < hi; i++)
        for (j = 0; j < J->d->nk[i]; j++) {
            size_t key = J->d->key[MAXK * i + j];
            if (!J->fill)
                xg__csr_count(J->c, tid, key);
            else
                J->items[xg__csr_next(J->c, tid, key)] = (uint32_t)i;
        }
}

/* The shares' build of d on nslot threads equals the reference. */
static int shares_equal(const struct data *d, int nslot, const size_t *rs,
                        const uint32_t *ri, size_t rtotal)
{
    struct xg__csr c;
    struct shares_job J;
    size_t *start = malloc((d->nkey + 1) * sizeof *start), total = 0;
    uint32_t *items = malloc((rtotal ? rtotal : 1) * sizeof *items);
    int same = 0;
    J.d = d;
    J.c = &c;
    J.items = items;
    J.nslot = nslot;
    J.fill = 0;
    if (xg__csr_init(&c, d->nkey, nslot) == XG_OK &&
        xg__parallel(nslot, shares_worker, &J) == XG_OK &&
        xg__csr_scan(&c, start, &total) == XG_OK && total == rtotal) {
        size_t k;
        J.fill = 1;
        same = xg__parallel(nslot, shares_worker, &J) == XG_OK;
        for (k = 0; k <= d->nkey && same; k++)
            same = start[k] == rs[k];
        same = same && memcmp(items, ri, rtotal * sizeof *ri) == 0;
        /* every cursor ends where the next share's (or key's) starts */
        same = same && xg__csr_cursor(&c, nslot - 1, d->nkey - 1) == total;
    }
    xg__csr_free(&c);
    free(start);
    free(items);
    return same;
}

/* ---- by key ranges ---- */

/* The ranges' build of d with the keys cut into nrange ranges (each one
 * counted, scanned and filled alone, from all items in order) equals the
 * reference. */
static int ranges_equal(const struct data *d, int nrange, const size_t *rs,
                        const uint32_t *ri, size_t rtotal)
{
    uint32_t *count = calloc(d->nkey, sizeof *count);
    uint32_t *start = malloc((d->nkey + 1) * sizeof *start);
    uint32_t *items = malloc((rtotal ? rtotal : 1) * sizeof *items), end;
    uint64_t *total = calloc((size_t)nrange, sizeof *total);
    uint64_t *base = calloc((size_t)nrange, sizeof *base);
    size_t i, k;
    int r, j, same = 1;
    for (r = 0; r < nrange; r++) {
        size_t k0, k1;
        xg__share(d->nkey, nrange, r, &k0, &k1);
        for (i = 0; i < d->n; i++)
            for (j = 0; j < d->nk[i]; j++)
                if (d->key[MAXK * i + j] >= k0 && d->key[MAXK * i + j] < k1)
                    count[d->key[MAXK * i + j]]++;
        total[r] = xg__csr_offsets(count, k0, k1);
    }
    if (xg__csr_bases(total, (size_t)nrange, base, &end) != XG_OK ||
        end != rtotal)
        same = 0;
    for (r = 0; r < nrange && same; r++) {
        size_t k0, k1;
        xg__share(d->nkey, nrange, r, &k0, &k1);
        xg__csr_starts(count, start, k0, k1, (uint32_t)base[r]);
        for (i = 0; i < d->n; i++)
            for (j = 0; j < d->nk[i]; j++) {
                size_t key = d->key[MAXK * i + j];
                if (key >= k0 && key < k1)
                    items[count[key]++] = (uint32_t)i;
            }
    }
    start[d->nkey] = end;
    for (k = 0; k <= d->nkey && same; k++)
        same = start[k] == rs[k];
    same = same && memcmp(items, ri, rtotal * sizeof *ri) == 0;
    free(count);
    free(start);
    free(items);
    free(total);
    free(base);
    return same;
}

/* The sequential form (xg__csr_scan32), and in place: count and start
 * one array (a build whose fill needs no cursors). */
static int scan32_equal(const struct data *d, const size_t *rs, size_t rtotal)
{
    uint32_t *count = calloc(d->nkey + 1, sizeof *count);
    uint32_t *start = malloc((d->nkey + 1) * sizeof *start);
    uint32_t *both = malloc((d->nkey + 1) * sizeof *both);
    size_t i, k;
    int j, same;
    for (i = 0; i < d->n; i++)
        for (j = 0; j < d->nk[i]; j++)
            count[d->key[MAXK * i + j]]++;
    memcpy(both, count, (d->nkey + 1) * sizeof *both);
    same = xg__csr_scan32(count, start, d->nkey) == XG_OK &&
           xg__csr_scan32(both, both, d->nkey) == XG_OK;
    for (k = 0; k <= d->nkey && same; k++)
        same = start[k] == rs[k] && both[k] == rs[k] &&
               (k == d->nkey || count[k] == rs[k]);
    same = same && start[d->nkey] == rtotal;
    free(count);
    free(start);
    free(both);
    return same;
}

/* One data set through every form and share count. */
static void check_set(const char *what, size_t n, size_t nkey, int maxk)
{
    struct data d;
    size_t *rs = malloc((nkey + 1) * sizeof *rs), rtotal;
    uint32_t *ri = malloc((n * MAXK + 1) * sizeof *ri);
    int t, sh = 1, rg = 1;
    make_data(&d, n, nkey, maxk);
    rtotal = reference(&d, rs, ri);
    for (t = 1; t <= 7; t++) {
        sh = sh && shares_equal(&d, t, rs, ri, rtotal);
        rg = rg && ranges_equal(&d, t, rs, ri, rtotal);
    }
    ok(sh, "%s: by shares on 1 to 7 threads, each key's items in order",
       what);
    ok(rg, "%s: by 1 to 7 key ranges, the same lists", what);
    ok(scan32_equal(&d, rs, rtotal), "%s: the sequential scan, the same "
       "starts (also in place)", what);
    free_data(&d);
    free(rs);
    free(ri);
}

/* The sizes' guards. */
static void check_guards(void)
{
    struct xg__csr c;
    uint64_t total[3], base[3];
    uint32_t end = 7, count[3], start[4] = {9, 9, 9, 9};
    size_t sum = 5;

    ok(xg__csr_init(&c, SIZE_MAX / 4, 8) == XG_ENOMEM && c.at == NULL,
       "init: a table past SIZE_MAX is refused, nothing allocated");
    xg__csr_free(&c);
    ok(xg__csr_init(&c, 0, 1) == XG_ENOMEM &&
           xg__csr_init(&c, 1, 0) == XG_ENOMEM,
       "init: no key or no share is refused");
    xg__csr_free(&c);
    xg__csr_free(NULL);

    if (xg__csr_init(&c, 2, 1) == XG_OK) {
        size_t st[3] = {9, 9, 9};
        xg__csr_add(&c, 0, 0, SIZE_MAX);
        xg__csr_count(&c, 0, 1);
        ok(xg__csr_scan(&c, st, &sum) == XG_ELIMIT && sum == 5,
           "scan: a total past SIZE_MAX is refused, the total untouched");
    } else {
        ok(0, "scan: init failed");
    }
    xg__csr_free(&c);

    total[0] = UINT32_MAX - 5;
    total[1] = 5;
    total[2] = 0;
    ok(xg__csr_bases(total, 3, base, &end) == XG_OK && end == UINT32_MAX &&
           base[0] == 0 && base[1] == UINT32_MAX - 5 &&
           base[2] == UINT32_MAX,
       "bases: exactly 2^32 - 1 items fit");
    total[2] = 1;
    end = 7;
    ok(xg__csr_bases(total, 3, base, &end) == XG_ELIMIT && end == 7,
       "bases: one more is refused, the end untouched");
    total[0] = (uint64_t)UINT32_MAX + 1;
    ok(xg__csr_bases(total, 1, base, &end) == XG_ELIMIT,
       "bases: one range past 2^32 is refused");

    count[0] = UINT32_MAX;
    count[1] = 0;
    count[2] = 1;
    ok(xg__csr_scan32(count, start, 3) == XG_ELIMIT && start[3] == 9,
       "scan32: a list past 2^32 - 1 items is refused");
    count[0] = UINT32_MAX - 1;
    count[1] = 0;
    count[2] = 1;
    ok(xg__csr_scan32(count, start, 3) == XG_OK && start[0] == 0 &&
           start[1] == UINT32_MAX - 1 && start[2] == UINT32_MAX - 1 &&
           start[3] == UINT32_MAX && count[2] == UINT32_MAX - 1,
       "scan32: 2^32 - 1 items fit, the cursors at the starts");
}

int main(void)
{
    rng_seed_from_env(0xc5a11);
    check_set("random keys", 5000, 37, 2);
    check_set("items of several keys", 3000, 11, MAXK);
    check_set("keys with no item (more keys than items)", 40, 500, 1);
    check_set("one key", 2000, 1, 1);
    check_set("no item", 0, 9, 1);
    check_set("one item", 1, 3, MAXK);
    check_set("fewer items than threads", 5, 4, 3);
    check_guards();
    tap_done();
    return tap_exit();
}
