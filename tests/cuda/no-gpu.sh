#!/bin/sh
# The CUDA plugin where there is no GPU. Without a usable driver (none at
# the path DEVIMG_CUDA_DRIVER names, a driver whose cuInit finds no device,
# one that lacks an entry point) the plugin binds with no platform and
# says why, and OpenCL still works. On the recording driver
# (fake-driver.c), the plugin's launches carry what docs/formats.md
# section 11 asks for: local offsets and shared bytes, twins with their
# offsets, the opt-in above 48 KiB, the block it picks, contexts made
# current on new threads, managed memory over two GPUs; and separate
# compilation and linking (program_compile, program_link) of two PTX
# objects, on the recording driver and on one without the cuLink* calls.
. "$top_srcdir/tests/cuda/common.sh"

# ---- no usable driver: the plugin binds, shows nothing, says why ----

# nodevice DRIVER TEXT: cuda-run's checks, then the loader's trace.
nodevice() {
	DEVIMG_CUDA_DRIVER=$1 "$run" nodevice "$plugin" "$2" >out.nodev 2>&1 ||
		fail "no driver ($1): $(cat out.nodev)"
	cat out.nodev
	DEVIMG_CUDA_DRIVER=$1 DEVIMG_TRACE=1 "$list" >/dev/null 2>trace.nodev ||
		fail "plugin-list failed: $(cat trace.nodev)"
	grep -q "bound cuda from $plugin" trace.nodev ||
		fail "the CUDA plugin is not bound: $(cat trace.nodev)"
	grep -q "cuda: 0 platforms: .*$2" trace.nodev ||
		fail "no trace of why there is no CUDA platform: $(cat trace.nodev)"
}

nodevice "$scratch/nowhere/libcuda.so.1" \
	"cannot load the CUDA driver $scratch/nowhere/libcuda.so.1"

# A driver whose every call fails, cuInit with CUDA_ERROR_NO_DEVICE; and
# one without cuLaunchKernel. Their entry points are driver.h's.
symbols=$(sed -n 's/^[[:space:]]*X(\(cu[A-Za-z0-9_]*\), \(cu[A-Za-z0-9_]*\),.*/\2/p' \
	"$top_srcdir/plugins/cuda/driver.h")
echo "$symbols" | grep -qx cuLaunchKernel || fail "no entry points read from driver.h"
stub() {
	for s in $symbols; do
		case $s in
		cuInit) echo "int cuInit(unsigned f) { (void)f; return 100; }" ;;
		"$2"|cuGetErrorName) ;;
		*) echo "int $s(void) { return 999; }" ;;
		esac
	done >"$1.c"
	$CC -shared -fPIC -o "$1" "$1.c" || fail "cannot build the stub driver $1"
}
stub "$scratch/libcuda-nodev.so" ""
nodevice "$scratch/libcuda-nodev.so" "cuInit(0): CUDA_ERROR_NO_DEVICE (100)"
stub "$scratch/libcuda-old.so" cuLaunchKernel
nodevice "$scratch/libcuda-old.so" "has no cuLaunchKernel"
echo "ok without a driver: bound, no platform, the reason traced"

# ---- the recording driver: what the plugin asks of the driver ----

copy_ptx
fake=$built/.libs/libcuda-fake.so
[ -f "$fake" ] || fail "$fake not built"
# record DEVICES: cuda-run record on a context over DEVICES fake GPUs.
record() {
	rm -f record.log
	lib fake -target=nvptx64 -format=native -entries=cuda.sym \
		-compile-opts="-O3 -lineinfo -fno-such-option" cuda.ptx \
		-target=nvptx64 -format=native -entries=spec-off.sym \
		-properties="$props" spec-off.ptx
	DEVIMG_CUDA_DRIVER=$fake DEVIMG_FAKE_CUDA_LOG=$scratch/record.log \
		DEVIMG_FAKE_CUDA_DEVICES=$1 DEVIMG_DEVICE_SELECTOR=cuda:* \
		"$run" record "$scratch/libfake.so" >out.record 2>&1 ||
		fail "cuda-run record on $1 fake GPUs: $(cat out.record)"
}
expect() {
	grep -qxF -- "$1" record.log ||
		fail "the driver saw no '$1' in: $(cat record.log)"
}
record 1
expect "launch local_layout grid 1 1 1 block 2 1 1 shared 328 params x8 x8 x8 u32:0 u32:32 u32:128"
expect "launch which grid 1 1 1 block 1 1 1 shared 0 params x8"
expect "launch which_with_offset grid 1 1 1 block 1 1 1 shared 0 params x8 o:5,0,0"
expect "launch which_with_offset grid 1 1 1 block 1 1 1 shared 0 params x8 o:0,0,9"
expect "attr big_shared 8 232448"
expect "launch big_shared grid 4 1 1 block 256 1 1 shared 65536 params x8 u32:16384 u32:0"
expect "launch spec_off_with_offset grid 2 1 1 block 4 1 1 shared 16 params x8 u32:0 x8 o:3,0,0"
expect "launch scale grid 4 1 1 block 250 1 1 shared 0 params x8 u32:1073741824"
# In order: the plugin's block twice, local sizes 100 (x4), its block,
# 200 (x4): each launch shaped as asked, whatever the last one was (the
# threads launch scale after these).
scale_blocks=$(sed -n 's/^launch scale grid \([0-9]*\) 1 1 block \([0-9]*\) 1 1 .*/\1x\2/p' \
	record.log | head -n 11 | tr '\n' ' ')
