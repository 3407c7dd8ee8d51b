# Level Zero plugin over the Level Zero loader (libze_loader). Its
# contract tests are tests/level_zero/ (tests/level_zero/local.mk);
# docs/level-zero.md says more.
if HAVE_LEVEL_ZERO

plugin_LTLIBRARIES += plugins/devimg-level_zero.la
plugins_devimg_level_zero_la_SOURCES = \
	plugins/level_zero/level_zero.h \
	plugins/level_zero/level_zero.c \
	plugins/level_zero/devices.c \
	plugins/level_zero/queue.c \
	plugins/level_zero/program.c \
	plugins/level_zero/kernel.c \
	plugins/level_zero/device-globals.c plugins/common/plugin-globals.h \
	plugins/level_zero/errors.c
plugins_devimg_level_zero_la_CPPFLAGS = $(AM_CPPFLAGS) \
	$(LEVEL_ZERO_CFLAGS)
plugins_devimg_level_zero_la_CFLAGS = $(AM_CFLAGS) $(VISIBILITY_CFLAGS) \
	$(PTHREAD_CFLAGS)
plugins_devimg_level_zero_la_LDFLAGS = $(AM_LDFLAGS) $(PLUGIN_LDFLAGS)
plugins_devimg_level_zero_la_LIBADD = $(PLUGIN_SUPPORT) $(LEVEL_ZERO_LIBS) \
	$(PTHREAD_LIBS)

endif

EXTRA_DIST += docs/level-zero.md
