# Bundle benchmark: time to first launch of 16 kernels, built at dispatch
# against taken from a bundle built ahead, and warm kernel creation, on one
# PoCL device (bench/bundle.sh says how). `make bench-bundle` runs it
# alone; `make bench` with the others.
bench_scripts += bench/bundle.sh
EXTRA_DIST += bench/bundle-main.c bench/format.sh

bench: bench-bundle

if HAVE_OPENCL
bench_bundle_plugin = plugins/devimg-opencl.la
endif

bench-bundle: loader/libdevimg.la devimg-wrap$(EXEEXT) devimg-ls$(EXEEXT) \
		$(bench_bundle_plugin)
	$(AM_V_at)top_srcdir='$(abs_top_srcdir)' \
	top_builddir='$(abs_top_builddir)' CC='$(CC)' CFLAGS='$(CFLAGS)' \
	CLANG='$(CLANG)' LLVM_SPIRV='$(LLVM_SPIRV)' \
	BENCH_BUNDLE_REPS='$(BENCH_BUNDLE_REPS)' BENCH_FORMAT='$(BENCH_FORMAT)' \
	$(SHELL) $(top_srcdir)/bench/bundle.sh; \
	rc=$$?; test $$rc -eq 0 || test $$rc -eq 77

clean-local: clean-bench-bundle
clean-bench-bundle:
	-rm -rf bench/bundle

.PHONY: bench bench-bundle clean-bench-bundle
