# Time to first result: one process from start to one kernel's result, a
# raw OpenCL or CUDA driver program against the same work through devimg,
# default and pinned selection, cold and warm driver caches
# (bench/first-result.sh says how). `make bench-first-result` runs it
# alone; `make bench` with the others. make check builds its programs and
# runs each once (bench/first-result-smoke.sh for OpenCL,
# bench/first-result-smoke-cuda.sh for CUDA on the recording driver).
bench_scripts += bench/first-result.sh
EXTRA_DIST += bench/first-result-build.sh bench/first-result.h \
	bench/first-result-opencl.c bench/first-result-cuda.c \
	bench/first-result-devimg.c bench/first-result-smoke.sh \
	bench/first-result-smoke-cuda.sh

bench: bench-first-result

first_result_plugins =
if HAVE_OPENCL
first_result_plugins += plugins/devimg-opencl.la
endif
if BUILD_CUDA
first_result_plugins += plugins/devimg-cuda.la
endif

# What the programs are built with, for the benchmark and the smoke test.
first_result_env = CC='$(CC)' CLANG='$(CLANG)' LLVM_SPIRV='$(LLVM_SPIRV)' \
	OPENCL_CFLAGS='$(OPENCL_CFLAGS)' OPENCL_LIBS='$(OPENCL_LIBS)'

bench-first-result: loader/libdevimg.la devimg-wrap$(EXEEXT) \
		devimg-ls$(EXEEXT) bench/runstat$(EXEEXT) \
		$(first_result_plugins)
	$(AM_V_at)$(first_result_env) CFLAGS='$(CFLAGS)' \
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	BENCH_RUNS='$(BENCH_RUNS)' BENCH_FORMAT='$(BENCH_FORMAT)' \
	$(SHELL) $(top_srcdir)/bench/first-result.sh || test $$? -eq 77

clean-local: clean-bench-first-result
clean-bench-first-result:
	-rm -rf bench/first-result

# The smoke test: the programs build warning-free and print their result.
TESTS += bench/first-result-smoke.sh bench/first-result-smoke-cuda.sh
AM_TESTS_ENVIRONMENT += \
	FIRST_RESULT_CFLAGS='$(CFLAGS) $(LDFLAGS)'; export FIRST_RESULT_CFLAGS; \
	$(first_result_env); export OPENCL_CFLAGS OPENCL_LIBS;

.PHONY: bench bench-first-result clean-bench-first-result
