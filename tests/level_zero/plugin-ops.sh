#!/bin/sh
# The plugin's operations called directly on the recording driver: device
# info, SPIR refused, a SPIR-V build with its log, the native binary of it
# built again as ZE_MODULE_FORMAT_NATIVE, spec constants, errors naming
# the vendor call and result, copies, per-thread messages.
. "$top_srcdir/tests/level_zero/common.sh"

assemble kernels
assemble spec
use_driver
rc=0
"$top_builddir/tests/level_zero/plugin-ops" "$plugin" "$scratch/kernels.spv" \
	"$scratch/spec.spv" >"$scratch/out" 2>&1 || rc=$?
cat "$scratch/out"
[ "$rc" -eq 0 ] || fail "plugin-ops exited $rc"

size=$(wc -c <"$scratch/kernels.spv")
expect_call ": zeModuleCreate module=1 format=IL_SPIRV size=$size flags=\"-ze-opt-level=1\" constants=none kernels=vadd,off1,off2,off3,reduce"
expect_call ": zeModuleGetNativeBinary module=1 size=$((size + 8)) (copied)"
expect_call ": zeModuleCreate module=2 format=NATIVE size=$((size + 8)) flags=\"\" constants=none kernels=vadd,off1,off2,off3,reduce"
# SpecId 0 set twice (the last value), 2, then 1 (a byte, 200 = -56).
expect_match ': zeModuleCreate module=3 format=IL_SPIRV size=[0-9]+ flags="-spec" constants=0:-7,2:5,1:-56 kernels=spec_k$'
expect_match ': zeModuleCreate module=4 format=NATIVE size=4 flags="-g" .* -> ZE_RESULT_ERROR_INVALID_NATIVE_BINARY$'
expect_call ': zeKernelSetArgumentValue -> ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE (kernel=reduce#1 index=0 size=16: a pointer takes 8 bytes)'
expect_all_destroyed
echo "ok the plugin's operations on the recording driver"
