# Shared test helpers and the suite's guide.
EXTRA_DIST += tests/README.md tests/rusticl.list tests/lib.sh tests/run-test tests/capabilities tests/runner.h tests/slurp.h \
	tests/dispatch/checks.h

# How a unit test of libdevimg's internals builds: the library's flags,
# Check, the internal convenience library, and the hand-built descriptors
# of tests/loader/fixture.c. tests/loader/, tests/compress/ and
# tests/launch-metadata/ use them: defined here, with what the folders
# share, rather than in one of them.
loader_test_cppflags = $(libdevimg_cppflags)
loader_test_cflags = $(AM_CFLAGS) $(CHECK_CFLAGS) $(PTHREAD_CFLAGS)
loader_test_ldadd = loader/libdevimg-internal.la $(CHECK_LIBS) $(PTHREAD_LIBS)
loader_test_common = tests/loader/fixture.c tests/loader/fixture.h
