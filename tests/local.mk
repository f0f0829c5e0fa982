# One TAP program per module.
TAP_CPPFLAGS = -I$(top_srcdir)/src -I$(top_srcdir)/tests
TAP_LDADD = src/libexactgeo.la $(GMP_LIBS) -lm

check_PROGRAMS += tests/segtri_t
tests_segtri_t_SOURCES = tests/segtri_t.c tests/tap.h
tests_segtri_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_segtri_t_LDADD = $(TAP_LDADD)

TESTS += tests/segtri_t

# The EXACTGEO: connection string and job file parser (no GDAL needed).
check_PROGRAMS += tests/conn_t
tests_conn_t_SOURCES = tests/conn_t.c ogr_driver/xgo_conn.c ogr_driver/xgo_conn.h tests/tap.h
tests_conn_t_CPPFLAGS = $(TAP_CPPFLAGS) -I$(top_srcdir)/ogr_driver
tests_conn_t_LDADD = $(TAP_LDADD)
TESTS += tests/conn_t
