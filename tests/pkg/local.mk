# Packaging and portability checks:
#  exports.sh  the ABI of libdevimg.so (version script, header, SONAME,
#              debian/libdevimg0.symbols) and of the plugins
#  cli.sh      --help and --version of every tool against its man page
#  man.sh      every page renders cleanly; every public function has one
#  doc-refs.sh every reference to docs/, to a section of docs/formats.md
#              or to a manual page resolves (tools/check-doc-refs.sh)
#  aarch64.sh  objects for an aarch64 host, cross-linked and run under
#              qemu-aarch64 with a registrar built for aarch64 (skips
#              without gcc-aarch64-linux-gnu or qemu-user)
#  plugin-sdk.sh  make install into a scratch folder, a plugin built out
#              of the tree against the installed devimg_plugin.h through
#              pkg-config, listed by the installed devimg-ls
#  configure-clang.sh  configure's choice of clang and llvm-spirv, and
#              its check lines, on made-up toolchains (needs autoconf)
#  deps.sh     debian/control offers the same majors of clang, llvm and
#              llvm-spirv, one of which each list of deps/ installs;
#              README.md shows each list as it is
#  bootstrap-deps.sh  the platform bootstrap-deps takes from os-release,
#              (Debian unstable: debian-unstable), its apt-get calls and
#              the capabilities --expect prints
#  ci-run.sh   .ci/run fails, naming the stage, when any command of any
#              stage fails (stand-ins for the tools it calls)
#  declared.sh a skip for a declared capability fails (tests/run-test);
#              declared-opencl.sh: with no OpenCL driver, device tests
#              fail once opencl-device is declared
# tests/pkg/deb-build.sh builds the Debian packages in a copy of the tree
# and runs lintian: for CI, not part of make check.
pkg_shell_tests = \
	tests/pkg/exports.sh \
	tests/pkg/cli.sh \
	tests/pkg/man.sh \
	tests/pkg/doc-refs.sh \
	tests/pkg/aarch64.sh \
	tests/pkg/plugin-sdk.sh \
	tests/pkg/configure-clang.sh \
	tests/pkg/prefix.sh \
	tests/pkg/dlopen-note.sh \
	tests/pkg/deps.sh \
	tests/pkg/bootstrap-deps.sh \
	tests/pkg/ci-run.sh \
	tests/pkg/declared.sh \
	tests/pkg/declared-opencl.sh
TESTS += $(pkg_shell_tests)
dist_check_SCRIPTS += $(pkg_shell_tests)
EXTRA_DIST += tests/pkg/cross-registrar.c tests/pkg/deb-build.sh
# ci-run.sh reads .ci/run; the other CI scripts travel with it.
EXTRA_DIST += .ci/run .ci/lib-root.sh .ci/trixie .ci/sid

# The Debian packaging travels in the tarball: exports.sh reads the
# symbols file, and the tarball builds packages as the tree does.
EXTRA_DIST += \
	debian/changelog \
	debian/control \
	debian/copyright \
	debian/rules \
	debian/source/format \
	debian/libdevimg0.install \
	debian/libdevimg0.symbols \
	debian/libdevimg-dev.install \
	debian/devimg-tools.install \
	debian/devimg-plugin-opencl.install \
	debian/devimg-plugin-level-zero.install \
	debian/devimg-plugin-cuda.install \
	debian/not-installed

# Documentation of the design, the formats and the plugin interface (the
# other pages travel with the tests that cite them), the contributors'
# guide, and what checks that references to them resolve.
EXTRA_DIST += docs/performance.md
EXTRA_DIST += docs/design.md docs/formats.md docs/writing-a-plugin.md \
	docs/dump-json.md CONTRIBUTING.md .editorconfig .clang-format \
	tools/check-doc-refs.sh
