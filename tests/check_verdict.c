/*
 * check_verdict.c: the noise model (noise.c) and the sequential verdicts
 * (verdict.c): values computed by hand for the likelihood ratio and the
 * mixture ratio, a cliff decided by one boot, noise never blamed, the last
 * boot that fits neither level, the direction "faster", the endpoint
 * tests, and a fixed-seed simulation of sequential looks that measures
 * both error rates against Wald's bounds.
 */
#include "noise.h"
#include "stats.h"
#include "util.h"
#include "verdict.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MB 1e6

/* Per-boot values around `mb` MB/s with relative noise `pct`. */
static void draw(struct stats_rng *rng, double *v, size_t n, double mb,
		 double pct)
{
	for (size_t i = 0; i < n; i++)
		v[i] = mb * MB * exp(pct / 100 * stats_rng_normal(rng));
}

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
	in.error = 0.05;
	in.runs_min = 1;
	return in;
}

START_TEST(noise_pooled_by_hand)
{
	/* (0.005 + 0.0058) / (2 + 3): the prior's 2 df and the data's 3. */
	double a[] = { 0, 0.1 }, b[] = { 0, 0.02, 0.04 };
	struct noise_group g[] = { { a, 2 }, { b, 3 } };
	struct noise_model m;

	noise_estimate(&m, g, 2);
	ck_assert_double_eq_tol(m.sigma, sqrt(0.0108 / 5), 1e-9);
	ck_assert_double_eq_tol(m.df, 5, 1e-12);
	ck_assert_double_eq_tol(m.nu, 5, 1e-12);
	ck_assert_uint_eq(m.boots, 5);
	ck_assert_uint_eq(m.groups, 2);
}
END_TEST

START_TEST(noise_prior_floor_and_outlier)
{
	double one[] = { 0.3 }, same[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
					   1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
					   1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
					   1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	double wild[] = { 0, 0, 0, 0, 0, 0, 0, 0, 1.0 };
	struct noise_group g = { one, 1 };
	struct noise_model m;

	/* No spread anywhere: the prior. */
	noise_estimate(&m, &g, 1);
	ck_assert_double_eq_tol(m.sigma, NOISE_PRIOR_SIGMA, 1e-12);
	ck_assert_uint_eq(m.groups, 0);
	/* 48 identical boots: the prior fades, the floor holds. */
	g = (struct noise_group){ same, 48 };
	noise_estimate(&m, &g, 1);
	ck_assert_double_eq_tol(m.sigma, sqrt(0.005 / 49), 1e-9);
	ck_assert(m.sigma >= NOISE_FLOOR);
	ck_assert_double_eq_tol(m.nu, NOISE_MAX_NU, 1e-12);
	/*
	 * One boot 100% off eight identical ones: without the clip the scale
	 * would be sqrt((0.005 + 0.889) / 10) = 0.30; clipped at three floors
	 * every residual counts 0.0283: sqrt((0.005 + 9 * 0.0008) / 10).
	 */
	g = (struct noise_group){ wild, 9 };
	noise_estimate(&m, &g, 1);
	ck_assert_double_eq_tol(m.sigma, sqrt((0.005 + 9 * 0.0008) / 10),
				1e-6);
}
END_TEST

START_TEST(likelihood_ratio_by_hand)
{
	/*
	 * Baseline 1000 MB/s (pseudo-median of four boots at ±1% and ±2%),
	 * line 10% below, noise 5% with 10 degrees of freedom. One boot at
	 * 900 MB/s sits on the line: z_fast = ln(0.9) / (0.05 sqrt(1 + 1/4))
	 * = -1.8847, z_slow = 0, llr = -5.5 ln(1 + z_fast^2 / 10) = 1.6718.
	 */
	double base[4], cand[2] = { 900 * MB, 880 * MB };
	double d[] = { 0.02, -0.02, 0.01, -0.01 };
	struct noise_model nm = { .sigma = 0.05, .df = 10, .nu = 10 };
	struct verdict_input in = input(base, 4, cand, 1);
	struct verdict v;

	for (int i = 0; i < 4; i++)
		base[i] = 1000 * MB * exp(d[i]);
	in.noise = &nm;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_double_eq_tol(v.llr, 1.6718286108525584, 1e-9);
	ck_assert_double_eq_tol(v.bound, log(0.95 / 0.05), 1e-12);
	ck_assert_double_eq_tol(v.fast_level, 1000 * MB, 1);
	ck_assert_double_eq_tol(v.slow_level, 900 * MB, 1);
	ck_assert_double_eq_tol(v.error, 1 / (1 + exp(v.llr)), 1e-12);
	ck_assert_int_eq(v.kind, VERDICT_UNDECIDED); /* 1.67 < 2.94 */
	/*
	 * A second boot at 880: the mean of two, spread sqrt(1/2 + 1/4), is
	 * past the line, which then explains it fully (z_slow = 0).
	 */
	in.n_cand = 2;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_double_eq_tol(v.llr, 2.9989353605272004, 1e-9);
	ck_assert_int_eq(v.kind, VERDICT_BAD);
	ck_assert_double_eq_tol(v.pct_change, -11, 0.01);
	ck_assert_msg(strstr(v.reason, "slow"), "%s", v.reason);
}
END_TEST

START_TEST(cliff_decided_by_one_boot)
{
	/* Good at 200 MB/s ±5% (3 boots), bad at 30 (2 boots), auto line. */
	double base[] = { 200 * MB, 210 * MB, 192 * MB };
	double bad[] = { 30 * MB, 31 * MB };
	double slow[] = { 29.5 * MB }, fast[] = { 205 * MB };
	struct verdict_input in = input(base, 3, slow, 1);
	struct verdict v;

	in.threshold.kind = THRESHOLD_AUTO;
	in.bad = bad;
	in.n_bad = 2;
	in.error = 0.01;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_BAD);
	/* One boot is worth odds of 99:1 at most: it may be a hiccup. */
	ck_assert_double_eq_tol(v.error, VERDICT_HICCUP, 1e-12);
	in.cand = fast;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_GOOD);
	ck_assert_double_eq_tol(v.error, VERDICT_HICCUP, 1e-12);
	/* The bad level: the geometric mean of its two boots. */
	ck_assert_double_eq_tol(v.slow_level, sqrt(30.0 * 31) * MB, 1);
}
END_TEST

