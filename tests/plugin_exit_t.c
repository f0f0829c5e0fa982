/*
 * plugin_exit_t.c -- the EXACTGEO plugin survives GDALDestroyDriverManager
 * with its datasets still open, as QGIS leaves them at exit (issue 11,
 * item 5: "corrupted size vs. prev_size").  GDAL then closes every open
 * dataset itself, in its own order; a dataset that owned another one on
 * GDAL's list (the run's MEM dataset) was closed twice.
 *
 * The sequence runs in a child process (this program with --child), so
 * that a crash is a failed test, not a dead runner: register the drivers
 * with the plugin on GDAL_DRIVER_PATH, open EXACTGEO:..., read a feature,
 * do not close, GDALDestroyDriverManager().  Each case runs plain (glibc
 * or ASan, when built with it, catch the double free) and, where valgrind
 * is installed, under valgrind --error-exitcode=1, which also catches the
 * reads of freed memory that glibc lets pass.  TAP.
 */
#define _XOPEN_SOURCE 700     /* realpath */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gdal.h>
#include <ogr_api.h>
#include "tap.h"

/* The child: opens name `count` times (shared results: see
 * xgo_result.h), reads a feature from each, closes none.  Exit 0 when
 * every open and read worked, 3 otherwise. */
static int child(const char *name, int count, int update)
{
    int i, bad = 0;
    GDALAllRegister();
    for (i = 0; i < count; i++) {
        GDALDatasetH ds = GDALOpenEx(name, GDAL_OF_VECTOR |
                                               (update ? GDAL_OF_UPDATE : 0),
                                     NULL, NULL, NULL);
        OGRLayerH lyr = ds ? GDALDatasetGetLayer(ds, 0) : NULL;
        OGRFeatureH f = lyr ? OGR_L_GetNextFeature(lyr) : NULL;
        if (!f) {
            fprintf(stderr, "open or read %d failed\n", i);
            bad = 1;
        }
        OGR_F_Destroy(f);
    }
    GDALDestroyDriverManager();
    return bad ? 3 : 0;
}

/* Runs this program as the child (under valgrind when vg), its stderr to
 * log; returns the wait status, or -1. */
static int run_child(const char *self, int vg, const char *name,
                     const char *count, const char *update, const char *log)
{
    pid_t pid;
    int status;
    fflush(stdout);
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        FILE *e = freopen(log, "w", stderr);
        if (!e)
            _exit(126);
        if (vg)
            execlp("valgrind", "valgrind", "-q", "--error-exitcode=1",
                   "--exit-on-first-error=no", self, "--child", name, count,
                   update, (char *)NULL);
        else
            execl(self, self, "--child", name, count, update, (char *)NULL);
        _exit(127);
    }
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return status;
}

/* The case passed: exit status 0; else its log, as TAP comments. */
static int clean_exit(int status, const char *log)
{
    char line[512];
    FILE *f;
    int n = 0;
    if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 1;
    if (status >= 0 && WIFSIGNALED(status))
        printf("# killed by signal %d\n", WTERMSIG(status));
    else if (status >= 0)
        printf("# exit status %d\n", WEXITSTATUS(status));
    f = fopen(log, "r");
    while (f && n++ < 12 && fgets(line, sizeof line, f))
        printf("# %s", line);
    if (f)
        fclose(f);
    return 0;
}

/* valgrind, unless ASan is in this program or preloaded: they do not
 * mix (ASan then checks the plain runs). */
static int have_valgrind(void)
{
    const char *pre = getenv("LD_PRELOAD");
#if defined(__SANITIZE_ADDRESS__)
    return 0;
#endif
    if (pre && strstr(pre, "asan"))
        return 0;
    return system("valgrind --version > /dev/null 2>&1") == 0;
}

/* snprintf that bails out of the test on truncation. */
#define FMT(buf, ...)                                                      \
    do {                                                                   \
        int n_ = snprintf(buf, sizeof buf, __VA_ARGS__);                   \
        if (n_ < 0 || (size_t)n_ >= sizeof buf) {                          \
            printf("Bail out! path too long\n");                           \
            return 1;                                                      \
        }                                                                  \
    } while (0)

int main(int argc, char **argv)
{
    static const char *const what[] = {
        "a connection string", "a .xgjob file opened for update",
        "two datasets on one connection string"};
    static const char *const count[] = {"1", "1", "2"};
    static const char *const update[] = {"0", "1", "0"};
    const char *src = getenv("top_srcdir"), *bld = getenv("top_builddir");
    const char *ldp = getenv("LD_LIBRARY_PATH");
    char self[4096], rsrc[4096], rbld[4096], drv[4200], lib[8400];
    char conn[8400], dir[] = "/tmp/plugin_exit_tXXXXXX", job[64], log[64];
    struct stat sb;
    ssize_t len;
    int vg, i;
    FILE *f;

    if (argc == 5 && strcmp(argv[1], "--child") == 0)
        return child(argv[2], atoi(argv[3]), atoi(argv[4]));
    (void)tap_plan;

    if (!realpath(src ? src : ".", rsrc) || !realpath(bld ? bld : ".", rbld)) {
        printf("Bail out! cannot resolve top_srcdir or top_builddir\n");
        return 1;
    }
    FMT(drv, "%s/ogr_driver/.libs", rbld);
    FMT(lib, "%s/ogr_EXACTGEO.so", drv);
    if (stat(lib, &sb) != 0)
        tap_skip_all("no plugin build");
    len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        tap_skip_all("no /proc/self/exe");
    self[len] = '\0';
    /* The plugin from the build folder, and the library it links; the
     * child reads both at its start. */
    FMT(lib, "%s/src/.libs%s%s", rbld, ldp ? ":" : "", ldp ? ldp : "");
    setenv("GDAL_DRIVER_PATH", drv, 1);
    setenv("LD_LIBRARY_PATH", lib, 1);
    FMT(conn, "EXACTGEO:op=segtri;a=%s/data/drillholes.gpkg;"
        "b=%s/data/orebodies.gpkg;acopy=hole_id", rsrc, rsrc);
    if (!mkdtemp(dir)) {
        printf("Bail out! mkdtemp\n");
        return 1;
    }
    FMT(job, "%s/run.xgjob", dir);
    FMT(log, "%s/child.log", dir);
    f = fopen(job, "w");
    if (!f || fprintf(f, "#exactgeo-job 1\nop = segtri\na = %s/data/"
                         "drillholes.gpkg\nb = %s/data/orebodies.gpkg\n",
                      rsrc, rsrc) < 0 || fclose(f)) {
        printf("Bail out! cannot write %s\n", job);
        return 1;
    }

    /* Cases: a connection string; a job file opened for update (as QGIS
     * does); two datasets on one job (sharing one result).  Each plain,
     * then under valgrind. */
    vg = have_valgrind();
    for (i = 0; i < 2 * 3; i++) {
        int c = i / 2, under_vg = i % 2;
        if (under_vg && !vg) {
            printf("ok %d # SKIP valgrind not installed\n", ++tap_n);
            continue;
        }
        ok(clean_exit(run_child(self, under_vg, c == 1 ? job : conn,
                                count[c], update[c], log), log),
           "%s left open, then GDALDestroyDriverManager(): clean exit%s",
           what[c], under_vg ? " under valgrind (no invalid read or free)"
                             : "");
    }
    unlink(log);
    unlink(job);
    rmdir(dir);
    tap_done();
    return tap_exit();
}
