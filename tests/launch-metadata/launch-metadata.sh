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
. "$top_srcdir/tests/lib.sh"

plugins=$top_builddir/plugins/.libs
run=$top_builddir/tests/launch-metadata/launch-run
WRAP=$top_builddir/devimg-wrap
src=$top_srcdir/tests/launch-metadata
img=$top_builddir/tests/launch-metadata
[ -x "$WRAP" ] || skip "devimg-wrap is not built"
[ -f "$plugins/devimg-opencl.so" ] || skip "OpenCL plugin not built"
: "${CC:=cc}"

# run MODE LIB [ARG]: launch-run, its output shown; 77 skips the test.
run() {
	rc=0
	"$run" "$@" >"$scratch/out.$1" 2>"$scratch/err.$1" || rc=$?
	cat "$scratch/out.$1" "$scratch/err.$1"
	[ "$rc" -ne 77 ] || skip "PoCL shows no OpenCL CPU device ($1)"
	[ "$rc" -eq 0 ] || fail "launch-run $1 exited $rc"
}

# aspects ID...: an "aspects" property holding uint32 ids (LSB-first
# base64 of docs/formats.md section 2, precomputed: the shell has no encoder).
aspects() {
	case "$*" in
	2) echo 'aspects=2|gAAAAAAAAAgAAAAA' ;;
	5) echo 'aspects=2|gAAAAAAAAAQBAAAA' ;;
	6) echo 'aspects=2|gAAAAAAAAAgBAAAA' ;;
	9) echo 'aspects=2|gAAAAAAAAAQCAAAA' ;;
	28) echo 'aspects=2|gAAAAAAAAAAHAAAA' ;;
	'1 1') echo 'aspects=2|ABAAAAAAAAQAAAAABAAAAA' ;;
	'1 6') echo 'aspects=2|ABAAAAAAAAQAAAAAGAAAAA' ;;
	'1 9') echo 'aspects=2|ABAAAAAAAAQAAAAAJAAAAA' ;;
	'1 10') echo 'aspects=2|ABAAAAAAAAQAAAAAKAAAAA' ;;
	'1 12') echo 'aspects=2|ABAAAAAAAAQAAAAAMAAAAA' ;;
	'1 28') echo 'aspects=2|ABAAAAAAAAQAAAAAcAAAAA' ;;
	*) fail "no encoding for aspects $*" ;;
	esac
}

cd "$scratch"
mkdir -p pocl-cache
POCL_CACHE_DIR=$scratch/pocl-cache
DEVIMG_PLUGIN_PATH=$plugins
DEVIMG_DEVICE_SELECTOR=opencl:cpu
export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH DEVIMG_DEVICE_SELECTOR
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export LSAN_OPTIONS

# SPIR-V where the device takes IL, with elim-spec's native twin and its
# spec constant set natively; else SPIR bitcode, the spec constant in the
# buffer the loader passes as elim-spec.cl's last argument.
device_format "$img" launch
if [ "$fmt" = spirv ]; then
	elimspec=elim-spec-native spec=native
	[ -f "$img/$elimspec.spv" ] ||
		skip "the device takes SPIR-V but $img/$elimspec.spv is not built (configure found no spirv-as)"
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
run probe "$scratch/liblaunch.so"
set -- $(grep '^LACK ' out.probe)
[ $# -eq 3 ] || fail "probe: no LACK line"
lack=$2 lack_name=$3
set -- $(grep '^HAVE ' out.probe)
[ $# -eq 3 ] || fail "probe: no HAVE line"
have=$2

# Image 0 is for the CPU's own target, so it would be preferred, but it
# needs the lacking aspect; image 1 (spir64) needs cpu and the present one.
printf 'which\n' >which.sym
{ echo '[SYCL/device requirements]'; aspects "$lack"; } >needs-lacking.props
{ echo '[SYCL/device requirements]'; aspects 1 "$have"; } >needs-present.props
lib pick -format=$fmt -entries=which.sym \
	-target=spir64_x86_64 -properties=needs-lacking.props which-1.$ext \
	-target=spir64 -properties=needs-present.props which-2.$ext
lib nopick -format=$fmt -entries=which.sym \
	-target=spir64_x86_64 -properties=needs-lacking.props which-1.$ext
run pick "$scratch/libpick.so"
run nopick "$scratch/libnopick.so" "$lack_name"

# devimg-dump shows the same requirements decoded.
"$top_builddir/devimg-dump" pick.o >dump.txt || fail "devimg-dump pick.o"
grep -q "^      aspects = $lack_name\$" dump.txt ||
	fail "devimg-dump: $(cat dump.txt)"
exit 0
