// SPDX-License-Identifier: MIT
/*
 * DEVIMG_DEVICE_SELECTOR grammar: every term form, discarding terms, and
 * errors that name the column of the bad term.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loader/backend/device-selector.h"

#define CPU DEVIMG_PLUGIN_DEVICE_CPU
#define GPU DEVIMG_PLUGIN_DEVICE_GPU
#define ACC DEVIMG_PLUGIN_DEVICE_ACCELERATOR

static struct devimg_selector *parse_ok(const char *text)
{
	struct devimg_selector_error err;
	struct devimg_selector *sel = NULL;
	int rc = devimg_selector_parse(text, &sel, &err);

	ck_assert_msg(rc == 0, "'%s': %d %s", text, rc, err.msg);
	ck_assert_ptr_nonnull(sel);
	return sel;
}

/* Parse text, which must fail at column col with a message holding what. */
static void parse_bad(const char *text, size_t col, const char *what)
{
	struct devimg_selector_error err;
	struct devimg_selector *sel = NULL;
	int rc = devimg_selector_parse(text, &sel, &err);

	ck_assert_msg(rc == -EINVAL, "'%s' parsed (rc %d)", text, rc);
	ck_assert_ptr_null(sel);
	ck_assert_msg(err.pos + 1 == col, "'%s': column %zu, expected %zu: %s",
		      text, err.pos + 1, col, err.msg);
	ck_assert_msg(strstr(err.msg, what), "'%s': message '%s' lacks '%s'",
		      text, err.msg, what);
}

START_TEST(empty_selects_every_root_device)
{
	struct devimg_selector *sel = parse_ok("");

	ck_assert(devimg_selector_keep(sel, "opencl", 0, CPU));
	ck_assert(devimg_selector_keep(sel, "cuda", 3, GPU));
	ck_assert(!devimg_selector_keep_sub(sel, "cuda", 3, 0, GPU));
	devimg_selector_free(sel);
	sel = parse_ok(NULL);
	ck_assert(devimg_selector_keep(sel, "level_zero", 1, GPU));
	devimg_selector_free(sel);
	ck_assert(devimg_selector_keep(NULL, "hip", 0, GPU));
}
END_TEST

START_TEST(backend_wildcard)
{
	struct devimg_selector *sel = parse_ok("opencl:*");

	ck_assert(devimg_selector_keep(sel, "opencl", 0, CPU));
	ck_assert(devimg_selector_keep(sel, "opencl", 7, GPU));
	ck_assert(!devimg_selector_keep(sel, "cuda", 0, GPU));
	ck_assert(!devimg_selector_keep(sel, "level_zero", 0, GPU));
	devimg_selector_free(sel);

	sel = parse_ok("*:*");
	ck_assert(devimg_selector_keep(sel, "cuda", 0, GPU));
	ck_assert(devimg_selector_keep(sel, "hip", 0, GPU));
	devimg_selector_free(sel);
}
END_TEST

START_TEST(device_types)
{
	struct devimg_selector *sel = parse_ok("opencl:cpu;*:gpu;level_zero:fpga");

	ck_assert(devimg_selector_keep(sel, "opencl", 0, CPU));
	ck_assert(!devimg_selector_keep(sel, "opencl", 1, ACC));
	ck_assert(devimg_selector_keep(sel, "opencl", 2, GPU));
	ck_assert(devimg_selector_keep(sel, "cuda", 0, GPU));
	ck_assert(!devimg_selector_keep(sel, "cuda", 1, CPU));
	ck_assert(devimg_selector_keep(sel, "level_zero", 0, ACC));
	ck_assert(!devimg_selector_keep(sel, "level_zero", 0,
					DEVIMG_PLUGIN_DEVICE_OTHER));
	devimg_selector_free(sel);
}
END_TEST

START_TEST(device_numbers_and_lists)
{
	struct devimg_selector *sel = parse_ok("cuda:0,2;opencl:gpu,1");

	ck_assert(devimg_selector_keep(sel, "cuda", 0, GPU));
	ck_assert(!devimg_selector_keep(sel, "cuda", 1, GPU));
	ck_assert(devimg_selector_keep(sel, "cuda", 2, GPU));
	ck_assert(devimg_selector_keep(sel, "opencl", 0, GPU));
	ck_assert(devimg_selector_keep(sel, "opencl", 1, CPU));
	ck_assert(!devimg_selector_keep(sel, "opencl", 2, CPU));
	devimg_selector_free(sel);
}
END_TEST

