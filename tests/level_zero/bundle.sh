#!/bin/sh
# Kernel bundles and device image linking through libdevimg on the Level
# Zero plugin and the recording driver (tests/level_zero/bundle-run.c):
#  spec        native spec constants set on an input bundle reach
#              zeModuleCreate, through devimg_bundle_build() and through
#              compile + link (zeModuleDynamicLink of that module alone);
#              the bundle's kernels launch from those modules, build
#              nothing and have fixed constants; devimg_kernel_new() gets
#              the module's defaults, which a bundle without values shares;
#  link        caller_k (link-caller.spvasm, importing helper) and a
#              kernel-less image exporting helper (link-helper.spvasm), in
#              two libraries: devimg_kernel_new(), an object bundle linked
#              with the registry's helper, one holding both images, and a
#              build all use the one zeModuleDynamicLink of both modules,
#              and every launch calls into the helper's module;
#  unresolved  the caller's library alone: -ENOEXEC naming 'helper'
#              before anything is linked.
. "$top_srcdir/tests/level_zero/common.sh"

bundle=$top_builddir/tests/level_zero/bundle-run
[ -x "$bundle" ] || fail "$bundle not built"

assemble spec
assemble link-caller
assemble link-helper
printf 'spec_k\n' >"$scratch/spec.sym"
printf 'caller_k\n' >"$scratch/caller.sym"
printf '[SYCL/imported symbols]\nhelper=1|1\n' >"$scratch/caller.props"
printf '[SYCL/exported symbols]\nhelper=1|1\n' >"$scratch/helper.props"
lib spec -target=spir64 -format=spirv -compile-opts=-ze-opt-level=1 \
	-entries="$scratch/spec.sym" -properties="$dispatch/spec.props" \
	"$scratch/spec.spv"
lib caller -target=spir64 -format=spirv -compile-opts=-caller \
	-entries="$scratch/caller.sym" -properties="$scratch/caller.props" \
	"$scratch/link-caller.spv"
lib helper -target=spir64 -format=spirv -compile-opts=-helper \
	-properties="$scratch/helper.props" "$scratch/link-helper.spv"

# group MODE LIB...: bundle-run on a fresh driver log; must succeed.
group() {
	use_driver
	mode=$1
	shift
	n=$#
	for l; do
		set -- "$@" "$scratch/lib$l.so"
	done
	shift "$n"
	rc=0
	"$bundle" "$mode" "$@" >"$scratch/out" 2>&1 || rc=$?
	cat "$scratch/out"
	[ "$rc" -eq 0 ] || fail "bundle-run $mode exited $rc"
}

# launched NAME VAL: the kernel (NAME#id) of the one launch of NAME whose
# value argument is the 4 bytes VAL; launch_module NAME VAL: its module.
launched() {
	l=$(grep -E ": zeCommandListAppendLaunchKernel list=1 kernel=$1#[0-9]+ .* args=mem[0-9]+,bytes:$2( |\$)" "$calls" || true)
	[ "$(printf '%s' "$l" | grep -c .)" -eq 1 ] ||
		fail "not one launch of $1 with bytes:$2:
$(cat "$calls")"
	printf '%s\n' "$l" | sed 's/.* kernel=\([^ ]*\) .*/\1/'
}
launch_module() {
	k=$(launched "$1" "$2")
	m=$(grep -E ": zeKernelCreate kernel=$k module=[0-9]+\$" "$calls" |
		sed 's/.* module=//')
	[ -n "$m" ] || fail "no zeKernelCreate of $k"
	echo "$m"
}
# created RE: the id of the one module whose zeModuleCreate matches RE.
created() {
	expect_count 1 ": zeModuleCreate module=[0-9]+ $1"
	grep -E ": zeModuleCreate module=[0-9]+ $1" "$calls" |
		sed 's/.* module=\([0-9]*\) .*/\1/'
}

