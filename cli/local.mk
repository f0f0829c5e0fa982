# cli: the exactgeo tool (needs GDAL).
if HAVE_GDAL
bin_PROGRAMS += exactgeo
exactgeo_SOURCES = cli/main.c cli/args.c cli/args.h cli/tool.c cli/tool.h \
	cli/staging.c cli/staging.h \
	cli/dstcheck.c cli/dstcheck.h cli/dstprobe.c cli/dstprobe.h \
	cli/samefile.c cli/samefile.h cli/interrupt.c cli/interrupt.h \
	cli/stream.c cli/stream.h cli/pathmap.c cli/pathmap.h \
	cli/sidefile.c cli/sidefile.h \
	cli/help.c cli/help.h cli/summary.c cli/summary.h
exactgeo_CPPFLAGS = -I$(top_srcdir)/src -I$(top_srcdir)/ogr_driver -I$(top_srcdir)/mpi -I$(top_srcdir)/cli $(GDAL_CFLAGS)
exactgeo_LDADD = mpi/libxgpart.la ogr_driver/libxgogr.la src/libexactgeo.la $(GDAL_LIBS)
endif
