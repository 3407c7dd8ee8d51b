#!/bin/sh
# The OpenCL plugin end to end: SPIR 1.2 bitcode made by clang from
# kernels.cl, loaded through plugin discovery, run on an OpenCL CPU device
# (PoCL), results compared with the host; plus a failing build's log.
. "$top_srcdir/tests/lib.sh"

plugins=$top_builddir/plugins/.libs
[ -f "$plugins/devimg-opencl.so" ] || skip "OpenCL plugin not built (no OpenCL ICD loader at configure time)"
[ -n "${CLANG:-}" ] && [ "$CLANG" != no ] || skip "no clang to make SPIR bitcode"

# SPIR 1.2 bitcode as cl_khr_spir wants it: the spir64 triple, OpenCL C 1.2.
spir() {
	"$CLANG" -cc1 -triple spir64-unknown-unknown -emit-llvm-bc \
		-cl-std=CL1.2 -finclude-default-header -O2 \
		-o "$2" "$top_srcdir/tests/plugins/$1" ||
		fail "$CLANG could not compile $1 to SPIR bitcode"
}
spir kernels.cl "$scratch/kernels.bc"
spir broken.cl "$scratch/broken.bc"

# PoCL (3.1) keeps built kernels in POCL_CACHE_DIR, else
# $XDG_CACHE_HOME/pocl/kcache, else $HOME/.cache/pocl/kcache; when it
# cannot create that folder it reports no devices at all (a read-only HOME
# in a CI container), and POCL_KERNEL_CACHE=0 does not lift that. Give it a
# private, writable one. POCL_MAX_PTHREAD_COUNT caps its worker threads
# where a container has fewer CPUs than the host shows.
mkdir -p "$scratch/pocl-cache"
POCL_CACHE_DIR=$scratch/pocl-cache
DEVIMG_PLUGIN_PATH=$plugins
export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH
# Under -fsanitize=address: PoCL's kernel compiler never frees its state.
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export LSAN_OPTIONS

"$top_builddir/tests/plugins/opencl-run" "$scratch/kernels.bc" "$scratch/broken.bc"
