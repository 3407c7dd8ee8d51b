#!/bin/sh
# .props files read as DPC++'s PropertySetRegistry::read reads them, one
# rule at a time, with the text each rule is about: devimg-dump --props
# shows what was read, devimg-dump --check names every place where that
# reading silently drops or changes the text (FILE:LINE: what, exit 1)
# and is silent on a clean file (exit 0).
. "$top_srcdir/tests/lib.sh"
dump=$top_builddir/devimg-dump
[ -x "$dump" ] || skip build "devimg-dump is not built"
command -v jq >/dev/null 2>&1 || skip tools "jq not found"
cd "$scratch"

# read FILE JQ WANT: what --props --json read, through jq -c.
read_as() {
	"$dump" --props --json "$1" >"$1.json" 2>"$1.err" &&
	one_file_json "$1.json" ||
		fail "$1: --props failed: $(cat "$1.err")"
	got=$(jq -c "$2" "$1.json")
	[ "$got" = "$3" ] || fail "$1: $2 is $got, expected $3"
}

# check FILE WANT...: --check prints exactly the lines WANT, exits 1.
check() {
	f=$1
	shift
	: >"$f.want"
	for l in "$@"; do
		printf '%s\n' "$l" >>"$f.want"
	done
	st=0
	"$dump" --check "$f" >"$f.out" 2>"$f.err2" || st=$?
	[ "$st" -eq 1 ] || fail "$f: --check exit status $st, expected 1"
	[ ! -s "$f.err2" ] || fail "$f: --check wrote to stderr: $(cat "$f.err2")"
	cmp -s "$f.want" "$f.out" ||
		fail "$f: --check: $(diff "$f.want" "$f.out")"
}

clean() {
	out=$("$dump" --check "$@") || fail "$*: --check failed on a clean file: $out"
	[ -z "$out" ] || fail "$*: --check printed on a clean file: $out"
}

names='[.property_sets[] | [.name, [.properties[] | [.name, .value]]]]'

# A canonical file, as sycl-post-link writes it: clean.
printf '[SYCL/misc properties]\noptLevel=1|2\n[Empty properties]\n' >ok.props
clean ok.props
read_as ok.props "$names" '[["SYCL/misc properties",[["optLevel",2]]],["Empty properties",[]]]'

# A set with no properties, alone in its file: one empty set.
printf '[Empty properties]\n' >empty-set.props
clean empty-set.props
read_as empty-set.props "$names" '[["Empty properties",[]]]'

# A property given twice: the last value, in the first one's place.
printf '[S]\na=1|1\nb=1|2\na=1|3\n' >dup.props
read_as dup.props "$names" '[["S",[["a",3],["b",2]]]]'
check dup.props "dup.props:4: property 'a' of set 'S' given again: this value replaces the one above"

# The last one wins even when its type differs.
printf '[S]\na=2|IAAAAAAAAAQA\na=1|7\n' >dup-type.props
read_as dup-type.props '[.property_sets[0].properties[] | [.type, .value]]' '[["uint32",7]]'

# A set named twice: one set, where the name first appeared.
printf '[S]\na=1|1\n[T]\nt=1|9\n[S]\nb=1|2\na=1|4\n' >twice.props
read_as twice.props "$names" '[["S",[["a",4],["b",2]]],["T",[["t",9]]]]'
check twice.props \
	"twice.props:5: set 'S' opened again: its properties join the set of that name above" \
	"twice.props:7: property 'a' of set 'S' given again: this value replaces the one above"

# Types: decimal, leading zeros allowed, cut to 32 bits; only 1 and 2.
printf '[S]\na=01|5\nb=4294967298|IAAAAAAAAAQA\nc=0001|6\n' >types.props
read_as types.props '[.property_sets[0].properties[] | [.type, .value]]' \
	'[["uint32",5],["byte_array","01"],["uint32",6]]'
check types.props \
	"types.props:2: property type '01' is read as 1" \
	"types.props:3: property type '4294967298' is read as 2" \
	"types.props:4: property type '0001' is read as 1"
for t in 0 3 4 8 -1 +1 0x1 ' 1' 4294967299; do
	printf '[S]\na=%s|5\n' "$t" >type.props
	expect_fail "type.props:2:3: bad property type: saw '$t', expected 1 (UINT32) or 2 (BYTE_ARRAY)" \
		"$dump" --props type.props
	check type.props "type.props:2:3: bad property type: saw '$t', expected 1 (UINT32) or 2 (BYTE_ARRAY)"
