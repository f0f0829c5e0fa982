# One TAP program per module.
TAP_CPPFLAGS = -I$(top_srcdir)/src -I$(top_srcdir)/tests
TAP_LDADD = src/libexactgeo.la $(GMP_LIBS) -lm

check_PROGRAMS += tests/segtri_t
tests_segtri_t_SOURCES = tests/segtri_t.c tests/tap.h
tests_segtri_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_segtri_t_LDADD = $(TAP_LDADD)

TESTS += tests/segtri_t

check_PROGRAMS += tests/redblue_t
tests_redblue_t_SOURCES = tests/redblue_t.c tests/tap.h
tests_redblue_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_redblue_t_LDADD = $(TAP_LDADD)
TESTS += tests/redblue_t

check_PROGRAMS += tests/redblue_gpu_t
tests_redblue_gpu_t_SOURCES = tests/redblue_gpu_t.c tests/tap.h
tests_redblue_gpu_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_redblue_gpu_t_LDADD = $(TAP_LDADD)
TESTS += tests/redblue_gpu_t
