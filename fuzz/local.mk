# fuzz/: libFuzzer harnesses of every reader of untrusted bytes: the
# parsers, the containers, devimg-dump's views, registration of every
# descriptor layout and blob, SYCLBIN bundles (docs/hardening.md says
# which harness reaches which). Each harness is one fuzz-<name>.c file with
# LLVMFuzzerTestOneInput(); it is built twice:
#  - fuzz/replay-<name>, by the ordinary compiler with replay.c as main():
#    make check runs it over the seed corpus (seeds.sh makes it from the
#    test fixtures) and the stored crashes of fuzz/regressions/<name>/,
#    so regressions replay in every build, sanitized or not;
#  - fuzz/bin/<name>, by $(CLANG) with -fsanitize=fuzzer,address,undefined
#    (when clang and libFuzzer are there): make check runs it over the
#    same inputs once, make fuzz fuzzes each for FUZZ_SECONDS, make
#    fuzz-smoke each for FUZZ_SMOKE_SECONDS (CI).
# docs/hardening.md says which reader each one reaches, and the limits.
FUZZ_HARNESSES = props bytes sym table reader descriptor introspect \
	containers dump blob layout bundle devglobal

fuzz_replay_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/include
fuzz_replay_common = fuzz/replay.c fuzz/fuzz.h

check_PROGRAMS += fuzz/replay-props fuzz/replay-bytes fuzz/replay-sym \
	fuzz/replay-table fuzz/replay-reader fuzz/replay-descriptor \
	fuzz/replay-introspect fuzz/replay-containers fuzz/replay-dump \
	fuzz/replay-blob fuzz/replay-layout fuzz/replay-bundle \
	fuzz/replay-devglobal

fuzz_replay_props_SOURCES = fuzz/fuzz-props.c $(fuzz_replay_common) \
	wrapper/index-reader.c wrapper/index-reader.h
fuzz_replay_props_CPPFLAGS = $(fuzz_replay_cppflags) $(LIBELF_CFLAGS)
fuzz_replay_props_LDADD = props/libdevimg-props.la $(LIBELF_LIBS)

fuzz_replay_bytes_SOURCES = fuzz/fuzz-bytes.c $(fuzz_replay_common)
fuzz_replay_bytes_CPPFLAGS = $(fuzz_replay_cppflags)
fuzz_replay_bytes_LDADD = props/libdevimg-props.la

fuzz_replay_sym_SOURCES = fuzz/fuzz-sym.c $(fuzz_replay_common)
fuzz_replay_sym_CPPFLAGS = $(fuzz_replay_cppflags)
fuzz_replay_sym_LDADD = props/libdevimg-props.la

fuzz_replay_containers_SOURCES = fuzz/fuzz-containers.c $(fuzz_replay_common)
fuzz_replay_containers_CPPFLAGS = $(fuzz_replay_cppflags)
fuzz_replay_containers_LDADD = props/libdevimg-props.la

fuzz_replay_table_SOURCES = fuzz/fuzz-table.c $(fuzz_replay_common)
fuzz_replay_table_CPPFLAGS = $(fuzz_replay_cppflags)
fuzz_replay_table_LDADD = props/libdevimg-props.la

fuzz_replay_reader_SOURCES = fuzz/fuzz-reader.c $(fuzz_replay_common) \
	wrapper/index-reader.c wrapper/index-reader.h wrapper/index.h
fuzz_replay_reader_CPPFLAGS = $(fuzz_replay_cppflags) $(LIBELF_CFLAGS)
fuzz_replay_reader_LDADD = props/libdevimg-props.la $(LIBELF_LIBS)

fuzz_replay_descriptor_SOURCES = fuzz/fuzz-descriptor.c $(fuzz_replay_common)
fuzz_replay_descriptor_CPPFLAGS = $(fuzz_replay_cppflags)
fuzz_replay_descriptor_CFLAGS = $(AM_CFLAGS) $(PTHREAD_CFLAGS)
fuzz_replay_descriptor_LDADD = loader/libdevimg-internal.la $(PTHREAD_LIBS)

