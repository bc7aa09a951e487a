/*
 * check_levels.c: a level that held still (noise_steady) and what the
 * verdicts make of it: a boot between the levels decides a step when the
 * good level held still, and earns another when it may have a slower
 * mode; pairs of two still levels confirm a shallow drop with one pair,
 * where a machine whose levels move asks three; a cliff's boot that
 * reads near the slow level, deeper than any mode of the good kernel,
 * decides though the slow kernel spreads past the pooled noise.
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

static const struct steady_case {
	const char *what;
	int virtual_clock;
	double pct[8]; /* the boots, percent from 100 MB/s */
	size_t n;
	int steady;
} steady_cases[] = {
	{"three boots within 0.1%", 1, {0, 0.1, -0.1}, 3, 1},
	{"two boots are too few", 1, {0, 0}, 2, 0},
	{"eight boots 0.3% apart", 1, {0, 0.3, -0.3, 0.2, -0.2, 0.1, 0.4,
				       -0.4}, 8, 1},
	/* The demo's fast kernel today: 65-71 MB/s. */
	{"a kernel that waits, 2.5%", 1, {0, 2.5, -2.5, 1, -1}, 5, 0},
	/* Three boots 0.5% apart: too few to know they stay within 1%. */
	{"three boots 0.5% apart", 1, {0, 0.5, -0.5}, 3, 0},
	/* A level that moved once (80 <-> 93 MB/s) among still boots. */
	{"one boot in a slow stretch", 1, {0, 0, 0, 0, 0, 0, -14}, 7, 0},
	{"the wall clock has no still level", 0, {0, 0, 0, 0}, 4, 0},
};

START_TEST(steady_levels)
{
	const struct steady_case *c = &steady_cases[_i];
	double y[8];

	for (size_t i = 0; i < c->n; i++)
		y[i] = log(100 * MB * (1 + c->pct[i] / 100));
	ck_assert_msg(noise_steady(y, c->n, noise_machine_of(c->virtual_clock)) ==
			      c->steady,
		      "%s: expected %s", c->what,
		      c->steady ? "steady" : "not steady");
}
END_TEST

/*
 * The virtual clock, auto: good 100 MB/s (3 boots), bad 95 (2 boots), a
 * boot of the commit under test at 95.1. The good level may have the
 * slower mode (5% deep, 3-9%), which explains that boot too: one more.
 * When the good level held still over the run, the boot is the commit's
 * own: slow, on one boot. An unchanged commit's boot at 100 is fast on
 * one boot either way.
 */
START_TEST(still_good_level_decides_one_boot)
{
	double base[] = {100 * MB, 100.1 * MB, 99.9 * MB};
	double bad[] = {95 * MB, 95.05 * MB};
	double slow[] = {95.1 * MB}, fast[] = {100.05 * MB};
	struct verdict_input in = {0};
	struct verdict v;

	in.base = base;
	in.n_base = 3;
	in.bad = bad;
	in.n_bad = 2;
	in.cand = slow;
	in.n_cand = 1;
	in.threshold.kind = THRESHOLD_AUTO;
	in.machine = noise_machine_of(1);
	in.error = 0.05;
	in.runs_min = 1;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_UNDECIDED);
	in.steady = VERDICT_STEADY_FAST;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_msg(v.kind == VERDICT_BAD, "%s", v.reason);
	in.cand = fast;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_GOOD);
	in.steady = 0;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_GOOD);
}
END_TEST

/*
 * Three levels on the virtual clock (issue 47): good 102.5 MB/s, bad
 * 92.4, both held still, and a commit whose boots read 95.6 ±0.05%. Two
 * boots fit neither level: one more of the commit, not of an endpoint
 * (the code before booted the bad endpoint after each). Three that hold
 * still are a level of their own, a second change: judged by where it
 * sits, slow here (nearer the slow level; with a 5% line, past it), fast
 * when it sits nearer the good level (or short of a 9% line). Boots that
 * do not hold still, or levels that did not, are not one.
 */
