#!/bin/sh
# The command-line contract of every tool (devimg-wrap, devimg-dump,
# devimg-ls):
#  - --version prints exactly "devimg-<tool> (devimg) <PACKAGE_VERSION of
#    config.h>" on stdout, nothing on stderr, and exits 0;
#  - --help prints the usage on stdout, nothing on stderr, exits 0, and
#    mentions every option that the OPTIONS section of man/devimg-<tool>.1
#    documents; every option --help mentions is documented there too;
#  - an unknown option fails with exit status 2 (every tool: 0 success,
#    1 a failure of the work, 2 a command-line error, as each man page's
#    EXIT STATUS says) and a message that points to --help.
. "$top_srcdir/tests/lib.sh"

version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' \
	"$top_builddir/config.h")
[ -n "$version" ] || fail "no PACKAGE_VERSION in $top_builddir/config.h"

# Option names in the tagged paragraphs (.TP, .TQ) of the OPTIONS section
# of a man page, one a line: "-kind", "--json", "-x".
man_options() {
	sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$1" |
		sed -n '/^\.T[PQ]/{n;p;}' |
		sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' |
		grep -o -E -- '(^|[ "[(])--?[a-zA-Z][a-zA-Z0-9-]*' |
		sed 's/^[^-]*//' | sort -u
}

# Option names that a --help text shows: a dash after a blank, "[", "(",
# "," or "|", followed by a letter.
help_options() {
	grep -o -E -- '(^|[][ ,(|])--?[a-zA-Z][a-zA-Z0-9-]*' "$1" |
		sed 's/^[^-]*//' | sort -u
}

# mentions FILE OPTION: OPTION appears in FILE as a word of its own.
mentions() {
	grep -q -E -- "(^|[^a-zA-Z0-9-])$2([^a-zA-Z0-9-]|\$)" "$1"
}

ntools=0
for tool in wrap dump ls; do
	prog=devimg-$tool
	bin=$top_builddir/$prog
	page=$top_srcdir/man/$prog.1
	[ -x "$bin" ] || fail "$prog is not built"
	[ -f "$page" ] || fail "$prog has no man page ($page)"
	ntools=$((ntools + 1))

	"$bin" --version >"$scratch/out" 2>"$scratch/err" ||
		fail "$prog --version exits $?"
	[ "$(cat "$scratch/out")" = "$prog (devimg) $version" ] ||
		fail "$prog --version prints '$(cat "$scratch/out")', not '$prog (devimg) $version'"
	[ ! -s "$scratch/err" ] ||
		fail "$prog --version writes to stderr: $(cat "$scratch/err")"

	"$bin" --help >"$scratch/help" 2>"$scratch/err" ||
		fail "$prog --help exits $?"
	[ ! -s "$scratch/err" ] ||
		fail "$prog --help writes to stderr: $(cat "$scratch/err")"
	grep -q "^Usage: $prog " "$scratch/help" ||
		fail "$prog --help has no 'Usage: $prog ...' line"

	man_options "$page" >"$scratch/man.opts"
	[ -s "$scratch/man.opts" ] || fail "$page documents no options"
	while read -r opt; do
		mentions "$scratch/help" "$opt" ||
			fail "$prog --help does not mention $opt, which $page documents"
	done <"$scratch/man.opts"

	help_options "$scratch/help" >"$scratch/help.opts"
	while read -r opt; do
		mentions "$scratch/man.opts" "$opt" ||
			fail "$prog --help mentions $opt, which the OPTIONS of $page do not document"
	done <"$scratch/help.opts"

	rc=0
	"$bin" --no-such-option >"$scratch/out" 2>"$scratch/err" || rc=$?
	[ "$rc" -eq 2 ] ||
		fail "$prog --no-such-option exits $rc, not 2 (a usage error)"
	grep -q -- '--help' "$scratch/err" ||
		fail "$prog --no-such-option does not point to --help: $(cat "$scratch/err")"
	# The EXIT STATUS section says the shared convention.
	sed -n '/^\.SH "\{0,1\}EXIT STATUS/,/^\.SH /p' "$page" >"$scratch/exit"
	grep -q 'Usage error\|command-line error' "$scratch/exit" ||
		fail "$page: EXIT STATUS does not give 2 for a usage error"
	echo "$prog: $(wc -l <"$scratch/man.opts") options documented and in --help"
done
echo "PASS: $ntools tools"
