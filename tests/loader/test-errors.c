// SPDX-License-Identifier: MIT
/*
 * One error channel: each exported function's failures that need no
 * device return the documented negative errno (NULL where that is the
 * contract) and set the calling thread's devimg_last_error() to a message
 * naming what failed, replacing the one of an earlier failure; successful
 * calls leave the message alone. Also: plugin trace lines reach the
 * caller's log function.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/loader/fixture.h"

#define SET_PARAM_OPT "SYCL/kernel param opt"
#define SET_META "SYCL/program metadata"
#define SET_REQS "SYCL/device requirements"
#define SET_SPEC "SYCL/specialization constants"

static struct fixture f, gone;
/* Image 0 ("k"): malformed launch metadata and spec constants. */
static struct devimg_image *bad;
/* Image 1 ("k2"): one well-formed spec constant "S" of 4 bytes. */
static struct devimg_image *good;
/* An image whose descriptor was unregistered. */
static struct devimg_image *stale;
static struct devimg_spec_values *values;
/* What the message must mention, written by the call. */
static char subject[160];

static const struct devimg_device_caps ocl_cpu = {
	.size = sizeof(ocl_cpu), .backend = DEVIMG_BACKEND_OPENCL,
	.type = DEVIMG_DEVICE_CPU, .spirv = 1, .spir = 1,
};
static const struct devimg_device_caps cuda_gpu = {
	.size = sizeof(cuda_gpu), .backend = DEVIMG_BACKEND_CUDA,
	.type = DEVIMG_DEVICE_GPU, .cuda_cc = 80,
};

static struct devimg_image *first_of(const char *kernel)
{
	struct devimg_image *img = NULL;
	size_t n;

	ck_assert_int_eq(devimg_registry_find_kernel(kernel, &img, 1, &n), 0);
	return img;
}

static void setup(void)
{
	static const uint32_t leaf[] = { 7, 0, 4 };
	unsigned i, s;

	fx_init(&f);
	i = fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, fx_spirv,
		     sizeof(fx_spirv));
	fx_entry(&f, i, "k");
	s = fx_set(&f, i, SET_PARAM_OPT);
	fx_u32(&f, i, s, "k", 1);
	s = fx_set(&f, i, SET_META);
	fx_u32(&f, i, s, "k@reqd_work_group_size", 1);
	s = fx_set(&f, i, SET_REQS);
	fx_u32(&f, i, s, "aspects", 1);
	s = fx_set(&f, i, SET_SPEC);
	fx_u32(&f, i, s, "BadConst", 1);
	i = fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, fx_spirv,
		     sizeof(fx_spirv));
	fx_entry(&f, i, "k2");
	s = fx_set(&f, i, SET_SPEC);
	fx_spec(&f, i, s, "S", leaf, 1);
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_registry_status(), 0);
	bad = first_of("k");
	good = first_of("k2");
	ck_assert_int_eq(devimg_spec_values_new(good, &values), 0);

	fx_init(&gone);
	i = fx_image(&gone, "spir64", DEVIMG_FORMAT_SPIRV, fx_spirv,
		     sizeof(fx_spirv));
	fx_entry(&gone, i, "k_gone");
	__sycl_register_lib(&gone.desc);
	stale = first_of("k_gone");
	__sycl_unregister_lib(&gone.desc);
}

static void teardown(void)
{
	devimg_spec_values_unref(values);
	devimg_image_unref(stale);
	devimg_image_unref(good);
	devimg_image_unref(bad);
	__sycl_unregister_lib(&f.desc);
	fx_fini(&gone);
	fx_fini(&f);
}

static void about(const char *what)
{
	snprintf(subject, sizeof(subject), "%s", what);
}

/* "image <id of img><rest>" */
static void about_id(const struct devimg_image *img, const char *rest)
{
	snprintf(subject, sizeof(subject), "image %llu%s",
		 (unsigned long long)devimg_image_id(img), rest);
}

/* ---- the calls: each returns what the function did, as an errno ---- */

static int c_problem(void)
{
	about("registry problem 99");
	return devimg_registry_problem(99, NULL, NULL, 0);
}

static int c_images_null(void)
{
	about("devimg_registry_images");
	return devimg_registry_images(NULL, 0, NULL);
}

static int c_find_kernel_unknown(void)
{
	struct devimg_image *img;
	size_t n;

	about("'no_such_kernel'");
	return devimg_registry_find_kernel("no_such_kernel", &img, 1, &n);
}

static int c_find_kernel_null(void)
{
	size_t n;

	about("devimg_registry_find_kernel");
	return devimg_registry_find_kernel(NULL, NULL, 0, &n);
}

