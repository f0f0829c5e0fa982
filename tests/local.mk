# One TAP program per module.
TAP_CPPFLAGS = -I$(top_srcdir)/src -I$(top_srcdir)/tests
TAP_LDADD = src/libexactgeo.la $(GMP_LIBS) -lm

check_PROGRAMS += tests/segtri_t
tests_segtri_t_SOURCES = tests/segtri_t.c tests/tap.h
tests_segtri_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_segtri_t_LDADD = $(TAP_LDADD)

TESTS += tests/segtri_t

check_PROGRAMS += tests/gpu_plan_t
tests_gpu_plan_t_SOURCES = tests/gpu_plan_t.c tests/tap.h
tests_gpu_plan_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_gpu_plan_t_LDADD = $(TAP_LDADD)
TESTS += tests/gpu_plan_t
