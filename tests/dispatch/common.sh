# Sourced by tests/dispatch/dispatch.sh and tests/compress/compress-launch.sh:
# PoCL through the OpenCL plugin, with the kernels of tests/dispatch
# (made at build time) in the format the device takes: device_format
# (tests/lib.sh) sets fmt and ext; spec names spec_k's image, spec-native
# for SPIR-V (native spec constants) or spec for SPIR bitcode (emulated),
# and spec_path says which. Sets plugins, run (dispatch-run), WRAP, src
# (the sources) and bc (the built kernels); skips without devimg-wrap,
# the OpenCL plugin or, for SPIR-V, spec-native.spv.
# shellcheck shell=sh
. "$top_srcdir/tests/lib.sh"

plugins=$top_builddir/plugins/.libs
run=$top_builddir/tests/dispatch/dispatch-run
WRAP=$top_builddir/devimg-wrap
src=$top_srcdir/tests/dispatch
bc=$top_builddir/tests/dispatch
[ -x "$WRAP" ] || skip build "devimg-wrap is not built"
[ -f "$plugins/devimg-opencl.so" ] || skip opencl "OpenCL plugin not built"
: "${CC:=cc}"

pocl_env "opencl:*"
device_format "$bc" dispatch
# spec_k: SPIR-V has native spec constants, SPIR bitcode emulates them.
spec=spec
spec_path=emulated
if [ "$fmt" = spirv ]; then
	spec="spec-native"
	spec_path=native
	[ -f "$bc/$spec.spv" ] ||
		skip spirv-as "the device takes SPIR-V but $bc/$spec.spv is not built (configure found no spirv-as)"
fi
