#!/bin/sh
# 16 threads creating kernels and launching them on PoCL while 50 wrapped
# libraries are opened and closed in random order (stress-run.c says
# what is checked). STRESS_THREADS, STRESS_ROUNDS and STRESS_LIBS change
# the size; make stress-tsan sets STRESS_RUN and STRESS_PLUGINS to its
# ThreadSanitizer build.
. "$top_srcdir/tests/lib.sh"

WRAP=$top_builddir/devimg-wrap
run=${STRESS_RUN:-$top_builddir/tests/stress/stress-run}
plugins=${STRESS_PLUGINS:-$top_builddir/plugins/.libs}
img=$top_builddir/tests/stress
libs=${STRESS_LIBS:-50}
[ -x "$WRAP" ] || skip build "devimg-wrap is not built"
[ -f "$plugins/devimg-opencl.so" ] || skip opencl "OpenCL plugin not built"
: "${CC:=cc}"
# The images in the format the device takes (SPIR-V where it can), as
# image selection would choose; lib<n>.spv and lib<n>.bc come from
# stress.cl at build time. devimg-ls asks the plugins of the build tree
# (not those of STRESS_PLUGINS, which need ThreadSanitizer's runtime).
device_format "$img" lib0

cd "$scratch"
n=0
while [ $n -lt "$libs" ]; do
	printf 'own_%d\nshared_k\n' $n >k$n.sym
	"$WRAP" -o w$n.o -kind=sycl -target=spir64 -format="$fmt" \
		-entries=k$n.sym "$img/lib$n.$ext" || fail "devimg-wrap lib$n.$ext"
	$CC -shared -o libstress$n.so w$n.o || fail "cannot link libstress$n.so"
	n=$((n + 1))
done

mkdir -p pocl-cache
POCL_CACHE_DIR=$scratch/pocl-cache
DEVIMG_PLUGIN_PATH=$plugins
DEVIMG_DEVICE_SELECTOR=$(opencl_selector 'opencl:*')
export POCL_CACHE_DIR DEVIMG_PLUGIN_PATH DEVIMG_DEVICE_SELECTOR
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/plugins/lsan.supp:print_suppressions=0
export LSAN_OPTIONS

start=$(date +%s)
rc=0
"$run" "$scratch" "$libs" "${STRESS_THREADS:-16}" "${STRESS_ROUNDS:-12}" \
	>out 2>&1 || rc=$?
cat out
[ $rc -ne 77 ] || skip opencl-device "PoCL shows no OpenCL device"
[ $rc -eq 0 ] || fail "stress-run exited $rc"
echo "stress: $(($(date +%s) - start)) s"
