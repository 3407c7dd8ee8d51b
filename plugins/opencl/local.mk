# OpenCL plugin over the OpenCL ICD loader (libOpenCL), linked. Its tests
# run through the loader in tests/plugins/ (tests/plugins/local.mk): on PoCL
# where it is installed, and on NVIDIA's OpenCL where there is a GPU.
if HAVE_OPENCL
plugin_LTLIBRARIES += plugins/devimg-opencl.la
plugins_devimg_opencl_la_SOURCES = \
	plugins/opencl/opencl.h \
	plugins/opencl/opencl.c \
	plugins/opencl/devices.c \
	plugins/opencl/program.c \
	plugins/opencl/device-globals.c \
	plugins/opencl/words.c \
	plugins/opencl/errors.c
plugins_devimg_opencl_la_CPPFLAGS = $(AM_CPPFLAGS) \
	$(OPENCL_CFLAGS)
plugins_devimg_opencl_la_CFLAGS = $(AM_CFLAGS) $(VISIBILITY_CFLAGS) \
	$(PTHREAD_CFLAGS)
plugins_devimg_opencl_la_LDFLAGS = $(AM_LDFLAGS) $(PLUGIN_LDFLAGS)
plugins_devimg_opencl_la_LIBADD = $(PLUGIN_SUPPORT) $(OPENCL_LIBS) $(PTHREAD_LIBS)
endif
