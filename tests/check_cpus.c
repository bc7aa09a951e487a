/*
 * check_cpus.c: the measuring CPUs and the building ones, on this host's
 * own CPUs (the plan reads the harness's affinity, as it does in a run).
 */
#include "check_skip.h"
#include "cpus.h"
#include "job.h"

#include <check.h>
#include <stdlib.h>

static int allowed(cpu_set_t *set)
{
	ck_assert_int_eq(sched_getaffinity(0, sizeof(*set), set), 0);
	return CPU_COUNT(set);
}

/* One vCPU on a host with more: the last allowed CPU measures. */
START_TEST(one_vcpu_gets_the_last_cpu)
{
	struct machine_spec m = {.cpus = 1, .pin = 1};
	struct cpu_plan plan;
	cpu_set_t all, both;
	int last = -1;

	if (allowed(&all) < 2)
		CHECK_SKIP("one CPU: nothing to pin");
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &all))
			last = c;
	cpu_plan_make(&plan, &m);
	ck_assert(plan.pinned);
	ck_assert_int_eq(CPU_COUNT(&plan.measure), 1);
	ck_assert(CPU_ISSET(last, &plan.measure));
	ck_assert_int_eq(CPU_COUNT(&plan.build), CPU_COUNT(&all) - 1);
	CPU_AND(&both, &plan.measure, &plan.build);
	ck_assert_int_eq(CPU_COUNT(&both), 0);
	CPU_OR(&both, &plan.measure, &plan.build);
	ck_assert(CPU_EQUAL(&both, &all));
}
END_TEST

/* Off, or no CPU to spare: nothing is pinned. */
START_TEST(nothing_pinned_without_a_spare_cpu)
{
	struct machine_spec off = {.cpus = 1, .pin = 0};
	struct machine_spec all_cpus = {.pin = 1};
	struct cpu_plan plan;
	cpu_set_t set;

	all_cpus.cpus = allowed(&set);
	cpu_plan_make(&plan, &off);
	ck_assert(!plan.pinned);
	cpu_plan_make(&plan, &all_cpus);
	ck_assert(!plan.pinned);
	cpu_plan_make(&plan, NULL);
	ck_assert(!plan.pinned);
}
END_TEST

/* A fork between pin and restore inherits the set; then it is put back. */
START_TEST(pin_self_and_restore)
{
	struct machine_spec m = {.cpus = 1, .pin = 1};
	struct cpu_plan plan;
	cpu_set_t before, during, saved, after;

	if (allowed(&before) < 2)
		CHECK_SKIP("one CPU: nothing to pin");
	cpu_plan_make(&plan, &m);
	ck_assert_int_eq(cpus_pin_self(&plan, &plan.measure, &saved), 1);
	allowed(&during);
	ck_assert(CPU_EQUAL(&during, &plan.measure));
	cpus_restore(&saved);
	allowed(&after);
	ck_assert(CPU_EQUAL(&after, &before));
}
END_TEST

static Suite *cpus_suite(void)
{
	Suite *s = suite_create("cpus");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, one_vcpu_gets_the_last_cpu);
	tcase_add_test(tc, nothing_pinned_without_a_spare_cpu);
	tcase_add_test(tc, pin_self_and_restore);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cpus_suite());
	int failed;
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
