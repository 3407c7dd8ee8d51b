# Launch metadata from the device compiler (docs/launch-metadata.md):
# decoders and selection as Check unit tests, and end to end on PoCL with
# kernels built to SPIR bitcode at build time (SPIR_COMPILE comes from
# loader/dispatch.mk), so that a carried build tree needs no clang.

# ---- unit tests ----

meta_unit_tests = \
	tests/meta/test-launch-props \
	tests/meta/test-launch-meta
check_PROGRAMS += $(meta_unit_tests)
TESTS += $(meta_unit_tests)

tests_meta_test_launch_props_SOURCES = tests/meta/test-launch-props.c
tests_meta_test_launch_props_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/props
tests_meta_test_launch_props_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_meta_test_launch_props_LDADD = props/libdevimg-props.la $(CHECK_LIBS)

tests_meta_test_launch_meta_SOURCES = tests/meta/test-launch-meta.c \
	tests/loader/fixture.c tests/loader/fixture.h
tests_meta_test_launch_meta_CPPFLAGS = $(loader_test_cppflags)
tests_meta_test_launch_meta_CFLAGS = $(loader_test_cflags)
tests_meta_test_launch_meta_LDADD = $(loader_test_ldadd)

# ---- end to end on PoCL ----

meta_bitcode = tests/meta/meta.bc tests/meta/elim-spec.bc \
	tests/meta/which-1.bc tests/meta/which-2.bc
if HAVE_CLANG
check_DATA += $(meta_bitcode)
endif
CLEANFILES += $(meta_bitcode)

tests/meta/meta.bc: $(top_srcdir)/tests/meta/meta.cl
	$(AM_V_GEN)$(MKDIR_P) tests/meta && $(SPIR_COMPILE) -o $@ $<
tests/meta/elim-spec.bc: $(top_srcdir)/tests/meta/elim-spec.cl
	$(AM_V_GEN)$(MKDIR_P) tests/meta && $(SPIR_COMPILE) -o $@ $<
tests/meta/which-%.bc: $(top_srcdir)/tests/meta/which.cl
	$(AM_V_GEN)$(MKDIR_P) tests/meta && \
	$(SPIR_COMPILE) -DVAL=$* -o $@ $<

check_PROGRAMS += tests/meta/meta-run
tests_meta_meta_run_SOURCES = tests/meta/meta-run.c
tests_meta_meta_run_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
tests_meta_meta_run_LDADD = loader/libdevimg.la -ldl

meta_shell_tests = tests/meta/meta.sh
TESTS += $(meta_shell_tests)
dist_check_SCRIPTS += $(meta_shell_tests)
EXTRA_DIST += tests/meta/meta.cl tests/meta/which.cl tests/meta/meta.sym \
	tests/meta/meta.props tests/meta/elim-spec.cl tests/meta/elim-spec.sym \
	tests/meta/elim-spec.props docs/launch-metadata.md
