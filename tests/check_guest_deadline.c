/*
 * check_guest_deadline.c: the guest's time bound of a sample
 * (workloads/deadline.c), built with the host compiler: the deadline's
 * arithmetic, and real threads that stop at it, finish before it, or run
 * without one.
 */
#include "deadline.h"

#include <check.h>
#include <stdlib.h>
#include <time.h>

#define MS 1000000ull

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static const struct {
	uint64_t start, runtime, want;
} at[] = {
	{5, 0, 0}, /* no bound */
	{0, 1, 1},
	{1000 * MS, 1500 * MS, 2500 * MS},  /* the bisection default */
	{UINT64_MAX - 10, 100, UINT64_MAX}, /* saturates, never wraps */
	{UINT64_MAX, 1, UINT64_MAX},
};

START_TEST(deadline_at_start_plus_runtime)
{
	ck_assert_uint_eq(deadline_at(at[_i].start, at[_i].runtime),
			  at[_i].want);
}
END_TEST

/* A mover: "requests" of a 1 ms sleep until its `requests` are done or
 * deadline_stops() says so. */
struct mover {
	struct deadline *d;
	int requests;
	int done;
};

static void *mover_run(void *arg)
{
	struct mover *m = arg;
	const struct timespec ms = {0, 1000000};
	for (int i = 0; i < m->requests; i++) {
		if (deadline_stops(m->d, (uint64_t)m->done))
			break;
		nanosleep(&ms, NULL);
		m->done++;
	}
	deadline_done(m->d);
	return NULL;
}

/* Run n movers of `requests` each under a bound of runtime_ms; returns what
 * deadline_wait said and the time it took, in ms. */
static int run_movers(int n, int requests, uint64_t runtime_ms, struct mover *m,
		      uint64_t *wait_ms)
{
	struct deadline d;
	pthread_t tids[8];
	ck_assert_int_le(n, 8);
	ck_assert_int_eq(deadline_init(&d, n, runtime_ms * MS), 0);
	for (int i = 0; i < n; i++) {
		m[i] = (struct mover){&d, requests, 0};
		ck_assert_int_eq(
			pthread_create(&tids[i], NULL, mover_run, &m[i]), 0);
	}
	uint64_t t0 = now_ns();
	int passed = deadline_wait(&d, t0);
	*wait_ms = (now_ns() - t0) / MS;
	for (int i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
	deadline_release(&d);
	return passed;
}

START_TEST(movers_stop_at_the_deadline)
{
	struct mover m[3];
	uint64_t ms;
	/* 100000 requests of 1 ms would take 100 s: only the deadline ends
	 * this in time. */
	ck_assert_int_eq(run_movers(3, 100000, 150, m, &ms), 1);
	ck_assert_uint_ge(ms, 150);
	/* Generous: this machine may be busy, but not for seconds. */
	ck_assert_uint_lt(ms, 5000);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_ge(m[i].done, 1);
		ck_assert_int_lt(m[i].done, 100000);
	}
}
END_TEST

START_TEST(movers_that_finish_first_end_the_wait)
{
	struct mover m[2];
	uint64_t ms;
	ck_assert_int_eq(run_movers(2, 20, 60000, m, &ms), 0);
	ck_assert_uint_lt(ms, 30000);
	ck_assert_int_eq(m[0].done, 20);
	ck_assert_int_eq(m[1].done, 20);
}
END_TEST

START_TEST(no_bound_waits_for_every_request)
{
	struct mover m[2];
	uint64_t ms;
	ck_assert_int_eq(run_movers(2, 50, 0, m, &ms), 0);
	ck_assert_uint_ge(ms, 50);
	ck_assert_int_eq(m[0].done, 50);
	ck_assert_int_eq(m[1].done, 50);
}
END_TEST

/* A deadline that passed before a mover started still lets it make its
 * first request, so every sample has a rate; then it stops. */
START_TEST(a_mover_makes_one_request_at_least)
{
	struct deadline d;
	ck_assert_int_eq(deadline_init(&d, 1, 1), 0);
	ck_assert_int_eq(deadline_stops(&d, 0), 0);
	ck_assert_int_eq(deadline_stops(&d, 4096), 0);
	/* Started at time 0: the deadline is long past. */
	ck_assert_int_eq(deadline_wait(&d, 0), 1);
	ck_assert_int_eq(deadline_stops(&d, 0), 0);
	ck_assert_int_eq(deadline_stops(&d, 4096), 1);
	deadline_done(&d);
	deadline_release(&d);
}
END_TEST

static Suite *deadline_suite(void)
{
	Suite *s = suite_create("guest_deadline");
	TCase *tc = tcase_create("deadline");
	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, deadline_at_start_plus_runtime, 0,
			    (int)(sizeof(at) / sizeof(*at)));
	tcase_add_test(tc, movers_stop_at_the_deadline);
	tcase_add_test(tc, movers_that_finish_first_end_the_wait);
	tcase_add_test(tc, no_bound_waits_for_every_request);
	tcase_add_test(tc, a_mover_makes_one_request_at_least);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(deadline_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
