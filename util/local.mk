# util: the generic helpers every part of devimg uses, apart from the
# formats: the error carrier, escaping of outside text, checked size
# arithmetic, little-endian fields, line iteration, safe input files,
# the keyed hash and the hash multimap, and the shared limits.
noinst_LTLIBRARIES += util/libdevimg-util.la
util_libdevimg_util_la_SOURCES = \
	util/errmsg.c util/errmsg.h \
	util/escape.c util/escape.h \
	util/checked.h util/le.h util/devimg_limits.h \
	util/lines.c util/lines.h \
	util/input.c util/input.h \
	util/hashkey.c util/hashkey.h \
	util/hash.c util/hash.h
