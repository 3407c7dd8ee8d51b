# Sourced by the Level Zero tests: the plugin, the recording driver the
# real Level Zero loader loads as an alternate driver, the test kernels
# assembled from SPIR-V text, and checks on the driver's call log.
# shellcheck shell=sh
. "$top_srcdir/tests/lib.sh"

plugins=$top_builddir/plugins/.libs
plugin=$plugins/devimg-level_zero.so
driver=$top_builddir/tests/level_zero/.libs/libze_recording_driver.so
run=$top_builddir/tests/level_zero/contract-run
WRAP=$top_builddir/devimg-wrap
src=$top_srcdir/tests/level_zero
dispatch=$top_srcdir/tests/dispatch
calls=$scratch/calls.log
[ -f "$plugin" ] || fail "$plugin not built"
[ -f "$driver" ] || fail "$driver not built"
[ -x "$WRAP" ] || fail "$WRAP not built"
: "${CC:=cc}"
# A build tree carried to a machine without the Level Zero loader: the
# plugin cannot load there (the loader skips it, tested elsewhere).
if ldd "$plugin" 2>/dev/null | grep -q 'libze_loader.* not found'; then
	skip level-zero "no Level Zero loader (libze_loader.so.1) on this machine"
fi

# Nothing from the caller's environment steers the loader or the driver.
unset ZE_ENABLE_ALT_DRIVERS ZE_ENABLE_NULL_DRIVER ZE_ENABLE_LOADER_INTERCEPT \
	ZE_ENABLE_VALIDATION_LAYER ZE_ENABLE_TRACING_LAYER ZE_AFFINITY_MASK \
	ZE_RECORDING_LOG ZE_RECORDING_NO_GLOBAL_OFFSET ZE_RECORDING_OLD_GLOBALS \
	DEVIMG_TRACE DEVIMG_DEVICE_SELECTOR
DEVIMG_PLUGIN_PATH=$plugins
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$src/lsan.supp:print_suppressions=0
export DEVIMG_PLUGIN_PATH LSAN_OPTIONS

# assemble NAME: $scratch/NAME.spv from $src/NAME.spvasm.
assemble() {
	spirv_as=$(command -v spirv-as) ||
		skip spirv-as "no spirv-as (SPIRV-Tools) to assemble the test kernels"
	"$spirv_as" --target-env spv1.0 -o "$scratch/$1.spv" \
		"$src/$1.spvasm" || fail "spirv-as failed on $1.spvasm"
}

# use_driver [PATH...]: the loader sees only the recording driver(s).
use_driver() {
	drivers=$(echo "${*:-$driver}" | tr ' ' ',')
	ZE_ENABLE_ALT_DRIVERS=$drivers
	ZE_RECORDING_LOG=$calls
	DEVIMG_DEVICE_SELECTOR=${DEVIMG_DEVICE_SELECTOR:-level_zero:*}
	export ZE_ENABLE_ALT_DRIVERS ZE_RECORDING_LOG DEVIMG_DEVICE_SELECTOR
	rm -f "$calls"
}

# contract MODE LIBRARY: contract-run must succeed; its output is shown.
contract() {
	rc=0
	"$run" "$@" >"$scratch/out" 2>&1 || rc=$?
	cat "$scratch/out"
	[ "$rc" -eq 0 ] || fail "contract-run $1 exited $rc"
}

# The driver's log has a line holding TEXT (fixed string) / matching RE.
expect_call() {
	grep -qF -- "$1" "$calls" ||
		fail "no call with '$1' in the driver's log:
$(cat "$calls")"
}
expect_match() {
	grep -qE -- "$1" "$calls" ||
		fail "no call matching '$1' in the driver's log:
$(cat "$calls")"
}
expect_no_match() {
	! grep -qE -- "$1" "$calls" ||
		fail "a call matching '$1' in the driver's log:
$(grep -E -- "$1" "$calls")"
}
# expect_count N RE: exactly N lines match.
expect_count() {
	n=$(grep -cE -- "$2" "$calls" || true)
	[ "$n" -eq "$1" ] ||
		fail "$n calls match '$2', want $1:
$(grep -E -- "$2" "$calls")"
}
# What the plugin made, it destroyed: each driver's exit report.
expect_all_destroyed() {
	expect_call "exit live: contexts=0 queues=0 lists=0 modules=0 logs=0 kernels=0 allocations=0"
	expect_no_match "exit live:.*=[1-9]"
}
