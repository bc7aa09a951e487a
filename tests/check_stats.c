/*
 * check_stats.c: the statistics (stats.c) against values worked out by hand
 * (the arithmetic is in the comments), against R's documented conventions
 * (quantile type 7, wilcox.test), and against brute-force enumeration of the
 * permutation distribution done here in the test.
 */
#include "stats.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

#define EPS 1e-9

START_TEST(median_odd_and_even)
{
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };
	ck_assert_double_eq_tol(stats_median(odd, 3), 2, EPS);
	ck_assert_double_eq_tol(stats_median(even, 4), 2.5, EPS);
	ck_assert_double_eq_tol(stats_median(one, 1), 7, EPS);
	ck_assert(isnan(stats_median(odd, 0)));
	/* The input is not sorted in place. */
	ck_assert_double_eq(odd[0], 3);
}
END_TEST

START_TEST(mean_stddev_pct)
{
	/*
	 * Mean 40 / 8 = 5; squared deviations 9+1+1+1+0+0+4+16 = 32, sample
	 * variance 32 / 7, sd = 2.1380899353; %stddev = 100 * sd / 5.
	 */
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	ck_assert_double_eq_tol(stats_mean(v, 8), 5, EPS);
	ck_assert_double_eq_tol(stats_stddev(v, 8), sqrt(32.0 / 7), EPS);
	ck_assert_double_eq_tol(stats_pct_stddev(v, 8), 42.761798706, 1e-6);
	ck_assert_double_eq(stats_stddev(v, 1), 0);
	ck_assert_double_eq(stats_min(v, 8), 2);
	ck_assert_double_eq(stats_max(v, 8), 9);
	/* Large values with small spread: no cancellation (two-pass). */
	double big[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };
	ck_assert_double_eq_tol(stats_stddev(big, 3), 1, 1e-6);
}
END_TEST

/* R: quantile(c(1, 2, 3, 4), q) with the default type 7. */
static const struct {
	double q, want;
} quantile_cases[] = {
	{ 0, 1 }, { 0.25, 1.75 }, { 0.5, 2.5 }, { 0.9, 3.7 }, { 1, 4 },
};

START_TEST(quantile_type7)
{
	double v[] = { 4, 2, 1, 3 };
	ck_assert_double_eq_tol(stats_quantile(v, 4, quantile_cases[_i].q),
				quantile_cases[_i].want, EPS);
}
END_TEST

/*
 * Exact Mann-Whitney p-values. Without ties the null distribution of U for
 * nx against ny counts the partitions of u into at most nx parts each at
 * most ny, over C(nx + ny, nx) (these match R's wilcox.test exact p):
 *  3v3 U=0: 1/20; U=1: 2/20 (u=0: 1 way, u=1: 1 way);
 *  4v4 U=2: (1 + 1 + 2) / 70;
 *  5v5 U=0: 1/252.
 * With ties, x = {1, 2}, y = {2, 3}: mid-ranks 1, 2.5 | 2.5, 4; the six
 * pairs of ranks sum to 3.5, 3.5, 5, 5, 6.5, 6.5; x has 3.5, U = 0.5,
 * P(R <= 3.5) = 2/6.
 */
static const struct {
	double x[6], y[6];
	size_t nx, ny;
	enum stats_alternative alt;
	double u, p;
	int ties;
} mw_cases[] = {
	{ { 1, 2, 3 }, { 4, 5, 6 }, 3, 3, STATS_LESS, 0, 1.0 / 20, 0 },
	{ { 1, 2, 3 }, { 4, 5, 6 }, 3, 3, STATS_GREATER, 0, 1, 0 },
	{ { 1, 2, 3 }, { 4, 5, 6 }, 3, 3, STATS_TWO_SIDED, 0, 0.1, 0 },
	{ { 4, 5, 6 }, { 1, 2, 3 }, 3, 3, STATS_GREATER, 9, 1.0 / 20, 0 },
	{ { 1, 2, 4 }, { 3, 5, 6 }, 3, 3, STATS_LESS, 1, 2.0 / 20, 0 },
	{ { 1, 2, 3, 6 }, { 4, 5, 7, 8 }, 4, 4, STATS_LESS, 2, 4.0 / 70, 0 },
	{ { 1, 2, 3, 4, 5 }, { 6, 7, 8, 9, 10 }, 5, 5, STATS_LESS, 0,
	  1.0 / 252, 0 },
	{ { 1, 2 }, { 2, 3 }, 2, 2, STATS_LESS, 0.5, 2.0 / 6, 1 },
	{ { 1, 2 }, { 2, 3 }, 2, 2, STATS_GREATER, 0.5, 1, 1 },
	{ { 1, 2 }, { 2, 3 }, 2, 2, STATS_TWO_SIDED, 0.5, 4.0 / 6, 1 },
};

