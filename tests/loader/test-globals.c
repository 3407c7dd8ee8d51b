// SPDX-License-Identifier: MIT
/*
 * Device-global records of the registry: what devimg_global_find() gives
 * for the "SYCL/device globals" sets of hand-built descriptors (values
 * laid out as sycl-post-link writes them: the 64-bit bit count, then the
 * uint32 size and the uint32 device_image_scope flag), host-address
 * ties, unloading, and values that cannot be used.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tests/loader/fixture.h"
#include "loader/registry/device-globals.h"

#define SET "SYCL/device globals"

/* One SPIR-V image of target defining the ids with their sizes and scopes. */
static unsigned fx_global_image(struct fixture *f, const char *target,
				const char *const *ids, const uint32_t *sizes,
				const uint32_t *scopes, unsigned n)
{
	unsigned img = fx_image(f, target, DEVIMG_FORMAT_SPIRV, fx_spirv,
				sizeof(fx_spirv));
	unsigned set = fx_set(f, img, SET), i;

	fx_entry(f, img, "k");
	for (i = 0; i < n; i++)
		fx_global(f, img, set, ids[i], sizes[i], scopes[i]);
	return img;
}

START_TEST(find_gives_size_and_scope)
{
	static const char *const ids[] = { "uid_a", "uid_b" };
	static const uint32_t sizes[] = { 16, 4 }, scopes[] = { 0, 1 };
	const struct devimg_global *a, *b;
	struct fixture f;

	fx_init(&f);
	fx_global_image(&f, "spir64", ids, sizes, scopes, 2);
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_global_find("uid_a", &a), 0);
	ck_assert_int_eq(devimg_global_find("uid_b", &b), 0);
	ck_assert_str_eq(devimg_global_id(a), "uid_a");
	ck_assert_uint_eq(devimg_global_size(a), 16);
	ck_assert_int_eq(devimg_global_image_scope(a), 0);
	ck_assert_uint_eq(devimg_global_size(b), 4);
	ck_assert_int_eq(devimg_global_image_scope(b), 1);
	ck_assert_uint_eq(devimg_global_size(NULL), 0);
	ck_assert_int_eq(devimg_global_find("uid_c", &a), -ENOENT);
	ck_assert_str_eq(devimg_last_error(),
			 "no registered image defines device global 'uid_c'");
	ck_assert_int_eq(devimg_global_find(NULL, &a), -EINVAL);
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
}
END_TEST

START_TEST(images_defining_one_id_share_its_record)
{
	static const char *const ids[] = { "uid_s" };
	static const uint32_t sizes[] = { 8 }, scopes[] = { 1 };
	struct devimg_image **imgs;
	const struct devimg_global *g, *again;
	struct fixture f1, f2;
	size_t n;

	fx_init(&f1);
	fx_init(&f2);
	fx_global_image(&f1, "spir64", ids, sizes, scopes, 1);
	fx_global_image(&f2, "spir64_x86_64", ids, sizes, scopes, 1);
	__sycl_register_lib(&f1.desc);
	__sycl_register_lib(&f2.desc);
	ck_assert_int_eq(devimg_global_find("uid_s", &g), 0);
	ck_assert_int_eq(globals_defs(g, &imgs, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(devimg_image_target(imgs[0]), "spir64");
	ck_assert_str_eq(devimg_image_target(imgs[1]), "spir64_x86_64");
	images_drop(imgs, n);
	__sycl_unregister_lib(&f1.desc);
	ck_assert_int_eq(devimg_global_find("uid_s", &again), 0);
	ck_assert_ptr_eq(again, g);
	ck_assert_int_eq(globals_defs(g, &imgs, &n), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(devimg_image_target(imgs[0]), "spir64_x86_64");
	images_drop(imgs, n);
	__sycl_unregister_lib(&f2.desc);
	fx_fini(&f1);
	fx_fini(&f2);
}
END_TEST

START_TEST(unloading_keeps_the_record_but_not_the_id)
{
	static const char *const ids[] = { "uid_u" };
	static const uint32_t sizes[] = { 12 }, scopes[] = { 0 };
	const struct devimg_global *g, *again;
	struct devimg_image **imgs;
	struct fixture f;
	size_t n;

	fx_init(&f);
	fx_global_image(&f, "spir64", ids, sizes, scopes, 1);
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_global_find("uid_u", &g), 0);
	__sycl_unregister_lib(&f.desc);
	ck_assert_int_eq(devimg_global_find("uid_u", &again), -ENOENT);
	/* The caller's pointer stays valid: the record lives on. */
	ck_assert_str_eq(devimg_global_id(g), "uid_u");
	ck_assert_uint_eq(devimg_global_size(g), 12);
	ck_assert_int_eq(globals_defs(g, &imgs, &n), -ENOENT);
	ck_assert_str_eq(devimg_last_error(),
			 "no registered image defines device global 'uid_u'");
	/* Loaded again, the id comes back to the same record. */
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_global_find("uid_u", &again), 0);
	ck_assert_ptr_eq(again, g);
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
}
END_TEST

START_TEST(host_addresses_tie_to_ids)
{
	static const char *const ids[] = { "uid_h1", "uid_h2" };
	static const uint32_t sizes[] = { 4, 8 }, scopes[] = { 0, 0 };
	static int host_var, other_var;
	const struct devimg_global *g;
	struct fixture f;

	/* An integration footer ties before the library registers. */
	ck_assert_int_eq(devimg_global_bind_host(&host_var, "uid_h1"), 0);
	ck_assert_int_eq(devimg_global_find_host(&host_var, &g), -ENOENT);
	ck_assert_has(devimg_last_error(), "tied to device global 'uid_h1'");
	ck_assert_int_eq(devimg_global_find_host(&other_var, &g), -ENOENT);
	ck_assert_has(devimg_last_error(), "no device global is tied to host address");
	fx_init(&f);
	fx_global_image(&f, "spir64", ids, sizes, scopes, 2);
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_global_find_host(&host_var, &g), 0);
	ck_assert_str_eq(devimg_global_id(g), "uid_h1");
	/* A later tie of the same address replaces it. */
	ck_assert_int_eq(devimg_global_bind_host(&host_var, "uid_h2"), 0);
	ck_assert_int_eq(devimg_global_find_host(&host_var, &g), 0);
	ck_assert_str_eq(devimg_global_id(g), "uid_h2");
	ck_assert_uint_eq(devimg_global_size(g), 8);
	ck_assert_int_eq(devimg_global_bind_host(NULL, "uid_h2"), -EINVAL);
	ck_assert_int_eq(devimg_global_bind_host(&host_var, NULL), -EINVAL);
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
}
END_TEST

