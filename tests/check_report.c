/*
 * check_report.c: the end report (report.c) and the progress output
 * (progress.c): what a user reads after a bisection, the JSON a program
 * reads, and that a log (not a terminal) gets plain lines and no noise.
 */
#include "progress.h"
#include "bisect_report.h"
#include "profile.h"
#include "util.h"
#include "version.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CULPRIT "984e84ab9b318edc73eda17ec0d6a33a1f8658eb"
#define PARENT "5ca50121b814f60ac88635c761d2ddb2dbbd8518"

static void fill(struct bisect_report *r)
{
	struct bisect_report_row *row;

	bisect_report_init(r);
	r->job = xstrdup("demo");
	r->status = STATE_DONE;
	strcpy(r->culprit.id, CULPRIT);
	r->culprit.subject = xstrdup("block: shrink the default readahead window");
	r->culprit.describe = xstrdup("v6.1-9-g984e84ab9b31");
	r->culprit.author = xstrdup("iobisect demo <demo@iobisect.invalid>");
	r->culprit.date = xstrdup("2022-12-12T10:09:00+00:00");
	strcpy(r->parent, PARENT);
	r->confidence = 0.9812;
	row = bisect_report_add_row(r, "read parent/culprit", "MB/s");
	row->good_median = 320.4;
	row->good_stddev_pct = 1.4;
	row->bad_median = 32.1;
	row->bad_stddev_pct = 3.2;
	row->significant = 1;
	row = bisect_report_add_row(r, "read parent/culprit", "%CPU");
	row->good_median = 50;
	row->good_stddev_pct = 2;
	row->bad_median = 75;
	row->bad_stddev_pct = 4;
	r->steps = 4;
	r->counts.builds = 13;
	r->counts.builds_cached = 4;
	r->counts.boots = 42;
	r->counts.samples = 126;
	r->seconds = 1392;
	strvec_push(&r->logs, "build of 8d13afe31a1d: /tmp/build.log");
}

START_TEST(text_names_the_culprit_and_the_table)
{
	struct bisect_report r;
	struct strbuf out = STRBUF_INIT;

	fill(&r);
	bisect_report_render_text(&r, &out);
	ck_assert_msg(strstr(out.buf, CULPRIT), "%s", out.buf);
	ck_assert(strstr(out.buf, "block: shrink the default readahead window"));
	ck_assert(strstr(out.buf, "v6.1-9-g984e84ab9b31"));
	ck_assert(strstr(out.buf, "iobisect demo <demo@iobisect.invalid>"));
	ck_assert(strstr(out.buf, "2022-12-12T10:09:00+00:00"));
	ck_assert(strstr(out.buf, "confidence 98.1%"));
	/* The LKP columns, in their order, and the figures with units. */
	ck_assert(strstr(out.buf, " good-median %stddev    %change    bad-median %stddev  metric\n"));
	ck_assert_msg(strstr(out.buf, "      320.40  ±   1%     -90.0%*        32.10  ±   3%  read parent/culprit MB/s\n"),
		      "%s", out.buf);
	ck_assert(strstr(out.buf, "+50.0%"));
	ck_assert(strstr(out.buf, "4 steps, 13 builds done, 4 served from cache, 42 boots, 126 samples, 23m12s"));
	ck_assert(strstr(out.buf, "/tmp/build.log"));
	ck_assert(!strstr(out.buf, "noise"));
	/* The program that made the figures, traceable from the report. */
	ck_assert(strstr(out.buf, version_string()));
	bisect_report_release(&r);
	strbuf_release(&out);
}
END_TEST

/* Figures timed by the virtual clock say so, in text and JSON alike. */
START_TEST(virtual_clock_names_its_unit)
{
	struct bisect_report r;
	struct strbuf out = STRBUF_INIT;
	json_t *j;

	fill(&r);
	r.clock.kind = CLOCK_VIRTUAL;
	r.clock.shift = 3;
	bisect_report_render_text(&r, &out);
	ck_assert_msg(strstr(out.buf, "read parent/culprit MB/s in virtual "
				      "time (icount, shift 3)\n") &&
			      strstr(out.buf, "read parent/culprit %CPU\n"),
		      "%s", out.buf);
	j = bisect_report_to_json(&r);
	ck_assert_str_eq(json_string_value(json_object_get(j, "clock")),
			 "virtual");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "icount_shift")),
			 3);
	json_decref(j);
	bisect_report_release(&r);
	/* The wall clock's report reads as it always did. */
	fill(&r);
	j = bisect_report_to_json(&r);
	ck_assert_str_eq(json_string_value(json_object_get(j, "clock")),
			 "wall");
	ck_assert_ptr_null(json_object_get(j, "icount_shift"));
	json_decref(j);
	bisect_report_release(&r);
	strbuf_release(&out);
}
END_TEST