static int c_bin_null(void)
{
	about("devimg_image_bin");
	return devimg_image_bin(NULL, NULL, NULL);
}

/* An unregistered image's bytes (0), their copy (1), its manifest (2). */
static int stale_call(int op)
{
	const void *bytes;
	void *copy;
	size_t n;

	about_id(stale, " (index 0): no longer registered");
	if (op == 0)
		return devimg_image_bin(stale, &bytes, &n);
	if (op == 1)
		return devimg_image_bin_copy(stale, &copy, &n);
	return devimg_image_manifest(stale, &bytes, &n);
}

static int c_bin_stale(void)
{
	return stale_call(0);
}

static int c_bin_copy_stale(void)
{
	return stale_call(1);
}

static int c_manifest_stale(void)
{
	return stale_call(2);
}

static int c_propsets_stale(void)
{
	const struct devimg_propset_info *sets;
	size_t n;

	about_id(stale, " (index 0): no longer registered");
	return devimg_image_propsets(stale, &sets, &n);
}

static int c_entry_name_range(void)
{
	about_id(bad, " (index 0): no entry 5");
	return devimg_image_entry_name(bad, 5) ? 0 : -ERANGE;
}

static int c_propsets_null(void)
{
	about("devimg_image_propsets");
	return devimg_image_propsets(NULL, NULL, NULL);
}

static int c_find_property_set(void)
{
	const struct devimg_property_info *p;

	about("no property set 'No/such set'");
	return devimg_image_find_property(bad, "No/such set", "x", &p);
}

static int c_find_property_name(void)
{
	const struct devimg_property_info *p;

	about("set '" SET_PARAM_OPT "' has no property 'nope'");
	return devimg_image_find_property(bad, SET_PARAM_OPT, "nope", &p);
}

static int c_arg_mask_type(void)
{
	const unsigned char *mask;
	size_t n;

	about("set '" SET_PARAM_OPT "' property 'k': type 1");
	return devimg_image_kernel_arg_mask(bad, "k", &mask, &n);
}

static int c_arg_mask_absent(void)
{
	const unsigned char *mask;
	size_t n;

	about("no property set '" SET_PARAM_OPT "' (property 'k2')");
	return devimg_image_kernel_arg_mask(good, "k2", &mask, &n);
}

static int c_reqd_wg_type(void)
{
	unsigned dims;
	size_t size[3];

	about("property 'k@reqd_work_group_size': type 1");
	return devimg_image_reqd_work_group_size(bad, "k", &dims, size);
}

static int c_reqd_wg_absent(void)
{
	unsigned dims;
	size_t size[3];

	about("kernel 'k2' has no required work-group size");
	return devimg_image_reqd_work_group_size(good, "k2", &dims, size);
}

static int c_requirements_type(void)
{
	struct devimg_image_reqs reqs = { .size = sizeof(reqs) };

	about("set '" SET_REQS "' property 'aspects': type 1");
	return devimg_image_requirements(bad, &reqs);
}

static int c_requirements_null(void)
{
	about("devimg_image_requirements");
	return devimg_image_requirements(bad, NULL);
}

static int c_spec_consts_type(void)
{
	about("property 'BadConst': type 1");
	return devimg_image_spec_consts(bad, NULL, NULL, NULL, NULL);
}

static int c_spec_values_new_type(void)
{
	struct devimg_spec_values *v = NULL;
	int r;

	about("property 'BadConst': type 1");
	r = devimg_spec_values_new(bad, &v);
	devimg_spec_values_unref(v);
	return r;
}

static int c_spec_values_set_unknown(void)
{
	uint32_t x = 1;

	about("no spec constant 'Nope'");
	return devimg_spec_values_set(values, "Nope", sizeof(x), &x);
}

static int c_spec_values_set_size(void)
{
	uint64_t x = 1;

	about("spec constant 'S'");
	return devimg_spec_values_set(values, "S", sizeof(x), &x);
}

static int c_spec_values_native_null(void)
{
	about("devimg_spec_values_native");
	return devimg_spec_values_native(NULL, NULL, NULL);
}

static int c_spec_values_buffer_null(void)
{
	about("devimg_spec_values_buffer");
	return devimg_spec_values_buffer(NULL, NULL, NULL);
}

static int c_guess_format_null(void)
{
	about("devimg_image_guess_format");
	return devimg_image_guess_format(NULL, NULL);
}

static int c_select_null(void)
{
	size_t chosen;

	about("devimg_select_image_with");
	return devimg_select_image(NULL, &bad, 1, &chosen, NULL);
}

