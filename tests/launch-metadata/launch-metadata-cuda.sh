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
. "$top_srcdir/tests/launch-metadata/common.sh"

ptx=$top_builddir/tests/launch-metadata
[ -f "$plugins/devimg-cuda.so" ] || skip build "CUDA plugin not built"
[ -x "$WRAP" ] || skip build "devimg-wrap is not built"
[ -f "$ptx/launch.ptx" ] ||
	skip clang "no PTX built for tests/launch-metadata (configure found no clang)"

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
	why=$(sed -n 's/^libdevimg: plugins: cuda: 0 platforms: //p' trace.gpu |
		head -n 1)
	skip cuda-device "no CUDA device: ${why:-the driver shows none}"
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
# plugin today; fp16 before sm_53), which it has beyond its type. Both
# images are nvptx64, so the first qualifying one is taken: image 0 would
# be, but it needs the lacking aspect; image 1 needs gpu and the present
# one.
requirements 2 native ptx nvptx64 nvptx64
grep -q "^      aspects = gpu, " dump.txt || fail "devimg-dump: $(cat dump.txt)"
exit 0