fuzz_replay_introspect_SOURCES = fuzz/fuzz-introspect.c $(fuzz_replay_common)
fuzz_replay_introspect_CPPFLAGS = $(fuzz_replay_cppflags)
fuzz_replay_introspect_CFLAGS = $(AM_CFLAGS) $(PTHREAD_CFLAGS)
fuzz_replay_introspect_LDADD = loader/libdevimg-internal.la $(PTHREAD_LIBS)

# devimg-dump's container views, descriptor search and listing.
fuzz_replay_dump_SOURCES = fuzz/fuzz-dump.c $(fuzz_replay_common)
fuzz_replay_dump_CPPFLAGS = $(fuzz_replay_cppflags) $(LIBELF_CFLAGS)
fuzz_replay_dump_LDADD = wrapper/libdevimg-wrapper.la

fuzz_replay_devglobal_SOURCES = fuzz/fuzz-devglobal.c $(fuzz_replay_common)
fuzz_replay_devglobal_CPPFLAGS = $(fuzz_replay_cppflags)
fuzz_replay_devglobal_LDADD = wrapper/libdevimg-wrapper.la

# Registration of other layouts, and SYCLBIN bundles (inspect.h).
fuzz_replay_loader_ldadd = loader/libdevimg-internal.la $(PTHREAD_LIBS)
fuzz_replay_blob_SOURCES = fuzz/fuzz-blob.c fuzz/inspect.h \
	$(fuzz_replay_common)
fuzz_replay_blob_CPPFLAGS = $(fuzz_replay_cppflags)
fuzz_replay_blob_CFLAGS = $(AM_CFLAGS) $(PTHREAD_CFLAGS)
fuzz_replay_blob_LDADD = $(fuzz_replay_loader_ldadd)

fuzz_replay_layout_SOURCES = fuzz/fuzz-layout.c fuzz/inspect.h \
	$(fuzz_replay_common)
fuzz_replay_layout_CPPFLAGS = $(fuzz_replay_cppflags)
fuzz_replay_layout_CFLAGS = $(AM_CFLAGS) $(PTHREAD_CFLAGS)
fuzz_replay_layout_LDADD = $(fuzz_replay_loader_ldadd)

fuzz_replay_bundle_SOURCES = fuzz/fuzz-bundle.c fuzz/inspect.h \
	$(fuzz_replay_common)
fuzz_replay_bundle_CPPFLAGS = $(fuzz_replay_cppflags)
fuzz_replay_bundle_CFLAGS = $(AM_CFLAGS) $(PTHREAD_CFLAGS)
fuzz_replay_bundle_LDADD = $(fuzz_replay_loader_ldadd)

TESTS += fuzz/replay.sh fuzz/libfuzzer-replay.sh
dist_check_SCRIPTS += fuzz/replay.sh fuzz/libfuzzer-replay.sh
EXTRA_DIST += fuzz/seeds.sh fuzz/regressions fuzz/.gitignore \
	docs/hardening.md docs/limits.md

# ---- the libFuzzer programs (clang) ----

FUZZ_SECONDS = 60
FUZZ_SMOKE_SECONDS = 20
# More libFuzzer options for make fuzz and fuzz-smoke (last, so they win),
# e.g. FUZZ_FLAGS=-max_len=4096.
FUZZ_FLAGS =
# What one input may cost (docs/hardening.md, "Limits"): seconds, the
# process's resident memory, one allocation. A larger cost is a finding,
# kept as timeout-*, oom-* or crash-* in the artifacts.
FUZZ_TIMEOUT = 25
FUZZ_RSS_LIMIT_MB = 2048
FUZZ_MALLOC_LIMIT_MB = 256
# The largest input: 1 MiB for the readers of files that share parts
# (amplification: a structure repeated by reference), 64 KiB elsewhere.
FUZZ_MAX_LEN = 65536
FUZZ_MAX_LEN_LARGE = 1048576
FUZZ_LARGE = containers dump blob bundle reader
FUZZ_CC = $(CLANG) -g -O1 -fno-omit-frame-pointer -std=c11 \
	-fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CPPFLAGS = -include $(top_builddir)/config.h \
	-I$(top_builddir) -I$(top_srcdir) \
	-I$(top_srcdir)/include $(LIBELF_CFLAGS) \
	$(ZSTD_CFLAGS)

