// SPDX-License-Identifier: MIT
/*
 * The file-table reader of devimg-wrap -batch (props_table_parse): on
 * success every row has a cell for exactly the known columns of the header
 * (a header may name only columns the reader skips) and no '|' inside a
 * cell; errors are one line naming the input.
 */
#include <errno.h>

#include "fuzz/fuzz.h"
#include "props/props.h"
#include "util/errmsg.h"

#define FNAME "fuzz.txt"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errmsg err = { 0 };
	struct props_table t;
	size_t i;
	int c, r;

	r = props_table_parse((const char *)data, size, FNAME, &t, &err);
	if (r < 0) {
		FUZZ_ASSERT(r == -EINVAL || r == -ENOMEM, "error %d", r);
		FUZZ_ASSERT(!t.rows && !t.nrows, "output on failure");
		fuzz_check_msg(err.msg, sizeof(err.msg), FNAME ":");
		return 0;
	}
	for (i = 0; i < t.nrows; i++) {
		FUZZ_ASSERT(t.rows[i].line >= 2, "row %zu on line %u", i,
			    t.rows[i].line);
		for (c = 0; c < PROPS_NCOLS; c++) {
			const char *cell = t.rows[i].cell[c];

			FUZZ_ASSERT(!cell == !t.has[c], "row %zu column %d", i,
				    c);
			FUZZ_ASSERT(!cell || !strchr(cell, '|'),
				    "'|' in a cell");
		}
	}
	props_table_fini(&t);
	return 0;
}
