// SPDX-License-Identifier: MIT
/*
 * The kernels of one stress library, compiled to SPIR bitcode once per
 * library with -DLIB=<n> -DOWN=own_<n>: one kernel of its own and one
 * whose name every library shares; what they write says which ran.
 */

kernel void OWN(global int *out, int x)
{
	size_t i = get_global_id(0);

	out[i] = x * 3 + (int)i * LIB;
}

kernel void shared_k(global int *out)
{
	size_t i = get_global_id(0);

	out[i] = LIB * 100000 + (int)i;
}
