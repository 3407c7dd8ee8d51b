#!/bin/sh
# Kernels launched from SYCLBIN bundles on a device that takes SPIR-V
# (tests/containers/syclbin-bundle.sh --launch).
exec "$top_srcdir/tests/containers/syclbin-bundle.sh" --launch
