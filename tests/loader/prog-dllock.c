// SPDX-License-Identifier: MIT
/*
 * libdevimg against the dynamic linker's load lock (docs/design.md, "Locks
 * and the dynamic loader"): the first use of a decompressor, in one
 * thread, while another thread is inside dlopen() or dlclose() of a slow
 * registrar (tests/loader/lib-slow.c), whose constructor or destructor
 * holds that lock for 200 ms before it registers or unregisters. Before
 * the fix the first thread held the registry's lock while it waited for
 * the load lock, and the second waited for the registry's lock: both hung.
 * A watchdog thread ends the program, saying "deadlock", when the two
 * have not both finished within DEVIMG_TEST_DEADLOCK_S seconds (10).
 *
 * Usage: prog-dllock TRIGGER ACTION LIBRARY FILE
 *
 * The program is linked with a compressed image (format 4) defining the
 * kernel k_compressed, whose expanded bytes are those of FILE. TRIGGER is
 * what this thread does once the other holds the lock, the process's
 * first use of libzstd or zlib:
 *   guess     devimg_image_guess_format() of the compressed image
 *   bin       devimg_image_bin() of it (the bytes must be FILE's)
 *   copy      devimg_image_bin_copy() of it (the same)
 *   register  __sycl_register_lib() of the OffloadBinary blob in FILE
 *             (compressed), then a look-up, which settles the registry
 * ACTION is what the other thread does with LIBRARY, a slow registrar of
 * one image: open (dlopen) or close (dlclose; opened before).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <devimg/devimg.h>
#include "tests/slurp.h"

static atomic_int finished;
static int cue[2];
static const char *mode = "";

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "FAIL: %s: ", mode);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	exit(1);
}

static long deadline_s(void)
{
	const char *s = getenv("DEVIMG_TEST_DEADLOCK_S");
	long v = s ? strtol(s, NULL, 10) : 0;

	return v > 0 ? v : 10;
}

/* Ends the process when the two threads are still stuck at the deadline. */
static void *watchdog(void *arg)
{
	struct timespec start, now, step = { 0, 20 * 1000 * 1000 };
	long limit = deadline_s();
	char msg[256];
	int n;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		if (atomic_load(&finished))
			return NULL;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= limit)
			break;
		nanosleep(&step, NULL);
	}
	n = snprintf(msg, sizeof(msg),
		     "FAIL: %s: deadlock: not done after %ld s (the registry's lock against the dynamic linker's)\n",
		     mode, limit);
	if (n > 0 && write(2, msg, (size_t)n) < 0)
		_exit(2);
	_exit(1);
}

/* Wait for the registrar's constructor or destructor to say it runs. */
static void wait_cue(void)
{
	char c;

	if (read(cue[0], &c, 1) != 1)
		die("no cue from the registrar: %s", strerror(errno));
}

struct other {
	const char *action;
	const char *library;
	void *handle;
	const char *error;
};

static void *other_thread(void *arg)
{
	struct other *o = arg;

	if (!strcmp(o->action, "open")) {
		o->handle = dlopen(o->library, RTLD_NOW | RTLD_LOCAL);
		if (!o->handle)
			o->error = dlerror();
	} else if (dlclose(o->handle) != 0) {
		o->error = dlerror();
	}
	return NULL;
}

static size_t image_count(void)
{
	size_t n = 0;

	if (devimg_registry_images(NULL, 0, &n) != 0)
		die("devimg_registry_images: %s", devimg_last_error());
	return n;
}

/* The process's first compressed image: k_compressed's, not expanded. */
static struct devimg_image *compressed_image(void)
{
	struct devimg_image *img = NULL;
	size_t n = 0;

	if (devimg_registry_find_kernel("k_compressed", &img, 1, &n) != 0 ||
	    n != 1)
		die("no image defines k_compressed: %s", devimg_last_error());
	if (devimg_image_format(img) != DEVIMG_FORMAT_COMPRESSED)
		die("the image of k_compressed is not compressed%s", "");
	return img;
}

