# Shared test helpers and the suite's guide.
EXTRA_DIST += tests/README.md tests/rusticl.list tests/lib.sh tests/run-test tests/capabilities tests/runner.h tests/slurp.h \
	tests/dispatch/checks.h
