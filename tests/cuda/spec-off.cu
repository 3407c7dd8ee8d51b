// SPDX-License-Identifier: MIT
/*
 * Local memory, an emulated spec constant and a twin at once, in an image
 * of its own since it has spec-constant properties (tests/dispatch/
 * spec.props: ScalarSpec, an int at 0). The buffer is the plain kernel's
 * last parameter, so it comes before the twin's offset.
 * out[id] = ScalarSpec + id, through local memory.
 */
#include "lowered.h"

static __device__ void spec_off_body(int *out, unsigned at, const char *spec,
				     unsigned id)
{
	int *l = LOCAL(int, at);

	l[tid_x()] = rd32(spec) + (int)id;
	__syncthreads();
	out[id] = l[tid_x()];
}

KERNEL spec_off(int *out, unsigned scratch_at, const char *spec)
{
	spec_off_body(out, scratch_at, spec, global_x());
}

KERNEL spec_off_with_offset(int *out, unsigned scratch_at, const char *spec,
			    struct devimg_offset o)
{
	spec_off_body(out, scratch_at, spec, global_x() + o.x);
}
