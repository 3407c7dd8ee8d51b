#!/bin/sh
# An empty file table (0 bytes, or only empty lines) is an empty table,
# as LLVM's SimpleTable reads it: with -batch it adds no image, and the
# object is the one a table with only its header gives (no images,
# nothing registered, links and runs); among other tables it adds
# nothing. A line of blanks is not empty: that table has no header.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

DUMP=$top_builddir/devimg-dump
[ -x "$DUMP" ] || skip build "devimg-dump is not built"
cd "$scratch"
mkdir dst
echo old >dst/keep.o
rand_file a.bin 100
: >empty.txt
printf '\n\n\n' >blank.txt
printf '\r\n\r\n' >crlf.txt
printf '[Code|Symbols]\n' >header.txt
printf '[Code]\na.bin\n' >one.txt
printf '   \n' >spaces.txt

"$WRAP" -o header.o -kind=sycl -batch header.txt || fail "header-only table"
main_file m.c

# sizes OBJ: the sizes of OBJ's images, in order, one line.
sizes() {
	"$DUMP" --json "$1" >sizes.json &&
	one_file_json sizes.json || fail "devimg-dump --json $1 failed"
	jq -c '[.images[].size]' sizes.json || fail "$1: bad JSON"
}
for t in empty blank crlf; do
	"$WRAP" -o "$t.o" -kind=sycl -target=spir64 -batch "$t.txt" ||
		fail "-batch $t.txt failed"
	[ -s "$t.o" ] || fail "$t.txt: no object written"
	elflint "$t.o"
	"$DUMP" "$t.o" >dump.txt || fail "devimg-dump $t.o failed"
	[ "$(cat dump.txt)" = "$t.o: no device images" ] ||
		fail "$t.txt: devimg-dump shows: $(cat dump.txt)"
	"$DUMP" --json "$t.o" >dump.json &&
	one_file_json dump.json || fail "devimg-dump --json $t.o failed"
	n=$(jq '.images | length' dump.json) || fail "$t.o: bad JSON"
	[ "$n" = 0 ] || fail "$t.txt: $n images"
	readelf -sW "$t.o" >syms || fail "readelf $t.o failed"
	! grep -q __sycl_register_lib syms || fail "$t.txt: registration"
	cmp -s "$t.o" header.o ||
		fail "$t.txt: not the object of a header-only table"
	$CC -o "m.$t" m.c "$t.o" || fail "$t.o does not link"
	"./m.$t" || fail "a program with $t.o fails"
done

# Between tables it adds nothing.
"$WRAP" -o mix.o -kind=sycl -batch one.txt empty.txt one.txt ||
	fail "-batch one.txt empty.txt one.txt failed"
[ "$(sizes mix.o)" = '[100,100]' ] ||
	fail "an empty table between two tables: $(sizes mix.o)"

# Not empty: blanks, and a table file given as an image stays an image.
wrap_fails "spaces.txt:1:1: missing table header: saw '   '" \
	-o dst/w.o -kind=sycl -batch spaces.txt
"$WRAP" -o img.o -kind=sycl empty.txt || fail "empty.txt as an image"
[ "$(sizes img.o)" = '[0]' ] || fail "empty.txt as an image: $(sizes img.o)"
echo PASS
