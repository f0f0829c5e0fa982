/*
 * header_t.c -- the public header on its own, from plain C: compiled
 * with -std=c89 -pedantic -Werror (tests/local.mk), exactgeo.h first and
 * alone, so it must be self-contained and use nothing newer than C89
 * plus <stdint.h>.  (PROJ's include_proj_h_from_c.c does the same.)
 * At run time: the result-code table and the name tables agree.
 * Prints TAP by hand: tests/tap.h uses C99 inline.
 */
#include "exactgeo.h"
#include <stdio.h>
#include <string.h>

static int n, failed;

static void check(int cond, const char *what)
{
    n++;
    if (!cond)
        failed++;
    printf("%s %d - %s\n", cond ? "ok" : "not ok", n, what);
}

int main(void)
{
    struct xg_ctx *ctx = xg_ctx_new();
    struct xg_set s = {0};
    struct xg_contacts c = {0};
    int i, j, distinct = 1, named = 1;

    for (i = 0; i < XG_RESULT_COUNT; i++) {
        named &= strcmp(xg_strerror(i), "unknown result code") != 0;
        for (j = 0; j < i; j++)
            distinct &= strcmp(xg_strerror(i), xg_strerror(j)) != 0;
    }
    check(named && distinct,
          "every result code has its own message (one X-macro table)");
    check(strcmp(xg_strerror(XG_OK), "success") == 0 && XG_OK == 0 &&
              strcmp(xg_strerror(XG_RESULT_COUNT), "unknown result code") == 0,
          "XG_OK is 0 and codes past the table are unknown");
    check(xg_engine_parse("seq") == XG_ENGINE_SEQ &&
              xg_engine_parse("cpu") == XG_ENGINE_CPU &&
              xg_engine_parse("gpu") == XG_ENGINE_GPU &&
              xg_engine_parse("auto") == XG_ENGINE_AUTO &&
              xg_engine_parse("fast") == -1 &&
              strcmp(xg_engine_name(XG_ENGINE_CPU), "cpu") == 0,
          "engine names parse back");
    check(strcmp(xg_kind_name(XG_KIND_OVERLAP, 3), "coplanar") == 0 &&
              strcmp(xg_kind_name(XG_KIND_OVERLAP, 2), "overlap") == 0 &&
              strcmp(xg_kind_name(XG_KIND_PROPER, 3), "proper") == 0,
          "kind names depend on the dimension");
    check(ctx != NULL && xg_ctx_set_threads(ctx, 3) == XG_OK &&
              xg_ctx_threads(ctx) == 3 &&
              xg_ctx_set_threads(ctx, -1) == XG_EINVAL &&
              strlen(xg_ctx_errmsg(ctx)) > 0,
          "context: threads set, bad count refused with a message");
    xg_set_free(&s);
    xg_set_free(NULL);
    xg_contacts_free(&c);
    xg_contacts_free(NULL);
    {
        struct xg_triangles t = {0};
        xg_triangles_free(&t);
        xg_triangles_free(NULL);
    }
    xg_ctx_free(ctx);
    xg_ctx_free(NULL);
    check(1, "every *_free accepts NULL and zeroed structs");
    printf("1..%d\n", n);
    return failed ? 1 : 0;
}
