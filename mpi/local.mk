# mpi: the run in regions (xgp_run), in one process or over MPI, for the
# exactgeo tool; a convenience library above ogr_driver/.  The
# communicator of one process is always built; MPI's (comm_mpi.c, with
# mpicc's flags) when configure found or was told --with-mpi, else a stub
# that says how to build it.
if HAVE_GDAL
noinst_LTLIBRARIES += mpi/libxgpart.la
mpi_libxgpart_la_SOURCES = mpi/xgp.h mpi/xgp_internal.h \
	mpi/launch.c mpi/comm_local.c mpi/plan.c mpi/region_run.c \
	mpi/region_read.c \
	mpi/records.c mpi/part_run.c
if HAVE_MPI
mpi_libxgpart_la_SOURCES += mpi/comm_mpi.c
else
mpi_libxgpart_la_SOURCES += mpi/comm_nompi.c
endif
mpi_libxgpart_la_CPPFLAGS = -I$(top_srcdir)/src -I$(top_srcdir)/ogr_driver \
	-I$(top_srcdir)/mpi $(GDAL_CFLAGS) $(MPI_CFLAGS)
mpi_libxgpart_la_LIBADD = $(MPI_LIBS)
endif
EXTRA_DIST += mpi/comm_mpi.c mpi/comm_nompi.c
