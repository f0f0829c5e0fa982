/*
 * boxes_t.c -- xg_boxes.h, the rules the CPU and GPU engines share for
 * which pairs get evaluated (boxes, cells, the ownership rule), and the
 * GPU's triangle screen xg_tri_proper_iv: checked on the host, where
 * they are the very code the kernels compile.
 */
#include <math.h>
#include <string.h>
#include "op/segtri/xg_segtri.h"
#include "xg_boxes.h"
#include "xg_filter_segtri.h"
#include "xg_test.h"

/* A random grid frame over [lo, lo + ext) with up to 9 cells per axis. */
struct frame {
    int n[3];
    double lo[3], hi[3], inv[3];
};

static void random_frame(struct frame *f)
{
    int k;
    for (k = 0; k < 3; k++) {
        double ext = rng_range(0.5, 50.0);
        f->n[k] = 1 + rng_int(9);
        f->lo[k] = rng_utm();
        f->hi[k] = f->lo[k] + ext;
        f->inv[k] = (double)f->n[k] / (f->hi[k] - f->lo[k]);
    }
}

/* A box around the frame, reaching past it now and then. */
static void random_box(const struct frame *f, double *b)
{
    int k;
    for (k = 0; k < 3; k++) {
        double ext = f->hi[k] - f->lo[k];
        double x = f->lo[k] + rng_range(-0.2, 1.2) * ext;
        double y = x + rng_range(0.0, 0.3) * ext;
        if (rng_int(8) == 0)
            y = x;                  /* flat */
        b[k] = x;
        b[3 + k] = y;
    }
}

static void test_owner(void)
{
    size_t trials = 0, owned = 0, bad_corner = 0, bad_shared = 0;
    int t;
    for (t = 0; t < 200000; t++) {
        struct frame f;
        double p[6], q[6], corner[3];
        int32_t cp[6], cq[6];
        uint32_t own;
        int k, in, cc[3];
        random_frame(&f);
        random_box(&f, p);
        /* q meeting p on every axis. */
        for (k = 0; k < 3; k++) {
            double ext = f.hi[k] - f.lo[k], from;
            q[k] = rng_range(p[k] - 0.2 * ext, p[3 + k]);
            from = q[k] > p[k] ? q[k] : p[k];
            q[3 + k] = from + rng_range(0.0, 0.3) * ext;
        }
        if (!xg__boxes_meet(p, q) ||
            !xg__box_cells(f.n, f.lo, f.hi, f.inv, p, cp) ||
            !xg__box_cells(f.n, f.lo, f.hi, f.inv, q, cq))
            continue;
        trials++;
        own = xg__owner(f.n, cp, cq);
        /* The cell of the lowest corner of the boxes' intersection. */
        for (k = 0; k < 3; k++) {
            corner[k] = p[k] > q[k] ? p[k] : q[k];
            cc[k] = xg__cell_of(f.n, f.lo, f.inv, k, corner[k]);
        }
        bad_corner += own != xg__cell_index(f.n, cc[0], cc[1], cc[2]);
        /* ... which both elements' ranges hold. */
        in = 1;
        for (k = 0; k < 3; k++) {
            uint32_t c = own;
            if (k > 0)
                c /= (uint32_t)f.n[0];
            if (k > 1)
                c /= (uint32_t)f.n[1];
            c %= (uint32_t)f.n[k];
            in &= cp[k] <= (int32_t)c && (int32_t)c <= cp[3 + k] &&
                  cq[k] <= (int32_t)c && (int32_t)c <= cq[3 + k];
        }
        bad_shared += !in;
        owned++;
    }
    ok(trials > 50000 && bad_corner == 0 && bad_shared == 0,
       "ownership: the owner is the cell of the lowest corner of the boxes' "
       "intersection and lies in both cell ranges (%zu pairs; %zu, %zu "
       "wrong)", owned, bad_corner, bad_shared);
}

