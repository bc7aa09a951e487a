/*
 * check_changepoint.c: change points on series shaped like real sweeps:
 * commits of 3 to 5 boots each, with boot-to-boot noise of 1.5 to 3%,
 * generated from fixed seeds so the series are the same on every run.
 */
#include "changepoint.h"
#include "stats.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

#define MAXC 40
#define MAXB 8

struct series {
	double v[MAXC][MAXB];
	struct changepoint_commit c[MAXC];
	size_t n;
};

/* levels[i] is commit i's true MB/s; noise is relative (0.02 = 2%). */
static void make(struct series *s, const double *levels, size_t n,
		 size_t boots, double noise, uint64_t seed)
{
	struct stats_rng r = STATS_RNG_INIT(seed);
	s->n = n;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < boots; j++)
			s->v[i][j] = levels[i] * 1e6 *
				     (1 + noise * stats_rng_normal(&r));
		s->c[i].values = s->v[i];
		s->c[i].n = boots;
	}
}

static void fill(double *levels, size_t from, size_t to, double v)
{
	for (size_t i = from; i < to; i++)
		levels[i] = v;
}

/* A 12% drop at commit 8 of 16, under several noise draws. */
START_TEST(step_found_at_the_right_commit)
{
	double lv[16];
	struct series s;
	struct changepoint_result r;

	fill(lv, 0, 8, 800);
	fill(lv, 8, 16, 704);
	make(&s, lv, 16, 3, 0.02, 100 + (uint64_t)_i);
	ck_assert_int_eq(changepoint_detect(&r, s.c, s.n, NULL), 0);
	ck_assert_uint_eq(r.nr, 1);
	ck_assert_uint_eq(r.points[0].index, 8);
	ck_assert_uint_eq(r.points[0].before, 7);
	ck_assert_int_eq(r.points[0].kind, CHANGEPOINT_REGRESSION);
	ck_assert(fabs(r.points[0].change_pct + 12) < 3);
	ck_assert(r.points[0].p_value <= 0.01);
	ck_assert(fabs(r.points[0].before_median / 1e6 - 800) < 16);
	ck_assert_uint_eq(r.nr_drifts, 0);
	changepoint_result_release(&r);
}
END_TEST

/* Down 10% at commit 6, then up 15% at commit 14 (an improvement). */
START_TEST(two_steps)
{
	double lv[20];
	struct series s;
	struct changepoint_result r;

	fill(lv, 0, 6, 500);
	fill(lv, 6, 14, 450);
	fill(lv, 14, 20, 517.5);
	make(&s, lv, 20, 3, 0.02, 200 + (uint64_t)_i);
	ck_assert_int_eq(changepoint_detect(&r, s.c, s.n, NULL), 0);
	ck_assert_uint_eq(r.nr, 2);
	ck_assert_uint_eq(r.points[0].index, 6);
	ck_assert_int_eq(r.points[0].kind, CHANGEPOINT_REGRESSION);
	ck_assert_uint_eq(r.points[1].index, 14);
	ck_assert_int_eq(r.points[1].kind, CHANGEPOINT_IMPROVEMENT);
	ck_assert(fabs(r.points[1].change_pct - 15) < 4);
	changepoint_result_release(&r);
}
END_TEST

/*
 * A regression and its fix in one short sweep, as a nightly range holds
 * them: fast, fast, slow, slow, fast, fast, with a machine's noise (20%
 * per boot, as on a shared host under TCG). No single split separates the
 * slow pair from both fast ends; the interval does, and both steps come
 * back. Boots shaped after one measured sweep (MB/s, 3 boots a commit;
 * commits 1 and 4 are its boot medians, the fast kernel flipping between
 * about 200 and 420 MB/s) give the same two steps.
 */
START_TEST(regression_and_fix_in_one_short_sweep)
{
	double lv[6] = { 200, 200, 30, 30, 200, 200 };
	struct series s;
	struct changepoint_result r;

	make(&s, lv, 6, 3, 0.2, 900 + (uint64_t)_i);
	ck_assert_int_eq(changepoint_detect(&r, s.c, s.n, NULL), 0);
	ck_assert_uint_eq(r.nr, 2);
	ck_assert_uint_eq(r.points[0].index, 2);
	ck_assert_int_eq(r.points[0].kind, CHANGEPOINT_REGRESSION);
	ck_assert_uint_eq(r.points[1].index, 4);
	ck_assert_int_eq(r.points[1].kind, CHANGEPOINT_IMPROVEMENT);
	changepoint_result_release(&r);
}
END_TEST

