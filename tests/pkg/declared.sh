#!/bin/sh
# Declared capabilities (tests/run-test, tests/capabilities): a skip for a
# capability DEVIMG_EXPECT declares is a failure, a skip for one it does
# not stays a skip, a skip that names none fails once anything is
# declared, and an unknown name fails either way; the declared lists of
# deps/ name only known capabilities. With --opencl
# (tests/pkg/declared-opencl.sh), for real: with the OpenCL driver gone
# (OCL_ICD_VENDORS naming an empty folder, so the plugin lists no
# device), tests that need an OpenCL device skip without a declaration
# and fail with one.
. "$top_srcdir/tests/lib.sh"

runner=$top_srcdir/tests/run-test
cd "$scratch"

# opencl_part: no OpenCL driver, so no OpenCL device. Each test skips for
# opencl-device without a declaration and fails with one.
opencl_part() {
	[ -f "$top_builddir/plugins/.libs/devimg-opencl.so" ] ||
		skip opencl "OpenCL plugin not built"
	mkdir vendors
	OCL_ICD_VENDORS=$scratch/vendors
	export OCL_ICD_VENDORS
	devimg_ls ls.out ls.err
	! grep -q '^\[opencl:' ls.out ||
		skip icd-vendors "the OpenCL ICD loader still shows devices with OCL_ICD_VENDORS naming an empty folder: $(grep '^\[opencl:' ls.out | head -n 1)"
	for test in tests/ls/ls.sh tests/dispatch/dispatch.sh \
		tests/loader/escape-device.sh; do
		rc=0
		DEVIMG_EXPECT='' sh "$runner" "$top_srcdir/$test" >out 2>&1 ||
			rc=$?
		if [ "$rc" -ne 77 ] || ! grep -q '^SKIP \[opencl-device\]: ' out; then
			fail "$test without an OpenCL driver, nothing declared: exit $rc: $(tail -n 3 out)"
		fi
		rc=0
		DEVIMG_EXPECT='opencl opencl-device' sh "$runner" \
			"$top_srcdir/$test" >out 2>&1 || rc=$?
		if [ "$rc" -ne 1 ] ||
			! grep -q "^FAIL: the test skipped for 'opencl-device', which this machine declares" out; then
			fail "$test without an OpenCL driver, opencl-device declared: exit $rc: $(tail -n 3 out)"
		fi
		echo "ok $test: skips without a declaration, fails with one"
	done
}

case ${1:-} in
'') ;;
--opencl)
	opencl_part
	exit 0 ;;
*) fail "usage: declared.sh [--opencl]" ;;
esac

# t NAME STATUS [LINE]: a test script that prints LINE and exits STATUS.
t() {
	printf '#!/bin/sh\n%s\nexit %s\n' "${3:+echo '$3'}" "$2" >"$1"
	chmod +x "$1"
}
# expect_run WANT-STATUS PATTERN EXPECT TEST: run-test on TEST with
# DEVIMG_EXPECT=EXPECT exits WANT-STATUS, its output matching PATTERN.
expect_run() {
	rc=0
	DEVIMG_EXPECT=$3 sh "$runner" "./$4" >out 2>&1 || rc=$?
	[ "$rc" -eq "$1" ] ||
		fail "run-test $4 (DEVIMG_EXPECT='$3') exited $rc, want $1: $(cat out)"
	grep -q -- "$2" out ||
		fail "run-test $4 (DEVIMG_EXPECT='$3') said: $(cat out)"
}
t pass 0 'ok'
t failing 1 'FAIL: something'
t skip-dev 77 'SKIP [opencl-device]: no OpenCL device'
t skip-none 77 'SKIP: no reason given'
t skip-typo 77 'SKIP [opencl-devcie]: no OpenCL device'
t skip-two 77 'SKIP [spirv]: first
SKIP [cuda-device]: last'

expect_run 0 '^ok$' '' pass
expect_run 0 '^ok$' 'opencl-device' pass
expect_run 1 '^FAIL: something$' 'opencl-device' failing
expect_run 77 '^SKIP \[opencl-device\]' '' skip-dev
expect_run 77 '^SKIP \[opencl-device\]' 'spirv cuda-device' skip-dev
expect_run 1 "^FAIL: the test skipped for 'opencl-device', which this machine declares (DEVIMG_EXPECT): no OpenCL device$" \
	'spirv opencl-device' skip-dev
expect_run 77 '^SKIP: no reason given$' '' skip-none
expect_run 1 '^FAIL: the test skipped without naming a capability' \
	'spirv' skip-none
expect_run 1 "^FAIL: the test skipped for 'opencl-devcie', which tests/capabilities does not list$" \
	'' skip-typo
expect_run 1 "^FAIL: DEVIMG_EXPECT names 'opencl-devcie', which tests/capabilities does not list$" \
	'opencl-devcie' pass
# The last SKIP line is the one that counts.
expect_run 77 'SKIP \[cuda-device\]: last' 'spirv' skip-two
expect_run 1 "skipped for 'cuda-device'" 'cuda-device' skip-two

# Every capability the platforms declare is known.
for f in "$top_srcdir"/deps/*; do
	decl=$(sed -n 's/^# expect: *//p' "$f")
	[ -n "$decl" ] || fail "$f declares no capabilities ('# expect: ...')"
	DEVIMG_EXPECT=$decl sh "$runner" ./pass >out 2>&1 ||
		fail "$f: $(cat out)"
done
