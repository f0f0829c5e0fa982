# ogr_driver: everything GDAL-facing (GDAL's C API), a convenience library
# linked by the exactgeo tool and the GDAL plugin (so: PIC-friendly code).
if HAVE_GDAL
noinst_LTLIBRARIES += ogr_driver/libxgogr.la
ogr_driver_libxgogr_la_SOURCES = \
	ogr_driver/xgo.h ogr_driver/xgo_internal.h \
	ogr_driver/src.c ogr_driver/read.c ogr_driver/srs.c \
	ogr_driver/write.c ogr_driver/job.c ogr_driver/stats.c
ogr_driver_libxgogr_la_CPPFLAGS = -I$(top_srcdir)/src -I$(top_srcdir)/ogr_driver $(GDAL_CFLAGS)
ogr_driver_libxgogr_la_LIBADD = $(GDAL_LIBS)
endif