# ---- spec ----
group spec spec
ssize=$(wc -c <"$scratch/spec.spv")
f="format=IL_SPIRV size=$ssize flags=\"-ze-opt-level=1\""
expect_count 3 ': zeModuleCreate '
# ScalarSpec = 42 is SpecId 0; StructSpec = { 'x', 7 }: c SpecId 1, i 2.
built=$(created "$f constants=0:42,1:120,2:7 kernels=spec_k\$")
# ScalarSpec = 5 set on the input bundle before the compile.
compiled=$(created "$f constants=0:5,1:120,2:7 kernels=spec_k\$")
defaults=$(created "$f constants=none kernels=spec_k\$")
# The build resolves no import: no link. The compiled object is linked alone.
expect_count 1 ': zeModuleDynamicLink '
expect_call ": zeModuleDynamicLink modules=$compiled imports=none"
# Each launch came from its module: add 1 the build's, 2 the link's, 3
# devimg_kernel_new()'s; each once, with no buffer for the constants.
[ "$(launch_module spec_k 01000000)" = "$built" ] ||
	fail "the built bundle's launch is not of module $built"
[ "$(launch_module spec_k 02000000)" = "$compiled" ] ||
	fail "the linked bundle's launch is not of module $compiled"
[ "$(launch_module spec_k 03000000)" = "$defaults" ] ||
	fail "devimg_kernel_new()'s launch is not of module $defaults"
expect_count 3 ': zeCommandListAppendLaunchKernel list=1 kernel=spec_k#[0-9]+ groups=1,1,1 group_size=1,1,1 offset=0,0,0 args=mem[0-9]+,bytes:0[123]000000$'
expect_no_match ' -> ZE_RESULT'
expect_all_destroyed
echo "ok spec constants set on an input bundle reach zeModuleCreate"

# ---- link ----
group link caller helper
csize=$(wc -c <"$scratch/link-caller.spv")
hsize=$(wc -c <"$scratch/link-helper.spv")
expect_count 2 ': zeModuleCreate '
c=$(created "format=IL_SPIRV size=$csize flags=\"-caller\" constants=none kernels=caller_k,twin\$")
h=$(created "format=IL_SPIRV size=$hsize flags=\"-helper\" constants=none kernels=fill,twin\$")
# One link of both, the caller's import resolved in the helper's module:
# the bundles' programs are devimg_kernel_new()'s.
expect_count 1 ': zeModuleDynamicLink '
expect_call ": zeModuleDynamicLink modules=$c,$h imports=$c:helper@$h"
for v in 06 07 08; do
	[ "$(launch_module caller_k ${v}000000)" = "$c" ] ||
		fail "the launch with $v is not of the caller's module $c"
	expect_count 1 ": zeCommandListAppendLaunchKernel list=1 kernel=caller_k#[0-9]+ groups=1,1,1 group_size=4,1,1 offset=0,0,0 args=mem[0-9]+,bytes:${v}000000 calls=helper@$h\$"
done
expect_count 3 ': zeCommandListAppendLaunchKernel '
expect_no_match ': zeKernelCreate kernel=[a-z_]+#[0-9]+ module='"$h"'$'
expect_no_match ' -> ZE_RESULT'
expect_all_destroyed
echo "ok caller_k linked with the helper's image of another library"

# ---- unresolved ----
group unresolved caller
grep -qF "imports 'helper', which no registered image compatible with" \
	"$scratch/out" || fail "the message does not name the symbol"
# Only the object bundle's compile reached the driver: nothing linked,
# no kernel.
expect_count 1 ': zeModuleCreate '
expect_call "flags=\"-caller\" constants=none kernels=caller_k,twin"
expect_no_match 'zeModuleDynamicLink|zeKernelCreate|zeCommandListAppendLaunchKernel'
expect_no_match ' -> ZE_RESULT'
expect_all_destroyed
echo "ok without the helper's library: -ENOEXEC naming 'helper'"
