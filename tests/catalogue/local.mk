# tests/catalogue: malformed inputs across the tools and the library, one
# row each in cases.tsv (docs/hardening.md): exit status, the exact
# one-line error, nothing left behind.
check_PROGRAMS += tests/catalogue/cat-register tests/catalogue/cat-launch
tests_catalogue_cat_register_SOURCES = tests/catalogue/cat-register.c
tests_catalogue_cat_register_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
tests_catalogue_cat_register_LDADD = loader/libdevimg.la
tests_catalogue_cat_launch_SOURCES = tests/catalogue/cat-launch.c
tests_catalogue_cat_launch_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
tests_catalogue_cat_launch_LDADD = loader/libdevimg.la -ldl

catalogue_tests = tests/catalogue/catalogue.sh \
	tests/catalogue/catalogue-launch.sh
TESTS += $(catalogue_tests)
dist_check_SCRIPTS += $(catalogue_tests)
EXTRA_DIST += tests/catalogue/cases.tsv
