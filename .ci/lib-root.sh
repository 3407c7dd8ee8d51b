# Sourced by .ci/trixie and .ci/sid: a Debian root made by debootstrap
# from Debian's own registry, this tree copied into it, commands run
# there. Run as root.
# shellcheck shell=bash

mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

mounted=()
unmount() {
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount "${mounted[i]}" || umount -l "${mounted[i]}" || true
	done
	mounted=()
}
trap unmount EXIT

# make_root SUITE ROOT: a fresh minbase root of SUITE in ROOT, /proc, /sys
# and /dev bound into it, this tree (committed and new, not ignored) in
# ROOT/src.
make_root() {
	local suite=$1 root=$2 d
	for d in proc sys dev; do
		if mountpoint -q "$root/$d" 2>/dev/null; then
			echo "$0: $root/$d is still mounted; unmount it first" >&2
			return 1
		fi
	done
	rm -rf "$root"
	if ! debootstrap --variant=minbase "$suite" "$root" "$mirror" \
		>"$root.debootstrap.log" 2>&1; then
		tail -n 30 "$root.debootstrap.log"
		return 1
	fi
	for d in proc sys dev; do
		mount --bind "/$d" "$root/$d"
		mounted+=("$root/$d")
	done
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	mkdir "$root/src"
	git ls-files -z --cached --others --exclude-standard |
		tar --null -T - -cf - | tar -xf - -C "$root/src"
}

# in_root ROOT SCRIPT: run the bash SCRIPT in ROOT/src with a clean
# environment, the functions below defined.
in_root() {
	chroot "$1" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
		bash -euo pipefail -c "cd /src
$(declare -f check_declared)
$2"
}

# check_declared: run in a root once ./bootstrap-deps has installed its
# platform's list: make check with the capabilities that list gives
# declared (DEVIMG_EXPECT, ./bootstrap-deps --expect), so that a test
# skipping for one of them fails; then the tests that skipped, each with
# the capability it lacked (a GPU, another platform's tools).
check_declared() {
	local t
	DEVIMG_EXPECT=$(./bootstrap-deps --expect 2>/dev/null)
	export DEVIMG_EXPECT
	echo "DEVIMG_EXPECT=$DEVIMG_EXPECT"
	if ! make -j"$(nproc)" check; then
		cat test-suite.log || true
		return 1
	fi
	echo "skipped here (capabilities this platform does not declare):"
	for t in $(find . -name '*.trs' -exec grep -l '^:test-result: SKIP' {} + |
		sort); do
		t=${t#./}
		echo "  ${t%.trs}: $(grep '^SKIP \[' "${t%.trs}.log" | tail -n 1)"
	done
}
