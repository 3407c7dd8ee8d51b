#!/bin/sh
# devimg-wrap writes no object that libdevimg would refuse at load time: a
# set of more than DEVIMG_LIMIT_PROPS (2^20) properties, or more than 2^20
# sets, is a one-line error naming the file (and the set), exit status 1,
# and no output; exactly 2^20 properties are wrapped. A per-image option
# after the last input (or after the -batch table) would apply to no image:
# an error too, not an option silently dropped.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

cd "$scratch"
mkdir in dst
rand_file in/a.bin 100
sym_file in/a.sym k
printf '[Code|Symbols]\nin/a.bin|in/a.sym\n' >in/t.txt
printf '[S]\nx=1|2\n' >in/p.props
echo old >dst/keep.o

# 2^20 + 1 properties in one set (after a small set), 2^20 + 1 sets.
awk 'BEGIN { print "[small]"; print "x=1|1"; print "[big\033set]";
	for (i = 0; i <= 1048576; i++) print "p" i "=1|" i }' >in/props.props
awk 'BEGIN { for (i = 0; i <= 1048576; i++) print "[s" i "]" }' \
	>in/sets.props
wrap_fails "in/props.props: set 'big.x1bset': 1048577 properties, more than the 1048576 of a set that libdevimg accepts" \
	-o dst/w.o -kind=sycl -properties=in/props.props in/a.bin
wrap_fails "in/sets.props: 1048577 property sets, more than the 1048576 of an image that libdevimg accepts" \
	-o dst/w.o -kind=sycl -properties=in/sets.props in/a.bin
# The same from a batch table names the row.
printf '[Code|Properties]\nin/a.bin|in/p.props\nin/a.bin|in/sets.props\n' \
	>in/big.txt
wrap_fails "in/sets.props: 1048577 property sets, .* (in/big.txt:3)" \
	-o dst/w.o -kind=sycl -batch in/big.txt

# Exactly 2^20 properties are wrapped and dumped back.
sed '$d' in/props.props >in/edge.props
"$WRAP" -o edge.o -kind=sycl -properties=in/edge.props in/a.bin ||
	fail "2^20 properties were refused"
"$top_builddir/devimg-dump" --json edge.o >edge.json 2>edge.err &&
	one_file_json edge.json ||
	fail "devimg-dump --json edge.o exited $?: $(cat edge.err)"
n=$(jq '.images[0].property_sets[1].properties | length' edge.json)
[ "$n" = 1048576 ] || fail "edge.o holds $n properties, not 1048576"
rm -f edge.o edge.json edge.err

# Options after the last input.
wrap_usage_fails "-target=x: after the last input, this option applies to no image" \
	-o dst/w.o -kind=sycl in/a.bin -target=x
wrap_usage_fails "-entries=in/a.sym: after the last input" \
	-o dst/w.o -kind=sycl in/a.bin -entries=in/a.sym
wrap_usage_fails "-properties: after the last input" \
	-o dst/w.o -kind=sycl in/a.bin in/a.sym -properties in/p.props
wrap_usage_fails "-format=spirv: after the last input, .* before the table" \
	-o dst/w.o -kind=sycl -batch in/t.txt -format=spirv
wrap_usage_fails "-kind=sycl: after the last input" \
	-o dst/w.o -kind=sycl -batch in/t.txt -kind=sycl
wrap_usage_fails "-link-opts=-lm: after the last input" \
	-o dst/w.o -kind=sycl -target=a in/a.bin -target=b in/a.bin \
	-link-opts=-lm
# Options about the command, not the images, may come anywhere.
"$WRAP" -kind=sycl in/a.bin -o dst/late.o -host=x86_64-linux-gnu ||
	fail "-o after the input failed"
[ -s dst/late.o ] || fail "-o after the input wrote nothing"
echo PASS
