// SPDX-License-Identifier: MIT
/*
 * The .sym reader (props_sym_parse), checked against a reference split:
 * one name per line, "\n" or "\r\n" ends a line, empty lines skipped, a
 * NUL byte an error that names the input.
 */
#include <errno.h>

#include "fuzz/fuzz.h"
#include "props/props.h"
#include "util/errmsg.h"

#define FNAME "fuzz.sym"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errmsg err = { 0 };
	struct props_names names;
	const char *p = (const char *)data, *end = p + size, *nl;
	size_t k = 0, len;
	int r;

	r = props_sym_parse(p, size, FNAME, &names, &err);
	if (r < 0) {
		FUZZ_ASSERT(r == -EINVAL || r == -ENOMEM, "error %d", r);
		FUZZ_ASSERT(r == -ENOMEM || memchr(data, 0, size),
			    "refused text without NUL: %s", err.msg);
		FUZZ_ASSERT(!names.names && !names.n, "output on failure");
		fuzz_check_msg(err.msg, sizeof(err.msg), FNAME ":");
		return 0;
	}
	FUZZ_ASSERT(!memchr(data, 0, size), "accepted a NUL byte");
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		len = (size_t)((nl ? nl : end) - p);
		if (len && p[len - 1] == '\r')
			len--;
		if (len) {
			FUZZ_ASSERT(k < names.n, "name %zu missing", k);
			FUZZ_ASSERT(strlen(names.names[k]) == len &&
				    !memcmp(names.names[k], p, len),
				    "name %zu differs", k);
			k++;
		}
		p = nl ? nl + 1 : end;
	}
	FUZZ_ASSERT(k == names.n, "%zu names, expected %zu", names.n, k);
	props_names_fini(&names);
	return 0;
}
