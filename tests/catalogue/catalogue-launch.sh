#!/bin/sh
# The catalogue's cases that launch on an OpenCL device (PoCL): images the
# device cannot take, a kernel missing from its program
# (tests/catalogue/catalogue.sh --launch).
exec "$top_srcdir/tests/catalogue/catalogue.sh" --launch
