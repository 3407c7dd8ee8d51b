#!/bin/sh
# "No device" says why, for each cause, in devimg-ls's one line (the text
# of devimg_last_error() after devimg_device_get(ctx, 0) failed): the
# folders searched or not searchable, the installed folder left out, a
# file that does not load, a plugin whose init fails, a shadowed file, a
# plugin without a platform and its message (no OpenCL driver), a
# platform without devices (PoCL without a cache folder), a platform
# whose context cannot be made, and what the device selector kept.
. "$top_srcdir/tests/lib.sh"

LS=$top_builddir/devimg-ls
fake=$top_builddir/tests/plugins/.libs/devimg-fake.so
opencl=$top_builddir/plugins/.libs/devimg-opencl.so
[ -x "$LS" ] || skip build "devimg-ls is not built"
[ -f "$fake" ] || fail "$fake not built"

unset DEVIMG_DEVICE_SELECTOR DEVIMG_TRACE DEVIMG_TEST_FAKE || :
DEVIMG_PLUGIN_PATH_ONLY=1
export DEVIMG_PLUGIN_PATH_ONLY
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export LSAN_OPTIONS

# why PATH [VAR=VALUE...]: devimg-ls with DEVIMG_PLUGIN_PATH=PATH and the
# settings given; it must list nothing, exit 0 and say why on one line,
# which is left in $scratch/why.
why() {
	w_path=$1
	shift
	env DEVIMG_PLUGIN_PATH="$w_path" "$@" "$LS" >"$scratch/out" \
		2>"$scratch/err" || fail "devimg-ls exited $?: $(cat "$scratch/err")"
	[ ! -s "$scratch/out" ] || fail "devices listed: $(cat "$scratch/out")"
	[ "$(wc -l <"$scratch/err")" -eq 1 ] ||
		fail "not one line on stderr: $(cat "$scratch/err")"
	sed -n 's/^devimg-ls: no devices: //p' "$scratch/err" >"$scratch/why"
	[ -s "$scratch/why" ] || fail "no reason given: $(cat "$scratch/err")"
}
# says TEXT: the reason holds TEXT (fixed string).
says() {
	grep -qF -- "$1" "$scratch/why" ||
		fail "the reason does not say '$1': $(cat "$scratch/why")"
}

mkdir -p "$scratch/empty" "$scratch/broken" "$scratch/fake" "$scratch/fake2" \
	"$scratch/ocl" "$scratch/vendors"
installed=$(sed -n 's/^#define PLUGINDIR "\(.*\)"$/\1/p' "$top_builddir/paths.h")
[ -n "$installed" ] || fail "no PLUGINDIR in paths.h"

# No plugin anywhere: the folders searched, the installed one left out.
why "$scratch/empty:$scratch/missing"
says "searched $scratch/empty: 0 plugin files"
says "cannot search $scratch/missing: No such file or directory"
says "the installed folder $installed left out (DEVIMG_PLUGIN_PATH_ONLY)"
says "no plugin bound"

# A file that is no library, a plugin whose init fails.
echo 'not a library' >"$scratch/broken/devimg-broken.so"
cp "$fake" "$scratch/fake/devimg-fake.so"
why "$scratch/broken:$scratch/fake" DEVIMG_TEST_FAKE=fail
says "searched $scratch/broken: 1 plugin file"
says "devimg-broken.so cannot load: $scratch/broken/devimg-broken.so: "
says "devimg-fake.so skipped: devimg_plugin_init failed: No such device (-19): fake vendor library reports no devices"

# A file shadowed by one of its name in an earlier folder.
cp "$fake" "$scratch/fake2/devimg-fake.so"
why "$scratch/fake:$scratch/fake2" DEVIMG_TEST_FAKE=fail
says "devimg-fake.so in $scratch/fake2 shadowed"

# A platform without devices; a platform whose context cannot be made.
why "$scratch/fake" DEVIMG_TEST_FAKE=nodevice
says 'fake: platform "devimg fake platform": no device'
why "$scratch/fake" DEVIMG_TEST_FAKE=nocontext
says 'fake: platform "devimg fake platform": no context: fake vendor library makes no context'

# What the selector kept: a backend it names no device of is not opened;
# of one it names, the devices it kept.
# (The fake gives the backend of its file's name when it marks its start.)
cp "$fake" "$scratch/ocl/devimg-opencl.so"
mkdir -p "$scratch/marks"
why "$scratch/ocl" DEVIMG_TEST_FAKE=device DEVIMG_TEST_FAKE_MARKS="$scratch/marks" \
	DEVIMG_DEVICE_SELECTOR=opencl:gpu
says 'opencl: platform "devimg fake platform": 1 device (cpu), DEVIMG_DEVICE_SELECTOR kept 0'
says 'DEVIMG_DEVICE_SELECTOR=opencl:gpu'
why "$scratch/ocl" DEVIMG_TEST_FAKE=device DEVIMG_DEVICE_SELECTOR=cuda:gpu
says 'devimg-opencl.so not opened: DEVIMG_DEVICE_SELECTOR names no opencl device'
says "no plugin bound"

# The real OpenCL plugin without a driver: where the ICD loader looked.
[ -f "$opencl" ] || skip opencl "OpenCL plugin not built"
# The same plugin with the machine's drivers: is PoCL the first?
DEVIMG_PLUGIN_PATH=$top_builddir/plugins/.libs DEVIMG_DEVICE_SELECTOR='opencl:*' \
	POCL_CACHE_DIR=$scratch/pocl-cache "$LS" >"$scratch/ls.out" 2>&1 || :
first=$(sed -n '/^\[opencl:0\]/p' "$scratch/ls.out")
DEVIMG_PLUGIN_PATH=$top_builddir/plugins/.libs DEVIMG_DEVICE_SELECTOR='opencl:*' \
	OCL_ICD_VENDORS=$scratch/vendors "$LS" >"$scratch/out" 2>&1 || :
! grep -q '^\[opencl:' "$scratch/out" ||
	skip icd-vendors "the OpenCL ICD loader shows devices with OCL_ICD_VENDORS naming an empty folder"
why "$top_builddir/plugins/.libs" DEVIMG_DEVICE_SELECTOR='opencl:*' \
	OCL_ICD_VENDORS="$scratch/vendors"
says "opencl: no platform: the ICD loader found no driver in $scratch/vendors (OCL_ICD_VENDORS)"

# PoCL, which lists no device when it cannot make its cache folder.
case $first in
*PoCL*) ;;
*) skip pocl "the first OpenCL device is not PoCL's: $first" ;;
esac
why "$top_builddir/plugins/.libs" DEVIMG_DEVICE_SELECTOR='opencl:*' \
	POCL_CACHE_DIR=/proc/devimg-no-such-folder
says 'opencl: platform "Portable Computing Language": no device (PoCL lists none when it cannot make its cache folder'
