# Sourced by bundle.sh (PoCL, SPIR bitcode) and bundle-cuda.sh (a GPU,
# PTX): wraps the test kernels of one backend into three libraries and
# runs tests/bundle/bundle-run's groups on them.
#  libbase:   off1 and vadd (dispatch), spec_k with spec constants, and
#             which in two images (the first preferred, writing 1; the
#             second writing 2);
#  libcaller: link_caller, importing devimg_link_helper;
#  libhelper: an image without kernels exporting devimg_link_helper.
# The caller sets: ext (spv, bc or ptx), kdir and ldir (where the
# dispatch and the link kernels were built),
# which1 and which2 (the built "which" images), targets (the targets of
# the two which images), fmt (devimg-wrap's -format), selector, link
# (what linking should do here: run or notsup); it may set spec_img (the
# spec_k image; $kdir/spec.$ext otherwise) and spec_mode (native or
# emulated: what the spec group checks of the programs made per value),
# and may have sourced tests/lib.sh already.
# shellcheck shell=sh
command -v device_format >/dev/null 2>&1 || . "$top_srcdir/tests/lib.sh"

plugins=$top_builddir/plugins/.libs
run=$top_builddir/tests/bundle/bundle-run
WRAP=$top_builddir/devimg-wrap
src=$top_srcdir/tests/bundle
[ -x "$WRAP" ] || skip build "devimg-wrap is not built"
[ -x "$run" ] || skip build "bundle-run is not built"
: "${CC:=cc}"
spec_img=${spec_img:-$kdir/spec.$ext}
for f in "$kdir/dispatch.$ext" "$spec_img" "$which1" "$which2" \
	"$ldir/link-caller.$ext" "$ldir/link-helper.$ext"; do
	case $f in
	*.spv) [ -f "$f" ] || skip llvm-spirv "$f is not built (configure found no llvm-spirv matching clang)" ;;
	*) [ -f "$f" ] || skip clang "$f is not built (configure found no clang)" ;;
	esac
done

cd "$scratch"
printf 'spec_k\n' >spec.sym
printf 'which\n' >which.sym
set -- $targets
# (devimg-wrap's options hold for the images after them: spec.props last.)
lib base -format="$fmt" -target="$base_target" \
	-entries="$top_srcdir/tests/dispatch/dispatch.sym" "$kdir/dispatch.$ext" \
	-entries=which.sym -target="$1" "$which1" -target="$2" "$which2" \
	-target="$base_target" -entries=spec.sym \
	-properties="$top_srcdir/tests/dispatch/spec.props" "$spec_img"
lib caller -format="$fmt" -target="$base_target" \
	-entries="$src/link-caller.sym" -properties="$src/link-caller.props" \
	"$ldir/link-caller.$ext"
lib helper -format="$fmt" -target="$base_target" \
	-properties="$src/link-helper.props" "$ldir/link-helper.$ext"

mkdir -p pocl-cache
POCL_CACHE_DIR=$scratch/pocl-cache
DEVIMG_PLUGIN_PATH=$plugins
DEVIMG_DEVICE_SELECTOR=$selector
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH DEVIMG_DEVICE_SELECTOR LSAN_OPTIONS

# group MODE LIB...: bundle-run must pass. 77 (no device) skips the test
# when the first group says it; once a group has run, the device cannot
# have gone: a 77 then fails.
group_ran=
group() {
	rc=0
	"$run" "$@" >"out.$1" 2>&1 || rc=$?
	cat "out.$1"
	if [ "$rc" -eq 77 ]; then
		[ -z "$group_ran" ] || fail "bundle-run $1 found no $selector device after bundle-run $group_ran ran on one"
		skip "$device_cap" "no $selector device"
	fi
	[ "$rc" -eq 0 ] || fail "bundle-run $1 exited $rc"
	group_ran=$1
}

for mode in build join selector; do
	group "$mode" "$scratch/libbase.so"
done
group spec ${spec_mode:+"$spec_mode"} "$scratch/libbase.so"
group errors "$scratch/libbase.so"
group link "$link" "$scratch/libbase.so" "$scratch/libcaller.so" \
	"$scratch/libhelper.so"
group unresolved "$scratch/libcaller.so"