/*
 * An answer found on the virtual clock gives its size on TCG's wall clock
 * too: both figures always, and in words when the two sizes are more than
 * 1.5x apart in log ratio, or point different ways. The table's row is
 * the virtual clock's: 320.4 -> 32.1 MB/s, -90%.
 */
static const struct {
	double parent, culprit, pair_ratio;
	const char *line, *words; /* words NULL: none said */
} wall_cases[] = {
	/* ln 0.02 against ln 0.1: 1.7x larger. */
	{ 961.4e6, 19.2e6, NAN, "parent 961.4, culprit 19.2 MB/s, -98.0%",
	  "1.7x larger than the virtual clock's -90.0%" },
	/* ln 0.2 against ln 0.1: 1.4x smaller, within the 1.5x. */
	{ 961.4e6, 196.3e6, 0.2, "parent 961.4, culprit 196.3 MB/s, -80.0%",
	  NULL },
	/* The pairs' own ratio rules over the medians'. */
	{ 900e6, 300e6, 0.5, "parent 900.0, culprit 300.0 MB/s, -50.0%",
	  "3.3x smaller than the virtual clock's -90.0%" },
	{ 500e6, 510e6, 1.02, "+2.0%",
	  "the wall clock does not show the drop the virtual clock found" },
	{ NAN, NAN, NAN, "on TCG's wall clock: no figure (6 boots gave no "
			 "sample)", NULL },
};

START_TEST(wall_clock_size_beside_the_virtual_one)
{
	struct bisect_report r;
	struct strbuf out = STRBUF_INIT;
	json_t *j, *w;

	fill(&r);
	r.clock.kind = CLOCK_VIRTUAL;
	r.clock.shift = 4;
	r.wall.pairs = 3;
	r.wall.boots = 6;
	r.wall.parent = wall_cases[_i].parent;
	r.wall.culprit = wall_cases[_i].culprit;
	r.wall.pair_ratio = wall_cases[_i].pair_ratio;
	bisect_report_render_text(&r, &out);
	ck_assert_msg(strstr(out.buf, wall_cases[_i].line), "%s", out.buf);
	if (wall_cases[_i].words)
		ck_assert_msg(strstr(out.buf, wall_cases[_i].words), "%s",
			      out.buf);
	else
		ck_assert_msg(!strstr(out.buf, "than the virtual clock's") &&
				      !strstr(out.buf, "does not show"),
			      "%s", out.buf);
	j = bisect_report_to_json(&r);
	w = json_object_get(j, "wall_clock");
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(json_integer_value(json_object_get(w, "pairs")), 3);
	if (isfinite(wall_cases[_i].parent))
		ck_assert(json_is_real(json_object_get(w, "change_pct")));
	else
		ck_assert(json_is_null(json_object_get(w, "change_pct")));
	json_decref(j);
	bisect_report_release(&r);
	/* Not measured: not a word of it, in text or JSON. */
	fill(&r);
	strbuf_reset(&out);
	bisect_report_render_text(&r, &out);
	ck_assert(!strstr(out.buf, "wall clock"));
	j = bisect_report_to_json(&r);
	ck_assert_ptr_null(json_object_get(j, "wall_clock"));
	json_decref(j);
	bisect_report_release(&r);
	strbuf_release(&out);
}
END_TEST

/* A line that gave way is said in the report, under the answer. */
START_TEST(a_line_that_gave_way_is_said)
{
	struct bisect_report r;
	struct strbuf out = STRBUF_INIT;
	json_t *j;

	fill(&r);
	r.note = xstrdup("the job's 25% line gave way: the endpoints differ by "
			 "-22.9%");
	bisect_report_render_text(&r, &out);
	ck_assert_msg(strstr(out.buf, "confidence 98.1%"), "%s", out.buf);
	ck_assert_msg(strstr(out.buf, "\n  the job's 25% line gave way"),
		      "%s", out.buf);
	j = bisect_report_to_json(&r);
	ck_assert_str_eq(json_string_value(json_object_get(j, "note")),
			 r.note);
	json_decref(j);
	bisect_report_release(&r);
	strbuf_release(&out);
}
END_TEST

