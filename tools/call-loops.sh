#!/bin/sh
# call-loops.sh [-v] DIR...: file pairs that call each other.
#
# Maps each function that a .c file under DIR defines with external
# linkage (kernel style: the opening brace alone in column 0) to the
# files that call it, then prints "a.c <-> b.c: f (a calls), g (b calls)"
# for each pair of files where each calls a function of the other.
# Comments and string literals are left out first. With -v it also prints
# every "caller -> callee: function" edge. Exit status 1 when a loop is
# found, 0 when none.
set -eu

verbose=
if [ "${1:-}" = -v ]; then
	verbose=1
	shift
fi
[ $# -gt 0 ] || { echo "usage: $0 [-v] DIR..." >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/call-loops.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

find "$@" -name '*.c' | LC_ALL=C sort >"$tmp/files"

# Each file without comments and strings, one line kept per line.
while read -r f; do
	awk '
	{
		line = $0; out = ""
		while (line != "") {
			if (incom) {
				i = index(line, "*/")
				if (!i) { line = ""; break }
				line = substr(line, i + 2); incom = 0
				continue
			}
			if (match(line, /\/\*|\/\/|"|'\''/)) {
				tok = substr(line, RSTART, RLENGTH)
				out = out substr(line, 1, RSTART - 1)
				line = substr(line, RSTART + RLENGTH)
				if (tok == "/*") {
					incom = 1
				} else if (tok == "//") {
					line = ""
				} else {
					# skip the literal, escapes included
					while (line != "") {
						c = substr(line, 1, 1)
						line = substr(line, 2)
						if (c == "\\") { line = substr(line, 2); continue }
						if (c == tok) break
					}
					out = out tok tok
				}
			} else {
				out = out line; line = ""
			}
		}
		print out
	}' "$f" >"$tmp/clean"
	# Definitions: the last line in column 0 naming "ident(" before a
	# "{" alone in column 0, unless it is static.
	# A static one goes to statics.
	awk -v file="$f" -v statics="$tmp/statics" '
	/^[A-Za-z_]/ && /\(/ { head = $0 }
	/^\{/ {
		if (head != "" && head !~ /^(struct|union|enum)[^(]*$/) {
			s = head; sub(/\(.*/, "", s); n = split(s, w, /[^A-Za-z0-9_]+/)
			name = w[n]
			if (name != "" && head ~ /^static[ \t]/)
				print name "\t" file >>statics
			else if (name != "")
				print name "\t" file
		}
		head = ""
	}
	/^\}/ { head = "" }' "$tmp/clean" >>"$tmp/defs"
	# Uses: every "ident(" of the file.
	grep -o '[A-Za-z_][A-Za-z0-9_]*[ \t]*(' "$tmp/clean" |
		sed "s/[ \t]*(\$//; s|\$|	$f|" >>"$tmp/uses" || :
done <"$tmp/files"

LC_ALL=C sort -u "$tmp/defs" >"$tmp/defs.s"
# A file that defines a name (several programs or modules each have their
# main() or entry point) calls its own.
: >>"$tmp/statics"
: >>"$tmp/defs"
LC_ALL=C sort -u "$tmp/statics" "$tmp/defs" >"$tmp/own.s"
LC_ALL=C sort -u "$tmp/uses" | LC_ALL=C comm -23 - "$tmp/own.s" >"$tmp/uses.s"

# Edges: caller TAB callee-file TAB function, callers other than the file
# that defines the function.
LC_ALL=C join -t '	' "$tmp/uses.s" "$tmp/defs.s" |
	awk -F '\t' '$2 != $3 { print $2 "\t" $3 "\t" $1 }' |
	LC_ALL=C sort -u >"$tmp/edges"

if [ -n "$verbose" ]; then
	awk -F '\t' '{ print $1 " -> " $2 ": " $3 }' "$tmp/edges"
fi

awk -F '\t' '
{
	key = $1 SUBSEP $2
	if (key in fn)
		fn[key] = fn[key] ", " $3
	else
		fn[key] = $3
}
END {
	for (k in fn) {
		split(k, p, SUBSEP)
		a = p[1]; b = p[2]
		if (a < b && ((b SUBSEP a) in fn))
			print a " <-> " b ": " a " calls " fn[k] "; " b " calls " fn[b SUBSEP a]
	}
}' "$tmp/edges" | LC_ALL=C sort >"$tmp/loops"

if [ -s "$tmp/loops" ]; then
	cat "$tmp/loops"
	echo "$(wc -l <"$tmp/loops") loop(s)"
	exit 1
fi
echo "no loops"
