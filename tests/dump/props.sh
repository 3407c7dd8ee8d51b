#!/bin/sh
# devimg-dump --props decodes a .props file alone: the example of
# docs/formats.md section 5 gives the tuples {0,0,8} and {1,0,1} and the
# defaults 14000000 63000000 01; launch metadata reads as argument lists,
# tuples and aspect names; broken files are one-line errors.
. "$top_srcdir/tests/lib.sh"
dump=$top_builddir/devimg-dump
[ -x "$dump" ] || skip build "devimg-dump is not built"
command -v jq >/dev/null 2>&1 || skip tools "jq not found"
cd "$scratch"

cat >ex.props <<'PROPS'
[SYCL/specialization constants]
9d329ad59055e972____ZL12StructSpecId=2|gBAAAAAAAAAAAAAAAAAAAgAAAAA
9d329ad59055e972____ZL10BoolSpecId=2|gBAAAAAAAAQAAAAAAAAAAEAAAAA
[SYCL/specialization constants default values]
all=2|IBAAAAAAAAAFAAAAjBAAAEA
[SYCL/misc properties]
optLevel=1|2
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
    [Empty]
TEXT
cmp -s want text || fail "text: $(diff want text)"

"$dump" --props --json ex.props >got.json &&
	one_file_json got.json || fail "--props --json failed"
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
      {"name": "optLevel", "type": "uint32", "value": 2}]},
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

# Launch metadata (docs/launch-metadata.md), decoded: argument masks as
# lists, work-group sizes as tuples, aspects by name where known.
# kernel_a: 3 bits 0x05; k@reqd: {5, 2}; k@max: {8, 16, 4};
# aspects: {1, 6, 70}; the uint64 size: {32}; work_group_num_dim: {2}.
cat >launch.props <<'PROPS'
[SYCL/kernel param opt]
kernel_a=2|DAAAAAAAAAQB
kernel_b=2|CAAAAAAAAAAA
[SYCL/program metadata]
k@reqd_work_group_size=2|ABAAAAAAAAQBAAAACAAAAA
k@max_work_group_size=2|gBAAAAAAAAACAAAAQAAAAQAAAAA
k@work_group_num_dim=1|2
[SYCL/device requirements]
aspects=2|gBAAAAAAAAQAAAAAGAAAAYEAAAA
reqd_sub_group_size=1|16
reqd_work_group_size_uint64_t=2|ABAAAAAAAAAIAAAAAAAAAA
work_group_num_dim=2|gAAAAAAAAAgAAAAA
fixed_target=2|gAAAAAAAAAgAAAAA
PROPS
"$dump" --props launch.props >text || fail "--props launch.props failed"
cat >want <<'TEXT'
launch.props: 3 property sets
    [SYCL/kernel param opt]
      kernel_a = 3 arguments, eliminated 0, 2
      kernel_b = 2 arguments, none eliminated
    [SYCL/program metadata]
      k@reqd_work_group_size = (5, 2)
      k@max_work_group_size = (8, 16, 4)
      k@work_group_num_dim = 2
    [SYCL/device requirements]
      aspects = cpu, fp64, 70
      reqd_sub_group_size = 16
      reqd_work_group_size_uint64_t = (32)
      work_group_num_dim = 2
      fixed_target = 02000000 (32 bits)
TEXT
cmp -s want text || fail "launch text: $(diff want text)"
"$dump" --props --json launch.props >launch.json &&
	one_file_json launch.json || fail "launch --json"
check_json() {
	[ "$(jq -c "$1" launch.json)" = "$2" ] ||
		fail "launch.json: $1 is $(jq -c "$1" launch.json), expected $2"
}
check_json '.property_sets[0].properties[0] | [.arguments, .eliminated, .value, .bits]' \
	'[3,[0,2],"05",3]'
check_json '.property_sets[0].properties[1].eliminated' '[]'
check_json '.property_sets[1].properties | map(.work_group_size)' \
	'[[5,2],[8,16,4],null]'
check_json '.property_sets[2].properties[0].aspects' \
	'[{"id":1,"name":"cpu"},{"id":6,"name":"fp64"},{"id":70,"name":null}]'
check_json '.property_sets[2].properties[1].value' '16'
check_json '.property_sets[2].properties[2].work_group_size' '[32]'
check_json '.property_sets[2].properties[3].values' '[2]'
check_json '.property_sets[2].properties[4] | has("values")' 'false'

# Undecodable launch metadata is still shown, with the reason.
cat >badmeta.props <<'PROPS'
[SYCL/program metadata]
k@reqd_work_group_size=2|ACAAAAAAAAQAAAAACAAAAMAAAAABAAAA
[SYCL/device requirements]
aspects=2|YAAAAAAAAAQBAAA
PROPS
"$dump" --props badmeta.props >text || fail "--props badmeta.props failed"
grep -q "^      k@reqd_work_group_size = 0100000002000000 0300000004000000 (128 bits) \[cannot decode: set 'SYCL/program metadata' property 'k@reqd_work_group_size': 4 sizes, expected 0 to 3 (one per dimension)\]\$" text ||
	fail "bad size: $(cat text)"
grep -q "^      aspects = 050000 (24 bits) \[cannot decode: .*24 bits are not whole 32-bit integers\]\$" text ||
	fail "bad aspects: $(cat text)"
"$dump" --props --json badmeta.props >bad.json &&
	one_file_json bad.json || fail "badmeta --json"
[ "$(jq -r '.property_sets[1].properties[0].decode_error' bad.json)" = \
  "set 'SYCL/device requirements' property 'aspects': 24 bits are not whole 32-bit integers" ] ||
	fail "decode_error: $(cat bad.json)"
expect_fail "^devimg-dump: nope.props: .*No such file" "$dump" --props nope.props
exit 0
