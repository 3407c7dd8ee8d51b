# The registry wing of libdevimg (loader/local.mk puts the library
# together): descriptors in, images out; validation, the image registry,
# image selection, spec constants, introspection, device global records.
# It calls no plugin.
registry_sources = \
	loader/registry/registry.h \
	loader/registry/image.c loader/registry/descriptor.c \
	loader/registry/register.c loader/registry/registry.c \
	loader/registry/lock.c \
	loader/registry/decompress.c \
	loader/registry/introspect.c loader/registry/suggest.c \
	loader/registry/image-select.c loader/registry/image-select.h \
	loader/registry/content.c \
	loader/registry/layout.c loader/registry/blob.c \
	loader/registry/specconst.c loader/registry/specvalues.c \
	loader/registry/device-globals.c loader/registry/device-globals.h \
	loader/registry/device-global-records.c
