// SPDX-License-Identifier: MIT
/*
 * The registry's results with repeated kernel names: many entries of one
 * name in one image, one name in each of many images of one descriptor or
 * of many descriptors, and names shared by images that come and go, in
 * registration order, each image once. And a name no image defines: the
 * message of devimg_kernel_new() (on the fake plugin's device) says what
 * was searched and which names are closest.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "tests/loader/fixture.h"

static const unsigned char bytes[16] = { 0x03, 0x02, 0x23, 0x07 };

/* A descriptor of nimages images, each listing the same names. */
struct big {
	struct devimg_device_binaries desc;
	struct devimg_device_image *images;
	struct devimg_offload_entry *entries;
};

static void big_init(struct big *b, size_t nimages,
		     const char *const *names, size_t per_image)
{
	size_t i, j;

	memset(b, 0, sizeof(*b));
	b->images = calloc(nimages, sizeof(*b->images));
	b->entries = calloc(per_image ? per_image : 1, sizeof(*b->entries));
	if (!b->images || !b->entries)
		ck_abort_msg("out of memory");
	for (j = 0; j < per_image; j++)
		b->entries[j].name = (char *)names[j];
	for (i = 0; i < nimages; i++) {
		struct devimg_device_image *img = &b->images[i];

		img->version = DEVIMG_IMAGE_VERSION;
		img->kind = DEVIMG_KIND_SYCL;
		img->format = DEVIMG_FORMAT_SPIRV;
		img->target = "spir64";
		img->bin_begin = bytes;
		img->bin_end = bytes + sizeof(bytes);
		if (per_image) {
			img->entries_begin = b->entries;
			img->entries_end = b->entries + per_image;
		}
	}
	b->desc.version = DEVIMG_BINARIES_VERSION;
	b->desc.count = (uint16_t)nimages;
	b->desc.images = b->images;
}

static void big_fini(struct big *b)
{
	free(b->images);
	free(b->entries);
}

/*
 * Look name up into imgs (max of them) and check the images are
 * distinct, in increasing id order; returns the count, 0 for -ENOENT.
 */
static size_t find_ordered(const char *name, struct devimg_image **imgs,
			   size_t max)
{
	size_t n = 99, i, unordered = 0;
	int r = devimg_registry_find_kernel(name, imgs, max, &n);

	ck_assert_int_eq(r, n ? 0 : -ENOENT);
	for (i = 1; i < n && i < max; i++)
		unordered += devimg_image_id(imgs[i - 1]) >=
			     devimg_image_id(imgs[i]);
	ck_assert_uint_eq(unordered, 0);
	return n;
}

static void unref_all(struct devimg_image **imgs, size_t n)
{
	while (n)
		devimg_image_unref(imgs[--n]);
}

/* k k other_2 k k ...: k 9 times in 10, among other names once each. */
static void make_names(char **names, size_t n)
{
	char buf[32];
	size_t j;

	for (j = 0; j < n; j++) {
		if (j % 10 == 2)
			snprintf(buf, sizeof(buf), "other_%zu", j);
		else
			strcpy(buf, "k");
		names[j] = strdup(buf);
		if (!names[j])
			ck_abort_msg("out of memory");
	}
}

