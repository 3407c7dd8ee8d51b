# wrapper: filled in by its issue
include wrapper/dump.mk
include wrapper/wrap.mk