static int c_select_none_fits(void)
{
	size_t chosen;

	about("none of 1 images fits the cuda device");
	return devimg_select_image(&cuda_gpu, &bad, 1, &chosen, NULL);
}

static int c_device_caps_null(void)
{
	about("devimg_device_caps");
	return devimg_device_caps(NULL, NULL);
}

static int c_device_features_null(void)
{
	about("devimg_device_features");
	return devimg_device_features(NULL, NULL);
}

static int c_device_get_null(void)
{
	about("devimg_device_get");
	return devimg_device_get(NULL, 0) ? 0 : -EINVAL;
}

static int c_bundle_image_null(void)
{
	about("NULL bundle");
	return devimg_bundle_image(NULL, 0) ? 0 : -EINVAL;
}

static int c_queue_new_null(void)
{
	about("devimg_queue_new");
	return devimg_queue_new(NULL, NULL);
}

static int c_kernel_new_null(void)
{
	about("devimg_kernel_new");
	return devimg_kernel_new(NULL, "k", NULL);
}

static struct call {
	const char *name;
	int (*call)(void);
	int err;
} calls[] = {
	{ "devimg_registry_problem", c_problem, -ENOENT },
	{ "devimg_registry_images", c_images_null, -EINVAL },
	{ "devimg_registry_find_kernel", c_find_kernel_unknown, -ENOENT },
	{ "devimg_registry_find_kernel", c_find_kernel_null, -EINVAL },
	{ "devimg_image_bin", c_bin_null, -EINVAL },
	{ "devimg_image_bin", c_bin_stale, -ESTALE },
	{ "devimg_image_bin_copy", c_bin_copy_stale, -ESTALE },
	{ "devimg_image_manifest", c_manifest_stale, -ESTALE },
	{ "devimg_image_propsets", c_propsets_stale, -ESTALE },
	{ "devimg_image_entry_name", c_entry_name_range, -ERANGE },
	{ "devimg_image_propsets", c_propsets_null, -EINVAL },
	{ "devimg_image_find_property", c_find_property_set, -ENOENT },
	{ "devimg_image_find_property", c_find_property_name, -ENOENT },
	{ "devimg_image_kernel_arg_mask", c_arg_mask_type, -EINVAL },
	{ "devimg_image_kernel_arg_mask", c_arg_mask_absent, -ENOENT },
	{ "devimg_image_reqd_work_group_size", c_reqd_wg_type, -EINVAL },
	{ "devimg_image_reqd_work_group_size", c_reqd_wg_absent, -ENOENT },
	{ "devimg_image_requirements", c_requirements_type, -EINVAL },
	{ "devimg_image_requirements", c_requirements_null, -EINVAL },
	{ "devimg_image_spec_consts", c_spec_consts_type, -EINVAL },
	{ "devimg_spec_values_new", c_spec_values_new_type, -EINVAL },
	{ "devimg_spec_values_set", c_spec_values_set_unknown, -ENOENT },
	{ "devimg_spec_values_set", c_spec_values_set_size, -EINVAL },
	{ "devimg_spec_values_native", c_spec_values_native_null, -EINVAL },
	{ "devimg_spec_values_buffer", c_spec_values_buffer_null, -EINVAL },
	{ "devimg_image_guess_format", c_guess_format_null, -EINVAL },
	{ "devimg_select_image", c_select_null, -EINVAL },
	{ "devimg_select_image", c_select_none_fits, -ENOEXEC },
	{ "devimg_device_caps", c_device_caps_null, -EINVAL },
	{ "devimg_device_features", c_device_features_null, -EINVAL },
	{ "devimg_device_get", c_device_get_null, -EINVAL },
	{ "devimg_bundle_image", c_bundle_image_null, -EINVAL },
	{ "devimg_queue_new", c_queue_new_null, -EINVAL },
	{ "devimg_kernel_new", c_kernel_new_null, -EINVAL },
};

/* A failure of another function, whose message each call must replace. */
static void sentinel(void)
{
	ck_assert_int_eq(devimg_ctx_new(NULL), -EINVAL);
	ck_assert_has(devimg_last_error(), "devimg_ctx_new");
}

