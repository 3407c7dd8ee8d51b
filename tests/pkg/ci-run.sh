#!/bin/sh
# .ci/run fails when any command of any stage fails, not only a stage's
# last one, and names the stage; with nothing failing it prints "all
# green". It runs on a copy of .ci/run in a scratch tree where every tool
# it calls (bootstrap-deps, autoreconf, configure, make, apt-get, sudo,
# deb-build.sh, .ci/trixie, .ci/sid) is a stand-in that logs its call and
# fails when its command line holds $FAIL_ON. For each stage, the
# failure is injected into a command that is not the stage's last.
. "$top_srcdir/tests/lib.sh"

command -v bash >/dev/null 2>&1 || fail "bash is not installed"
t=$scratch/tree
mkdir -p "$t/.ci" "$t/tests/pkg" "$t/bin"
cp "$top_srcdir/.ci/run" "$t/.ci/run"

# A stand-in: logs "NAME ARGS" and fails when they hold $FAIL_ON.
stub() {
	cat >"$1" <<'S'
#!/bin/sh
line="$(basename "$0") $*"
echo "$line" >>"$CI_LOG"
case ${FAIL_ON:+x} in
x) case "$line" in *"$FAIL_ON"*) echo "stand-in failed: $line" >&2; exit 3 ;; esac ;;
esac
exit 0
S
	chmod +x "$1"
}
for f in bootstrap-deps configure tests/pkg/deb-build.sh .ci/trixie .ci/sid; do
	stub "$t/$f"
done
for f in autoreconf make apt-get sudo; do
	stub "$t/bin/$f"
done
# tee and grep are real: make demo's stand-in prints the success line.
cat >"$t/bin/make" <<'S'
#!/bin/sh
line="make $*"
echo "$line" >>"$CI_LOG"
case ${FAIL_ON:+x} in
x) case "$line" in *"$FAIL_ON"*) echo "stand-in failed: $line" >&2; exit 3 ;; esac ;;
esac
case " $* " in *" demo "*) echo "vadd: all correct" ;; esac
exit 0
S
chmod +x "$t/bin/make"
# sudo runs its command, so as_root works whoever runs the test.
cat >"$t/bin/sudo" <<'S'
#!/bin/sh
echo "sudo $*" >>"$CI_LOG"
exec "$@"
S
chmod +x "$t/bin/sudo"

CI_LOG=$scratch/calls
export CI_LOG

# run_ci NAME [FAIL_ON [STAGES]]: .ci/run in the tree (CI_STAGES=STAGES
# when given), output in $scratch/NAME.
run_ci() {
	: >"$CI_LOG"
	FAIL_ON=${2:-} CI_STAGES=${3:-} PATH=$t/bin:$PATH \
		bash "$t/.ci/run" >"$scratch/$1" 2>&1
}

run_ci green || fail ".ci/run with nothing failing: $(tail -5 "$scratch/green")"
grep -q '==== all green ====' "$scratch/green" || fail "no all green"
for s in deps build demo check fuzz valgrind asan tsan distcheck deb trixie sid; do
	grep -q "==== $s ====" "$scratch/green" || fail "stage $s did not run"
done

# stage:text of a command in it that is not its last.
for c in 'deps:bootstrap-deps' 'build:autoreconf' 'demo:make demo' \
	'check: check' 'fuzz:fuzz-build' 'valgrind:check-valgrind-ci' \
	'asan:sanitize' \
	'tsan:check-tsan' 'distcheck:distcheck' 'deb:deb-build.sh' \
	'trixie:install -y -q --no-install-recommends debootstrap' \
	'sid:install -y -q --no-install-recommends debootstrap'; do
	s=${c%%:*}
	f=${c#*:}
	# The trixie and sid stages install debootstrap alike: sid alone.
	only=
	[ "$s" = sid ] && only=sid
	if run_ci "$s.out" "$f" "$only"; then
		fail "a failing '$f' in stage $s: .ci/run exited 0: $(tail -5 "$scratch/$s.out")"
	fi
	grep -q "^\.ci/run: stage $s failed" "$scratch/$s.out" ||
		fail "'$f' failed, but .ci/run does not name stage $s: $(tail -5 "$scratch/$s.out")"
	! grep -q '==== all green ====' "$scratch/$s.out" ||
		fail "stage $s failed and .ci/run still says all green"
done
echo "every stage's failure fails .ci/run and names the stage"
