# tests/dispatch: the dispatch API end to end on PoCL, kernels built by
# clang here.
#
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
