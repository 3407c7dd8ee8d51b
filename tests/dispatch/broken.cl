// SPDX-License-Identifier: MIT
/* Compiles to bitcode; its device build fails: the callee is nowhere. */
void devimg_dispatch_missing(global int *p);

kernel void broken_k(global int *p)
{
	devimg_dispatch_missing(p);
}
