/*
 * dt_emul.cpp -- the GPU Delaunay engine's steps (cuda/op/delaunay/delaunay_core.cuh,
 * delaunay_run.cuh) run on the host, each kernel a loop: a check of
 * the method on a machine without a GPU.  Not built by make; by hand:
 *
 *   g++ -O1 -g -ffp-contract=off -DXG_DT_EMUL -Isrc -Icuda \
 *       tests/dt_emul.cpp src/.libs/libexactgeo_core.a -lgmp -lm
 *
 * Every triangle is checked against every point with the exact perturbed
 * in-circle test (so the triangulation is the unique one), and the count
 * against Euler's.
 */
#define XG_DT_EMUL 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <algorithm>
#include <vector>
#include <gmp.h>
extern "C" {
#include "op/delaunay/xg_delaunay.h"
}
#include "op/delaunay/delaunay_core.cuh"

struct dt_env {
    struct dt_d d;
    struct xg_ctx *ctx;
    struct xg_counters *cnt;
    struct dt_q *hq;
    uint32_t ctr[DT_C_COUNT];
    uint64_t questions, rounds, flip_rounds;
    double t_loc, t_flip;
};
#define DT_LAUNCH_DYN(E, f, num, ci)                                      \
    do {                                                                  \
        uint32_t n_ = (num), i_;                                          \
        int c_ = (ci);                                                    \
        (E)->d.n = n_;                                                    \
        (E)->d.dyn = c_;                                                  \
        if (c_ >= 0 && (E)->d.cnt[c_] < n_)                               \
            n_ = (E)->d.cnt[c_];                                          \
        for (i_ = 0; i_ < n_; i_++)                                       \
            f(&(E)->d, i_);                                               \
    } while (0)
#define DT_LAUNCH(E, f, num) DT_LAUNCH_DYN(E, f, num, -1)
static int dt_h2d(struct dt_env *, void *d, const void *h, size_t b)
{
    memcpy(d, h, b);
    return XG_OK;
}
static int dt_d2h(struct dt_env *, void *h, const void *d, size_t b)
{
    memcpy(h, d, b);
    return XG_OK;
}
static void emul_check(struct dt_env *E, const char *what)
{
    uint32_t nt = E->d.cnt[DT_C_NTRI], t;
    int s, bad = 0;
    for (t = 0; t < nt && bad < 5; t++) {
        const uint32_t *v = E->d.tv + 3 * t;
        if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) {
            printf("%s cur %u: t%u repeats %d %d %d\n", what, E->d.cur, t,
                   (int)v[0], (int)v[1], (int)v[2]);
            bad++;
        }
        for (s = 0; s < 3; s++) {
            uint32_t r = E->d.ta[3 * t + s], u = r >> 2, j = r & 3;
            if (u >= nt || E->d.ta[3 * u + j] != 4 * t + (uint32_t)s ||
                E->d.tv[3 * u + (j + 1) % 3] != v[(s + 2) % 3] ||
                E->d.tv[3 * u + (j + 2) % 3] != v[(s + 1) % 3]) {
                printf("%s cur %u: t%u slot %d -> %u.%u bad\n", what,
                       E->d.cur, t, s, u, j);
                bad++;
                break;
            }
        }
    }
    if (bad)
        exit(3);
}
#define DT_EMUL_CHECK emul_check
#include "op/delaunay/delaunay_run.cuh"

static int lexcmp(const void *x, const void *y)
{
    const double *a = (const double *)x, *b = (const double *)y;
    if (a[0] != b[0])
        return a[0] < b[0] ? -1 : 1;
    if (a[1] != b[1])
        return a[1] < b[1] ? -1 : 1;
    return 0;
}

/* Runs the engine on the points (deduplicated here), checks; returns
 * failures. */