fuzz_obj = $(patsubst %.c,fuzz/obj/%.o,$(1))
fuzz_props_objs = \
	$(call fuzz_obj,$(filter %.c,$(props_libdevimg_props_la_SOURCES) $(util_libdevimg_util_la_SOURCES)))
fuzz_loader_objs = $(call fuzz_obj,$(filter %.c,$(core_sources) \
	$(registry_sources)))
# The backend, program and dispatch wings (with the plugin interface's
# headers), for SYCLBIN bundles.
fuzz_dispatch_objs = $(call fuzz_obj,$(filter %.c,$(backend_sources) \
	$(program_sources) $(dispatch_sources) \
	$(loader_libdevimg_plugins_la_SOURCES)))
fuzz_reader_objs = fuzz/obj/wrapper/index-reader.o
fuzz_dump_objs = $(call fuzz_obj,wrapper/dump.c wrapper/dump-decode.c \
	wrapper/dump-text.c wrapper/dump-json.c wrapper/dump-extract.c \
	wrapper/dump-offload.c wrapper/dump-descriptor.c \
	wrapper/dump-device-globals.c wrapper/json.c wrapper/outfile.c \
	wrapper/index-reader.c)
fuzz_headers = $(top_srcdir)/fuzz/fuzz.h $(top_srcdir)/fuzz/inspect.h \
	$(top_srcdir)/props/props.h \
	$(top_srcdir)/props/internal.h $(top_srcdir)/wrapper/index-reader.h \
	$(top_srcdir)/wrapper/index.h $(top_srcdir)/include/devimg/devimg.h \
	$(top_srcdir)/include/devimg/descriptor.h \
	$(top_srcdir)/loader/libdevimg-internal.h \
	$(top_srcdir)/util/hash.h $(top_srcdir)/util/errmsg.h \
	$(top_srcdir)/loader/registry/registry.h \
	$(top_srcdir)/loader/registry/image-select.h \
	$(top_srcdir)/props/offload-binary.h $(top_srcdir)/props/syclbin.h \
	$(top_srcdir)/props/offload-symbols.h \
	$(top_srcdir)/props/device-global.h $(top_srcdir)/wrapper/dump.h \
	$(top_srcdir)/wrapper/dump-private.h \
	$(top_srcdir)/wrapper/dump-offload.h \
	$(top_srcdir)/wrapper/dump-descriptor.h \
	$(top_srcdir)/wrapper/dump-device-globals.h $(top_srcdir)/wrapper/json.h \
	$(top_srcdir)/loader/dispatch/dispatch.h \
	$(top_srcdir)/plugins/devimg_plugin.h
fuzz_bins = $(addprefix fuzz/bin/,$(FUZZ_HARNESSES))

# Library code gets coverage instrumentation; the harness links libFuzzer.
fuzz/obj/%.o: $(top_srcdir)/%.c $(fuzz_headers) config.h
	$(AM_V_CC)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) -fsanitize=fuzzer-no-link $(FUZZ_CPPFLAGS) -c -o $@ $<
# The backend, program and dispatch wings see the plugin interface.
fuzz_cc_plugins = $(AM_V_CC)$(MKDIR_P) $(@D) && \
	$(FUZZ_CC) -fsanitize=fuzzer-no-link $(FUZZ_CPPFLAGS) \
	-c -o $@ $<
fuzz/obj/loader/dispatch/%.o: $(top_srcdir)/loader/dispatch/%.c \
		$(fuzz_headers) config.h paths.h
	$(fuzz_cc_plugins)
fuzz/obj/loader/backend/%.o: $(top_srcdir)/loader/backend/%.c \
		$(fuzz_headers) config.h paths.h
	$(fuzz_cc_plugins)
fuzz/obj/loader/program/%.o: $(top_srcdir)/loader/program/%.c \
		$(fuzz_headers) config.h
	$(fuzz_cc_plugins)

fuzz_link = $(AM_V_CCLD)$(MKDIR_P) fuzz/bin && \
	$(FUZZ_CC) -fsanitize=fuzzer -o $@ $^
