# devimg-wrap: device images, entries and property sets -> ELF object.
bin_PROGRAMS += devimg-wrap
devimg_wrap_SOURCES = \
	wrapper/wrap.c \
	wrapper/compress.c wrapper/compress.h \
	wrapper/wrap-syclbin.c wrapper/wrap-syclbin.h \
	wrapper/ompnotes.c wrapper/ompnotes.h \
	wrapper/outfile.c wrapper/outfile.h \
	wrapper/writer.c wrapper/writer.h \
	wrapper/machine.c wrapper/machine.h \
	wrapper/symprop.c wrapper/symprop.h \
	wrapper/reader.c wrapper/reader.h \
	wrapper/index.h
devimg_wrap_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
devimg_wrap_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS) $(ZSTD_CFLAGS)
devimg_wrap_LDADD = props/libdevimg-props.la $(LIBELF_LIBS) $(ZSTD_LIBS)

dist_man_MANS += man/devimg-wrap.1

wrap_tests = \
	tests/wrap/wrap-register.sh \
	tests/wrap/wrap-props.sh \
	tests/wrap/wrap-many.sh \
	tests/wrap/wrap-cli.sh \
	tests/wrap/wrap-errors.sh \
	tests/wrap/wrap-layout.sh \
	tests/wrap/wrap-limits.sh \
	tests/wrap/wrap-inputs.sh \
	tests/wrap/wrap-longname.sh \
	tests/wrap/wrap-upstream.sh \
	tests/wrap/wrap-v3.sh \
	tests/wrap/wrap-extract.sh \
	tests/wrap/wrap-openmp.sh \
	tests/wrap/wrap-noreg.sh
TESTS += $(wrap_tests)
dist_check_SCRIPTS += $(wrap_tests)
EXTRA_DIST += tests/wrap/lib-wrap.sh tests/wrap/registrar.c tests/wrap/mkprops.c \
	tests/wrap/descdump.c tests/wrap/tgtreg.c
