#!/bin/sh
# Eight threads look kernels up and read the images they get while the
# main thread opens and closes three wrapped libraries sharing kernel
# names. Also run by make check-tsan with libdevimg and the program built
# with -fsanitize=thread (LOADER_* set by the make rule).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/loader/lib-loader.sh"

cd "$scratch"
fixture_libs
build_prog prog-threads "$lsrc/prog-threads.c"
./prog-threads "$scratch" "${LOADER_THREAD_ROUNDS:-2000}" ||
	fail "prog-threads"
