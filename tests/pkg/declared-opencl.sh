#!/bin/sh
# Declared capabilities for real: without an OpenCL driver, device tests
# fail once opencl-device is declared (tests/pkg/declared.sh --opencl).
exec "$top_srcdir/tests/pkg/declared.sh" --opencl
