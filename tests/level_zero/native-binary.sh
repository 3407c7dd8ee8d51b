#!/bin/sh
# A native image (the recording driver's own binary format, as
# zeModuleGetNativeBinary gives it) beside a SPIR-V one: the loader picks
# the spir64_gen image for Level Zero and the plugin builds it as
# ZE_MODULE_FORMAT_NATIVE, with the image's build flags.
. "$top_srcdir/tests/level_zero/common.sh"

assemble kernels
{ printf 'ZERECNAT'; cat "$scratch/kernels.spv"; } >"$scratch/kernels.bin"
lib native -target=spir64 -format=spirv -compile-opts=-from-spirv \
	-entries="$dispatch/dispatch.sym" "$scratch/kernels.spv" \
	-target=spir64_gen -format=native -compile-opts=-from-native \
	-entries="$dispatch/dispatch.sym" "$scratch/kernels.bin"
use_driver
contract native "$scratch/libnative.so"

size=$(wc -c <"$scratch/kernels.bin")
expect_count 1 ': zeModuleCreate '
expect_call ": zeModuleCreate module=1 format=NATIVE size=$size flags=\"-from-native\" constants=none kernels=vadd,off1,off2,off3,reduce"
expect_match ': zeCommandListAppendLaunchKernel list=1 kernel=vadd#[0-9]+ groups=1,1,1 group_size=16,1,1 offset=0,0,0 args=mem1,mem2,mem3$'
expect_no_match ' -> ZE_RESULT'
expect_all_destroyed
echo "ok a native image is built as ZE_MODULE_FORMAT_NATIVE"