START_TEST(case_insensitive_names)
{
	struct devimg_selector *sel = parse_ok("OpenCL:GPU;CUDA:*");

	ck_assert(devimg_selector_keep(sel, "opencl", 0, GPU));
	ck_assert(!devimg_selector_keep(sel, "opencl", 0, CPU));
	ck_assert(devimg_selector_keep(sel, "cuda", 4, GPU));
	devimg_selector_free(sel);
}
END_TEST

START_TEST(sub_devices)
{
	struct devimg_selector *sel = parse_ok("level_zero:0.1,1.*");

	ck_assert(!devimg_selector_keep(sel, "level_zero", 0, GPU));
	ck_assert(devimg_selector_keep_sub(sel, "level_zero", 0, 1, GPU));
	ck_assert(!devimg_selector_keep_sub(sel, "level_zero", 0, 0, GPU));
	ck_assert(devimg_selector_keep_sub(sel, "level_zero", 1, 0, GPU));
	ck_assert(devimg_selector_keep_sub(sel, "level_zero", 1, 5, GPU));
	ck_assert(!devimg_selector_keep(sel, "level_zero", 1, GPU));
	ck_assert(devimg_selector_wants_sub_devices(sel, "level_zero", 0));
	ck_assert(devimg_selector_wants_sub_devices(sel, "level_zero", 1));
	ck_assert(!devimg_selector_wants_sub_devices(sel, "level_zero", 2));
	ck_assert(!devimg_selector_wants_sub_devices(sel, "opencl", 0));
	devimg_selector_free(sel);

	sel = parse_ok("*:*.*");
	ck_assert(devimg_selector_keep_sub(sel, "cuda", 9, 2, GPU));
	ck_assert(!devimg_selector_keep(sel, "cuda", 9, GPU));
	ck_assert(devimg_selector_wants_sub_devices(sel, "opencl", 3));
	devimg_selector_free(sel);
}
END_TEST

START_TEST(discarding_terms_come_last_and_win)
{
	struct devimg_selector *sel = parse_ok("opencl:*;!opencl:gpu");

	ck_assert(devimg_selector_keep(sel, "opencl", 0, CPU));
	ck_assert(!devimg_selector_keep(sel, "opencl", 1, GPU));
	ck_assert(!devimg_selector_keep(sel, "cuda", 0, GPU));
	devimg_selector_free(sel);

	sel = parse_ok("*:*;!cuda:1;!level_zero:*");
	ck_assert(devimg_selector_keep(sel, "cuda", 0, GPU));
	ck_assert(!devimg_selector_keep(sel, "cuda", 1, GPU));
	ck_assert(!devimg_selector_keep(sel, "level_zero", 0, GPU));
	ck_assert(devimg_selector_keep(sel, "opencl", 0, CPU));
	devimg_selector_free(sel);
}
END_TEST

START_TEST(discarding_terms_alone_start_from_everything)
{
	struct devimg_selector *sel = parse_ok("!*:cpu");

	ck_assert(!devimg_selector_keep(sel, "opencl", 0, CPU));
	ck_assert(devimg_selector_keep(sel, "opencl", 1, GPU));
	ck_assert(devimg_selector_keep(sel, "cuda", 0, GPU));
	devimg_selector_free(sel);

	sel = parse_ok("!opencl:*");
	ck_assert(!devimg_selector_keep(sel, "opencl", 0, GPU));
	ck_assert(devimg_selector_keep(sel, "level_zero", 0, GPU));
	devimg_selector_free(sel);
}
END_TEST

START_TEST(unknown_device_backend_matches_only_wildcard)
{
	struct devimg_selector *sel = parse_ok("opencl:*");

	ck_assert(!devimg_selector_keep(sel, "hip", 0, GPU));
	ck_assert(!devimg_selector_keep(sel, NULL, 0, GPU));
	devimg_selector_free(sel);
}
END_TEST

/* Whether backend may keep a device under text (NULL: no selector). */
static bool may_keep(const char *text, const char *backend)
{
	struct devimg_selector *sel = text ? parse_ok(text) : NULL;
	bool may = devimg_selector_may_keep_backend(sel, backend);

	devimg_selector_free(sel);
	return may;
}

