noinst_LTLIBRARIES += props/libdevimg-props.la
props_libdevimg_props_la_SOURCES = \
	props/props.h props/internal.h \
	props/model.c props/index.c props/base64.c props/bytes.c \
	props/props-reader.c props/props-writer.c \
	props/sym.c props/table.c props/spec-layout.c props/launch.c \
	props/offload-binary.c props/offload-binary.h \
	props/offload-inflate.c props/offload-inflate.h \
	props/offload-symbols.c props/offload-symbols.h \
	props/unzstd.c props/unzstd.h \
	props/syclbin.c props/syclbin.h \
	props/device-global.c props/device-global.h
props_libdevimg_props_la_LIBADD = util/libdevimg-util.la
