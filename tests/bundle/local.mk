# Kernel bundles and device image linking (docs/bundles.md), end to end:
# on PoCL with SPIR-V or SPIR bitcode built at build time (SPIR_COMPILE
# and the .bc to .spv rule come from Makefile.am), on a GPU through the
# CUDA plugin with PTX built by tests/cuda/local.mk; the "which" images
# come from tests/launch-metadata. spec-native.spv: spec_k with native
# spec constants, what the SPIR-V path wraps instead of
# tests/dispatch/spec.spv.

bundle_bitcode = tests/bundle/link-caller.bc tests/bundle/link-helper.bc
if HAVE_CLANG
check_DATA += $(bundle_bitcode)
if HAVE_LLVM_SPIRV
check_DATA += $(bundle_bitcode:.bc=.spv)
endif
endif
CLEANFILES += $(bundle_bitcode) $(bundle_bitcode:.bc=.spv) \
	tests/bundle/spec-native.spv

if HAVE_SPIRV_AS
check_DATA += tests/bundle/spec-native.spv
tests/bundle/spec-native.spv: $(top_srcdir)/tests/bundle/spec-native.spvasm
	$(AM_V_GEN)$(MKDIR_P) tests/bundle && $(SPIRV_ASSEMBLE) -o $@ $<
endif

tests/bundle/%.bc: $(top_srcdir)/tests/bundle/%.cl
	$(AM_V_GEN)$(MKDIR_P) tests/bundle && $(SPIR_COMPILE) -o $@ $<

check_PROGRAMS += tests/bundle/bundle-run
tests_bundle_bundle_run_SOURCES = tests/bundle/bundle-run.c tests/runner.h
tests_bundle_bundle_run_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
tests_bundle_bundle_run_LDADD = loader/libdevimg.la -ldl

bundle_shell_tests = tests/bundle/bundle.sh tests/bundle/bundle-cuda.sh
TESTS += $(bundle_shell_tests)
dist_check_SCRIPTS += $(bundle_shell_tests)
EXTRA_DIST += tests/bundle/common.sh tests/bundle/link-caller.cl \
	tests/bundle/link-helper.cl tests/bundle/link-caller.props \
	tests/bundle/link-helper.props tests/bundle/link-caller.sym \
	tests/bundle/spec-native.spvasm docs/bundles.md
