// SPDX-License-Identifier: MIT
/* .sym files and file tables. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/props/testutil.h"
#include "util/errmsg.h"

START_TEST(test_sym_one_name_per_line)
{
	struct errmsg err = { 0 };
	struct props_names names;

	ck_assert_int_eq(props_sym_parse(TEXT("a\n\nb c\r\n\r\n_ZTS1K"), "k.sym",
					 &names, &err), 0);
	ck_assert_uint_eq(names.n, 3);
	ck_assert_str_eq(names.names[0], "a");
	ck_assert_str_eq(names.names[1], "b c");
	ck_assert_str_eq(names.names[2], "_ZTS1K");
	props_names_fini(&names);
	ck_assert_uint_eq(names.n, 0);
	ck_assert_ptr_null(names.names);
}
END_TEST

START_TEST(test_sym_empty_file)
{
	struct errmsg err = { 0 };
	struct props_names names;

	ck_assert_int_eq(props_sym_parse("", 0, "k.sym", &names, &err), 0);
	ck_assert_uint_eq(names.n, 0);
	props_names_fini(&names);
	ck_assert_int_eq(props_sym_parse(TEXT("\n\r\n"), "k.sym", &names, &err), 0);
	ck_assert_uint_eq(names.n, 0);
	props_names_fini(&names);
}
END_TEST

START_TEST(test_sym_many_names)
{
	struct errmsg err = { 0 };
	struct props_names names;
	char *text = malloc(10 * 5000), *p = text;
	int i;

	for (i = 0; i < 5000; i++)
		p += sprintf(p, "k%d\n", i);
	ck_assert_int_eq(props_sym_parse(text, (size_t)(p - text), "k.sym", &names,
					 &err), 0);
	ck_assert_uint_eq(names.n, 5000);
	ck_assert_str_eq(names.names[4999], "k4999");
	props_names_fini(&names);
	free(text);
}
END_TEST

START_TEST(test_sym_nul_byte)
{
	static const char text[] = "a\nb\0c\n";
	struct errmsg err = { 0 };
	struct props_names names;

	ck_assert_int_eq(props_sym_parse(text, sizeof(text) - 1, "k.sym", &names,
					 &err), -EINVAL);
	ck_assert_err_has(err, "k.sym:2:2: NUL byte in text");
	ck_assert_uint_eq(names.n, 0);
	ck_assert_ptr_null(names.names);
}
END_TEST

START_TEST(test_sym_read_file)
{
	struct errmsg err = { 0 };
	struct props_names names;
	char want[256];

	ck_assert_int_eq(props_sym_read_file(PROPS_FIXTURES "/kernels.sym", &names,
					     &err), 0);
	ck_assert_uint_eq(names.n, 3);
	ck_assert_str_eq(names.names[1], "_ZTS8KernelB");
	ck_assert_str_eq(names.names[2], "kernel_c");
	props_names_fini(&names);

	ck_assert_int_eq(props_sym_read_file("/nonexistent/k.sym", &names, &err),
			 -ENOENT);
	snprintf(want, sizeof(want), "/nonexistent/k.sym: cannot open: %s",
		 strerror(ENOENT));
	ck_assert_str_eq(err.msg, want);
}
END_TEST

START_TEST(test_table_all_columns_any_order)
{
	static const char text[] =
		"[Manifest|Code|Properties|Symbols]\n"
		"m.json|a.spv|a.props|a.sym\r\n"
		"\n"
		"|b.bc||\n";
	struct errmsg err = { 0 };
	struct props_table t;
	int c;

	ck_assert_int_eq(props_table_parse(TEXT(text), "t.txt", &t, &err), 0);
	for (c = 0; c <= PROPS_COL_MANIFEST; c++)
		ck_assert_int_eq(t.has[c], 1);
	ck_assert_int_eq(t.has[PROPS_COL_SYM_AND_PROPS], 0);
	ck_assert_uint_eq(t.nrows, 2);
	ck_assert_str_eq(t.rows[0].cell[PROPS_COL_CODE], "a.spv");
	ck_assert_str_eq(t.rows[0].cell[PROPS_COL_SYMBOLS], "a.sym");
	ck_assert_str_eq(t.rows[0].cell[PROPS_COL_PROPERTIES], "a.props");
	ck_assert_str_eq(t.rows[0].cell[PROPS_COL_MANIFEST], "m.json");
	ck_assert_uint_eq(t.rows[0].line, 2);
	ck_assert_str_eq(t.rows[1].cell[PROPS_COL_CODE], "b.bc");
	ck_assert_str_eq(t.rows[1].cell[PROPS_COL_MANIFEST], "");
	ck_assert_str_eq(t.rows[1].cell[PROPS_COL_SYMBOLS], "");
	ck_assert_uint_eq(t.rows[1].line, 4);
	props_table_fini(&t);
	ck_assert_uint_eq(t.nrows, 0);
}
END_TEST

START_TEST(test_table_subset_and_read_file)
{
	struct errmsg err = { 0 };
	struct props_table t;

	ck_assert_int_eq(props_table_read_file(PROPS_FIXTURES "/batch.txt", &t,
					       &err), 0);
	ck_assert_int_eq(t.has[PROPS_COL_CODE], 1);
	ck_assert_int_eq(t.has[PROPS_COL_SYMBOLS], 1);
	ck_assert_int_eq(t.has[PROPS_COL_PROPERTIES], 1);
	ck_assert_int_eq(t.has[PROPS_COL_MANIFEST], 0);
	ck_assert_uint_eq(t.nrows, 2);
	ck_assert_str_eq(t.rows[0].cell[PROPS_COL_PROPERTIES], "a.props");
	ck_assert_str_eq(t.rows[0].cell[PROPS_COL_CODE], "a.spv");
	ck_assert_str_eq(t.rows[1].cell[PROPS_COL_SYMBOLS], "");
	ck_assert_ptr_null(t.rows[1].cell[PROPS_COL_MANIFEST]);
	ck_assert_uint_eq(t.rows[1].line, 4);
	props_table_fini(&t);
}
END_TEST

START_TEST(test_table_without_rows)
{
	struct errmsg err = { 0 };
	struct props_table t;

	ck_assert_int_eq(props_table_parse(TEXT("[Code]\n\n"), "t.txt", &t, &err), 0);
	ck_assert_uint_eq(t.nrows, 0);
	ck_assert_uint_eq(t.ncols, 1);
	ck_assert_int_eq(t.has[PROPS_COL_CODE], 1);
	ck_assert_int_eq(t.has[PROPS_COL_SYMBOLS], 0);
	props_table_fini(&t);
}
END_TEST

/* No line but empty ones: an empty table, as LLVM's SimpleTable reads it. */
static const char *const empty_tables[] = { "", "\n", "\n\n\n", "\r\n\r\n" };

