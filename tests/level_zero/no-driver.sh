#!/bin/sh
# No Level Zero driver: the plugin still binds, reports no platform and
# leaves the reason (zeInit's result) as its message, which the loader
# traces; a context asking for level_zero:* has no device. Run twice:
# with the loader pointed at a driver file that does not exist (certain on
# any machine), and with no ZE_ENABLE_ALT_DRIVERS at all where no known
# driver is installed.
. "$top_srcdir/tests/level_zero/common.sh"

why='zeInit: ZE_RESULT_ERROR_UNINITIALIZED (0x78000001): no Level Zero driver'

nodriver() {
	DEVIMG_TRACE=1 "$run" nodriver "$plugin" >"$scratch/out" \
		2>"$scratch/err" || {
		cat "$scratch/out" "$scratch/err"
		fail "contract-run nodriver failed ($1)"
	}
	cat "$scratch/out"
	grep -q "^libdevimg: plugins: bound level_zero from $plugin (ABI 1)$" \
		"$scratch/err" ||
		fail "the plugin did not bind ($1): $(cat "$scratch/err")"
	grep -q "^libdevimg: plugins: level_zero: 0 platforms: $why$" \
		"$scratch/err" ||
		fail "no trace of why ($1): $(cat "$scratch/err")"
}

ZE_ENABLE_ALT_DRIVERS=$scratch/no-such-driver.so
export ZE_ENABLE_ALT_DRIVERS
nodriver "a driver file that is not there"
unset ZE_ENABLE_ALT_DRIVERS

# Whether the loader's default search may find a driver (the libraries
# loader 1.8 tries); when ldconfig cannot say, assume it may.
driver_installed() {
	libs=$(PATH=$PATH:/sbin:/usr/sbin ldconfig -p 2>/dev/null) || return 0
	echo "$libs" | grep -q 'libze_\(intel_gpu\|intel_vpu\|null\)\.so'
}

if driver_installed; then
	echo "a Level Zero driver may be installed: not run without ZE_ENABLE_ALT_DRIVERS"
else
	nodriver "no ZE_ENABLE_ALT_DRIVERS"
fi
