# Helpers of the loader's integration tests; sourced after tests/lib.sh.
# shellcheck shell=sh
#
# Programs and libraries are compiled here with $CC and the flags of the
# build (tests/loader/build-flags.sh, written by make check), so that a
# sanitizer build of libdevimg gets sanitized programs. make check-tsan
# sets LOADER_CFLAGS, LOADER_LDFLAGS and LOADER_LIBDIR itself.

WRAP=$top_builddir/devimg-wrap
[ -x "$WRAP" ] || skip build "devimg-wrap is not built"
: "${CC:=cc}"
if [ -z "${LOADER_LIBDIR:-}" ]; then
	flags=$top_builddir/tests/loader/build-flags.sh
	[ -f "$flags" ] || skip build "$flags is missing (make check writes it)"
	. "$flags"
fi
[ -e "$LOADER_LIBDIR/libdevimg.so" ] || skip build "no libdevimg.so in $LOADER_LIBDIR"
lsrc=$top_srcdir/tests/loader
warn="-Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers"

# build_prog OUT SOURCE [OBJECT...]: a program linked with libdevimg.so.
build_prog() {
	out=$1
	src=$2
	shift 2
	# shellcheck disable=SC2086
	$CC -std=c11 $LOADER_CFLAGS $warn -I"$top_srcdir" -I"$top_srcdir/include" -o "$out" \
		"$src" "$@" -L"$LOADER_LIBDIR" -Wl,-rpath,"$LOADER_LIBDIR" \
		-ldevimg -ldl $LOADER_LDFLAGS ||
		fail "cannot build $out from $src"
}

# spirv_image OUT, ptx_image OUT: small images with the right magic.
spirv_image() {
	printf '\003\002\043\007\000\000\001\000' >"$1"
	printf 'spirv image %s\n' "$1" >>"$1"
}

ptx_image() {
	printf '//\n// %s\n//\n.version 7.0\n.target sm_80\n' "$1" >"$1"
}

# sym OUT NAME...: a .sym file, one name a line.
sym() {
	out=$1
	shift
	printf '%s\n' "$@" >"$out"
}

# wrap OUT [devimg-wrap arguments...]
wrap() {
	out=$1
	shift
	"$WRAP" -o "$out" -kind=sycl "$@" ||
		fail "devimg-wrap -o $out $*"
}

# fixture_lib NAME SPIR_NAMES PTX_NAMES: lib$NAME.so with two images, a
# spir64 SPIR-V image and an nvptx64 PTX image, whose entries are the
# given space-separated names plus a marker ("marker_<NAME>0" and
# "marker_<NAME>1") that tells the programs which image they see. The
# library's constructor records whether its images were registered
# before it ran.
fixture_lib() {
	name=$1
	# shellcheck disable=SC2086
	sym "$name-0.sym" $2 "marker_${name}0"
	# shellcheck disable=SC2086
	sym "$name-1.sym" $3 "marker_${name}1"
	spirv_image "$name-0.spv"
	ptx_image "$name-1.ptx"
	wrap "$name-wrap.o" \
		-target=spir64 -format=spirv -entries="$name-0.sym" \
		"$name-0.spv" \
		-target=nvptx64 -format=none -entries="$name-1.sym" \
		"$name-1.ptx"
	# shellcheck disable=SC2086
	$CC -std=c11 $LOADER_CFLAGS -fPIC -shared -I"$top_srcdir" -I"$top_srcdir/include" \
		-DMARKER="\"marker_${name}0\"" -o "lib$name.so" \
		"$lsrc/fixture-lib.c" "$name-wrap.o" \
		-L"$LOADER_LIBDIR" -Wl,-rpath,"$LOADER_LIBDIR" -ldevimg \
		$LOADER_LDFLAGS || fail "cannot link lib$name.so"
}

# The three libraries the dlopen and thread tests share kernel names in.
fixture_libs() {
	fixture_lib A "k_all k_ab k_ac k_a" "k_all k_a"
	fixture_lib B "k_all k_ab k_bc k_b" "k_all"
	fixture_lib C "k_all k_ac k_bc k_c" "k_all k_c"
}
