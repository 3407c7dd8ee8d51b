#!/bin/sh
# Kernel bundles on PoCL (tests/bundle/common.sh), the images in the format
# the device takes (tests/lib.sh's device_format), built at build time.
# SPIR-V (a device that takes IL): link_caller is compiled and linked with
# the helper's image and run, and spec_k has native spec constants where
# the device sets them (spec-native.spv: one program per set of values).
# SPIR bitcode: PoCL cannot compile SPIR separately, so linking an image
# with the one it imports from must fail with a clear error, and spec_k
# emulates its spec constants (tests/dispatch/spec.bc).
ldir=$top_builddir/tests/bundle
kdir=$top_builddir/tests/dispatch
base_target=spir64
targets="spir64_x86_64 spir64"
selector=opencl:cpu
device_cap=opencl-device
[ -f "$top_builddir/plugins/.libs/devimg-opencl.so" ] ||
	{ echo "SKIP [opencl]: OpenCL plugin not built"; exit 77; }
. "$top_srcdir/tests/lib.sh"
selector=$(opencl_selector "$selector")
DEVIMG_DEVICE_SELECTOR=$selector
device_format "$ldir" link-caller
which1=$top_builddir/tests/launch-metadata/which-1.$ext
which2=$top_builddir/tests/launch-metadata/which-2.$ext
spec_mode=emulated
if [ "$fmt" = spirv ]; then
	link=${DEVIMG_TEST_LINK:-run}
	# llvm-spirv must keep the linkage of the OpenCL C declarations.
	spirv_dis=$(command -v spirv-dis) ||
		skip spirv-as "no spirv-dis (SPIRV-Tools) to read the linkage"
	"$spirv_dis" -o "$scratch/link-caller.spvasm" "$ldir/link-caller.spv" ||
		fail "spirv-dis $ldir/link-caller.spv failed"
	"$spirv_dis" -o "$scratch/link-helper.spvasm" "$ldir/link-helper.spv" ||
		fail "spirv-dis $ldir/link-helper.spv failed"
	grep -q 'LinkageAttributes "devimg_link_helper" Import' \
		"$scratch/link-caller.spvasm" ||
		fail "link-caller.spv does not import devimg_link_helper"
	grep -q 'LinkageAttributes "devimg_link_helper" Export' \
		"$scratch/link-helper.spvasm" ||
		fail "link-helper.spv does not export devimg_link_helper"
	# What the device does with the spec constants of SPIR-V, as
	# devimg-ls prints it: "native" or "emulated".
	(
		DEVIMG_PLUGIN_PATH=$top_builddir/plugins/.libs
		DEVIMG_DEVICE_SELECTOR=$selector
		POCL_CACHE_DIR=$scratch/pocl-cache
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
		export DEVIMG_PLUGIN_PATH DEVIMG_DEVICE_SELECTOR POCL_CACHE_DIR \
			ASAN_OPTIONS
		mkdir -p "$POCL_CACHE_DIR"
		devimg_ls "$scratch/ls.out" "$scratch/ls.err"
	) || fail "devimg-ls failed: $(cat "$scratch/ls.err")"
	spec_mode=$(sed -n '/^\[opencl:/{s/.*spec-constants: \([a-z]*\).*/\1/p;q;}' \
		"$scratch/ls.out")
	case $spec_mode in
	native)
		spec_img=$ldir/spec-native.spv
		[ -f "$spec_img" ] ||
			skip spirv-as "$spec_img is not built (configure found no spirv-as)"
		;;
	emulated) ;;
	*) fail "devimg-ls shows no spec-constant mode for $selector" ;;
	esac
else
	link=${DEVIMG_TEST_LINK:-notsup}
fi
echo "# spec constants: $spec_mode; linking: $link"
. "$top_srcdir/tests/bundle/common.sh"
