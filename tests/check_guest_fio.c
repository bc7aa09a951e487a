/*
 * check_guest_fio.c: the guest's reading of fio's report
 * (workloads/fio_output.c, json_read.c), built with the host compiler.
 * tests/data/fio-randrw.json is what fio 3.33 wrote with
 * --output-format=json+ for a 70/30 random read/write job on an 8 MiB
 * file (tests/data/README); its figures are checked as fio wrote them,
 * and the frame object the host stores is checked to carry fio's names.
 */
#include "fio_output.h"
#include "json_read.h"
#include "report.h"
#include "sys.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *rel, size_t *len)
{
	const char *f = __FILE__, *t = strstr(f, "tests/check_guest_fio.c");
	char path[512];
	snprintf(path, sizeof(path), "%.*s%s", t ? (int)(t - f) : 0, f, rel);
	FILE *fp = fopen(path, "rb");
	ck_assert_msg(fp != NULL, "cannot open %s", path);
	static char buf[1 << 20];
	*len = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[*len] = '\0';
	fclose(fp);
	return buf;
}

static const struct fio_dir *dir_named(const struct fio_job_result *r,
				       const char *name)
{
	for (int i = 0; i < r->nr_dirs; i++)
		if (!strcmp(r->dirs[i].name, name))
			return &r->dirs[i];
	return NULL;
}

START_TEST(fio_report_becomes_one_result_per_direction)
{
	size_t len;
	const char *text = slurp("tests/data/fio-randrw.json", &len);
	struct fio_job_result r;
	char err[256] = "";

	ck_assert_msg(!fio_output_parse(&r, text, len, err, sizeof(err)), "%s",
		      err);
	ck_assert_str_eq(r.jobname, "mixed");
	/* read and write moved data; trim is in the report with nothing. */
	ck_assert_int_eq(r.nr_dirs, 2);
	const struct fio_dir *rd = dir_named(&r, "read"),
			     *wr = dir_named(&r, "write");
	ck_assert_ptr_nonnull(rd);
	ck_assert_ptr_nonnull(wr);
	ck_assert_ptr_null(dir_named(&r, "trim"));
	ck_assert_uint_eq(rd->io_bytes, 5840896);
	ck_assert_uint_eq(rd->bw_bytes, 25844672);
	ck_assert_uint_eq(rd->runtime_ms, 226);
	ck_assert_uint_eq(rd->total_ios, 1426);
	ck_assert_double_eq_tol(rd->iops, 6309.734513, 1e-6);
	ck_assert(rd->clat.have && rd->lat.have && !rd->slat.have);
	ck_assert_double_eq_tol(rd->clat.mean, 155152.828892, 1e-6);
	ck_assert_int_eq(rd->clat.nr_pct, 17);
	ck_assert_str_eq(rd->clat.pct[12].name, "99.000000");
	ck_assert_uint_eq(rd->clat.pct[12].ns, 1990656);
	ck_assert_uint_eq(wr->io_bytes, 2547712);
	ck_assert_uint_eq(wr->total_ios, 622);
	ck_assert_uint_eq(r.job_runtime_ms, 225);
	ck_assert_double_eq_tol(r.sys_cpu, 40.444444, 1e-6);
	/* bw_bytes is io_bytes per second of runtime, as the guest sends it. */
	ck_assert_uint_eq(rd->io_bytes * 1000 / rd->runtime_ms, rd->bw_bytes);

	/* The frame's "fio" object keeps fio's names, percentiles included. */
	static struct json j;
	json_begin(&j, "sample");
	fio_output_json(&j, rd);
	json_end(&j);
	ck_assert(!j.overflow);
	ck_assert_ptr_nonnull(strstr(j.buf, "\"fio\":{\"iops\":6309.735,"));
	ck_assert_ptr_nonnull(strstr(j.buf, "\"99.000000\":1990656"));
	ck_assert_ptr_null(strstr(j.buf, "slat_ns"));
	ck_assert_ptr_nonnull(strstr(j.buf, "\"lat_ns\":{"));
}
END_TEST

/* Reports the guest must refuse rather than turn into samples. */
static const struct {
	const char *text, *why;
} refused[] = {
	{"", "no JSON report"},
	{"fio: pid=12, err=5/file:io_u.c\n", "no JSON report"},
	{"{\"jobs\": [{\"jobname\": \"a\", \"read\": {\"io_bytes\": 1",
	 "not JSON"},
	{"{\"fio version\": \"fio-3.33\"}", "no 'jobs' list"},
	{"{\"jobs\": []}", "fio reported 0 jobs"},
	{"{\"jobs\": [{\"jobname\": \"a\"}, {\"jobname\": \"b\"}]}",
	 "fio reported 2 jobs; a point measures one"},
	{"{\"jobs\": [{\"jobname\": \"a\", \"error\": 5}]}",
	 "fio job 'a' ended with error 5"},
	{"{\"jobs\": [{\"jobname\": \"a\", \"error\": 0, \"read\": "
	 "{\"io_bytes\": 0, \"total_ios\": 0}}]}",
	 "fio job 'a' moved no data"},
	{"{\"jobs\": [{\"jobname\": \"a\", \"read\": {\"io_bytes\": 4096, "
	 "\"total_ios\": 1,}}]}",
	 "not JSON"},
};

