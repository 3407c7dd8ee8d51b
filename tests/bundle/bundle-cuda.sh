#!/bin/sh
# Kernel bundles on a GPU through the CUDA plugin (tests/bundle/common.sh):
# PTX built by clang at build time; link_caller is linked with the helper's
# image by the CUDA linker and run. Skips (77) without a CUDA device.
ext=ptx
ldir=$top_builddir/tests/cuda
kdir=$top_builddir/tests/cuda
which1=$top_builddir/tests/launch-metadata/which-1.ptx
which2=$top_builddir/tests/launch-metadata/which-2.ptx
fmt=native
base_target=nvptx64
targets="nvptx64 nvptx64"
selector=cuda:*
device_cap=cuda-device
link=run
[ -f "$top_builddir/plugins/.libs/devimg-cuda.so" ] ||
	{ echo "SKIP [build]: CUDA plugin not built"; exit 77; }
. "$top_srcdir/tests/bundle/common.sh"
