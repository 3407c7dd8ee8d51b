// SPDX-License-Identifier: MIT
/*
 * devimg_bundle_new_from_syclbin() (loader/dispatch/bundle-syclbin.c): the
 * input is a SYCLBIN file in any of its forms, turned into a descriptor
 * and registered for a context. The context has no device
 * (DEVIMG_DEVICE_SELECTOR=!*:* opens no plugin), so the bundle is empty
 * and nothing is compiled: what is fuzzed is the reading, the descriptor
 * made of it and its registration, then every introspection and
 * selection call on its images (inspect.h); freeing the context
 * unregisters them.
 *
 * Oracles, besides the sanitizers: every message is one line; a failure
 * is -EINVAL, -ENOMEM, -EOPNOTSUPP or -EOVERFLOW with one line naming
 * the function, and happens when syclbin_parse() refuses the input (with
 * the same error) or after it read it; what registers is what
 * syclbin_parse() reads: each module's IR modules (SPIR-V, spir64), then
 * its native images (native, their triple's first component), in module
 * order, with the module's kernel names as entries and its metadata's
 * sets, the file's bytes; the bundle has the file's state; once the
 * context is gone nothing is registered.
 */
#include <errno.h>

#include "fuzz/fuzz.h"
#include "fuzz/inspect.h"
#include "props/syclbin.h"
#include "util/errmsg.h"

#define MAX_IMAGES 64

static void check_image(struct devimg_image *img, const struct syclbin *sb,
			size_t k)
{
	const struct syclbin_module *m = NULL;
	const struct syclbin_image *si = NULL;
	const struct devimg_propset_info *sets;
	const char *dash, *target;
	const void *bytes;
	size_t i, j, n, nk, len;
	int native = 0;

	for (i = 0, j = k; i < sb->nmodules; i++) {
		m = &sb->modules[i];
		if (j < m->nir) {
			si = &m->ir[j];
			break;
		}
		j -= m->nir;
		if (j < m->nnative) {
			si = &m->native[j];
			native = 1;
			break;
		}
		j -= m->nnative;
	}
	FUZZ_ASSERT(si, "image %zu: the file has fewer", k);
	FUZZ_ASSERT(devimg_image_kind(img) == DEVIMG_KIND_SYCL,
		    "image %zu: kind", k);
	FUZZ_ASSERT(devimg_image_format(img) == (native ? DEVIMG_FORMAT_NATIVE :
						 DEVIMG_FORMAT_SPIRV),
		    "image %zu: format %u", k, devimg_image_format(img));
	dash = strchr(si->target, '-');
	len = dash ? (size_t)(dash - si->target) : strlen(si->target);
	target = devimg_image_target(img);
	FUZZ_ASSERT(native ? strlen(target) == len &&
			     !strncmp(target, si->target, len) :
			     !strcmp(target, "spir64"),
		    "image %zu: target '%s'", k, target);
	FUZZ_ASSERT(devimg_image_bin(img, &bytes, &n) == 0 && n == si->size &&
		    (!n || !memcmp(bytes, si->data, n)), "image %zu: bytes", k);
	nk = syclbin_module_kernel_count(m);
	FUZZ_ASSERT(devimg_image_entry_count(img) == nk,
		    "image %zu: %zu entries, the module names %zu", k,
		    devimg_image_entry_count(img), nk);
	for (j = 0; j < nk; j++)
		FUZZ_ASSERT(!strcmp(devimg_image_entry_name(img, j),
				    syclbin_module_kernel(m, j)),
			    "image %zu: entry %zu", k, j);
	if (devimg_image_propsets(img, &sets, &n) == 0) {
		FUZZ_ASSERT(n == m->meta->nsets, "image %zu: %zu sets of %zu",
			    k, n, m->meta->nsets);
		for (j = 0; j < n; j++)
			FUZZ_ASSERT(!strcmp(sets[j].name,
					    m->meta->sets[j].name) &&
				    sets[j].nprops == m->meta->sets[j].nprops,
				    "image %zu: set %zu", k, j);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int once;
	struct devimg_image *imgs[MAX_IMAGES];
	struct errmsg err = { 0 };
	struct devimg_bundle *b = NULL;
	struct devimg_ctx *ctx = NULL;
	struct syclbin *sb = NULL;
	const char *msg;
	size_t n = 0, want = 0, i;
	int r, pr;

	if (!once) {
		/* Read once, at the first context: no plugin, no device. */
		setenv("DEVIMG_DEVICE_SELECTOR", "!*:*", 1);
		unsetenv("DEVIMG_DUMP_IMAGES");
		once = 1;
	}
	fuzz_log_setup();
	FUZZ_ASSERT(devimg_ctx_new(&ctx) == 0, "devimg_ctx_new: %s",
		    devimg_last_error());
	FUZZ_ASSERT(devimg_device_count(ctx) == 0, "a device");
	pr = syclbin_parse(data, size, "fuzz", &sb, &err);
	/* data may be NULL for an empty input: the function refuses NULL. */
	r = devimg_bundle_new_from_syclbin(ctx, size ? data : (const void *)"",
					   size, NULL, &b);
	if (r < 0) {
		msg = devimg_last_error();
		FUZZ_ASSERT(r == -EINVAL || r == -ENOMEM || r == -EOPNOTSUPP ||
			    r == -EOVERFLOW, "error %d: %s", r, msg);
		fuzz_check_msg(msg, strlen(msg) + 1,
			       "devimg_bundle_new_from_syclbin: ");
		FUZZ_ASSERT(pr == 0 || pr == r, "error %d, the reader's %d: %s",
			    r, pr, msg);
		FUZZ_ASSERT(!b, "output on failure");
	} else {
		FUZZ_ASSERT(pr == 0, "read a file the reader refuses: %s",
			    err.msg);
		FUZZ_ASSERT(b && devimg_bundle_state(b) ==
			    (enum devimg_bundle_state)sb->state, "state");
		for (i = 0; i < sb->nmodules; i++)
			want += sb->modules[i].nir + sb->modules[i].nnative;
		FUZZ_ASSERT(devimg_registry_images(imgs, MAX_IMAGES, &n) == 0 &&
			    n == want, "%zu images registered of %zu", n, want);
		for (i = 0; i < n && i < MAX_IMAGES; i++) {
			check_image(imgs[i], sb, i);
			fuzz_inspect_image(imgs[i]);
		}
		fuzz_select(imgs, n < MAX_IMAGES ? n : MAX_IMAGES);
		for (i = 0; i < n && i < MAX_IMAGES; i++)
			devimg_image_unref(imgs[i]);
		devimg_bundle_unref(b);
	}
	devimg_ctx_unref(ctx);
	n = 1;
	FUZZ_ASSERT(devimg_registry_images(NULL, 0, &n) == 0 && n == 0,
		    "%zu images left registered", n);
	syclbin_free(sb);
	return 0;
}
