# Compressed images (format 4): devimg-wrap -offload-compress, lazy
# expansion in libdevimg, devimg-dump's sizes and --extract/--raw.
compress_unit_tests = tests/compress/test-unz
check_PROGRAMS += $(compress_unit_tests)
TESTS += $(compress_unit_tests)

tests_compress_test_unz_SOURCES = tests/compress/test-unz.c $(loader_test_common)
tests_compress_test_unz_CPPFLAGS = $(loader_test_cppflags)
tests_compress_test_unz_CFLAGS = $(loader_test_cflags) $(ZSTD_CFLAGS)
tests_compress_test_unz_LDADD = $(loader_test_ldadd) $(ZSTD_LIBS)
