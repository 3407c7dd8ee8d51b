#!/bin/sh
# Kernel bundles on PoCL (tests/bundle/common.sh): SPIR bitcode built by
# clang at build time. PoCL cannot compile SPIR separately, so linking an
# image with the one it imports from must fail with a clear error.
ext=bc
ldir=$top_builddir/tests/bundle
kdir=$top_builddir/tests/dispatch
which1=$top_builddir/tests/meta/which-1.bc
which2=$top_builddir/tests/meta/which-2.bc
fmt=llvmbc
base_target=spir64
targets="spir64_x86_64 spir64"
selector=opencl:cpu
link=${DEVIMG_TEST_LINK:-notsup}
[ -f "$top_builddir/plugins/.libs/devimg-opencl.so" ] ||
	{ echo "SKIP: OpenCL plugin not built"; exit 77; }
. "$top_srcdir/tests/bundle/common.sh"