static int run(const char *name, std::vector<double> xy, int check)
{
    size_t n = xy.size() / 2, m = 0, i;
    struct dt_env E;
    struct xg_counters cnt;
    int rc, bad = 0;
    qsort(xy.data(), n, 2 * sizeof(double), lexcmp);
    for (i = 0; i < n; i++)
        if (!m || lexcmp(&xy[2 * i], &xy[2 * (m - 1)]) != 0) {
            xy[2 * m] = xy[2 * i];
            xy[2 * m + 1] = xy[2 * i + 1];
            m++;
        }
    memset(&E, 0, sizeof E);
    memset(&cnt, 0, sizeof cnt);
    E.cnt = &cnt;
    E.d.xy = xy.data();
    E.d.m = (uint32_t)m;
    E.d.cap = (uint32_t)(2 * m + 8);
    E.d.qcap = 64;
    std::vector<uint32_t> tv(3 * E.d.cap), ta(3 * E.d.cap),
        stamp(E.d.cap), amark(E.d.cap), newloc(3 * E.d.cap), act(E.d.cap),
        act2(E.d.cap), cand(3 * E.d.cap), loc(m), pend(m), pend2(m),
        cntv(DT_C_COUNT), l2g(m), outt(3 * E.d.cap);
    std::vector<unsigned long long> claim(E.d.cap, ~0ull);
    std::vector<uint8_t> kind(m), hring(m);
    std::vector<uint64_t> hkey(DT_HINTS * m);
    std::vector<int8_t> hsign(DT_HINTS * m);
    std::vector<struct dt_q> q(E.d.qcap), hq(E.d.qcap);
    E.d.tv = tv.data(); E.d.ta = ta.data(); E.d.claim = claim.data();
    E.d.stamp = stamp.data(); E.d.amark = amark.data();
    E.d.newloc = newloc.data(); E.d.act = act.data();
    E.d.act_next = act2.data(); E.d.cand = cand.data();
    E.d.loc = loc.data(); E.d.kind = kind.data(); E.d.hkey = hkey.data();
    E.d.hsign = hsign.data(); E.d.hring = hring.data();
    E.d.pend = pend.data(); E.d.pend_next = pend2.data();
    E.d.q = q.data(); E.d.cnt = cntv.data(); E.hq = hq.data();
    for (i = 0; i < m; i++)
        l2g[i] = (uint32_t)i;
    E.d.l2g = l2g.data();
    E.d.outt = outt.data();

    std::vector<uint32_t> all(m), h(m + 1);
    {
        static const double dir[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1},
                                         {-1, 0}, {-1, -1}, {0, -1},
                                         {1, -1}};
        for (int r = 0; r < 8; r++) {
            size_t best = 0;
            for (i = 1; i < m; i++)
                if (dir[r][0] * xy[2 * i] + dir[r][1] * xy[2 * i + 1] <
                    dir[r][0] * xy[2 * best] + dir[r][1] * xy[2 * best + 1])
                    best = i;
            E.d.poly[2 * r] = xy[2 * best];
            E.d.poly[2 * r + 1] = xy[2 * best + 1];
        }
        E.d.npoly = 8;
        dt_poly_dedup(&E.d);
        dt_set_ctr(&E, DT_C_NPEND, 0);
        DT_LAUNCH(&E, dt_hullcand, (uint32_t)m);
        dt_get_ctr(&E);
        all.assign(pend2.begin(), pend2.begin() + E.ctr[DT_C_NPEND]);
        std::sort(all.begin(), all.end());
    }
    std::vector<double> cxy(2 * all.size() + 2);
    std::copy(all.begin(), all.end(), pend2.begin());
    E.d.cxy = cxy.data();
    DT_LAUNCH(&E, dt_gather, (uint32_t)all.size());
    uint32_t k = dt_hull(&cnt, cxy.data(), all.data(), (uint32_t)all.size(),
                         h.data());
    uint32_t npend = 0;
    if (k < 3) {
        printf("%s: degenerate\n", name);
        return 1;
    }
    rc = dt_start(&E, h.data(), k, &npend);
    if (getenv("DT_DEBUG")) {
        dt_get_ctr(&E);
        for (uint32_t t = 0; t < E.ctr[DT_C_NTRI]; t++) {
            printf("t%u: %d %d %d | %u.%u %u.%u %u.%u\n", t, (int)tv[3*t], (int)tv[3*t+1], (int)tv[3*t+2],
                   ta[3*t]>>2, ta[3*t]&3, ta[3*t+1]>>2, ta[3*t+1]&3, ta[3*t+2]>>2, ta[3*t+2]&3);
        }
        printf("flips %u rc %d\n", E.ctr[DT_C_FLIPS], rc);
    }
    if (rc == XG_OK)
        rc = dt_rounds(&E, npend, NULL);
    if (rc != XG_OK) {
        printf("not ok %s: rc %d err %u\n", name, rc, E.ctr[DT_C_ERR]);
        return 1;
    }
    dt_get_ctr(&E);
    uint32_t ntri = E.ctr[DT_C_NTRI];
    dt_set_ctr(&E, DT_C_NPEND, 0);
    DT_LAUNCH(&E, dt_collect, ntri);
    dt_get_ctr(&E);
    uint32_t nreal = E.ctr[DT_C_NPEND];
    /* hull points on the boundary: corners + collinear */
    size_t hb = 0;
    for (i = 0; i < m; i++) {
        uint32_t j;
        for (j = 0; j < k; j++) {
            const double *a = &xy[2 * h[j]], *b = &xy[2 * h[(j + 1) % k]];
            if (xg_orient2d(NULL, a, b, &xy[2 * i]) == 0) {
                hb++;
                break;
            }
        }
    }
    if (nreal != 2 * m - hb - 2) {
        printf("  count %u, want %zu\n", nreal, 2 * m - hb - 2);
        bad++;
    }
    if (check) {
        for (uint32_t t = 0; t < nreal; t++) {
            const double *a = &xy[2 * outt[3 * t]], *b = &xy[2 * outt[3 * t + 1]],
                         *c = &xy[2 * outt[3 * t + 2]];
            if (xg_orient2d(NULL, a, b, c) <= 0) {
                bad++;
                continue;
            }
            for (i = 0; i < m; i++) {
                if (i == outt[3 * t] || i == outt[3 * t + 1] ||
                    i == outt[3 * t + 2])
                    continue;
                if (dt_incircle_host(NULL, a, b, c, &xy[2 * i]) != XG_NEG) {
                    bad++;
                    break;
                }
            }
        }
        /* adjacency consistent */
        for (uint32_t t = 0; t < ntri; t++)
            for (int s = 0; s < 3; s++) {
                uint32_t r = ta[3 * t + s], u = r >> 2, j = r & 3;
                if (u >= ntri || ta[3 * u + j] != 4 * t + (uint32_t)s) {
                    bad++;
                    break;
                }
            }
    }
    printf("%s %s: cand %zu m %zu tri %u hull %u/%zu rounds %llu flip rounds %llu "
           "host questions %llu flips %u\n",
           bad ? "not ok" : "ok", name, all.size(), m, nreal, k, hb,
           (unsigned long long)E.rounds, (unsigned long long)E.flip_rounds,
           (unsigned long long)E.questions, E.ctr[DT_C_FLIPS]);
    return bad != 0;
}

