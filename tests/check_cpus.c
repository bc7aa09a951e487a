/*
 * check_cpus.c: the measuring CPUs and the building ones, on this host's
 * own CPUs (the plan reads the harness's affinity, as it does in a run).
 */
#include "check_skip.h"
#include "cpus.h"
#include "lanes.h"
#include "vcpus.h"
#include "job.h"

#include <check.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
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

/* The thread runs on exactly `want`. */
static void assert_on(pthread_t t, const cpu_set_t *want)
{
	cpu_set_t set;
	ck_assert_int_eq(pthread_getaffinity_np(t, sizeof(set), &set), 0);
	ck_assert(CPU_EQUAL(&set, want));
}

/*
 * This test process as a QEMU would be: a process group of its own (as
 * run_start makes), the plan of a 1-vCPU guest, and threads to name held
 * until qemu_like_end. 0 on a host with one CPU (then skip).
 */
static int qemu_like(struct cpu_plan *plan, cpu_set_t *all)
{
	struct machine_spec m = {.cpus = 1, .pin = 1};

	if (allowed(all) < 2)
		return 0;
	ck_assert_int_eq(setpgid(0, 0), 0);
	cpu_plan_make(plan, &m);
	pthread_mutex_lock(&hold);
	return 1;
}

static void qemu_like_end(const pthread_t *threads, size_t n)
{
	pthread_mutex_unlock(&hold);
	for (size_t i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
}

/*
 * The vCPU threads go to the measuring CPUs, vCPU n to the n-th; the
 * main loop and every other thread stay where they were.
 */
START_TEST(vcpu_threads_alone_on_the_measuring_cpus)
{
	struct cpu_plan plan;
	cpu_set_t all;
	pthread_t t[3]; /* vCPU 0, an I/O thread, vCPU 1 */

	if (!qemu_like(&plan, &all))
		CHECK_SKIP("one CPU: nothing to pin");
	t[0] = named_thread("CPU 0/TCG");
	t[1] = named_thread("IO iobisect");
	ck_assert_int_eq(cpus_pin_vcpus(&plan, getpid(), 1), 1);
	assert_on(t[0], &plan.measure);
	assert_on(t[1], &all);
	assert_on(pthread_self(), &all);

	/* A second vCPU (KVM's name) wraps to the first measuring CPU. */
	t[2] = named_thread("CPU 1/KVM");
	ck_assert_int_eq(cpus_pin_vcpus(&plan, getpid(), 2), 2);
	assert_on(t[2], &plan.measure);

	/* Without a plan nothing moves. */
	struct machine_spec off = {.cpus = 1, .pin = 0};
	struct cpu_plan none;
	cpu_plan_make(&none, &off);
	ck_assert_int_eq(cpus_pin_vcpus(&none, getpid(), 1), 0);
	ck_assert_int_eq(cpus_pin_vcpus(&plan, 0x7ffffff0, 1), 0);
	qemu_like_end(t, 3);
}
END_TEST

/* One-thread TCG names one thread for every vCPU; the fallback moves all. */
START_TEST(one_thread_tcg_and_the_whole_process)
{
	struct cpu_plan plan;
	cpu_set_t all;
	pthread_t t[2]; /* the TCG thread, another */

	if (!qemu_like(&plan, &all))
		CHECK_SKIP("one CPU: nothing to pin");
	t[0] = named_thread("ALL CPUs/TCG");
	t[1] = named_thread("worker");
	ck_assert_int_eq(cpus_pin_vcpus(&plan, getpid(), 4), 4);
	assert_on(t[0], &plan.measure);
	assert_on(t[1], &all);
	ck_assert_int_eq(cpus_move_group(getpid(), &plan.measure), 3);
	assert_on(t[1], &plan.measure);
	qemu_like_end(t, 2);
}
END_TEST

static void process_cpus(pid_t pid, cpu_set_t *set)
{
	ck_assert_int_eq(sched_getaffinity(pid, sizeof(*set), set), 0);
}

/*
 * A process group of two, as a build lane's is (the lane and make's
 * compilers): its leader, and its other process in *grandchild; both
 * wait to be killed.
 */
static pid_t group_of_two(pid_t *grandchild)
{
	int ready[2];
	pid_t leader;

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
	ck_assert_int_eq(read(ready[0], grandchild, sizeof(*grandchild)),
			 sizeof(*grandchild));
	close(ready[0]);
	close(ready[1]);
	return leader;
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
	pid_t leader, grandchild = 0, outsider;

	if (allowed(&all) < 2)
		CHECK_SKIP("one CPU: nothing to pin");
	cpu_plan_make(&plan, &m);
	leader = group_of_two(&grandchild);
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
}
END_TEST

START_TEST(default_vcpus_leave_a_cpu)
{
	/* One host CPU for QEMU's main loop and builds; 1 to 2 vCPUs. */
	ck_assert_int_eq(vcpus_default_for(1, 1), 1);
	ck_assert_int_eq(vcpus_default_for(2, 1), 1);
	ck_assert_int_eq(vcpus_default_for(3, 1), 2);
	ck_assert_int_eq(vcpus_default_for(64, 1), 2);
	/* Under TCG one, whatever the host: the virtual clock takes one. */
	ck_assert_int_eq(vcpus_default_for(2, 0), 1);
	ck_assert_int_eq(vcpus_default_for(64, 0), 1);
	ck_assert_int_ge(vcpus_default(), 1);
}
END_TEST

/*
 * A build beside a boot yields (nice 10, every process of its group);
 * between boots, when the run waits for it, it builds at the run's own
 * priority. Back up from 10 needs root.
 */
START_TEST(a_build_yields_beside_a_boot_only)
{
	int own = getpriority(PRIO_PROCESS, 0);
	pid_t leader, grandchild = 0;

	if (geteuid() != 0)
		CHECK_SKIP("not root: a priority lowered stays lowered");
	leader = group_of_two(&grandchild);
	lanes_priority(leader, 1);
	ck_assert_int_eq(getpriority(PRIO_PROCESS, (id_t)grandchild),
			 own < 10 ? 10 : own);
	lanes_priority(leader, 0);
	ck_assert_int_eq(getpriority(PRIO_PROCESS, (id_t)leader), own);
	ck_assert_int_eq(getpriority(PRIO_PROCESS, (id_t)grandchild), own);
	kill(-leader, SIGKILL);
	waitpid(leader, NULL, 0);
}
END_TEST

static Suite *cpus_suite(void)
{
	Suite *s = suite_create("cpus");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, default_vcpus_leave_a_cpu);
	tcase_add_test(tc, one_vcpu_gets_the_last_cpu);
	tcase_add_test(tc, nothing_pinned_without_a_spare_cpu);
	tcase_add_test(tc, pin_self_and_restore);
	tcase_add_test(tc, vcpu_threads_alone_on_the_measuring_cpus);
	tcase_add_test(tc, one_thread_tcg_and_the_whole_process);
	tcase_add_test(tc, a_process_group_moves_whole);
	tcase_add_test(tc, a_build_yields_beside_a_boot_only);
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
