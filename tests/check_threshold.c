/*
 * check_threshold.c: a job's line between fast and slow
 * (harness/stats/threshold.c), the one reading of it that a step's
 * verdict, the pairs that confirm an answer and a sweep share: where the
 * line lies below a baseline, for a drop and for a rise, and the lines
 * that lie nowhere; where "auto" puts the slow level; and its text.
 */
#include "threshold.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

static const struct {
	enum threshold_kind kind;
	double value, base_bps;
	int faster;
	int rc;
	double level_bps; /* where the line lies, in bytes/s */
} lines[] = {
	/* 10% below 300 MB/s is 270 MB/s; 10% above it, 330. */
	{THRESHOLD_PERCENT, 10, 300e6, 0, 0, 270e6},
	{THRESHOLD_PERCENT, 10, 300e6, 1, 0, 330e6},
	/* An absolute line lies as far from any baseline in MB/s. */
	{THRESHOLD_MBPS, 50, 300e6, 0, 0, 250e6},
	{THRESHOLD_MBPS, 50, 300e6, 1, 0, 350e6},
	{THRESHOLD_MBPS, 50, 80e6, 0, 0, 30e6},
	/* A rise has no ceiling; a drop stops at zero. */
	{THRESHOLD_PERCENT, 150, 300e6, 1, 0, 750e6},
	{THRESHOLD_PERCENT, 100, 300e6, 0, -1, 0},
	{THRESHOLD_MBPS, 300, 300e6, 0, -1, 0},
	{THRESHOLD_MBPS, 50, 0, 0, -1, 0},
	{THRESHOLD_PERCENT, 0, 300e6, 0, -1, 0},
	{THRESHOLD_MBPS, -5, 300e6, 1, -1, 0},
	/* "auto": the bad endpoint's level draws it, not the threshold. */
	{THRESHOLD_AUTO, 0, 300e6, 0, -1, 0},
};

START_TEST(the_line_lies_where_the_job_puts_it)
{
	struct threshold t = {lines[_i].kind, lines[_i].value};
	double drop = 1;
	int rc =
		threshold_drop(&drop, &t, lines[_i].base_bps, lines[_i].faster);

	ck_assert_int_eq(rc, lines[_i].rc);
	if (rc)
		return;
	ck_assert(drop < 0);
	/* The drop is the log ratio in the frame where the change goes down. */
	double level =
		lines[_i].base_bps * exp(lines[_i].faster ? -drop : drop);
	ck_assert_double_eq_tol(level, lines[_i].level_bps, 1);
}
END_TEST

/* The line as people read it, in the words a job writes. */
START_TEST(the_line_is_written_as_the_job_writes_it)
{
	static const struct {
		struct threshold t;
		const char *text;
	} cases[] = {
		{{THRESHOLD_AUTO, 0}, "auto"},
		{{THRESHOLD_PERCENT, 25}, "25%"},
		{{THRESHOLD_PERCENT, 2.5}, "2.5%"},
		{{THRESHOLD_MBPS, 50}, "50 MB/s"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct strbuf sb = STRBUF_INIT;
		threshold_text(&sb, &cases[i].t);
		ck_assert_str_eq(sb.buf, cases[i].text);
		strbuf_release(&sb);
	}
}
END_TEST

/*
 * The slow level a verdict weighs boots against (ln of bytes/s, the sign
 * turned for a rise): the line's below the baseline, or with auto the bad
 * endpoint's own level, which must lie below the baseline's.
 */
START_TEST(auto_puts_the_slow_level_at_the_bad_endpoint)
{
	struct threshold pct = {THRESHOLD_PERCENT, 10}, a = {THRESHOLD_AUTO, 0};
	double fast = log(300e6), slow = 0;

	ck_assert_int_eq(threshold_slow_level(&slow, &pct, fast, NAN, 0), 0);
	ck_assert_double_eq_tol(exp(slow), 270e6, 1);
	ck_assert_int_eq(threshold_slow_level(&slow, &a, fast, log(200e6), 0),
			 0);
	ck_assert_double_eq(slow, log(200e6));
	/* A rise: the frame turns the sign, and the bad level is above. */
	ck_assert_int_eq(
		threshold_slow_level(&slow, &a, -fast, -log(400e6), 1), 0);
	ck_assert_double_eq(slow, -log(400e6));
	/* No bad boots, or a bad endpoint no slower: no level. */
	ck_assert_int_eq(threshold_slow_level(&slow, &a, fast, NAN, 0), -1);
	ck_assert_int_eq(threshold_slow_level(&slow, &a, fast, fast, 0), -1);
	pct.value = 100;
	ck_assert_int_eq(threshold_slow_level(&slow, &pct, fast, NAN, 0), -1);
}
END_TEST

/*
 * The drop the answer's pairs seek: the line's, or with auto the
 * endpoints' own, whichever way it went; and a sweep's change past the
 * line (auto: every change is).
 */
START_TEST(pairs_and_sweeps_read_the_same_line)
{
	struct threshold pct = {THRESHOLD_PERCENT, 10}, a = {THRESHOLD_AUTO, 0};
	double drop = 0;

	ck_assert_int_eq(threshold_pairs_drop(&drop, &pct, 300e6, 0, 0), 0);
	ck_assert_double_eq_tol(drop, log(0.9), 1e-12);
	ck_assert_int_eq(threshold_pairs_drop(&drop, &a, 300e6, 200e6, 0), 0);
	ck_assert_double_eq_tol(drop, log(200.0 / 300.0), 1e-12);
	ck_assert_int_eq(threshold_pairs_drop(&drop, &a, 300e6, 450e6, 1), 0);
	ck_assert_double_eq_tol(drop, -log(1.5), 1e-12);
	/* No bad endpoint measured, or none apart: no drop to seek. */
	ck_assert_int_eq(threshold_pairs_drop(&drop, &a, 300e6, 0, 0), -1);
	ck_assert_int_eq(threshold_pairs_drop(&drop, &a, 300e6, 300e6, 0), -1);

	ck_assert(threshold_past(&pct, 300e6, 260e6, 0));
	ck_assert(!threshold_past(&pct, 300e6, 280e6, 0));
	ck_assert(threshold_past(&pct, 300e6, 340e6, 1));
	ck_assert(threshold_past(&a, 300e6, 299e6, 0));
}
END_TEST

static Suite *threshold_suite(void)
{
	Suite *s = suite_create("threshold");
	TCase *tc = tcase_create("threshold");
	tcase_add_loop_test(tc, the_line_lies_where_the_job_puts_it, 0,
			    (int)(sizeof(lines) / sizeof(*lines)));
	tcase_add_test(tc, the_line_is_written_as_the_job_writes_it);
	tcase_add_test(tc, auto_puts_the_slow_level_at_the_bad_endpoint);
	tcase_add_test(tc, pairs_and_sweeps_read_the_same_line);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	int failed;
	SRunner *sr = srunner_create(threshold_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
