#!/bin/sh
# Threads with their own queues, kernels and buffers on one Level Zero
# device: one module for all, every round trip intact, every launch
# recorded, everything destroyed.
. "$top_srcdir/tests/level_zero/common.sh"

assemble kernels
lib main -target=spir64 -format=spirv -entries="$dispatch/dispatch.sym" \
	"$scratch/kernels.spv"
use_driver
contract threads "$scratch/libmain.so"

expect_count 1 ': zeModuleCreate '
expect_count 5 ': zeCommandQueueCreate '
expect_count 40 ': zeCommandListAppendLaunchKernel list=[0-9]+ kernel=vadd#[0-9]+ groups=4,1,1 group_size=64,1,1 offset=0,0,0 args=mem[0-9]+,mem[0-9]+,mem[0-9]+$'
expect_no_match ' -> ZE_RESULT'
expect_all_destroyed
echo "ok threads share one module and keep their own queues"
