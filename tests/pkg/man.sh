#!/bin/sh
# The manual:
#  - every page in man/ renders with groff -man -ww without a warning
#    (the test skips without groff), and its .TH names it (title and
#    section as the file name says);
#  - every program built here (devimg-*) has a section-1 page;
#  - every function declared in include/devimg/devimg.h is named in the
#    NAME section of exactly one section-3 page, whose SYNOPSIS declares
#    it, so that "man <function>" finds it once make install has added
#    the .so pages (man/local.mk);
#  - every devimg page that a page refers to (".BR name (N)") exists.
. "$top_srcdir/tests/lib.sh"

: "${CC:=cc}"
mandir=$top_srcdir/man
command -v groff >/dev/null 2>&1 ||
	skip tools "groff not found (Debian: groff-base): the pages cannot be rendered"

# "name page" for every name in the NAME section of a page.
names_of() {
	sed -n '/^\.SH NAME/,/^\.SH /p' "$1" | sed -e '1d' -e '$d' |
		tr '\n' ' ' | sed -e 's/\\-.*//' -e 's/,/ /g' -e 's/\\//g' |
		tr -s ' ' '\n' | sed '/^$/d' |
		while read -r n; do echo "$n $(basename "$1")"; done
}

npages=0
: >"$scratch/names"
for page in "$mandir"/*.[1-8]; do
	[ -f "$page" ] || continue
	npages=$((npages + 1))
	base=$(basename "$page")
	sect=${base##*.}
	title=$(echo "${base%.*}" | tr 'a-z-' 'A-Z-')
	th=$(sed -n 's/^\.TH  *\([^ ]*\)  *\([^ ]*\).*/\1 \2/p' "$page")
	[ "$th" = "$title $sect" ] ||
		fail "$base: .TH says '$th', expected '$title $sect'"
	LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" \
		>"$scratch/groff" 2>&1 ||
		fail "$base: groff fails: $(cat "$scratch/groff")"
	[ ! -s "$scratch/groff" ] ||
		fail "$base: groff warns: $(head -5 "$scratch/groff")"
	names_of "$page" >>"$scratch/names"
done
[ "$npages" -gt 0 ] || fail "no pages in $mandir"

for prog in "$top_builddir"/devimg-*; do
	[ -f "$prog" ] && [ -x "$prog" ] || continue
	name=$(basename "$prog")
	[ -f "$mandir/$name.1" ] || fail "$name has no man page man/$name.1"
	grep -q "^$name " "$scratch/names" ||
		fail "man/$name.1 does not name $name in its NAME section"
done

# The functions of the public header, as gcc's -aux-info lists them.
printf '#include <devimg/devimg.h>\n' >"$scratch/h.c"
# Only gcc's absence skips: a header that does not compile is a failure.
if ! $CC -std=c11 -I"$top_srcdir" -I"$top_srcdir/include" -aux-info "$scratch/aux" \
	-c "$scratch/h.c" -o "$scratch/h.o" 2>"$scratch/h.err"; then
	command -v gcc >/dev/null 2>&1 ||
		skip tools "gcc not found: $CC cannot write -aux-info to read devimg.h ($(head -n 1 "$scratch/h.err"))"
	gcc -std=c11 -I"$top_srcdir" -I"$top_srcdir/include" -aux-info "$scratch/aux" \
		-c "$scratch/h.c" -o "$scratch/h.o" 2>"$scratch/h.err" ||
		fail "devimg.h does not compile (gcc -std=c11): $(cat "$scratch/h.err")"
fi
grep "include/devimg/devimg.h:" "$scratch/aux" |
	sed -e 's|^/\*[^*]*\*/ *||' -e 's/ (.*//' -e 's/.*[ *]//' |
	sort -u >"$scratch/declared"
[ -s "$scratch/declared" ] || fail "no functions found in devimg.h"
grep '\.3$' "$scratch/names" >"$scratch/names3" || true
missing=0
while read -r fn; do
	pages=$(awk -v f="$fn" '$1 == f { print $2 }' "$scratch/names3")
	case $pages in
	"") echo "FAIL: $fn is documented in no section-3 page (add it to the NAME and SYNOPSIS of its group's page in man/)" >&2
	    missing=$((missing + 1)) ;;
	*" "* | *"
"*) echo "FAIL: $fn is named by several pages: $(echo $pages)" >&2
	    missing=$((missing + 1)) ;;
	*) sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$mandir/$pages" |
		grep -q "$fn(" ||
		{ echo "FAIL: $pages names $fn but its SYNOPSIS does not declare it" >&2
		  missing=$((missing + 1)); } ;;
	esac
done <"$scratch/declared"
[ "$missing" -eq 0 ] || fail "$missing function(s) of devimg.h without exactly one man page"

# A name that a page gives is a function, or the page's own name.
while read -r name page; do
	case $page in *.3) ;; *) continue ;; esac
	[ "$name.3" = "$page" ] && continue
	grep -qx "$name" "$scratch/declared" ||
		fail "$page names $name, which devimg.h does not declare"
done <"$scratch/names"

# References to our own pages resolve.
cut -d' ' -f1 "$scratch/names" | sort -u >"$scratch/known"
for page in "$mandir"/*.[1-8]; do
	sed -n 's/^\.BR  *\([^ ]*\)  *(\([1-8]\)).*/\1 \2/p' "$page" |
		sed 's/\\-/-/g' |
		while read -r ref sect; do
			case $ref in devimg* | __sycl*) ;; *) continue ;; esac
			[ -f "$mandir/$ref.$sect" ] || grep -qx "$ref" "$scratch/known" ||
				{ echo "FAIL: $(basename "$page") refers to $ref($sect), which no page documents" >&2; echo x >>"$scratch/dangling"; }
		done
done
[ ! -s "$scratch/dangling" ] || fail "dangling references to man pages"

echo "PASS: $npages pages, $(wc -l <"$scratch/declared") functions each on one page"
