/* SPDX-License-Identifier: MIT */
/* Helpers shared by the props unit tests. */
#ifndef DEVIMG_TESTS_PROPS_TESTUTIL_H
#define DEVIMG_TESTS_PROPS_TESTUTIL_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "props.h"

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

static inline void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static inline void put_le64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

#endif
