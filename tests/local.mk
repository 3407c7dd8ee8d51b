# Shared test helpers.
EXTRA_DIST += tests/lib.sh
