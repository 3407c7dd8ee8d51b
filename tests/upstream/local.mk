# The interop suite: inputs made by upstream's real tools only (LLVM 22
# and 23: clang -fsycl, clang-linker-wrapper, clang-sycl-linker,
# llvm-offload-binary, llvm-offload-wrapper), checked against libdevimg,
# PoCL and devimg-dump. The tests skip (77) where the tools are missing;
# the Debian unstable stage of CI (.ci/sid) has them all and lets none skip.
upstream_tests = \
	tests/upstream/offload-binary.sh \
	tests/upstream/wrapper23.sh \
	tests/upstream/wrap-blob23.sh \
	tests/upstream/sycl-program.sh
TESTS += $(upstream_tests)
dist_check_SCRIPTS += $(upstream_tests)
EXTRA_DIST += tests/upstream/lib-upstream.sh tests/upstream/regshow.c \
	tests/upstream/regshow.h tests/upstream/up-run.c tests/upstream/vadd.cl
