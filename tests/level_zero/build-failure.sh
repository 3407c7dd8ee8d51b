#!/bin/sh
# A module that does not build: zeModuleCreate fails, and the build log
# the driver returns (zeModuleBuildLogGetString) reaches
# devimg_last_error() with the call, its result and the build flags.
. "$top_srcdir/tests/level_zero/common.sh"

assemble broken
printf 'broken_k\n' >"$scratch/broken.sym"
lib broken -target=spir64 -format=spirv -compile-opts=-ze-opt-level=2 \
	-entries="$scratch/broken.sym" "$scratch/broken.spv"
use_driver
contract broken "$scratch/libbroken.so"

grep -q 'build flags "-ze-opt-level=2"' "$scratch/out" ||
	fail "the build flags are not in the message"
expect_match ': zeModuleCreate module=1 format=IL_SPIRV size=[0-9]+ flags="-ze-opt-level=2" constants=none kernels=broken_k -> ZE_RESULT_ERROR_MODULE_BUILD_FAILURE$'
expect_match ': zeModuleBuildLogGetString log=1 size=[0-9]+ \(copied\)$'
expect_call ': zeModuleBuildLogDestroy log=1'
expect_no_match 'zeKernelCreate'
expect_all_destroyed
echo "ok a build failure carries the driver's build log"
