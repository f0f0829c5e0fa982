/*
 * interrupt.h -- SIGINT and SIGTERM in the exactgeo tool.  The handler only
 * records the signal; the run sees it at its next progress report, stops,
 * removes its staging folder and leaves through intr_exit().  However many
 * signals come, and however close together, they all end in that one path.
 */
#ifndef XG_INTERRUPT_H
#define XG_INTERRUPT_H

/* Installs the handler for SIGINT and SIGTERM with sigaction (SA_RESTART,
 * so that I/O in progress is not failed with EINTR: the run stops at its
 * next progress report instead).  A signal the caller set to be ignored
 * (a shell's background job ignores SIGINT) stays ignored. */
void intr_install(void);

/* The first signal caught, or 0. */
int intr_caught(void);

/* Ends the process as killed by the signal caught, so that the caller
 * sees the usual status (130 for SIGINT, 143 for SIGTERM in a shell).
 * Call it after the clean-up and the message; only when intr_caught(). */
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void intr_exit(void);

/* Testing hook, so that a test can interrupt the run at a known point and
 * send a second signal surely after the first was handled: when
 * EXACTGEO_TEST_PAUSE names a file FILE, the first call creates FILE,
 * waits for a signal, creates FILE.caught, waits for a second signal
 * (each wait at most 60 s) and returns.  msg is the progress call's
 * message, the bar's stage ("writing", "indexing"; may be NULL): with
 * EXACTGEO_TEST_PAUSE_STAGE set, the first call of that stage pauses. */
void intr_test_pause(const char *msg);

#endif