static void test_cells(void)
{
    size_t bad = 0, outside = 0, t;
    for (t = 0; t < 100000; t++) {
        struct frame f;
        double b[6];
        int32_t c[6];
        int k, in, miss = 0;
        random_frame(&f);
        random_box(&f, b);
        if (rng_int(16) == 0)
            xg__box_none(b);
        for (k = 0; k < 3; k++)
            miss |= b[3 + k] < f.lo[k] || b[k] > f.hi[k];
        in = xg__box_cells(f.n, f.lo, f.hi, f.inv, b, c);
        if (xg__box_is_none(b) || miss) {
            outside++;
            bad += in || c[0] <= c[3];
            continue;
        }
        for (k = 0; k < 3; k++)
            bad += !in || c[k] < 0 || c[k] > c[3 + k] || c[3 + k] >= f.n[k];
    }
    ok(bad == 0 && outside > 1000,
       "cell ranges: inside the grid and ordered, empty for no box or a box "
       "outside the region (%zu of them)", outside);
    {
        /* The largest grid xg__grid_frame accepts: 2^31 cells. */
        const int n[3] = {2048, 2048, 512};
        ok(xg__cell_index(n, 2047, 2047, 511) == 0x7fffffffu &&
               xg__cell_index(n, 1, 2, 3) == (3u * 2048 + 2) * 2048 + 1,
           "cell numbers: z-major, 32 bits for the largest grid");
    }
}

static void test_boxes(void)
{
    size_t bad = 0, t;
    for (t = 0; t < 100000; t++) {
        double s[6], tr[9], bs[6], b2[6], bt[6];
        int k, i;
        for (k = 0; k < 6; k++)
            s[k] = rng_utm() + rng_int(4) * 0.5;
        for (k = 0; k < 9; k++)
            tr[k] = rng_utm() + rng_int(4) * 0.5;
        xg__seg_box(s, bs);
        xg__seg2_box(s, b2);
        xg__tri_box(tr, bt);
        for (k = 0; k < 3; k++) {
            bad += bs[k] != fmin(s[k], s[3 + k]) ||
                   bs[3 + k] != fmax(s[k], s[3 + k]);
            bad += bt[k] != fmin(fmin(tr[k], tr[3 + k]), tr[6 + k]) ||
                   bt[3 + k] != fmax(fmax(tr[k], tr[3 + k]), tr[6 + k]);
            if (k < 2)
                bad += b2[k] != bs[k] || b2[3 + k] != bs[3 + k];
        }
        bad += b2[2] != 0.0 || b2[5] != 0.0;
        /* Degenerate: zero length, in 3D or in x, y. */
        for (i = 0; i < 3; i++)
            s[3 + i] = s[i];
        bad += !xg__seg_is_degenerate(s) || !xg__seg2_is_degenerate(s);
        s[5] += 1.0;
        bad += xg__seg_is_degenerate(s) || !xg__seg2_is_degenerate(s);
    }
    ok(bad == 0, "boxes: exact minima and maxima of the points; zero-length "
                 "segments in 3D and in x, y");
}

/* The GPU keeps a triangle's box when the filter certifies it is not
 * degenerate, and asks the host otherwise: a certificate must never be
 * wrong, and collinear triangles must be asked about. */
static void test_tri_screen(void)
{
    size_t wrong = 0, certified = 0, collinear = 0, asked = 0, t;
    for (t = 0; t < 100000; t++) {
        double tr[9];
        int k, deg, sure;
        for (k = 0; k < 3; k++) {
            tr[k] = rng_utm();
            tr[3 + k] = tr[k] + rng_range(-2.0, 2.0);
        }
        if (rng_int(2)) {
            /* C on the line AB, exactly (a multiple of 1/2 along it). */
            int m = rng_int(5) - 2;
            for (k = 0; k < 3; k++) {
                tr[3 + k] = tr[k] + rng_int(5) * 0.25;
                tr[6 + k] = tr[k] + (tr[3 + k] - tr[k]) * m * 0.5;
            }
        } else {
            for (k = 0; k < 3; k++)
                tr[6 + k] = tr[k] + rng_range(-2.0, 2.0) * 1e-9;
        }
        deg = xg__tri_is_degenerate(NULL, tr);
        sure = xg_tri_proper_iv(tr);
        wrong += sure && deg;
        certified += sure;
        collinear += deg;
        asked += deg && !sure;
    }
    ok(wrong == 0 && collinear > 1000 && asked == collinear &&
           certified > 1000,
       "triangle screen: %zu certified proper, none degenerate; all %zu "
       "collinear ones left to the exact test", certified, collinear);
}

int main(void)
{
    rng_seed_from_env(0x626f786573);
    test_owner();
    test_cells();
    test_boxes();
    test_tri_screen();
    tap_done();
    return tap_exit();
}