START_TEST(test_one_image_lists_a_name_many_times)
{
	enum { ENTRIES = 10000 };
	static char *names[ENTRIES];
	struct devimg_image *imgs[2];
	struct big b;
	size_t j;

	make_names(names, ENTRIES);
	big_init(&b, 1, (const char *const *)names, ENTRIES);
	__sycl_register_lib(&b.desc);
	ck_assert_uint_eq(find_ordered("k", imgs, 2), 1);
	ck_assert_ptr_eq(devimg_image_descriptor(imgs[0]), &b.desc);
	unref_all(imgs, 1);
	ck_assert_uint_eq(find_ordered("other_12", imgs, 2), 1);
	unref_all(imgs, 1);
	ck_assert_uint_eq(find_ordered("other_13", imgs, 2), 0);
	/* Entry names were copied: the descriptor's may go. */
	for (j = 0; j < ENTRIES; j++)
		memset(names[j], 'X', strlen(names[j]));
	ck_assert_uint_eq(find_ordered("k", imgs, 2), 1);
	unref_all(imgs, 1);
	__sycl_unregister_lib(&b.desc);
	ck_assert_uint_eq(find_ordered("k", imgs, 2), 0);
	ck_assert_uint_eq(find_ordered("other_12", imgs, 2), 0);
	/* Again, to see the index emptied cleanly. */
	for (j = 0; j < ENTRIES; j++)
		free(names[j]);
	make_names(names, ENTRIES);
	for (j = 0; j < ENTRIES; j++)
		b.entries[j].name = names[j];
	__sycl_register_lib(&b.desc);
	ck_assert_uint_eq(find_ordered("k", imgs, 2), 1);
	unref_all(imgs, 1);
	__sycl_unregister_lib(&b.desc);
	big_fini(&b);
	for (j = 0; j < ENTRIES; j++)
		free(names[j]);
}
END_TEST

/*
 * Two descriptors of many images with one name each (listed twice in
 * every image of the second): all of them in registration order; the
 * first's unregistration leaves the second's, and registering the first
 * again puts its images after the second's.
 */
START_TEST(test_one_name_in_many_images)
{
	enum { NA = 6000, NB = 4000 };
	static struct devimg_image *imgs[NA + NB];
	const char *once[1] = { "k" }, *twice[3] = { "k", "kb", "k" };
	struct big a, b;
	size_t i, n, wrong;

	big_init(&a, NA, once, 1);
	big_init(&b, NB, twice, 3);
	__sycl_register_lib(&a.desc);
	__sycl_register_lib(&b.desc);
	ck_assert_uint_eq(find_ordered("k", imgs, NA + NB), NA + NB);
	for (i = 0, wrong = 0; i < NA + NB; i++)
		wrong += devimg_image_descriptor(imgs[i]) !=
			 (i < NA ? &a.desc : &b.desc) ||
			 devimg_image_index(imgs[i]) != (i < NA ? i : i - NA);
	ck_assert_uint_eq(wrong, 0);
	unref_all(imgs, NA + NB);
	ck_assert_uint_eq(find_ordered("kb", imgs, NB), NB);
	ck_assert_ptr_eq(devimg_image_descriptor(imgs[0]), &b.desc);
	unref_all(imgs, NB);
	/* Truncated: the first max, and the whole count. */
	ck_assert_uint_eq(find_ordered("k", imgs, 3), NA + NB);
	for (i = 0; i < 3; i++) {
		ck_assert_ptr_eq(devimg_image_descriptor(imgs[i]), &a.desc);
		ck_assert_uint_eq(devimg_image_index(imgs[i]), i);
	}
	unref_all(imgs, 3);

	__sycl_unregister_lib(&a.desc);
	ck_assert_uint_eq(find_ordered("k", imgs, NA + NB), NB);
	for (i = 0, wrong = 0; i < NB; i++)
		wrong += devimg_image_descriptor(imgs[i]) != &b.desc ||
			 devimg_image_index(imgs[i]) != i;
	ck_assert_uint_eq(wrong, 0);
	unref_all(imgs, NB);

	__sycl_register_lib(&a.desc);
	ck_assert_uint_eq(find_ordered("k", imgs, NA + NB), NA + NB);
	ck_assert_ptr_eq(devimg_image_descriptor(imgs[0]), &b.desc);
	ck_assert_ptr_eq(devimg_image_descriptor(imgs[NB]), &a.desc);
	ck_assert_uint_eq(devimg_image_index(imgs[NB]), 0);
	ck_assert_ptr_eq(devimg_image_descriptor(imgs[NA + NB - 1]), &a.desc);
	unref_all(imgs, NA + NB);
	ck_assert_uint_eq(find_ordered("kb", NULL, 0), NB);

	__sycl_unregister_lib(&b.desc);
	ck_assert_uint_eq(find_ordered("kb", NULL, 0), 0);
	ck_assert_uint_eq(find_ordered("k", NULL, 0), NA);
	__sycl_unregister_lib(&a.desc);
	ck_assert_uint_eq(find_ordered("k", NULL, 0), 0);
	ck_assert_int_eq(devimg_registry_images(NULL, 0, &n), 0);
	ck_assert_uint_eq(n, 0);
	big_fini(&a);
	big_fini(&b);
}
END_TEST