START_TEST(bad_values_are_logged_and_left_out)
{
	static const unsigned char short_value[4] = { 4 };
	const struct devimg_global *g;
	unsigned img, set;
	struct fixture f;

	fx_log_capture();
	fx_init(&f);
	img = fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, fx_spirv,
		       sizeof(fx_spirv));
	set = fx_set(&f, img, SET);
	fx_global(&f, img, set, "uid_ok", 4, 0);
	fx_bytes(&f, img, set, "uid_short", short_value, 32);
	fx_u32(&f, img, set, "uid_u32", 4);
	fx_global(&f, img, set, "uid_scope", 4, 7);
	__sycl_register_lib(&f.desc);
	/* Registration reads no value: nothing is logged before a request. */
	ck_assert_int_eq(devimg_registry_status(), 0);
	ck_assert_ptr_null(strstr(fx_log_text(), SET));
	ck_assert_int_eq(devimg_global_find("uid_ok", &g), 0);
	ck_assert_int_eq(devimg_global_find("uid_short", &g), -ENOENT);
	ck_assert_int_eq(devimg_global_find("uid_u32", &g), -ENOENT);
	ck_assert_int_eq(devimg_global_find("uid_scope", &g), -ENOENT);
	ck_assert_has(fx_log_text(),
		      "(index 0): set 'SYCL/device globals' property 'uid_short': ");
	ck_assert_has(fx_log_text(),
		      "(index 0): set 'SYCL/device globals' property 'uid_u32': type 1, expected 2 (byte array)");
	ck_assert_has(fx_log_text(),
		      "(index 0): set 'SYCL/device globals' property 'uid_scope': ");
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
	fx_log_release();
}
END_TEST

START_TEST(a_disagreeing_definition_is_refused)
{
	static const char *const ids[] = { "uid_d" };
	static const uint32_t four[] = { 4 }, eight[] = { 8 }, zero[] = { 0 };
	struct devimg_image **imgs;
	const struct devimg_global *g;
	struct fixture f;
	size_t n;

	fx_log_capture();
	fx_init(&f);
	fx_global_image(&f, "spir64", ids, four, zero, 1);
	fx_global_image(&f, "spir64_x86_64", ids, eight, zero, 1);
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_global_find("uid_d", &g), 0);
	ck_assert_uint_eq(devimg_global_size(g), 4);
	ck_assert_int_eq(globals_defs(g, &imgs, &n), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(devimg_image_target(imgs[0]), "spir64");
	images_drop(imgs, n);
	ck_assert_has(fx_log_text(),
		      "(index 1): set 'SYCL/device globals' property 'uid_d': 8 bytes, but image ");
	ck_assert_has(fx_log_text(), " defines it with 4 bytes; ignored");
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
	fx_log_release();
}
END_TEST

START_TEST(images_registered_later_are_read)
{
	static const char *const first[] = { "uid_1" }, *const second[] = {
		"uid_2"
	};
	static const uint32_t sizes[] = { 4 }, scopes[] = { 0 };
	const struct devimg_global *g;
	struct fixture f1, f2;

	fx_init(&f1);
	fx_init(&f2);
	fx_global_image(&f1, "spir64", first, sizes, scopes, 1);
	fx_global_image(&f2, "spir64", second, sizes, scopes, 1);
	__sycl_register_lib(&f1.desc);
	ck_assert_int_eq(devimg_global_find("uid_1", &g), 0);
	ck_assert_int_eq(devimg_global_find("uid_2", &g), -ENOENT);
	__sycl_register_lib(&f2.desc);
	ck_assert_int_eq(devimg_global_find("uid_2", &g), 0);
	__sycl_unregister_lib(&f2.desc);
	__sycl_unregister_lib(&f1.desc);
	fx_fini(&f1);
	fx_fini(&f2);
}
END_TEST

