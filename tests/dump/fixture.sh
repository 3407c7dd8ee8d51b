# shellcheck shell=sh
# Sourced by the devimg-dump tests after tests/lib.sh: the tool, the
# hand-written wrapped objects (fixture-a.s, fixture-b.s) and byte patching.

dump=$top_builddir/devimg-dump
[ -x "$dump" ] || skip build "devimg-dump is not built"
command -v jq >/dev/null 2>&1 || skip tools "jq not found"
command -v readelf >/dev/null 2>&1 || skip tools "readelf not found"

case $(uname -m) in
x86_64 | aarch64) ;;
*) skip arch "the fixtures are GNU as for x86-64 or aarch64" ;;
esac

# fixture_obj NAME: assemble tests/dump/fixture-NAME.s to $scratch/NAME.o.
fixture_obj() {
	$CC -c "$top_srcdir/tests/dump/fixture-$1.s" -o "$scratch/$1.o" ||
		fail "cannot assemble fixture-$1.s"
}

# fixture_main: $scratch/main.c, a program that needs nothing else.
fixture_main() {
	echo 'int main(void) { return 0; }' >"$scratch/main.c"
}

# section_hex FILE NAME FIELD: address, offset or size of section NAME.
section_hex() {
	readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' |
		awk -v n="$2" -v f="$3" '$1 == n {
			if (f == "addr") print $3
			else if (f == "off") print $4
			else print $5
			exit }'
}

# section_off FILE NAME: file offset of section NAME, decimal.
section_off() {
	h=$(section_hex "$1" "$2" off)
	[ -n "$h" ] || fail "$1 has no section $2"
	printf '%d\n' "0x$h"
}

# symbol_value FILE NAME: st_value of a (local) symbol, decimal.
symbol_value() {
	h=$(readelf -sW "$1" | awk -v n="$2" '$8 == n { print $2; exit }')
	[ -n "$h" ] || fail "$1 has no symbol $2"
	printf '%d\n' "0x$h"
}

# patch FILE OFFSET HEXBYTES...: overwrite bytes in place.
patch() {
	pf=$1
	po=$2
	shift 2
	esc=
	for b in "$@"; do
		esc="$esc$(printf '\\%03o' "0x$b")"
	done
	# shellcheck disable=SC2059
	printf "$esc" | dd of="$pf" bs=1 seek="$po" conv=notrunc status=none ||
		fail "cannot patch $pf"
}

# le32 VALUE / le64 VALUE: little-endian hex bytes of a number.
le32() {
	printf '%08x\n' "$1" | sed 's/\(..\)\(..\)\(..\)\(..\)/\4 \3 \2 \1/'
}

le64() {
	printf '%016x\n' "$1" |
		sed 's/\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)/\8 \7 \6 \5 \4 \3 \2 \1/'
}

# section_index FILE NAME: index of section NAME, decimal.
section_index() {
	i=$(readelf -SW "$1" | sed -n 's/^ *\[ *\([0-9]*\)\] \([^ ]*\) .*/\1 \2/p' |
		awk -v n="$2" '$2 == n { print $1; exit }')
	[ -n "$i" ] || fail "$1 has no section $2"
	echo "$i"
}

# shdr_off FILE INDEX: file offset of section header INDEX, decimal.
shdr_off() {
	h=$(readelf -hW "$1" | sed -n 's/^ *Start of section headers: *\([0-9]*\).*/\1/p')
	echo $((h + 64 * $2))
}
