// SPDX-License-Identifier: MIT
/*
 * Compiles to SPIR bitcode and SPIR-V (where the function is an import),
 * but cannot be built for a device: the function it calls is defined
 * nowhere, so the device compiler's link step fails and says so in the
 * build log.
 */
void devimg_no_such_function(global int *p);

kernel void broken(global int *p)
{
	devimg_no_such_function(p);
}
