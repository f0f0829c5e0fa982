/*
 * tap.h -- the Test Anything Protocol for the C tests: a plan, ok(), and
 * a skip.  Header-only so each test is one small C file.
 */
#ifndef XG_TAP_H
#define XG_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_n, tap_failed;

static inline void tap_plan(int n) { printf("1..%d\n", n); }

/* No plan known in advance: call tap_done() at the end. */
static inline void tap_done(void)
{
    printf("1..%d\n", tap_n);
    fflush(stdout);
}

static inline void tap_skip_all(const char *why)
{
    printf("1..0 # SKIP %s\n", why);
    exit(0);
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static inline int ok(int cond, const char *fmt, ...)
{
    va_list ap;
    tap_n++;
    if (!cond)
        tap_failed++;
    printf("%s %d - ", cond ? "ok" : "not ok", tap_n);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    return cond;
}

static inline int tap_exit(void) { return tap_failed ? 1 : 0; }

#endif