START_TEST(identical_image_is_called_noise)
{
	struct bisect_report r;
	struct strbuf out = STRBUF_INIT;

	fill(&r);
	r.identical_image = 1;
	bisect_report_render_text(&r, &out);
	ck_assert_msg(strstr(out.buf, "byte-identical") &&
			      strstr(out.buf, "probably noise"),
		      "%s", out.buf);
	bisect_report_release(&r);
	strbuf_release(&out);
}
END_TEST

START_TEST(inconclusive_lists_every_suspect)
{
	struct bisect_report r;
	struct strbuf out = STRBUF_INIT;

	bisect_report_init(&r);
	r.job = xstrdup("demo");
	r.status = STATE_INCONCLUSIVE;
	r.suspects = xcalloc(2, sizeof(*r.suspects));
	r.nr_suspects = 2;
	strcpy(r.suspects[0].id, CULPRIT);
	r.suspects[0].subject = xstrdup("one");
	strcpy(r.suspects[1].id, PARENT);
	bisect_report_render_text(&r, &out);
	ck_assert(strstr(out.buf, "inconclusive: the first bad commit is one of:"));
	ck_assert(strstr(out.buf, CULPRIT " one"));
	ck_assert(strstr(out.buf, PARENT));
	ck_assert(!strstr(out.buf, "first slow commit found"));
	bisect_report_release(&r);
	strbuf_release(&out);
}
END_TEST

START_TEST(json_summary_carries_units_and_figures)
{
	struct bisect_report r;
	json_t *j, *m;

	fill(&r);
	j = bisect_report_to_json(&r);
	ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "done");
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_object_get(j, "culprit"), "id")),
			 CULPRIT);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "builds_cached")), 4);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "boots")), 42);
	m = json_array_get(json_object_get(j, "metrics"), 0);
	ck_assert(fabs(json_real_value(json_object_get(m, "change_pct")) -
		       (32.1 - 320.4) / 320.4 * 100) < 1e-9);
	ck_assert(json_is_true(json_object_get(m, "significant")));
	ck_assert(fabs(json_real_value(json_object_get(j, "total_seconds")) - 1392) < 1e-9);
	json_decref(j);
	bisect_report_release(&r);
}
END_TEST

/* Two profiles of one function each, base and head of a culprit. */
static void add_profile(struct bisect_report *r)
{
	struct profile a = PROFILE_INIT, b = PROFILE_INIT;
	a.io_bytes = b.io_bytes = 2000000;
	a.kernel_insns = 1000;
	b.kernel_insns = 3000;
	a.fns = xcalloc(1, sizeof(*a.fns));
	b.fns = xcalloc(1, sizeof(*b.fns));
	a.fns[0] = (struct profile_fn){xstrdup("ondemand_readahead"), 1000};
	b.fns[0] = (struct profile_fn){xstrdup("ondemand_readahead"), 3000};
	a.nr = b.nr = 1;
	ck_assert_int_eq(profile_diff(&r->profile, &a, &b), 0);
	profile_release(&a);
	profile_release(&b);
}

/*
 * A culprit profiled with its parent: the difference in the text, after
 * the figures, saying what is counted, and in summary.json; a profile
 * not taken says why instead.
 */
START_TEST(profile_difference_in_text_and_json)
{
	struct bisect_report r;
	struct strbuf out = STRBUF_INIT;

	fill(&r);
	add_profile(&r);
	bisect_report_render_text(&r, &out);
	ck_assert_msg(strstr(out.buf, "profile, 5ca50121b814 (parent) -> "
				      "984e84ab9b31 (culprit)"),
		      "%s", out.buf);
	ck_assert(strstr(out.buf, "not cycles"));
	ck_assert_msg(strstr(out.buf, "+200.0%"), "%s", out.buf);
	ck_assert(strstr(out.buf, "[all kernel]") <
		  strstr(out.buf, "ondemand_readahead"));
	json_t *j = bisect_report_to_json(&r);
	json_t *p = json_object_get(j, "profile");
	ck_assert_ptr_nonnull(p);
	ck_assert(fabs(json_real_value(json_object_get(
			       json_object_get(p, "total"), "head_insns_per_mb")) -
		       1500) < 1e-9);
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_array_get(json_object_get(p, "functions"), 0),
				 "function")),
			 "ondemand_readahead");
	json_decref(j);
	bisect_report_release(&r);
	strbuf_reset(&out);

	fill(&r);
	r.profile_note = xstrdup("not taken: QEMU loads no plugin");
	bisect_report_render_text(&r, &out);
	ck_assert(strstr(out.buf, "profile: not taken: QEMU loads no plugin"));
	j = bisect_report_to_json(&r);
	ck_assert_ptr_null(json_object_get(j, "profile"));
	ck_assert_str_eq(json_string_value(json_object_get(j, "profile_note")),
			 "not taken: QEMU loads no plugin");
	json_decref(j);
	bisect_report_release(&r);
	strbuf_release(&out);
}
END_TEST

