# tests/loader: libdevimg's core and registry (loader/local.mk,
# loader/registry/local.mk) over hand-built descriptors, and programs
# with wrapped objects: constructors, dlopen, threads, offload objects;
# make check-tsan runs the threaded ones again under TSan.

# Check unit tests over hand-built descriptors.
loader_unit_tests = \
	tests/loader/test-validate \
	tests/loader/test-registry \
	tests/loader/test-lazy \
	tests/loader/test-select \
	tests/loader/test-specconst \
	tests/loader/test-overflow \
	tests/loader/test-hash \
	tests/loader/test-names \
	tests/loader/test-escape \
	tests/loader/test-layout \
	tests/loader/test-errors \
	tests/loader/test-api \
	tests/loader/test-globals \
	tests/loader/test-global-rw
check_PROGRAMS += $(loader_unit_tests)
TESTS += $(loader_unit_tests)

tests_loader_test_globals_SOURCES = tests/loader/test-globals.c $(loader_test_common)
tests_loader_test_globals_CPPFLAGS = $(loader_test_cppflags)
tests_loader_test_globals_CFLAGS = $(loader_test_cflags)
tests_loader_test_globals_LDADD = $(loader_test_ldadd)

# Through the fake plugin, which it opens again to read back what it holds.
tests_loader_test_global_rw_SOURCES = tests/loader/test-global-rw.c $(loader_test_common)
tests_loader_test_global_rw_CPPFLAGS = $(loader_test_cppflags) \
	-DFAKE_PLUGIN_DIR=\"$(abs_top_builddir)/tests/plugins/.libs\"
tests_loader_test_global_rw_CFLAGS = $(loader_test_cflags)
tests_loader_test_global_rw_LDADD = $(loader_test_ldadd) -ldl

tests_loader_test_validate_SOURCES = tests/loader/test-validate.c $(loader_test_common)
tests_loader_test_validate_CPPFLAGS = $(loader_test_cppflags)
tests_loader_test_validate_CFLAGS = $(loader_test_cflags)
tests_loader_test_validate_LDADD = $(loader_test_ldadd)

tests_loader_test_registry_SOURCES = tests/loader/test-registry.c $(loader_test_common)
tests_loader_test_registry_CPPFLAGS = $(loader_test_cppflags)
tests_loader_test_registry_CFLAGS = $(loader_test_cflags)
tests_loader_test_registry_LDADD = $(loader_test_ldadd)

tests_loader_test_lazy_SOURCES = tests/loader/test-lazy.c $(loader_test_common)
tests_loader_test_lazy_CPPFLAGS = $(loader_test_cppflags)
tests_loader_test_lazy_CFLAGS = $(loader_test_cflags)
tests_loader_test_lazy_LDADD = $(loader_test_ldadd)

tests_loader_test_select_SOURCES = tests/loader/test-select.c $(loader_test_common)
tests_loader_test_select_CPPFLAGS = $(loader_test_cppflags)
tests_loader_test_select_CFLAGS = $(loader_test_cflags)
tests_loader_test_select_LDADD = $(loader_test_ldadd)

tests_loader_test_specconst_SOURCES = tests/loader/test-specconst.c $(loader_test_common)
tests_loader_test_specconst_CPPFLAGS = $(loader_test_cppflags)
tests_loader_test_specconst_CFLAGS = $(loader_test_cflags)
tests_loader_test_specconst_LDADD = $(loader_test_ldadd)

tests_loader_test_overflow_SOURCES = tests/loader/test-overflow.c $(loader_test_common)
tests_loader_test_overflow_CPPFLAGS = $(loader_test_cppflags)
tests_loader_test_overflow_CFLAGS = $(loader_test_cflags)
tests_loader_test_overflow_LDADD = $(loader_test_ldadd)

tests_loader_test_hash_SOURCES = tests/loader/test-hash.c
tests_loader_test_hash_CPPFLAGS = $(loader_test_cppflags)
tests_loader_test_hash_CFLAGS = $(loader_test_cflags)
tests_loader_test_hash_LDADD = $(loader_test_ldadd)

tests_loader_test_names_SOURCES = tests/loader/test-names.c $(loader_test_common)
tests_loader_test_names_CPPFLAGS = $(loader_test_cppflags) \
	-DFAKE_PLUGIN_DIR=\"$(abs_top_builddir)/tests/plugins/.libs\"
tests_loader_test_names_CFLAGS = $(loader_test_cflags)
tests_loader_test_names_LDADD = $(loader_test_ldadd)

tests_loader_test_layout_SOURCES = tests/loader/test-layout.c $(loader_test_common)
tests_loader_test_layout_CPPFLAGS = $(loader_test_cppflags)
tests_loader_test_layout_CFLAGS = $(loader_test_cflags)
tests_loader_test_layout_LDADD = $(loader_test_ldadd)

# Struct sizes: on the registry and on the fake plugin's device.
tests_loader_test_api_SOURCES = tests/loader/test-api.c $(loader_test_common)
tests_loader_test_api_CPPFLAGS = $(loader_test_cppflags) \
	-DFAKE_PLUGIN_DIR=\"$(abs_top_builddir)/tests/plugins/.libs\"
tests_loader_test_api_CFLAGS = $(loader_test_cflags)
tests_loader_test_api_LDADD = $(loader_test_ldadd)

