// SPDX-License-Identifier: MIT
/*
 * One kernel built into several images that differ only in VAL, so that
 * the value a launch writes tells which image the loader chose.
 */
kernel void KNAME(global int *out)
{
	out[get_global_id(0)] = VAL;
}
