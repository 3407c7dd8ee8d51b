#!/bin/sh
# Every reference that the tree's docs, comments and manual pages make to
# the project's own documentation resolves:
#  - a path to a Markdown file exists: under docs/, relative to the file
#    (./, ../), or a bare name found beside the file, in docs/ or at the
#    top; paths under other folders (sycl/doc/..., llvm/...) name upstream
#    files and are not checked;
#  - a section of formats.md named by number ("section N" right after the
#    file name, or inside docs/formats.md itself) or by title (the file
#    name, then the heading's text in double quotes) exists;
#  - "section N" in any other page of docs/ names a numbered section
#    ("## N. ...") of that page;
#  - a devimg page named in a manual page's SEE ALSO, as "man [N] NAME" or
#    as NAME(N) anywhere, is a page in man/ or a name in the NAME section
#    of one (make install adds those names, man/local.mk).
# A reference may run over two lines; comment leaders are skipped.
#
# Usage: tools/check-doc-refs.sh [SRCDIR]   (default: the tree holding
# this script). Prints "FILE:LINE: what" for each broken reference and
# exits 1 if there is one; else prints what it checked and exits 0.
set -eu

top=${1:-$(dirname "$0")/..}
cd "$top" || exit 2
[ -f docs/formats.md ] || { echo "$top: no docs/formats.md" >&2; exit 2; }

# Text files written by hand: no VCS data, no build trees (a folder with
# a config.status: _ci/, build/, ...), generated autotools files, build
# outputs, test scratch folders or binaries, and not debian/, where a
# package build writes its own lists of the tree's files.
set -- -name .git -o -name autom4te.cache -o -name build-aux \
	-o -name test-tmp -o -name .deps -o -name .libs -o -path './devimg-*' \
	-o -path ./debian
for b in $(find . -name .git -prune -o -name config.status -print); do
	b=${b%/config.status}
	[ "$b" = . ] || set -- "$@" -o -path "$b"
done
files=$(find . \( "$@" \) -prune -o -type f ! -name Makefile.in \
	! -name Makefile ! -name configure ! -name aclocal.m4 \
	! -name 'config.*' ! -name libtool ! -name '*.log' ! -name '*.trs' \
	! -name '*.o' ! -name '*.lo' ! -name '*.la' ! -name '*.so' \
	! -name '*.a' ! -name '*.bc' ! -name '*.spv' ! -name '*.zst' -print |
	LC_ALL=C sort | xargs grep -lI '' 2>/dev/null || true)
[ -n "$files" ] || { echo "$top: no files to check" >&2; exit 2; }

# Pages and the further names their NAME sections give ("name section").
pages=$(for p in man/*.[1-8]; do
	[ -f "$p" ] || continue
	b=${p##*/}
	echo "${b%.*} ${b##*.}"
	sed -n '/^\.SH NAME/,/^\.SH /p' "$p" | sed -e '1d' -e '$d' |
		tr '\n' ' ' | sed -e 's/\\-.*//' -e 's/[,\\]/ /g' |
		tr -s ' ' '\n' | sed '/^$/d' | sed "s/\$/ ${b##*.}/"
done | LC_ALL=C sort -u)

