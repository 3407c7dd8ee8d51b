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
