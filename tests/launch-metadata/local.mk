# Launch metadata from the device compiler (docs/launch-metadata.md):
# decoders and selection as Check unit tests, and end to end on PoCL with
# kernels built at build time to SPIR bitcode and SPIR-V (SPIR_COMPILE and
# the .spv rule come from Makefile.am; launch-metadata.sh wraps the format
# the device takes), and on a GPU through the CUDA plugin with the same
# kernels in lowered CUDA C built to PTX at build time, so that a carried
# build tree needs no clang.

# ---- unit tests ----

metadata_unit_tests = \
	tests/launch-metadata/test-launch-props \
	tests/launch-metadata/test-launch-metadata
check_PROGRAMS += $(metadata_unit_tests)
TESTS += $(metadata_unit_tests)

tests_launch_metadata_test_launch_props_SOURCES = \
	tests/launch-metadata/test-launch-props.c
tests_launch_metadata_test_launch_props_CPPFLAGS = $(AM_CPPFLAGS)
tests_launch_metadata_test_launch_props_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_launch_metadata_test_launch_props_LDADD = \
	props/libdevimg-props.la $(CHECK_LIBS)

tests_launch_metadata_test_launch_metadata_SOURCES = \
	tests/launch-metadata/test-launch-metadata.c \
	tests/loader/fixture.c tests/loader/fixture.h
tests_launch_metadata_test_launch_metadata_CPPFLAGS = $(loader_test_cppflags)
tests_launch_metadata_test_launch_metadata_CFLAGS = $(loader_test_cflags)
tests_launch_metadata_test_launch_metadata_LDADD = $(loader_test_ldadd)

# ---- end to end on PoCL ----

metadata_bitcode = tests/launch-metadata/launch.bc \
	tests/launch-metadata/elim-spec.bc \
	tests/launch-metadata/which-1.bc tests/launch-metadata/which-2.bc
if HAVE_CLANG
check_DATA += $(metadata_bitcode)
if HAVE_LLVM_SPIRV
check_DATA += $(metadata_bitcode:.bc=.spv)
endif
endif
CLEANFILES += $(metadata_bitcode) $(metadata_bitcode:.bc=.spv)

tests/launch-metadata/launch.bc: $(top_srcdir)/tests/launch-metadata/launch.cl
	$(AM_V_GEN)$(MKDIR_P) tests/launch-metadata && $(SPIR_COMPILE) -o $@ $<
tests/launch-metadata/elim-spec.bc: \
		$(top_srcdir)/tests/launch-metadata/elim-spec.cl
	$(AM_V_GEN)$(MKDIR_P) tests/launch-metadata && $(SPIR_COMPILE) -o $@ $<
tests/launch-metadata/which-%.bc: $(top_srcdir)/tests/launch-metadata/which.cl
	$(AM_V_GEN)$(MKDIR_P) tests/launch-metadata && \
	$(SPIR_COMPILE) -DVAL=$* -o $@ $<

# elim-spec.cl emulates its spec constant (the buffer is its last
# argument), which is wrong in SPIR-V, where the loader sets spec constants
# natively: the SPIR-V image of elim-spec is its twin in SPIR-V assembly.
metadata_spvasm = tests/launch-metadata/elim-spec-native.spv
if HAVE_SPIRV_AS
check_DATA += $(metadata_spvasm)
tests/launch-metadata/elim-spec-native.spv: \
		$(top_srcdir)/tests/launch-metadata/elim-spec-native.spvasm
	$(AM_V_GEN)$(MKDIR_P) tests/launch-metadata && \
	$(SPIRV_ASSEMBLE) -o $@ $<
endif
CLEANFILES += $(metadata_spvasm)

check_PROGRAMS += tests/launch-metadata/launch-run
tests_launch_metadata_launch_run_SOURCES = tests/launch-metadata/launch-run.c
tests_launch_metadata_launch_run_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/include
tests_launch_metadata_launch_run_LDADD = loader/libdevimg.la -ldl

metadata_shell_tests = tests/launch-metadata/launch-metadata.sh
TESTS += $(metadata_shell_tests)
dist_check_SCRIPTS += $(metadata_shell_tests)
EXTRA_DIST += tests/launch-metadata/launch.cl tests/launch-metadata/which.cl \
	tests/launch-metadata/launch.sym tests/launch-metadata/launch.props \
	tests/launch-metadata/elim-spec.cl tests/launch-metadata/elim-spec.sym \
	tests/launch-metadata/elim-spec.props \
	tests/launch-metadata/elim-spec-native.spvasm \
	tests/launch-metadata/common.sh docs/launch-metadata.md

# ---- end to end on a GPU through the CUDA plugin ----

# The kernels of launch.cl, elim-spec.cl and which.cl in CUDA C, in the
# lowered form (tests/cuda/lowered.h, docs/formats.md section 11), to PTX. The
# script runs on any machine and skips (77) without a CUDA device.
metadata_ptx = tests/launch-metadata/launch.ptx \
	tests/launch-metadata/elim-spec.ptx \
	tests/launch-metadata/which-1.ptx tests/launch-metadata/which-2.ptx
CLEANFILES += $(metadata_ptx)
EXTRA_DIST += tests/launch-metadata/launch-metadata-cuda.sh \
	tests/launch-metadata/launch.cu tests/launch-metadata/elim-spec.cu \
	tests/launch-metadata/which.cu

if BUILD_CUDA
META_PTX_COMPILE = $(CLANG) -x cuda --cuda-device-only \
	--cuda-gpu-arch=sm_80 -nocudainc -nocudalib \
	-Wno-unknown-cuda-version $(CUDA_PTX_FLAGS) -O2 -S
if HAVE_PTX
check_DATA += $(metadata_ptx)
endif

tests/launch-metadata/launch.ptx: \
		$(top_srcdir)/tests/launch-metadata/launch.cu \
		$(top_srcdir)/tests/cuda/lowered.h
	$(AM_V_GEN)$(MKDIR_P) tests/launch-metadata && \
	$(META_PTX_COMPILE) -o $@ $<
tests/launch-metadata/elim-spec.ptx: \
		$(top_srcdir)/tests/launch-metadata/elim-spec.cu \
		$(top_srcdir)/tests/cuda/lowered.h
	$(AM_V_GEN)$(MKDIR_P) tests/launch-metadata && \
	$(META_PTX_COMPILE) -o $@ $<
tests/launch-metadata/which-%.ptx: \
		$(top_srcdir)/tests/launch-metadata/which.cu \
		$(top_srcdir)/tests/cuda/lowered.h
	$(AM_V_GEN)$(MKDIR_P) tests/launch-metadata && \
	$(META_PTX_COMPILE) -DVAL=$* -o $@ $<

TESTS += tests/launch-metadata/launch-metadata-cuda.sh
endif