fuzz/bin/props: fuzz/obj/fuzz/fuzz-props.o $(fuzz_reader_objs) $(fuzz_props_objs)
	$(fuzz_link) $(LIBELF_LIBS)
fuzz/bin/bytes: fuzz/obj/fuzz/fuzz-bytes.o $(fuzz_props_objs)
	$(fuzz_link)
fuzz/bin/sym: fuzz/obj/fuzz/fuzz-sym.o $(fuzz_props_objs)
	$(fuzz_link)
fuzz/bin/containers: fuzz/obj/fuzz/fuzz-containers.o $(fuzz_props_objs)
	$(fuzz_link) -ldl
fuzz/bin/table: fuzz/obj/fuzz/fuzz-table.o $(fuzz_props_objs)
	$(fuzz_link)
fuzz/bin/reader: fuzz/obj/fuzz/fuzz-reader.o $(fuzz_reader_objs) $(fuzz_props_objs)
	$(fuzz_link) $(LIBELF_LIBS)
fuzz/bin/descriptor: fuzz/obj/fuzz/fuzz-descriptor.o $(fuzz_loader_objs) \
		$(fuzz_props_objs)
	$(fuzz_link) -pthread -ldl $(ZSTD_LIBS)
fuzz/bin/introspect: fuzz/obj/fuzz/fuzz-introspect.o $(fuzz_loader_objs) \
		$(fuzz_props_objs)
	$(fuzz_link) -pthread -ldl $(ZSTD_LIBS)
fuzz/bin/dump: fuzz/obj/fuzz/fuzz-dump.o $(fuzz_dump_objs) $(fuzz_props_objs)
	$(fuzz_link) $(LIBELF_LIBS) -ldl $(ZSTD_LIBS)
fuzz/bin/devglobal: fuzz/obj/fuzz/fuzz-devglobal.o \
		fuzz/obj/wrapper/dump-device-globals.o fuzz/obj/wrapper/json.o \
		$(fuzz_props_objs)
	$(fuzz_link) -ldl
fuzz/bin/blob: fuzz/obj/fuzz/fuzz-blob.o $(fuzz_loader_objs) $(fuzz_props_objs)
	$(fuzz_link) -pthread -ldl $(ZSTD_LIBS)
fuzz/bin/layout: fuzz/obj/fuzz/fuzz-layout.o $(fuzz_loader_objs) \
		$(fuzz_props_objs)
	$(fuzz_link) -pthread -ldl $(ZSTD_LIBS)
fuzz/bin/bundle: fuzz/obj/fuzz/fuzz-bundle.o $(fuzz_dispatch_objs) \
		$(fuzz_loader_objs) $(fuzz_props_objs)
	$(fuzz_link) -pthread -ldl $(ZSTD_LIBS)

# Whether $(CLANG) links libFuzzer programs at all ("yes" or "no").
fuzz/have-libfuzzer: Makefile
	$(AM_V_GEN)$(MKDIR_P) fuzz && \
	if test "x$(CLANG)" != xno && \
	   echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' | \
	   $(CLANG) -x c -fsanitize=fuzzer,address,undefined \
		-o fuzz/have-libfuzzer.probe - >/dev/null 2>&1; then \
		echo yes; else echo no; fi >$@; \
	rm -f fuzz/have-libfuzzer.probe

# The libFuzzer programs where they can be built; nothing otherwise.
.PHONY: fuzz-build
fuzz-build: fuzz/have-libfuzzer
	@if test "`cat fuzz/have-libfuzzer`" = yes; then \
		$(MAKE) $(AM_MAKEFLAGS) $(fuzz_bins); \
	else \
		echo "fuzz: $(CLANG) does not link libFuzzer programs; not built"; \
	fi
if HAVE_CLANG
check_DATA += fuzz-build
endif

