#!/bin/sh
# The package lists agree: debian/control's Build-Depends offer the same
# LLVM majors for clang-N, llvm-N and llvm-spirv-N, and each platform's
# list in deps/ installs one of them, so that dpkg-checkbuilddeps passes
# wherever ./bootstrap-deps ran; README.md shows each list of deps/ as it
# is, in the code block after its name.
. "$top_srcdir/tests/lib.sh"

control=$top_srcdir/debian/control
[ -f "$control" ] || skip build "no debian/control (not in this tree)"
cd "$scratch"

# The Build-Depends field, one relation a line.
sed -n '/^Build-Depends:/,/^[^ #]/{/^ /p}' "$control" |
	tr ',' '\n' | sed 's/^ *//; /^$/d' >bd ||
	fail "cannot read Build-Depends of $control"
[ -s bd ] || fail "no Build-Depends in $control"

# majors NAME: the N of every NAME-N alternative, sorted, one a line.
majors() {
	grep -E "(^|\| *)$1-[0-9]+( |$)" bd >rel || true
	[ "$(wc -l <rel)" -le 1 ] ||
		fail "$1-N is in $(wc -l <rel) relations of Build-Depends, not one"
	tr '|' '\n' <rel | sed -n "s/^ *$1-\([0-9][0-9]*\)\( .*\)*\$/\1/p" |
		sort -n
}
majors clang >clang.m
majors llvm >llvm.m
majors llvm-spirv >spirv.m
[ -s clang.m ] || fail "Build-Depends names no clang-N: $(cat bd)"
[ -s spirv.m ] || fail "Build-Depends names no llvm-spirv-N: $(cat bd)"
cmp -s clang.m llvm.m ||
	fail "clang-N ($(echo $(cat clang.m))) and llvm-N ($(echo $(cat llvm.m))) alternatives differ"
cmp -s clang.m spirv.m ||
	fail "clang-N ($(echo $(cat clang.m))) and llvm-spirv-N ($(echo $(cat spirv.m))) alternatives differ"
echo "Build-Depends: LLVM $(echo $(cat clang.m))"

n=0
for list in "$top_srcdir"/deps/*; do
	name=${list##*/}
	sed 's/#.*//' "$list" | tr -s ' \t' '\n\n' | sed '/^$/d' >pkgs
	for p in clang llvm llvm-spirv; do
		m=$(sed -n "s/^$p-\([0-9][0-9]*\)\$/\1/p" pkgs)
		[ -n "$m" ] || fail "deps/$name installs no $p-N"
		for v in $m; do
			grep -qx "$v" clang.m && continue 2
		done
		fail "deps/$name installs $p-$(echo $m) but Build-Depends offer $p-N for N in $(echo $(cat clang.m)) only"
	done
	# README: "(`deps/NAME`):", then the list in a code block.
	want=$(tr -s ' \t' '\n\n' <pkgs | sed '/^$/d' | tr '\n' ' ' |
		sed 's/ $//')
	awk -v ref="(\`deps/$name\`)" '
		index($0, ref) { found = 1; next }
		found == 1 && /^```/ { found = 2; next }
		found == 2 { print; exit }
	' "$top_srcdir/README.md" >readme
	[ -s readme ] || fail "README.md shows no list for deps/$name"
	[ "$(cat readme)" = "$want" ] ||
		fail "README.md's list for deps/$name is not the file's: $(cat readme)"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no lists in deps/"
echo "PASS: $n lists of deps/, shown in README.md, satisfy Build-Depends' clang, llvm and llvm-spirv"