START_TEST(test_table_empty)
{
	const char *text = empty_tables[_i];
	struct errmsg err = { 0 };
	struct props_table t;
	int c;

	memset(&t, 0xa5, sizeof(t));
	ck_assert_int_eq(props_table_parse(text, strlen(text), "t.txt", &t,
					   &err), 0);
	ck_assert_str_eq(err.msg, "");
	ck_assert_uint_eq(t.nrows, 0);
	ck_assert_ptr_null(t.rows);
	ck_assert_uint_eq(t.ncols, 0);
	for (c = 0; c < PROPS_NCOLS; c++)
		ck_assert_int_eq(t.has[c], 0);
	props_table_fini(&t);
}
END_TEST

START_TEST(test_table_empty_file)
{
	const char *tmp = getenv("TMPDIR");
	struct errmsg err = { 0 };
	struct props_table t;
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/devimg-empty-table.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(props_table_read_file(path, &t, &err), 0);
	unlink(path);
	ck_assert_uint_eq(t.nrows, 0);
	ck_assert_uint_eq(t.ncols, 0);
	props_table_fini(&t);
}
END_TEST

/* Columns of other names take cells but are not read. */
START_TEST(test_table_extra_columns_ignored)
{
	static const char text[] =
		"[Code|SymAndProps|Symbols|code]\n"
		"a.spv|w.bc|a.sym|x\n";
	struct errmsg err = { 0 };
	struct props_table t;

	ck_assert_int_eq(props_table_parse(TEXT(text), "t.txt", &t, &err), 0);
	ck_assert_uint_eq(t.nrows, 1);
	ck_assert_int_eq(t.has[PROPS_COL_CODE], 1);
	ck_assert_int_eq(t.has[PROPS_COL_SYMBOLS], 1);
	ck_assert_int_eq(t.has[PROPS_COL_PROPERTIES], 0);
	ck_assert_str_eq(t.rows[0].cell[PROPS_COL_CODE], "a.spv");
	ck_assert_str_eq(t.rows[0].cell[PROPS_COL_SYMBOLS], "a.sym");
	ck_assert_ptr_null(t.rows[0].cell[PROPS_COL_PROPERTIES]);
	ck_assert_str_eq(t.rows[0].cell[PROPS_COL_SYM_AND_PROPS], "w.bc");
	props_table_fini(&t);
}
END_TEST

