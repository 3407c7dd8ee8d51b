# The program wing of libdevimg (loader/local.mk puts the library
# together): the program cache, device image linking, and what is written
# into programs after a build (device globals' memory).
program_sources = \
	loader/program/progcache.c loader/program/link.c \
	loader/program/program.h loader/program/device-global-memory.c
