# Shared test helpers.
EXTRA_DIST += tests/lib.sh tests/runner.h tests/dispatch/checks.h \
	tests/slurp.h