START_TEST(mann_whitney_exact_table)
{
	struct stats_mw mw;
	ck_assert_int_eq(stats_mann_whitney(mw_cases[_i].x, mw_cases[_i].nx,
					    mw_cases[_i].y, mw_cases[_i].ny,
					    mw_cases[_i].alt, &mw),
			 0);
	ck_assert_int_eq(mw.exact, 1);
	ck_assert_int_eq(mw.ties, mw_cases[_i].ties);
	ck_assert_double_eq_tol(mw.u, mw_cases[_i].u, EPS);
	ck_assert_double_eq_tol(mw.p, mw_cases[_i].p, EPS);
}
END_TEST

/* Brute force: the fraction of relabellings with a U at most (least) u. */
static void enumerate_p(const double *pool, size_t n, size_t nx, double u_obs,
			double *p_less, double *p_greater)
{
	size_t total = 0, le = 0, ge = 0;
	for (unsigned mask = 0; mask < (1u << n); mask++) {
		double u = 0;
		if ((size_t)__builtin_popcount(mask) != nx)
			continue;
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++)
				if ((mask >> i & 1) && !(mask >> j & 1))
					u += pool[i] > pool[j] ? 1 :
					     pool[i] == pool[j] ? 0.5 : 0;
		total++;
		le += u <= u_obs + 1e-9;
		ge += u >= u_obs - 1e-9;
	}
	*p_less = (double)le / (double)total;
	*p_greater = (double)ge / (double)total;
}

START_TEST(mann_whitney_matches_enumeration)
{
	/*
	 * Random small samples drawn from few distinct values, so most have
	 * ties: the DP over doubled mid-ranks must equal the permutation
	 * distribution counted one relabelling at a time.
	 */
	struct stats_rng rng = STATS_RNG_INIT(42);
	for (int trial = 0; trial < 200; trial++) {
		size_t nx = 1 + stats_rng_next(&rng) % 6;
		size_t ny = 1 + stats_rng_next(&rng) % 6;
		double pool[12], pl, pg;
		struct stats_mw lt, gt;
		for (size_t i = 0; i < nx + ny; i++)
			pool[i] = (double)(stats_rng_next(&rng) % 5);
		ck_assert_int_eq(stats_mann_whitney(pool, nx, pool + nx, ny,
						    STATS_LESS, &lt), 0);
		ck_assert_int_eq(stats_mann_whitney(pool, nx, pool + nx, ny,
						    STATS_GREATER, &gt), 0);
		enumerate_p(pool, nx + ny, nx, lt.u, &pl, &pg);
		ck_assert_double_eq_tol(lt.p, pl, 1e-9);
		ck_assert_double_eq_tol(gt.p, pg, 1e-9);
	}
}
END_TEST

START_TEST(mann_whitney_normal_approximation)
{
	/*
	 * 31 odd against 31 even numbers (62 > STATS_MW_EXACT_MAX): x = 2k - 1
	 * has k - 1 evens below it, so U = 0 + 1 + ... + 30 = 465. R's
	 * wilcox.test(exact = FALSE, correct = TRUE): mean 480.5, sd =
	 * sqrt(31 * 31 / 12 * 63) = 71.0299232718, z = (465 - 480.5 + 0.5) /
	 * sd = -0.2111786035, p(less) = pnorm(z) = 0.4163739531.
	 */
	double x[31], y[31];
	struct stats_mw mw;
	for (int i = 0; i < 31; i++)
		x[i] = 2 * i + 1, y[i] = 2 * i + 2;
	ck_assert_int_eq(stats_mann_whitney(x, 31, y, 31, STATS_LESS, &mw), 0);
	ck_assert_int_eq(mw.exact, 0);
	ck_assert_double_eq_tol(mw.u, 465, EPS);
	ck_assert_double_eq_tol(mw.p, 0.4163739531, 1e-8);
}
END_TEST

