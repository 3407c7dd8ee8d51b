#!/bin/sh
# Any output name the file system takes works: the temporary file beside
# it has a short name of its own (or none), so a 255-byte name (NAME_MAX)
# is written; a 256-byte name is a one-line error; neither leaves anything
# else in the folder.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

cd "$scratch"
mkdir in dst
rand_file in/a.bin 100

# name N: N bytes, ending in .o
name() {
	awk -v n="$1" 'BEGIN { s = ""; while (length(s) < n - 2) s = s "x";
		print s ".o" }'
}
n255=$(name 255)
n256=$(name 256)
[ ${#n255} -eq 255 ] && [ ${#n256} -eq 256 ] || fail "name lengths"

"$WRAP" -o "dst/$n255" -kind=sycl in/a.bin || fail "255-byte name refused"
[ "$(ls -A dst)" = "$n255" ] || fail "dst/ holds: $(ls -A dst)"
"$top_builddir/devimg-dump" --json "dst/$n255" >dump.json &&
	one_file_json dump.json ||
	fail "the object of the 255-byte name does not read back"
[ "$(jq '.images[0].size' dump.json)" = 100 ] || fail "$(cat dump.json)"
# Again: replaces the file.
rand_file in/b.bin 50
"$WRAP" -o "dst/$n255" -kind=sycl in/b.bin || fail "replacing failed"
[ "$(ls -A dst)" = "$n255" ] || fail "dst/ holds: $(ls -A dst)"
"$top_builddir/devimg-dump" --json "dst/$n255" >dump.json &&
	one_file_json dump.json ||
	fail "the replaced object does not read back"
[ "$(jq '.images[0].size' dump.json)" = 50 ] || fail "$(cat dump.json)"

rm -f "dst/$n255"
expect_fail "^devimg-wrap: dst/$n256: file name too long (256 bytes, at most 255)" \
	"$WRAP" -o "dst/$n256" -kind=sycl in/a.bin
[ -z "$(ls -A dst)" ] || fail "left behind: $(ls -A dst)"
# In the current folder too.
(cd dst && "$WRAP" -o "$n255" -kind=sycl ../in/a.bin) ||
	fail "255-byte name in the current folder refused"
[ "$(ls -A dst)" = "$n255" ] || fail "dst/ holds: $(ls -A dst)"
echo PASS
