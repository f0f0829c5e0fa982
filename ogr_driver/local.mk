# ogr_driver: everything GDAL-facing (GDAL's C API), a convenience library
# linked by the exactgeo tool and the GDAL plugin (so: PIC-friendly code).
if HAVE_GDAL
noinst_LTLIBRARIES += ogr_driver/libxgogr.la
ogr_driver_libxgogr_la_SOURCES = \
	ogr_driver/xgo.h ogr_driver/xgo_internal.h \
	ogr_driver/fail.c ogr_driver/src.c ogr_driver/srs.c \
	ogr_driver/xgo_read.h ogr_driver/read.c ogr_driver/read_check.c \
	ogr_driver/read_lines.c ogr_driver/read_points.c ogr_driver/read_tris.c \
	ogr_driver/read_solid.c ogr_driver/read_csv.c \
	ogr_driver/read_arrow.c ogr_driver/read_wkb.c \
	ogr_driver/warn.c ogr_driver/group.c \
	ogr_driver/write.c ogr_driver/write_tri.c ogr_driver/write_batch.c \
	ogr_driver/kept.c \
	ogr_driver/xgo_shape.h ogr_driver/shapes.c ogr_driver/shape_contacts.c \
	ogr_driver/shape_triangles.c ogr_driver/shape_lines.c \
	ogr_driver/job.c ogr_driver/stats.c \
	ogr_driver/xgp.h ogr_driver/xgp_internal.h ogr_driver/part_run.c \
	ogr_driver/part_plan.c ogr_driver/part_region.c ogr_driver/part_spill.c \
	ogr_driver/part_records.c ogr_driver/part_local.c \
	ogr_driver/xgo_options.c ogr_driver/open_options.c ogr_driver/ops_json.c \
	ogr_driver/progress.c \
	ogr_driver/bar.c \
	ogr_driver/bar_costs.c \
	ogr_driver/gpkg_rtree.h ogr_driver/gpkg_rtree.c ogr_driver/gpkg_box.c \
	ogr_driver/rtree_defer.c ogr_driver/gpkg_direct.h \
	ogr_driver/gpkg_direct.c ogr_driver/sqlite_pages.h \
	ogr_driver/sqlite_pages.c
ogr_driver_libxgogr_la_CPPFLAGS = -I$(top_srcdir)/src -I$(top_srcdir)/ogr_driver $(GDAL_CFLAGS)
ogr_driver_libxgogr_la_LIBADD = $(GDAL_LIBS) $(SQLITE3_LIBS)
endif

# The GDAL plugin: driver EXACTGEO, loaded by GDAL from GDAL_DRIVER_PATH or
# its plugin folder (configure --with-gdal-plugins-dir; or
# `make install gdalpluginsdir=DIR`).  A C++ shim over C logic.
if HAVE_GDAL
gdalpluginsdir = $(GDAL_PLUGINS_DIR)
gdalplugins_LTLIBRARIES = ogr_driver/ogr_EXACTGEO.la
ogr_driver_ogr_EXACTGEO_la_SOURCES = \
	ogr_driver/ogr_exactgeo.cpp \
	ogr_driver/xgo_plugin.h ogr_driver/xgo_plugin.c \
	ogr_driver/xgo_result.h ogr_driver/xgo_result.c \
	ogr_driver/xgo_conn.h ogr_driver/xgo_conn.c
ogr_driver_ogr_EXACTGEO_la_CPPFLAGS = -I$(top_srcdir)/src -I$(top_srcdir)/ogr_driver $(GDAL_CFLAGS)
ogr_driver_ogr_EXACTGEO_la_LIBADD = ogr_driver/libxgogr.la src/libexactgeo.la $(GDAL_LIBS)
ogr_driver_ogr_EXACTGEO_la_LDFLAGS = -module -avoid-version -shared -no-undefined \
	-Wl,--version-script=$(top_srcdir)/ogr_driver/plugin.map
EXTRA_ogr_driver_ogr_EXACTGEO_la_DEPENDENCIES = $(top_srcdir)/ogr_driver/plugin.map
endif
EXTRA_DIST += ogr_driver/plugin.map
