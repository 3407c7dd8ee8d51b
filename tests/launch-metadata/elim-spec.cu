// SPDX-License-Identifier: MIT
/*
 * tests/launch-metadata/elim-spec.cl in CUDA C (tests/cuda/lowered.h):
 * eliminated arguments in an image with emulated spec constants; each kernel's last argument is
 * the buffer of all values (Off, an int at 0). Both lost their original
 * argument 1 (int unused); elim_spec's mask also counts the buffer, as
 * DPC++'s does, elim_spec_short's does not.
 */
#include "../cuda/lowered.h"

KERNEL elim_spec(int *out, int a, const char *spec)
{
	out[0] = a + rd32(spec);
}

KERNEL elim_spec_short(int *out, int a, const char *spec)
{
	out[0] = a * 2 + rd32(spec);
}
