/*
 * check_verdict.c: verdicts on per-boot values (verdict.c): a real drop is
 * bad, noise is never bad, a commit at the baseline's level is good only
 * with enough boots, the small-sample floor, the endpoint check, and a
 * fixed-seed simulation of adaptive looks that measures the false-bad rate
 * and the power.
 */
#include "stats.h"
#include "util.h"
#include "verdict.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MB 1e6

static struct verdict_input input(const double *base, size_t nb,
				  const double *cand, size_t nc)
{
	struct verdict_input in = { 0 };
	in.base = base;
	in.n_base = nb;
	in.cand = cand;
	in.n_cand = nc;
	in.threshold.kind = THRESHOLD_PERCENT;
	in.threshold.value = 10;
	in.runs_min = 3;
	in.runs_max = 8;
	return in;
}

/* Per-boot values around `mb` MB/s with relative noise `pct`. */
static void draw(struct stats_rng *rng, double *v, size_t n, double mb,
		 double pct)
{
	for (size_t i = 0; i < n; i++)
		v[i] = mb * MB * (1 + pct / 100 * stats_rng_normal(rng));
}

START_TEST(drop_of_25pct_5v5_is_bad)
{
	/* 3% noise, fully separated: p = 1/252 <= 0.05 / 6. */
	double base[] = { 1000 * MB, 1030 * MB, 970 * MB, 1010 * MB, 990 * MB };
	double cand[5];
	double f[] = { 1.02, 0.98, 1.0, 1.03, 0.97 };
	struct verdict v;
	for (int i = 0; i < 5; i++)
		cand[i] = 750 * MB * f[i];
	struct verdict_input in = input(base, 5, cand, 5);
	ck_assert_int_eq(stats_verdict(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_BAD);
	ck_assert_double_eq_tol(v.p_slower, 1.0 / 252, 1e-12);
	ck_assert_double_eq_tol(v.alpha_look, 0.05 / 6, 1e-12);
	ck_assert_double_eq_tol(v.error, 6.0 / 252, 1e-12);
	ck_assert_double_eq_tol(v.base_median, 1000 * MB, 1);
	ck_assert_double_eq_tol(v.cand_median, 750 * MB, 1);
	ck_assert_double_eq_tol(v.pct_change, -25, 1e-9);
	ck_assert_double_eq_tol(v.line, 900 * MB, 1);
	ck_assert_double_eq(v.cliff_delta, -1);
	ck_assert_double_lt(v.shift, -200 * MB);
	ck_assert_uint_eq(v.n_base, 5);
	ck_assert_uint_eq(v.n_cand, 5);
	ck_assert_ptr_nonnull(strstr(v.reason, "-25.0%"));
	ck_assert_int_eq(verdict_more_boots(&v, 8), VERDICT_NEXT_DONE);
}
END_TEST

START_TEST(floor_3v3_never_decides)
{
	/*
	 * 3 against 3 cannot give p below 1/20 = 0.05 > 0.05 / 6: neither a
	 * 50% drop nor an identical candidate decides, and the reason says
	 * why; another boot is worth it.
	 */
	double base[] = { 1000 * MB, 1001 * MB, 999 * MB };
	double slow[] = { 500 * MB, 501 * MB, 499 * MB };
	struct verdict v;
	struct verdict_input in = input(base, 3, slow, 3);
	ck_assert_int_eq(stats_verdict(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_UNDECIDED);
	ck_assert_double_eq_tol(v.p_floor, 0.05, 1e-12);
	ck_assert_ptr_nonnull(strstr(v.reason, "cannot reach"));
	ck_assert_int_eq(verdict_more_boots(&v, 8), VERDICT_NEXT_BOOT);
	in.cand = base;
	ck_assert_int_eq(stats_verdict(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_UNDECIDED);
	ck_assert_double_eq(v.error, 1);
	/*
	 * With a single planned look alpha is 0.05 and the floor is reached
	 * exactly: a full separation decides.
	 */
	in.runs_max = 3;
	in.cand = slow;
	ck_assert_int_eq(stats_verdict(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_BAD);
	in.cand = base;
	ck_assert_int_eq(stats_verdict(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_GOOD);
	/* A bigger interleaved baseline lifts the floor for 3 boots. */
	double big[8] = { 1000 * MB, 1001 * MB, 999 * MB, 1002 * MB,
			  998 * MB,  1003 * MB, 997 * MB, 1000.5 * MB };
	in = input(big, 8, slow, 3);
	ck_assert_int_eq(stats_verdict(&v, &in), 0);
	ck_assert_double_eq_tol(v.p_floor, 1.0 / 165, 1e-12);
	ck_assert_msg(v.kind == VERDICT_BAD, "%s", v.reason);
}
END_TEST

START_TEST(too_few_boots_is_undecided)
{
	double base[] = { 1000 * MB, 1001 * MB, 999 * MB, 1000 * MB, 1000 * MB };
	double cand[] = { 500 * MB, 501 * MB };
	struct verdict v;
	struct verdict_input in = input(base, 5, cand, 2);
	ck_assert_int_eq(stats_verdict(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_UNDECIDED);
	ck_assert_ptr_nonnull(strstr(v.reason, "2 of 3 boots"));
}
END_TEST

START_TEST(baseline_level_with_enough_boots_is_good)
{
	struct stats_rng rng = STATS_RNG_INIT(1);
	double base[8], cand[8];
	struct verdict v;
	draw(&rng, base, 8, 1000, 3);
	draw(&rng, cand, 8, 1000, 3);
	struct verdict_input in = input(base, 8, cand, 8);
	ck_assert_int_eq(stats_verdict(&v, &in), 0);
	ck_assert_msg(v.kind == VERDICT_GOOD, "%s", v.reason);
	ck_assert_double_le(v.error, 0.05);
	ck_assert_double_le(v.p_fast, v.alpha_look);
	/* The same candidate, but only 3 boots against 3: not good yet. */
	in = input(base, 3, cand, 3);
	ck_assert_int_eq(stats_verdict(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_UNDECIDED);
}
END_TEST

START_TEST(drop_near_the_line_is_not_good)
{
	/*
	 * 9% down with a 10% threshold and 3% noise: hugging the line, it must
	 * not pass for good (it is not shown above the line) nor be blamed
	 * with its median above the line.
	 */
	struct stats_rng rng = STATS_RNG_INIT(2);
	double base[8], cand[8];
	struct verdict v;
	int good = 0;
	for (int t = 0; t < 50; t++) {
		draw(&rng, base, 8, 1000, 3);
		draw(&rng, cand, 8, 905, 3);
		struct verdict_input in = input(base, 8, cand, 8);
		ck_assert_int_eq(stats_verdict(&v, &in), 0);
		good += v.kind == VERDICT_GOOD;
		if (v.kind == VERDICT_BAD)
			ck_assert_double_lt(v.cand_median, v.line);
	}
	ck_assert_int_le(good, 5);
}
END_TEST

START_TEST(noise_only_is_never_bad)
{
	struct stats_rng rng = STATS_RNG_INIT(3);
	double base[8], cand[8];
	struct verdict v;
	for (int t = 0; t < 200; t++) {
		draw(&rng, base, 8, 1000, 3);
		draw(&rng, cand, 8, 1000, 3);
		struct verdict_input in = input(base, 8, cand, 8);
		ck_assert_int_eq(stats_verdict(&v, &in), 0);
		ck_assert_msg(v.kind != VERDICT_BAD, "trial %d: %s", t,
			      v.reason);
	}
}
END_TEST

START_TEST(threshold_auto_and_mbps)
{
	/* Good ~1000, bad ~600: the auto line is halfway, at 800 MB/s. */
	double base[6], bad[6], cand[6];
	struct verdict v;
	for (int i = 0; i < 6; i++) {
		double f = 1 + 0.01 * (i - 2.5);
		base[i] = 1000 * MB * f, bad[i] = 600 * MB * f;
	}
	struct verdict_input in = input(base, 6, cand, 6);
	in.threshold.kind = THRESHOLD_AUTO;
	in.bad = bad;
	in.n_bad = 6;
	for (int i = 0; i < 6; i++)
		cand[i] = 750 * MB * (1 + 0.01 * (i - 2.5));
	ck_assert_int_eq(stats_verdict(&v, &in), 0);
	ck_assert_double_eq_tol(v.line, 800 * MB, 1);
	ck_assert_int_eq(v.kind, VERDICT_BAD);
	/* 850 is above the line by 50 MB/s at 1% noise: good. */
	for (int i = 0; i < 6; i++)
		cand[i] = 850 * MB * (1 + 0.01 * (i - 2.5));
	ck_assert_int_eq(stats_verdict(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_GOOD);
	/* 15% drop, threshold 100 MB/s: the line is at 900. */
	in.threshold.kind = THRESHOLD_MBPS;
	in.threshold.value = 100;
	ck_assert_int_eq(stats_verdict(&v, &in), 0);
	ck_assert_double_eq_tol(v.line, 900 * MB, 1);
	ck_assert_int_eq(v.kind, VERDICT_BAD);
	/* Same 15% drop against a 20% threshold: not bad, and good. */
	in.threshold.kind = THRESHOLD_PERCENT;
	in.threshold.value = 20;
	ck_assert_int_eq(stats_verdict(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_GOOD);
}
END_TEST

START_TEST(invalid_input_is_an_error)
{
	double base[] = { 1, 2, 3 };
	struct verdict v;
	struct strbuf err = STRBUF_INIT;
	struct verdict_input in = input(base, 0, base, 3);
	error_capture(&err);
	ck_assert_int_eq(stats_verdict(&v, &in), -1);
	in.n_base = 3;
	in.threshold.kind = THRESHOLD_AUTO;
	ck_assert_int_eq(stats_verdict(&v, &in), -1);
	ck_assert_ptr_nonnull(strstr(err.buf, "auto"));
	in.threshold.kind = THRESHOLD_PERCENT;
	in.threshold.value = 0;
	ck_assert_int_eq(stats_verdict(&v, &in), -1);
	in.threshold.value = 10;
	in.runs_min = 9;
	ck_assert_int_eq(stats_verdict(&v, &in), -1);
	error_capture(NULL);
	strbuf_release(&err);
}
END_TEST

START_TEST(endpoints_separated_or_not)
{
	double good[6], bad[6];
	struct verdict v;
	for (int i = 0; i < 6; i++) {
		double f = 1 + 0.01 * (i - 2.5);
		good[i] = 800 * MB * f, bad[i] = 600 * MB * f;
	}
	struct verdict_input in = input(good, 6, NULL, 0);
	in.bad = bad;
	in.n_bad = 6;
	ck_assert_int_eq(verdict_endpoints(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_BAD);
	/* Bad only 3% slower than good with a 10% threshold: stop. */
	for (int i = 0; i < 6; i++)
		bad[i] = 776 * MB * (1 + 0.01 * (i - 2.5));
	ck_assert_int_eq(verdict_endpoints(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_GOOD);
	ck_assert_msg(strstr(v.reason, "good 800.0 MB/s") &&
			      strstr(v.reason, "bad 776.0 MB/s") &&
			      strstr(v.reason, "not slow"),
		      "%s", v.reason);
	/* Auto with bad faster than good: nothing to bisect. */
	in.threshold.kind = THRESHOLD_AUTO;
	for (int i = 0; i < 6; i++)
		bad[i] = 900 * MB;
	ck_assert_int_eq(verdict_endpoints(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_GOOD);
	ck_assert_ptr_nonnull(strstr(v.reason, "not slower"));
	ck_assert_ptr_nonnull(strstr(v.reason, "900.0 MB/s"));
	/* Auto with a clear gap: separated. */
	for (int i = 0; i < 6; i++)
		bad[i] = 700 * MB * (1 + 0.01 * (i - 2.5));
	ck_assert_int_eq(verdict_endpoints(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_BAD);
	ck_assert_double_eq_tol(v.line, 750 * MB, 1);
}
END_TEST

START_TEST(more_boots_then_skip)
{
	struct verdict v = { 0 };
	v.kind = VERDICT_UNDECIDED;
	v.n_cand = 5;
	ck_assert_int_eq(verdict_more_boots(&v, 8), VERDICT_NEXT_BOOT);
	v.n_cand = 8;
	ck_assert_int_eq(verdict_more_boots(&v, 8), VERDICT_NEXT_SKIP);
	v.kind = VERDICT_GOOD;
	ck_assert_int_eq(verdict_more_boots(&v, 8), VERDICT_NEXT_DONE);
}
END_TEST

START_TEST(path_confidence_multiplies)
{
	double err[] = { 0.01, 0.02, 0 };
	ck_assert_double_eq_tol(verdict_path_confidence(err, 3), 0.99 * 0.98,
				1e-12);
	ck_assert_double_eq(verdict_path_confidence(err, 0), 1);
}
END_TEST

/*
 * One simulated commit: the baseline starts with `nb0` boots and gets one
 * interleaved boot per candidate boot; the candidate is looked at after
 * each boot from runs_min to runs_max and stops at the first verdict.
 */
static enum verdict_kind simulate(struct stats_rng *rng, size_t nb,
				  double drop_pct, double noise_pct,
				  struct threshold thr, size_t *boots)
{
	double base[32], cand[16], bad[8];
	struct verdict v = { 0 };
	draw(rng, base, nb, 1000, noise_pct);
	draw(rng, bad, 8, 750, noise_pct);
	for (size_t k = 1; k <= 8; k++) {
		draw(rng, cand + k - 1, 1, 1000 * (1 - drop_pct / 100),
		     noise_pct);
		draw(rng, base + nb++, 1, 1000, noise_pct);
		if (k < 3)
			continue;
		struct verdict_input in = input(base, nb, cand, k);
		in.threshold = thr;
		in.bad = bad;
		in.n_bad = 8;
		ck_assert_int_eq(stats_verdict(&v, &in), 0);
		if (verdict_more_boots(&v, 8) != VERDICT_NEXT_BOOT)
			break;
	}
	*boots = v.n_cand;
	return v.kind;
}

START_TEST(simulation_error_rates)
{
	const int trials = 2000;
	struct threshold pct10 = { THRESHOLD_PERCENT, 10 };
	struct threshold autot = { THRESHOLD_AUTO, 0 };
	/* A line so close that only the separation test guards against noise. */
	struct threshold tiny = { THRESHOLD_PERCENT, 0.1 };
	struct {
		const char *what;
		size_t nb0; /* baseline boots before the first candidate boot */
		double drop, noise;
		struct threshold thr;
		int n[3];
		size_t boots;
	} sims[] = {
		{ "no change, 3% noise, 10% line", 5, 0, 3, pct10, { 0 }, 0 },
		{ "no change, 5% noise, 10% line", 5, 0, 5, pct10, { 0 }, 0 },
		{ "no change, 5% noise, auto line", 5, 0, 5, autot, { 0 }, 0 },
		{ "no change, 5% noise, 0.1% line", 5, 0, 5, tiny, { 0 }, 0 },
		{ "no change, 5% noise, 0.1%, base 3", 3, 0, 5, tiny, { 0 }, 0 },
		{ "25% drop, 5% noise, 10% line", 5, 25, 5, pct10, { 0 }, 0 },
		{ "25% drop, 5% noise, auto line", 5, 25, 5, autot, { 0 }, 0 },
		{ "25% drop, 5% noise, 10%, base 3", 3, 25, 5, pct10, { 0 }, 0 },
	};
	struct stats_rng rng = STATS_RNG_INIT(20261202);

	for (size_t s = 0; s < sizeof(sims) / sizeof(sims[0]); s++) {
		for (int t = 0; t < trials; t++) {
			size_t boots;
			sims[s].n[simulate(&rng, sims[s].nb0, sims[s].drop,
					   sims[s].noise, sims[s].thr,
					   &boots)]++;
			sims[s].boots += boots;
		}
		printf("verdict simulation: %-34s good %5.1f%% bad %5.1f%% "
		       "undecided %5.1f%% mean boots %.2f (%d trials)\n",
		       sims[s].what, 100.0 * sims[s].n[VERDICT_GOOD] / trials,
		       100.0 * sims[s].n[VERDICT_BAD] / trials,
		       100.0 * sims[s].n[VERDICT_UNDECIDED] / trials,
		       (double)sims[s].boots / trials, trials);
	}
	fflush(stdout);
	/* Noise is blamed less often than alpha, looks included. */
	for (int s = 0; s < 5; s++)
		ck_assert_double_lt((double)sims[s].n[VERDICT_BAD] / trials,
				    0.05);
	/* A 25% drop is found by 8 boots in more than 95% of commits. */
	for (int s = 5; s < 8; s++) {
		ck_assert_double_gt((double)sims[s].n[VERDICT_BAD] / trials,
				    0.95);
		ck_assert_double_lt((double)sims[s].n[VERDICT_GOOD] / trials,
				    0.05);
	}
	/* And an unchanged commit at 3% noise is passed as good. */
	ck_assert_double_gt((double)sims[0].n[VERDICT_GOOD] / trials, 0.95);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("verdict");
	TCase *tc = tcase_create("verdict");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, drop_of_25pct_5v5_is_bad);
	tcase_add_test(tc, floor_3v3_never_decides);
	tcase_add_test(tc, too_few_boots_is_undecided);
	tcase_add_test(tc, baseline_level_with_enough_boots_is_good);
	tcase_add_test(tc, drop_near_the_line_is_not_good);
	tcase_add_test(tc, noise_only_is_never_bad);
	tcase_add_test(tc, threshold_auto_and_mbps);
	tcase_add_test(tc, invalid_input_is_an_error);
	tcase_add_test(tc, endpoints_separated_or_not);
	tcase_add_test(tc, more_boots_then_skip);
	tcase_add_test(tc, path_confidence_multiplies);
	tcase_add_test(tc, simulation_error_rates);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
