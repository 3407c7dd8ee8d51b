#!/bin/sh
# Names from outside stay escaped end to end on a device:
# tests/loader/test-escape --device (the kernel of a descriptor whose name,
# target and options hold an escape sequence and a forged line, built by
# the OpenCL plugin on PoCL), once an OpenCL device and the dispatch
# suite's SPIR bitcode are there.
. "$top_srcdir/tests/lib.sh"

[ -f "$top_builddir/plugins/.libs/devimg-opencl.so" ] ||
	skip opencl "OpenCL plugin not built"
pocl_env 'opencl:*'
formats=$(device_formats)
[ -n "$formats" ] || skip opencl-device "no OpenCL device (PoCL shows none)"
[ -f "$top_builddir/tests/dispatch/dispatch.bc" ] ||
	skip clang "tests/dispatch/dispatch.bc is not built (configure found no clang)"
"$top_builddir/tests/loader/test-escape" --device ||
	fail "test-escape --device failed"
