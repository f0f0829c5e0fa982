# One TAP program per module.
TAP_CPPFLAGS = -I$(top_srcdir)/src -I$(top_srcdir)/tests
TAP_LDADD = src/libexactgeo.la $(GMP_LIBS) -lm

check_PROGRAMS += tests/segtri_t
tests_segtri_t_SOURCES = tests/segtri_t.c tests/tap.h
tests_segtri_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_segtri_t_LDADD = $(TAP_LDADD)

TESTS += tests/segtri_t

check_PROGRAMS += tests/triangulate_t
tests_triangulate_t_SOURCES = tests/triangulate_t.c tests/tap.h
tests_triangulate_t_CPPFLAGS = $(TAP_CPPFLAGS)
tests_triangulate_t_LDADD = $(TAP_LDADD)

TESTS += tests/triangulate_t

# The GDAL-facing layer and the exactgeo tool (ogr_driver/, cli/).
if HAVE_GDAL
TESTS += tests/cli_t.sh
check_PROGRAMS += tests/xgo_t
tests_xgo_t_SOURCES = tests/xgo_t.c tests/tap.h
tests_xgo_t_CPPFLAGS = $(TAP_CPPFLAGS) -I$(top_srcdir)/ogr_driver $(GDAL_CFLAGS)
tests_xgo_t_LDADD = ogr_driver/libxgogr.la $(TAP_LDADD) $(GDAL_LIBS)
TESTS += tests/xgo_t
endif
EXTRA_DIST += tests/cli_t.sh
# The EXACTGEO: connection string and job file parser (no GDAL needed).
check_PROGRAMS += tests/conn_t
tests_conn_t_SOURCES = tests/conn_t.c ogr_driver/xgo_conn.c ogr_driver/xgo_conn.h tests/tap.h
tests_conn_t_CPPFLAGS = $(TAP_CPPFLAGS) -I$(top_srcdir)/ogr_driver
tests_conn_t_LDADD = $(TAP_LDADD)
TESTS += tests/conn_t

# The EXACTGEO GDAL driver (ogr2ogr/ogrinfo, Python) and the QGIS provider:
# each compares with the exactgeo tool's own output, dumped exactly.
if HAVE_GDAL
check_PROGRAMS += tests/ogrdump
tests_ogrdump_SOURCES = tests/ogrdump.c
tests_ogrdump_CPPFLAGS = $(GDAL_CFLAGS)
tests_ogrdump_LDADD = $(GDAL_LIBS)
TESTS += tests/plugin_t.sh tests/plugin_py.sh tests/qgis_t.sh
endif
EXTRA_DIST += tests/plugin_t.sh tests/plugin_py.sh tests/plugin_t.py tests/qgis_t.sh
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