# shellcheck disable=SC2086
LC_ALL=C awk -v pages="$pages" '
function fail(msg) {
	printf "%s:%d: %s\n", cur, lno, msg
	bad++
}
# The text of a line without its comment leader.
function body(s) {
	sub(/^[ \t]*/, "", s)
	sub(/^(\/\*+|\*+\/?|\/\/+|#+|dnl|;+|%+)[ \t]*/, "", s)
	return s
}
function dirof(f) {
	if (f !~ /\//)
		return "."
	sub(/\/[^\/]*$/, "", f)
	return f
}
function exists(p,    r) {
	if (p in seen)
		return seen[p]
	r = (system("test -f \"" p "\"") == 0)
	seen[p] = r
	return r
}
# A heading of docs/formats.md: "## N. Title" or "### Title".
function load_formats(    line, t) {
	while ((getline line < "docs/formats.md") > 0) {
		if (line !~ /^##+ /)
			continue
		t = line
		sub(/^##+ /, "", t)
		if (t ~ /^[0-9]+\. /) {
			fnum[t + 0] = 1
			sub(/^[0-9]+\. /, "", t)
		}
		ftitle[t] = 1
	}
	close("docs/formats.md")
}
# The numbered sections ("## N. ...") of a page of docs/.
function load_own(f,    line) {
	split("", own)
	while ((getline line < f) > 0)
		if (line ~ /^##+ [0-9]+\. /) {
			sub(/^##+ /, "", line)
			own[line + 0] = 1
		}
	close(f)
}
function check_md(tok, f) {
	n_md++
	if (tok ~ /^\//)
		return
	if (tok ~ /^docs\//) {
		if (!exists(tok))
			fail(tok " does not exist")
	} else if (tok ~ /^\.\.?\//) {
		if (!exists(dirof(f) "/" tok))
			fail(tok " does not exist (from " dirof(f) ")")
	} else if (tok !~ /\//) {
		if (!exists(dirof(f) "/" tok) && !exists("docs/" tok) &&
		    !exists(tok))
			fail(tok " is not beside the file, in docs/ " \
			     "or at the top")
	}
}
function check_page(name, sect) {
	n_man++
	if (sect != "" && !((name " " sect) in page))
		fail("no manual page " name "(" sect ") in man/")
	else if (sect == "" && !(name in anypage))
		fail("no manual page " name " in man/")
}
# The matches of re in text that start between from and len0: their
# text in MT[1..n], what precedes each in MB[], what follows in MA[].
function find_all(text, re, from, len0,    s, at, n) {
	s = text
	at = 0
	n = 0
	while (match(s, re) && at + RSTART <= len0) {
		if (at + RSTART >= from) {
			n++
			MT[n] = substr(s, RSTART, RLENGTH)
			MB[n] = substr(text, 1, at + RSTART - 1)
			MA[n] = substr(s, RSTART + RLENGTH)
		}
		at += RSTART + RLENGTH - 1
		s = substr(s, RSTART + RLENGTH)
	}
	return n
}
# What follows a mention of formats.md: a section number or title.
function check_formats(rest,    t, titled) {
	sub(/^`?/, "", rest)
	titled = (rest ~ /^ *[,(]/)
	sub(/^[ ,]*\(?/, "", rest)
	if (rest ~ /^section [0-9]/) {
		n_sec++
		if (!((substr(rest, 9) + 0) in fnum))
			fail("docs/formats.md has no section " \
			     (substr(rest, 9) + 0))
	} else if (titled && rest ~ /^"[A-Za-z][^"]*"/) {
		n_sec++
		t = substr(rest, 2)
		sub(/".*/, "", t)
		if (!(t in ftitle))
			fail("docs/formats.md has no section \"" t "\"")
	}
}
# Checks the references that start in the line at [from, len0] of text
# (that line with the ones before and after it, joined).
function scan(f, text, from, len0,    i, n, t) {
	n = find_all(text, "[A-Za-z0-9_./-]*[A-Za-z0-9_-]\\.md", from, len0)
	for (i = 1; i <= n; i++) {
		if (MB[i] !~ /\/$/)
			check_md(MT[i], f)
		if (MT[i] ~ /(^|\/)formats\.md$/)
			check_formats(MA[i])
	}
	if (f ~ /^\.\/docs\/[^\/]*\.md$/) {
		n = find_all(text, "[Ss]ection [0-9]+", from, len0)
		for (i = 1; i <= n; i++) {
			if (MB[i] ~ /formats\.md`?[ ,]*\(?$/)
				continue
			n_sec++
			if (!((substr(MT[i], 9) + 0) in own))
				fail(f " has no section " \
				     (substr(MT[i], 9) + 0))
		}
	}
	n = find_all(text, "man ([1-8] )?(devimg|__sycl)[A-Za-z0-9_-]*", from,
		     len0)
	for (i = 1; i <= n; i++) {
		t = substr(MT[i], 5)
		if (t ~ /^[1-8] /)
			check_page(substr(t, 3), substr(t, 1, 1))
		else
			check_page(t, "")
	}
	n = find_all(text, "(devimg|__sycl)[A-Za-z0-9_-]*\\([1-8]\\)", from,
		     len0)
	for (i = 1; i <= n; i++) {
		t = MT[i]
		check_page(substr(t, 1, length(t) - 3),
			   substr(t, length(t) - 1, 1))
	}
}
function flush(    i, a, b, p, pa) {
	if (nl == 0)
		return
	if (cur ~ /^\.\/docs\/[^\/]*\.md$/)
		load_own(cur)
	for (i = 1; i <= nl; i++) {
		p = (i > 1) ? body(L[i - 1]) : ""
		pa = p ((p ~ /\/$/ || p == "") ? "" : " ")
		a = body(L[i])
		b = (i < nl) ? body(L[i + 1]) : ""
		lno = i
		scan(cur, pa a ((a ~ /\/$/) ? "" : " ") b, length(pa) + 1,
		     length(pa) + length(a))
		if (isman[cur] && L[i] ~ /^\.SH /)
			insee = (L[i] ~ /^\.SH "?SEE ALSO/)
		else if (isman[cur] && insee &&
			 match(L[i], "^\\.BR? +(devimg|__sycl)[A-Za-z0-9_\\\\-]* " \
			       "+\\([1-8]\\)")) {
			a = L[i]
			sub(/^\.BR? +/, "", a)
			gsub(/\\-/, "-", a)
			split(a, parts, /[ ()]+/)
			check_page(parts[1], parts[2])
		}
	}
	nl = 0
	insee = 0
	nfiles++
}
BEGIN {
	n = split(pages, pl, "\n")
	for (i = 1; i <= n; i++) {
		split(pl[i], w, " ")
		page[w[1] " " w[2]] = 1
		anypage[w[1]] = 1
	}
	load_formats()
}
FNR == 1 {
	flush()
	cur = FILENAME
	isman[cur] = (cur ~ /^\.\/man\/[^\/]*\.[1-8]$/)
}
{ L[++nl] = $0 }
END {
	flush()
	if (bad) {
		printf "%d broken documentation reference(s)\n", bad
		exit 1
	}
	printf "ok: %d files; %d Markdown paths, %d section references, " \
	       "%d manual pages named\n", nfiles, n_md, n_sec, n_man
}' $files
