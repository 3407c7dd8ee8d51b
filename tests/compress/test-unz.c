// SPDX-License-Identifier: MIT
/*
 * Compressed images (format 4) in libdevimg: registered without reading
 * their bytes, expanded once on first use whatever asks first, the real
 * format guessed from the expanded bytes, a bad frame failing its own image
 * only, the expansion freed when the image is unregistered.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include <zstd.h>

#include "tests/loader/fixture.h"
#include "loader/registry/registry.h"

/* Callers set the size of the structs they hand over. */
#define CAPS sizeof(struct devimg_device_caps)

static const struct devimg_device_caps ocl_cpu = {
	CAPS, DEVIMG_BACKEND_OPENCL, DEVIMG_DEVICE_CPU, 1, 1, 0
};

/* n bytes starting with the SPIR-V magic, then a pattern. */
static unsigned char *spirv_bytes(size_t n, unsigned seed)
{
	unsigned char *p = malloc(n);
	size_t i;

	ck_assert_ptr_nonnull(p);
	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 7 + seed + i / 64);
	memcpy(p, fx_spirv, sizeof(fx_spirv));
	return p;
}

/* One frame made as devimg-wrap makes it: content size recorded. */
static unsigned char *frame_of(const void *src, size_t n, size_t *len)
{
	size_t bound = ZSTD_compressBound(n);
	unsigned char *dst = malloc(bound);

	ck_assert_ptr_nonnull(dst);
	*len = ZSTD_compress(dst, bound, src, n, 10);
	ck_assert(!ZSTD_isError(*len));
	return dst;
}

/* A frame made by streaming, which does not record its content size. */
static unsigned char *frame_without_size(const void *src, size_t n,
					 size_t *len)
{
	size_t bound = ZSTD_compressBound(n) + 32;
	unsigned char *dst = malloc(bound);
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	ZSTD_inBuffer in = { src, n, 0 };
	ZSTD_outBuffer out = { dst, bound, 0 };
	size_t left;

	ck_assert_ptr_nonnull(dst);
	ck_assert_ptr_nonnull(cc);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0);
	do {
		left = ZSTD_compressStream2(cc, &out, &in, ZSTD_e_end);
		ck_assert(!ZSTD_isError(left));
	} while (left);
	ZSTD_freeCCtx(cc);
	ck_assert_uint_eq(ZSTD_getFrameContentSize(dst, out.pos),
			  ZSTD_CONTENTSIZE_UNKNOWN);
	*len = out.pos;
	return dst;
}

static struct devimg_image *find_one(const char *name)
{
	struct devimg_image *img = NULL;
	size_t n;

	ck_assert_int_eq(devimg_registry_find_kernel(name, &img, 1, &n), 0);
	ck_assert_uint_eq(n, 1);
	return img;
}

START_TEST(test_expanded_once_real_format_guessed)
{
	unsigned char *src = spirv_bytes(4096, 1), *z;
	enum devimg_image_format fmt;
	struct devimg_image *img;
	struct fixture f;
	const void *bytes;
	void *copy;
	size_t zlen, size;

	z = frame_of(src, 4096, &zlen);
	fx_init(&f);
	fx_image(&f, "spir64", DEVIMG_FORMAT_COMPRESSED, z, zlen);
	fx_entry(&f, 0, "k");
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_registry_status(), 0);
	img = find_one("k");
	ck_assert_int_eq(devimg_image_format(img), DEVIMG_FORMAT_COMPRESSED);
	ck_assert_uint_eq(devimg_image_bin_size(img), zlen);
	ck_assert_uint_eq(atomic_load(&image_unz_count), 0);
	ck_assert_int_eq(devimg_image_guess_format(img, &fmt), 0);
	ck_assert_int_eq(fmt, DEVIMG_FORMAT_SPIRV);
	ck_assert_int_eq(devimg_image_bin(img, &bytes, &size), 0);
	ck_assert_uint_eq(size, 4096);
	ck_assert_mem_eq(bytes, src, 4096);
	ck_assert_int_eq(devimg_image_bin_copy(img, &copy, &size), 0);
	ck_assert_uint_eq(size, 4096);
	ck_assert_mem_eq(copy, src, 4096);
	free(copy);
	ck_assert_uint_eq(atomic_load(&image_unz_count), 1);
	__sycl_unregister_lib(&f.desc);
	ck_assert_ptr_null(atomic_load(&img->unz));
	ck_assert_int_eq(devimg_image_bin(img, &bytes, &size), -ESTALE);
	devimg_image_unref(img);
	fx_fini(&f);
	free(z);
	free(src);
}
END_TEST