static double urand(void) { return rand() / (RAND_MAX + 1.0); }

int main(int argc, char **argv)
{
    int fail = 0, i, j;
    int big = argc > 1 ? atoi(argv[1]) : 0;
    srand(7);
    {
        std::vector<double> p;
        for (i = 0; i < 2000; i++) {
            p.push_back(urand());
            p.push_back(urand());
        }
        fail += run("random 2000", p, 1);
    }
    {
        std::vector<double> p;
        for (i = 0; i < 30; i++)
            for (j = 0; j < 30; j++) {
                p.push_back(i);
                p.push_back(j);
            }
        fail += run("lattice 30x30", p, 1);
    }
    {
        std::vector<double> p;
        for (i = 0; i < 300; i++) {
            double a = 2 * M_PI * i / 300;
            p.push_back(cos(a));
            p.push_back(sin(a));
        }
        p.push_back(0.0); p.push_back(0.0);
        p.push_back(0.1); p.push_back(0.2);
        fail += run("circle 300", p, 1);
    }
    {
        std::vector<double> p;
        for (i = 0; i <= 50; i++) {
            p.push_back(i); p.push_back(0);
            p.push_back(i); p.push_back(50);
            p.push_back(0); p.push_back(i);
            p.push_back(50); p.push_back(i);
            p.push_back(i * 0.37 + 3); p.push_back(i * 0.77 + 2);
            p.push_back(i); p.push_back(i * 0.5);
        }
        fail += run("square edges", p, 1);
    }
    {
        std::vector<double> p;
        for (i = 0; i < 1500; i++) {
            p.push_back(500000.25 + floor(urand() * 64) * 0.125);
            p.push_back(7000000.5 + floor(urand() * 64) * 0.125);
        }
        fail += run("utm grid dups", p, 1);
        p.clear();
        for (i = 0; i < 1500; i++) {
            p.push_back(500000.25 + urand() * 1000);
            p.push_back(7000000.5 + urand() * 1000);
        }
        fail += run("utm random", p, 1);
    }
    if (big) {
        std::vector<double> p;
        for (i = 0; i < big; i++) {
            p.push_back(urand());
            p.push_back(urand());
        }
        fail += run("random big", p, 0);
    }
    printf("%d failures\n", fail);
    return fail != 0;
}
