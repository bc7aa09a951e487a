/*
 * check_table.c: medians laid out as a report lays them out (table.c):
 * rows and columns by the keys in the topology and point names, the
 * report's labels and units, every key that varies as a row when the job
 * names none, and the same table as JSON.
 */
#include "table.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct table_cell dd[] = {
	{"disk", "target=d0,bs_kb=128", "read", 79.0, 36.0},
	{"disk", "target=d0,bs_kb=2048", "read", 285.9, 84.0},
	{"disk", "target=p1,bs_kb=128", "read", 27.1, 60.0},
	{"disk", "target=p1,bs_kb=2048", "read", 310.4, 76.0},
};

START_TEST(rows_and_columns_by_key)
{
	struct table_spec spec = {0};
	struct table t;
	struct strbuf out = STRBUF_INIT;

	strvec_push(&spec.rows, "target");
	spec.columns = strdup("bs_kb");
	strvec_push(&spec.labels, "bs_kb=bs KiB");
	table_make(&t, &spec, dd, 4);
	ck_assert_uint_eq(t.nr_rows, 2);
	ck_assert_uint_eq(t.columns.nr, 2);
	ck_assert_str_eq(t.columns.v[1], "2048");
	ck_assert(t.mbps[1 * 2 + 0] == 27.1);
	table_render(&t, &spec, &out);
	ck_assert_msg(strstr(out.buf, "target  bs KiB=128 MB/s"), "%s",
		      out.buf);
	ck_assert_msg(strstr(out.buf, "p1 "), "%s", out.buf);
	ck_assert_msg(strstr(out.buf, "310.4\n"), "%s", out.buf);
	table_release(&t);
	table_spec_release(&spec);
	strbuf_release(&out);
}
END_TEST

/* RAID0's RASize in 4 KiB pages, as the report wrote it: ra_kb / 4. */
START_TEST(divisor_gives_the_report_unit)
{
	const struct table_cell ra[] = {
		{"raid0-4", "threads=2,ra_kb=1792", "read", 160.0, 10.0},
		{"raid0-4", "threads=2,ra_kb=3584", "read", 600.0, 10.0},
	};
	struct table_spec spec = {0};
	struct table t;
	struct strbuf out = STRBUF_INIT;

	strvec_push(&spec.rows, "threads");
	strvec_push(&spec.rows, "ra_kb");
	strvec_push(&spec.labels, "ra_kb=RASize");
	strvec_push(&spec.divide, "ra_kb=4");
	table_make(&t, &spec, ra, 2);
	table_render(&t, &spec, &out);
	ck_assert_msg(strstr(out.buf, "threads  RASize  read MB/s"), "%s",
		      out.buf);
	ck_assert_msg(strstr(out.buf, "2        448"), "%s", out.buf);
	ck_assert_msg(strstr(out.buf, "2        896"), "%s", out.buf);
	table_release(&t);
	table_spec_release(&spec);
	strbuf_release(&out);
}
END_TEST

/*
 * No spec: a row per combination of every list key, topology keys too
 * (RAID5 bitmap off and on), one column per metric, "-" where a metric
 * has no median.
 */
START_TEST(default_rows_are_every_list_key)
{
	const struct table_cell b[] = {
		{"raid5-4,bitmap=0", "default", "write", 108.0, 40.0},
		{"raid5-4,bitmap=0", "default", "read", 300.0, 40.0},
		{"raid5-4,bitmap=1", "default", "write", 50.0, 40.0},
	};
	struct table t;
	struct strbuf out = STRBUF_INIT;

	table_make(&t, NULL, b, 3);
	ck_assert_uint_eq(t.row_keys.nr, 1);
	ck_assert_str_eq(t.row_keys.v[0], "bitmap");
	ck_assert_str_eq(t.column_key, "metric");
	ck_assert_uint_eq(t.columns.nr, 2);
	ck_assert(isnan(t.mbps[1 * 2 + 1]));
	table_render(&t, NULL, &out);
	ck_assert_msg(strstr(out.buf, "bitmap  write MB/s  read MB/s"), "%s",
		      out.buf);
	ck_assert_msg(strstr(out.buf, "50.0          -\n"), "%s", out.buf);

	json_t *j = table_json(&t, NULL);
	json_t *row = json_array_get(json_object_get(j, "rows"), 1);
	ck_assert_str_eq(json_string_value(json_object_get(row, "bitmap")),
			 "1");
	json_t *cell = json_array_get(json_object_get(row, "cells"), 1);
	ck_assert(json_is_null(json_object_get(cell, "mbps")));
	json_decref(j);
	table_release(&t);
	strbuf_release(&out);
}
END_TEST

START_TEST(name_has_only_whole_keys)
{
	ck_assert(table_spec_name_has("raid5-4,bitmap=1", "bitmap"));
	ck_assert(!table_spec_name_has("raid5-4,bitmap=1", "bit"));
	ck_assert(!table_spec_name_has("raid5-4,bitmap=1", "raid5-4"));
	ck_assert(table_spec_name_has("threads=2,bs_kb=11", "bs_kb"));
	ck_assert(!table_spec_name_has("default", "default"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("table");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, rows_and_columns_by_key);
	tcase_add_test(tc, divisor_gives_the_report_unit);
	tcase_add_test(tc, default_rows_are_every_list_key);
	tcase_add_test(tc, name_has_only_whole_keys);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
