# plugins: the plugin interface and the backend plugins. The loader's side
# (discovery, binding, the traced calls, the device selector) is built in
# loader/backend/local.mk.

# The plugin interface, installed for plugins built out of the tree
# (<devimg/devimg_plugin.h>, libdevimg-dev; libdevimg.pc's plugindir).
pkginclude_HEADERS += plugins/devimg_plugin.h

# --- backend plugins: loadable modules in $(plugindir) ---

# Modules export their entry point and nothing else.
PLUGIN_LDFLAGS = -module -avoid-version -shared -no-undefined \
	-export-symbols-regex '^devimg_plugin_init$$'

plugin_LTLIBRARIES =

# What every plugin links in: its per-thread error message (names in it
# escaped as the loader's are, util/escape.c) and the devimg_plugin_init()
# handshake (hidden; each plugin has its own copy).
noinst_LTLIBRARIES += plugins/libplugin-support.la
plugins_libplugin_support_la_SOURCES = \
	plugins/common/plugin-support.c plugins/common/plugin-support.h \
	plugins/common/listing.h \
	plugins/common/enumerate.c plugins/common/enumerate.h \
	util/escape.c util/escape.h
plugins_libplugin_support_la_CPPFLAGS = $(AM_CPPFLAGS)
plugins_libplugin_support_la_CFLAGS = $(AM_CFLAGS) $(VISIBILITY_CFLAGS)
PLUGIN_SUPPORT = plugins/libplugin-support.la

# The backends: plugins/<backend>/local.mk, included after this file.
