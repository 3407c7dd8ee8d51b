# tests/dump: devimg-dump (wrapper/local.mk, tools/local.mk): listings,
# extraction, malformed and mutated objects.

# The reader on its own, fed truncated and corrupted files.
check_PROGRAMS += tests/dump/reader-mutate
tests_dump_reader_mutate_SOURCES = tests/dump/reader-mutate.c \
	wrapper/index-reader.c wrapper/index-reader.h wrapper/index.h
tests_dump_reader_mutate_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include \
	$(LIBELF_CFLAGS)
tests_dump_reader_mutate_LDADD = props/libdevimg-props.la $(LIBELF_LIBS)

# OffloadBinary blobs whose entries carry "symbols" in each of LLVM's
# forms, for tests/dump/offload-symbols.sh and registered-blobs.sh.
check_PROGRAMS += tests/dump/mk-sycl-blob
tests_dump_mk_sycl_blob_SOURCES = tests/dump/mk-sycl-blob.c tests/slurp.h
tests_dump_mk_sycl_blob_LDADD = props/libdevimg-props.la

# Shell tests; they source tests/lib.sh and tests/dump/fixture.sh, which
# assembles the hand-written wrapped objects fixture-a.s and fixture-b.s.
# descriptors.sh compiles desc-llvm.c and desc-dpcpp.c with $(CC),
# descriptors-aarch64.sh desc-llvm.c with the aarch64 cross compiler.
dump_tests = \
	tests/dump/descriptors.sh \
	tests/dump/descriptors-aarch64.sh \
	tests/dump/elf-kinds.sh \
	tests/dump/escape.sh \
	tests/dump/extract.sh \
	tests/dump/extract-names.sh \
	tests/dump/globals.sh \
	tests/dump/inputs.sh \
	tests/dump/malformed.sh \
	tests/dump/props.sh \
	tests/dump/mutate.sh \
	tests/dump/offload-symbols.sh \
	tests/dump/registered-blobs.sh \
	tests/dump/wrap-roundtrip.sh
TESTS += $(dump_tests)
dist_check_SCRIPTS += $(dump_tests)
EXTRA_DIST += tests/dump/fixture.sh tests/dump/fixture-a.s \
	tests/dump/fixture-b.s tests/dump/fixture-ab.json \
	tests/dump/desc-llvm.c tests/dump/desc-llvm.txt tests/dump/desc-dpcpp.c