START_TEST(write_puts_both_files_beside_each_other)
{
	char dir[] = "/tmp/check_report.XXXXXX";
	struct bisect_report r;
	struct strbuf sb = STRBUF_INIT;
	char *txt, *js;
	json_t *j;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	fill(&r);
	ck_assert_int_eq(bisect_report_write(&r, dir), 0);
	txt = xstrfmt("%s/report.txt", dir);
	js = xstrfmt("%s/summary.json", dir);
	ck_assert_int_eq(read_file(txt, &sb), 0);
	ck_assert(strstr(sb.buf, CULPRIT));
	strbuf_reset(&sb);
	ck_assert_int_eq(read_file(js, &sb), 0);
	j = json_loads(sb.buf, 0, NULL);
	ck_assert_ptr_nonnull(j);
	json_decref(j);
	remove_tree(dir);
	free(txt);
	free(js);
	strbuf_release(&sb);
	bisect_report_release(&r);
}
END_TEST

/*
 * A finished bisection's report read back holds what a re-run prints and
 * publishes: the text as written, the parent and the table's figures
 * (a re-run used to rewrite it without them, and notify 0.0%), and what
 * stands beside the answer: its share, the revert check, every change
 * (the reader left them out: the page could not show them).
 */
START_TEST(stored_report_reads_back_whole)
{
	char dir[] = "/tmp/check_report.XXXXXX";
	struct bisect_report r, back;
	struct strbuf txt = STRBUF_INIT, err = STRBUF_INIT;
	struct bisect_report_change *chg;
	char *path;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	fill(&r);
	r.answer.have_share = 1;
	r.answer.culprit_pct = -6.7;
	r.answer.endpoints_pct = -9.8;
	r.answer.explains_pct = 67;
	r.answer.rest_pct = 33;
	r.answer.rest_beyond_noise = 1;
	r.answer.revert = REPORT_REVERT_MEASURED;
	memcpy(r.answer.reverted, CULPRIT, 41);
	memcpy(r.answer.revert_commit, PARENT, 41);
	r.answer.revert_pairs = 3;
	r.answer.brought_pct = 68;
	chg = bisect_report_answer_add_change(&r.answer);
	memcpy(chg->commit, CULPRIT, 41);
	memcpy(chg->parent, PARENT, 41);
	chg->change_pct = -6.7;
	chg->answer = 1;
	chg = bisect_report_answer_add_change(&r.answer);
	memcpy(chg->commit, PARENT, 41);
	memcpy(chg->parent, CULPRIT, 41);
	chg->change_pct = -3.3;
	chg->pairs = 2;
	chg->confidence = 0.97;
	ck_assert_int_eq(bisect_report_write(&r, dir), 0);
	bisect_report_render_text(&r, &txt);
	bisect_report_init(&back);
	ck_assert_int_eq(bisect_report_load(&back, dir, CULPRIT), 0);
	ck_assert_str_eq(back.text, txt.buf);
	ck_assert_str_eq(back.parent, PARENT);
	ck_assert_int_eq(back.status, STATE_DONE);
	ck_assert_uint_eq(back.nr_rows, 2);
	ck_assert(back.rows[0].good_median == 320.4);
	ck_assert(back.rows[0].bad_median == 32.1);
	ck_assert(back.rows[0].significant);
	ck_assert_str_eq(back.culprit.subject, r.culprit.subject);
	ck_assert(back.answer.have_share && back.answer.rest_beyond_noise);
	ck_assert(back.answer.explains_pct == 67 && back.answer.rest_pct == 33);
	ck_assert_int_eq(back.answer.revert, REPORT_REVERT_MEASURED);
	ck_assert_str_eq(back.answer.revert_commit, PARENT);
	ck_assert_uint_eq(back.answer.revert_pairs, 3);
	ck_assert(back.answer.brought_pct == 68);
	ck_assert_uint_eq(back.answer.nr_changes, 2);
	ck_assert(back.answer.changes[0].answer);
	ck_assert_str_eq(back.answer.changes[1].commit, PARENT);
	ck_assert(back.answer.changes[1].change_pct == -3.3);
	ck_assert_uint_eq(back.answer.changes[1].pairs, 2);
	ck_assert(back.answer.changes[1].confidence == 0.97);
	ck_assert(isnan(back.answer.changes[0].confidence));
	bisect_report_release(&back);
	/* Another answer than the state's is stale: not served. */
	error_capture(&err);
	ck_assert_int_eq(bisect_report_load(&back, dir, PARENT), 1);
	error_capture(NULL);
	ck_assert(strstr(err.buf, "does not hold the answer"));
	ck_assert_ptr_null(back.text);
	/* None stored yet: quietly none. */
	path = xstrfmt("%s/summary.json", dir);
	unlink(path);
	strbuf_reset(&err);
	error_capture(&err);
	ck_assert_int_eq(bisect_report_load(&back, dir, CULPRIT), 1);
	error_capture(NULL);
	ck_assert_uint_eq(err.len, 0);
	remove_tree(dir);
	free(path);
	strbuf_release(&err);
	strbuf_release(&txt);
	bisect_report_release(&r);
}
END_TEST

