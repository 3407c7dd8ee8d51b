// SPDX-License-Identifier: MIT
/* The spec-constant kernel: its own image, with spec-constant properties. */

static int rd32(global const char *p)
{
	return (int)((uint)(uchar)p[0] | (uint)(uchar)p[1] << 8 |
		     (uint)(uchar)p[2] << 16 | (uint)(uchar)p[3] << 24);
}

/*
 * Emulated spec constants as the device compiler lowers them: the last
 * argument is the buffer of all values. ScalarSpec (int) at 0,
 * StructSpec { char c; int i; } at 4 (c at 4, padding, i at 8).
 */
kernel void spec_k(global int *out, int add, global char *spec)
{
	out[0] = rd32(spec) + add;
	out[1] = spec[4];
	out[2] = rd32(spec + 8);
}