START_TEST(backends_no_term_can_match)
{
	/* Accepting terms: only the backends they name, or all for "*". */
	ck_assert(may_keep("cuda:0", "cuda"));
	ck_assert(!may_keep("cuda:0", "opencl"));
	ck_assert(!may_keep("cuda:0", "level_zero"));
	ck_assert(may_keep("cuda:0;opencl:cpu", "opencl"));
	ck_assert(may_keep("CUDA:gpu", "cuda"));
	ck_assert(may_keep("cuda:0", "CUDA"));
	ck_assert(may_keep("*:gpu", "opencl"));
	ck_assert(may_keep("opencl:0.1", "opencl"));
	ck_assert(may_keep("*:*.*", "cuda"));
	/* A discarding term does not open a backend the others close. */
	ck_assert(!may_keep("cuda:*;!opencl:cpu", "opencl"));
	ck_assert(!may_keep("cuda:*;!*:cpu", "opencl"));
	/* Discarding terms alone: closed only when every root is dropped. */
	ck_assert(!may_keep("!cuda:*", "cuda"));
	ck_assert(may_keep("!cuda:*", "opencl"));
	ck_assert(!may_keep("!*:*", "level_zero"));
	ck_assert(may_keep("!cuda:0", "cuda"));
	ck_assert(may_keep("!cuda:gpu", "cuda"));
	ck_assert(may_keep("!cuda:0.*", "cuda"));
	/* No selector, an empty one, a name outside the grammar: open. */
	ck_assert(may_keep(NULL, "cuda"));
	ck_assert(may_keep("", "cuda"));
	ck_assert(may_keep("cuda:0", "fake"));
	ck_assert(may_keep("cuda:0", NULL));
}
END_TEST

START_TEST(errors_name_the_column)
{
	parse_bad("ocl:gpu", 1, "unknown backend 'ocl'");
	parse_bad("opencl", 1, "missing ':' in term 'opencl' (try 'opencl:*')");
	parse_bad("opencl:gpu;cuda", 12, "missing ':'");
	parse_bad(":gpu", 1, "missing backend");
	parse_bad("opencl:", 8, "no devices after ':'");
	parse_bad("opencl:gpux", 8, "unknown device 'gpux'");
	parse_bad("opencl:0,,1", 10, "empty device");
	parse_bad("opencl:0,", 10, "empty device");
	parse_bad("opencl:gpu:0", 11, "too many ':'");
	parse_bad("opencl:gpu;;cuda:*", 12, "empty term");
	parse_bad("opencl:gpu;", 12, "empty term");
	parse_bad("!opencl:gpu;cuda:*", 13, "after a discarding term");
	parse_bad("!:gpu", 2, "missing backend");
	parse_bad("!!opencl:gpu", 2, "unknown backend '!opencl'");
	parse_bad("cuda:gpu.0", 6, "need a device number, not the type 'gpu'");
	parse_bad("cuda:*.1", 6, "needs a device number, not '*'");
	parse_bad("cuda:0.x", 8, "bad sub-device 'x'");
	parse_bad("cuda:0.", 8, "bad sub-device ''");
	parse_bad("cuda:0.1.2", 9, "only one level of sub-devices");
	parse_bad("cuda:-1", 6, "unknown device '-1'");
	parse_bad("cuda:99999999999", 6, "too large");
	parse_bad("opencl: gpu", 8, "unknown device ' gpu'");
}
END_TEST

START_TEST(error_without_report_still_fails)
{
	struct devimg_selector *sel = NULL;

	ck_assert_int_eq(devimg_selector_parse("bad", &sel, NULL), -EINVAL);
	ck_assert_ptr_null(sel);
}
END_TEST

static Suite *selector_suite(void)
{
	Suite *s = suite_create("selector");
	TCase *tc = tcase_create("grammar");

	tcase_add_test(tc, empty_selects_every_root_device);
	tcase_add_test(tc, backend_wildcard);
	tcase_add_test(tc, device_types);
	tcase_add_test(tc, device_numbers_and_lists);
	tcase_add_test(tc, case_insensitive_names);
	tcase_add_test(tc, sub_devices);
	tcase_add_test(tc, discarding_terms_come_last_and_win);
	tcase_add_test(tc, discarding_terms_alone_start_from_everything);
	tcase_add_test(tc, unknown_device_backend_matches_only_wildcard);
	tcase_add_test(tc, backends_no_term_can_match);
	tcase_add_test(tc, errors_name_the_column);
	tcase_add_test(tc, error_without_report_still_fails);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(selector_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
