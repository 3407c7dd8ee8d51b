#!/bin/sh
# Device globals on a GPU, end to end: globals.ptx and globals-b.ptx
# (tests/cuda/globals*.cu) wrapped with the "SYCL/device globals" property
# sets a SYCL compiler gives them, and globals-run, which writes through
# devimg_global_write, launches kernels that add through each kind of
# global, and reads back. Skips (77) without a CUDA device, saying why.
. "$top_srcdir/tests/cuda/common.sh"

need_gpu
for f in globals globals-b; do
	[ -f "$built/$f.ptx" ] ||
		skip clang "no PTX built for the CUDA tests (configure found no clang)"
	cp "$built/$f.ptx" .
done
globals_run=$top_builddir/tests/cuda/globals-run
[ -x "$globals_run" ] ||
	fail "$globals_run is not built (make tests/cuda/globals-run)"

# Values: the 8-byte bit count 64, then the size of the value and the
# image-scope flag, 32 bits each (LSB-first base64, docs/formats.md):
# 16 and 1 for the counter, 4 and 0 for the pointer's value.
# The counter's id maps to its PTX name through "[SYCL/program metadata]"
# (the bit count 152, then "devimg_test_counter").
printf '[SYCL/device globals]\n%s\n%s\n[SYCL/program metadata]\n%s\n' \
	'6da74a122db9f35d____devimg_test_counter=2|ABAAAAAAAAAEAAAABAAAAA' \
	'devimg_test_ptr=2|ABAAAAAAAAABAAAAAAAAAA' \
	'6da74a122db9f35d____devimg_test_counter@global_id_mapping=2|YCAAAAAAAAAZlZXatd2X0V2c091YvVnb0Vmc' \
	>globals.props
printf '[SYCL/device globals]\n%s\n' \
	'devimg_test_ptr=2|ABAAAAAAAAABAAAAAAAAAA' >globals-b.props
printf 'bump_counter\nbump_ptr\n' >globals.sym
printf 'bump_ptr_b\n' >globals-b.sym
lib globals -target=nvptx64 -format=native -entries=globals.sym \
	-properties=globals.props globals.ptx \
	-target=nvptx64 -format=native -entries=globals-b.sym \
	-properties=globals-b.props globals-b.ptx

rc=0
DEVIMG_DEVICE_SELECTOR=cuda:0 "$globals_run" "$scratch/libglobals.so" \
	>out.globals 2>&1 || rc=$?
cat out.globals
[ "$rc" -eq 0 ] || fail "globals-run exited $rc"
