# CUDA plugin: devimg-cuda.so opens libcuda.so.1 at run time, so it builds
# without CUDA. Its tests are tests/cuda/ (tests/cuda/local.mk);
# docs/cuda.md says more.
if BUILD_CUDA

plugin_LTLIBRARIES += plugins/devimg-cuda.la
plugins_devimg_cuda_la_SOURCES = \
	plugins/cuda/cuda-plugin.h \
	plugins/cuda/driver.h \
	plugins/cuda/cuda.c \
	plugins/cuda/devices.c \
	plugins/cuda/driver.c \
	plugins/cuda/errors.c \
	plugins/cuda/program.c \
	plugins/cuda/kernel.c \
	plugins/cuda/device-globals.c plugins/common/plugin-globals.h \
	plugins/cuda/geometry.c plugins/cuda/geometry.h
plugins_devimg_cuda_la_CPPFLAGS = $(AM_CPPFLAGS)
plugins_devimg_cuda_la_CFLAGS = $(AM_CFLAGS) $(VISIBILITY_CFLAGS) \
	$(PTHREAD_CFLAGS)
plugins_devimg_cuda_la_LDFLAGS = $(AM_LDFLAGS) $(PLUGIN_LDFLAGS)
plugins_devimg_cuda_la_LIBADD = $(PLUGIN_SUPPORT) $(PTHREAD_LIBS) -ldl
EXTRA_DIST += docs/cuda.md

# ---- benchmark ----

# devimg_launch() against raw cuLaunchKernel() on one GPU (bench/
# launch-cuda.sh says how); `make bench-cuda` alone, `make bench` with the
# others. Without a GPU it says so in one line.
bench_scripts += bench/launch-cuda.sh
EXTRA_DIST += bench/launch-cuda.c

cuda_bench = bench-cuda
cuda_clean_bench = clean-bench-cuda

bench-cuda: loader/libdevimg.la devimg-wrap$(EXEEXT) plugins/devimg-cuda.la
	$(AM_V_at)top_srcdir='$(abs_top_srcdir)' \
	top_builddir='$(abs_top_builddir)' CC='$(CC)' CFLAGS='$(CFLAGS)' \
	BENCH_LAUNCHES='$(BENCH_LAUNCHES)' BENCH_REPS='$(BENCH_REPS)' \
	$(SHELL) $(top_srcdir)/bench/launch-cuda.sh; \
	rc=$$?; test $$rc -eq 0 || test $$rc -eq 77

clean-bench-cuda:
	-rm -rf bench/launch-cuda

endif

# Hooks into targets that other files define too (empty without CUDA).
bench: $(cuda_bench)
clean-local: $(cuda_clean_bench)
.PHONY: bench-cuda clean-bench-cuda
