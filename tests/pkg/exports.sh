#!/bin/sh
# The ABI that the built libdevimg.so and the plugins export:
#  - every dynamic symbol of libdevimg.so is a function with the version
#    node that loader/libdevimg.sym gives it, and every name of the script
#    is exported (nothing stale, nothing leaked: no props_*, hash_*,
#    registry_*, select_* ...);
#  - every exported function is declared in include/devimg/devimg.h, and
#    every function declared there is exported;
#  - the version script is append-only in shape: one "local: *;" in the
#    first node, every later node inherits the one before, no name twice;
#  - the SONAME is libdevimg.so.(CURRENT - AGE) of loader/local.mk's
#    -version-info and AGE <= CURRENT (a note, not a failure, when there
#    are more nodes after the first than CURRENT counts additions: the
#    numbers are updated before a release, not with each change);
#  - debian/libdevimg0.symbols, the record of the released ABI, lists
#    every exported symbol with its node, and nothing it lists is gone;
#  - each plugin (plugins/.libs/devimg-*.so) exports devimg_plugin_init
#    and nothing else.
. "$top_srcdir/tests/lib.sh"

lib=$top_builddir/loader/.libs/libdevimg.so
script=$top_srcdir/loader/libdevimg.sym
header=$top_srcdir/include/devimg/devimg.h
localmk=$top_srcdir/loader/local.mk
symbols=$top_srcdir/debian/libdevimg0.symbols
: "${NM:=nm}"
: "${CC:=cc}"

[ -f "$lib" ] || skip build "loader/.libs/libdevimg.so is not built (--disable-shared?)"
command -v "$NM" >/dev/null 2>&1 || skip tools "nm not found"
command -v readelf >/dev/null 2>&1 || skip tools "readelf not found"

errors=0
bad() {
	echo "FAIL: $*" >&2
	errors=$((errors + 1))
}

# ---- the version script: "name node" lines, and the nodes in order ----

# Comments out, braces and semicolons apart, one token per line.
sed -e ':a' -e '/\/\*/{' -e '/\*\//!{N;ba' -e '}' -e 's|/\*.*\*/||' -e '}' \
	"$script" | sed -e 's/{/ { /g' -e 's/}/ } /g' -e 's/;/ ; /g' |
	tr -s ' \t' '\n\n' | sed '/^$/d' >"$scratch/tokens"
awk -v nodes="$scratch/nodes" -v locals="$scratch/locals" \
    -v names="$scratch/script.names" -v errs="$scratch/script.errs" '
	function err(m) { print m >errs }
	BEGIN { state = "top" }
	state == "top" {
		node = $0; state = "open"; nnodes++; next
	}
	state == "open" {
		if ($0 != "{") err("node " node ": no {")
		state = "body"; mode = "global"; next
	}
	state == "body" {
		if ($0 == "global:") { mode = "global"; next }
		if ($0 == "local:") { mode = "local"; next }
		if ($0 == ";") next
		if ($0 == "}") { state = "parent"; parent = "-"; next }
		if (mode == "local") print node, $0 >locals
		else print $0, node >names
		next
	}
	state == "parent" {
		if ($0 == ";") { print node, parent >nodes; state = "top"; next }
		parent = $0; next
	}
	END { if (state != "top") err("unterminated node " node) }
' "$scratch/tokens"
: >>"$scratch/script.errs"
: >>"$scratch/locals"
: >>"$scratch/script.names"
[ -s "$scratch/script.errs" ] && bad "$script: $(cat "$scratch/script.errs")"
[ -s "$scratch/nodes" ] || fail "$script: no version node found"

first=$(sed -n '1s/ .*//p' "$scratch/nodes")
prev=-
while read -r node parent; do
	[ "$parent" = "$prev" ] ||
		bad "$script: node $node inherits '$parent', not the node before it ('$prev'): nodes are appended, each inheriting the last"
	prev=$node
done <"$scratch/nodes"
[ "$(cat "$scratch/locals")" = "$first *" ] ||
	bad "$script: exactly one 'local: *;', in the first node $first, hides the rest; found: $(tr '\n' ' ' <"$scratch/locals")"
wild=$(cut -d' ' -f1 "$scratch/script.names" | grep '[][*?]' || true)
[ -z "$wild" ] || bad "$script: patterns in global: ($wild): name each exported function"
dups=$(cut -d' ' -f1 "$scratch/script.names" | sort | uniq -d)
[ -z "$dups" ] || bad "$script: listed more than once: $dups"

# ---- what libdevimg.so exports ----

"$NM" -D --defined-only "$lib" >"$scratch/nm.raw" || fail "nm -D $lib failed"
# Version definitions show as absolute symbols named like their node.
awk '$2 == "A" && $3 ~ /^DEVIMG_/ { next } { print $2, $3 }' \
	"$scratch/nm.raw" >"$scratch/nm"
