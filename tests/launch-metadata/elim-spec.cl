// SPDX-License-Identifier: MIT
/*
 * Eliminated arguments in an image with emulated spec constants: each
 * kernel's last argument is the buffer of all values (Off, an int at 0).
 * Both lost their original argument 1 (int unused); elim_spec's mask also
 * counts the buffer, as DPC++'s does, elim_spec_short's does not.
 */
static int rd32(global const char *p)
{
	return (int)((uint)(uchar)p[0] | (uint)(uchar)p[1] << 8 |
		     (uint)(uchar)p[2] << 16 | (uint)(uchar)p[3] << 24);
}

kernel void elim_spec(global int *out, int a, global char *spec)
{
	out[0] = a + rd32(spec);
}

kernel void elim_spec_short(global int *out, int a, global char *spec)
{
	out[0] = a * 2 + rd32(spec);
}
