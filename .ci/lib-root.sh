# Sourced by .ci/trixie and .ci/sid: a Debian root made by debootstrap
# from Debian's own registry, this tree copied into it, commands run
# there. Run as root.
# shellcheck shell=bash

mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
# Tests that need hardware no CI machine has; any other skip is a failure.
gpu_only="tests/cuda/cuda.sh tests/cuda/globals.sh tests/cuda/example.sh"
gpu_only="$gpu_only tests/launch-metadata/launch-metadata-cuda.sh"
gpu_only="$gpu_only tests/bundle/bundle-cuda.sh tests/plugins/opencl-nvidia.sh"

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

# in_root ROOT SCRIPT [MAY_SKIP]: run the bash SCRIPT in ROOT/src with a
# clean environment; GPU_ONLY holds the tests that may skip, with
# MAY_SKIP (tests whose tools the root lacks, named in the caller).
in_root() {
	chroot "$1" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
		GPU_ONLY="$gpu_only ${3:-}" bash -euo pipefail -c "cd /src
$(declare -f check_skips)
$2"
}

# check_skips: run in a root after make check: fails on any skipped test
# outside $GPU_ONLY.
check_skips() {
	local t bad=
	for t in $(grep -l '^:test-result: SKIP' $(find tests -name '*.trs') |
		sed 's/\.trs$//' | sort); do
		case " $GPU_ONLY " in
		*" $t "*) echo "skipped (allowed here): $t" ;;
		*) echo "FAIL: $t skipped: $(grep -m1 '^SKIP' "$t.log" || true)"
		   bad=1 ;;
		esac
	done
	[ -z "$bad" ]
}
