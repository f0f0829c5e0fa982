# mpi: the communicator over MPI for the run in regions (ogr_driver/'s
# xgp_run), for the exactgeo tool; a convenience library above
# ogr_driver/.  MPI's communicator (comm_mpi.c, with mpicc's flags) when
# configure found or was told --with-mpi, else a stub that says how to
# build it; launch.c, whether an MPI launcher started this process.
if HAVE_GDAL
noinst_LTLIBRARIES += mpi/libxgpart.la
mpi_libxgpart_la_SOURCES = mpi/xgp_mpi.h mpi/launch.c
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
