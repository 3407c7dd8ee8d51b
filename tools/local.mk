# devimg-wrap and devimg-dump: their command lines; the work is in
# wrapper/libdevimg-wrapper.la.
bin_PROGRAMS += devimg-wrap devimg-dump
devimg_wrap_SOURCES = tools/devimg-wrap.c
devimg_wrap_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
devimg_wrap_LDADD = wrapper/libdevimg-wrapper.la
devimg_dump_SOURCES = tools/devimg-dump.c
devimg_dump_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
devimg_dump_LDADD = wrapper/libdevimg-wrapper.la

# devimg-ls: the devices libdevimg sees through its plugins. Linked with
# the internal convenience library for what the public API does not show
# (device version, native formats, plugin capabilities, bound plugins).
bin_PROGRAMS += devimg-ls
devimg_ls_SOURCES = tools/devimg-ls.c
devimg_ls_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/include
devimg_ls_CFLAGS = $(AM_CFLAGS) $(PTHREAD_CFLAGS)
devimg_ls_LDADD = loader/libdevimg-internal.la $(PTHREAD_LIBS) -ldl

dist_man_MANS += man/devimg-ls.1
