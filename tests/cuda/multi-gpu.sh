#!/bin/sh
# The CUDA plugin on two GPUs (cuda-run multigpu): a kernel built and run
# on each, each device's own result read back. Skips (77) with fewer than
# two CUDA devices.
. "$top_srcdir/tests/cuda/common.sh"

need_gpu
copy_ptx
lib cuda -target=nvptx64 -format=native -entries=cuda.sym cuda.ptx \
	-target=nvptx64 -format=native -entries=spec-off.sym \
	-properties="$props" spec-off.ptx
DEVIMG_DEVICE_SELECTOR=cuda:*
export DEVIMG_DEVICE_SELECTOR
rc=0
"$run" multigpu "$scratch/libcuda.so" >out.multi 2>&1 || rc=$?
cat out.multi
[ "$rc" -ne 77 ] ||
	skip cuda-multi "$(sed -n 's/^SKIP \[[a-z-]*\]: //p' out.multi | tail -n 1)"
[ "$rc" -eq 0 ] || fail "cuda-run multigpu exited $rc"