START_TEST(mann_whitney_exact_agrees_with_normal_at_the_edge)
{
	/*
	 * 30 against 30 is still exact; shifted data give a p the normal
	 * approximation should get within a few thousandths of.
	 */
	double x[30], y[30];
	struct stats_mw mw;
	for (int i = 0; i < 30; i++)
		x[i] = i * 3 + 1.5, y[i] = i * 3 + 10;
	ck_assert_int_eq(stats_mann_whitney(x, 30, y, 30, STATS_LESS, &mw), 0);
	ck_assert_int_eq(mw.exact, 1);
	/* U = sum over x_i of #y below: (3i + 1.5 > 3j + 10) <=> j < i - 2.83. */
	double u = 0;
	for (int i = 0; i < 30; i++)
		u += i >= 3 ? i - 2 : 0;
	ck_assert_double_eq_tol(mw.u, u, EPS);
	double sd = sqrt(30.0 * 30 / 12 * 61);
	double z = (u - 450 + 0.5) / sd;
	double p_normal = 0.5 * erfc(-z / sqrt(2));
	ck_assert_double_lt(fabs(mw.p - p_normal), 0.005);
	ck_assert_double_lt(mw.p, 0.5);
}
END_TEST

START_TEST(mann_whitney_rejects_empty_and_nan)
{
	double x[] = { 1, NAN }, y[] = { 2 };
	struct stats_mw mw;
	ck_assert_int_eq(stats_mann_whitney(x, 0, y, 1, STATS_LESS, &mw), -1);
	ck_assert_int_eq(stats_mann_whitney(x, 2, y, 1, STATS_LESS, &mw), -1);
}
END_TEST

START_TEST(effect_sizes)
{
	/* Differences 9, 8, 19, 18: median 13.5. */
	double x[] = { 10, 20 }, y[] = { 1, 2 };
	ck_assert_double_eq_tol(stats_hodges_lehmann(x, 2, y, 2), 13.5, EPS);
	/* 1<2, 1<3, 2=2, 2<3: (0 - 3) / 4. */
	double a[] = { 1, 2 }, b[] = { 2, 3 };
	ck_assert_double_eq_tol(stats_cliff_delta(a, 2, b, 2), -0.75, EPS);
	ck_assert_double_eq_tol(stats_cliff_delta(x, 2, y, 2), 1, EPS);
}
END_TEST

START_TEST(rng_is_deterministic_and_sane)
{
	struct stats_rng a = STATS_RNG_INIT(7), b = STATS_RNG_INIT(7);
	double sum = 0, sq = 0;
	for (int i = 0; i < 100; i++)
		ck_assert_uint_eq(stats_rng_next(&a), stats_rng_next(&b));
	for (int i = 0; i < 20000; i++) {
		double z = stats_rng_normal(&a);
		sum += z, sq += z * z;
	}
	/* Mean 0 and variance 1 within 4 standard errors. */
	ck_assert_double_lt(fabs(sum / 20000), 4 / sqrt(20000));
	ck_assert_double_lt(fabs(sq / 20000 - 1), 4 * sqrt(2.0 / 20000));
}
END_TEST

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, median_odd_and_even);
	tcase_add_test(tc, mean_stddev_pct);
	tcase_add_loop_test(tc, quantile_type7, 0, sizeof(quantile_cases) /
							    sizeof(quantile_cases[0]));
	tcase_add_loop_test(tc, mann_whitney_exact_table, 0,
			    sizeof(mw_cases) / sizeof(mw_cases[0]));
	tcase_add_test(tc, mann_whitney_matches_enumeration);
	tcase_add_test(tc, mann_whitney_normal_approximation);
	tcase_add_test(tc, mann_whitney_exact_agrees_with_normal_at_the_edge);
	tcase_add_test(tc, mann_whitney_rejects_empty_and_nan);
	tcase_add_test(tc, effect_sizes);
	tcase_add_test(tc, rng_is_deterministic_and_sane);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(stats_suite());
	int failed;
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
