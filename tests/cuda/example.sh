#!/bin/sh
# examples/device-global on a GPU: a counter in a device global, set to 0,
# bumped by three launches, reads 3. Skips (77) without a CUDA device,
# saying why.
. "$top_srcdir/tests/cuda/common.sh"

need_gpu
example=$top_builddir/examples/device-global
[ -x "$example" ] ||
	skip clang "examples/device-global is not built (configure found no clang for PTX)"
rc=0
DEVIMG_DEVICE_SELECTOR=cuda:0 "$example" >out.example 2>&1 || rc=$?
cat out.example
[ "$rc" -eq 0 ] || fail "examples/device-global exited $rc"
grep -q ': counter after 3 launches: 3$' out.example ||
	fail "the counter does not read 3"
echo "ok examples/device-global"
