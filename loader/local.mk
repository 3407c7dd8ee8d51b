# libdevimg, the library the wrapped objects register with and run
# through, put together from the core and the wings of loader/.
#
# libtool version of the shared library, -version-info current:revision:age.
# Update before each release, in this order:
#  1. the library's code changed at all: revision++
#  2. an interface was added, removed or changed: current++, revision = 0
#  3. interfaces were only added: age++
#  4. an interface was removed or changed: age = 0
# Exported symbols are listed in loader/libdevimg.sym (append-only).
LIBDEVIMG_CURRENT = 0
LIBDEVIMG_REVISION = 0
LIBDEVIMG_AGE = 0

lib_LTLIBRARIES += loader/libdevimg.la
pkginclude_HEADERS = include/devimg/devimg.h include/devimg/descriptor.h
pkgconfig_DATA = libdevimg.pc

# The library is a stack (docs/design.md, "The map"): the core, here
# (loader/: log, error messages, the environment, the internal header),
# and the wings above it, bottom up, each of which lists its folder's
# files in its own local.mk: registry_sources (loader/registry/),
# backend_sources and the plugin set (loader/backend/), program_sources
# (loader/program/) and dispatch_sources (loader/dispatch/). This file
# puts them together; tests/loader/wings.sh checks that each file calls
# only its own wing and those below, and includes only their headers.
core_sources = \
	loader/libdevimg-internal.h \
	loader/log.c loader/error.c loader/env.c

libdevimg_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/include
libdevimg_cflags = $(AM_CFLAGS) $(VISIBILITY_CFLAGS) $(PTHREAD_CFLAGS)
# Not libzstd: props/unzstd.c loads it on the first compressed image.
libdevimg_libadd = props/libdevimg-props.la $(PTHREAD_LIBS) -ldl

# The core and the registry, which call no plugin, build as their own
# convenience library, linked into the two below and into the plugin
# tests.
noinst_LTLIBRARIES += loader/libdevimg-registry.la
loader_libdevimg_registry_la_SOURCES = $(core_sources) $(registry_sources)
loader_libdevimg_registry_la_CPPFLAGS = $(libdevimg_cppflags)
loader_libdevimg_registry_la_CFLAGS = $(libdevimg_cflags)

# The installed library: the backend, program and dispatch wings, on the
# core and the registry (above) and the plugin set (loader/backend/).
# dlopen-note.c: only the shared library carries the .note.dlopen note.
loader_libdevimg_la_SOURCES = loader/libdevimg-internal.h \
	loader/dlopen-note.c \
	$(backend_sources) $(program_sources) $(dispatch_sources)
loader_libdevimg_la_CPPFLAGS = $(libdevimg_cppflags)
loader_libdevimg_la_CFLAGS = $(libdevimg_cflags)
loader_libdevimg_la_LDFLAGS = $(AM_LDFLAGS) -no-undefined \
	-version-info $(LIBDEVIMG_CURRENT):$(LIBDEVIMG_REVISION):$(LIBDEVIMG_AGE) \
	-Wl,--version-script=$(top_srcdir)/loader/libdevimg.sym
loader_libdevimg_la_LIBADD = loader/libdevimg-registry.la $(libdevimg_libadd) \
	loader/libdevimg-plugins.la
EXTRA_loader_libdevimg_la_DEPENDENCIES = loader/libdevimg.sym

# The same sources as a convenience library: tests link it statically and
# reach internal functions (select_pick, hash_*, descriptor_validate).
noinst_LTLIBRARIES += loader/libdevimg-internal.la
loader_libdevimg_internal_la_SOURCES = loader/libdevimg-internal.h \
	$(backend_sources) $(program_sources) $(dispatch_sources)
loader_libdevimg_internal_la_CPPFLAGS = $(libdevimg_cppflags)
loader_libdevimg_internal_la_CFLAGS = $(libdevimg_cflags)
loader_libdevimg_internal_la_LIBADD = loader/libdevimg-registry.la \
	$(libdevimg_libadd) loader/libdevimg-plugins.la

EXTRA_DIST += loader/libdevimg.sym tools/call-loops.sh