START_TEST(implausible_boot_earns_another)
{
	/* Good 1000, bad 200, noise 2%: a boot at 500 fits neither. */
	double base[] = { 1000 * MB, 1010 * MB, 990 * MB, 1005 * MB };
	double bad[] = { 200 * MB, 201 * MB, 199 * MB };
	double cand[] = { 500 * MB, 995 * MB };
	struct noise_model nm = { .sigma = 0.02, .df = 10, .nu = 10 };
	struct verdict_input in = input(base, 4, cand, 1);
	struct verdict v;

	in.noise = &nm;
	in.threshold.kind = THRESHOLD_AUTO;
	in.bad = bad;
	in.n_bad = 3;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_int_eq(v.implausible, 1);
	ck_assert_int_eq(v.kind, VERDICT_UNDECIDED);
	ck_assert_msg(strstr(v.reason, "fits neither"), "%s", v.reason);
	/* The commit is booted again: this boot fits the baseline. */
	in.cand = cand + 1;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_int_eq(v.implausible, 0);
	ck_assert_int_eq(v.kind, VERDICT_GOOD);
}
END_TEST

START_TEST(runs_min_is_a_floor)
{
	double base[] = { 200 * MB, 201 * MB };
	double cand[] = { 20 * MB };
	struct verdict_input in = input(base, 2, cand, 1);
	struct verdict v;

	in.runs_min = 2;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_UNDECIDED);
	ck_assert(v.llr > v.bound); /* decisive, but under the floor */
	ck_assert_msg(strstr(v.reason, "1 of 2 boots"), "%s", v.reason);
}
END_TEST

START_TEST(faster_direction)
{
	/* Looking for a rise of 10%: +25% is the change sought. */
	double base[] = { 100 * MB, 102 * MB, 98 * MB };
	double up[] = { 125 * MB, 126 * MB }, down[] = { 80 * MB, 79 * MB };
	struct verdict_input in = input(base, 3, up, 2);
	struct verdict v;

	in.faster = 1;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_BAD);
	ck_assert_double_eq_tol(v.slow_level, v.fast_level * 1.1, 1);
	/* A drop is not a rise: "good" (not the change sought). */
	in.cand = down;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_GOOD);
}
END_TEST

