#!/bin/sh
# The OpenCL plugin end to end: kernels.cl and broken.cl, made at build
# time into SPIR 1.2 bitcode and SPIR-V, loaded through plugin discovery,
# run on an OpenCL CPU device (PoCL) in each of the two formats it takes
# (SPIR-V from IL, SPIR bitcode as a binary), results compared with the
# host; plus a failing build's log and what the device refuses.
. "$top_srcdir/tests/lib.sh"

plugins=$top_builddir/plugins/.libs
img=$top_builddir/tests/plugins
[ -f "$plugins/devimg-opencl.so" ] || skip opencl "OpenCL plugin not built (no OpenCL ICD loader at configure time)"

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

# Every SPIR-family format the device takes, SPIR-V first;
# DEVIMG_TEST_FORMAT=spirv or llvmbc runs that one only.
formats=$(device_formats)
[ -n "$formats" ] || skip opencl-device "no OpenCL device (PoCL shows none)"
echo "# device formats: $formats"
run=
case " $formats " in *" spirv "*) run="$run spirv" ;; esac
case " $formats " in *" spir "*) run="$run llvmbc" ;; esac
if [ -n "${DEVIMG_TEST_FORMAT:-}" ]; then
	case $DEVIMG_TEST_FORMAT in
	spirv | llvmbc) run=$DEVIMG_TEST_FORMAT ;;
	*) fail "DEVIMG_TEST_FORMAT=$DEVIMG_TEST_FORMAT: want spirv or llvmbc" ;;
	esac
fi
[ -n "$run" ] || skip opencl-device "the OpenCL device takes neither SPIR-V nor SPIR ($formats)"

for fmt in $run; do
	if [ "$fmt" = spirv ]; then
		ext=spv
		flag=--spirv
		if [ ! -f "$img/kernels.spv" ] || [ ! -f "$img/broken.spv" ]; then
			skip llvm-spirv "the device takes SPIR-V but $img/kernels.spv is not built (configure found no llvm-spirv matching clang)"
		fi
	else
		ext='bc'
		flag=
		if [ ! -f "$img/kernels.bc" ] || [ ! -f "$img/broken.bc" ]; then
			skip clang "the device takes SPIR but $img/kernels.bc is not built (configure found no clang)"
		fi
	fi
	echo "# $fmt: $img/kernels.$ext"
	rc=0
	# shellcheck disable=SC2086
	"$top_builddir/tests/plugins/opencl-run" $flag "$img/kernels.$ext" \
		"$img/broken.$ext" || rc=$?
	[ $rc -ne 77 ] || skip opencl-device "opencl-run found no device for $fmt"
	[ $rc -eq 0 ] || fail "opencl-run ($fmt) exited $rc"
done