/*
 * Many descriptors of one image each, every one defining "k" and a name
 * of its own, half of them "k2" too; unregistered in a scrambled order,
 * the rest must stay in registration order, re-registered ones last.
 */
START_TEST(test_one_entry_in_each_of_many_descriptors)
{
	enum { ND = 3000 };
	static struct big d[ND];
	static const char *names[ND][3];
	static struct devimg_image *imgs[ND];
	static bool in[ND];
	static size_t order[ND * 2], last[ND];
	size_t i, k, n, norder = 0, step;

	for (i = 0; i < ND; i++) {
		char buf[32];

		snprintf(buf, sizeof(buf), "own_%zu", i);
		names[i][0] = "k";
		names[i][1] = strdup(buf);
		names[i][2] = "k2";
		big_init(&d[i], 1, names[i], i % 2 ? 3 : 2);
		__sycl_register_lib(&d[i].desc);
		in[i] = true;
		last[i] = norder;
		order[norder++] = i;
	}
	ck_assert_uint_eq(find_ordered("k", imgs, ND), ND);
	for (i = 0, k = 0; i < ND; i++)
		k += devimg_image_descriptor(imgs[i]) != &d[i].desc;
	ck_assert_uint_eq(k, 0);
	unref_all(imgs, ND);
	/* Every 7th modulo ND goes (a permutation: 7 and ND are coprime). */
	for (step = 0, i = 0; step < ND / 2; step++, i = (i + 7) % ND) {
		__sycl_unregister_lib(&d[i].desc);
		in[i] = false;
		if (step % 4 == 0) {
			/* Back at once: now the newest. */
			__sycl_register_lib(&d[i].desc);
			in[i] = true;
			last[i] = norder;
			order[norder++] = i;
		}
		if (step % 250 == 0) {
			size_t want = 0;

			for (k = 0; k < ND; k++)
				want += in[k];
			ck_assert_uint_eq(find_ordered("k", NULL, 0), want);
		}
	}
	/* The expected order: registrations still standing, oldest first. */
	n = find_ordered("k", imgs, ND);
	for (i = 0, k = 0; i < norder; i++) {
		size_t j = order[i];

		if (!in[j] || last[j] != i)
			continue;
		if (k < n && devimg_image_descriptor(imgs[k]) != &d[j].desc)
			ck_abort_msg("image %zu of k: not descriptor %zu", k, j);
		k++;
	}
	ck_assert_uint_eq(k, n);
	unref_all(imgs, n);
	for (i = 0, k = 0; i < ND; i++)
		k += in[i] && i % 2;
	ck_assert_uint_eq(find_ordered("k2", NULL, 0), k);
	ck_assert_uint_eq(find_ordered("own_7", NULL, 0), in[7]);
	for (i = 0; i < ND; i++) {
		__sycl_unregister_lib(&d[i].desc);
		big_fini(&d[i]);
		free((char *)names[i][1]);
	}
	ck_assert_uint_eq(find_ordered("k", NULL, 0), 0);
	ck_assert_uint_eq(find_ordered("k2", NULL, 0), 0);
}
END_TEST

/* ---- a name no image defines: what was searched, the closest names ---- */

static struct devimg_device *fake_device(struct devimg_ctx **ctx)
{
	setenv("DEVIMG_PLUGIN_PATH", FAKE_PLUGIN_DIR, 1);
	setenv("DEVIMG_PLUGIN_PATH_ONLY", "1", 1);
	setenv("DEVIMG_TEST_FAKE", "device", 1);
	unsetenv("DEVIMG_DEVICE_SELECTOR");
	ck_assert_int_eq(devimg_ctx_new(ctx), 0);
	ck_assert_msg(devimg_device_count(*ctx) == 1,
		      "the fake plugin's device not found in %s",
		      FAKE_PLUGIN_DIR);
	return devimg_device_get(*ctx, 0);
}

