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
