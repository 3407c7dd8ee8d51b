# Sourced by tests/upstream/*.sh after tests/lib.sh: what the interop
# tests share. Every input of theirs is made by upstream's real tools
# (clang, clang-linker-wrapper, clang-sycl-linker, llvm-offload-binary,
# llvm-offload-wrapper of LLVM 22 and 23, as Debian packages them); the
# host side is tests/upstream/up-run.c and regshow.c, built here with $CC.
# shellcheck shell=sh

usrc=$top_srcdir/tests/upstream
devlib=$top_builddir/loader/.libs
DUMP=$top_builddir/devimg-dump

# need_tools TOOL...: skip, naming the first missing one, unless all are
# on PATH.
need_tools() {
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 ||
			skip llvm-upstream "no $t (LLVM's upstream offload tools; Debian unstable has them: deps/debian-unstable)"
	done
}

# need_spirv_device: skip unless the OpenCL device (PoCL) takes SPIR-V,
# which LLVM's SPIR-V backend writes; runs on the build tree's plugins.
need_spirv_device() {
	pocl_env 'opencl:*'
	case " $(device_formats) " in
	*" spirv "*) ;;
	*) skip spirv "no OpenCL device that takes SPIR-V (devimg-ls: $(device_formats))" ;;
	esac
}

# host_objs: regshow.o (its constructor prints the registry before main)
# and up-run.o in the scratch folder.
host_objs() {
	$CC -std=c11 -O1 -g -fPIC -I"$top_srcdir" -I"$top_srcdir/include" -c \
		"$usrc/regshow.c" -o "$scratch/regshow.o" ||
		fail "cannot compile regshow.c"
	$CC -std=c11 -O1 -g -I"$top_srcdir" -I"$top_srcdir/include" -c "$usrc/up-run.c" \
		-o "$scratch/up-run.o" || fail "cannot compile up-run.c"
}

# link_run OUT OBJ...: a program of up-run.o, regshow.o and OBJ... with
# the build tree's libdevimg.
link_run() {
	out=$1
	shift
	$CC -o "$out" "$scratch/up-run.o" "$scratch/regshow.o" "$@" \
		-L"$devlib" -ldevimg -Wl,-rpath,"$devlib" -ldl ||
		fail "cannot link $out"
}

# offload_link N OUT ARGS...: clang++-N --offload-link, which runs
# clang-linker-wrapper-N (and, in 22, clang-sycl-linker by its bare name,
# so LLVM N's bin folder goes first on PATH), with libdevimg.
offload_link() {
	ol_n=$1
	ol_out=$2
	shift 2
	PATH=$("llvm-config-$ol_n" --bindir):$PATH "clang++-$ol_n" \
		--offload-link "$@" -o "$ol_out" -L"$devlib" -ldevimg \
		-Wl,-rpath,"$devlib" || fail "clang++-$ol_n --offload-link -o $ol_out failed"
}

# run_traced NAME CMD...: run CMD with DEVIMG_TRACE=1, its stdout in
# NAME.out and stderr in NAME.err; fails unless it exits 0 and every
# descriptor registered was unregistered by the time it exited.
run_traced() {
	rt=$1
	shift
	DEVIMG_TRACE=1 "$@" >"$rt.out" 2>"$rt.err" ||
		fail "$* failed: $(cat "$rt.out" "$rt.err")"
	sed -n 's/^libdevimg: registered descriptor \(0x[0-9a-f]*\):.*/\1/p' \
		"$rt.err" | sort >"$rt.reg"
	sed -n 's/^libdevimg: unregistered descriptor \(0x[0-9a-f]*\)$/\1/p' \
		"$rt.err" | sort >"$rt.unreg"
	[ -s "$rt.reg" ] || fail "$*: nothing registered: $(cat "$rt.err")"
	cmp -s "$rt.reg" "$rt.unreg" ||
		fail "$*: registered $(tr '\n' ' ' <"$rt.reg")but unregistered $(tr '\n' ' ' <"$rt.unreg")"
}

# no_leaks NAME CMD...: CMD under valgrind (memcheck, leaks included)
# exits 0 with no error; its output in NAME.vg.
no_leaks() {
	nl=$1
	shift
	command -v valgrind >/dev/null 2>&1 || fail "valgrind is not installed"
	valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect "$@" \
		>"$nl.vg" 2>&1 || fail "$* under valgrind: $(cat "$nl.vg")"
}
