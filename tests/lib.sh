# Sourced by the shell integration tests.
# shellcheck shell=sh
set -eu

# skip CAPABILITY WHY...: stop here, the test skipped (77) for lack of
# CAPABILITY (one of tests/capabilities); tests/run-test turns it into a
# failure where the machine declares CAPABILITY (DEVIMG_EXPECT).
skip() {
	skip_cap=$1
	shift
	echo "SKIP [$skip_cap]: $*"
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

# A scratch folder removed on exit. A failure of devimg-ls seen where the
# status could be lost (devimg_ls in a command substitution whose status
# nobody reads, as in case " $(device_formats) ") leaves a note in
# $scratch/devimg-ls.failed: the test then fails, whatever it went on to
# do (even skip).
scratch=$(mktemp -d "${TMPDIR:-/tmp}/devimg-test.XXXXXX")
trap 'st=$?
if [ -s "$scratch/devimg-ls.failed" ] && { [ "$st" -eq 0 ] || [ "$st" -eq 77 ]; }; then
	echo "FAIL: $(cat "$scratch/devimg-ls.failed")" >&2
	st=1
fi
rm -rf "$scratch"
exit "$st"' EXIT

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

# opencl_selector DEFAULT: the device selector of an OpenCL end-to-end
# test: DEVIMG_TEST_SELECTOR when set (the outer selector: run the suite
# on another OpenCL device, e.g. Mesa's rusticl, docs/platforms.md), else
# the test's own DEFAULT.
opencl_selector() {
	printf '%s\n' "${DEVIMG_TEST_SELECTOR:-$1}"
}

# pocl_env SELECTOR: run on the plugins of the build tree, PoCL keeping
# its kernel cache in the scratch folder, on the devices SELECTOR keeps
# (DEVIMG_DEVICE_SELECTOR; opencl_selector); all exported.
pocl_env() {
	POCL_CACHE_DIR=$scratch/pocl-cache
	mkdir -p "$POCL_CACHE_DIR"
	DEVIMG_PLUGIN_PATH=$top_builddir/plugins/.libs
	DEVIMG_DEVICE_SELECTOR=$(opencl_selector "$1")
	export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH DEVIMG_DEVICE_SELECTOR
}

# devimg_ls OUT ERR ARGS...: devimg-ls ARGS (text output, -v allowed),
# stdout to OUT, stderr to ERR. The tool's own failure fails the test,
# with its stderr in the message: a non-zero exit, death by a signal, a
# line that is not a device line ("[backend:N] type, name, vendor,
# formats: ..., spec-constants: ..., global-offset: ...") nor one of -v's,
# or no device line without "no devices" on stderr. An empty list, the tool
# having run fine, is not a failure: OUT is then empty and the caller
# decides (skip opencl-device "no OpenCL device").
devimg_ls() {
	dl_out=$1
	dl_err=$2
	shift 2
	dl_rc=0
	"$top_builddir/devimg-ls" "$@" >"$dl_out" 2>"$dl_err" || dl_rc=$?
	if [ "$dl_rc" -gt 128 ]; then
		devimg_ls_failed "devimg-ls${*:+ $*} died of signal $((dl_rc - 128)): $(cat "$dl_err")"
	elif [ "$dl_rc" -ne 0 ]; then
		devimg_ls_failed "devimg-ls${*:+ $*} exited $dl_rc: $(cat "$dl_err")"
	fi
	if grep -Evq '^(\[[a-z_]+:[0-9]+\] [a-z]+, .*, formats: [a-z ]*, spec-constants: [a-z]+, global-offset: [a-z]+|plugins: [0-9]+|  [a-z_]+: .*)$' "$dl_out"; then
		devimg_ls_failed "devimg-ls${*:+ $*} printed what does not parse: $(cat "$dl_out" "$dl_err")"
	fi
	if ! grep -q '^\[' "$dl_out" && ! grep -q '^devimg-ls: no devices: .' "$dl_err"; then
		devimg_ls_failed "devimg-ls${*:+ $*} listed no device and did not say 'no devices': $(cat "$dl_out" "$dl_err")"
	fi
}

# devimg_ls_failed WHY: fail, leaving the note the EXIT trap reads.
devimg_ls_failed() {
	printf '%s\n' "$*" >"$scratch/devimg-ls.failed"
	fail "$*"
}

# device_formats: the image formats the first OpenCL device that the
# test's DEVIMG_DEVICE_SELECTOR shows ingests, as devimg-ls names them
# ("spirv spir native"); empty when devimg-ls ran fine and listed no such
# device. devimg-ls's own failure fails the test (devimg_ls).
device_formats() {
	(
		POCL_CACHE_DIR=${POCL_CACHE_DIR:-$scratch/pocl-cache}
		DEVIMG_PLUGIN_PATH=${DEVIMG_PLUGIN_PATH:-$top_builddir/plugins/.libs}
		DEVIMG_DEVICE_SELECTOR=${DEVIMG_DEVICE_SELECTOR:-$(opencl_selector 'opencl:*')}
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
		export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH DEVIMG_DEVICE_SELECTOR ASAN_OPTIONS
		mkdir -p "$POCL_CACHE_DIR"
		devimg_ls "$scratch/device-formats.out" "$scratch/device-formats.err"
	)
	sed -n '/^\[opencl:/{s/.*, formats: \([^,]*\),.*/\1/p;q;}' \
		"$scratch/device-formats.out"
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
	[ -n "$df_formats" ] || skip opencl-device "no OpenCL device (PoCL shows none)"
	case ${DEVIMG_TEST_FORMAT:-} in
	spirv) fmt=spirv ;;
	llvmbc) fmt=llvmbc ;;
	'')
		case " $df_formats " in
		*" spirv "*) fmt=spirv ;;
		*" spir "*) fmt=llvmbc ;;
		*) skip opencl-device "the OpenCL device takes neither SPIR-V nor SPIR ($df_formats)" ;;
		esac
		;;
	*) fail "DEVIMG_TEST_FORMAT=$DEVIMG_TEST_FORMAT: want spirv or llvmbc" ;;
	esac
	if [ "$fmt" = spirv ]; then
		ext=spv
		[ -f "$1/$2.spv" ] ||
			skip llvm-spirv "the device takes SPIR-V but $1/$2.spv is not built (configure found no llvm-spirv matching clang)"
	else
		ext=bc
		[ -f "$1/$2.bc" ] ||
			skip clang "the device takes SPIR but $1/$2.bc is not built (configure found no clang)"
	fi
	echo "# device formats: $df_formats; test images: $fmt"
}

# one_file_json FILE: FILE holds devimg-dump --json of one file that read
# (format_version 2, one entry of "files", no "error"); leave that entry
# alone in FILE, as the tests read it.
one_file_json() {
	jq -e '.format_version == 2 and (.files | length) == 1 and
		(.files[0] | has("error") | not)' "$1" >/dev/null ||
		fail "$1: not the --json of one file read: $(head -c 400 "$1")"
	jq '.files[0]' "$1" >"$1.one" && mv "$1.one" "$1"
}

# failed_file_json OUT ERR FILE: OUT is devimg-dump --json's document of
# FILE alone, which failed: {"format_version": 2, "files": [{"file": FILE,
# "error": E}]}, E the one line of ERR after "devimg-dump: ".
failed_file_json() {
	ffj_err=$(sed -n '1s/^devimg-dump: //p' "$2")
	jq -e --arg f "$3" --arg e "$ffj_err" \
		'. == {"format_version": 2, "files": [{"file": $f, "error": $e}]}' \
		"$1" >/dev/null ||
		fail "devimg-dump --json $3: not its failure alone: $(cat "$1") (stderr: $(cat "$2"))"
}