START_TEST(still_commit_between_the_levels)
{
	double base[] = {102.5 * MB, 102.5 * MB, 102.45 * MB, 102.55 * MB};
	double bad[] = {92.4 * MB, 92.42 * MB, 92.38 * MB};
	double mid[] = {95.6 * MB, 95.65 * MB, 95.58 * MB};
	double near_fast[] = {100.2 * MB, 100.25 * MB, 100.2 * MB};
	double moving[] = {95.6 * MB, 97.5 * MB, 94.6 * MB};
	struct verdict_input in = {0};
	struct verdict v;

	in.base = base;
	in.n_base = 4;
	in.bad = bad;
	in.n_bad = 3;
	in.cand = mid;
	in.n_cand = 2;
	in.threshold.kind = THRESHOLD_AUTO;
	in.machine = noise_machine_of(1);
	in.error = 0.05;
	in.runs_min = 1;
	in.steady = VERDICT_STEADY_FAST | VERDICT_STEADY_SLOW;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_UNDECIDED);
	ck_assert(v.implausible && !v.between);
	ck_assert_int_eq(v.thin, VERDICT_THIN_NONE);
	in.n_cand = VERDICT_BETWEEN_BOOTS;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_msg(v.between && v.kind == VERDICT_BAD, "%s", v.reason);
	ck_assert(!v.implausible);
	ck_assert_double_eq_tol(v.own_level / MB, 95.6, 0.1);
	ck_assert_double_eq_tol(v.bad_level / MB, 92.4, 0.1);
	ck_assert(v.error < 0.01);
	ck_assert_ptr_nonnull(strstr(v.reason, "second change"));
	in.cand = near_fast;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_msg(v.between && v.kind == VERDICT_GOOD, "%s", v.reason);
	/* A line: where it sits against the line. */
	in.cand = mid;
	in.threshold.kind = THRESHOLD_PERCENT;
	in.threshold.value = 5;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_msg(v.between && v.kind == VERDICT_BAD, "%s", v.reason);
	in.threshold.value = 9;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_msg(v.between && v.kind == VERDICT_GOOD, "%s", v.reason);
	/* Not a level: boots that move, or a level that may. */
	in.threshold.kind = THRESHOLD_AUTO;
	in.cand = moving;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert(!v.between);
	in.cand = mid;
	in.steady = VERDICT_STEADY_FAST;
	in.n_bad = 2; /* one more of the bad endpoint may move its level */
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert(!v.between && v.kind == VERDICT_UNDECIDED);
	ck_assert_int_eq(v.thin, VERDICT_THIN_BAD);
}
END_TEST

/*
 * A -5% drop sought, pair noise 0.4% (the model's 0.3% per boot): one
 * pair at -5.1% confirms it when both levels held still; on a machine
 * whose levels may move (a kernel that waits), a drop within the slower
 * mode's depths takes three pairs at least, as before. A pair of two
 * still levels that reads no drop contradicts.
 */
