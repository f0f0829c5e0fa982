# One TAP program per module.
TAP_CPPFLAGS = -I$(top_srcdir)/src -I$(top_srcdir)/tests
TAP_LDADD = src/libexactgeo.la $(GMP_LIBS) -lm

check_PROGRAMS += tests/segtri_t
tests_segtri_t_SOURCES = tests/segtri_t.c tests/tap.h
tests_segtri_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_segtri_t_LDADD = $(TAP_LDADD)

TESTS += tests/segtri_t

check_PROGRAMS += tests/orient_t
tests_orient_t_SOURCES = tests/orient_t.c tests/xg_test.h tests/tap.h
tests_orient_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_orient_t_LDADD = $(TAP_LDADD)
TESTS += tests/orient_t

check_PROGRAMS += tests/grid_t
tests_grid_t_SOURCES = tests/grid_t.c tests/xg_test.h tests/tap.h
tests_grid_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_grid_t_LDADD = $(TAP_LDADD)
TESTS += tests/grid_t

# Tests that compare against MPFR (configure's HAVE_MPFR).
if HAVE_MPFR
check_PROGRAMS += tests/interval_t
tests_interval_t_SOURCES = tests/interval_t.c tests/xg_test.h tests/tap.h
tests_interval_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_interval_t_LDADD = $(MPFR_LIBS) $(GMP_LIBS) -lm
TESTS += tests/interval_t

check_PROGRAMS += tests/exact_t
tests_exact_t_SOURCES = tests/exact_t.c tests/xg_test.h tests/tap.h
tests_exact_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_exact_t_LDADD = $(TAP_LDADD) $(MPFR_LIBS)
TESTS += tests/exact_t
endif

if HAVE_MPFR
check_PROGRAMS += tests/segtri_ref_t
tests_segtri_ref_t_SOURCES = tests/segtri_ref_t.c tests/xg_test.h tests/tap.h
tests_segtri_ref_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_segtri_ref_t_LDADD = $(TAP_LDADD) $(MPFR_LIBS)
TESTS += tests/segtri_ref_t
endif

# The public header alone, from strict C89 and from C++ (PROJ-style).
check_PROGRAMS += tests/header_t tests/header_cc_t
tests_header_t_SOURCES = tests/header_t.c
tests_header_t_CPPFLAGS = -I$(top_srcdir)/src
tests_header_t_CFLAGS = -std=c89 -pedantic -Wall -Wextra -Werror
tests_header_t_LDADD = $(TAP_LDADD)
tests_header_cc_t_SOURCES = tests/header_cc_t.cc
tests_header_cc_t_CPPFLAGS = -I$(top_srcdir)/src
tests_header_cc_t_CXXFLAGS = $(XG_CXXFLAGS) -pedantic -Werror
tests_header_cc_t_LDADD = $(TAP_LDADD)
TESTS += tests/header_t tests/header_cc_t
