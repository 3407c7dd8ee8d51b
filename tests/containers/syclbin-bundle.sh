#!/bin/sh
# devimg_bundle_new_from_syclbin() on PoCL (tests/containers/syclbin-run.c)
# with SYCLBIN files of tests/dispatch/dispatch.spv: one from devimg-wrap
# --syclbin, and ones laid out as DPC++'s runtime writes them (mk-syclbin),
# bare and in their envelope, in each state: the state, the kernels
# registered, refusals, and the bundle's image for the device (the module
# where it takes SPIR-V, none elsewhere). With --launch
# (tests/containers/syclbin-launch.sh), on a device that takes SPIR-V
# only, off1 is also launched from each bundle and its output read back.
. "$top_srcdir/tests/lib.sh"
[ -f "$top_builddir/plugins/.libs/devimg-opencl.so" ] ||
	skip opencl "OpenCL plugin not built"
spv=$top_builddir/tests/dispatch/dispatch.spv
[ -f "$spv" ] || skip llvm-spirv "$spv is not built (no clang or llvm-spirv)"
run=$top_builddir/tests/containers/syclbin-run
mk=$top_builddir/tests/containers/mk-syclbin
export DEVIMG_PLUGIN_PATH=$top_builddir/plugins/.libs
DEVIMG_DEVICE_SELECTOR=${DEVIMG_DEVICE_SELECTOR:-$(opencl_selector opencl:cpu)}
export DEVIMG_DEVICE_SELECTOR
export POCL_CACHE_DIR=$scratch/pocl-cache
formats=$(device_formats)
[ -n "$formats" ] || skip opencl-device "no OpenCL device"
case ${1:-} in
'') launch=no ;;
--launch) launch=yes ;;
*) fail "usage: syclbin-bundle.sh [--launch]" ;;
esac
case $launch" $formats " in
yes*" spirv "*) expect=run ;;
yes*) skip spirv "the OpenCL device takes no SPIR-V ($formats)" ;;
*" spirv "*) expect=hold ;;
*) expect=none ;;
esac
echo "# device formats: $formats; the bundle: $expect"
kernels="vadd off1 off2 off3 reduce"
cd "$scratch"

"$top_builddir/devimg-wrap" -kind=sycl -syclbin=executable -o w.syclbin \
	-format=spirv -target=spir64 \
	-entries="$top_srcdir/tests/dispatch/dispatch.sym" "$spv" ||
	fail "devimg-wrap --syclbin failed"
"$mk" envelope 0 input.syclbin "$spv" vadd,off1,off2,off3,reduce ||
	fail "mk-syclbin"
"$mk" bare 1 object.syclbin "$spv" vadd,off1,off2,off3,reduce ||
	fail "mk-syclbin"
"$mk" envelope 2 exe.syclbin "$spv" vadd,off1,off2,off3,reduce ||
	fail "mk-syclbin"

for f in w:executable input:input object:object exe:executable; do
	file=${f%%:*}.syclbin
	state=${f#*:}
	# shellcheck disable=SC2086
	"$run" "$file" "$state" "$expect" $kernels >out 2>err
	rc=$?
	cat out err
	[ $rc -eq 77 ] && skip opencl-device "syclbin-run found no device"
	[ $rc -eq 0 ] || fail "$file: syclbin-run failed ($rc)"
	if [ "$expect" = run ]; then
		grep -q '^off1 from the SYCLBIN: 64 values read back$' out ||
			fail "$file: off1 did not run"
	elif [ "$expect" = hold ]; then
		grep -q '^the bundle holds the module and its 5 kernels$' out ||
			fail "$file: the module's kernels were not checked"
	else
		[ "$(grep -c '^no image: .* takes no SPIR-V$' out)" -eq 1 ] ||
			fail "$file: no one-line 'no image' line"
	fi
done

# Files whose modules share one large metadata range 300 times
# (DEVIMG_LIMIT_REFERENCE_RATIO): refused whole, before any is built.
"$mk" v2 300 300 100000 share-am,share-ir shared-v2.syclbin &&
	"$mk" many 300 300 share-ir,fat shared-bare.syclbin || fail "mk-syclbin"
for f in shared-v2 shared-bare; do
	"$run" $f.syclbin refused "come to more than 16 times the" >out 2>err
	rc=$?
	cat out err
	[ $rc -eq 0 ] || fail "$f: not refused as expected ($rc)"
done
exit 0