/*
 * A revert that brings back less than half a percent says none, not
 * "-0%" (two changes: the later one hides the first at the tip), and
 * one pair is a pair.
 */
START_TEST(revert_of_nothing_says_none)
{
	struct bisect_report_answer a;
	struct strbuf out = STRBUF_INIT;

	bisect_report_answer_init(&a);
	a.revert = REPORT_REVERT_MEASURED;
	memcpy(a.reverted, CULPRIT, 41);
	a.revert_pairs = 1;
	a.brought_pct = -0.3;
	a.brought_mbps = -0.1;
	bisect_report_render_found(&a, &out);
	ck_assert_msg(strstr(out.buf, "brings back none of the drop (-0.1 MB/s)"),
		      "%s", out.buf);
	ck_assert_msg(strstr(out.buf, ": 1 pair of the revert"), "%s", out.buf);
	ck_assert_ptr_null(strstr(out.buf, "-0%"));
	strbuf_release(&out);
	bisect_report_answer_release(&a);
}
END_TEST

START_TEST(status_line_has_step_commit_samples_and_time_left)
{
	struct progress p;
	struct strbuf out = STRBUF_INIT;
	FILE *f = tmpfile();

	progress_init(&p, f);
	p.start_ns = 1000000000ull;
	progress_commit(&p, "step", 2, 4, CULPRIT, "block: shrink");
	p.step_start_ns = 61000000000ull; /* 60 s after the start */
	p.steps_done = 1;
	p.step_seconds = 120;
	p.samples = 42;
	progress_format(&p, 91000000000ull, &out);
	/* 120 s per step, 3 steps to go (2, 3, 4), 30 s into this one. */
	ck_assert_msg(!strcmp(out.buf, "step 2/4 984e84ab9b31 block: shrink | "
				       "42 samples | 1m30s, ~5m30s left"),
		      "got '%s'", out.buf);
	progress_release(&p);
	fclose(f);
	strbuf_release(&out);
}
END_TEST

START_TEST(log_gets_plain_lines_and_no_noise)
{
	struct progress p;
	FILE *f = tmpfile();
	char buf[4096];
	size_t n;

	progress_init(&p, f);
	ck_assert_int_eq(p.tty, 0);
	progress_commit(&p, "step", 2, 4, CULPRIT, "block: shrink");
	progress_phase(&p, "boot %d/%d", 3, 8);
	progress_add_samples(&p, 3);
	progress_commit(&p, "good", 0, 0, PARENT, "fs: debug");
	progress_release(&p);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	ck_assert_str_eq(buf, "[bisect] step 2/4 testing 984e84ab9b31 block: shrink\n"
			      "[bisect] good: testing 5ca50121b814 fs: debug\n");
	fclose(f);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, text_names_the_culprit_and_the_table);
	tcase_add_test(tc, virtual_clock_names_its_unit);
	tcase_add_loop_test(tc, wall_clock_size_beside_the_virtual_one, 0,
			    sizeof(wall_cases) / sizeof(wall_cases[0]));
	tcase_add_test(tc, a_line_that_gave_way_is_said);
	tcase_add_test(tc, identical_image_is_called_noise);
	tcase_add_test(tc, inconclusive_lists_every_suspect);
	tcase_add_test(tc, json_summary_carries_units_and_figures);
	tcase_add_test(tc, profile_difference_in_text_and_json);
	tcase_add_test(tc, write_puts_both_files_beside_each_other);
	tcase_add_test(tc, stored_report_reads_back_whole);
	tcase_add_test(tc, revert_of_nothing_says_none);
	tcase_add_test(tc, status_line_has_step_commit_samples_and_time_left);
	tcase_add_test(tc, log_gets_plain_lines_and_no_noise);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(report_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
