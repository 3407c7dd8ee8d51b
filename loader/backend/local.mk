# The backend wing of libdevimg (loader/local.mk puts the library
# together), in two parts. Devices and the error channel of the wings
# above, compiled into the library:
backend_sources = \
	loader/backend/backend.h \
	loader/backend/device.c loader/backend/plugin-error.c

# The plugin set: discovery, start, binding, the traced calls, the
# account of what they found, and the device selector: a convenience
# library linked into libdevimg (loader/local.mk) and into the plugin
# tests (tests/plugins/local.mk).
noinst_LTLIBRARIES += loader/libdevimg-plugins.la
loader_libdevimg_plugins_la_SOURCES = \
	plugins/devimg_plugin.h \
	loader/backend/plugins.c loader/backend/plugins.h \
	loader/backend/plugin-discovery.c loader/backend/plugin-start.c \
	loader/backend/plugin-binding.c loader/backend/plugin-notes.c \
	loader/backend/plugin-names.c \
	loader/backend/plugin-calls.c loader/backend/plugin-private.h \
	loader/backend/plugin-ops.h \
	loader/backend/account.c loader/backend/account.h \
	loader/backend/device-selector.c loader/backend/device-selector.h
# Its traces go through the core's log (loader/log.c), its environment
# through loader/env.c: programs linking it link the core as well.
loader_libdevimg_plugins_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
loader_libdevimg_plugins_la_CFLAGS = $(AM_CFLAGS) $(VISIBILITY_CFLAGS)
