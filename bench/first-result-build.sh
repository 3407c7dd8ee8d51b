# shellcheck shell=sh disable=SC2154 # top_builddir, bench: the caller's
# Sourced by bench/first-result.sh and bench/first-result-smoke.sh: builds
# the time-to-first-result programs into the current folder.
#
# Needs top_srcdir, top_builddir, CC (CFLAGS, OPENCL_CFLAGS, OPENCL_LIBS,
# CLANG, LLVM_SPIRV for OpenCL) and bench (for messages);
# FIRST_WARN: extra compiler flags (the smoke test's warnings). The
# functions return non-zero on the first step that fails (callers may
# test them, which turns set -e off inside).

first_wrap=$top_builddir/devimg-wrap
first_libdir=$top_builddir/loader/.libs

# first_cc OUTPUT SOURCE [OBJECT|FLAG]...: compile one program.
first_cc() {
	first_o=$1
	first_src=$2
	shift 2
	# shellcheck disable=SC2086
	${CC:-cc} -std=c11 ${CFLAGS:-} ${FIRST_WARN:-} \
		-I"$top_srcdir" -I"$top_srcdir/include" -o "$first_o" \
		"$top_srcdir/bench/$first_src" "$@"
}

# first_build_opencl: first.cl to the image image selection would pick
# (bench/format.sh: sets bench_fmt, bench_ext), wrapped; builds
# first-result-opencl (raw) and first-result-devimg-opencl. Exits 77 (with
# a line) when there is no OpenCL device or no way to make its format.
first_build_opencl() {
	bench_format "$PWD/probe-cache" || return
	cat >first.cl <<'CL'
kernel void first(global int *p)
{
	p[0] = 42;
}
CL
	printf 'first\n' >first.sym
	bench_image first || return
	"$first_wrap" -o first-cl.o -kind=sycl -target=spir64 \
		-format="$bench_fmt" -entries=first.sym "first.$bench_ext" ||
		return
	# shellcheck disable=SC2086
	first_cc first-result-opencl first-result-opencl.c \
		${OPENCL_CFLAGS:-} ${OPENCL_LIBS:--lOpenCL} || return
	first_cc first-result-devimg-opencl first-result-devimg.c first-cl.o \
		-L"$first_libdir" -Wl,-rpath,"$first_libdir" -ldevimg
}

# first_build_cuda: first.ptx (written here, so that no clang is needed on
# the GPU machine), wrapped; builds first-result-cuda (raw) and
# first-result-devimg-cuda.
first_build_cuda() {
	cat >first.ptx <<'PTX'
//
// The first-result benchmark's kernel: first(int *p) stores 42 at p[0].
.version 7.0
.target sm_50
.address_size 64

.visible .entry first(
	.param .u64 first_param_0
)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<3>;

	ld.param.u64 %rd1, [first_param_0];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, 42;
	st.global.u32 [%rd2], %r1;
	ret;
}
PTX
	printf 'first\n' >first-cuda.sym
	"$first_wrap" -o first-cuda.o -kind=sycl -target=nvptx64 \
		-format=native -entries=first-cuda.sym first.ptx || return
	first_cc first-result-cuda first-result-cuda.c \
		-ldl || return
	first_cc first-result-devimg-cuda first-result-devimg.c first-cuda.o \
		-L"$first_libdir" -Wl,-rpath,"$first_libdir" -ldevimg
}