START_TEST(bad_reports_are_refused_with_the_reason)
{
	struct fio_job_result r;
	char err[256] = "";
	const char *t = refused[_i].text;
	ck_assert_int_eq(fio_output_parse(&r, t, strlen(t), err, sizeof(err)),
			 -1);
	ck_assert_msg(strstr(err, refused[_i].why), "'%s': got '%s'", t, err);
}
END_TEST

/* A warning fio printed before its report does not hide the report. */
START_TEST(text_before_the_report_is_skipped)
{
	const char *t = "fio: this platform does not support process shared "
			"mutexes, forcing use of threads\n"
			"{\"jobs\": [{\"jobname\": \"w\", \"write\": "
			"{\"io_bytes\": 8192, \"total_ios\": 2, \"runtime\": 1, "
			"\"iops\": 2000.0, \"bw_bytes\": 8192000}}]}";
	struct fio_job_result r;
	char err[256] = "";
	ck_assert_msg(!fio_output_parse(&r, t, strlen(t), err, sizeof(err)),
		      "%s", err);
	ck_assert_int_eq(r.nr_dirs, 1);
	ck_assert_str_eq(r.dirs[0].name, "write");
	ck_assert_uint_eq(r.dirs[0].io_bytes, 8192);
	ck_assert(!r.dirs[0].clat.have);
}
END_TEST

START_TEST(json_reader_takes_values_and_refuses_damage)
{
	struct jr_doc d = JR_DOC_INIT;
	const char *t = "{\"a\": [1, 2.5e3, \"x\\\"y\"], \"big\": "
			"18446744073709551615, \"neg\": -3, \"ok\": true}";
	uint64_t u;
	double x;
	ck_assert_int_eq(jr_parse(&d, t, strlen(t)), 0);
	ck_assert_int_eq(jr_u64(&d, jr_get(&d, 0, "big"), &u), 0);
	ck_assert(u == UINT64_MAX);
	ck_assert_int_eq(jr_u64(&d, jr_get(&d, 0, "neg"), &u), -1);
	ck_assert_int_eq(jr_double(&d, jr_get(&d, 0, "neg"), &x), 0);
	ck_assert_double_eq(x, -3);
	int a = jr_get(&d, 0, "a");
	int second = d.nodes[d.nodes[a].first].next;
	ck_assert_int_eq(jr_u64(&d, second, &u), 0);
	ck_assert_uint_eq(u, 2500);
	ck_assert_int_eq(d.nodes[d.nodes[second].next].type, JR_STR);
	ck_assert_int_eq(jr_get(&d, 0, "missing"), -1);
	ck_assert_int_eq(jr_get(&d, a, "a"), -1);
	jr_release(&d);

	/* Nesting past the limit is an error, not a deep recursion. */
	char deep[200];
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	ck_assert_int_eq(jr_parse(&d, deep, strlen(deep)), -1);
	ck_assert_ptr_nonnull(strstr(d.err, "nested too deep"));
	ck_assert_int_eq(jr_parse(&d, "{} x", 4), -1);
	ck_assert_int_eq(jr_parse(&d, "\"a\nb\"", 5), -1);
	jr_release(&d);
}
END_TEST

/* The C library's floor against the running kernel's release. */
static const struct {
	const char *release, *floor;
	int older;
} kernels[] = {
	{"6.1.0", "3.2.0", 0},	  {"3.2.0", "3.2.0", 0},
	{"3.2", "3.2.0", 0},	  {"3.1.10", "3.2.0", 1},
	{"2.6.38.8", "3.2.0", 1}, {"3.10.0-rc1", "3.2.0", 0},
	{"3.2.0-1-amd64", "3.2.1", 1}, {"4.0", "3.2.0", 0},
};

START_TEST(kernels_below_the_floor_are_older)
{
	ck_assert_int_eq(sys_kernel_older(kernels[_i].release,
					  kernels[_i].floor),
			 kernels[_i].older);
}
END_TEST

static Suite *fio_suite(void)
{
	Suite *s = suite_create("guest_fio");
	TCase *tc = tcase_create("fio");
	tcase_add_test(tc, fio_report_becomes_one_result_per_direction);
	tcase_add_loop_test(tc, bad_reports_are_refused_with_the_reason, 0,
			    (int)(sizeof(refused) / sizeof(*refused)));
	tcase_add_test(tc, text_before_the_report_is_skipped);
	tcase_add_test(tc, json_reader_takes_values_and_refuses_damage);
	tcase_add_loop_test(tc, kernels_below_the_floor_are_older, 0,
			    (int)(sizeof(kernels) / sizeof(*kernels)));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	int failed;
	SRunner *sr = srunner_create(fio_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
