#!/bin/sh
# Three wrapped shared libraries sharing kernel names, opened and closed
# in every order: lookups after each step return exactly the images of the
# open libraries, in registration order; a library's images are registered
# before its own constructors run; a reference outlives dlclose().
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/loader/lib-loader.sh"

cd "$scratch"
fixture_libs
build_prog prog-dlopen "$lsrc/prog-dlopen.c"
./prog-dlopen "$scratch" || fail "prog-dlopen"