done

# A uint32 written wider than 32 bits keeps its low 32 bits.
printf '[S]\na=1|4294967296\nb=1|99999999999999999999999\nc=1|0004294967295\n' >wide.props
read_as wide.props "$names" '[["S",[["a",0],["b",4135583743],["c",4294967295]]]]'
check wide.props \
	"wide.props:2: number '4294967296' does not fit 32 bits: read as 0" \
	"wide.props:3: number '99999999999999999999999' does not fit 32 bits: read as 4135583743"

# A set name runs to the line's last ']'; text after it is ignored.
printf '[S] trailing\na=1|1\n[a]b]x\n' >after.props
read_as after.props "$names" '[["S",[["a",1]]],["a]b",[]]]'
check after.props \
	"after.props:1: text after the set name's ']' is ignored: ' trailing'" \
	"after.props:3: text after the set name's ']' is ignored: 'x'"

# A byte array longer than its bit count is cut to the count.
printf '[S]\na=2|AAAAAAAAAAQA\nb=2|IAAAAAAAAAQAAAA\n' >long.props
read_as long.props '[.property_sets[0].properties[] | [.bits, .value]]' '[[0,""],[8,"01"]]'
check long.props \
	"long.props:2: byte array of 1 payload bytes has a bit count of 0: the last 1 bytes are dropped" \
	"long.props:3: byte array of 3 payload bytes has a bit count of 8: the last 2 bytes are dropped"

# The first NUL ends the text.
printf '[S]\na=1|5\000junk\n[T]\nb=bad\n' >nul.props
read_as nul.props "$names" '[["S",[["a",5]]]]'
check nul.props "nul.props:2: NUL byte: the 16 bytes from it to the end are ignored"

# '_' is the reserved key of the map DPC++ keeps names in.
printf '[_]\n_=1|1\n' >tomb.props
check tomb.props \
	"tomb.props:1: set name '_': DPC++'s tools keep names in a map that reserves '_', where a second '_' may stay apart instead of merging" \
	"tomb.props:2: property name '_': DPC++'s tools keep names in a map that reserves '_', where a second '_' may stay apart instead of merging"

# Spec constants as DPC++'s runtime lays them. The example of docs/formats.md
# section 5 is clean; a defaults blob one byte short is read past by the
# runtime; a constant whose last leaf is not its furthest makes the next
# constant start inside it; a uint32 where a byte array belongs.
spec='9d329ad59055e972____ZL12StructSpecId=2|gBAAAAAAAAAAAAAAAAAAAgAAAAA
9d329ad59055e972____ZL10BoolSpecId=2|gBAAAAAAAAQAAAAAAAAAAEAAAAA'
printf '[SYCL/specialization constants]\n%s\n[SYCL/specialization constants default values]\nall=2|IBAAAAAAAAAFAAAAjBAAAEA\n' "$spec" >spec.props
clean spec.props
printf '[SYCL/specialization constants]\n%s\n[SYCL/specialization constants default values]\nall=2|ABAAAAAAAAAFAAAAjBAAAA\n' "$spec" >short.props
check short.props "short.props:5: set 'SYCL/specialization constants default values' property 'all': defaults blob has 8 bytes, the constants need 9: saw 8 bytes, expected 9"
printf '[SYCL/specialization constants]\nrev=2|ADAAAAAAAAAAAAAAEAAAAQAAAAQAAAAAAAAAAQAAAAA\nu=1|3\n' >leaves.props
check leaves.props \
	"leaves.props:2: set 'SYCL/specialization constants' property 'rev': the last leaf ends at byte 4 of 8: DPC++'s runtime starts the next constant there" \
	"leaves.props:3: set 'SYCL/specialization constants' property 'u': type 1, expected 2 (BYTE_ARRAY)"

# Refused as DPC++ refuses them: one line naming file, line and column.
printf '' >none.props
expect_fail "none.props:1:1: no property set: saw an empty file" "$dump" --props none.props
check none.props "none.props:1:1: no property set: saw an empty file, expected at least one '[Set name]' line"
printf '\n\r\n' >blank.props
check blank.props "blank.props:1:1: no property set: saw only blank lines, expected at least one '[Set name]' line"
printf '[S]\na=1|\n' >noval.props
check noval.props "noval.props:2:5: empty property value: saw '1|', expected a value after '|'"
printf '[S]\na=|1\n' >notype.props
check notype.props "notype.props:2:3: empty property type: saw '|1', expected Type|Value"
printf '[S]\na=1|5\r' >cr.props
check cr.props "cr.props:2:6: bad decimal number: saw '5\\\\x0d', expected digits 0-9 only"
printf '[S]\na=2|AAAAAAAAAAA\n[\n' >open.props
check open.props "open.props:3:2: unterminated set name: saw '[', expected ']' to close it"

