# Compressed images (format 4): devimg-wrap -offload-compress, lazy
# expansion in libdevimg, devimg-dump's sizes and --extract/--raw.
compress_unit_tests = tests/compress/test-unz
check_PROGRAMS += $(compress_unit_tests)
TESTS += $(compress_unit_tests)

tests_compress_test_unz_SOURCES = tests/compress/test-unz.c $(loader_test_common)
tests_compress_test_unz_CPPFLAGS = $(loader_test_cppflags)
tests_compress_test_unz_CFLAGS = $(loader_test_cflags) $(ZSTD_CFLAGS)
tests_compress_test_unz_LDADD = $(loader_test_ldadd) $(ZSTD_LIBS)

check_PROGRAMS += tests/compress/compress-run
tests_compress_compress_run_SOURCES = tests/compress/compress-run.c
tests_compress_compress_run_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
tests_compress_compress_run_LDADD = loader/libdevimg.la -ldl

compress_shell_tests = \
	tests/compress/compress-wrap.sh \
	tests/compress/compress-launch.sh \
	tests/compress/lazy-zstd.sh
TESTS += $(compress_shell_tests)
dist_check_SCRIPTS += $(compress_shell_tests)