START_TEST(regression_and_fix_measured)
{
	static const double mbs[6][3] = {
		{ 198.6, 199.9, 198.2 }, { 274.7, 424.6, 197.9 },
		{ 31.9, 31.5, 32.1 },    { 31.4, 30.8, 31.6 },
		{ 417.2, 203.2, 208.2 }, { 201.0, 415.3, 199.4 },
	};
	double v[6][3];
	struct changepoint_commit c[6];
	struct changepoint_result r;

	for (size_t i = 0; i < 6; i++) {
		for (size_t j = 0; j < 3; j++)
			v[i][j] = mbs[i][j] * 1e6;
		c[i].values = v[i];
		c[i].n = 3;
	}
	ck_assert_int_eq(changepoint_detect(&r, c, 6, NULL), 0);
	ck_assert_uint_eq(r.nr, 2);
	ck_assert_uint_eq(r.points[0].index, 2);
	ck_assert_uint_eq(r.points[1].index, 4);
	changepoint_result_release(&r);
}
END_TEST

/*
 * 1.2% slower at every one of 16 commits (about 17% in all): no step is
 * reported, because none happened, but the drift is.
 */
START_TEST(slow_drift_is_a_drift_not_a_step)
{
	double lv[16];
	struct series s;
	struct changepoint_result r;

	for (size_t i = 0; i < 16; i++)
		lv[i] = 800 * pow(0.988, (double)i);
	make(&s, lv, 16, 3, 0.01, 300 + (uint64_t)_i);
	ck_assert_int_eq(changepoint_detect(&r, s.c, s.n, NULL), 0);
	ck_assert_uint_eq(r.nr, 0);
	ck_assert_uint_eq(r.nr_drifts, 1);
	ck_assert(r.drifts[0].change_pct < -8);
	changepoint_result_release(&r);
}
END_TEST

/* Flat series, noisier than the steps above: nothing is reported. */
START_TEST(pure_noise_has_no_change_point)
{
	double lv[24];
	struct series s;
	struct changepoint_result r;

	fill(lv, 0, 24, 640);
	make(&s, lv, 24, 4, 0.03, 400 + (uint64_t)_i);
	ck_assert_int_eq(changepoint_detect(&r, s.c, s.n, NULL), 0);
	ck_assert_uint_eq(r.nr, 0);
	ck_assert_uint_eq(r.nr_drifts, 0);
	changepoint_result_release(&r);
}
END_TEST

/* One commit 40% slow in the middle of a flat series is not a step. */
START_TEST(one_wild_commit_is_not_a_change_point)
{
	double lv[15];
	struct series s;
	struct changepoint_result r;

	fill(lv, 0, 15, 900);
	lv[7] = 540;
	make(&s, lv, 15, 3, 0.02, 500 + (uint64_t)_i);
	ck_assert_int_eq(changepoint_detect(&r, s.c, s.n, NULL), 0);
	ck_assert_uint_eq(r.nr, 0);
	changepoint_result_release(&r);
}
END_TEST

/* ...and one wild boot inside a real step does not move the step. */
START_TEST(wild_boot_does_not_move_a_step)
{
	double lv[12];
	struct series s;
	struct changepoint_result r;

	fill(lv, 0, 5, 700);
	fill(lv, 5, 12, 600);
	make(&s, lv, 12, 3, 0.02, 600);
	s.v[2][1] = 100e6; /* a boot that hit something else */
	ck_assert_int_eq(changepoint_detect(&r, s.c, s.n, NULL), 0);
	ck_assert_uint_eq(r.nr, 1);
	ck_assert_uint_eq(r.points[0].index, 5);
	changepoint_result_release(&r);
}
END_TEST

/* A significant 2% step is below the default 5% minimum effect. */
START_TEST(small_step_below_min_effect)
{
	double lv[16];
	struct series s;
	struct changepoint_result r;
	struct changepoint_options o = CHANGEPOINT_OPTIONS_INIT;

	fill(lv, 0, 8, 1000);
	fill(lv, 8, 16, 980);
	make(&s, lv, 16, 5, 0.003, 700);
	ck_assert_int_eq(changepoint_detect(&r, s.c, s.n, &o), 0);
	ck_assert_uint_eq(r.nr, 0);
	changepoint_result_release(&r);
	o.min_effect_pct = 1;
	ck_assert_int_eq(changepoint_detect(&r, s.c, s.n, &o), 0);
	ck_assert_uint_eq(r.nr, 1);
	ck_assert_uint_eq(r.points[0].index, 8);
	changepoint_result_release(&r);
}
END_TEST

/*
 * A steep step after a noisy commit is a step, not a drift: a sweep's
 * medians 355, 225 (one boot's machine in its slow mode: +-33%), a build
 * failure, then 30 and 27 MB/s. On the linear scale a line through these
 * fits better than two levels; the fit is on the logarithm.
 */
