#!/bin/sh
# The dispatch suite's main run on a GPU with the images as cubin (made by
# ptxas for the device's compute capability) and as fatbin (fatbinary:
# the cubin and the PTX), one image declared native and one left for
# devimg to guess. Skips (77) without a CUDA device or without the CUDA
# toolkit's ptxas and fatbinary.
. "$top_srcdir/tests/cuda/common.sh"

need_gpu
cc=$(sed -n 's/^cc //p' out.info)
[ -n "$cc" ] || fail "cuda-run info printed no compute capability"
copy_ptx
PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
FATBINARY=$(command -v fatbinary || echo /usr/local/cuda/bin/fatbinary)
[ -x "$PTXAS" ] || skip cuda-toolkit "no ptxas (the CUDA toolkit) on PATH or in /usr/local/cuda/bin"
[ -x "$FATBINARY" ] || skip cuda-toolkit "no fatbinary (the CUDA toolkit) on PATH or in /usr/local/cuda/bin"
DEVIMG_DEVICE_SELECTOR=cuda:*
export DEVIMG_DEVICE_SELECTOR

for f in dispatch spec; do
	"$PTXAS" -arch=sm_"$cc" -o "$f.cubin" "$f.ptx" ||
		fail "$PTXAS could not make $f.cubin for sm_$cc"
done
lib cubin -target=nvptx64 -format=native -entries="$dsym" dispatch.cubin \
	-target=nvptx64 -format=none -entries=spec.sym \
	-properties="$props" spec.cubin
"$dispatch" main "$scratch/libcubin.so" || fail "dispatch-run main on cubin images failed"
echo "ok the suite on cubin images (sm_$cc)"

for f in dispatch spec; do
	"$FATBINARY" --64 --create="$f.fatbin" \
		--image3=kind=elf,sm="$cc",file="$f.cubin" \
		--image3=kind=ptx,sm=80,file="$f.ptx" ||
		fail "$FATBINARY could not make $f.fatbin"
done
lib fatbin -target=nvptx64 -format=native -entries="$dsym" \
	dispatch.fatbin -target=nvptx64 -format=native \
	-entries=spec.sym -properties="$props" spec.fatbin
"$dispatch" main "$scratch/libfatbin.so" || fail "dispatch-run main on fatbin images failed"
echo "ok the suite on fatbin images"
