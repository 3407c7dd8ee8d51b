# Sourced by the CUDA tests: where things are, and the PTX of the test
# kernels copied to the scratch folder (the tests skip without it), with
# the .sym files of their images.
# shellcheck shell=sh
. "$top_srcdir/tests/lib.sh"

plugins=$top_builddir/plugins/.libs
plugin=$plugins/devimg-cuda.so
run=$top_builddir/tests/cuda/cuda-run
dispatch=$top_builddir/tests/dispatch/dispatch-run
list=$top_builddir/tests/plugins/plugin-list
WRAP=$top_builddir/devimg-wrap
built=$top_builddir/tests/cuda
dsym=$top_srcdir/tests/dispatch/dispatch.sym
props=$top_srcdir/tests/dispatch/spec.props
[ -f "$plugin" ] || skip build "CUDA plugin not built"
[ -x "$WRAP" ] || skip build "devimg-wrap is not built"
: "${CC:=cc}"

mkdir -p "$scratch/pocl-cache"
POCL_CACHE_DIR=$scratch/pocl-cache
DEVIMG_PLUGIN_PATH=$plugins
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/cuda/lsan.supp:print_suppressions=0
export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH LSAN_OPTIONS
cd "$scratch"

# copy_ptx: the test kernels' PTX and .sym files here, or skip.
copy_ptx() {
	for f in dispatch spec broken cuda spec-off; do
		[ -f "$built/$f.ptx" ] ||
			skip clang "no PTX built for the CUDA tests (configure found no clang)"
		cp "$built/$f.ptx" .
	done
	printf 'spec_k\n' >spec.sym
	printf 'broken_k\n' >broken.sym
	printf 'ptx_only\n' >ptx.sym
	printf 'local_layout\nbig_shared\nwhich\nnotwin\nscale\n' >cuda.sym
	printf 'spec_off\n' >spec-off.sym
}

# need_gpu: cuda-run info's output in out.info, or skip (77) saying why
# there is no CUDA device.
need_gpu() {
	rc=0
	"$run" info >out.info 2>&1 || rc=$?
	cat out.info
	if [ "$rc" -eq 77 ]; then
		DEVIMG_TRACE=1 "$list" >/dev/null 2>trace.gpu || true
		why=$(sed -n 's/^libdevimg: plugins: cuda: 0 platforms: //p' trace.gpu)
		skip cuda-device "no CUDA device: ${why:-the driver shows none}"
	fi
	[ "$rc" -eq 0 ] || fail "cuda-run info exited $rc"
}