START_TEST(steep_step_after_a_noisy_commit)
{
	static const double v[4][3] = {{345, 355, 365},
				       {160, 224.5, 300},
				       {29.7, 29.9, 30.1},
				       {25.5, 27.2, 28.9}};
	double boots[5][3];
	struct changepoint_commit c[5] = {{0}};
	struct changepoint_result r;

	for (size_t i = 0, k = 0; i < 5; i++) {
		if (i == 2)
			continue; /* does not build */
		for (size_t j = 0; j < 3; j++)
			boots[i][j] = v[k][j] * 1e6;
		c[i].values = boots[i];
		c[i].n = 3;
		k++;
	}
	ck_assert_int_eq(changepoint_detect(&r, c, 5, NULL), 0);
	ck_assert_uint_eq(r.nr_drifts, 0);
	ck_assert_uint_eq(r.nr, 1);
	ck_assert_uint_eq(r.points[0].index, 3);
	ck_assert_uint_eq(r.points[0].before, 1);
	ck_assert_int_eq(r.points[0].kind, CHANGEPOINT_REGRESSION);
	changepoint_result_release(&r);
}
END_TEST

/* Unmeasured commits are passed over; indexes stay the series'. */
START_TEST(skipped_commits_keep_indexes)
{
	double lv[14];
	struct series s;
	struct changepoint_result r;

	fill(lv, 0, 7, 800);
	fill(lv, 7, 14, 680);
	make(&s, lv, 14, 3, 0.02, 800);
	s.c[6].n = 0; /* build failure just before the step */
	s.c[2].n = 0;
	ck_assert_int_eq(changepoint_detect(&r, s.c, s.n, NULL), 0);
	ck_assert_uint_eq(r.nr, 1);
	ck_assert_uint_eq(r.points[0].index, 7);
	ck_assert_uint_eq(r.points[0].before, 5);
	changepoint_result_release(&r);
}
END_TEST

/* Same input, same answer: the permutation generator has a fixed seed. */
START_TEST(deterministic)
{
	double lv[10];
	struct series s;
	struct changepoint_result a, b;

	fill(lv, 0, 5, 300);
	fill(lv, 5, 10, 270);
	make(&s, lv, 10, 3, 0.03, 900);
	ck_assert_int_eq(changepoint_detect(&a, s.c, s.n, NULL), 0);
	ck_assert_int_eq(changepoint_detect(&b, s.c, s.n, NULL), 0);
	ck_assert_uint_eq(a.nr, b.nr);
	for (size_t i = 0; i < a.nr; i++)
		ck_assert(a.points[i].p_value == b.points[i].p_value);
	changepoint_result_release(&a);
	changepoint_result_release(&b);
}
END_TEST

START_TEST(bad_options_rejected)
{
	struct changepoint_options o = CHANGEPOINT_OPTIONS_INIT;
	struct changepoint_result r;
	o.alpha = 0;
	ck_assert_int_eq(changepoint_detect(&r, NULL, 0, &o), -1);
}
END_TEST

START_TEST(empty_and_tiny_series)
{
	double v[2] = { 1, 2 };
	struct changepoint_commit c[2] = { { v, 1 }, { v + 1, 1 } };
	struct changepoint_result r;
	ck_assert_int_eq(changepoint_detect(&r, NULL, 0, NULL), 0);
	ck_assert_uint_eq(r.nr, 0);
	ck_assert_int_eq(changepoint_detect(&r, c, 2, NULL), 0);
	ck_assert_uint_eq(r.nr, 0);
	changepoint_result_release(&r);
}
END_TEST

static Suite *changepoint_suite(void)
{
	Suite *s = suite_create("changepoint");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, step_found_at_the_right_commit, 0, 5);
	tcase_add_loop_test(tc, two_steps, 0, 5);
	tcase_add_loop_test(tc, regression_and_fix_in_one_short_sweep, 0, 10);
	tcase_add_test(tc, regression_and_fix_measured);
	tcase_add_loop_test(tc, slow_drift_is_a_drift_not_a_step, 0, 5);
	tcase_add_loop_test(tc, pure_noise_has_no_change_point, 0, 10);
	tcase_add_loop_test(tc, one_wild_commit_is_not_a_change_point, 0, 5);
	tcase_add_test(tc, wild_boot_does_not_move_a_step);
	tcase_add_test(tc, small_step_below_min_effect);
	tcase_add_test(tc, skipped_commits_keep_indexes);
	tcase_add_test(tc, steep_step_after_a_noisy_commit);
	tcase_add_test(tc, deterministic);
	tcase_add_test(tc, bad_options_rejected);
	tcase_add_test(tc, empty_and_tiny_series);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(changepoint_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
