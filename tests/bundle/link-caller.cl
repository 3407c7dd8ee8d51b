// SPDX-License-Identifier: MIT
/*
 * A kernel calling a function another image exports ("SYCL/imported
 * symbols" names it, link-caller.props), as SYCL_EXTERNAL code is split.
 */
int devimg_link_helper(int x);

kernel void link_caller(global int *out)
{
	size_t i = get_global_id(0);

	out[i] = devimg_link_helper((int)i);
}
