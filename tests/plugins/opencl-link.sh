#!/bin/sh
# The OpenCL plugin's separate compilation and linking: two SPIR-V modules,
# one exporting helper() and one whose kernel imports it, compiled apart,
# linked and run, on a device that takes SPIR-V and compiles it separately
# (none on PoCL 3.1: skipped there; opencl-pocl.sh covers the refusals).
. "$top_srcdir/tests/lib.sh"

plugins=$top_builddir/plugins/.libs
[ -f "$plugins/devimg-opencl.so" ] || skip opencl "OpenCL plugin not built"
spirv_as=$(command -v spirv-as) || skip spirv-as "no spirv-as (SPIRV-Tools) to assemble the modules"
for m in link-helper link-caller; do
	"$spirv_as" --target-env spv1.0 -o "$scratch/$m.spv" \
		"$top_srcdir/tests/plugins/$m.spvasm" || fail "spirv-as $m.spvasm failed"
done

mkdir -p "$scratch/pocl-cache"
POCL_CACHE_DIR=$scratch/pocl-cache
DEVIMG_PLUGIN_PATH=$plugins
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH LSAN_OPTIONS

"$top_builddir/tests/plugins/opencl-run" --link \
	"$scratch/link-helper.spv" "$scratch/link-caller.spv"
