#!/bin/sh
# A driver without ZE_experimental_global_offset: a launch with a non-zero
# offset fails -ENOTSUP with a message naming the extension, and nothing
# reaches the driver; zero offsets and none launch as usual.
. "$top_srcdir/tests/level_zero/common.sh"

assemble kernels
lib main -target=spir64 -format=spirv -entries="$dispatch/dispatch.sym" \
	"$scratch/kernels.spv"
use_driver
ZE_RECORDING_NO_GLOBAL_OFFSET=1
export ZE_RECORDING_NO_GLOBAL_OFFSET
contract nooffset "$scratch/libmain.so"

grep -q "^ok no extension: launching kernel 'off2' on .*: launch(off2) with global offset 0x2x0: Level Zero driver 0 does not report the ZE_experimental_global_offset extension$" \
	"$scratch/out" || fail "unexpected message"
expect_call ': zeDriverGetExtensionProperties count=2 (names)'
expect_no_match 'zeDriverGetExtensionFunctionAddress|zeKernelSetGlobalOffsetExp'
expect_count 2 ': zeCommandListAppendLaunchKernel list=1 kernel=off2#[0-9]+ groups=1,1,1 group_size=5,4,1 offset=0,0,0 '
expect_no_match ' -> ZE_RESULT'
expect_all_destroyed
echo "ok without the extension, offsets fail with its name"