# The seed corpora, afresh in fuzz/seeds/<name>/ (fuzz/seeds.sh), from the
# fixtures and what the tools and the test writers make of them.
.PHONY: fuzz-seeds
fuzz-seeds: fuzz-build devimg-wrap$(EXEEXT) tests/containers/mk-offload$(EXEEXT) \
		tests/containers/mk-syclbin$(EXEEXT) \
		tests/dump/mk-sycl-blob$(EXEEXT)
	@test "`cat fuzz/have-libfuzzer`" = yes || \
		{ echo "fuzz: needs clang with libFuzzer (CLANG=$(CLANG))"; exit 1; }
	$(AM_V_at)rm -rf fuzz/seeds && \
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		CC='$(CC)' SPIRV_AS='$(SPIRV_AS)' \
		$(SHELL) $(top_srcdir)/fuzz/seeds.sh fuzz/seeds

# One harness ($$h) for $$secs seconds over the corpus $$corpus (new
# inputs go there), its seeds and its regressions, with the limits; a
# finding fails, its input left in $$art/.
fuzz_run = \
	case " $(FUZZ_LARGE) " in \
	*" $$h "*) len=$(FUZZ_MAX_LEN_LARGE) ;; *) len=$(FUZZ_MAX_LEN) ;; \
	esac; \
	reg=$(top_srcdir)/fuzz/regressions/$$h; test -d "$$reg" || reg=; \
	$(MKDIR_P) "$$corpus" "$$art" || exit 1; \
	echo "fuzz: $$h for $$secs s, inputs up to $$len bytes"; \
	fuzz/bin/$$h -max_total_time=$$secs -print_final_stats=1 \
		-timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=$(FUZZ_RSS_LIMIT_MB) \
		-malloc_limit_mb=$(FUZZ_MALLOC_LIMIT_MB) -max_len=$$len \
		-artifact_prefix="$$art/" $(FUZZ_FLAGS) \
		"$$corpus" fuzz/seeds/$$h $$reg >"$$log" 2>&1 || \
		{ tail -n 40 "$$log"; \
		  echo "fuzz: $$h found a problem: $$art/ (see docs/hardening.md)"; \
		  exit 1; }; \
	grep -E '^stat::number_of_executed_units|^\#[0-9]+.*DONE' "$$log" | \
		tail -n 2 | sed "s/^/fuzz: $$h: /"

# make fuzz: each harness in turn for FUZZ_SECONDS, one process, over its
# corpus in fuzz/corpus/<name>/ (kept between runs, seeded from the
# fixtures); a finding stops it and is left in fuzz/artifacts/<name>/.
.PHONY: fuzz
fuzz: fuzz-seeds
	@for h in $(FUZZ_HARNESSES); do \
		secs=$(FUZZ_SECONDS); corpus=fuzz/corpus/$$h; \
		art=fuzz/artifacts/$$h; log=fuzz/$$h.log; \
		$(fuzz_run); \
	done

# make fuzz-smoke (CI): each harness for FUZZ_SMOKE_SECONDS over its seeds
# and regressions only (a fresh corpus in fuzz/smoke/corpus/<name>/), with
# the limits of make fuzz; harnesses run side by side under make -j; any
# finding fails, left in fuzz/smoke/artifacts/<name>/.
fuzz_smoke_runs = $(addprefix fuzz-smoke-,$(FUZZ_HARNESSES))
.PHONY: fuzz-smoke $(fuzz_smoke_runs)
fuzz-smoke: $(fuzz_smoke_runs)
	@echo "fuzz-smoke: $(words $(FUZZ_HARNESSES)) harnesses, $(FUZZ_SMOKE_SECONDS) s each: no finding"
$(fuzz_smoke_runs): fuzz-smoke-%: fuzz-seeds
	@h=$*; secs=$(FUZZ_SMOKE_SECONDS); corpus=fuzz/smoke/corpus/$$h; \
	art=fuzz/smoke/artifacts/$$h; log=fuzz/smoke/$$h.log; \
	rm -rf "$$corpus" "$$art"; $(fuzz_run)

clean-local: clean-fuzz
.PHONY: clean-fuzz
clean-fuzz:
	-rm -rf fuzz/obj fuzz/bin fuzz/seeds fuzz/smoke fuzz/have-libfuzzer \
		fuzz/have-libfuzzer.probe fuzz/*.log