START_TEST(test_failure_sets_message)
{
	const struct call *c = &calls[_i];
	char before[512];
	int r;

	sentinel();
	snprintf(before, sizeof(before), "%s", devimg_last_error());
	r = c->call();
	ck_assert_msg(r == c->err, "%s (case %d): returned %d (%s), expected %d (%s)",
		      c->name, _i, r, devimg_strerror(r), c->err,
		      devimg_strerror(c->err));
	ck_assert_msg(strcmp(devimg_last_error(), before) != 0,
		      "%s (case %d): devimg_last_error() still '%s'", c->name,
		      _i, before);
	ck_assert_msg(devimg_last_error()[0] != '\0',
		      "%s (case %d): empty message", c->name, _i);
	ck_assert_msg(strstr(devimg_last_error(), subject) != NULL,
		      "%s (case %d): '%s' does not mention '%s'", c->name, _i,
		      devimg_last_error(), subject);
}
END_TEST

/* Successful calls, some of which fail inside, leave the message alone. */
START_TEST(test_success_keeps_message)
{
	const struct devimg_propset_info *sets;
	const struct devimg_property_info *p;
	struct devimg_image *img;
	char before[512];
	uint32_t x = 5;
	size_t n, chosen;

	sentinel();
	snprintf(before, sizeof(before), "%s", devimg_last_error());
	ck_assert_int_eq(devimg_registry_find_kernel("k", &img, 1, &n), 0);
	devimg_image_unref(img);
	ck_assert_int_eq(devimg_image_propsets(bad, &sets, &n), 0);
	ck_assert_int_eq(devimg_image_find_property(bad, SET_META,
						    "k@reqd_work_group_size",
						    &p),
			 0);
	ck_assert_int_eq(devimg_spec_values_set(values, "S", sizeof(x), &x),
			 0);
	ck_assert_ptr_nonnull(devimg_image_entry_name(good, 0));
	/* Image 0's requirements are unreadable: a reason, not a failure. */
	ck_assert_int_eq(devimg_select_image(&ocl_cpu, &good, 1, &chosen,
					     NULL),
			 0);
	ck_assert_str_eq(devimg_last_error(), before);
}
END_TEST

/* __sycl_register_lib() and __sycl_unregister_lib() return nothing. */
START_TEST(test_register_failure_sets_message)
{
	struct fixture r;
	char want[64];

	fx_init(&r);
	fx_image(&r, "spir64", 9, fx_spirv, sizeof(fx_spirv));
	sentinel();
	__sycl_register_lib(&r.desc);
	ck_assert_has(devimg_last_error(), "rejected: descriptor");
	ck_assert_has(devimg_last_error(), "format 9 unknown");
	sentinel();
	__sycl_unregister_lib(&r.desc);
	snprintf(want, sizeof(want), "descriptor %p is not registered",
		 (void *)&r.desc);
	ck_assert_has(devimg_last_error(), want);
	sentinel();
	__sycl_register_lib(&f.desc);
	ck_assert_has(devimg_last_error(), "is registered already");
	fx_fini(&r);
}
END_TEST

static char trace_log[16384];

static void capture(void *data, int priority, const char *file, int line,
		    const char *fn, const char *format, va_list args)
{
	size_t n = strlen(trace_log);

	(void)data;
	(void)priority;
	(void)file;
	(void)line;
	(void)fn;
	if (n + 1 < sizeof(trace_log)) {
		vsnprintf(trace_log + n, sizeof(trace_log) - n - 1, format,
			  args);
		strcat(trace_log, "\n");
	}
}

/* DEVIMG_TRACE=1: plugin discovery reaches the caller's log function. */
START_TEST(test_plugin_trace_through_log)
{
	struct devimg_ctx *ctx = NULL;

	setenv("DEVIMG_TRACE", "1", 1);
	setenv("DEVIMG_PLUGIN_PATH", PLUGIN_DIR, 1);
	setenv("DEVIMG_DEVICE_SELECTOR", "!*:*", 1);
	devimg_set_log_fn(capture, NULL);
	ck_assert_int_eq(devimg_get_log_priority(), DEVIMG_LOG_INFO);
	ck_assert_int_eq(devimg_ctx_new(&ctx), 0);
	devimg_ctx_unref(ctx);
	devimg_set_log_fn(NULL, NULL);
	ck_assert_has(trace_log, "plugins: searching " PLUGIN_DIR);
	ck_assert_has(trace_log, " bound\n");
}
END_TEST

static Suite *errors_suite(void)
{
	Suite *s = suite_create("errors");
	TCase *tc = tcase_create("errors");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_failure_sets_message, 0,
			    (int)(sizeof(calls) / sizeof(calls[0])));
	tcase_add_test(tc, test_success_keeps_message);
	tcase_add_test(tc, test_register_failure_sets_message);
	suite_add_tcase(s, tc);
	tc = tcase_create("trace");
	tcase_add_test(tc, test_plugin_trace_through_log);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(errors_suite());
}
