noinst_LTLIBRARIES += props/libdevimg-props.la
props_libdevimg_props_la_SOURCES = \
	props/props.h props/dummy.c
