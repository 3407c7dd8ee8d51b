# The dispatch API of libdevimg (DESIGN.md "public API"): contexts,
# devices, queues, buffers, kernels with their program cache, launches.
dispatch_sources = \
	loader/dispatch.h \
	loader/context.c loader/device.c loader/queue.c loader/buffer.c \
	loader/kernel.c loader/progcache.c

loader_libdevimg_la_SOURCES += $(dispatch_sources)
loader_libdevimg_la_CPPFLAGS += -I$(top_srcdir)/plugins
loader_libdevimg_la_LIBADD += loader/libdevimg-plugins.la
loader_libdevimg_internal_la_SOURCES += $(dispatch_sources)
loader_libdevimg_internal_la_CPPFLAGS += -I$(top_srcdir)/plugins
loader_libdevimg_internal_la_LIBADD += loader/libdevimg-plugins.la

# ---- tests: end to end on PoCL, kernels built by clang at test time ----
check_PROGRAMS += tests/dispatch/dispatch-run
tests_dispatch_dispatch_run_SOURCES = tests/dispatch/dispatch-run.c
tests_dispatch_dispatch_run_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
tests_dispatch_dispatch_run_CFLAGS = $(AM_CFLAGS) $(PTHREAD_CFLAGS)
tests_dispatch_dispatch_run_LDADD = loader/libdevimg.la $(PTHREAD_LIBS) -ldl

dispatch_shell_tests = tests/dispatch/dispatch.sh
TESTS += $(dispatch_shell_tests)
dist_check_SCRIPTS += $(dispatch_shell_tests)
EXTRA_DIST += tests/dispatch/dispatch.cl tests/dispatch/broken.cl \
	tests/dispatch/spec.props tests/dispatch/dispatch.sym tests/dispatch/spec.cl \
	tests/dispatch/pick.cl
