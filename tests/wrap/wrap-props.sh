#!/bin/sh
# Property sets reach the runtime as DPC++ lays them out: the
# specialization-constant example of docs/formats.md section 5 decoded by
# hand (a composite with a padding leaf too), uint32 values inline, byte
# arrays with their 8-byte bit count, empty sets as NULL ranges, and sets
# and properties in file order. An empty .props file is refused, as DPC++'s
# wrapper refuses it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

build_registrar
cd "$scratch"

spirv_file a.spv 100
sym_file a.sym _ZTS4Kern
# StructSpecId: 96 bits {0, 0, 8}; BoolSpecId: 96 bits {1, 0, 1};
# Composite: 288 bits {2, 0, 4} {0xffffffff, 4, 4} {3, 8, 8}.
cat >a.props <<'EOF'
[SYCL/specialization constants]
9d329ad59055e972____ZL12StructSpecId=2|gBAAAAAAAAAAAAAAAAAAAgAAAAA
9d329ad59055e972____ZL10BoolSpecId=2|gBAAAAAAAAQAAAAAAAAAAEAAAAA
Composite=2|gEAAAAAAAAgAAAAAAAAAAQAAAAw/////EAAAAQAAAAwAAAAAIAAAAgAAAAA
[SYCL/specialization constants default values]
all=2|IBAAAAAAAAAFAAAAjBAAAEA
[Empty]
[SYCL/misc properties]
optLevel=1|2
max=1|4294967295
bits=2|IAAAAAAAAAQA
[Empty too]
EOF
cat >a.pjson <<'EOF'
[
 {"name": "SYCL/specialization constants", "properties": [
  {"name": "9d329ad59055e972____ZL12StructSpecId", "type": "byte_array",
   "bits": 96, "value": "000000000000000008000000",
   "descriptors": [{"id": 0, "offset": 0, "size": 8}]},
  {"name": "9d329ad59055e972____ZL10BoolSpecId", "type": "byte_array",
   "bits": 96, "value": "010000000000000001000000",
   "descriptors": [{"id": 1, "offset": 0, "size": 1}]},
  {"name": "Composite", "type": "byte_array", "bits": 288,
   "value": "020000000000000004000000ffffffff0400000004000000030000000800000008000000",
   "descriptors": [{"id": 2, "offset": 0, "size": 4},
                   {"id": 4294967295, "offset": 4, "size": 4},
                   {"id": 3, "offset": 8, "size": 8}]}]},
 {"name": "SYCL/specialization constants default values", "properties": [
  {"name": "all", "type": "byte_array", "bits": 72,
   "value": "140000006300000001"}]},
 {"name": "Empty", "properties": []},
 {"name": "SYCL/misc properties", "properties": [
  {"name": "optLevel", "type": "uint32", "value": 2},
  {"name": "max", "type": "uint32", "value": 4294967295},
  {"name": "bits", "type": "byte_array", "bits": 8, "value": "01"}]},
 {"name": "Empty too", "properties": []}
]
EOF
# An empty .props file: no sets at all, which DPC++ refuses.
: >none.props
! "$WRAP" -o w.o -kind=sycl -target=spir64 -format=spirv -entries=a.sym \
	-properties=none.props a.spv 2>err.txt ||
	fail "devimg-wrap took an empty .props file"
grep -q "none.props:1:1: no property set: saw an empty file" err.txt ||
	fail "empty .props file: $(cat err.txt)"

"$WRAP" -o w.o -kind=sycl -target=spir64 -format=spirv -entries=a.sym \
	-properties=a.props a.spv -properties= a.spv ||
	fail "devimg-wrap failed"
elflint w.o
expect_reset
expect 0 a.spv spirv spir64 "" "" a.sym a.pjson -
expect 1 a.spv spirv spir64 "" "" a.sym - -
run_linked props "-no-pie" w.o

r=run.props/ranges.0
grep -q '^image 0 manifest null entries 1 propsets 5 \[SYCL/specialization constants 3\] \[SYCL/specialization constants default values 1\] \[Empty null\] \[SYCL/misc properties 3\] \[Empty too null\]$' "$r" ||
	fail "ranges of image 0: $(cat "$r")"
grep -q '^image 1 manifest null entries 1 propsets null$' "$r" ||
	fail "no .props file does not give NULL property sets: $(cat "$r")"
echo PASS
