#!/bin/sh
# ./bootstrap-deps picks deps/<platform> from os-release and says which:
# Debian 12 and 13 by VERSION_ID, Debian unstable (and testing), which has
# none, as debian-unstable, whose apt-get update takes a Release file past
# its Valid-Until; an unknown platform is refused in one line. apt-get and
# sudo are stand-ins that log what they are asked.
. "$top_srcdir/tests/lib.sh"

bd=$top_srcdir/bootstrap-deps
[ -f "$bd" ] || skip build "no bootstrap-deps (not in this tree)"
[ -f "$top_srcdir/deps/debian-unstable" ] || fail "no deps/debian-unstable"
cd "$scratch"

mkdir bin
for t in apt-get sudo; do
	cat >"bin/$t" <<EOF
#!/bin/sh
echo "$t \$*" >>"$scratch/apt.log"
[ $t = sudo ] && exec "\$@"
exit 0
EOF
	chmod +x "bin/$t"
done

# os NAME ID [VERSION_ID]: an os-release file NAME.
os() {
	{
		echo "PRETTY_NAME=\"$1\""
		echo "ID=$2"
		[ $# -lt 3 ] || echo "VERSION_ID=\"$3\""
	} >"$1.osr"
}
os sid debian
os bookworm debian 12
os trixie debian 13
os noble ubuntu 24.04
os arch arch

# run OS ARGS...: bootstrap-deps on that os-release, stdout in out,
# stderr in err, apt-get's calls in apt.log.
run() {
	o=$1
	shift
	rm -f apt.log
	DEVIMG_OS_RELEASE=$scratch/$o.osr PATH="$scratch/bin:$PATH" \
		sh "$bd" "$@" >out 2>err
}

# list NAME: what --print prints for deps/NAME.
list() {
	sed 's/#.*//' "$top_srcdir/deps/$1" | tr -s ' \n' '  ' |
		sed 's/^ *//; s/ *$//'
}

for o in sid:debian-unstable bookworm:debian-12 trixie:debian-13 \
	noble:ubuntu-24.04; do
	name=${o%%:*}
	want=${o#*:}
	run "$name" --print || fail "--print on $name failed: $(cat err)"
	[ "$(cat err)" = "bootstrap-deps: platform $want (from $scratch/$name.osr: $name)" ] ||
		fail "$name: not said to be $want: $(cat err)"
	[ "$(cat out)" = "$(list "$want")" ] ||
		fail "$name: --print is not deps/$want: $(cat out)"
	[ ! -e apt.log ] || fail "--print ran apt-get: $(cat apt.log)"
done

# Installing: the Valid-Until override for unstable only.
run sid || fail "install on sid failed: $(cat err)"
grep -qx '\(sudo \)\{0,1\}apt-get update -q -o Acquire::Check-Valid-Until=false' apt.log ||
	fail "sid: apt-get update without Check-Valid-Until=false: $(cat apt.log)"
grep -q "apt-get install -y -q --no-install-recommends $(list debian-unstable)\$" apt.log ||
	fail "sid: not the list of deps/debian-unstable installed: $(cat apt.log)"
run bookworm || fail "install on bookworm failed: $(cat err)"
grep -qx '\(sudo \)\{0,1\}apt-get update -q' apt.log ||
	fail "bookworm: apt-get update is not plain: $(cat apt.log)"

# --for wins over os-release, and says so.
run sid --for debian-12 --print || fail "--for debian-12 failed: $(cat err)"
[ "$(cat err)" = "bootstrap-deps: platform debian-12 (from --for)" ] ||
	fail "--for: $(cat err)"
[ "$(cat out)" = "$(list debian-12)" ] || fail "--for: $(cat out)"

# --expect: the capabilities its list declares, and nothing installed;
# Debian 12's PoCL takes SPIR, Debian 13's SPIR-V, unstable has LLVM 22.
for o in bookworm:debian-12:spir trixie:debian-13:spirv \
	sid:debian-unstable:llvm-upstream; do
	name=${o%%:*}
	want=${o#*:}
	cap=${want#*:}
	want=${want%%:*}
	run "$name" --expect || fail "--expect on $name failed: $(cat err)"
	[ "$(cat out)" = "$(sed -n 's/^# expect: *//p' "$top_srcdir/deps/$want")" ] ||
		fail "$name: --expect is not deps/$want's: $(cat out)"
	case " $(cat out) " in
	*" $cap "*) ;;
	*) fail "$name: --expect lacks $cap: $(cat out)" ;;
	esac
	[ ! -e apt.log ] || fail "--expect ran apt-get: $(cat apt.log)"
done

# Unknown platforms: one line, status 1, nothing installed.
if run arch; then
	fail "arch (no list) was accepted: $(cat out)"
else
	rc=$?
fi
[ "$rc" -eq 1 ] || fail "arch: exit status $rc, not 1"
grep -q "^bootstrap-deps: no package list for 'arch-'" err ||
	fail "arch: $(cat err)"
[ "$(grep -vc '^bootstrap-deps: platform ' err)" -eq 1 ] ||
	fail "arch: not one line of error: $(cat err)"
[ ! -e apt.log ] || fail "arch: apt-get ran: $(cat apt.log)"
DEVIMG_OS_RELEASE=$scratch/none.osr sh "$bd" --print >out 2>err && rc=0 || rc=$?
[ "$rc" -eq 1 ] || fail "no os-release: exit status $rc, not 1"
grep -q "^bootstrap-deps: no $scratch/none.osr: say which platform with --for\$" err ||
	fail "no os-release: $(cat err)"
echo PASS