START_TEST(still_levels_one_pair)
{
	double parent[] = {100 * MB, 100 * MB, 100 * MB};
	double culprit[] = {94.9 * MB, 94.9 * MB, 94.9 * MB};
	double same[] = {100.1 * MB};
	struct noise_model nm;
	struct verdict_pairs_input in = {0};
	struct verdict v;

	noise_prior(&nm, noise_machine_of(1));
	nm.sigma = 0.003;
	nm.df = nm.nu = 10;
	in.parent = parent;
	in.culprit = culprit;
	in.n = 1;
	in.drop = log(0.95);
	in.drop_se = 0.002;
	in.noise = &nm;
	in.error_right = 0.05;
	in.error_wrong = 0.05;
	ck_assert_int_eq(verdict_pairs(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_UNDECIDED);
	in.steady = VERDICT_STEADY_FAST; /* one level is not enough */
	ck_assert_int_eq(verdict_pairs(&v, &in), 0);
	ck_assert_int_eq(v.kind, VERDICT_UNDECIDED);
	in.steady = VERDICT_STEADY_FAST | VERDICT_STEADY_SLOW;
	ck_assert_int_eq(verdict_pairs(&v, &in), 0);
	ck_assert_msg(v.kind == VERDICT_BAD, "%s", v.reason);
	in.culprit = same;
	ck_assert_int_eq(verdict_pairs(&v, &in), 0);
	ck_assert_msg(v.kind == VERDICT_GOOD, "%s", v.reason);
}
END_TEST

/*
 * A culprit found on one boot of its own: the run's slow level has too
 * few boots to be known still, and its pairs on a clock steady to 0.01%
 * (parent 1744.6 MB/s, culprit -20.0%, the endpoints' drop -20.0%) were
 * held to the slower mode's odds, whose depths reach past the drop: 16
 * such pairs read llr +0.2 and one bisection in three of a -7% to -35%
 * drop ended inconclusive. The culprit's own boots in the pairs hold
 * still, and the run's good level did: three pairs confirm (and so the
 * other way round). Where neither level held still over the run, or on
 * the wall clock, they do not.
 */
START_TEST(pairs_hold_the_slow_level_still)
{
	double parent[16], culprit[16];
	struct noise_model nm;
	struct verdict_pairs_input in = {0};
	struct verdict v;

	for (size_t i = 0; i < 16; i++) {
		parent[i] = (1744.6 + 0.3 * (double)(i % 3)) * MB;
		culprit[i] = (1395.7 - 0.2 * (double)(i % 2)) * MB;
	}
	noise_prior(&nm, noise_machine_of(1));
	nm.sigma = 0.0012; /* the model's, the pairs' boots pooled in */
	nm.df = nm.nu = 10;
	in.parent = parent;
	in.culprit = culprit;
	in.drop = log(0.8);
	in.drop_se = 0.005;
	in.noise = &nm;
	in.error_right = 0.05;
	in.error_wrong = 0.05;
	in.steady = VERDICT_STEADY_FAST;
	in.machine = noise_machine_of(1);
	in.n = 3;
	ck_assert_int_eq(verdict_pairs(&v, &in), 0);
	ck_assert_msg(v.kind == VERDICT_BAD, "%s", v.reason);
	/* The other way: the slow level held still, the parent's pairs do. */
	in.steady = VERDICT_STEADY_SLOW;
	ck_assert_int_eq(verdict_pairs(&v, &in), 0);
	ck_assert_msg(v.kind == VERDICT_BAD, "%s", v.reason);

	/* The good level moved over the run: the mode stays in the pairs. */
	in.steady = 0;
	in.n = 16;
	ck_assert_int_eq(verdict_pairs(&v, &in), 0);
	ck_assert_msg(v.kind != VERDICT_BAD, "%s", v.reason);
	/* The wall clock has no still level. */
	in.steady = VERDICT_STEADY_FAST;
	in.machine = noise_machine_of(0);
	ck_assert_int_eq(verdict_pairs(&v, &in), 0);
	ck_assert_msg(v.kind != VERDICT_BAD, "%s", v.reason);
}
END_TEST

/*
 * The demo's cliff on the virtual clock: good 65 MB/s, bad 15.8 (one
 * boot), pooled noise 0.5%; the slow kernel waits on QEMU's device and
 * spreads ±10%, so a slowed commit reads 18.4, 16% above the bad boot
 * and 72% below good. No mode of the good kernel reads there: slow, on
 * that boot. Half-way between the levels (32 MB/s) it still fits
 * neither and earns another.
 */
START_TEST(cliff_boot_near_the_slow_level_decides)
{
	double base[] = {65 * MB, 65.2 * MB}, bad[] = {15.8 * MB};
	double near[] = {18.4 * MB}, half[] = {32 * MB};
	struct noise_model nm;
	struct verdict_input in = {0};
	struct verdict v;

	noise_prior(&nm, noise_machine_of(1));
	in.base = base;
	in.n_base = 2;
	in.bad = bad;
	in.n_bad = 1;
	in.cand = near;
	in.n_cand = 1;
	in.threshold.kind = THRESHOLD_AUTO;
	in.noise = &nm;
	in.error = 0.05;
	in.runs_min = 1;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_msg(v.kind == VERDICT_BAD && !v.implausible, "%s", v.reason);
	in.cand = half;
	ck_assert_int_eq(verdict_decide(&v, &in), 0);
	ck_assert_int_eq(v.implausible, 1);
	ck_assert_int_eq(v.kind, VERDICT_UNDECIDED);
}
END_TEST

/* A cliff is deeper than any mode; -20% and +20% are not. */
START_TEST(beyond_modes)
{
	struct noise_model nm;

	noise_prior(&nm, noise_machine_of(1));
	ck_assert(verdict_beyond_modes(log(0.3), &nm));
	ck_assert(verdict_beyond_modes(log(0.5), &nm));
	ck_assert(!verdict_beyond_modes(log(0.8), &nm));
	ck_assert(!verdict_beyond_modes(log(1.2), &nm));
}
END_TEST

static Suite *levels_suite(void)
{
	Suite *s = suite_create("levels");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, steady_levels, 0, ARRAY_SIZE(steady_cases));
	tcase_add_test(tc, still_good_level_decides_one_boot);
	tcase_add_test(tc, still_commit_between_the_levels);
	tcase_add_test(tc, still_levels_one_pair);
	tcase_add_test(tc, pairs_hold_the_slow_level_still);
	tcase_add_test(tc, beyond_modes);
	tcase_add_test(tc, cliff_boot_near_the_slow_level_decides);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(levels_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