# The property files of clang-offload-wrapper's --sym-prop-bc-files test,
# made as that test makes them: empty aspects and reqd_work_group_size
# (no requirement), an empty set between two others, kernel param opt
# masks of 3 and 1 bits. Clean for --check, read in file order, and
# wrapped through a -batch table into an object that shows the same.
for i in 0 1; do
	: >up$i.prop
	for l in '[SYCL/devicelib req mask]' 'DeviceLibReqMask=1|0' \
		'[SYCL/device requirements]' 'aspects=2|AAAAAAAAAAA' \
		'reqd_work_group_size=2|AAAAAAAAAAA' '[SYCL/kernel param opt]'; do
		echo "$l" >>up$i.prop
	done
done
echo '_ZTSZ4add5N4sycl3_V15queueEPiiiE10add5_dummy=2|DAAAAAAAAAAA' >>up0.prop
echo '_ZZ4add5N4sycl3_V15queueEPiiiENKUlvE_clEv=2|BAAAAAAAAAAA' >>up0.prop
echo '[Empty properties]' >>up0.prop
echo '_ZZ4add4N4sycl3_V15queueEPiiiENKUlvE_clEv=2|BAAAAAAAAAAA' >>up1.prop
echo '_ZTSZ4add4N4sycl3_V15queueEPiiiE10add4_dummy=2|DAAAAAAAAAAA' >>up1.prop
for i in 0 1; do
	echo '[SYCL/misc properties]' >>up$i.prop
	echo 'optLevel=1|2' >>up$i.prop
	echo "pseudo-aocx-$i" >up$i.aocx
	echo "_ZTSZ4add$((5 - i))N4sycl3_V15queueEPiiiE10add$((5 - i))_dummy" >up$i.sym
done
clean up0.prop up1.prop
sets='[.property_sets[] | .name]'
read_as up0.prop "$sets" '["SYCL/devicelib req mask","SYCL/device requirements","SYCL/kernel param opt","Empty properties","SYCL/misc properties"]'
read_as up0.prop '.property_sets[1].properties | map(.aspects // .work_group_size)' '[[],[]]'
read_as up1.prop '.property_sets[2].properties | map([.bits, .arguments])' '[[1,1],[3,3]]'
echo '[Code|Properties|Symbols]' >up.table
echo 'up0.aocx|up0.prop|up0.sym' >>up.table
echo 'up1.aocx|up1.prop|up1.sym' >>up.table
"$top_builddir/devimg-wrap" -o up.o -kind=sycl -target=fpga_aocx-intel-unknown \
	-batch up.table || fail "devimg-wrap -batch of the upstream inputs"
"$dump" --json up.o >up.json &&
	one_file_json up.json || fail "devimg-dump up.o"
got=$(jq -c '[.images[] | [.property_sets[] | [.name, (.properties | length)]]]' up.json)
want='[[["SYCL/devicelib req mask",1],["SYCL/device requirements",2],["SYCL/kernel param opt",2],["Empty properties",0],["SYCL/misc properties",1]],[["SYCL/devicelib req mask",1],["SYCL/device requirements",2],["SYCL/kernel param opt",2],["SYCL/misc properties",1]]]'
[ "$got" = "$want" ] || fail "up.o: $got, expected $want"

# Several files: each finding, in order; a clean one adds nothing.
st=0
"$dump" --check ok.props dup.props wide.props >all.out || st=$?
[ "$st" -eq 1 ] || fail "--check of three files: exit status $st"
[ "$(wc -l <all.out)" -eq 3 ] || fail "--check of three files: $(cat all.out)"
clean ok.props empty-set.props

# A file that cannot be read: stderr, exit 1.
st=0
"$dump" --check missing.props >miss.out 2>miss.err || st=$?
[ "$st" -eq 1 ] && [ ! -s miss.out ] && grep -q "missing.props: cannot open" miss.err ||
	fail "missing file: $st $(cat miss.out miss.err)"
expect_fail "cannot be combined" "$dump" --check --json ok.props
echo PASS
