# The wings of libdevimg above the registry (docs/design.md, "The map"),
# bottom up: the backend (loader/backend/: plugin discovery, start,
# binding and calls, the device selector, devices, the plugin error
# channel), programs (loader/program/: the program cache, linking, what
# is written into programs after a build) and dispatch (loader/dispatch/:
# contexts, queues, buffers, kernels, launches, bundles, device globals'
# API). The plugin set is its own convenience library, at the end.
dispatch_sources = \
	loader/backend/backend.h \
	loader/backend/device.c loader/backend/plugin-error.c \
	loader/program/progcache.c loader/program/link.c \
	loader/program/program.h loader/program/device-global-memory.c \
	loader/dispatch/dispatch.h \
	loader/dispatch/context.c loader/dispatch/queue.c \
	loader/dispatch/buffer.c loader/dispatch/kernel.c \
	loader/dispatch/kernel-args.c loader/dispatch/kernel-private.h \
	loader/dispatch/device-global-access.c \
	loader/dispatch/bundle.c loader/dispatch/bundle-syclbin.c

loader_libdevimg_la_SOURCES += $(dispatch_sources)
loader_libdevimg_la_LIBADD += loader/libdevimg-plugins.la
loader_libdevimg_internal_la_SOURCES += $(dispatch_sources)
loader_libdevimg_internal_la_LIBADD += loader/libdevimg-plugins.la

# ---- tests: end to end on PoCL, kernels built by clang here ----

# The images are made at build time (SPIR_COMPILE and the .spv rule come
# from Makefile.am), so that a build tree carried to a machine without
# clang still runs the suite there: SPIR bitcode and its SPIR-V, for the
# device's format. spec_k in SPIR-V is spec-native.spv, assembled from
# the native twin of spec.cl (tests/level_zero/spec.spvasm, native spec
# constants with SpecIds, the layout spec.props describes), not the
# translation of spec.cl, whose emulated buffer argument is wrong where
# SPIR-V gets native spec constants.
dispatch_bitcode = tests/dispatch/dispatch.bc tests/dispatch/spec.bc \
	tests/dispatch/broken.bc \
	tests/dispatch/pick-which-1.bc tests/dispatch/pick-which-2.bc \
	tests/dispatch/pick-which-3.bc tests/dispatch/pick-last-10.bc \
	tests/dispatch/pick-last-20.bc tests/dispatch/pick-last-30.bc
if HAVE_CLANG
check_DATA += $(dispatch_bitcode)
if HAVE_LLVM_SPIRV
check_DATA += $(dispatch_bitcode:.bc=.spv)
endif
endif
CLEANFILES += $(dispatch_bitcode) $(dispatch_bitcode:.bc=.spv)
if HAVE_SPIRV_AS
check_DATA += tests/dispatch/spec-native.spv
endif
CLEANFILES += tests/dispatch/spec-native.spv

tests/dispatch/spec-native.spv: $(top_srcdir)/tests/level_zero/spec.spvasm
	$(AM_V_GEN)$(MKDIR_P) tests/dispatch && $(SPIRV_ASSEMBLE) -o $@ $<

tests/dispatch/%.bc: $(top_srcdir)/tests/dispatch/%.cl
	$(AM_V_GEN)$(MKDIR_P) tests/dispatch && $(SPIR_COMPILE) -o $@ $<
tests/dispatch/pick-which-%.bc: $(top_srcdir)/tests/dispatch/pick.cl
	$(AM_V_GEN)$(MKDIR_P) tests/dispatch && \
	$(SPIR_COMPILE) -DKNAME=which -DVAL=$* -o $@ $<
tests/dispatch/pick-last-%.bc: $(top_srcdir)/tests/dispatch/pick.cl
	$(AM_V_GEN)$(MKDIR_P) tests/dispatch && \
	$(SPIR_COMPILE) -DKNAME=last -DVAL=$* -o $@ $<

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
	tests/dispatch/pick.cl tests/dispatch/common.sh

# The plugin set: discovery, start, binding, the traced calls, the
# account of what they found, and the device selector: a convenience
# library linked into libdevimg (above) and into the plugin tests
# (plugins/local.mk).

noinst_LTLIBRARIES += loader/libdevimg-plugins.la
loader_libdevimg_plugins_la_SOURCES = \
	plugins/devimg_plugin.h \
	loader/backend/plugins.c loader/backend/plugins.h \
	loader/backend/plugin-discovery.c loader/backend/plugin-start.c \
	loader/backend/plugin-binding.c loader/backend/plugin-notes.c \
	loader/backend/plugin-names.c \
	loader/backend/plugin-calls.c loader/backend/plugin-private.h \
	loader/backend/plugin-ops.h \
	loader/backend/account.c loader/backend/account.h \
	loader/backend/device-selector.c loader/backend/device-selector.h
# Its traces go through the core's log (loader/log.c), its environment
# through loader/env.c: programs linking it link the core as well.
loader_libdevimg_plugins_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
loader_libdevimg_plugins_la_CFLAGS = $(AM_CFLAGS) $(VISIBILITY_CFLAGS)