START_TEST(invalid_input_is_an_error)
{
	double base[] = { 100 * MB, 100 * MB }, cand[] = { 90 * MB };
	double bad[] = { 120 * MB, 121 * MB }, zero[] = { 0 };
	struct verdict_input in = input(base, 2, cand, 1);
	struct verdict v;
	struct strbuf err = STRBUF_INIT;

	error_capture(&err);
	in.n_base = 0;
	ck_assert_int_eq(verdict_decide(&v, &in), -1);
	in.n_base = 2;
	in.threshold.value = 100; /* a 100% drop draws no line */
	ck_assert_int_eq(verdict_decide(&v, &in), -1);
	in.threshold.kind = THRESHOLD_MBPS;
	in.threshold.value = 150; /* below zero */
	ck_assert_int_eq(verdict_decide(&v, &in), -1);
	in.threshold.kind = THRESHOLD_AUTO; /* no bad endpoint */
	ck_assert_int_eq(verdict_decide(&v, &in), -1);
	in.bad = bad; /* bad faster than good */
	in.n_bad = 2;
	ck_assert_int_eq(verdict_decide(&v, &in), -1);
	ck_assert_ptr_nonnull(strstr(err.buf, "needs bad"));
	in.threshold.kind = THRESHOLD_PERCENT;
	in.threshold.value = 10;
	in.n_bad = 0;
	in.cand = zero; /* a boot with no throughput has no logarithm */
	ck_assert_int_eq(verdict_decide(&v, &in), -1);
	error_capture(NULL);
	strbuf_release(&err);
}
END_TEST

START_TEST(mixture_ratio_by_hand)
{
	/*
	 * Auto endpoints, 3 boots each, noise 5% (t, 10 degrees of freedom)
	 * given: d = ln 0.8, spread 0.05 sqrt(2/3); the one-sided mixture
	 * ratio over a half-Cauchy of scale 0.2 is e^5.7278 (integrated
	 * independently on a grid 250 times finer); the other way round
	 * e^-2.4244.
	 */
	double good[] = { 100 * MB, 100 * MB, 100 * MB };
	double bad[] = { 80 * MB, 80 * MB, 80 * MB };
	struct noise_model nm = { .sigma = 0.05, .df = 10, .nu = 10 };
	struct verdict_input in = input(good, 3, NULL, 0);
	struct verdict v;

	in.threshold.kind = THRESHOLD_AUTO;
	in.noise = &nm;
	in.bad = bad;
	in.n_bad = 3;
	in.error = 0.01;
	ck_assert_int_eq(verdict_endpoints(&v, &in), 0);
	ck_assert_double_eq_tol(v.llr, 5.727778178858912, 1e-5);
	ck_assert_int_eq(v.kind, VERDICT_BAD);
	ck_assert_double_eq_tol(v.error, exp(-v.llr), 1e-15);
	ck_assert_msg(strstr(v.reason, "separated"), "%s", v.reason);
	in.base = bad;
	in.bad = good;
	ck_assert_int_eq(verdict_endpoints(&v, &in), 0);
	ck_assert_double_eq_tol(v.llr, -2.424435291408222, 0.01);
	ck_assert_int_eq(v.kind, VERDICT_UNDECIDED); /* never "good" */
	ck_assert(v.error == 1);
}
END_TEST