while read -r type sym; do
	name=${sym%%@*}
	case $sym in
	*@@*) node=${sym##*@@} ;;
	*@*) node=${sym##*@} ;;
	*) node="" ;;
	esac
	case $type in
	T) ;;
	*) bad "$name is exported as a '$type' symbol, not a function: export functions only" ;;
	esac
	case $name in
	devimg_* | __sycl_register_lib | __sycl_unregister_lib) ;;
	*) bad "$name leaks from libdevimg.so: internal names must stay hidden (static, or left to 'local: *;')" ;;
	esac
	if [ -z "$node" ]; then
		bad "$name is exported without a version: the version script is not applied"
		continue
	fi
	want=$(awk -v n="$name" '$1 == n { print $2; exit }' "$scratch/script.names")
	if [ -z "$want" ]; then
		bad "$name@$node is exported but not in $script: append it to a new node (or make it static)"
	elif [ "$want" != "$node" ]; then
		bad "$name is exported in node $node, but $script puts it in $want"
	fi
	echo "$name $node" >>"$scratch/exported"
done <"$scratch/nm"
: >>"$scratch/exported"
sort "$scratch/exported" >"$scratch/exported.sorted"
while read -r name node; do
	grep -qxF "$name $node" "$scratch/exported.sorted" ||
		bad "$script lists $name ($node) but libdevimg.so does not export it: define it, or (before any release only) drop it"
done <"$scratch/script.names"

# ---- the public header ----

# gcc writes every prototype it saw with -aux-info; other compilers: gcc.
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
[ -s "$scratch/declared" ] || fail "no function declarations found in $header"
cut -d' ' -f1 "$scratch/exported.sorted" | sort -u >"$scratch/exported.names"
comm -13 "$scratch/declared" "$scratch/exported.names" >"$scratch/undeclared"
comm -23 "$scratch/declared" "$scratch/exported.names" >"$scratch/unexported"
while read -r name; do
	bad "$name is exported but not declared in include/devimg/devimg.h: public functions are declared there, the rest stays hidden"
done <"$scratch/undeclared"
while read -r name; do
	bad "$name is declared in include/devimg/devimg.h but libdevimg.so does not export it: add it to $script (a new node) or drop the declaration"
done <"$scratch/unexported"

# ---- the libtool version and the SONAME ----

num() {
	sed -n "s/^$1 *= *\([0-9][0-9]*\) *$/\1/p" "$localmk"
}
current=$(num LIBDEVIMG_CURRENT)
revision=$(num LIBDEVIMG_REVISION)
age=$(num LIBDEVIMG_AGE)
[ -n "$current" ] && [ -n "$revision" ] && [ -n "$age" ] ||
	fail "$localmk: LIBDEVIMG_CURRENT, _REVISION, _AGE not found"
soname=$(readelf -dW "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$age" -gt "$current" ]; then
	bad "$localmk: age $age > current $current"
else
	major=$((current - age))
	[ "$soname" = "libdevimg.so.$major" ] ||
		bad "SONAME is '$soname', -version-info $current:$revision:$age gives libdevimg.so.$major"
fi
nnodes=$(wc -l <"$scratch/nodes")
[ "$current" -ge $((nnodes - 1)) ] ||
	echo "note: $script has $nnodes nodes but LIBDEVIMG_CURRENT is $current: before the release, current++ and age++ (interfaces added)"

# ---- the Debian symbols file ----

# It is part of the source (EXTRA_DIST): its absence is a failure.
[ -f "$symbols" ] || fail "no $symbols: the released ABI cannot be checked"
pkgline=$(sed -n '1p' "$symbols")
want="${soname%.so.*}.so.${soname##*.so.} ${soname%.so.*}${soname##*.so.} #MINVER#"
[ "$pkgline" = "$want" ] ||
	bad "$symbols: first line '$pkgline', the SONAME $soname wants '$want'"
sed -n 's/^ \([^ @]*\)@\([^ ]*\) .*/\1 \2/p' "$symbols" |
	awk '$1 != $2' | sort >"$scratch/recorded"
comm -23 "$scratch/recorded" "$scratch/exported.sorted" |
	while read -r name node; do
		echo "FAIL: $name@$node is in $symbols (released) but not exported: the ABI is append-only; bump the SONAME (age = 0) if this is meant" >&2
		echo x >>"$scratch/lost"
	done
[ ! -s "$scratch/lost" ] || errors=$((errors + 1))
comm -13 "$scratch/recorded" "$scratch/exported.sorted" |
	while read -r name node; do
		echo "FAIL: $name@$node is exported but not in $symbols: add ' $name@$node <first version>'" >&2
		echo x >>"$scratch/new"
	done
[ ! -s "$scratch/new" ] || errors=$((errors + 1))
while read -r node parent; do
	grep -q "^ $node@$node " "$symbols" ||
		bad "$symbols: no ' $node@$node <version>' line for the node itself"
done <"$scratch/nodes"

# ---- plugins ----

nplugins=0
for p in "$top_builddir"/plugins/.libs/devimg-*.so; do
	[ -f "$p" ] || continue
	nplugins=$((nplugins + 1))
	"$NM" -D --defined-only "$p" | awk '{ print $NF }' | sort >"$scratch/plugin"
	[ "$(cat "$scratch/plugin")" = devimg_plugin_init ] ||
		bad "$(basename "$p") exports $(tr '\n' ' ' <"$scratch/plugin")instead of devimg_plugin_init alone"
done

[ "$errors" -eq 0 ] || fail "$errors problem(s) with the exported ABI"
echo "PASS: $(wc -l <"$scratch/exported.sorted") symbols in $nnodes node(s), SONAME $soname, $nplugins plugin(s)"