[ "$scale_blocks" = "4x250 4x250 10x100 10x100 10x100 10x100 4x250 5x200 5x200 5x200 5x200 " ] ||
	fail "launches of scale shaped as $scale_blocks"
expect "launch notwin grid 1 1 1 block 5 4 3 shared 0 params x8"
expect "jit option 7=3"
expect "jit option 13=1"
expect "alloc device 12 on 0"
! grep -q "^alloc managed\|^stream flags" record.log ||
	fail "managed memory or blocking streams on one GPU: $(cat record.log)"
[ "$(grep -c '^attr ' record.log)" -eq 1 ] ||
	fail "opted in more than once: $(cat record.log)"
record 2
expect "alloc managed 12 on 0"
! grep -q "^alloc device" record.log ||
	fail "device memory in a context over two GPUs: $(cat record.log)"
echo "ok the recording driver saw the launches docs/formats.md asks for"

# The plugin's own check that every argument of a launch is set, on a
# driver of one GPU and of two: it takes the first, loads and allocates
# there and nowhere else, however many there are.
for n in 1 2; do
	rm -f record.log
	DEVIMG_CUDA_DRIVER=$fake DEVIMG_FAKE_CUDA_LOG=$scratch/record.log \
		DEVIMG_FAKE_CUDA_DEVICES=$n \
		"$top_builddir/tests/cuda/launch-args" "$plugin" cuda.ptx \
		>out.args 2>&1 || fail "launch-args on $n fake GPUs: $(cat out.args)"
	cat out.args
	grep -q "^device 0 of $n: " out.args ||
		fail "launch-args on $n fake GPUs: $(cat out.args)"
	grep -q '^load [0-9]* entries on 0$' record.log &&
		grep -q '^alloc device 64 on 0$' record.log ||
		fail "launch-args on $n fake GPUs: not on device 0: $(cat record.log)"
	! grep -q ' on [1-9][0-9]*$' record.log ||
		fail "launch-args on $n fake GPUs: another device used: $(cat record.log)"
done


# ---- separate compilation and linking: cuda-run link on the plugin ----

for f in link-caller link-helper; do
	cp "$built/$f.ptx" . || fail "no $f.ptx built"
done
grep -q '^\.extern \.func .*devimg_link_helper$' link-caller.ptx ||
	fail "link-caller.ptx declares no .extern .func devimg_link_helper"
grep -q '^\.visible \.func .*devimg_link_helper($' link-helper.ptx ||
	fail "link-helper.ptx defines no .visible .func devimg_link_helper"
rm -f record.log
DEVIMG_CUDA_DRIVER=$fake DEVIMG_FAKE_CUDA_LOG=$scratch/record.log \
	"$run" link "$plugin" link-caller.ptx link-helper.ptx >out.link 2>&1 ||
	fail "cuda-run link: $(cat out.link)"
cat out.link
grep -q "cuLinkComplete.*CUDA_ERROR_INVALID_SOURCE" out.link &&
	grep -q "Undefined reference to 'devimg_link_helper' in 'image0'" out.link ||
	fail "the failed link does not show the linker's log: $(cat out.link)"
expect "link add PTX image0"
expect "link add PTX image1"
expect "link image0 option 7=3"
expect "link option 7=2"
expect "link complete failed on devimg_link_helper"
expect "link complete 2 inputs"
expect "launch link_caller grid 1 1 1 block 8 1 1 shared 0 params x8"
expect "launch link_caller_with_offset grid 1 1 1 block 8 1 1 shared 0 params x8 o:4,0,0"
[ "$(grep -c '^link create' record.log)" -eq 3 ] &&
	[ "$(grep -c '^link destroy' record.log)" -eq 3 ] ||
	fail "not one cuLinkDestroy for each of 3 cuLinkCreate: $(cat record.log)"
nolink=$built/.libs/libcuda-fake-nolink.so
[ -f "$nolink" ] || fail "$nolink not built"
DEVIMG_CUDA_DRIVER=$nolink "$run" nolink "$plugin" link-caller.ptx \
	>out.nolink 2>&1 || fail "cuda-run nolink: $(cat out.nolink)"
cat out.nolink
echo "ok compiled PTX objects linked, kernels found in the link, its failures"
