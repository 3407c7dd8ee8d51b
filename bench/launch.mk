# Launch benchmark: devimg_launch() + devimg_queue_finish() against raw
# clEnqueueNDRangeKernel() + clFinish() on one PoCL device (bench/launch.sh
# says how). `make bench-launch` runs it alone; `make bench` with the others.
bench_scripts += bench/launch.sh
EXTRA_DIST += bench/launch.sh bench/launch-main.c bench/paired.h \
	bench/format.sh

bench: bench-launch

if HAVE_OPENCL
bench_launch_plugin = plugins/devimg-opencl.la
endif

bench-launch: loader/libdevimg.la devimg-wrap$(EXEEXT) devimg-ls$(EXEEXT) \
		$(bench_launch_plugin)
	$(AM_V_at)top_srcdir='$(abs_top_srcdir)' \
	top_builddir='$(abs_top_builddir)' CC='$(CC)' CFLAGS='$(CFLAGS)' \
	CLANG='$(CLANG)' LLVM_SPIRV='$(LLVM_SPIRV)' \
	OPENCL_CFLAGS='$(OPENCL_CFLAGS)' OPENCL_LIBS='$(OPENCL_LIBS)' \
	BENCH_LAUNCHES='$(BENCH_LAUNCHES)' BENCH_REPS='$(BENCH_REPS)' \
	BENCH_FORMAT='$(BENCH_FORMAT)' \
	$(SHELL) $(top_srcdir)/bench/launch.sh; \
	rc=$$?; test $$rc -eq 0 || test $$rc -eq 77

clean-local: clean-bench-launch
clean-bench-launch:
	-rm -rf bench/launch

.PHONY: bench bench-launch clean-bench-launch

# Launch throughput of many threads at once, each with its own queue and
# kernel, against the raw driver: OpenCL, and CUDA on one and two GPUs
# where there are GPUs (bench/launch-threads.sh says how).
bench_scripts += bench/launch-threads.sh
EXTRA_DIST += bench/launch-threads-opencl.c bench/launch-threads-cuda.c \
	bench/scaling.h bench/opencl-raw.h bench/cuda-raw.h bench/empty.ptx

bench: bench-threads

if BUILD_CUDA
bench_threads_cuda_plugin = plugins/devimg-cuda.la
endif

bench-threads: loader/libdevimg.la devimg-wrap$(EXEEXT) devimg-ls$(EXEEXT) \
		$(bench_launch_plugin) $(bench_threads_cuda_plugin)
	$(AM_V_at)top_srcdir='$(abs_top_srcdir)' \
	top_builddir='$(abs_top_builddir)' CC='$(CC)' CFLAGS='$(CFLAGS)' \
	CLANG='$(CLANG)' LLVM_SPIRV='$(LLVM_SPIRV)' \
	OPENCL_CFLAGS='$(OPENCL_CFLAGS)' OPENCL_LIBS='$(OPENCL_LIBS)' \
	BENCH_LAUNCHES='$(BENCH_LAUNCHES)' BENCH_REPS='$(BENCH_REPS)' \
	BENCH_FORMAT='$(BENCH_FORMAT)' BENCH_THREADS='$(BENCH_THREADS)' \
	BENCH_REUSE='$(BENCH_REUSE)' BENCH_RAW_MODULE='$(BENCH_RAW_MODULE)' \
	$(SHELL) $(top_srcdir)/bench/launch-threads.sh

clean-local: clean-bench-threads
clean-bench-threads:
	-rm -rf bench/launch-threads

.PHONY: bench-threads clean-bench-threads