/* devimg_kernel_new(dev, name) fails with -ENOENT and message want. */
static void expect_missing(struct devimg_device *dev, const char *name,
			   const char *want)
{
	struct devimg_kernel *k = NULL;

	fx_log_capture();
	ck_assert_int_eq(devimg_kernel_new(dev, name, &k), -ENOENT);
	fx_log_release();
	ck_assert_ptr_null(k);
	ck_assert_str_eq(devimg_last_error(), want);
}

START_TEST(test_missing_kernel_says_what_was_searched)
{
	static const char *const names[] = { "vadd", "_ZTS5scale", "Mul",
					     "vsub" };
	static const char *const near[] = { "kern_a", "KERN", "kerm",
					    "kern_b" };
	struct devimg_image *imgs[3];
	struct devimg_ctx *ctx;
	struct devimg_device *dev = fake_device(&ctx);
	struct big a, b;
	char want[512];
	size_t n;

	expect_missing(dev, "vadd",
		       "no registered image defines kernel 'vadd': no image is registered (is the wrapped object linked in?)");

	big_init(&a, 2, names, 4);
	a.images[1].target = "spirv64";
	big_init(&b, 1, near, 4);
	__sycl_register_lib(&a.desc);
	__sycl_register_lib(&b.desc);
	ck_assert_int_eq(devimg_registry_images(imgs, 3, &n), 0);
	ck_assert_uint_eq(n, 3);

	/* Held by a longer name; of another case; one edit away. */
	snprintf(want, sizeof(want),
		 "no registered image defines kernel 'vad': searched 3 images (targets spir64, spirv64) of 12 names; closest: 'vadd' (image %" PRIu64 ")",
		 devimg_image_id(imgs[0]));
	expect_missing(dev, "vad", want);
	snprintf(want, sizeof(want),
		 "no registered image defines kernel 'scale': searched 3 images (targets spir64, spirv64) of 12 names; closest: '_ZTS5scale' (image %" PRIu64 ")",
		 devimg_image_id(imgs[0]));
	expect_missing(dev, "scale", want);
	snprintf(want, sizeof(want),
		 "no registered image defines kernel 'mul': searched 3 images (targets spir64, spirv64) of 12 names; closest: 'Mul' (image %" PRIu64 ")",
		 devimg_image_id(imgs[0]));
	expect_missing(dev, "mul", want);
	snprintf(want, sizeof(want),
		 "no registered image defines kernel 'vsux': searched 3 images (targets spir64, spirv64) of 12 names; closest: 'vsub' (image %" PRIu64 ")",
		 devimg_image_id(imgs[0]));
	expect_missing(dev, "vsux", want);
	/* Best first, three at most: case, then containment, then edits. */
	snprintf(want, sizeof(want),
		 "no registered image defines kernel 'kern': searched 3 images (targets spir64, spirv64) of 12 names; closest: 'KERN' (image %" PRIu64 "), 'kern_a' (image %" PRIu64 "), 'kern_b' (image %" PRIu64 ")",
		 devimg_image_id(imgs[2]), devimg_image_id(imgs[2]),
		 devimg_image_id(imgs[2]));
	expect_missing(dev, "kern", want);
	/* Two edits in a name of 4 is not close; nothing is. */
	expect_missing(dev, "vsbu",
		       "no registered image defines kernel 'vsbu': searched 3 images (targets spir64, spirv64) of 12 names; none close");

	unref_all(imgs, 3);
	__sycl_unregister_lib(&b.desc);
	__sycl_unregister_lib(&a.desc);
	big_fini(&a);
	big_fini(&b);
	devimg_ctx_unref(ctx);
}
END_TEST

static Suite *names_suite(void)
{
	Suite *s = suite_create("names");
	TCase *tc = tcase_create("names");

	tcase_add_test(tc, test_one_image_lists_a_name_many_times);
	tcase_add_test(tc, test_one_name_in_many_images);
	tcase_add_test(tc, test_one_entry_in_each_of_many_descriptors);
	tcase_add_test(tc, test_missing_kernel_says_what_was_searched);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(names_suite());
}
