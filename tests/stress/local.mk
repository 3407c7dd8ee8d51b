# tests/stress: 16 threads create kernels and launch them on PoCL while 50
# wrapped shared libraries, each with a kernel of its own and one whose
# name they share, are opened and closed in random order; every launch's
# output is read back and checked (docs/hardening.md). The images (SPIR
# bitcode and the SPIR-V translated from it) are made at build time, one
# file per library, so that a carried build tree runs the test without
# clang; stress.sh wraps those in the format the device takes.
stress_ids = 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 \
	23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 \
	46 47 48 49
stress_bitcode = $(foreach n,$(stress_ids),tests/stress/lib$(n).bc)
stress_images = $(stress_bitcode)
if HAVE_LLVM_SPIRV
stress_images += $(stress_bitcode:.bc=.spv)
endif
if HAVE_CLANG
check_DATA += $(stress_images)
endif
CLEANFILES += $(stress_bitcode) $(stress_bitcode:.bc=.spv)

tests/stress/lib%.bc: $(top_srcdir)/tests/stress/stress.cl
	$(AM_V_GEN)$(MKDIR_P) tests/stress && \
	$(SPIR_COMPILE) -DLIB=$* -DOWN=own_$* -o $@ $<

check_PROGRAMS += tests/stress/stress-run
tests_stress_stress_run_SOURCES = tests/stress/stress-run.c
tests_stress_stress_run_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
tests_stress_stress_run_CFLAGS = $(AM_CFLAGS) $(PTHREAD_CFLAGS)
tests_stress_stress_run_LDADD = loader/libdevimg.la $(PTHREAD_LIBS) -ldl

TESTS += tests/stress/stress.sh
dist_check_SCRIPTS += tests/stress/stress.sh
EXTRA_DIST += tests/stress/stress.cl tests/stress/tsan.supp

# make stress-tsan (also run by make check-tsan): the same test with
# libdevimg (dispatch and plugin loading included), the OpenCL plugin and
# stress-run built by clang with -fsanitize=thread in tests/stress/tsan/.
# PoCL is not instrumented; tests/stress/tsan.supp silences reports whose
# frames are all inside PoCL and its LLVM only.
stress_tsan_cflags = -fsanitize=thread -g -O1 -std=c11 -pthread \
	-include $(top_builddir)/config.h -I$(top_builddir) \
	-I$(top_srcdir)/include -I$(top_srcdir)
stress_tsan_lib_sources = $(addprefix $(top_srcdir)/,$(filter %.c, \
	$(core_sources) $(registry_sources) $(backend_sources) \
	$(program_sources) $(dispatch_sources) \
	$(loader_libdevimg_plugins_la_SOURCES) \
	$(props_libdevimg_props_la_SOURCES) $(util_libdevimg_util_la_SOURCES)))
stress_tsan_plugin_sources = $(addprefix $(top_srcdir)/,$(filter %.c, \
	$(plugins_devimg_opencl_la_SOURCES) \
	$(plugins_libplugin_support_la_SOURCES)))

# devimg-ls and the plugins of the build tree tell stress.sh which image
# format the device takes.
.PHONY: stress-tsan
stress-tsan: paths.h devimg-wrap$(EXEEXT) devimg-ls$(EXEEXT) $(plugin_LTLIBRARIES) \
	$(stress_images)
	$(AM_V_at)$(MKDIR_P) tests/stress/tsan/plugins
	$(AM_V_GEN)$(CLANG) $(stress_tsan_cflags) -fPIC -shared \
		-fvisibility=hidden \
		-Wl,-soname,libdevimg.so.$(LIBDEVIMG_CURRENT) \
		-Wl,--version-script=$(top_srcdir)/loader/libdevimg.sym \
		-o tests/stress/tsan/libdevimg.so $(stress_tsan_lib_sources) -ldl \
		$(ZSTD_CFLAGS) $(ZSTD_LIBS)
	$(AM_V_at)ln -sf libdevimg.so \
		tests/stress/tsan/libdevimg.so.$(LIBDEVIMG_CURRENT)
	$(AM_V_GEN)$(CLANG) $(stress_tsan_cflags) $(OPENCL_CFLAGS) -fPIC \
		-shared -fvisibility=hidden \
		-o tests/stress/tsan/plugins/devimg-opencl.so \
		$(stress_tsan_plugin_sources) $(OPENCL_LIBS)
	$(AM_V_GEN)$(CLANG) $(stress_tsan_cflags) \
		-o tests/stress/tsan/stress-run \
		$(top_srcdir)/tests/stress/stress-run.c \
		-Ltests/stress/tsan -Wl,-rpath,$(abs_top_builddir)/tests/stress/tsan \
		-ldevimg -ldl
	$(AM_V_at)top_srcdir='$(abs_top_srcdir)' \
		top_builddir='$(abs_top_builddir)' CC='$(CC)' \
		STRESS_RUN='$(abs_top_builddir)/tests/stress/tsan/stress-run' \
		STRESS_PLUGINS='$(abs_top_builddir)/tests/stress/tsan/plugins' \
		TSAN_OPTIONS='halt_on_error=1 second_deadlock_stack=1 suppressions=$(abs_top_srcdir)/tests/stress/tsan.supp' \
		$(SHELL) $(top_srcdir)/tests/stress/stress.sh

check-tsan: stress-tsan

clean-local: clean-stress-tsan
.PHONY: clean-stress-tsan
clean-stress-tsan:
	-rm -rf tests/stress/tsan

include tests/stress/valgrind.mk