/* Ties and look-ups from several threads while a library comes and goes. */
#define THREADS 4
#define ROUNDS 200

static int thread_vars[THREADS][ROUNDS];

static void *tie_and_find(void *arg)
{
	int (*vars)[ROUNDS] = arg;
	const struct devimg_global *g;
	int i, r;

	for (i = 0; i < ROUNDS; i++) {
		if (devimg_global_bind_host(&(*vars)[i], "uid_t") < 0)
			return "bind failed";
		r = devimg_global_find_host(&(*vars)[i], &g);
		if (r == 0 && strcmp(devimg_global_id(g), "uid_t"))
			return "another record";
		if (r < 0 && r != -ENOENT)
			return "find failed";
	}
	return NULL;
}

START_TEST(ties_are_thread_safe)
{
	static const char *const ids[] = { "uid_t" };
	static const uint32_t sizes[] = { 4 }, scopes[] = { 0 };
	const struct devimg_global *g;
	pthread_t t[THREADS];
	struct fixture f;
	void *ret;
	int i;

	fx_init(&f);
	fx_global_image(&f, "spir64", ids, sizes, scopes, 1);
	for (i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, tie_and_find,
						thread_vars[i]), 0);
	for (i = 0; i < ROUNDS / 4; i++) {
		__sycl_register_lib(&f.desc);
		(void)devimg_global_find("uid_t", &g);
		__sycl_unregister_lib(&f.desc);
	}
	for (i = 0; i < THREADS; i++) {
		ck_assert_int_eq(pthread_join(t[i], &ret), 0);
		ck_assert_msg(ret == NULL, "thread %d: %s", i, (char *)ret);
	}
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_global_find_host(&thread_vars[0][ROUNDS - 1],
						 &g), 0);
	ck_assert_str_eq(devimg_global_id(g), "uid_t");
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
}
END_TEST

/*
 * The name a backend knows a global by: with mapping (CUDA), the one
 * "<id>@global_id_mapping" in "SYCL/program metadata" holds (a byte
 * array, as sycl-post-link writes it); without, or when the image has no
 * such property, the id. A property that holds no name is refused.
 */
START_TEST(global_id_mapping_names_the_variable)
{
	static const char *const ids[] = { "uid_m", "uid_n", "uid_bad" };
	static const uint32_t sizes[] = { 4, 4, 4 }, scopes[] = { 1, 1, 1 };
	const struct devimg_global *m, *n, *bad;
	struct devimg_image **imgs;
	struct fixture f;
	unsigned img, set;
	size_t count;
	char *name;

	fx_init(&f);
	img = fx_global_image(&f, "nvptx64", ids, sizes, scopes, 3);
	set = fx_set(&f, img, "SYCL/program metadata");
	fx_bytes(&f, img, set, "uid_m@global_id_mapping", "_ZL5dg_m", 64);
	fx_bytes(&f, img, set, "uid_bad@global_id_mapping", "a\0b", 24);
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_global_find("uid_m", &m), 0);
	ck_assert_int_eq(devimg_global_find("uid_n", &n), 0);
	ck_assert_int_eq(devimg_global_find("uid_bad", &bad), 0);
	ck_assert_int_eq(globals_defs(m, &imgs, &count), 0);
	ck_assert_uint_eq(count, 1);
	ck_assert_int_eq(globals_symbol(imgs[0], m, true, &name), 0);
	ck_assert_str_eq(name, "_ZL5dg_m");
	free(name);
	ck_assert_int_eq(globals_symbol(imgs[0], m, false, &name), 0);
	ck_assert_str_eq(name, "uid_m");
	free(name);
	ck_assert_int_eq(globals_symbol(imgs[0], n, true, &name), 0);
	ck_assert_str_eq(name, "uid_n");
	free(name);
	ck_assert_int_eq(globals_symbol(imgs[0], bad, true, &name), -EINVAL);
	ck_assert_ptr_nonnull(strstr(devimg_last_error(),
		"property 'uid_bad@global_id_mapping': not a byte array holding a name"));
	images_drop(imgs, count);
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
}
END_TEST

static Suite *globals_suite(void)
{
	Suite *s = suite_create("globals");
	TCase *tc = tcase_create("registry");

	tcase_add_test(tc, find_gives_size_and_scope);
	tcase_add_test(tc, images_defining_one_id_share_its_record);
	tcase_add_test(tc, unloading_keeps_the_record_but_not_the_id);
	tcase_add_test(tc, host_addresses_tie_to_ids);
	tcase_add_test(tc, bad_values_are_logged_and_left_out);
	tcase_add_test(tc, a_disagreeing_definition_is_refused);
	tcase_add_test(tc, images_registered_later_are_read);
	tcase_add_test(tc, ties_are_thread_safe);
	tcase_add_test(tc, global_id_mapping_names_the_variable);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(globals_suite());
}
