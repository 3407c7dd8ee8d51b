#!/bin/sh
# The CUDA plugin on a GPU: the end-to-end suite of tests/dispatch
# (dispatch-run main, nocompat, broken, threads) on PTX made from CUDA C in
# the device compiler's lowered form (tests/cuda/*.cu, compiled by clang at
# build time, so that a build tree carried to a GPU machine without clang
# runs it) and cuda-run's CUDA-only cases. Skips (77) without a CUDA
# device, saying why. Two GPUs: multi-gpu.sh; cubin and fatbin images:
# cubin.sh.
. "$top_srcdir/tests/cuda/common.sh"

need_gpu
copy_ptx

# PTX for a device newer than any: rejected at image selection.
printf '//\n.version 7.0\n.target sm_999\n.address_size 64\n' >future.ptx

# main: one image declared native, one left for devimg to guess.
lib main -target=nvptx64 -format=native -entries="$dsym" dispatch.ptx \
	-target=nvptx64 -format=none -entries=spec.sym -properties="$props" \
	spec.ptx
lib nocompat -target=nvptx64 -format=native -entries=ptx.sym future.ptx
lib broken -target=nvptx64 -format=native -entries=broken.sym broken.ptx
lib cuda -target=nvptx64 -format=native -entries=cuda.sym cuda.ptx \
	-target=nvptx64 -format=native -entries=spec-off.sym \
	-properties="$props" spec-off.ptx

DEVIMG_DEVICE_SELECTOR=cuda:*
export DEVIMG_DEVICE_SELECTOR

# The plugin's own check that every argument of a launch is set.
"$top_builddir/tests/cuda/launch-args" "$plugin" cuda.ptx >out.args 2>&1 ||
	fail "launch-args: $(cat out.args)"
cat out.args

# runner PROGRAM MODE LIBRARY: must pass; 77 only where allowed.
runner() {
	rc=0
	"$1" "$2" "$3" >"out.$2" 2>&1 || rc=$?
	cat "out.$2"
	[ "$rc" -eq 0 ] || fail "$(basename "$1") $2 $(basename "$3") exited $rc"
}

for mode in main nocompat broken threads; do
	libname=$mode
	[ "$mode" = threads ] && libname=main
	runner "$dispatch" "$mode" "$scratch/lib$libname.so"
done
grep -q "PTX for sm_999" out.nocompat ||
	fail "the rejection does not say why: $(cat out.nocompat)"
runner "$run" main "$scratch/libcuda.so"
