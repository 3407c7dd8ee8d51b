#!/bin/sh
# The dispatch suite's kernels through the Level Zero plugin, the real
# loader and the recording driver: SPIR-V modules with the image's build
# flags, argument sizes (buffer pointers, values, local memory as a size
# with no value), group sizes suggested or given, group counts, global
# offsets in 1 to 3 dimensions, submission and clean-up.
. "$top_srcdir/tests/level_zero/common.sh"

assemble kernels
lib main -target=spir64 -format=spirv -compile-opts=-ze-opt-level=2 \
	-link-opts=-ze-opt-large-register-file \
	-entries="$dispatch/dispatch.sym" "$scratch/kernels.spv"
use_driver
contract kernels "$scratch/libmain.so"

size=$(wc -c <"$scratch/kernels.spv")
expect_count 1 ': zeModuleCreate '
expect_call ": zeModuleCreate module=1 format=IL_SPIRV size=$size flags=\"-ze-opt-level=2 -ze-opt-large-register-file\" constants=none kernels=vadd,off1,off2,off3,reduce"
expect_call ": zeDriverGetExtensionFunctionAddress name=zeKernelSetGlobalOffsetExp"
# Queues of the compute group (1), not the copy-only one the driver lists first.
expect_match ': zeCommandQueueCreate queue=1 context=1 ordinal=1 mode=async$'
expect_match ': zeCommandListCreate list=1 context=1 ordinal=1$'

# vadd: three 8-byte pointers; the driver suggests 50 for 1000 work-items.
expect_match ': zeKernelGetProperties kernel=vadd#[0-9]+ numKernelArgs=3$'
for i in 0 1 2; do
	expect_match ": zeKernelSetArgumentValue kernel=vadd#[0-9]+ index=$i size=8 value=mem[0-9]+$"
done
expect_match ': zeKernelSuggestGroupSize kernel=vadd#[0-9]+ global=1000,1,1 -> 50,1,1$'
expect_match ': zeKernelSetGroupSize kernel=vadd#[0-9]+ size=50,1,1$'
expect_match ': zeCommandListAppendLaunchKernel list=1 kernel=vadd#[0-9]+ groups=20,1,1 group_size=50,1,1 offset=0,0,0 args=mem1,mem2,mem3$'
expect_count 1 'zeCommandListAppendLaunchKernel list=1 kernel=vadd'

# reduce: a 4-byte value and 32 ints of local memory (size, no value),
# in the given groups of 32: nothing suggested.
expect_match ': zeKernelSetArgumentValue kernel=reduce#[0-9]+ index=1 size=4 value=bytes:03000000$'
expect_match ': zeKernelSetArgumentValue kernel=reduce#[0-9]+ index=2 size=128 value=NULL$'
expect_match ': zeCommandListAppendLaunchKernel list=1 kernel=reduce#[0-9]+ groups=8,1,1 group_size=32,1,1 offset=0,0,0 args=mem[0-9]+,bytes:03000000,local:128,mem[0-9]+$'
expect_no_match 'zeKernelSuggestGroupSize kernel=reduce'

# Offsets {3, 2, 1} over {5, 4, 3}, then the same launch without offset:
# the kernel's offset is set back to zero once.
expect_match ': zeKernelSetGlobalOffsetExp kernel=off1#[0-9]+ offset=3,0,0$'
expect_match ': zeKernelSetGlobalOffsetExp kernel=off2#[0-9]+ offset=3,2,0$'
expect_match ': zeKernelSetGlobalOffsetExp kernel=off3#[0-9]+ offset=3,2,1$'
for k in off1 off2 off3; do
	expect_count 1 "zeKernelSetGlobalOffsetExp kernel=$k#[0-9]+ offset=0,0,0$"
done
expect_match ': zeCommandListAppendLaunchKernel list=1 kernel=off1#[0-9]+ groups=1,1,1 group_size=5,1,1 offset=3,0,0 args=mem[0-9]+$'
expect_match ': zeCommandListAppendLaunchKernel list=1 kernel=off2#[0-9]+ groups=1,1,1 group_size=5,4,1 offset=3,2,0 args=mem[0-9]+,bytes:08000000$'
expect_match ': zeCommandListAppendLaunchKernel list=1 kernel=off3#[0-9]+ groups=1,1,1 group_size=5,4,3 offset=3,2,1 args=mem[0-9]+,bytes:08000000,bytes:06000000$'
expect_match ': zeCommandListAppendLaunchKernel list=1 kernel=off3#[0-9]+ groups=1,1,1 group_size=5,4,3 offset=0,0,0 '
expect_match ': zeKernelSetArgumentValue kernel=off2#[0-9]+ index=1 size=4 value=bytes:08000000$'
# offN and its buffer were released with two launches pending: those ran
# first (the driver refuses to destroy what a pending command uses), the
# one released first right after them: off1, then the buffers of off2, off3.
after_pending() {
	grep -A 4 'zeCommandListClose list=1 commands=4$' "$calls" |
		grep -E "$1" | grep -c -E "$2" || true
}
first_kernels=$(after_pending 'zeKernelDestroy|zeMemFree' 'zeKernelDestroy kernel=off1')
first_buffers=$(after_pending 'zeKernelDestroy|zeMemFree' 'zeMemFree')
if [ "$first_kernels" -ne 1 ] || [ "$first_buffers" -ne 2 ]; then
	fail "what was released with launches pending was not destroyed right after they ran:
$(grep -A 4 'zeCommandListClose list=1 commands=4$' "$calls")"
fi

# vadd in groups of 64 does not divide 1000: refused before the driver.
expect_no_match 'kernel=vadd#[0-9]+ size=64,1,1'
# Commands ran on finish and blocking copies; the list was reused.
expect_match ': zeCommandQueueExecuteCommandLists queue=1 lists=1 commands=[0-9]+ copies=[0-9]+ launches=1$'
expect_match ': zeCommandQueueSynchronize queue=1 timeout=max$'
expect_no_match ' -> ZE_RESULT'
expect_all_destroyed
echo "ok the driver's log shows formats, flags, arguments, groups and offsets"
