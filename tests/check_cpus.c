/*
 * check_cpus.c: the measuring CPUs and the building ones, on this host's
 * own CPUs (the plan reads the harness's affinity, as it does in a run).
 */
#include "check_skip.h"
#include "cpus.h"
#include "job.h"

#include <check.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* Threads named as QEMU names them, waiting until the test ends. */
static pthread_mutex_t hold = PTHREAD_MUTEX_INITIALIZER;

static void *held(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&hold);
	pthread_mutex_unlock(&hold);
	return NULL;
}

static pthread_t named_thread(const char *name)
{
	pthread_t t;
	ck_assert_int_eq(pthread_create(&t, NULL, held, NULL), 0);
	ck_assert_int_eq(pthread_setname_np(t, name), 0);
	return t;
}

static void thread_cpus(pthread_t t, cpu_set_t *set)
{
	ck_assert_int_eq(pthread_getaffinity_np(t, sizeof(*set), set), 0);
}

/*
 * The vCPU threads go to the measuring CPUs, vCPU n to the n-th; the
 * main loop and every other thread stay where they were.
 */
START_TEST(vcpu_threads_alone_on_the_measuring_cpus)
{
	struct machine_spec m = {.cpus = 1, .pin = 1};
	struct cpu_plan plan;
	cpu_set_t all, set;
	pthread_t vcpu0, vcpu1, io;

	if (allowed(&all) < 2)
		CHECK_SKIP("one CPU: nothing to pin");
	/* A group of our own, as QEMU has (run_start). */
	ck_assert_int_eq(setpgid(0, 0), 0);
	cpu_plan_make(&plan, &m);
	pthread_mutex_lock(&hold);
	vcpu0 = named_thread("CPU 0/TCG");
	io = named_thread("IO iobisect");
	ck_assert_int_eq(cpus_pin_vcpus(&plan, getpid(), 1), 1);
	thread_cpus(vcpu0, &set);
	ck_assert(CPU_EQUAL(&set, &plan.measure));
	thread_cpus(io, &set);
	ck_assert(CPU_EQUAL(&set, &all));
	thread_cpus(pthread_self(), &set);
	ck_assert(CPU_EQUAL(&set, &all));

	/* A second vCPU (KVM's name) wraps to the first measuring CPU. */
	vcpu1 = named_thread("CPU 1/KVM");
	ck_assert_int_eq(cpus_pin_vcpus(&plan, getpid(), 2), 2);
	thread_cpus(vcpu1, &set);
	ck_assert(CPU_EQUAL(&set, &plan.measure));

	/* Without a plan nothing moves. */
	struct machine_spec off = {.cpus = 1, .pin = 0};
	struct cpu_plan none;
	cpu_plan_make(&none, &off);
	ck_assert_int_eq(cpus_pin_vcpus(&none, getpid(), 1), 0);
	ck_assert_int_eq(cpus_pin_vcpus(&plan, 0x7ffffff0, 1), 0);
	pthread_mutex_unlock(&hold);
	pthread_join(vcpu0, NULL);
	pthread_join(vcpu1, NULL);
	pthread_join(io, NULL);
}
END_TEST

/* One-thread TCG names one thread for every vCPU; the fallback moves all. */
START_TEST(one_thread_tcg_and_the_whole_process)
{
	struct machine_spec m = {.cpus = 1, .pin = 1};
	struct cpu_plan plan;
	cpu_set_t all, set;
	pthread_t tcg, other;

	if (allowed(&all) < 2)
		CHECK_SKIP("one CPU: nothing to pin");
	ck_assert_int_eq(setpgid(0, 0), 0);
	cpu_plan_make(&plan, &m);
	pthread_mutex_lock(&hold);
	tcg = named_thread("ALL CPUs/TCG");
	other = named_thread("worker");
	ck_assert_int_eq(cpus_pin_vcpus(&plan, getpid(), 4), 4);
	thread_cpus(tcg, &set);
	ck_assert(CPU_EQUAL(&set, &plan.measure));
	thread_cpus(other, &set);
	ck_assert(CPU_EQUAL(&set, &all));
	ck_assert_int_eq(cpus_move_group(getpid(), &plan.measure), 3);
	thread_cpus(other, &set);
	ck_assert(CPU_EQUAL(&set, &plan.measure));
	pthread_mutex_unlock(&hold);
	pthread_join(tcg, NULL);
	pthread_join(other, NULL);
}
END_TEST

static void process_cpus(pid_t pid, cpu_set_t *set)
{
	ck_assert_int_eq(sched_getaffinity(pid, sizeof(*set), set), 0);
}

/*
 * A build lane's process group moves as one, its grandchildren (make's
 * compilers) too; a process outside the group stays.
 */
START_TEST(a_process_group_moves_whole)
{
	struct machine_spec m = {.cpus = 1, .pin = 1};
	struct cpu_plan plan;
	cpu_set_t all, set;
	int ready[2];
	pid_t leader, grandchild = 0, outsider;

	if (allowed(&all) < 2)
		CHECK_SKIP("one CPU: nothing to pin");
	cpu_plan_make(&plan, &m);
	ck_assert_int_eq(pipe(ready), 0);
	leader = fork();
	ck_assert_int_ge(leader, 0);
	if (leader == 0) {
		setpgid(0, 0);
		pid_t g = fork();
		if (g == 0) {
			for (;;)
				pause();
		}
		ck_assert_int_eq(write(ready[1], &g, sizeof(g)), sizeof(g));
		for (;;)
			pause();
	}
	ck_assert_int_eq(read(ready[0], &grandchild, sizeof(grandchild)),
			 sizeof(grandchild));
	outsider = fork();
	if (outsider == 0) {
		for (;;)
			pause();
	}
	ck_assert_int_ge(cpus_move_group(leader, &plan.measure), 2);
	process_cpus(leader, &set);
	ck_assert(CPU_EQUAL(&set, &plan.measure));
	process_cpus(grandchild, &set);
	ck_assert(CPU_EQUAL(&set, &plan.measure));
	process_cpus(outsider, &set);
	ck_assert(CPU_EQUAL(&set, &all));
	/* And back, as after a boot. */
	ck_assert_int_ge(cpus_move_group(leader, &all), 2);
	process_cpus(grandchild, &set);
	ck_assert(CPU_EQUAL(&set, &all));
	kill(-leader, SIGKILL);
	kill(outsider, SIGKILL);
	waitpid(leader, NULL, 0);
	waitpid(outsider, NULL, 0);
	close(ready[0]);
	close(ready[1]);
}
END_TEST

static Suite *cpus_suite(void)
{
	Suite *s = suite_create("cpus");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, one_vcpu_gets_the_last_cpu);
	tcase_add_test(tc, nothing_pinned_without_a_spare_cpu);
	tcase_add_test(tc, pin_self_and_restore);
	tcase_add_test(tc, vcpu_threads_alone_on_the_measuring_cpus);
	tcase_add_test(tc, one_thread_tcg_and_the_whole_process);
	tcase_add_test(tc, a_process_group_moves_whole);
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
