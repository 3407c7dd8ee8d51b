// SPDX-License-Identifier: MIT
/*
 * Compiles to PTX; the JIT then fails to link it, since the callee is
 * nowhere: its log names devimg_dispatch_missing, which dispatch-run looks
 * for in the error.
 */
#include "lowered.h"

extern "C" __device__ void devimg_dispatch_missing(int *p);

KERNEL broken_k(int *p)
{
	devimg_dispatch_missing(p);
}
