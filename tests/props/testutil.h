/* SPDX-License-Identifier: MIT */
/* Helpers shared by the props unit tests. */
#ifndef DEVIMG_TESTS_PROPS_TESTUTIL_H
#define DEVIMG_TESTS_PROPS_TESTUTIL_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "props/props.h"
#include "util/le.h"

#define ck_assert_err_has(err, sub)                                         \
	ck_assert_msg(strstr((err).msg, (sub)) != NULL,                     \
		      "error message '%s' lacks '%s'", (err).msg, (sub))

/* Text from a string literal, without its NUL (parsers must not need one). */
#define TEXT(lit) (lit), (sizeof(lit) - 1)

static inline int run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
