# Sourced by the shell integration tests.
# shellcheck shell=sh
set -eu

skip() {
	echo "SKIP: $*"
	exit 77
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# lib NAME WRAP-ARGS...: $scratch/libNAME.so, holding the images that
# devimg-wrap ($WRAP) wraps from WRAP-ARGS (-kind=sycl added).
lib() {
	name=$1
	shift
	"$WRAP" -o "$scratch/$name.o" -kind=sycl "$@" ||
		fail "devimg-wrap for $name failed"
	${CC:-cc} -shared -o "$scratch/lib$name.so" "$scratch/$name.o" ||
		fail "cannot link lib$name.so"
}

# A scratch folder removed on exit.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/devimg-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# expect_fail "pattern" cmd...: cmd must fail and print a line matching pattern.
expect_fail() {
	pattern=$1
	shift
	if "$@" >"$scratch/out" 2>"$scratch/err"; then
		fail "expected failure: $*"
	fi
	grep -q -- "$pattern" "$scratch/err" ||
		fail "error of '$*' does not match '$pattern': $(cat "$scratch/err")"
	[ "$(wc -l <"$scratch/err")" -eq 1 ] ||
		fail "error of '$*' is not one line: $(cat "$scratch/err")"
}

# pocl_env SELECTOR: run on the plugins of the build tree, PoCL keeping
# its kernel cache in the scratch folder, on the devices SELECTOR keeps
# (DEVIMG_DEVICE_SELECTOR); all exported.
pocl_env() {
	POCL_CACHE_DIR=$scratch/pocl-cache
	mkdir -p "$POCL_CACHE_DIR"
	DEVIMG_PLUGIN_PATH=$top_builddir/plugins/.libs DEVIMG_DEVICE_SELECTOR=$1
	export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH DEVIMG_DEVICE_SELECTOR
}

# device_formats: the image formats the first OpenCL device that the
# test's DEVIMG_DEVICE_SELECTOR shows ingests, as devimg-ls names them
# ("spirv spir native"); empty when there is no such device.
device_formats() {
	mkdir -p "${POCL_CACHE_DIR:-$scratch/pocl-cache}"
	POCL_CACHE_DIR=${POCL_CACHE_DIR:-$scratch/pocl-cache} \
	DEVIMG_PLUGIN_PATH=${DEVIMG_PLUGIN_PATH:-$top_builddir/plugins/.libs} \
	DEVIMG_DEVICE_SELECTOR=${DEVIMG_DEVICE_SELECTOR:-opencl:*} \
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		"$top_builddir/devimg-ls" 2>/dev/null |
		sed -n '/^\[opencl:/{s/.*, formats: \([^,]*\),.*/\1/p;q;}'
}

# device_format DIR NAME: choose the format of the SPIR-family images a
# test wraps as image selection would: SPIR-V (DIR/NAME.spv) where the
# device takes IL, else SPIR 1.2 bitcode (DIR/NAME.bc). Sets fmt (for
# devimg-wrap -format=) and ext (the file suffix). DEVIMG_TEST_FORMAT=
# spirv or llvmbc forces one. Skips (77), saying why, when there is no
# OpenCL device, when it takes neither format, or when the build could
# not make the file (no clang, no llvm-spirv).
device_format() {
	df_formats=$(device_formats)
	[ -n "$df_formats" ] || skip "no OpenCL device (PoCL shows none)"
	case ${DEVIMG_TEST_FORMAT:-} in
	spirv) fmt=spirv ;;
	llvmbc) fmt=llvmbc ;;
	'')
		case " $df_formats " in
		*" spirv "*) fmt=spirv ;;
		*" spir "*) fmt=llvmbc ;;
		*) skip "the OpenCL device takes neither SPIR-V nor SPIR ($df_formats)" ;;
		esac
		;;
	*) fail "DEVIMG_TEST_FORMAT=$DEVIMG_TEST_FORMAT: want spirv or llvmbc" ;;
	esac
	if [ "$fmt" = spirv ]; then
		ext=spv
		[ -f "$1/$2.spv" ] ||
			skip "the device takes SPIR-V but $1/$2.spv is not built (configure found no llvm-spirv matching clang)"
	else
		ext=bc
		[ -f "$1/$2.bc" ] ||
			skip "the device takes SPIR but $1/$2.bc is not built (configure found no clang)"
	fi
	echo "# device formats: $df_formats; test images: $fmt"
}
