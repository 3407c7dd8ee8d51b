#!/bin/sh
# Two drivers: the loader wraps every handle it gives out and translates
# them in its own entry points, so the plugin must call those (not a
# driver's function address) for the global offset too. Two copies of the
# recording driver; the second one's device runs the kernels.
. "$top_srcdir/tests/level_zero/common.sh"

assemble kernels
lib main -target=spir64 -format=spirv -entries="$dispatch/dispatch.sym" \
	"$scratch/kernels.spv"
second=$scratch/libze_recording_driver_b.so
cp "$driver" "$second" || fail "cannot copy the driver"
DEVIMG_DEVICE_SELECTOR=level_zero:1
use_driver "$driver" "$second"
contract kernels "$scratch/libmain.so"

grep -q "^device: Recording GPU (libze_recording_driver_b.so) (level_zero)$" \
	"$scratch/out" || fail "device 1 is not the second driver's"
b='libze_recording_driver_b.so: '
expect_match "^${b}zeModuleCreate module=1 format=IL_SPIRV "
expect_match "^${b}zeKernelSetGlobalOffsetExp kernel=off3#[0-9]+ offset=3,2,1$"
expect_match "^${b}zeCommandListAppendLaunchKernel list=1 kernel=off3#[0-9]+ groups=1,1,1 group_size=5,4,3 offset=3,2,1 "
expect_no_match '^libze_recording_driver.so: zeModuleCreate'
expect_count 2 'exit live:'
expect_no_match ' -> ZE_RESULT'
expect_all_destroyed
echo "ok with two drivers, offsets go through the loader's entry point"
