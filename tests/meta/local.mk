# Launch metadata from the device compiler (docs/launch-metadata.md):
# decoders and selection as Check unit tests, and end to end on PoCL with
# kernels built at build time to SPIR bitcode and SPIR-V (SPIR_COMPILE and
# the .spv rule come from Makefile.am; meta.sh wraps the format the device
# takes), and on a GPU through the CUDA plugin with the same
# kernels in lowered CUDA C built to PTX at build time, so that a carried
# build tree needs no clang.

# ---- unit tests ----

meta_unit_tests = \
	tests/meta/test-launch-props \
	tests/meta/test-launch-meta
check_PROGRAMS += $(meta_unit_tests)
TESTS += $(meta_unit_tests)

tests_meta_test_launch_props_SOURCES = tests/meta/test-launch-props.c
tests_meta_test_launch_props_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/props
tests_meta_test_launch_props_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_meta_test_launch_props_LDADD = props/libdevimg-props.la $(CHECK_LIBS)

tests_meta_test_launch_meta_SOURCES = tests/meta/test-launch-meta.c \
	tests/loader/fixture.c tests/loader/fixture.h
tests_meta_test_launch_meta_CPPFLAGS = $(loader_test_cppflags)
tests_meta_test_launch_meta_CFLAGS = $(loader_test_cflags)
tests_meta_test_launch_meta_LDADD = $(loader_test_ldadd)

# ---- end to end on PoCL ----

meta_bitcode = tests/meta/meta.bc tests/meta/elim-spec.bc \
	tests/meta/which-1.bc tests/meta/which-2.bc
if HAVE_CLANG
check_DATA += $(meta_bitcode)
if HAVE_LLVM_SPIRV
check_DATA += $(meta_bitcode:.bc=.spv)
endif
endif
CLEANFILES += $(meta_bitcode) $(meta_bitcode:.bc=.spv)

tests/meta/meta.bc: $(top_srcdir)/tests/meta/meta.cl
	$(AM_V_GEN)$(MKDIR_P) tests/meta && $(SPIR_COMPILE) -o $@ $<
tests/meta/elim-spec.bc: $(top_srcdir)/tests/meta/elim-spec.cl
	$(AM_V_GEN)$(MKDIR_P) tests/meta && $(SPIR_COMPILE) -o $@ $<
tests/meta/which-%.bc: $(top_srcdir)/tests/meta/which.cl
	$(AM_V_GEN)$(MKDIR_P) tests/meta && \
	$(SPIR_COMPILE) -DVAL=$* -o $@ $<

# elim-spec.cl emulates its spec constant (the buffer is its last
# argument), which is wrong in SPIR-V, where the loader sets spec constants
# natively: the SPIR-V image of elim-spec is its twin in SPIR-V assembly.
meta_spvasm = tests/meta/elim-spec-native.spv
if HAVE_SPIRV_AS
check_DATA += $(meta_spvasm)
tests/meta/elim-spec-native.spv: \
		$(top_srcdir)/tests/meta/elim-spec-native.spvasm
	$(AM_V_GEN)$(MKDIR_P) tests/meta && $(SPIRV_ASSEMBLE) -o $@ $<
endif
CLEANFILES += $(meta_spvasm)

check_PROGRAMS += tests/meta/meta-run
tests_meta_meta_run_SOURCES = tests/meta/meta-run.c
tests_meta_meta_run_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
tests_meta_meta_run_LDADD = loader/libdevimg.la -ldl

meta_shell_tests = tests/meta/meta.sh
TESTS += $(meta_shell_tests)
dist_check_SCRIPTS += $(meta_shell_tests)
EXTRA_DIST += tests/meta/meta.cl tests/meta/which.cl tests/meta/meta.sym \
	tests/meta/meta.props tests/meta/elim-spec.cl tests/meta/elim-spec.sym \
	tests/meta/elim-spec.props tests/meta/elim-spec-native.spvasm \
	docs/launch-metadata.md

# ---- end to end on a GPU through the CUDA plugin ----

# The kernels of meta.cl, elim-spec.cl and which.cl in CUDA C, in the
# lowered form (tests/cuda/lowered.h, docs/formats.md section 11), to PTX. The
# script runs on any machine and skips (77) without a CUDA device.
meta_ptx = tests/meta/meta.ptx tests/meta/elim-spec.ptx \
	tests/meta/which-1.ptx tests/meta/which-2.ptx
CLEANFILES += $(meta_ptx)
EXTRA_DIST += tests/meta/meta-cuda.sh \
	tests/meta/meta.cu tests/meta/elim-spec.cu tests/meta/which.cu

if BUILD_CUDA
META_PTX_COMPILE = $(CLANG) -x cuda --cuda-device-only \
	--cuda-gpu-arch=sm_80 -nocudainc -nocudalib \
	-Wno-unknown-cuda-version -O2 -S
if HAVE_PTX
check_DATA += $(meta_ptx)
endif

tests/meta/meta.ptx: $(top_srcdir)/tests/meta/meta.cu \
		$(top_srcdir)/tests/cuda/lowered.h
	$(AM_V_GEN)$(MKDIR_P) tests/meta && $(META_PTX_COMPILE) -o $@ $<
tests/meta/elim-spec.ptx: $(top_srcdir)/tests/meta/elim-spec.cu \
		$(top_srcdir)/tests/cuda/lowered.h
	$(AM_V_GEN)$(MKDIR_P) tests/meta && $(META_PTX_COMPILE) -o $@ $<
tests/meta/which-%.ptx: $(top_srcdir)/tests/meta/which.cu \
		$(top_srcdir)/tests/cuda/lowered.h
	$(AM_V_GEN)$(MKDIR_P) tests/meta && \
	$(META_PTX_COMPILE) -DVAL=$* -o $@ $<

TESTS += tests/meta/meta-cuda.sh
endif
