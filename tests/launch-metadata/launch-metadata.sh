#!/bin/sh
# Launch metadata end to end on PoCL (docs/launch-metadata.md): kernels in
# OpenCL C compiled at build time (tests/launch-metadata/local.mk) to
# SPIR 1.2 bitcode and SPIR-V; SPIR-V is wrapped where the device takes IL, else the bitcode
# (device_format in tests/lib.sh), with .sym/.props written by hand in the
# sycl-post-link text format, into shared libraries that launch-run opens.
# Checks argument tables (arrays by value, arrays of buffers, buffers in a
# struct), eliminated arguments (launch.props: elim's argument 1 of 4;
# elim-spec.props with spec constants: emulated in SPIR bitcode, native in
# SPIR-V, from the twin elim-spec-native.spvasm), a required work-group
# size (5x2) and image selection by device requirements.
. "$top_srcdir/tests/launch-metadata/common.sh"

img=$top_builddir/tests/launch-metadata
[ -x "$WRAP" ] || skip build "devimg-wrap is not built"
[ -f "$plugins/devimg-opencl.so" ] || skip opencl "OpenCL plugin not built"

cd "$scratch"
pocl_env opencl:cpu
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export LSAN_OPTIONS

# SPIR-V where the device takes IL, with elim-spec's native twin and its
# spec constant set natively; else SPIR bitcode, the spec constant in the
# buffer the loader passes as elim-spec.cl's last argument.
device_format "$img" launch
if [ "$fmt" = spirv ]; then
	elimspec=elim-spec-native spec=native
	[ -f "$img/$elimspec.spv" ] ||
		skip spirv-as "the device takes SPIR-V but $img/$elimspec.spv is not built (configure found no spirv-as)"
else
	elimspec=elim-spec spec=emulated
fi
for f in launch "$elimspec" which-1 which-2; do
	cp "$img/$f.$ext" . || fail "$img/$f.$ext is missing"
done

lib launch -target=spir64 -format=$fmt -entries="$src/launch.sym" \
	-properties="$src/launch.props" launch.$ext
for mode in args elim wg; do
	run $mode "$scratch/liblaunch.so"
done
if [ "$spec" = native ]; then
	# elim_spec's mask counts the emulated buffer as its last argument
	# (4, argument 1 eliminated); natively there is none, so the SPIR-V
	# image's mask of elim_spec is elim_spec_short's (3, argument 1
	# eliminated).
	short=$(sed -n 's/^elim_spec_short=//p' "$src/elim-spec.props")
	[ -n "$short" ] || fail "no mask of elim_spec_short in elim-spec.props"
	sed "s#^elim_spec=.*#elim_spec=$short#" "$src/elim-spec.props" \
		>elim-spec.props
	grep -qx "elim_spec=$short" elim-spec.props ||
		fail "no mask of elim_spec in elim-spec.props"
	props=$scratch/elim-spec.props
else
	props=$src/elim-spec.props
fi
lib elimspec -target=spir64 -format=$fmt -entries="$src/elim-spec.sym" \
	-properties="$props" "$elimspec.$ext"
run elimspec "$scratch/libelimspec.so" "$spec"

# Device requirements: which aspect the device lacks, which it has.
# Image 0 is for the CPU's own target, so it would be preferred, but it
# needs the lacking aspect; image 1 (spir64) needs cpu and the present one.
run probe "$scratch/liblaunch.so"
requirements 1 "$fmt" "$ext" spir64_x86_64 spir64
exit 0
