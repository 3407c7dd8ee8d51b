# Benchmarks: make bench runs every bench-* target below (others add theirs
# to the bench: line). They build in $(top_builddir)/bench/<name>/ and
# print their figures; they are not part of make check.

bench_scripts += bench/registry.sh
EXTRA_DIST += $(bench_scripts) bench/registry-main.c bench/registry-spawn.c \
	bench/registry-names.c

.PHONY: bench bench-registry
bench: bench-registry

# The image registry: registration time of 100 wrapped images x 100
# kernels, median lookup, start-up against a baseline without images;
# 200,000 repeated kernel names against as many distinct ones.
bench-registry: loader/libdevimg.la devimg-wrap$(EXEEXT)
	$(AM_V_at)top_srcdir='$(abs_top_srcdir)' \
		top_builddir='$(abs_top_builddir)' CC='$(CC)' \
		CFLAGS='$(CFLAGS)' $(SHELL) $(top_srcdir)/bench/registry.sh

clean-local: clean-bench-registry
.PHONY: clean-bench-registry
clean-bench-registry:
	-rm -rf bench/registry

# Start-up: what an object of 1,000 to 100,000 kernels adds to a whole
# process, in the descriptor and the blob form (bench/startup.sh).
bench_scripts += bench/startup.sh
EXTRA_DIST += bench/startup-main.c
.PHONY: bench-startup
bench: bench-startup
bench-startup: loader/libdevimg.la devimg-wrap$(EXEEXT)
	$(AM_V_at)top_srcdir='$(abs_top_srcdir)' \
		top_builddir='$(abs_top_builddir)' CC='$(CC)' \
		CFLAGS='$(CFLAGS)' BENCH_STARTUP_KERNELS='$(BENCH_STARTUP_KERNELS)' \
		BENCH_STARTUP_ROUNDS='$(BENCH_STARTUP_ROUNDS)' \
		$(SHELL) $(top_srcdir)/bench/startup.sh

clean-local: clean-bench-startup
.PHONY: clean-bench-startup
clean-bench-startup:
	-rm -rf bench/startup

# Compressed images: first-use (expansion) cost against a plain image.
bench_scripts += bench/compress.sh
EXTRA_DIST += bench/compress-main.c
.PHONY: bench-compress
bench: bench-compress
bench-compress: loader/libdevimg.la devimg-wrap$(EXEEXT)
	$(AM_V_at)top_srcdir='$(abs_top_srcdir)' \
		top_builddir='$(abs_top_builddir)' CC='$(CC)' \
		CFLAGS='$(CFLAGS)' $(SHELL) $(top_srcdir)/bench/compress.sh

clean-local: clean-bench-compress
.PHONY: clean-bench-compress
clean-bench-compress:
	-rm -rf bench/compress
