#!/bin/sh
# devimg-dump --extract of several inputs never overwrites a file it wrote
# in the same run: when two images get the same name (inputs of the same
# base name in two folders; names that meet once INDEX.TARGET.EXT is
# added; a name that meets one numbered before), the later one gets the
# smallest number N from 2 before EXT that is still free, and every image
# is written byte-identical. A name of 255 bytes (NAME_MAX) is written; a
# longer one is a one-line error that leaves nothing behind.
. "$top_srcdir/tests/lib.sh"

dump=$top_builddir/devimg-dump
wrap=$top_builddir/devimg-wrap
[ -x "$dump" ] && [ -x "$wrap" ] || skip build "devimg-dump or devimg-wrap not built"

cd "$scratch"
mkdir d1 d2 d3 img
i=0
for n in 1 2 3 4 5 6 7; do
	printf 'image %s\n' $n >i$n
done
"$wrap" -o d1/a -kind=sycl -target=t i1 || fail "wrap d1/a"
"$wrap" -o d2/a -kind=sycl -target=t i2 || fail "wrap d2/a"
"$wrap" -o d3/a -kind=sycl -target=t.2 i3 || fail "wrap d3/a"
"$wrap" -o p -kind=sycl -target=y i4 -target=1.0.x i5 || fail "wrap p"
"$wrap" -o p.1 -kind=sycl -target=z i6 -target=0.x i7 || fail "wrap p.1"

"$dump" --extract img d1/a d2/a d3/a p p.1 >names ||
	fail "--extract failed"
cat >want <<'NAMES'
img/a.0.t.bin
img/a.0.t.2.bin
img/a.0.t.2.2.bin
img/p.0.y.bin
img/p.1.1.0.x.bin
img/p.1.0.z.bin
img/p.1.1.0.x.2.bin
NAMES
cmp -s want names || fail "printed names: $(cat names)"
n=1
while read -r f; do
	cmp "i$n" "$f" || fail "$f does not hold image $n"
	n=$((n + 1))
done <want
[ "$(ls -A img | wc -l)" -eq 7 ] || fail "files: $(ls -A img)"

# A second run replaces what the first wrote, under the same names.
"$dump" --extract img d1/a d2/a d3/a p p.1 >names2 ||
	fail "second --extract failed"
cmp -s want names2 || fail "second run names: $(cat names2)"
[ "$(ls -A img | wc -l)" -eq 7 ] || fail "files: $(ls -A img)"

# The same input twice.
mkdir twice
"$dump" --extract twice d1/a d1/a >names || fail "--extract twice"
printf 'twice/a.0.t.bin\ntwice/a.0.t.2.bin\n' | cmp -s - names ||
	fail "twice: $(cat names)"
cmp i1 twice/a.0.t.2.bin || fail "twice: second copy differs"

# Long names: "B.0.t.bin" of 255 bytes is written, of 256 refused.
long() {
	awk -v n="$1" 'BEGIN { s = ""; while (length(s) < n) s = s "b";
		print s }'
}
b247=$(long 247)
b248=$(long 248)
cp d1/a "$b247"
cp d1/a "$b248"
mkdir lim
"$dump" --extract lim "$b247" >names || fail "255-byte name refused"
[ "$(ls -A lim)" = "$b247.0.t.bin" ] || fail "lim holds: $(ls -A lim)"
cmp i1 "lim/$b247.0.t.bin" || fail "the 255-byte name holds other bytes"
rm -f "lim/$b247.0.t.bin"
expect_fail "^devimg-dump: $b248: image 0: lim/$b248.0.t.bin: file name too long (256 bytes, at most 255)" \
	"$dump" --extract lim "$b248"
[ -z "$(ls -A lim)" ] || fail "left behind: $(ls -A lim)"
[ ! -s "$scratch/out" ] || fail "printed: $(cat "$scratch/out")"
exit 0
