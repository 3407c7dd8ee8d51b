#!/bin/sh
# devimg-ls on PoCL: an OpenCL CPU device that takes SPIR-V or SPIR
# bitcode (whichever this PoCL ingests), the same devices with the same
# formats in --json, no OpenCL device with DEVIMG_DEVICE_SELECTOR=
# '!opencl:*', none at all with '!*:*', and a one-line error for a
# selector outside the grammar.
. "$top_srcdir/tests/lib.sh"

plugins=$top_builddir/plugins/.libs
LS=$top_builddir/devimg-ls
[ -x "$LS" ] || skip build "devimg-ls is not built"
[ -f "$plugins/devimg-opencl.so" ] || skip opencl "OpenCL plugin not built"
command -v jq >/dev/null 2>&1 || skip tools "jq not found"

mkdir -p "$scratch/pocl-cache"
POCL_CACHE_DIR=$scratch/pocl-cache
DEVIMG_PLUGIN_PATH=$plugins
export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH
unset DEVIMG_DEVICE_SELECTOR DEVIMG_TRACE || :
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export LSAN_OPTIONS

cd "$scratch"
# devimg-ls's own failure (an exit, a signal, output that does not
# parse) fails here; only a clean empty list skips.
devimg_ls out err
cat out
grep -q '^\[opencl:[0-9]*\] ' out || skip opencl-device "PoCL shows no OpenCL device"
# The formats of each device: known names only, SPIR-V or SPIR among
# those of some CPU device.
sed -n 's/^\[\([a-z_]*:[0-9]*\)\] .*, formats: \([^,]*\),.*/\1 \2/p' out >formats
[ "$(wc -l <formats)" -eq "$(grep -c '^\[' out)" ] ||
	fail "a device without 'formats:': $(cat out)"
while read -r dev f; do
	for w in $f; do
		case $w in
		spirv | spir | native | ptx | none) ;;
		*) fail "$dev: unknown format '$w'" ;;
		esac
	done
done <formats
grep '^\[opencl:[0-9]*\] cpu, ' out |
	grep -Eq 'formats: ([a-z]+ )*(spirv|spir)( [a-z]+)*,' ||
	fail "no OpenCL CPU device that takes SPIR-V or SPIR bitcode"

"$LS" --version >version 2>err || fail "devimg-ls --version exited $?: $(cat err)"
grep -q '^devimg-ls ' version || fail "--version: $(cat version)"
"$LS" --help >help 2>err || fail "devimg-ls --help exited $?: $(cat err)"
grep -q -- '--json' help || fail "--help: $(cat help)"
devimg_ls outv errv -v
grep -q '^  opencl: .*devimg-opencl\.so$' outv || fail "-v lists no opencl plugin"

"$LS" --json -v >json 2>err || fail "devimg-ls --json exited $?: $(cat err)"
n=$(jq '.devices | length' json) || fail "--json does not parse"
[ "$n" -eq "$(grep -c '^\[' out)" ] ||
	fail "--json has $n devices, text $(grep -c '^\[' out)"
# Each device's formats, as the text output lists them.
jq -r '.devices[] | "\(.backend):\(.index) \(
	if (.formats | length) > 0 then .formats | join(" ") else "none" end)"' \
	json >jformats || fail "--json: devices without backend, index or formats"
cmp -s formats jformats ||
	fail "--json formats differ from the text: $(diff formats jformats)"
jq -e '[.devices[] | select(.backend == "opencl" and .type == "cpu"
	and any(.formats[]; . == "spirv" or . == "spir"))] | length > 0' \
	json >/dev/null ||
	fail "--json shows no OpenCL CPU device taking spirv or spir"
jq -e '.plugins | length > 0' json >/dev/null || fail "--json -v: no plugins"

# '!opencl:*' leaves no OpenCL device (a GPU machine keeps its CUDA ones);
# '!*:*' leaves none at all.
(
	DEVIMG_DEVICE_SELECTOR='!opencl:*'
	export DEVIMG_DEVICE_SELECTOR
	devimg_ls noocl err
)
! grep -q '^\[opencl:' noocl || fail "OpenCL devices left with '!opencl:*': $(cat noocl)"
(
	DEVIMG_DEVICE_SELECTOR='!*:*'
	export DEVIMG_DEVICE_SELECTOR
	devimg_ls none err
)
[ ! -s none ] || fail "devices left with '!*:*': $(cat none)"
grep -q 'no devices' err || fail "no 'no devices' message"
DEVIMG_DEVICE_SELECTOR='!*:*' "$LS" --json >nonejson 2>err ||
	fail "devimg-ls --json with no devices exited $?: $(cat err)"
n=$(jq '.devices | length' nonejson) ||
	fail "--json with no devices does not parse: $(cat nonejson)"
[ "$n" -eq 0 ] || fail "--json with no devices lists $n"

DEVIMG_DEVICE_SELECTOR='ocl:cpu' expect_fail 'DEVIMG_DEVICE_SELECTOR' "$LS"
[ "$(wc -l <"$scratch/out")" -eq 0 ] || fail "output with a bad selector"
