#!/bin/sh
# configure's choice of CLANG and LLVM_SPIRV (DEVIMG_PROG_CLANG in
# m4/devimg_formats.m4), and the check lines that say it, on made-up
# toolchains: a small configure of that macro alone runs with a PATH of
# stand-ins that answer --version as Debian's do and the few programs a
# configure needs, none of this machine's clangs and llvm-spirvs.
. "$top_srcdir/tests/lib.sh"

command -v autoconf >/dev/null 2>&1 || skip tools "autoconf not found"
# The suite exports the build's own CLANG and LLVM_SPIRV.
unset CLANG LLVM_SPIRV

cd "$scratch"
# The programs a configure needs, without this machine's device compilers.
mkdir host
for n in sh cat sed grep expr rm mkdir mv cp ln ls chmod tr uname hostname \
	basename dirname env printf test sleep date touch sort head tail wc \
	cmp diff awk; do
	p=$(command -v "$n") || continue
	case $p in /*) ln -s "$p" "host/$n" ;; esac
done

cat >configure.ac <<EOF
AC_INIT([t], [1])
m4_include([$top_srcdir/m4/devimg_formats.m4])
DEVIMG_PROG_CLANG
echo "CLANG=\$CLANG"
echo "LLVM_SPIRV=\$LLVM_SPIRV"
AC_OUTPUT
EOF
autoconf -o configure configure.ac 2>autoconf.err ||
	fail "autoconf of DEVIMG_PROG_CLANG: $(cat autoconf.err)"
[ ! -s autoconf.err ] || fail "autoconf warns: $(cat autoconf.err)"

# tool DIR NAME MAJOR: a stand-in NAME in DIR of LLVM MAJOR.
tool() {
	case $2 in
	clang*) v="Debian clang version $3.1.2 (1+b1)" ;;
	*) v="Debian LLVM version $3.1.2" ;;
	esac
	printf '#!/bin/sh\necho "%s"\n' "$v" >"$1/$2"
	chmod +x "$1/$2"
}

# tc NAME TOOL:MAJOR...: a toolchain folder.
tc() {
	dir=$scratch/$1
	shift
	mkdir -p "$dir"
	for t in "$@"; do
		tool "$dir" "${t%:*}" "${t#*:}"
	done
}

# conf TOOLCHAIN [VAR=VALUE...]: run the configure there, output in out.
conf() {
	t=$scratch/$1
	shift
	rm -rf run && mkdir run
	(cd run && env PATH="$t:$scratch/host" ../configure "$@") \
		>out 2>&1 || fail "configure $* on $t failed: $(cat out)"
}

# has LINE: out holds LINE exactly.
has() {
	grep -qxF -- "$1" out || fail "no line '$1' in: $(cat out)"
}

hasnt() {
	! grep -q -- "$1" out || fail "unexpected '$1' in: $(cat out)"
}

# Debian unstable: clang-23 has no llvm-spirv-23 yet; clang-22 is the
# newest with its own.
tc sid clang-23:23 clang-22:22 clang-21:21 llvm-spirv-22:22 llvm-spirv-21:21
s=$scratch/sid
conf sid
has "checking for a clang (clang-23 ... clang-15, clang)... $s/clang-23"
has "checking for the llvm-spirv of LLVM 23 (llvm-spirv-23, llvm-spirv)... no"
has "checking for an older clang with its llvm-spirv (clang-22, clang-21)... $s/clang-22 with $s/llvm-spirv-22"
has "configure: the test images are built by $s/clang-22, the newest clang that has its llvm-spirv: $s/clang-23 has no llvm-spirv of its LLVM (install one, or set CLANG= and LLVM_SPIRV=)"
has "CLANG=$s/clang-22"
has "LLVM_SPIRV=$s/llvm-spirv-22"

# CLANG= is taken as it is, with no fallback: clang-23 gets no SPIR-V.
conf sid CLANG=clang-22
has "checking for clang... clang-22 (from CLANG)"
has "checking for the llvm-spirv of LLVM 22 (llvm-spirv-22, llvm-spirv)... $s/llvm-spirv-22"
has "CLANG=clang-22"
has "LLVM_SPIRV=$s/llvm-spirv-22"
conf sid CLANG=clang-23
has "checking for clang... clang-23 (from CLANG)"
has "checking for the llvm-spirv of LLVM 23 (llvm-spirv-23, llvm-spirv)... no"
hasnt "older clang"
has "CLANG=clang-23"
has "LLVM_SPIRV=no"

# LLVM_SPIRV= picks the newest clang of its LLVM; LLVM_SPIRV=no, none.
conf sid LLVM_SPIRV="$s/llvm-spirv-21"
has "checking for llvm-spirv... $s/llvm-spirv-21 (from LLVM_SPIRV, LLVM 21)"
has "checking for an older clang with its llvm-spirv (clang-22, clang-21)... $s/clang-21 with $s/llvm-spirv-21"
has "configure: the test images are built by $s/clang-21, the newest clang of LLVM_SPIRV's LLVM 21"
has "CLANG=$s/clang-21"
conf sid LLVM_SPIRV=no
has "checking for llvm-spirv... no (from LLVM_SPIRV)"
hasnt "older clang"
has "CLANG=$s/clang-23"
has "LLVM_SPIRV=no"

# Debian 12: clang-15 and llvm-spirv-15; its unversioned clang is 14.
tc bookworm clang-15:15 clang:14 llvm-spirv-15:15
b=$scratch/bookworm
conf bookworm
has "checking for a clang (clang-23 ... clang-15, clang)... $b/clang-15"
has "checking for the llvm-spirv of LLVM 15 (llvm-spirv-15, llvm-spirv)... $b/llvm-spirv-15"
hasnt "older clang"
has "CLANG=$b/clang-15"

# An unversioned llvm-spirv counts only when its LLVM is clang's.
tc plain23 clang-23:23 llvm-spirv:23
conf plain23
has "checking for the llvm-spirv of LLVM 23 (llvm-spirv-23, llvm-spirv)... $scratch/plain23/llvm-spirv"
tc plain22 clang-23:23 llvm-spirv:22
conf plain22
has "checking for the llvm-spirv of LLVM 23 (llvm-spirv-23, llvm-spirv)... no"
has "CLANG=$scratch/plain22/clang-23"
has "LLVM_SPIRV=no"
tc older clang-23:23 clang-22:22 llvm-spirv:22
conf older
has "checking for an older clang with its llvm-spirv (clang-22)... $scratch/older/clang-22 with $scratch/older/llvm-spirv"

# Only an unversioned clang; then none at all.
tc clang19 clang:19 llvm-spirv-19:19
conf clang19
has "checking for a clang (clang-23 ... clang-15, clang)... $scratch/clang19/clang"
has "LLVM_SPIRV=$scratch/clang19/llvm-spirv-19"
tc none
conf none
has "checking for a clang (clang-23 ... clang-15, clang)... no"
has "CLANG=no"
has "LLVM_SPIRV=no"
echo PASS
