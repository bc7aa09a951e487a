/*
 * check_share.c: the accounting beside an answer (share.h): how much of
 * the endpoints' drop a change explains and whether the rest is beyond
 * the noise, for one change, two changes, a change and a later partial
 * fix, and a culprit whose image is its parent's; and whether two levels
 * differ beyond the noise (a part of the range still holding a change).
 */
#include "share.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

#define MB 1e6
/* The virtual clock's prior spread and the wall clock's (noise.h). */
#define VIRTUAL 0.005
#define WALL 0.05

static struct share_level at(double mbps, size_t n)
{
	return (struct share_level){mbps * MB, n};
}

static struct share account(struct share_level good, struct share_level bad,
			    struct share_level parent,
			    struct share_level culprit, double sigma,
			    int same_image)
{
	struct share_input in = {good, bad, parent, culprit, sigma, same_image};
	struct share sh;

	ck_assert_int_eq(share_account(&sh, &in), 0);
	return sh;
}

/* One change: it explains all of the drop, and nothing is left. */
START_TEST(one_change)
{
	struct share sh = account(at(102.5, 8), at(92.4, 4), at(102.5, 6),
				  at(92.4, 6), VIRTUAL, 0);

	ck_assert_double_eq_tol(sh.explains_pct, 100, 0.01);
	ck_assert_double_eq_tol(sh.rest_pct, 0, 0.01);
	ck_assert_double_eq_tol(sh.endpoints_pct, -9.85, 0.01);
	ck_assert_double_eq_tol(sh.culprit_pct, -9.85, 0.01);
	ck_assert(!sh.rest_beyond_noise);
	/* A few percent off, on a noisy machine: still the noise. */
	sh = account(at(100, 4), at(70, 4), at(99, 4), at(71.5, 4), WALL, 0);
	ck_assert(sh.explains_pct > 90 && sh.explains_pct < 100);
	ck_assert(!sh.rest_beyond_noise);
}
END_TEST

/*
 * Two changes (issue 47's tree: -6.7%, then to -9.8%): the first explains
 * two thirds, the second the rest, and the two add up to the whole. On
 * the virtual clock's spread the rest is beyond the noise; on the wall
 * clock's, with four boots a level, 3.3% is not.
 */
START_TEST(two_changes)
{
	struct share first = account(at(102.5, 8), at(92.4, 4), at(102.5, 6),
				     at(95.6, 6), VIRTUAL, 0);
	struct share second = account(at(102.5, 8), at(92.4, 4), at(95.6, 6),
				      at(92.4, 6), VIRTUAL, 0);

	ck_assert(first.explains_pct > 66 && first.explains_pct < 68);
	ck_assert(first.rest_beyond_noise);
	ck_assert_double_eq_tol(first.rest_pct, second.explains_pct, 1e-9);
	ck_assert_double_eq_tol(first.explains_pct + second.explains_pct, 100,
				1e-9);
	ck_assert(second.rest_beyond_noise);
	first = account(at(102.5, 4), at(92.4, 4), at(102.5, 4), at(95.6, 4),
			WALL, 0);
	ck_assert(!first.rest_beyond_noise);
}
END_TEST

/*
 * A change of -30% and later a fix of +20%: the change explains more
 * than all of the endpoints' -16%, and the rest, below zero, is beyond
 * the noise (the fix).
 */
START_TEST(change_and_partial_fix)
{
	struct share sh = account(at(100, 6), at(84, 6), at(100, 6),
				  at(70, 6), WALL, 0);

	ck_assert_double_eq_tol(sh.endpoints_pct, -16, 1e-9);
	ck_assert_double_eq_tol(sh.culprit_pct, -30, 1e-9);
	ck_assert(sh.explains_pct > 200 && sh.explains_pct < 210);
	ck_assert(sh.rest_pct < -100);
	ck_assert(sh.rest_beyond_noise);
}
END_TEST

/*
 * A culprit whose image is its parent's byte for byte changed nothing,
 * whatever its boots read: it explains none of the drop, and all of it
 * is left, beyond the noise.
 */
START_TEST(identical_image)
{
	struct share sh = account(at(102.5, 8), at(92.4, 4), at(102.5, 6),
				  at(92.4, 6), VIRTUAL, 1);

	ck_assert_double_eq_tol(sh.culprit_pct, 0, 1e-9);
	ck_assert_double_eq_tol(sh.explains_pct, 0, 1e-9);
	ck_assert_double_eq_tol(sh.rest_pct, 100, 1e-9);
	ck_assert(sh.rest_beyond_noise);
}
END_TEST

/* No sum without every level, or with endpoints that read the same. */
START_TEST(nothing_to_account)
{
	struct share_input in = {at(100, 4), at(100, 4), at(100, 4),
				 at(90, 4), WALL, 0};
	struct share sh;

	ck_assert_int_eq(share_account(&sh, &in), -1);
	ck_assert(isnan(sh.explains_pct));
	in.bad = at(90, 4);
	in.parent = at(100, 0);
	ck_assert_int_eq(share_account(&sh, &in), -1);
	in.parent = at(NAN, 3);
	ck_assert_int_eq(share_account(&sh, &in), -1);
}
END_TEST

/* Levels apart beyond the noise: a part of the range with a change. */
START_TEST(levels_differ)
{
	struct share_level a = at(95.6, 3), b = at(92.4, 3), c = at(95.5, 3);

	ck_assert(share_levels_differ(&a, &b, VIRTUAL));
	ck_assert(!share_levels_differ(&a, &c, VIRTUAL));
	ck_assert(!share_levels_differ(&a, &b, WALL));
	b.n = 0;
	ck_assert(!share_levels_differ(&a, &b, VIRTUAL));
}
END_TEST

static Suite *share_suite(void)
{
	Suite *s = suite_create("share");
	TCase *tc = tcase_create("share");

	tcase_add_test(tc, one_change);
	tcase_add_test(tc, two_changes);
	tcase_add_test(tc, change_and_partial_fix);
	tcase_add_test(tc, identical_image);
	tcase_add_test(tc, nothing_to_account);
	tcase_add_test(tc, levels_differ);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	int failed;
	SRunner *sr = srunner_create(share_suite());

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