START_TEST(endpoints_fixed_threshold)
{
	/* A 10% line: bad 3.5% below good is shown not to be slow. */
	double good[] = { 800 * MB, 812 * MB, 790 * MB, 805 * MB,
			  798 * MB, 803 * MB, 795 * MB, 808 * MB };
	double same[] = { 776 * MB, 780 * MB, 770 * MB, 775 * MB,
			  772 * MB, 779 * MB, 771 * MB, 777 * MB };
	double slow[] = { 600 * MB, 605 * MB };
	struct verdict_input in = input(good, 8, NULL, 0);
	struct verdict v;

	in.error = 0.01;
	in.bad = same;
	in.n_bad = 8;
	ck_assert_int_eq(verdict_endpoints(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_GOOD);
	in.bad = slow;
	in.n_bad = 2;
	ck_assert_int_eq(verdict_endpoints(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_BAD);
}
END_TEST

START_TEST(path_confidence_multiplies)
{
	double e[] = { 0.01, 0.02, 0 }, nan_e[] = { NAN };

	ck_assert_double_eq_tol(verdict_path_confidence(e, 3), 0.99 * 0.98,
				1e-12);
	ck_assert(verdict_path_confidence(NULL, 0) == 1);
	/* A verdict of unknown error supports nothing. */
	ck_assert(verdict_path_confidence(nan_e, 1) == 0);
}
END_TEST

/*
 * Sequential looks as a probe takes them: the candidate booted one at a
 * time against a baseline of 4 boots that gains one boot per two of the
 * candidate's, noise estimated from the data, until decided or 16 boots.
 * Counts, over `trials`, verdicts that are wrong for a commit at the
 * baseline (slow) and at the line (fast).
 */
static void simulate(double cand_mb, double noise_pct, double error,
		     int trials, int *bad, int *good, double *boots)
{
	struct stats_rng rng = STATS_RNG_INIT(42);
	double base[16], cand[16];
	struct verdict v;

	*bad = *good = 0;
	*boots = 0;
	for (int t = 0; t < trials; t++) {
		size_t nb = 4, nc = 0;
		draw(&rng, base, nb, 1000, noise_pct);
		for (;;) {
			struct verdict_input in;
			draw(&rng, cand + nc++, 1, cand_mb, noise_pct);
			if (nc % 2 == 0 && nb < 16)
				draw(&rng, base + nb++, 1, 1000, noise_pct);
			in = input(base, nb, cand, nc);
			in.error = error;
			ck_assert_int_eq(verdict_decide(&v, &in), 0);
			if (v.kind != VERDICT_UNDECIDED || nc == 16)
				break;
		}
		*bad += v.kind == VERDICT_BAD;
		*good += v.kind == VERDICT_GOOD;
		*boots += (double)nc;
	}
	*boots /= trials;
}

START_TEST(simulation_error_rates)
{
	int bad, good;
	double boots;

	/*
	 * 5% noise, a 10% line, Wald's 5%: an unchanged commit is called
	 * slow, and a commit at the line fast, at most about 5% of the time
	 * (the estimated noise and the small baseline make the bound
	 * approximate: allow 7%).
	 */
	simulate(1000, 5, 0.05, 2000, &bad, &good, &boots);
	printf("unchanged, 5%% noise: slow %d, fast %d of 2000, %.2f boots\n",
	       bad, good, boots);
	ck_assert_int_le(bad, 140);
	ck_assert_int_ge(good, 1700);
	simulate(900, 5, 0.05, 2000, &bad, &good, &boots);
	printf("at the line, 5%% noise: slow %d, fast %d of 2000, %.2f "
	       "boots\n",
	       bad, good, boots);
	ck_assert_int_le(good, 140);
	ck_assert_int_ge(bad, 1700);
	/* A cliff at 20% noise: decided by the first boot nearly always. */
	simulate(150, 20, 0.05, 2000, &bad, &good, &boots);
	printf("-85%%, 20%% noise: slow %d of 2000, %.2f boots\n", bad, boots);
	ck_assert_int_ge(bad, 1990);
	ck_assert(boots < 1.1);
}
END_TEST

static Suite *verdict_suite(void)
{
	Suite *s = suite_create("verdict");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, noise_pooled_by_hand);
	tcase_add_test(tc, noise_prior_floor_and_outlier);
	tcase_add_test(tc, likelihood_ratio_by_hand);
	tcase_add_test(tc, cliff_decided_by_one_boot);
	tcase_add_test(tc, implausible_boot_earns_another);
	tcase_add_test(tc, runs_min_is_a_floor);
	tcase_add_test(tc, faster_direction);
	tcase_add_test(tc, invalid_input_is_an_error);
	tcase_add_test(tc, mixture_ratio_by_hand);
	tcase_add_test(tc, endpoints_fixed_threshold);
	tcase_add_test(tc, path_confidence_multiplies);
	tcase_add_test(tc, simulation_error_rates);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(verdict_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
