# tests/wrap: devimg-wrap (wrapper/local.mk, tools/local.mk): options,
# inputs, the layout of the object, upstream command lines, limits.

wrap_tests = \
	tests/wrap/wrap-register.sh \
	tests/wrap/wrap-props.sh \
	tests/wrap/wrap-many.sh \
	tests/wrap/wrap-cli.sh \
	tests/wrap/wrap-errors.sh \
	tests/wrap/wrap-layout.sh \
	tests/wrap/wrap-limits.sh \
	tests/wrap/file-limits.sh \
	tests/wrap/wrap-inputs.sh \
	tests/wrap/wrap-longname.sh \
	tests/wrap/wrap-upstream.sh \
	tests/wrap/wrap-v3.sh \
	tests/wrap/wrap-extract.sh \
	tests/wrap/wrap-openmp.sh \
	tests/wrap/wrap-openmp-aarch64.sh \
	tests/wrap/wrap-noreg.sh \
	tests/wrap/wrap-batch.sh \
	tests/wrap/wrap-empty-table.sh \
	tests/wrap/wrap-blob.sh \
	tests/wrap/wrap-blob-aarch64.sh \
	tests/wrap/warnings.sh
TESTS += $(wrap_tests)
dist_check_SCRIPTS += $(wrap_tests)
EXTRA_DIST += tests/wrap/lib-wrap.sh tests/wrap/registrar.c tests/wrap/mkprops.c \
	tests/wrap/descdump.c tests/wrap/tgtreg.c
