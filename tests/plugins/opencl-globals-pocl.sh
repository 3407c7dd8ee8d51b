#!/bin/sh
# Device globals on an OpenCL device without
# cl_intel_global_variable_access (PoCL): each of the OpenCL plugin's
# variable operations is -ENOTSUP, its message naming the extension and
# the device, after kernels.cl's image built there.
. "$top_srcdir/tests/lib.sh"

plugins=$top_builddir/plugins/.libs
[ -f "$plugins/devimg-opencl.so" ] || skip opencl "OpenCL plugin not built (no OpenCL ICD loader at configure time)"
mkdir -p "$scratch/pocl-cache"
POCL_CACHE_DIR=$scratch/pocl-cache
DEVIMG_PLUGIN_PATH=$plugins
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH LSAN_OPTIONS

device_format "$top_builddir/tests/plugins" kernels
"$top_builddir/tests/plugins/opencl-globals" "$plugins/devimg-opencl.so" \
	other "$top_builddir/tests/plugins/kernels.$ext" >"$scratch/out"
rc=$?
cat "$scratch/out"
[ "$rc" -eq 0 ] || exit "$rc"
grep -q "^# global_write(\"9f3c1a7e52d04b68____ZL7counter\"): device \".*\" does not offer cl_intel_global_variable_access" \
	"$scratch/out" || fail "no -ENOTSUP message naming the extension"
