#!/bin/sh
# A module that does not build: its import resolves against nothing.
# zeModuleCreate gives the module (Level Zero links later), the plugin
# finds the import (zeModuleGetProperties) and links the module alone,
# zeModuleDynamicLink fails, and the log the driver returns
# (zeModuleBuildLogGetString) reaches devimg_last_error() with the calls,
# the result and the build flags. Nothing is left alive.
. "$top_srcdir/tests/level_zero/common.sh"

assemble broken
printf 'broken_k\n' >"$scratch/broken.sym"
lib broken -target=spir64 -format=spirv -compile-opts=-ze-opt-level=2 \
	-entries="$scratch/broken.sym" "$scratch/broken.spv"
use_driver
contract broken "$scratch/libbroken.so"

grep -q 'build flags "-ze-opt-level=2"' "$scratch/out" ||
	fail "the build flags are not in the message"
expect_match ': zeModuleCreate module=1 format=IL_SPIRV size=[0-9]+ flags="-ze-opt-level=2" constants=none kernels=broken_k$'
expect_call ': zeModuleGetProperties module=1 flags=imports'
expect_call ": zeModuleDynamicLink modules=1 -> ZE_RESULT_ERROR_MODULE_LINK_FAILURE (error: undefined reference to 'devimg_dispatch_missing' in module 1: no module of the link exports it"
expect_match ': zeModuleBuildLogGetString log=2 size=[0-9]+ \(copied\)$'
expect_call ': zeModuleBuildLogDestroy log=1'
expect_call ': zeModuleBuildLogDestroy log=2'
expect_call ': zeModuleDestroy module=1'
expect_no_match 'zeKernelCreate'
expect_all_destroyed
echo "ok a build failure carries the driver's build log"
