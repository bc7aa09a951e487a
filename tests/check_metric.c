/*
 * check_metric.c: a job's metric (harness/job/metric.c): which names each
 * engine takes, fio's percentile names with their dot, and the value a
 * verdict reads from a stored document, a latency turned so that higher
 * is better.
 */
#include "metric.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name, *dirs;
	int detailed;
	const char *canon; /* NULL: refused */
} names[] = {
	{"read", "read", 0, "read"},
	{"write", "write,rewrite,read", 0, "write"},
	{"write", "read", 0, NULL},
	{"read.iops", "read", 0, NULL},
	{"read.iops", "read,write,trim", 1, "read.iops"},
	{"trim.bw_bytes", "read,write,trim", 1, "trim.bw_bytes"},
	{"write.clat_ns.mean", "read,write,trim", 1, "write.clat_ns.mean"},
	{"read.lat_ns.stddev", "read,write,trim", 1, "read.lat_ns.stddev"},
	{"read.clat_ns.percentile.99.000000", "read,write,trim", 1,
	 "read.clat_ns.percentile.99.000000"},
	{"read.clat_ns.percentile.99", "read,write,trim", 1,
	 "read.clat_ns.percentile.99.000000"},
	{"read.clat_ns.percentile.99.99", "read,write,trim", 1,
	 "read.clat_ns.percentile.99.990000"},
	{"read.clat_ns.percentile.0", "read,write,trim", 1, NULL},
	{"read.clat_ns.percentile.101", "read,write,trim", 1, NULL},
	{"read.clat_ns.percentile.1e2", "read,write,trim", 1, NULL},
	{"read.clat_ns.p99", "read,write,trim", 1, NULL},
	{"read.clat_ns", "read,write,trim", 1, NULL},
	{"read.", "read,write,trim", 1, NULL},
	{"rea", "read,write,trim", 1, NULL},
	{"", "read", 0, NULL},
};

START_TEST(metric_names_are_checked_and_made_fio_s)
{
	struct strbuf why = STRBUF_INIT;
	char *out = NULL;
	int r = metric_check(names[_i].name, names[_i].dirs, names[_i].detailed,
			     &out, &why);
	if (!names[_i].canon) {
		ck_assert_msg(r == -1, "'%s' accepted as '%s'", names[_i].name,
			      out ? out : "");
		ck_assert_uint_gt(why.len, 0);
	} else {
		ck_assert_msg(r == 0, "'%s': %s", names[_i].name, why.buf);
		ck_assert_str_eq(out, names[_i].canon);
	}
	free(out);
	strbuf_release(&why);
}
END_TEST

/* A document as results.c stores a fio sample: fio's figures in "read". */
static const char *const doc_text =
	"{\"read\": {\"io_bytes\": 5840896, \"runtime_ns\": 226000000, "
	"\"bw_bytes\": 25844672, \"verified\": true, \"iops\": 6309.735, "
	"\"clat_ns\": {\"min\": 44844, \"mean\": 155152.829, \"percentile\": "
	"{\"99.000000\": 1990656, \"99.900000\": 3522560, \"0.000000\": 0}}},"
	" \"write\": {\"bw_bytes\": 11273061, \"verified\": true}}";

START_TEST(values_are_read_from_the_document_higher_is_better)
{
	json_error_t e;
	json_t *doc = json_loads(doc_text, 0, &e);
	double v;
	ck_assert_ptr_nonnull(doc);
	json_t *rd = metric_object(doc, "read.clat_ns.percentile.99.000000");
	ck_assert_ptr_eq(rd, json_object_get(doc, "read"));

	ck_assert_int_eq(metric_value(rd, "read", &v), 0);
	ck_assert_double_eq(v, 25844672);
	ck_assert_int_eq(metric_value(rd, "read.iops", &v), 0);
	ck_assert_double_eq_tol(v, 6309.735, 1e-9);
	/* The percentile's dot is part of its name, not a path step. */
	ck_assert_int_eq(
		metric_value(rd, "read.clat_ns.percentile.99.900000", &v), 0);
	ck_assert_double_eq_tol(v, 1e9 / 3522560, 1e-9);
	ck_assert_int_eq(metric_value(rd, "read.clat_ns.mean", &v), 0);
	ck_assert_double_eq_tol(v, 1e9 / 155152.829, 1e-9);
	/* A slower kernel (longer latency) reads lower, as its MB/s would. */
	double p99, p999;
	metric_value(rd, "read.clat_ns.percentile.99.000000", &p99);
	metric_value(rd, "read.clat_ns.percentile.99.900000", &p999);
	ck_assert(p999 < p99);
	ck_assert(!metric_higher_better("read.clat_ns.mean"));
	ck_assert(metric_higher_better("read.iops"));

	/* Missing figures, and a latency of 0 with no reciprocal. */
	ck_assert_int_eq(metric_value(rd, "read.lat_ns.mean", &v), -1);
	ck_assert_int_eq(
		metric_value(rd, "read.clat_ns.percentile.95.000000", &v), -1);
	ck_assert_int_eq(
		metric_value(rd, "read.clat_ns.percentile.0.000000", &v), -1);
	ck_assert_int_eq(metric_value(json_object_get(doc, "write"),
				      "write.iops", &v),
			 -1);
	ck_assert_ptr_null(metric_object(doc, "trim.iops"));
	json_decref(doc);
}
END_TEST

static Suite *metric_suite(void)
{
	Suite *s = suite_create("metric");
	TCase *tc = tcase_create("metric");
	tcase_add_loop_test(tc, metric_names_are_checked_and_made_fio_s, 0,
			    (int)(sizeof(names) / sizeof(*names)));
	tcase_add_test(tc, values_are_read_from_the_document_higher_is_better);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	int failed;
	SRunner *sr = srunner_create(metric_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
