// SPDX-License-Identifier: MIT
/*
 * syclbin-run FILE STATE EXPECT KERNEL...: devimg_bundle_new_from_syclbin()
 * on a SYCLBIN file (the kernels of tests/dispatch/dispatch.cl in one IR
 * module), on the first device DEVIMG_DEVICE_SELECTOR keeps.
 *
 * Always: the bundle is in STATE (input, object, executable); its images
 * are registered with the file's kernels; a truncated copy and a copy
 * with a bad magic are refused with a message naming the field.
 * EXPECT hold (the device takes SPIR-V): the bundle holds the IR module
 * and defines every KERNEL. EXPECT run: the same, and off1 is launched
 * from it (built first when the file's state is not executable) and its
 * output read back. EXPECT none: the bundle holds no image (the device
 * takes no SPIR-V). Exits 77 when there is no device.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tests/runner.h"
#include "tests/slurp.h"

static struct env env;

static int check_refused(const unsigned char *data, size_t size)
{
	struct devimg_bundle *b = NULL;
	unsigned char *bad = malloc(size);
	int err;

	CHECK(bad, "out of memory");
	memcpy(bad, data, size);
	err = devimg_bundle_new_from_syclbin(env.ctx, bad, size / 2, NULL, &b);
	CHECK(err == -EINVAL && !b, "a truncated file: %d", err);
	CHECK(strstr(devimg_last_error(), "SYCLBIN") ||
	      strstr(devimg_last_error(), "OffloadBinary"),
	      "truncated: message names no field");
	bad[0] ^= 0xff;
	err = devimg_bundle_new_from_syclbin(env.ctx, bad, size, NULL, &b);
	CHECK(err == -EINVAL && !b, "a bad magic: %d", err);
	CHECK(strstr(devimg_last_error(), "not a SYCLBIN"),
	      "bad magic: message");
	err = devimg_bundle_new_from_syclbin(env.ctx, NULL, size, NULL, &b);
	CHECK(err == -EINVAL, "NULL data: %d", err);
	free(bad);
	return 0;
}

/* FILE refused whole: -EINVAL, no bundle, a message holding what. */
static int check_refused_file(const unsigned char *data, size_t size,
			      const char *what)
{
	struct devimg_bundle *b = NULL;
	int err;

	err = devimg_bundle_new_from_syclbin(env.ctx, data, size, NULL, &b);
	CHECK(err == -EINVAL && !b, "refused file: %d", err);
	CHECK(strstr(devimg_last_error(), what), "refused file: message "
	      "'%s' lacks '%s'", devimg_last_error(), what);
	printf("refused: %s\n", devimg_last_error());
	return 0;
}

/* Every kernel is an entry of a registered spir64 SPIR-V image. */
static int check_registered(char **kernels, int nk)
{
	struct devimg_image *imgs[256];
	size_t n = 0, i, j;
	int k, found;

	devimg_registry_images(imgs, 256, &n);
	CHECK(n > 0 && n <= 256, "registry holds %zu images", n);
	for (k = 0; k < nk; k++) {
		found = 0;
		for (i = 0; i < n && !found; i++) {
			if (devimg_image_format(imgs[i]) != DEVIMG_FORMAT_SPIRV ||
			    strcmp(devimg_image_target(imgs[i]), "spir64"))
				continue;
			for (j = 0; j < devimg_image_entry_count(imgs[i]); j++)
				if (!strcmp(devimg_image_entry_name(imgs[i], j),
					    kernels[k]))
					found = 1;
		}
		CHECK(found, "no registered image defines %s", kernels[k]);
	}
	for (i = 0; i < n; i++)
		devimg_image_unref(imgs[i]);
	return 0;
}

