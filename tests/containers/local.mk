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