START_TEST(test_selection_expands_first)
{
	unsigned char *bc = malloc(1024), *z;
	struct devimg_image *imgs[2];
	char why[2][DEVIMG_REASON_MAX];
	enum devimg_image_format fmt;
	struct fixture f;
	size_t zlen, n, chosen;

	ck_assert_ptr_nonnull(bc);
	memset(bc, 0x5a, 1024);
	memcpy(bc, fx_llvmbc, sizeof(fx_llvmbc));
	z = frame_of(bc, 1024, &zlen);
	fx_init(&f);
	fx_image(&f, "spir64", DEVIMG_FORMAT_COMPRESSED, z, zlen);
	fx_entry(&f, 0, "k");
	fx_image(&f, "spir64", DEVIMG_FORMAT_COMPRESSED, z, zlen);
	fx_entry(&f, 1, "k");
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_registry_find_kernel("k", imgs, 2, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(devimg_select_image(&ocl_cpu, imgs, 2, &chosen, why),
			 0);
	/* The last spir64 image, as for plain images. */
	ck_assert_uint_eq(chosen, 1);
	ck_assert_has(why[0], "the last spir64 image (1) is taken");
	/* Selection alone expanded both, to learn their real format. */
	ck_assert_uint_eq(atomic_load(&image_unz_count), 2);
	ck_assert_ptr_nonnull(atomic_load(&imgs[0]->unz));
	ck_assert_int_eq(devimg_image_guess_format(imgs[0], &fmt), 0);
	ck_assert_int_eq(fmt, DEVIMG_FORMAT_LLVMBC);
	ck_assert_uint_eq(atomic_load(&image_unz_count), 2);
	devimg_image_unref(imgs[0]);
	devimg_image_unref(imgs[1]);
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
	free(z);
	free(bc);
}
END_TEST

/* Image 0 is bad as given; image 1 (compressed) and 2 (plain) still work. */
static void bad_frame_case(const unsigned char *bad, size_t badlen, int err,
			   const char *logged, const char *reason)
{
	unsigned char *src = spirv_bytes(2048, 3), *z;
	struct devimg_image *imgs[3];
	char why[3][DEVIMG_REASON_MAX];
	enum devimg_image_format fmt;
	struct fixture f;
	const void *bytes;
	size_t zlen, size, n, chosen;

	z = frame_of(src, 2048, &zlen);
	fx_init(&f);
	fx_image(&f, "spir64", DEVIMG_FORMAT_COMPRESSED, bad, badlen);
	fx_entry(&f, 0, "bad");
	fx_entry(&f, 0, "k");
	fx_image(&f, "spir64", DEVIMG_FORMAT_COMPRESSED, z, zlen);
	fx_entry(&f, 1, "good");
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, src, 2048);
	fx_entry(&f, 2, "plain");
	fx_log_capture();
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_registry_status(), 0);
	imgs[0] = find_one("bad");
	ck_assert_int_eq(devimg_image_bin(imgs[0], &bytes, &size), err);
	ck_assert_int_eq(devimg_image_guess_format(imgs[0], &fmt), err);
	ck_assert_has(fx_log_text(), logged);
	ck_assert_str_ne(devimg_strerror(err), "unknown error");
	/* Tried once: the error is kept, not retried. */
	ck_assert_uint_eq(atomic_load(&image_unz_count), 1);
	fx_log_release();
	ck_assert_int_eq(devimg_select_image(&ocl_cpu, imgs, 1, &chosen, why),
			 -ENOEXEC);
	ck_assert_has(why[0], reason);
	imgs[1] = find_one("good");
	ck_assert_int_eq(devimg_image_bin(imgs[1], &bytes, &size), 0);
	ck_assert_uint_eq(size, 2048);
	ck_assert_mem_eq(bytes, src, 2048);
	imgs[2] = find_one("plain");
	ck_assert_int_eq(devimg_image_bin(imgs[2], &bytes, &size), 0);
	ck_assert_ptr_eq(bytes, src);
	devimg_image_unref(imgs[0]);
	ck_assert_int_eq(devimg_registry_find_kernel("k", imgs, 1, &n), 0);
	devimg_image_unref(imgs[0]);
	devimg_image_unref(imgs[1]);
	devimg_image_unref(imgs[2]);
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
	free(z);
	free(src);
}