static int launch_off1(struct devimg_bundle *b)
{
	struct devimg_bundle *exe = b;
	struct devimg_kernel *k = NULL;
	struct devimg_buf *buf;
	int out[64], err;
	size_t n = 64, i;

	if (devimg_bundle_state(b) != DEVIMG_BUNDLE_EXECUTABLE) {
		err = devimg_bundle_state(b) == DEVIMG_BUNDLE_INPUT ?
			devimg_bundle_build(b, NULL, &exe) :
			devimg_bundle_link(&b, 1, NULL, &exe);
		CHECK(err == 0, "build or link: %d", err);
	}
	err = devimg_bundle_kernel_new(exe, env.dev, "off1", NULL, NULL, &k);
	CHECK(err == 0, "devimg_bundle_kernel_new(off1): %d", err);
	memset(out, 0, sizeof(out));
	err = devimg_buf_new(env.dev, sizeof(out), &buf);
	CHECK(err == 0, "devimg_buf_new: %d", err);
	err = devimg_buf_write(env.q, buf, 0, sizeof(out), out);
	if (err == 0)
		err = devimg_kernel_set_arg_buf(k, 0, buf);
	if (err == 0)
		err = devimg_launch(env.q, k, 1, NULL, &n, NULL);
	if (err == 0)
		err = devimg_queue_finish(env.q);
	if (err == 0)
		err = devimg_buf_read(env.q, buf, 0, sizeof(out), out);
	devimg_buf_unref(buf);
	devimg_kernel_unref(k);
	if (exe != b)
		devimg_bundle_unref(exe);
	CHECK(err == 0, "launch: %d", err);
	for (i = 0; i < n; i++)
		CHECK(out[i] == (int)i + 1, "off1: out[%zu] = %d", i, out[i]);
	printf("off1 from the SYCLBIN: 64 values read back\n");
	return 0;
}

static int run(const char *path, const char *state, const char *expect,
	       char **kernels, int nk)
{
	struct devimg_bundle *b = NULL;
	unsigned char *data;
	size_t size;
	int err, k;

	data = slurp(path, &size);
	err = devimg_bundle_new_from_syclbin(env.ctx, data, size, NULL, &b);
	free(data);	/* the bundle keeps a copy */
	CHECK(err == 0, "devimg_bundle_new_from_syclbin(%s): %d", path, err);
	CHECK(!strcmp(devimg_bundle_state_name(devimg_bundle_state(b)), state),
	      "state %s, expected %s",
	      devimg_bundle_state_name(devimg_bundle_state(b)), state);
	if (check_registered(kernels, nk) < 0)
		return -1;
	if (!strcmp(expect, "none")) {
		CHECK(devimg_bundle_image_count(b) == 0 &&
		      !devimg_bundle_has_kernel(b, kernels[0], NULL),
		      "the bundle holds images the device should not take");
		printf("no image: %s takes no SPIR-V\n",
		       devimg_device_name(env.dev));
		devimg_bundle_unref(b);
		return 0;
	}
	CHECK(devimg_bundle_image_count(b) == 1, "%zu images",
	      devimg_bundle_image_count(b));
	for (k = 0; k < nk; k++)
		CHECK(devimg_bundle_has_kernel(b, kernels[k], env.dev),
		      "the bundle lacks %s", kernels[k]);
	CHECK(!devimg_bundle_has_kernel(b, "no_such_kernel", NULL),
	      "the bundle has no_such_kernel");
	printf("the bundle holds the module and its %d kernels\n", nk);
	err = strcmp(expect, "run") ? 0 : launch_off1(b);
	devimg_bundle_unref(b);
	return err;
}

int main(int argc, char **argv)
{
	unsigned char *data;
	size_t size;
	int r;

	int refuse = argc == 4 && !strcmp(argv[2], "refused");

	if (!refuse && (argc < 5 || (strcmp(argv[3], "none") &&
				     strcmp(argv[3], "hold") &&
				     strcmp(argv[3], "run")))) {
		fputs("usage: syclbin-run FILE STATE none|hold|run KERNEL...\n"
		      "       syclbin-run FILE refused MESSAGE\n", stderr);
		return 2;
	}
	r = runner_open(&env, NULL);
	if (r)
		return r;
	data = slurp(argv[1], &size);
	if (refuse)
		check_refused_file(data, size, argv[3]);
	else if (check_refused(data, size) == 0)
		run(argv[1], argv[2], argv[3], argv + 4, argc - 4);
	free(data);
	devimg_queue_unref(env.q);
	devimg_ctx_unref(env.ctx);
	return failed;
}
