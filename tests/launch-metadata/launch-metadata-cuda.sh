#!/bin/sh
# Launch metadata end to end on a GPU through the CUDA plugin:
# launch-metadata.sh's cases on PTX made at build time from the same
# kernels in lowered CUDA C (tests/launch-metadata/*.cu: same names, same
# arguments; local memory as byte
# offsets into the dynamic shared memory, the emulated spec-constant
# buffer last), wrapped as nvptx64 with the same .sym/.props. Checks
# argument tables (arrays by value, arrays of buffers, buffers in a
# struct, local memory), eliminated arguments (the PTX kernel lacks them;
# also with emulated spec constants), a required work-group size (5x2,
# the kernel writes its block size) and image selection by device
# requirements with an aspect the plugin reports absent. A build tree
# carried to a GPU machine needs no clang. Skips (77) without a CUDA
# device, saying why in one line.
. "$top_srcdir/tests/lib.sh"

plugins=$top_builddir/plugins/.libs
run=$top_builddir/tests/launch-metadata/launch-run
WRAP=$top_builddir/devimg-wrap
src=$top_srcdir/tests/launch-metadata
ptx=$top_builddir/tests/launch-metadata
[ -f "$plugins/devimg-cuda.so" ] || skip "CUDA plugin not built"
[ -x "$WRAP" ] || skip "devimg-wrap is not built"
[ -f "$ptx/launch.ptx" ] ||
	skip "no PTX built for tests/launch-metadata (configure found no clang)"
: "${CC:=cc}"

# run MODE LIB [ARG...]: launch-run, its output shown; must pass.
run() {
	rc=0
	"$run" "$@" >"$scratch/out.$1" 2>"$scratch/err.$1" || rc=$?
	cat "$scratch/out.$1" "$scratch/err.$1"
	[ "$rc" -eq 0 ] || fail "launch-run $1 exited $rc"
}

# aspects ID...: an "aspects" property holding uint32 ids (LSB-first
# base64 of docs/formats.md section 2, precomputed: the shell has no encoder).
# Those probe can name on a GPU: lacking one of 5 28 6 9 1, having the
# device type (2) and one of 6 28 9 10 12 2.
aspects() {
	case "$*" in
	1) echo 'aspects=2|gAAAAAAAAAQAAAAA' ;;
	5) echo 'aspects=2|gAAAAAAAAAQBAAAA' ;;
	6) echo 'aspects=2|gAAAAAAAAAgBAAAA' ;;
	9) echo 'aspects=2|gAAAAAAAAAQCAAAA' ;;
	28) echo 'aspects=2|gAAAAAAAAAAHAAAA' ;;
	'2 2') echo 'aspects=2|ABAAAAAAAAgAAAAACAAAAA' ;;
	'2 6') echo 'aspects=2|ABAAAAAAAAgAAAAAGAAAAA' ;;
	'2 9') echo 'aspects=2|ABAAAAAAAAgAAAAAJAAAAA' ;;
	'2 10') echo 'aspects=2|ABAAAAAAAAgAAAAAKAAAAA' ;;
	'2 12') echo 'aspects=2|ABAAAAAAAAgAAAAAMAAAAA' ;;
	'2 28') echo 'aspects=2|ABAAAAAAAAgAAAAAcAAAAA' ;;
	*) fail "no encoding for aspects $*" ;;
	esac
}

cd "$scratch"
for f in launch elim-spec which-1 which-2; do
	cp "$ptx/$f.ptx" . || fail "$ptx/$f.ptx is missing"
done
DEVIMG_PLUGIN_PATH=$plugins
DEVIMG_DEVICE_SELECTOR=cuda:*
export DEVIMG_PLUGIN_PATH DEVIMG_DEVICE_SELECTOR
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/cuda/lsan.supp:print_suppressions=0
export LSAN_OPTIONS

lib launch -target=nvptx64 -format=native -entries="$src/launch.sym" \
	-properties="$src/launch.props" launch.ptx

# Is there a CUDA device? probe exits 77 when the context has none; then
# the plugin's trace says why (no driver, no GPU, ...). Otherwise probe
# checks that the device is a GPU whose plugin reports aspects.
rc=0
"$run" probe "$scratch/liblaunch.so" gpu >out.probe 2>err.probe || rc=$?
if [ "$rc" -eq 77 ]; then
	DEVIMG_TRACE=1 "$run" probe "$scratch/liblaunch.so" gpu >/dev/null \
		2>trace.gpu || true
	why=$(sed -n 's/^devimg: plugins: cuda: 0 platforms: //p' trace.gpu |
		head -n 1)
	skip "no CUDA device: ${why:-the driver shows none}"
fi
cat out.probe err.probe
[ "$rc" -eq 0 ] || fail "launch-run probe exited $rc"

for mode in args elim wg; do
	run $mode "$scratch/liblaunch.so"
done
lib elimspec -target=nvptx64 -format=native \
	-entries="$src/elim-spec.sym" -properties="$src/elim-spec.props" \
	elim-spec.ptx
run elimspec "$scratch/libelimspec.so"

# Device requirements: which aspect the GPU lacks (image on the CUDA
# plugin today; fp16 before sm_53), which it has beyond its type.
set -- $(grep '^LACK ' out.probe)
[ $# -eq 3 ] || fail "probe: no LACK line"
lack=$2 lack_name=$3
set -- $(grep '^HAVE ' out.probe)
[ $# -eq 3 ] || fail "probe: no HAVE line"
have=$2

# Both images are nvptx64, so the first qualifying one is taken: image 0
# would be, but it needs the lacking aspect; image 1 needs gpu and the
# present one.
printf 'which\n' >which.sym
{ echo '[SYCL/device requirements]'; aspects "$lack"; } >needs-lacking.props
{ echo '[SYCL/device requirements]'; aspects 2 "$have"; } >needs-present.props
lib pick -target=nvptx64 -format=native -entries=which.sym \
	-properties=needs-lacking.props which-1.ptx \
	-properties=needs-present.props which-2.ptx
lib nopick -target=nvptx64 -format=native -entries=which.sym \
	-properties=needs-lacking.props which-1.ptx
run pick "$scratch/libpick.so"
run nopick "$scratch/libnopick.so" "$lack_name" nvptx64

# devimg-dump shows the same requirements decoded.
"$top_builddir/devimg-dump" pick.o >dump.txt || fail "devimg-dump pick.o"
grep -q "^      aspects = $lack_name\$" dump.txt ||
	fail "devimg-dump: $(cat dump.txt)"
grep -q "^      aspects = gpu, " dump.txt || fail "devimg-dump: $(cat dump.txt)"
exit 0
