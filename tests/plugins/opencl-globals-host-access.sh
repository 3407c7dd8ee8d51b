#!/bin/sh
# Device globals on the fake OpenCL driver, decorated as
# SPV_INTEL_global_variable_host_access says
# (tests/plugins/opencl-globals-fake.sh --host-access).
exec "$top_srcdir/tests/plugins/opencl-globals-fake.sh" --host-access
