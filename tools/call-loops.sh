#!/bin/sh
# call-loops.sh [-v] DIR...: loops of files that call each other, of any
# length.
#
# Maps each function that a .c file under DIR defines with external
# linkage (kernel style: the opening brace alone in column 0) to the
# files that call it: an edge "caller -> file". A loop is a strongly
# connected component of two files or more (Tarjan's algorithm): a set
# of files each of which reaches every other through calls. Each loop is
# printed as "loop: FILE..." (sorted), then its edges, one a line,
# "  a.c -> b.c: f, g" (a calls f and g of b), then "N loop(s)".
# Comments and string literals are left out first. With -v it also prints
# every "caller -> callee: function" edge first. Exit status 1 when a loop
# is found, 0 when none ("no loops").
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

# Loops: the strongly connected components of more than one file
# (Tarjan's algorithm over the file graph), each as "loop: FILES" (sorted)
# and then its edges, "  a.c -> b.c: f, g", sorted.
awk -F '\t' '
function strong(v,    i, w, n, comp, list, a, b) {
	num[v] = low[v] = ++count
	stack[++sp] = v
	on[v] = 1
	for (i = 1; i <= nadj[v]; i++) {
		w = adj[v, i]
		if (!(w in num)) {
			strong(w)
			if (low[w] < low[v])
				low[v] = low[w]
		} else if (on[w] && num[w] < low[v]) {
			low[v] = num[w]
		}
	}
	if (low[v] != num[v])
		return
	n = 0
	do {
		w = stack[sp--]
		on[w] = 0
		comp[++n] = w
		in_comp[w] = v
	} while (w != v)
	if (n < 2)
		return
	nloops++
	list = ""
	for (i = 1; i <= n; i++)
		list = list "\n" comp[i]
	loop_files[v] = list
}
{
	key = $1 SUBSEP $2
	if (!(key in fn)) {
		adj[$1, ++nadj[$1]] = $2
		fn[key] = $3
	} else {
		fn[key] = fn[key] ", " $3
	}
	node[$1] = node[$2] = 1
}
END {
	for (v in node)
		if (!(v in num))
			strong(v)
	for (v in loop_files) {
		n = split(substr(loop_files[v], 2), f, "\n")
		# sort the files (insertion sort: loops are small)
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && f[j - 1] > f[j]; j--) {
				t = f[j]; f[j] = f[j - 1]; f[j - 1] = t
			}
		head = "loop:"
		for (i = 1; i <= n; i++)
			head = head " " f[i]
		print head "\t"
		for (k in fn) {
			split(k, p, SUBSEP)
			if ((p[1] in in_comp) && (p[2] in in_comp) &&
			    in_comp[p[1]] == v && in_comp[p[2]] == v)
				print head "\t  " p[1] " -> " p[2] ": " fn[k]
		}
	}
	print nloops + 0 >"/dev/stderr"
}' "$tmp/edges" 2>"$tmp/count" | LC_ALL=C sort |
	awk -F '\t' '$2 == "" { print $1; next } { print $2 }' >"$tmp/loops"

if [ -s "$tmp/loops" ]; then
	cat "$tmp/loops"
	echo "$(cat "$tmp/count") loop(s)"
	exit 1
fi
echo "no loops"
