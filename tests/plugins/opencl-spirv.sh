#!/bin/sh
# The OpenCL plugin's SPIR-V path: program from IL and native
# specialization constants, on a device that takes SPIR-V (none on PoCL
# 3.1, which has no IL version: skipped there).
. "$top_srcdir/tests/lib.sh"

plugins=$top_builddir/plugins/.libs
[ -f "$plugins/devimg-opencl.so" ] || skip opencl "OpenCL plugin not built"
spirv_as=$(command -v spirv-as) || skip spirv-as "no spirv-as (SPIRV-Tools) to assemble the kernel"
"$spirv_as" --target-env spv1.0 -o "$scratch/fill.spv" \
	"$top_srcdir/tests/plugins/fill.spvasm" || fail "spirv-as failed"

mkdir -p "$scratch/pocl-cache"
POCL_CACHE_DIR=$scratch/pocl-cache
DEVIMG_PLUGIN_PATH=$plugins
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH LSAN_OPTIONS

"$top_builddir/tests/plugins/opencl-spirv" "$scratch/fill.spv"
