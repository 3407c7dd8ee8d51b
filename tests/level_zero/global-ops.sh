#!/bin/sh
# The Level Zero plugin's device-global operations on the recording
# driver, through global-ops: variables found by their HostAccessINTEL
# names with zeModuleGetGlobalPointer, copies appended to the queue's
# list, ranges and unknown names refused with messages that name the
# variable, a buffer's address stored in the pointer global, the counter
# of a program linked from kernels.spv and globals.spv.
. "$top_srcdir/tests/level_zero/common.sh"

assemble globals
assemble kernels
use_driver
rc=0
"$top_builddir/tests/level_zero/global-ops" "$plugin" il \
	"$scratch/globals.spv" 0 "$scratch/kernels.spv" >"$scratch/out" 2>&1 ||
	rc=$?
cat "$scratch/out"
[ "$rc" -eq 0 ] || fail "global-ops exited $rc"

expect_call ": zeModuleGetGlobalPointer module=1 name=devimg_test_counter size=16"
expect_call ": zeModuleGetGlobalPointer module=1 name=devimg_test_ptr size=8"
expect_call ": zeModuleGetGlobalPointer -> ZE_RESULT_ERROR_INVALID_GLOBAL_NAME (module=1 has no global \"devimg_no_such\")"
expect_match ": zeCommandListAppendMemoryCopy list=[0-9]+ dst=.* size=16$"
# Linked from kernels (module 2) and globals (module 3): module 2 has no
# counter, module 3 gives it.
expect_call ": zeModuleGetGlobalPointer -> ZE_RESULT_ERROR_INVALID_GLOBAL_NAME (module=2 has no global \"devimg_test_counter\")"
expect_call ": zeModuleGetGlobalPointer module=3 name=devimg_test_counter size=16"
expect_all_destroyed
echo "ok the Level Zero plugin's device-global operations"

# A driver that says ZE_RESULT_ERROR_INVALID_ARGUMENT for an unknown name,
# as Intel's did before ZE_RESULT_ERROR_INVALID_GLOBAL_NAME: still -ENOENT.
use_driver
rc=0
ZE_RECORDING_OLD_GLOBALS=1 "$top_builddir/tests/level_zero/global-ops" \
	"$plugin" il "$scratch/globals.spv" >"$scratch/out" 2>&1 || rc=$?
cat "$scratch/out"
[ "$rc" -eq 0 ] || fail "global-ops on the older driver exited $rc"
expect_call ": zeModuleGetGlobalPointer -> ZE_RESULT_ERROR_INVALID_ARGUMENT (module=1 has no global \"devimg_no_such\")"
expect_all_destroyed
echo "ok an unknown name is -ENOENT on drivers that answer INVALID_ARGUMENT"