static void check_bytes(const void *got, size_t n, const char *file)
{
	size_t want_n;
	void *want = slurp(file, &want_n);

	if (n != want_n || memcmp(got, want, n))
		die("the expanded bytes are not those of %s", file);
	free(want);
}

/* What this thread does while the other holds the load lock. */
static void *trigger(const char *what, struct devimg_image *img,
		     const char *file)
{
	enum devimg_image_format fmt;
	const void *bytes;
	void *copy, *blob = NULL;
	size_t size;
	int r;

	if (!strcmp(what, "guess")) {
		r = devimg_image_guess_format(img, &fmt);
		if (r == 0 && fmt != DEVIMG_FORMAT_SPIRV)
			die("guessed another format than SPIR-V%s", "");
	} else if (!strcmp(what, "bin")) {
		r = devimg_image_bin(img, &bytes, &size);
		if (r == 0)
			check_bytes(bytes, size, file);
	} else if (!strcmp(what, "copy")) {
		r = devimg_image_bin_copy(img, &copy, &size);
		if (r == 0) {
			check_bytes(copy, size, file);
			free(copy);
		}
	} else {
		blob = slurp(file, &size);	/* malloc: aligned enough */
		__sycl_register_lib(blob);
		r = devimg_registry_status();
		image_count();
	}
	if (r != 0)
		die("%s", devimg_last_error());
	return blob;
}

int main(int argc, char **argv)
{
	struct other o = { 0 };
	struct devimg_image *img;
	pthread_t dog, thread;
	size_t before, after, want;
	char fd[16], name[256];
	void *blob;

	if (argc != 5) {
		fprintf(stderr, "usage: %s guess|bin|copy|register open|close LIBRARY FILE\n",
			argv[0]);
		return 2;
	}
	snprintf(name, sizeof(name), "%s %s while %s %s", argv[1],
		 strrchr(argv[4], '/') ? strrchr(argv[4], '/') + 1 : argv[4],
		 argv[2],
		 strrchr(argv[3], '/') ? strrchr(argv[3], '/') + 1 : argv[3]);
	mode = name;
	o.action = argv[2];
	o.library = argv[3];
	if (pipe(cue) != 0)
		die("pipe: %s", strerror(errno));
	snprintf(fd, sizeof(fd), "%d", cue[1]);
	setenv("DEVIMG_TEST_CUE_FD", fd, 1);
	if (pthread_create(&dog, NULL, watchdog, NULL) != 0)
		die("cannot start the watchdog%s", "");

	img = compressed_image();
	if (!strcmp(o.action, "close")) {
		o.handle = dlopen(o.library, RTLD_NOW | RTLD_LOCAL);
		if (!o.handle)
			die("dlopen: %s", dlerror());
		wait_cue();
	}
	before = image_count();
	if (pthread_create(&thread, NULL, other_thread, &o) != 0)
		die("cannot start the other thread%s", "");
	wait_cue();
	/* The other thread holds the load lock for 200 ms from here. */
	blob = trigger(argv[1], img, argv[4]);
	pthread_join(thread, NULL);
	if (o.error)
		die("the other thread: %s", o.error);
	after = image_count();
	want = before + (blob != NULL);
	want = !strcmp(o.action, "open") ? want + 1 : want - 1;
	if (after != want) {
		snprintf(name + strlen(name), sizeof(name) - strlen(name),
			 ": %zu images, %zu expected", after, want);
		die("registration went wrong%s", "");
	}
	if (devimg_registry_problem_count() != 0)
		die("a registration was rejected: %s", devimg_last_error());

	if (o.handle && !strcmp(o.action, "open"))
		dlclose(o.handle);	/* its destructor cues the pipe too */
	if (blob) {
		__sycl_unregister_lib(blob);
		free(blob);
	}
	devimg_image_unref(img);
	atomic_store(&finished, 1);
	pthread_join(dog, NULL);
	printf("ok: %s\n", mode);
	return 0;
}
