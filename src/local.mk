lib_LTLIBRARIES += src/libexactgeo.la
include_HEADERS += src/exactgeo.h
src_libexactgeo_la_SOURCES = \
	src/exactgeo.h src/xg_internal.h src/xg_interval.h src/xg_filters.h src/xg_dd.h \
	src/xg_thread.h src/xg_boxes.h src/xg_gpu_hit.h \
	src/ctx.c src/clock.c src/thread.c src/geom.c \
	src/exact.c src/orient.c src/refine.c src/project.c \
	src/grid.c src/pair_engine.c src/segtri.c src/segtri_engine.c \
	src/earclip.c \
	src/redblue.c src/gpu_plan.c src/gpu_finish.c \
	src/gpu_engine.c \
	src/dump.c
src_libexactgeo_la_LIBADD = $(GMP_LIBS) -lm $(PTHREAD_LIBS)
# The GPU engines' table: NULL here without CUDA; cuda/local.mk links
# cuda/gpu_engines.c instead.
if !HAVE_CUDA
src_libexactgeo_la_SOURCES += src/gpu_none.c
endif
src_libexactgeo_la_LDFLAGS = -version-info 0:0:0
# the operation table (exactgeo.h, "Operations")
src_libexactgeo_la_SOURCES += src/ops.c
