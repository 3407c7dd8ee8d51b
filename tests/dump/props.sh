#!/bin/sh
# devimg-dump --props decodes a .props file alone: FORMATS.md's example
# gives the tuples {0,0,8} and {1,0,1} and the defaults 14000000 63000000 01;
# broken files are one-line errors.
. "$top_srcdir/tests/lib.sh"
dump=$top_builddir/devimg-dump
[ -x "$dump" ] || skip "devimg-dump is not built"
command -v jq >/dev/null 2>&1 || skip "jq not found"
cd "$scratch"

cat >ex.props <<'PROPS'
[SYCL/specialization constants]
9d329ad59055e972____ZL12StructSpecId=2|gBAAAAAAAAAAAAAAAAAAAgAAAAA
9d329ad59055e972____ZL10BoolSpecId=2|gBAAAAAAAAQAAAAAAAAAAEAAAAA
[SYCL/specialization constants default values]
all=2|IBAAAAAAAAAFAAAAjBAAAEA
[SYCL/misc properties]
optLevel=1|2
note=3|say "hi"
[Empty]
PROPS

"$dump" --props ex.props >text || fail "--props failed"
cat >want <<'TEXT'
ex.props: 4 property sets
    [SYCL/specialization constants]
      9d329ad59055e972____ZL12StructSpecId = {id 0, offset 0, size 8}
      9d329ad59055e972____ZL10BoolSpecId = {id 1, offset 0, size 1}
    [SYCL/specialization constants default values]
      all = 1400000063000000 01 (72 bits)
    [SYCL/misc properties]
      optLevel = 2
      note = "say \"hi\""
    [Empty]
TEXT
cmp -s want text || fail "text: $(diff want text)"

"$dump" --props --json ex.props >got.json || fail "--props --json failed"
jq -S . >want.json <<'JSON'
{
  "file": "ex.props",
  "property_sets": [
    {"name": "SYCL/specialization constants", "properties": [
      {"name": "9d329ad59055e972____ZL12StructSpecId", "type": "byte_array",
       "bits": 96, "value": "000000000000000008000000",
       "descriptors": [{"id": 0, "offset": 0, "size": 8}]},
      {"name": "9d329ad59055e972____ZL10BoolSpecId", "type": "byte_array",
       "bits": 96, "value": "010000000000000001000000",
       "descriptors": [{"id": 1, "offset": 0, "size": 1}]}]},
    {"name": "SYCL/specialization constants default values", "properties": [
      {"name": "all", "type": "byte_array", "bits": 72,
       "value": "140000006300000001"}]},
    {"name": "SYCL/misc properties", "properties": [
      {"name": "optLevel", "type": "uint32", "value": 2},
      {"name": "note", "type": "string", "value": "say \"hi\""}]},
    {"name": "Empty", "properties": []}
  ]
}
JSON
jq -S . got.json >got-sorted.json || fail "not JSON: $(cat got.json)"
cmp -s want.json got-sorted.json || fail "json: $(diff want.json got-sorted.json)"

"$dump" --props --json ex.props ex.props >two.json || fail "two files"
[ "$(jq '.files | length' two.json)" = 2 ] || fail "two files: $(cat two.json)"

# Broken files: one line naming the file, nothing on stdout.
printf '[S]\nx=2|!!!\n' >b64.props
printf 'x=1|2\n' >noset.props
printf '[SYCL/specialization constants]\nx=2|IAAAAAAAAAQA\n' >tuple.props
for f in b64 noset tuple; do
	expect_fail "^devimg-dump: $f.props" "$dump" --props $f.props
	[ ! -s "$scratch/out" ] || fail "$f: stdout: $(cat "$scratch/out")"
done
expect_fail "not whole {id, offset, size} tuples" "$dump" --props tuple.props
expect_fail "^devimg-dump: nope.props: .*No such file" "$dump" --props nope.props
exit 0
