/*
 * arrow_floor.c -- the floor of the read stage: GDAL's own Arrow stream
 * (OGR_L_GetArrowStream, GDAL >= 3.6) over one layer, every batch taken
 * and released, nothing parsed.  bench/bench_e2e.sh compares the tool's
 * read stage with it.  Not part of the product; built by that script
 * with gdal-config.
 *
 *   arrow_floor FILE [LAYER]
 *
 * Options: INCLUDE_FID=YES, MAX_FEATURES_IN_BATCH=4096 (what a reader
 * of the stream would use: the default batch of 65536 is slower for
 * polygons).  Times the open too, as the tool's read stage does.
 * Prints "rows N seconds S"; exit 1 on any failure.
 */
#include <gdal.h>
#include <ogr_api.h>
#include <ogr_recordbatch.h>
#include <stdio.h>
#include <time.h>

/* now: seconds on the monotonic clock. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* main: open FILE, stream LAYER (or the first), print rows and seconds. */
int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: arrow_floor FILE [LAYER]\n");
        return 2;
    }
    GDALAllRegister();
    double t0 = now();
    GDALDatasetH ds = GDALOpenEx(argv[1], GDAL_OF_VECTOR, NULL, NULL, NULL);
    OGRLayerH lay = !ds ? NULL : argc == 3 ? GDALDatasetGetLayerByName(ds, argv[2])
                                           : GDALDatasetGetLayer(ds, 0);
    char *opts[] = {"INCLUDE_FID=YES", "MAX_FEATURES_IN_BATCH=4096", NULL};
    struct ArrowArrayStream st;
    long long rows = 0;
    if (!lay || !OGR_L_GetArrowStream(lay, &st, opts)) {
        fprintf(stderr, "arrow_floor: %s: cannot open its Arrow stream\n", argv[1]);
        return 1;
    }
    for (;;) {
        struct ArrowArray a;
        if (st.get_next(&st, &a) != 0) {
            fprintf(stderr, "arrow_floor: %s: %s\n", argv[1], st.get_last_error(&st));
            return 1;
        }
        if (!a.release)
            break;
        rows += a.length;
        a.release(&a);
    }
    st.release(&st);
    GDALClose(ds);
    printf("rows %lld seconds %.6f\n", rows, now() - t0);
    return 0;
}
