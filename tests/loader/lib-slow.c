// SPDX-License-Identifier: MIT
/*
 * A slow registrar for tests/loader/dllock.sh: a shared library whose
 * constructor, run by the dynamic linker with its load lock held, cues
 * the test program and sleeps 200 ms before it calls
 * __sycl_register_lib(), and whose destructor does the same before
 * __sycl_unregister_lib(). The cue is one byte written to the file
 * descriptor DEVIMG_TEST_CUE_FD names: the program then knows that the
 * thread in dlopen() or dlclose() holds the lock, and has 200 ms to call
 * into libdevimg before registration comes.
 *
 * What it registers: by default the descriptor of an object that
 * devimg-wrap wrote with -emit-reg-funcs=0 -desc-name=slow (the global
 * symbol .sycl_offloading.slow); built with -DBLOB='"file.h"', the
 * OffloadBinary blob that file.h holds as slow_blob[] (compressed or not).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <devimg/devimg.h>

#ifdef BLOB
#include BLOB
#define SLOW_DESC ((struct devimg_device_binaries *)(void *)slow_blob)
#else
extern struct devimg_device_binaries slow_desc __asm__(".sycl_offloading.slow");
#define SLOW_DESC (&slow_desc)
#endif

static void cue_and_nap(void)
{
	const char *fd = getenv("DEVIMG_TEST_CUE_FD");
	struct timespec nap = { 0, 200 * 1000 * 1000 };
	char c = 1;

	if (fd && write(atoi(fd), &c, 1) != 1)
		abort();
	while (nanosleep(&nap, &nap) != 0)
		;
}

static void __attribute__((constructor)) slow_register(void)
{
	cue_and_nap();
	__sycl_register_lib(SLOW_DESC);
}

static void __attribute__((destructor)) slow_unregister(void)
{
	cue_and_nap();
	__sycl_unregister_lib(SLOW_DESC);
}