struct bad_table {
	const char *text;
	const char *msg[2];
};

static const struct bad_table bad_tables[] = {
	{ "[Code|Symbols|Properties]\na|b|c\na|b\n",
	  { "t.txt:3:1: wrong number of cells in table row: saw 'a|b' (got 2 cells), expected 3 cells" } },
	{ "[Code|Symbols]\na|b|c\n", { "t.txt:2:1:", "(got 3 cells), expected 2 cells" } },
	{ "[Code]\na|\n", { "t.txt:2:1:", "(got 2 cells), expected 1 cells" } },
	{ "[Code|]\n", { "t.txt:1:7: empty table column name: saw '[Code|]'" } },
	{ "[]\n", { "t.txt:1:2: empty table column name: saw '[]'" } },
	{ "[Code|Foo]\na\n", { "t.txt:2:1:", "(got 1 cells), expected 2 cells" } },
	{ "[Code|Symbols|Code]\n",
	  { "t.txt:1:15: repeated table column: saw 'Code', expected each column at most once" } },
	{ "Code|Symbols\n",
	  { "t.txt:1:1: missing table header: saw 'Code|Symbols', expected '[Code|Symbols|Properties|Manifest]'" } },
	{ "  \n", { "t.txt:1:1: missing table header: saw '  '" } },
	{ "\n\n|\n", { "t.txt:3:1: missing table header: saw '|'" } },
	{ "[Code\n", { "t.txt:1:1: missing table header: saw '[Code'" } },
};

START_TEST(test_table_malformed)
{
	const struct bad_table *c = &bad_tables[_i];
	struct errmsg err = { 0 };
	struct props_table t;
	int i;

	ck_assert_int_eq(props_table_parse(c->text, strlen(c->text), "t.txt", &t,
					   &err), -EINVAL);
	for (i = 0; i < 2 && c->msg[i]; i++)
		ck_assert_err_has(err, c->msg[i]);
	ck_assert_uint_eq(t.nrows, 0);
	ck_assert_ptr_null(t.rows);
}
END_TEST

START_TEST(test_table_missing_file)
{
	struct errmsg err = { 0 };
	struct props_table t;

	ck_assert_int_eq(props_table_read_file("/nonexistent/t.txt", &t, &err),
			 -ENOENT);
	ck_assert_err_has(err, "/nonexistent/t.txt: cannot open: ");
	ck_assert_err_has(err, strerror(ENOENT));
}
END_TEST

static Suite *symtable_suite(void)
{
	Suite *s = suite_create("props-symtable");
	TCase *sym = tcase_create("sym");
	TCase *table = tcase_create("table");

	tcase_add_test(sym, test_sym_one_name_per_line);
	tcase_add_test(sym, test_sym_empty_file);
	tcase_add_test(sym, test_sym_many_names);
	tcase_add_test(sym, test_sym_nul_byte);
	tcase_add_test(sym, test_sym_read_file);
	tcase_add_test(table, test_table_all_columns_any_order);
	tcase_add_test(table, test_table_subset_and_read_file);
	tcase_add_test(table, test_table_without_rows);
	tcase_add_loop_test(table, test_table_empty, 0,
			    (int)(sizeof(empty_tables) / sizeof(empty_tables[0])));
	tcase_add_test(table, test_table_empty_file);
	tcase_add_test(table, test_table_extra_columns_ignored);
	tcase_add_loop_test(table, test_table_malformed, 0,
			    (int)(sizeof(bad_tables) / sizeof(bad_tables[0])));
	tcase_add_test(table, test_table_missing_file);
	suite_add_tcase(s, sym);
	suite_add_tcase(s, table);
	return s;
}

int main(void)
{
	return run_suite(symtable_suite());
}
