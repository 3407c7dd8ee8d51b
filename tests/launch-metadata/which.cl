// SPDX-License-Identifier: MIT
/* One kernel in several images: the value it writes says which ran. */
kernel void which(global int *out)
{
	*out = VAL;
}
