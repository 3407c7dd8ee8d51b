# tests/props: the property model (props/local.mk builds it).

# Unit tests (Check). Fixtures are hand-written text files next to them.
props_tests = \
	tests/props/test-model \
	tests/props/test-base64 \
	tests/props/test-text \
	tests/props/test-symtable \
	tests/props/test-specconst \
	tests/props/test-escape \
	tests/props/test-unzstd \
	tests/props/test-devglobal \
	tests/props/test-offload-symbols \
	tests/props/test-hashkey
check_PROGRAMS += $(props_tests)
TESTS += $(props_tests)

# The .props rules of DPC++'s reader, through devimg-dump --props/--check.
props_shell_tests = tests/props/dpcpp-rules.sh
TESTS += $(props_shell_tests)
dist_check_SCRIPTS += $(props_shell_tests)

props_test_cppflags = $(AM_CPPFLAGS) \
	-DPROPS_FIXTURES=\"$(abs_top_srcdir)/tests/props\"
props_test_cflags = $(AM_CFLAGS) $(CHECK_CFLAGS)
props_test_ldadd = props/libdevimg-props.la $(CHECK_LIBS)

tests_props_test_model_SOURCES = tests/props/test-model.c tests/props/testutil.h
tests_props_test_model_CPPFLAGS = $(props_test_cppflags)
tests_props_test_model_CFLAGS = $(props_test_cflags)
tests_props_test_model_LDADD = $(props_test_ldadd)

tests_props_test_base64_SOURCES = tests/props/test-base64.c tests/props/testutil.h
tests_props_test_base64_CPPFLAGS = $(props_test_cppflags)
tests_props_test_base64_CFLAGS = $(props_test_cflags)
tests_props_test_base64_LDADD = $(props_test_ldadd)

tests_props_test_text_SOURCES = tests/props/test-text.c tests/props/testutil.h
tests_props_test_text_CPPFLAGS = $(props_test_cppflags)
tests_props_test_text_CFLAGS = $(props_test_cflags)
tests_props_test_text_LDADD = $(props_test_ldadd)

tests_props_test_symtable_SOURCES = tests/props/test-symtable.c tests/props/testutil.h
tests_props_test_symtable_CPPFLAGS = $(props_test_cppflags)
tests_props_test_symtable_CFLAGS = $(props_test_cflags)
tests_props_test_symtable_LDADD = $(props_test_ldadd)

tests_props_test_specconst_SOURCES = tests/props/test-specconst.c tests/props/testutil.h
tests_props_test_specconst_CPPFLAGS = $(props_test_cppflags)
tests_props_test_specconst_CFLAGS = $(props_test_cflags)
tests_props_test_specconst_LDADD = $(props_test_ldadd)

tests_props_test_escape_SOURCES = tests/props/test-escape.c tests/props/testutil.h
tests_props_test_escape_CPPFLAGS = $(props_test_cppflags)
tests_props_test_escape_CFLAGS = $(props_test_cflags)
tests_props_test_escape_LDADD = $(props_test_ldadd)

tests_props_test_offload_symbols_SOURCES = tests/props/test-offload-symbols.c \
	tests/props/testutil.h
tests_props_test_offload_symbols_CPPFLAGS = $(props_test_cppflags)
tests_props_test_offload_symbols_CFLAGS = $(props_test_cflags)
tests_props_test_offload_symbols_LDADD = $(props_test_ldadd)

tests_props_test_hashkey_SOURCES = tests/props/test-hashkey.c tests/props/testutil.h
tests_props_test_hashkey_CPPFLAGS = $(props_test_cppflags)
tests_props_test_hashkey_CFLAGS = $(props_test_cflags)
tests_props_test_hashkey_LDADD = $(props_test_ldadd)

# The zstd expander; libzstd makes the frames it is fed.
tests_props_test_unzstd_SOURCES = tests/props/test-unzstd.c tests/props/testutil.h
tests_props_test_unzstd_CPPFLAGS = $(props_test_cppflags)
tests_props_test_unzstd_CFLAGS = $(props_test_cflags) $(ZSTD_CFLAGS)
tests_props_test_unzstd_LDADD = $(props_test_ldadd) $(ZSTD_LIBS)

# HostAccessINTEL decorations in a module assembled by spirv-as; without
# spirv-as the test runs its other cases and reports a skip.
tests_props_test_devglobal_SOURCES = tests/props/test-devglobal.c \
	tests/props/testutil.h tests/slurp.h
tests_props_test_devglobal_CPPFLAGS = $(props_test_cppflags) \
	-DDEVGLOBAL_SPV=\"$(abs_top_builddir)/tests/props/devglobal.spv\"
tests_props_test_devglobal_CFLAGS = $(props_test_cflags)
tests_props_test_devglobal_LDADD = $(props_test_ldadd)
CLEANFILES += tests/props/devglobal.spv
if HAVE_SPIRV_AS
check_DATA += tests/props/devglobal.spv
tests/props/devglobal.spv: $(top_srcdir)/tests/props/devglobal.spvasm
	$(AM_V_GEN)$(MKDIR_P) tests/props && $(SPIRV_ASSEMBLE) -o $@ $<
endif

EXTRA_DIST += \
	tests/props/devglobal.spvasm \
	tests/props/spec-example.props \
	tests/props/kernels.sym \
	tests/props/batch.txt
