# wrapper: the work of devimg-wrap and devimg-dump (tools/ holds their
# command lines), as one convenience library both link.
noinst_LTLIBRARIES += wrapper/libdevimg-wrapper.la
# devimg-wrap's, devimg-dump's, then what both use.
wrapper_libdevimg_wrapper_la_SOURCES = \
	wrapper/wrap.c wrapper/wrap.h wrapper/lint.c wrapper/lint.h \
	wrapper/compress.c wrapper/compress.h \
	wrapper/wrap-syclbin.c wrapper/wrap-syclbin.h wrapper/ompnotes.c \
	wrapper/ompnotes.h wrapper/object-writer.c wrapper/object-writer.h \
	wrapper/object-private.h wrapper/object-layout.c \
	wrapper/object-descriptor.c wrapper/object-ctors.c \
	wrapper/object-names.c wrapper/object-sections.c wrapper/object-elf.c \
	wrapper/object-images.c wrapper/object-buf.c wrapper/object-blob.c \
	wrapper/object-set.c wrapper/machine.c \
	wrapper/machine.h wrapper/symprop.c wrapper/symprop.h \
	wrapper/dump.c wrapper/dump.h wrapper/check.c wrapper/check.h \
	wrapper/dump-offload.c wrapper/dump-offload.h \
	wrapper/dump-device-globals.c wrapper/dump-device-globals.h wrapper/json.c \
	wrapper/json.h \
	wrapper/outfile.c wrapper/outfile.h wrapper/index-reader.c wrapper/index-reader.h \
	wrapper/index.h
wrapper_libdevimg_wrapper_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include \
	$(LIBELF_CFLAGS) $(ZSTD_CFLAGS)
wrapper_libdevimg_wrapper_la_LIBADD = props/libdevimg-props.la \
	$(LIBELF_LIBS) $(ZSTD_LIBS)

# devimg-dump: reads device images back from any ELF64 file (wrapper/index-reader.c),
# prints them as text or JSON, extracts them, decodes .props files.
# The program is built in tools/local.mk.
dist_man_MANS += man/devimg-dump.1
EXTRA_DIST += docs/dump-json.md

# Binary descriptors found by their structure, for the listing.
wrapper_libdevimg_wrapper_la_SOURCES += wrapper/dump-descriptor.c \
	wrapper/dump-descriptor.h

# What wrapper/dump.c hands each file to (dump-private.h): the text
# listing, --json, --extract, and the values both listings decode.
wrapper_libdevimg_wrapper_la_SOURCES += wrapper/dump-private.h \
	wrapper/dump-text.c wrapper/dump-json.c wrapper/dump-extract.c \
	wrapper/dump-decode.c

# devimg-wrap: device images, entries and property sets -> ELF object.
# The program is built in tools/local.mk.
dist_man_MANS += man/devimg-wrap.1