# With --device, on a device through the OpenCL plugin
# (tests/loader/escape-device.sh).
tests_loader_test_escape_SOURCES = tests/loader/test-escape.c $(loader_test_common)
tests_loader_test_escape_CPPFLAGS = $(loader_test_cppflags) \
	-DPLUGIN_DIR=\"$(abs_top_builddir)/plugins/.libs\" \
	-DDISPATCH_DIR=\"$(abs_top_builddir)/tests/dispatch\"
tests_loader_test_escape_CFLAGS = $(loader_test_cflags)
tests_loader_test_escape_LDADD = $(loader_test_ldadd)

# Each exported function's failures through devimg_last_error(), and the
# plugin traces through the log function (plugins from the build tree).
tests_loader_test_errors_SOURCES = tests/loader/test-errors.c $(loader_test_common)
tests_loader_test_errors_CPPFLAGS = $(loader_test_cppflags) \
	-DPLUGIN_DIR=\"$(abs_top_builddir)/plugins/.libs\"
tests_loader_test_errors_CFLAGS = $(loader_test_cflags)
tests_loader_test_errors_LDADD = $(loader_test_ldadd)

# Integration tests with real wrapped objects (skip until devimg-wrap is
# built): a program whose images register before main, three shared
# libraries sharing kernel names opened and closed in every order, and
# eight threads looking kernels up while the libraries come and go, the
# first expansion of a compressed image while another thread holds the
# dynamic linker's lock (dllock.sh, which needs mk-offload). They compile
# their programs with the flags of this build, recorded here.
loader_shell_tests = \
	tests/loader/ctor.sh \
	tests/loader/dlopen.sh \
	tests/loader/threads.sh \
	tests/loader/dllock.sh \
	tests/loader/offload.sh \
	tests/loader/offload-pocl.sh \
	tests/loader/wings.sh \
	tests/loader/globals.sh \
	tests/loader/escape-device.sh
TESTS += $(loader_shell_tests)
dist_check_SCRIPTS += $(loader_shell_tests)
EXTRA_DIST += tests/loader/lib-loader.sh tests/loader/prog-ctor.c \
	tests/loader/prog-dlopen.c tests/loader/prog-threads.c \
	tests/loader/fixture-lib.c tests/loader/lib-offload.sh \
	tests/loader/prog-offload.c tests/loader/prog-offload-run.c \
	tests/loader/prog-globals.c tests/loader/prog-dllock.c \
	tests/loader/lib-slow.c
check_SCRIPTS += tests/loader/build-flags.sh
CLEANFILES += tests/loader/build-flags.sh

tests/loader/build-flags.sh: Makefile
	$(AM_V_GEN)$(MKDIR_P) tests/loader && \
	{ echo "LOADER_CFLAGS='$(CFLAGS) $(PTHREAD_CFLAGS)'"; \
	  echo "LOADER_LDFLAGS='$(LDFLAGS) $(PTHREAD_LIBS) $(ZSTD_LIBS)'"; \
	  echo "LOADER_LIBDIR='$(abs_top_builddir)/loader/.libs'"; } >$@

# make check-tsan: the threaded tests again (threads.sh, dllock.sh), with
# libdevimg and the test programs built by clang with -fsanitize=thread in
# loader/tsan/ (needs $(CLANG), devimg-wrap and mk-offload; a data race
# fails the test).
loader_tsan_sources = \
	$(addprefix $(top_srcdir)/,$(filter %.c,$(core_sources) $(registry_sources))) \
	$(addprefix $(top_srcdir)/,$(filter %.c,$(props_libdevimg_props_la_SOURCES) $(util_libdevimg_util_la_SOURCES)))
loader_tsan_cflags = -fsanitize=thread -g -O1 -std=c11 -pthread

.PHONY: check-tsan
check-tsan: devimg-wrap$(EXEEXT) tests/containers/mk-offload$(EXEEXT)
	$(AM_V_at)$(MKDIR_P) loader/tsan
	$(AM_V_GEN)$(CLANG) $(loader_tsan_cflags) -fPIC -shared \
		-fvisibility=hidden -include $(top_builddir)/config.h \
		-I$(top_srcdir)/include -I$(top_srcdir) \
		-Wl,-soname,libdevimg.so.$(LIBDEVIMG_CURRENT) \
		-Wl,--version-script=$(top_srcdir)/loader/libdevimg.sym \
		-o loader/tsan/libdevimg.so $(loader_tsan_sources) -ldl \
		$(ZSTD_CFLAGS) $(ZSTD_LIBS)
	$(AM_V_at)ln -sf libdevimg.so loader/tsan/libdevimg.so.$(LIBDEVIMG_CURRENT)
	$(AM_V_at)for t in threads dllock; do \
		top_srcdir='$(abs_top_srcdir)' \
		top_builddir='$(abs_top_builddir)' CC='$(CLANG)' \
		LOADER_CFLAGS='$(loader_tsan_cflags)' LOADER_LDFLAGS='' \
		LOADER_LIBDIR='$(abs_top_builddir)/loader/tsan' \
		TSAN_OPTIONS='halt_on_error=1 second_deadlock_stack=1' \
		$(SHELL) $(top_srcdir)/tests/loader/$$t.sh || exit 1; \
	done

clean-local: clean-loader-tsan
.PHONY: clean-loader-tsan
clean-loader-tsan:
	-rm -rf loader/tsan
