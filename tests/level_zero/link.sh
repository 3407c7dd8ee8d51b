#!/bin/sh
# program_compile and program_link on the recording driver: two objects
# compiled with their flags and spec constants (zeModuleCreate), linked
# (zeModuleDynamicLink over both, in the order given), kernels from the
# first module that has them, a launch that calls the helper's module;
# a link the caller alone cannot make, an ambiguous one, n = 0, objects
# that are not compiled; the objects released before the programs linked
# of them, and every module destroyed with the last of those; an object
# linked again, which Level Zero does not link twice.
. "$top_srcdir/tests/level_zero/common.sh"

assemble link-caller
assemble link-helper
use_driver
rc=0
"$top_builddir/tests/level_zero/link-ops" "$plugin" \
	"$scratch/link-caller.spv" "$scratch/link-helper.spv" \
	>"$scratch/out" 2>&1 || rc=$?
cat "$scratch/out"
[ "$rc" -eq 0 ] || fail "link-ops exited $rc"

csize=$(wc -c <"$scratch/link-caller.spv")
hsize=$(wc -c <"$scratch/link-helper.spv")
# Compiled: modules 1 (helper), 2 (caller), 3 (helper again).
expect_call ": zeModuleCreate module=1 format=IL_SPIRV size=$hsize flags=\"-helper\" constants=none kernels=fill,twin"
expect_call ": zeModuleCreate module=2 format=IL_SPIRV size=$csize flags=\"-caller\" constants=0:42 kernels=caller_k,twin"
expect_call ": zeModuleCreate module=3 format=IL_SPIRV size=$hsize flags=\"\" constants=none kernels=fill,twin"
# A compile does not resolve imports; a build does (module 4, none).
expect_no_match ': zeModuleGetProperties module=[123] '
expect_call ': zeModuleGetProperties module=4 flags=none'

# The links: the caller alone, ambiguous, then both orders.
expect_call ": zeModuleDynamicLink modules=2 -> ZE_RESULT_ERROR_MODULE_LINK_FAILURE (error: undefined reference to 'helper' in module 2: no module of the link exports it)"
expect_call ": zeModuleDynamicLink modules=2,1,3 -> ZE_RESULT_ERROR_MODULE_LINK_FAILURE (error: undefined reference to 'helper' in module 2: ambiguous: exported by several modules of the link)"
expect_call ': zeModuleDynamicLink modules=2,1 imports=2:helper@1'
expect_call ': zeModuleDynamicLink modules=1,2 imports=none'
expect_count 6 ': zeModuleDynamicLink '

# Kernels from the first module of the link that has them.
expect_match ': zeKernelCreate kernel=twin#[0-9]+ module=2$'
expect_match ': zeKernelCreate kernel=twin#[0-9]+ module=1$'
expect_call ': zeKernelCreate -> ZE_RESULT_ERROR_INVALID_KERNEL_NAME (module=2 name=fill)'
expect_match ': zeKernelCreate kernel=fill#[0-9]+ module=1$'
expect_count 2 ': zeKernelCreate kernel=caller_k#[0-9]+ module=2$'
expect_call ': zeKernelCreate -> ZE_RESULT_ERROR_INVALID_KERNEL_NAME (module=1 name=caller_k)'

# Launched before and after the objects' release, calling into module 1.
launch=': zeCommandListAppendLaunchKernel list=1 kernel=caller_k#[0-9]+ groups=1,1,1 group_size=4,1,1 offset=0,0,0 args=mem1,bytes:07000000 calls=helper@1$'
expect_count 2 "$launch"
line() { grep -nE -- "$1" "$calls" | tail -n 1 | cut -d: -f1; }
last=$(line "$launch")
[ "$(line ': zeModuleDestroy module=3$')" -lt "$last" ] ||
	fail "module 3 (an object in no link) outlived the launches"
for m in 1 2; do
	[ "$(line ": zeModuleDestroy module=$m$")" -gt "$last" ] ||
		fail "module $m destroyed before the last launch"
	[ "$(line ": zeModuleDestroy module=$m$")" -gt \
		"$(line ': zeKernelCreate kernel=caller_k#[0-9]+ module=2$')" ] ||
		fail "module $m destroyed before the last program linked of it"
done
# Linked again (modules 5 to 7): the caller keeps its first link's helper,
# which its object and program outlived.
expect_call ': zeModuleDynamicLink modules=5,6 imports=5:helper@6'
expect_call ': zeModuleDynamicLink modules=5,7 imports=none'
expect_match ': zeCommandListAppendLaunchKernel list=1 kernel=caller_k#[0-9]+ .* calls=helper@6$'
[ "$(line ': zeModuleDestroy module=6$')" -gt "$(line 'calls=helper@6$')" ] ||
	fail "module 6 destroyed before a launch that calls it"
expect_no_match 'OBJECT_IN_USE|which is destroyed'
expect_all_destroyed
echo "ok program_compile and program_link on the recording driver"
