#!/bin/sh
# A plugin whose operation table stops at the minimum size (the fake
# plugin's "short" mode) has no program_compile: an image importing a
# symbol from another image must be linked, and the loader refuses with
# -ENOTSUP, naming the operation and the plugin's file as it does for any
# absent operation. The full table ("device") reaches the plugin instead.
. "$top_srcdir/tests/lib.sh"

fake=$top_builddir/tests/plugins/.libs/devimg-fake.so
bundle_run=$top_builddir/tests/bundle/bundle-run
WRAP=$top_builddir/devimg-wrap
[ -f "$fake" ] || fail "$fake not built"
[ -x "$bundle_run" ] || fail "$bundle_run not built"
cd "$scratch"
for m in link-caller link-helper; do
	cp "$top_builddir/tests/bundle/$m.spv" . ||
		skip llvm-spirv "no $m.spv built (configure found no clang or llvm-spirv)"
done

lib caller -format=spirv -target=spir64 \
	-entries="$top_srcdir/tests/bundle/link-caller.sym" \
	-properties="$top_srcdir/tests/bundle/link-caller.props" link-caller.spv
lib helper -format=spirv -target=spir64 \
	-properties="$top_srcdir/tests/bundle/link-helper.props" link-helper.spv

# The fake plugin alone: its one device is the device.
DEVIMG_PLUGIN_PATH=${fake%/*}
export DEVIMG_PLUGIN_PATH
unset DEVIMG_DEVICE_SELECTOR

# link_run MODE: bundle-run's link group expecting -ENOTSUP; its message.
link_run() {
	DEVIMG_TEST_FAKE=$1 "$bundle_run" link notsup ./libcaller.so \
		./libhelper.so >out 2>&1 ||
		fail "bundle-run link notsup ($1) failed: $(cat out)"
	grep "^link: " out || fail "no link message ($1): $(cat out)"
}

msg=$(link_run short)
echo "# short table: $msg"
case $msg in
*"must be linked with them on "*": the fake plugin ($fake) has no program_compile operation") ;;
*) fail "short table: unexpected message: $msg" ;;
esac

msg=$(link_run device)
echo "# whole table: $msg"
case $msg in
*"fake: no program_compile"*) ;;
*) fail "whole table: unexpected message: $msg" ;;
esac
