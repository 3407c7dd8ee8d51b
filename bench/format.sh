# shellcheck shell=sh disable=SC2154 # top_builddir, bench: the caller's
# Sourced by the OpenCL benchmarks (bench/launch.sh, bench/bundle.sh):
# the format of the SPIR-family images they build from OpenCL C.
#
# Needs top_builddir, CLANG and LLVM_SPIRV (from make), bench (the
# benchmark's name, for messages), DEVIMG_PLUGIN_PATH and
# DEVIMG_DEVICE_SELECTOR exported.

# bench_format CACHE: choose the image format as image selection would:
# SPIR-V where the first OpenCL device that DEVIMG_DEVICE_SELECTOR shows
# takes IL, else SPIR 1.2 bitcode (also where the device takes both and
# the build has no llvm-spirv). BENCH_FORMAT=spirv or llvmbc forces one
# of those the device takes. Sets bench_fmt (for devimg-wrap -format=),
# bench_ext (the file suffix) and bench_devfmts (the device's formats as
# devimg-ls names them, e.g. "spirv native"). Exits 77 with a line on
# stderr ("SKIP [CAPABILITY]: why", tests/capabilities) when there is no OpenCL device, when it takes neither format (or
# not the forced one), or when this build cannot make the format (no
# clang, no llvm-spirv). CACHE: PoCL's cache folder for the probe
# (devimg-ls), kept apart from the benchmark's.
bench_format() {
	mkdir -p "$1"
	bench_devfmts=$(POCL_CACHE_DIR=$1 \
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		"$top_builddir/devimg-ls" 2>/dev/null |
		sed -n '/^\[opencl:/{s/.*, formats: \([^,]*\),.*/\1/p;q;}')
	[ -n "$bench_devfmts" ] || {
		echo "SKIP [opencl-device]: $bench: no OpenCL device" >&2; exit 77; }
	if [ -z "${CLANG:-}" ] || [ "$CLANG" = no ]; then
		echo "SKIP [clang]: $bench: no clang for OpenCL C" >&2
		exit 77
	fi
	bench_spirv=yes
	if [ -z "${LLVM_SPIRV:-}" ] || [ "$LLVM_SPIRV" = no ]; then
		bench_spirv=no
	fi
	case ${BENCH_FORMAT:-} in
	spirv | llvmbc)
		bench_fmt=$BENCH_FORMAT
		bench_name=spirv
		[ "$bench_fmt" = spirv ] || bench_name=spir
		case " $bench_devfmts " in
		*" $bench_name "*) ;;
		*)
			echo "SKIP [$bench_name]: $bench: BENCH_FORMAT=$BENCH_FORMAT but the OpenCL device takes $bench_devfmts" >&2
			exit 77
			;;
		esac
		;;
	'')
		case " $bench_devfmts " in
		*" spirv "*" spir "* | *" spir "*" spirv "*)
			bench_fmt=spirv
			[ "$bench_spirv" = yes ] || bench_fmt=llvmbc
			;;
		*" spirv "*) bench_fmt=spirv ;;
		*" spir "*) bench_fmt=llvmbc ;;
		*)
			echo "SKIP [opencl-device]: $bench: the OpenCL device takes neither SPIR-V nor SPIR ($bench_devfmts)" >&2
			exit 77
			;;
		esac
		;;
	*)
		echo "$bench: BENCH_FORMAT=$BENCH_FORMAT: want spirv or llvmbc" >&2
		exit 1
		;;
	esac
	if [ "$bench_fmt" = spirv ] && [ "$bench_spirv" = no ]; then
		echo "SKIP [llvm-spirv]: $bench: the device takes SPIR-V but configure found no llvm-spirv matching clang" >&2
		exit 77
	fi
	# shellcheck disable=SC2034 # the benchmark's file names
	if [ "$bench_fmt" = spirv ]; then bench_ext='spv'; else bench_ext='bc'; fi
}

# bench_image NAME: NAME.cl to NAME.$bench_ext: SPIR 1.2 bitcode by clang,
# then SPIR-V 1.2 by llvm-spirv when bench_fmt is spirv (as the build makes
# the fixtures, Makefile.am's SPIR_COMPILE and SPIRV_TRANSLATE).
bench_image() {
	"$CLANG" -cc1 -triple spir64-unknown-unknown -emit-llvm-bc \
		-cl-std=CL1.2 -finclude-default-header -O2 -o "$1.bc" "$1.cl"
	[ "$bench_fmt" = llvmbc ] ||
		"$LLVM_SPIRV" --spirv-max-version=1.2 -o "$1.spv" "$1.bc"
}

# bench_header: one line saying what the device takes and what was chosen.
bench_header() {
	if [ "$bench_fmt" = spirv ]; then
		bench_what='SPIR-V 1.2 (llvm-spirv)'
	else
		bench_what='SPIR 1.2 bitcode (clang)'
	fi
	echo "image format: $bench_fmt, $bench_what; device formats: $bench_devfmts${BENCH_FORMAT:+ (BENCH_FORMAT=$BENCH_FORMAT)}"
}
