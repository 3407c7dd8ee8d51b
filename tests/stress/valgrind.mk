# make check-valgrind: the test suite again, every test under valgrind's
# memcheck with --trace-children, so that the programs the shell tests
# run from the build tree (devimg-wrap, devimg-dump, the test programs
# they compile) are checked too; system tools (/usr, /bin, /lib: the
# shell, the compiler, readelf, jq) and the ASan-built libFuzzer programs
# of fuzz/bin are not. A test fails on any invalid
# access or definite leak. tests/stress/valgrind.supp silences PoCL, its
# LLVM, the OpenCL ICD loader and one over-read of the dynamic loader
# only. Pick tests as with make check:
# make check-valgrind TESTS='tests/loader/test-validate fuzz/replay.sh'.
# Run it in a build without sanitizers. PoCL's hwloc would warn on stderr
# that its x86 backend cannot run under valgrind (tests that count stderr
# lines would fail): HWLOC_COMPONENTS=-x86 leaves that backend out.
# Valgrind runs code some 30 times slower: Check's per-test timeouts are
# stretched to match (CK_TIMEOUT_MULTIPLIER).
VALGRIND_FLAGS = --quiet --error-exitcode=1 --leak-check=full \
	--errors-for-leak-kinds=definite --show-leak-kinds=definite \
	--num-callers=30 --trace-children=yes \
	--trace-children-skip='/usr/*,/bin/*,/lib/*,/sbin/*,*/fuzz/bin/*' \
	--suppressions=$(abs_top_srcdir)/tests/stress/valgrind.supp

.PHONY: check-valgrind
check-valgrind:
	@test "x$(VALGRIND)" != xno || \
		{ echo "check-valgrind: configure found no valgrind"; exit 1; }
	HWLOC_COMPONENTS=-x86 CK_TIMEOUT_MULTIPLIER=10 \
		$(MAKE) $(AM_MAKEFLAGS) check \
		LOG_COMPILER='$(TEST_RUNNER) $(VALGRIND) $(VALGRIND_FLAGS)' \
		STRESS_THREADS=4 STRESS_ROUNDS=2 STRESS_LIBS=8

EXTRA_DIST += tests/stress/valgrind.supp

# make check-valgrind-ci: what .ci/run runs under valgrind, within its
# time: every unit test, the fuzz replay, the catalogue of bad inputs and
# the end-to-end paths on PoCL and the recording drivers (dispatch,
# bundles and linking). make check-valgrind runs the whole suite (about
# 30 minutes on two cores).
VALGRIND_CI_TESTS = $(props_tests) \
	$(filter-out $(valgrind_too_slow),$(loader_unit_tests)) \
	$(metadata_unit_tests) tests/plugins/selector-test fuzz/replay.sh \
	tests/catalogue/catalogue.sh tests/catalogue/catalogue-launch.sh \
	tests/dispatch/dispatch.sh \
	tests/bundle/bundle.sh
if BUILD_CUDA
VALGRIND_CI_TESTS += tests/cuda/geometry-test tests/cuda/no-gpu.sh
endif
if HAVE_LEVEL_ZERO
VALGRIND_CI_TESTS += tests/level_zero/bundle.sh
endif

# test-overflow validates 2^32 properties (30 s natively, hours under
# valgrind); ASan and UBSan cover it in CI.
valgrind_too_slow = tests/loader/test-overflow

.PHONY: check-valgrind-ci
check-valgrind-ci:
	$(MAKE) $(AM_MAKEFLAGS) check-valgrind TESTS='$(VALGRIND_CI_TESTS)'
