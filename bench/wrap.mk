# Wrapper benchmark: devimg-wrap against `ld -r -b binary` and the LLVM path
# on 16 images of 4 MiB (bench/wrap.sh says how). `make bench-wrap` runs it
# alone; `make bench` runs it with the other benchmarks.
#
# runstat is a check program so that it is built on demand (by this target or
# by `make check`, which keeps it warning-clean), never by `make all`.
check_PROGRAMS += bench/runstat
bench_runstat_SOURCES = bench/runstat.c
bench_programs += bench/runstat
bench_scripts += bench/wrap.sh
EXTRA_DIST += bench/wrap.sh

bench: bench-wrap

bench-wrap: devimg-wrap$(EXEEXT) bench/runstat$(EXEEXT)
	$(AM_V_at)top_builddir='$(abs_top_builddir)' CC='$(CC)' \
	CLANG='$(CLANG)' LD='$(LD)' BENCH_RUNS='$(BENCH_RUNS)' \
	$(SHELL) $(srcdir)/bench/wrap.sh

# Its inputs, the LLVM module and three 64 MiB outputs: about 330 MiB.
clean-local: clean-bench-wrap
clean-bench-wrap:
	-rm -rf bench/wrap

.PHONY: bench bench-wrap clean-bench-wrap
