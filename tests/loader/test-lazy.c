// SPDX-License-Identifier: MIT
/*
 * Registration touches neither image bytes nor property values: they lie
 * in PROT_NONE pages here, so any read faults. They are read on first use
 * only (format guessing, property copies, spec constants), then cached.
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tests/loader/fixture.h"

struct guarded {
	unsigned char *pages;	/* page 0: image bytes; page 1: values */
	size_t page;
	struct fixture f;
};

static void put_u64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put_u32(unsigned char *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/*
 * One image of format NONE whose bytes are SPIR-V, with a spec constant
 * {id 3, offset 0, size 4}, its default 42 and a string property, all
 * values in the second page; then both pages become PROT_NONE.
 */
static void guarded_new(struct guarded *g)
{
	unsigned char *values;
	struct devimg_property *p;
	unsigned s;

	g->page = (size_t)sysconf(_SC_PAGESIZE);
	g->pages = mmap(NULL, 2 * g->page, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(g->pages, MAP_FAILED);
	memcpy(g->pages, fx_spirv, sizeof(fx_spirv));
	values = g->pages + g->page;
	put_u64(values, 96);
	put_u32(values + 8, 3);
	put_u32(values + 12, 0);
	put_u32(values + 16, 4);
	put_u64(values + 32, 32);
	put_u32(values + 40, 42);
	memcpy(values + 64, "text", 5);

	fx_init(&g->f);
	fx_image(&g->f, "spir64", DEVIMG_FORMAT_NONE, g->pages, 256);
	fx_entry(&g->f, 0, "k_lazy");
	s = fx_set(&g->f, 0, "SYCL/specialization constants");
	fx_u32(&g->f, 0, s, "placeholder", 0);
	p = &g->f.props[0][s][0];
	p->name = "SC";
	p->type = DEVIMG_PROPERTY_BYTE_ARRAY;
	p->value = values;
	p->size = 20;
	s = fx_set(&g->f, 0, "SYCL/specialization constants default values");
	fx_u32(&g->f, 0, s, "placeholder", 0);
	p = &g->f.props[0][s][0];
	p->name = "all";
	p->type = DEVIMG_PROPERTY_BYTE_ARRAY;
	p->value = values + 32;
	p->size = 12;
	s = fx_set(&g->f, 0, "SYCL/misc properties");
	fx_u32(&g->f, 0, s, "placeholder", 0);
	p = &g->f.props[0][s][0];
	p->name = "str";
	p->type = DEVIMG_PROPERTY_STRING;
	p->value = values + 64;
	p->size = 0;
	ck_assert_int_eq(mprotect(g->pages, 2 * g->page, PROT_NONE), 0);
}

static void guarded_readable(struct guarded *g, int readable)
{
	ck_assert_int_eq(mprotect(g->pages, 2 * g->page,
				  readable ? PROT_READ : PROT_NONE), 0);
}

static void guarded_free(struct guarded *g)
{
	munmap(g->pages, 2 * g->page);
	fx_fini(&g->f);
}

static struct devimg_image *find_one(const char *name)
{
	struct devimg_image *img = NULL;
	size_t n;

	ck_assert_int_eq(devimg_registry_find_kernel(name, &img, 1, &n), 0);
	ck_assert_uint_eq(n, 1);
	return img;
}

START_TEST(test_register_unregister_never_reads_bytes)
{
	struct devimg_image *img;
	struct guarded g;
	const void *bytes;
	size_t size;

	guarded_new(&g);
	__sycl_register_lib(&g.f.desc);
	ck_assert_int_eq(devimg_registry_status(), 0);
	img = find_one("k_lazy");
	ck_assert_str_eq(devimg_image_target(img), "spir64");
	ck_assert_str_eq(devimg_image_entry_name(img, 0), "k_lazy");
	ck_assert_uint_eq(devimg_image_bin_size(img), 256);
	ck_assert_int_eq(devimg_image_bin(img, &bytes, &size), 0);
	ck_assert_ptr_eq(bytes, g.pages);
	devimg_image_unref(img);
	__sycl_unregister_lib(&g.f.desc);
	__sycl_unregister_lib(&g.f.desc);
	guarded_free(&g);
}
END_TEST

START_TEST(test_format_guessed_on_first_use_then_cached)
{
	enum devimg_image_format fmt;
	struct devimg_image *img;
	struct guarded g;

	guarded_new(&g);
	__sycl_register_lib(&g.f.desc);
	img = find_one("k_lazy");
	guarded_readable(&g, 1);
	ck_assert_int_eq(devimg_image_guess_format(img, &fmt), 0);
	ck_assert_int_eq(fmt, DEVIMG_FORMAT_SPIRV);
	guarded_readable(&g, 0);
	ck_assert_int_eq(devimg_image_guess_format(img, &fmt), 0);
	ck_assert_int_eq(fmt, DEVIMG_FORMAT_SPIRV);
	__sycl_unregister_lib(&g.f.desc);
	ck_assert_int_eq(devimg_image_guess_format(img, &fmt), 0);
	devimg_image_unref(img);
	guarded_free(&g);
}
END_TEST

START_TEST(test_format_guess_after_unregistration_is_stale)
{
	enum devimg_image_format fmt;
	struct devimg_image *img;
	struct guarded g;

	guarded_new(&g);
	__sycl_register_lib(&g.f.desc);
	img = find_one("k_lazy");
	__sycl_unregister_lib(&g.f.desc);
	ck_assert_int_eq(devimg_image_guess_format(img, &fmt), -ESTALE);
	devimg_image_unref(img);
	guarded_free(&g);
}
END_TEST

START_TEST(test_values_decoded_on_first_use_then_cached)
{
	const struct devimg_spec_const_info *consts;
	const struct devimg_propset_info *sets;
	struct devimg_image *img;
	struct guarded g;
	const void *defaults;
	size_t n, size;

	guarded_new(&g);
	__sycl_register_lib(&g.f.desc);
	img = find_one("k_lazy");
	guarded_readable(&g, 1);
	ck_assert_int_eq(devimg_image_spec_consts(img, &consts, &n, &defaults,
						  &size), 0);
	guarded_readable(&g, 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(consts[0].name, "SC");
	ck_assert_uint_eq(consts[0].leaves[0].id, 3);
	ck_assert_uint_eq(size, 4);
	ck_assert_mem_eq(defaults, "\x2a\0\0\0", 4);
	/* Cached: the pages are unreadable again. */
	ck_assert_int_eq(devimg_image_spec_consts(img, &consts, &n, NULL,
						  NULL), 0);
	ck_assert_int_eq(devimg_image_propsets(img, &sets, &n), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq((const char *)sets[2].props[0].data, "text");
	__sycl_unregister_lib(&g.f.desc);
	devimg_image_unref(img);
	guarded_free(&g);
}
END_TEST

static Suite *lazy_suite(void)
{
	Suite *s = suite_create("lazy");
	TCase *tc = tcase_create("prot_none");

	tcase_add_test(tc, test_register_unregister_never_reads_bytes);
	tcase_add_test(tc, test_format_guessed_on_first_use_then_cached);
	tcase_add_test(tc, test_format_guess_after_unregistration_is_stale);
	tcase_add_test(tc, test_values_decoded_on_first_use_then_cached);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(lazy_suite());
}
