/*
 * check_threshold.c: a job's line between fast and slow
 * (harness/stats/threshold.c), the one reading of it that a step's
 * verdict, the pairs that confirm an answer and a sweep share: where the
 * line lies below a baseline, for a drop and for a rise, and the lines
 * that lie nowhere.
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

static Suite *threshold_suite(void)
{
	Suite *s = suite_create("threshold");
	TCase *tc = tcase_create("threshold");
	tcase_add_loop_test(tc, the_line_lies_where_the_job_puts_it, 0,
			    (int)(sizeof(lines) / sizeof(*lines)));
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
