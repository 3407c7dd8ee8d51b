#!/bin/sh
# The CUDA plugin's device-global operations on the recording driver
# (fake-driver.c), through tests/level_zero/global-ops: the module's
# .global variables found by their PTX names with cuModuleGetGlobal, the
# initializer of devimg_test_counter read back, writes read back, ranges
# and unknown names refused with messages that name the variable, a
# buffer's address stored in the pointer global, and the counter in a
# program linked from cuda.ptx and globals.ptx.
. "$top_srcdir/tests/cuda/common.sh"

[ -f "$built/globals.ptx" ] ||
	skip clang "no PTX built for the CUDA tests (configure found no clang)"
fake=$built/.libs/libcuda-fake.so
[ -f "$fake" ] || fail "$fake not built"
grep -q '^\.visible \.global .* devimg_test_counter\[16\] = {5, ' \
	"$built/globals.ptx" ||
	fail "globals.ptx defines no initialized devimg_test_counter"
copy_ptx
rm -f record.log
rc=0
DEVIMG_CUDA_DRIVER=$fake DEVIMG_FAKE_CUDA_LOG=$scratch/record.log \
	"$top_builddir/tests/level_zero/global-ops" "$plugin" native \
	"$built/globals.ptx" 5 cuda.ptx >out.globals 2>&1 || rc=$?
cat out.globals
[ "$rc" -eq 0 ] || fail "global-ops on the CUDA plugin exited $rc"
grep -qx "load 2 entries 2 globals on 0" record.log ||
	fail "the driver loaded no module with 2 globals: $(cat record.log)"
grep -qx "link complete 2 inputs" record.log &&
	[ "$(grep -c '^load [0-9]* entries 2 globals on 0$' record.log)" -eq 2 ] ||
	fail "no module linked from cuda.ptx and globals.ptx: $(cat record.log)"
echo "ok the CUDA plugin's device-global operations"
