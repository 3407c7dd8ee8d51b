# The demo end to end, as the README's first command runs it: one object
# with vadd as SPIR bitcode and as SPIR-V, the image the device ingests
# chosen, run and checked (examples/local.mk builds it).
if HAVE_CLANG
check_DATA += examples/vadd$(EXEEXT)
endif
TESTS += tests/demo/demo.sh
dist_check_SCRIPTS += tests/demo/demo.sh
EXTRA_DIST += docs/platforms.md
