/*
 * interrupt.c -- see interrupt.h.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "interrupt.h"

static volatile sig_atomic_t caught, count;

/* Async-signal-safe: it only records the first signal (the next ones
 * find the run already on its way out) and counts them for the test
 * hook. */
static void on_signal(int sig)
{
    if (!caught)
        caught = sig;
    if (count < 1000)
        count++;
}

/* Sets on_signal for sig, with both signals blocked while it runs;
 * leaves sig alone when the caller ignores it (a background job's
 * SIGINT), so that exactgeo does not undo what the shell asked. */
static void install(int sig)
{
    struct sigaction sa, old;
    if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
        return;
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sa.sa_flags = SA_RESTART;
    sigaction(sig, &sa, NULL);
}

void intr_install(void)
{
    install(SIGINT);
    install(SIGTERM);
}

int intr_caught(void)
{
    return caught;
}

void intr_exit(void)
{
    int sig = caught;
    struct sigaction sa;
    sigset_t set;
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    fflush(NULL);
    sigaction(sig, &sa, NULL);
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);          /* not reached unless the signal is blocked */
}

/* Creates (or empties) the file path: the test hook's word to the test
 * script.  A failure is not reported; the script, waiting for the file,
 * fails on its own. */
static void touch(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd >= 0)
        close(fd);
}

/* Waits until n signals have come, at most 60 s. */
static void wait_for(int n)
{
    struct timespec ms10 = {0, 10000000};
    int i;
    for (i = 0; i < 6000 && count < n; i++)
        nanosleep(&ms10, NULL);
}

void intr_test_pause(const char *msg)
{
    static int done;
    const char *path = getenv("EXACTGEO_TEST_PAUSE");
    const char *stage = getenv("EXACTGEO_TEST_PAUSE_STAGE");
    char caught_path[4096];
    if (done || !path || !*path ||
        (stage && *stage && (!msg || strcmp(msg, stage) != 0)))
        return;
    done = 1;
    touch(path);
    wait_for(1);
    snprintf(caught_path, sizeof caught_path, "%s.caught", path);
    touch(caught_path);
    wait_for(2);
}