START_TEST(test_corrupt_frame_fails_its_image_only)
{
	unsigned char *src = spirv_bytes(8192, 5), *z;
	size_t zlen, i;

	z = frame_of(src, 8192, &zlen);
	/* Garble the blocks, keep the header: the size is still read. */
	for (i = 12; i < zlen - 4; i++)
		z[i] ^= 0xa5;
	bad_frame_case(z, zlen, -EBADMSG, "compressed bytes: corrupt zstd frame",
		       "format compressed: corrupt zstd frame");
	free(z);
	free(src);
}
END_TEST

START_TEST(test_frame_without_content_size_is_refused)
{
	unsigned char *src = spirv_bytes(3000, 7), *z;
	size_t zlen;

	z = frame_without_size(src, 3000, &zlen);
	bad_frame_case(z, zlen, -EBADMSG,
		       "the zstd frame does not record its content size",
		       "format compressed: content size not recorded");
	free(z);
	free(src);
}
END_TEST

START_TEST(test_oversized_frame_is_refused_before_allocating)
{
	/*
	 * A frame header: magic, descriptor 0xe0 (single segment, 8-byte
	 * content size), content size 2^40, then one empty last raw block.
	 */
	static const unsigned char big[] = {
		0x28, 0xb5, 0x2f, 0xfd, 0xe0,
		0, 0, 0, 0, 0, 1, 0, 0,
		0x01, 0x00, 0x00,
	};

	ck_assert_uint_eq(ZSTD_getFrameContentSize(big, sizeof(big)),
			  (unsigned long long)1 << 40);
	bad_frame_case(big, sizeof(big), -EFBIG,
		       "content size 1099511627776 is above the limit of 16512 bytes (4 GiB, and 1032 times the frame's 16)",
		       "format compressed: content size above the limit");
}
END_TEST

START_TEST(test_not_a_frame_is_refused)
{
	bad_frame_case(fx_spirv, sizeof(fx_spirv), -EBADMSG,
		       "16 bytes are not a zstd frame",
		       "format compressed: not a zstd frame");
}
END_TEST

/* ---- 10,000 images: registration reads none, 8 threads expand each once */

enum { MANY = 10000, THREADS = 8, PLAIN = 600 };

struct many {
	struct devimg_device_binaries desc;
	struct devimg_device_image imgs[MANY];
	struct devimg_offload_entry entries[MANY];
	char names[MANY][16];
	unsigned char *pages;
	size_t map;
	size_t slot;
};

static void plain_of(unsigned i, unsigned char *out)
{
	size_t j;

	for (j = 0; j < PLAIN; j++)
		out[j] = (unsigned char)(j % 13 + i * 31 + j / 40);
	memcpy(out, fx_spirv, sizeof(fx_spirv));
	memcpy(out + 16, &i, sizeof(i));
}

