# OffloadBinary and SYCLBIN containers: unit tests (Check) and shell tests.
containers_unit_tests = tests/containers/test-offload-binary \
	tests/containers/test-syclbin
check_PROGRAMS += $(containers_unit_tests)
TESTS += $(containers_unit_tests)

containers_test_cflags = $(AM_CFLAGS) $(CHECK_CFLAGS)
containers_test_ldadd = props/libdevimg-props.la $(CHECK_LIBS)

tests_containers_test_offload_binary_SOURCES = \
	tests/containers/test-offload-binary.c tests/props/testutil.h
tests_containers_test_offload_binary_CFLAGS = $(containers_test_cflags)
tests_containers_test_offload_binary_LDADD = $(containers_test_ldadd)

tests_containers_test_syclbin_SOURCES = tests/containers/test-syclbin.c \
	tests/containers/syclbin-fixture.h tests/props/testutil.h
tests_containers_test_syclbin_CFLAGS = $(containers_test_cflags)
tests_containers_test_syclbin_LDADD = $(containers_test_ldadd)

# Writers of test inputs: an OffloadBinary through the library, and a
# SYCLBIN laid out independently as DPC++'s runtime writes it.
check_PROGRAMS += tests/containers/mk-offload tests/containers/mk-syclbin
tests_containers_mk_offload_SOURCES = tests/containers/mk-offload.c \
	tests/slurp.h
tests_containers_mk_offload_LDADD = props/libdevimg-props.la
tests_containers_mk_syclbin_SOURCES = tests/containers/mk-syclbin.c \
	tests/containers/syclbin-fixture.h tests/slurp.h

containers_tests = \
	tests/containers/offloading.sh \
	tests/containers/syclbin-dump.sh \
	tests/containers/syclbin-bundle.sh \
	tests/containers/syclbin-launch.sh
TESTS += $(containers_tests)
dist_check_SCRIPTS += $(containers_tests)

# devimg_bundle_new_from_syclbin() end to end, on PoCL.
check_PROGRAMS += tests/containers/syclbin-run
tests_containers_syclbin_run_SOURCES = tests/containers/syclbin-run.c \
	tests/runner.h tests/slurp.h
tests_containers_syclbin_run_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
tests_containers_syclbin_run_LDADD = loader/libdevimg.la
