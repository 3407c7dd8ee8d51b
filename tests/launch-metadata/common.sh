# Sourced by launch-metadata.sh (PoCL) and launch-metadata-cuda.sh (a
# GPU): what both run of launch-run and how both check image selection by
# device requirements. Sets plugins, run (launch-run), WRAP and src (the
# .sym/.props). The caller has made sure of its device first (a 77 of
# launch-run, no device, is then a failure).
# shellcheck shell=sh
. "$top_srcdir/tests/lib.sh"

plugins=$top_builddir/plugins/.libs
run=$top_builddir/tests/launch-metadata/launch-run
WRAP=$top_builddir/devimg-wrap
src=$top_srcdir/tests/launch-metadata
: "${CC:=cc}"

# run MODE LIB [ARG...]: launch-run, its output shown; must pass.
run() {
	rc=0
	"$run" "$@" >"$scratch/out.$1" 2>"$scratch/err.$1" || rc=$?
	cat "$scratch/out.$1" "$scratch/err.$1"
	[ "$rc" -ne 77 ] || fail "launch-run $1 found no device"
	[ "$rc" -eq 0 ] || fail "launch-run $1 exited $rc"
}

# aspects ID...: an "aspects" property holding uint32 ids (LSB-first
# base64 of docs/formats.md section 2, precomputed: the shell has no
# encoder): those probe can name on PoCL's CPU and on a GPU, alone (the
# lacking aspect) or after the device type (1 cpu, 2 gpu: the present one).
aspects() {
	case "$*" in
	1) echo 'aspects=2|gAAAAAAAAAQAAAAA' ;;
	2) echo 'aspects=2|gAAAAAAAAAgAAAAA' ;;
	5) echo 'aspects=2|gAAAAAAAAAQBAAAA' ;;
	6) echo 'aspects=2|gAAAAAAAAAgBAAAA' ;;
	9) echo 'aspects=2|gAAAAAAAAAQCAAAA' ;;
	28) echo 'aspects=2|gAAAAAAAAAAHAAAA' ;;
	'1 1') echo 'aspects=2|ABAAAAAAAAQAAAAABAAAAA' ;;
	'1 6') echo 'aspects=2|ABAAAAAAAAQAAAAAGAAAAA' ;;
	'1 9') echo 'aspects=2|ABAAAAAAAAQAAAAAJAAAAA' ;;
	'1 10') echo 'aspects=2|ABAAAAAAAAQAAAAAKAAAAA' ;;
	'1 12') echo 'aspects=2|ABAAAAAAAAQAAAAAMAAAAA' ;;
	'1 28') echo 'aspects=2|ABAAAAAAAAQAAAAAcAAAAA' ;;
	'2 2') echo 'aspects=2|ABAAAAAAAAgAAAAACAAAAA' ;;
	'2 6') echo 'aspects=2|ABAAAAAAAAgAAAAAGAAAAA' ;;
	'2 9') echo 'aspects=2|ABAAAAAAAAgAAAAAJAAAAA' ;;
	'2 10') echo 'aspects=2|ABAAAAAAAAgAAAAAKAAAAA' ;;
	'2 12') echo 'aspects=2|ABAAAAAAAAgAAAAAMAAAAA' ;;
	'2 28') echo 'aspects=2|ABAAAAAAAAgAAAAAcAAAAA' ;;
	*) fail "no encoding for aspects $*" ;;
	esac
}

# requirements TYPE FORMAT EXT TARGET0 TARGET1 (in the scratch folder,
# after "run probe" or its like left out.probe): which aspect the device
# lacks, which it has (probe's LACK and HAVE lines); image 0 (TARGET0,
# which-1.EXT) needs the lacking one, image 1 (TARGET1, which-2.EXT) the
# device type TYPE (an aspect id) and the present one. pick must take
# image 1; nopick, with image 0 alone, must name the lacking aspect; and
# devimg-dump (dump.txt) shows it decoded.
requirements() {
	set -- "$@" $(grep '^LACK ' out.probe)
	[ $# -eq 8 ] || fail "probe: no LACK line"
	lack=$7 lack_name=$8
	set -- "$1" "$2" "$3" "$4" "$5" $(grep '^HAVE ' out.probe)
	[ $# -eq 8 ] || fail "probe: no HAVE line"
	have=$7
	printf 'which\n' >which.sym
	{ echo '[SYCL/device requirements]'; aspects "$lack"; } >needs-lacking.props
	{ echo '[SYCL/device requirements]'; aspects "$1" "$have"; } >needs-present.props
	lib pick -format="$2" -entries=which.sym \
		-target="$4" -properties=needs-lacking.props "which-1.$3" \
		-target="$5" -properties=needs-present.props "which-2.$3"
	lib nopick -format="$2" -entries=which.sym \
		-target="$4" -properties=needs-lacking.props "which-1.$3"
	run pick "$scratch/libpick.so"
	run nopick "$scratch/libnopick.so" "$lack_name" "$4"
	"$top_builddir/devimg-dump" pick.o >dump.txt ||
		fail "devimg-dump pick.o"
	grep -q "^      aspects = $lack_name\$" dump.txt ||
		fail "devimg-dump: $(cat dump.txt)"
}
