# tests/cuda: the CUDA plugin (plugins/cuda/local.mk). The tests run
# kernels written in CUDA C in the device compiler's lowered form,
# compiled to PTX by clang at build time; without a GPU, a recording
# driver stands in for the launches and the GPU suite exits 77.
# docs/cuda.md says more.
if BUILD_CUDA

# Launch geometry (local-memory offsets, block choice): Check unit tests.
check_PROGRAMS += tests/cuda/geometry-test
TESTS += tests/cuda/geometry-test
tests_cuda_geometry_test_SOURCES = tests/cuda/geometry-test.c \
	plugins/cuda/geometry.c plugins/cuda/geometry.h
tests_cuda_geometry_test_CPPFLAGS = $(AM_CPPFLAGS)
tests_cuda_geometry_test_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_cuda_geometry_test_LDADD = $(CHECK_LIBS)

# The CUDA-only cases through the dispatch API.
check_PROGRAMS += tests/cuda/cuda-run
tests_cuda_cuda_run_SOURCES = tests/cuda/cuda-run.c
tests_cuda_cuda_run_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
tests_cuda_cuda_run_CFLAGS = $(AM_CFLAGS) $(PTHREAD_CFLAGS)
tests_cuda_cuda_run_LDADD = loader/libdevimg.la $(PTHREAD_LIBS) -ldl

# The plugin's own check of a launch's arguments, called directly.
check_PROGRAMS += tests/cuda/launch-args
tests_cuda_launch_args_SOURCES = tests/cuda/launch-args.c \
	tests/level_zero/plugin-check.c tests/level_zero/plugin-check.h
tests_cuda_launch_args_CPPFLAGS = $(AM_CPPFLAGS)
tests_cuda_launch_args_LDADD = -ldl

# Device globals end to end on a GPU (globals.sh).
check_PROGRAMS += tests/cuda/globals-run
tests_cuda_globals_run_SOURCES = tests/cuda/globals-run.c
tests_cuda_globals_run_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
tests_cuda_globals_run_LDADD = loader/libdevimg.la -ldl

# A recording CUDA driver over host memory: the plugin's launches checked
# where there is no GPU (no-gpu.sh points DEVIMG_CUDA_DRIVER at it).
check_LTLIBRARIES += tests/cuda/libcuda-fake.la
tests_cuda_libcuda_fake_la_SOURCES = tests/cuda/fake-driver.c
tests_cuda_libcuda_fake_la_CPPFLAGS = $(AM_CPPFLAGS)
tests_cuda_libcuda_fake_la_CFLAGS = $(AM_CFLAGS) $(VISIBILITY_CFLAGS)
tests_cuda_libcuda_fake_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version \
	-shared -no-undefined -rpath /nowhere

# The same driver without the cuLink* entry points: linking is -ENOTSUP.
check_LTLIBRARIES += tests/cuda/libcuda-fake-nolink.la
tests_cuda_libcuda_fake_nolink_la_SOURCES = tests/cuda/fake-driver.c
tests_cuda_libcuda_fake_nolink_la_CPPFLAGS = \
	$(tests_cuda_libcuda_fake_la_CPPFLAGS) -DFAKE_NO_LINK
tests_cuda_libcuda_fake_nolink_la_CFLAGS = $(tests_cuda_libcuda_fake_la_CFLAGS)
tests_cuda_libcuda_fake_nolink_la_LDFLAGS = \
	$(tests_cuda_libcuda_fake_la_LDFLAGS)

# Test kernels: CUDA C in lowered form, to PTX at build time, so that a
# build tree carried to a GPU machine without clang runs the tests.
CUDA_PTX_COMPILE = $(CLANG) -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 \
	-nocudainc -nocudalib -Wno-unknown-cuda-version $(CUDA_PTX_FLAGS) \
	-O2 -S
cuda_test_ptx = tests/cuda/dispatch.ptx tests/cuda/spec.ptx \
	tests/cuda/broken.ptx tests/cuda/cuda.ptx tests/cuda/spec-off.ptx \
	tests/cuda/link-caller.ptx tests/cuda/link-helper.ptx \
	tests/cuda/globals.ptx tests/cuda/globals-b.ptx
if HAVE_PTX
check_DATA += $(cuda_test_ptx)
endif
CLEANFILES += $(cuda_test_ptx)

tests/cuda/%.ptx: $(top_srcdir)/tests/cuda/%.cu $(top_srcdir)/tests/cuda/lowered.h
	$(AM_V_GEN)$(MKDIR_P) tests/cuda && $(CUDA_PTX_COMPILE) -o $@ $<

# Objects for separate linking: relocatable device code, so that the
# caller declares the helper .extern .func and the helper stays .visible.
tests/cuda/link-caller.ptx: $(top_srcdir)/tests/cuda/link-caller.cu \
		$(top_srcdir)/tests/cuda/lowered.h
	$(AM_V_GEN)$(MKDIR_P) tests/cuda && \
		$(CUDA_PTX_COMPILE) -fgpu-rdc -o $@ $(top_srcdir)/tests/cuda/link-caller.cu
tests/cuda/link-helper.ptx: $(top_srcdir)/tests/cuda/link-helper.cu \
		$(top_srcdir)/tests/cuda/lowered.h
	$(AM_V_GEN)$(MKDIR_P) tests/cuda && \
		$(CUDA_PTX_COMPILE) -fgpu-rdc -o $@ $(top_srcdir)/tests/cuda/link-helper.cu

# Without a GPU: no driver, stub drivers, the recording driver. On a GPU:
# the dispatch suite, cuda-run's cases, two GPUs, cubin and fatbin images.
cuda_shell_tests = tests/cuda/no-gpu.sh tests/cuda/cuda.sh \
	tests/cuda/multi-gpu.sh tests/cuda/cubin.sh \
	tests/cuda/global-ops.sh tests/cuda/globals.sh tests/cuda/example.sh
TESTS += $(cuda_shell_tests)
dist_check_SCRIPTS += $(cuda_shell_tests)
EXTRA_DIST += tests/cuda/common.sh tests/cuda/lowered.h tests/cuda/dispatch.cu \
	tests/cuda/spec.cu tests/cuda/broken.cu tests/cuda/cuda.cu \
	tests/cuda/spec-off.cu tests/cuda/link-caller.cu tests/cuda/link-helper.cu \
	tests/cuda/globals.cu tests/cuda/globals-b.cu \
	tests/cuda/lsan.supp

endif