static void many_new(struct many *m)
{
	unsigned char plain[PLAIN];
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned i;

	m->slot = 256;
	m->map = (MANY * m->slot + page - 1) / page * page;
	m->pages = mmap(NULL, m->map, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(m->pages, MAP_FAILED);
	m->desc.version = DEVIMG_BINARIES_VERSION;
	m->desc.count = MANY;
	m->desc.images = m->imgs;
	for (i = 0; i < MANY; i++) {
		struct devimg_device_image *di = &m->imgs[i];
		unsigned char *at = m->pages + i * m->slot;
		size_t n;

		plain_of(i, plain);
		n = ZSTD_compress(at, m->slot, plain, PLAIN, 10);
		ck_assert(!ZSTD_isError(n));
		snprintf(m->names[i], sizeof(m->names[i]), "k%u", i);
		m->entries[i].name = m->names[i];
		di->version = DEVIMG_IMAGE_VERSION;
		di->kind = DEVIMG_KIND_SYCL;
		di->format = DEVIMG_FORMAT_COMPRESSED;
		di->target = "spir64";
		di->bin_begin = at;
		di->bin_end = at + n;
		di->entries_begin = &m->entries[i];
		di->entries_end = &m->entries[i] + 1;
	}
	/* From here on, any read of image bytes faults. */
	ck_assert_int_eq(mprotect(m->pages, m->map, PROT_NONE), 0);
}

struct worker {
	struct devimg_image **imgs;
	unsigned start;
	int failures;
};

static void *expand_all(void *arg)
{
	struct worker *w = arg;
	unsigned char plain[PLAIN];
	const void *bytes;
	size_t size;
	unsigned k;

	for (k = 0; k < MANY; k++) {
		unsigned i = (w->start + k * 7) % MANY;

		plain_of(i, plain);
		if (devimg_image_bin(w->imgs[i], &bytes, &size) != 0 ||
		    size != PLAIN || memcmp(bytes, plain, PLAIN))
			w->failures++;
	}
	return NULL;
}

START_TEST(test_many_images_lazy_then_expanded_once_each)
{
	static struct many m;
	struct worker w[THREADS];
	pthread_t t[THREADS];
	struct devimg_image **imgs;
	size_t n;
	unsigned i;

	many_new(&m);
	imgs = calloc(MANY, sizeof(*imgs));
	ck_assert_ptr_nonnull(imgs);
	__sycl_register_lib(&m.desc);
	ck_assert_int_eq(devimg_registry_status(), 0);
	/* Settled and indexed: names read, image bytes not. */
	ck_assert_int_eq(devimg_registry_images(imgs, MANY, &n), 0);
	ck_assert_uint_eq(n, MANY);
	for (i = 0; i < MANY; i++)
		ck_assert_int_eq(devimg_image_format(imgs[i]),
				 DEVIMG_FORMAT_COMPRESSED);
	ck_assert_uint_eq(atomic_load(&image_unz_count), 0);
	ck_assert_int_eq(mprotect(m.pages, m.map, PROT_READ), 0);
	for (i = 0; i < THREADS; i++) {
		w[i] = (struct worker){ imgs, i * (MANY / THREADS), 0 };
		ck_assert_int_eq(pthread_create(&t[i], NULL, expand_all,
						&w[i]), 0);
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		ck_assert_int_eq(w[i].failures, 0);
	}
	ck_assert_uint_eq(atomic_load(&image_unz_count), MANY);
	for (i = 0; i < MANY; i++)
		devimg_image_unref(imgs[i]);
	__sycl_unregister_lib(&m.desc);
	free(imgs);
	munmap(m.pages, m.map);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compress");
	TCase *tc = tcase_create("unz");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_expanded_once_real_format_guessed);
	tcase_add_test(tc, test_selection_expands_first);
	tcase_add_test(tc, test_corrupt_frame_fails_its_image_only);
	tcase_add_test(tc, test_frame_without_content_size_is_refused);
	tcase_add_test(tc, test_oversized_frame_is_refused_before_allocating);
	tcase_add_test(tc, test_not_a_frame_is_refused);
	tcase_add_test(tc, test_many_images_lazy_then_expanded_once_each);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
