#!/bin/sh
# Native specialization constants on Level Zero: the image's spec-constant
# properties (tests/dispatch/spec.props) map the user's values to SpecIds
# that the plugin passes as ze_module_constants_t at zeModuleCreate. The
# defaults are the module's own (no constants passed); each new set of
# values is one module; a set seen before comes from the program cache.
. "$top_srcdir/tests/level_zero/common.sh"

assemble spec
printf 'spec_k\n' >"$scratch/spec.sym"
lib spec -target=spir64 -format=spirv -compile-opts=-ze-opt-level=1 \
	-entries="$scratch/spec.sym" -properties="$dispatch/spec.props" \
	"$scratch/spec.spv"
use_driver
contract spec "$scratch/libspec.so"

m=': zeModuleCreate module=[0-9]+ format=IL_SPIRV size=[0-9]+ flags="-ze-opt-level=1"'
expect_count 4 ': zeModuleCreate '
expect_count 1 "$m constants=none kernels=spec_k$"
# ScalarSpec = 55: SpecId 0.
expect_count 1 "$m constants=0:55 kernels=spec_k$"
# StructSpec = { 9, 4242 }: c is SpecId 1 (1 byte), i SpecId 2 after the
# padding; ScalarSpec stays.
expect_count 1 "$m constants=0:55,1:9,2:4242 kernels=spec_k$"
expect_count 1 "$m constants=0:-1,1:9,2:4242 kernels=spec_k$"
# Back to 55 (module 3's values), then 55 set again, then every value
# back to its default (module 1's): cached modules, no fifth build.
expect_count 3 ': zeKernelCreate kernel=spec_k#[0-9]+ module=3$'
expect_count 2 ': zeKernelCreate kernel=spec_k#[0-9]+ module=1$'
expect_count 0 ' -> ZE_RESULT'
# Every kernel made from a module gets the recorded arguments again: 2,
# no buffer for the constants. Eight launches (dispatch_spec's, one a
# relaunch with values unchanged), seven kernels: a launch after a set
# makes its kernel again, from the cached module.
expect_count 7 ': zeKernelGetProperties kernel=spec_k#[0-9]+ numKernelArgs=2$'
expect_count 8 ': zeCommandListAppendLaunchKernel list=1 kernel=spec_k#[0-9]+ groups=1,1,1 group_size=1,1,1 offset=0,0,0 args=mem1,bytes:0a000000$'
expect_all_destroyed
echo "ok spec constants reach zeModuleCreate: defaults, overrides, changes"
