# The dispatch wing of libdevimg (loader/local.mk puts the library
# together), the top of the stack: contexts, queues, buffers, kernels,
# launches, bundles and device globals' API.
dispatch_sources = \
	loader/dispatch/dispatch.h \
	loader/dispatch/context.c loader/dispatch/queue.c \
	loader/dispatch/buffer.c loader/dispatch/kernel.c \
	loader/dispatch/kernel-args.c loader/dispatch/kernel-private.h \
	loader/dispatch/device-global-access.c \
	loader/dispatch/bundle.c loader/dispatch/bundle-syclbin.c
