#!/bin/sh
# -batch is a boolean, as clang-offload-wrapper's LLVM option: -batch
# alone, =true, =TRUE, =True, =1 and = make every input a file table;
# =false, =FALSE, =False and =0 leave them images; the last -batch given
# decides. Any other value (a table named after '=' among them) is one
# line of error and exit status 1. -emit-reg-funcs takes the same values.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/wrap/lib-wrap.sh"

DUMP=$top_builddir/devimg-dump
[ -x "$DUMP" ] || skip build "devimg-dump is not built"
cd "$scratch"
mkdir dst
rand_file a.bin 100
rand_file b.bin 200
printf '[Code]\na.bin\nb.bin\n' >t.txt
echo old >dst/keep.o

# codes OBJ: the sizes of OBJ's images, in order, one line.
codes() {
	"$DUMP" --json "$1" >dump.json &&
	one_file_json dump.json || fail "devimg-dump $1 failed"
	jq -c '[.images[].size]' dump.json || fail "devimg-dump $1: bad JSON"
}
table_sizes='[100,200]'
image_size="[$(wc -c <t.txt)]"

for v in "" "=true" "=TRUE" "=True" "=1" "="; do
	"$WRAP" -o w.o -kind=sycl -batch$v t.txt ||
		fail "-batch$v t.txt failed"
	[ "$(codes w.o)" = "$table_sizes" ] ||
		fail "-batch$v: t.txt not read as a table: $(codes w.o)"
	rm -f w.o
done
for v in "=false" "=FALSE" "=False" "=0"; do
	"$WRAP" -o w.o -kind=sycl -batch$v t.txt ||
		fail "-batch$v t.txt failed"
	[ "$(codes w.o)" = "$image_size" ] ||
		fail "-batch$v: t.txt not wrapped as an image: $(codes w.o)"
	rm -f w.o
done

# The last -batch decides for every input, wherever it stands.
"$WRAP" -o w.o -kind=sycl -batch t.txt -batch=false || fail "-batch, =false"
[ "$(codes w.o)" = "$image_size" ] || fail "-batch then =false: $(codes w.o)"
"$WRAP" -o w.o -kind=sycl -batch=0 t.txt --batch=True ||
	fail "-batch=0, --batch=True"
[ "$(codes w.o)" = "$table_sizes" ] || fail "=0 then =True: $(codes w.o)"

# Anything else: one line, status 1, no output (wrap_fails checks all).
wrap_usage_fails "-batch=t.txt: 't.txt' is not a boolean (0, 1, true or false); a table follows -batch as an input: -batch t.txt\$" \
	-o dst/w.o -kind=sycl -batch=t.txt
for v in yes no on off 2 -1 tRUE " true" "true " 01; do
	wrap_usage_fails "-batch=$v: '$v' is not a boolean (0, 1, true or false)" \
		-o dst/w.o -kind=sycl "-batch=$v" t.txt
done
wrap_usage_fails "--batch=yes: 'yes' is not a boolean" \
	-o dst/w.o -kind=sycl --batch=yes t.txt
# A bad -batch is refused even after a good one.
wrap_usage_fails "-batch=maybe: 'maybe' is not a boolean" \
	-o dst/w.o -kind=sycl -batch t.txt -batch=maybe

# -emit-reg-funcs takes the same values ('=' alone is true, as in LLVM).
regs() {
	readelf -sW "$1" >syms || fail "readelf $1 failed"
	grep -c ' __sycl_register_lib$' syms || true
}
for v in "=" "=True" "=1"; do
	"$WRAP" -o r.o -kind=sycl -emit-reg-funcs$v a.bin ||
		fail "-emit-reg-funcs$v failed"
	[ "$(regs r.o)" -ge 1 ] || fail "-emit-reg-funcs$v: no registration"
done
for v in "=False" "=0"; do
	"$WRAP" -o r.o -kind=sycl -emit-reg-funcs$v a.bin ||
		fail "-emit-reg-funcs$v failed"
	[ "$(regs r.o)" -eq 0 ] || fail "-emit-reg-funcs$v: registration"
done
echo PASS
