/*
 * cpus.c: the measuring CPUs and the building ones (the plan is in
 * cpus.h). The harness is one thread when it starts QEMU, so changing its
 * own affinity around the fork is how QEMU starts on the building CPUs;
 * its vCPU threads, made later, are then found by name under /proc and
 * moved, as a build lane's whole process group is moved around a boot.
 */
#include "cpus.h"
#include "job_types.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cpu_plan_make(struct cpu_plan *plan, const struct machine_spec *m)
{
	cpu_set_t allowed;
	int n, want = m && m->cpus > 0 ? m->cpus : 1;

	memset(plan, 0, sizeof(*plan));
	if (!m || !m->pin || sched_getaffinity(0, sizeof(allowed), &allowed))
		return;
	n = CPU_COUNT(&allowed);
	if (n <= want)
		return;
	CPU_ZERO(&plan->measure);
	plan->build = allowed;
	/* The last allowed CPUs measure: CPU 0 takes most interrupts. */
	for (int cpu = CPU_SETSIZE - 1; cpu >= 0 && want > 0; cpu--) {
		if (!CPU_ISSET(cpu, &allowed))
			continue;
		CPU_SET(cpu, &plan->measure);
		CPU_CLR(cpu, &plan->build);
		want--;
	}
	plan->pinned = 1;
}

int cpus_pin_self(const struct cpu_plan *plan, const cpu_set_t *set,
		  cpu_set_t *saved)
{
	if (!plan || !plan->pinned ||
	    sched_getaffinity(0, sizeof(*saved), saved))
		return 0;
	if (sched_setaffinity(0, sizeof(*set), set)) {
		warning("cannot pin to CPUs of the plan: %s", strerror(errno));
		return 0;
	}
	return 1;
}

void cpus_restore(const cpu_set_t *saved)
{
	if (sched_setaffinity(0, sizeof(*saved), saved))
		warning("cannot restore the harness's CPUs: %s",
			strerror(errno));
}

/* The n-th CPU (modulo their number) of `set`, as a set of one. */
static void nth_cpu(cpu_set_t *one, const cpu_set_t *set, int n)
{
	int count = CPU_COUNT(set), seen = 0;

	CPU_ZERO(one);
	if (count <= 0)
		return;
	n %= count;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set) && seen++ == n) {
			CPU_SET(cpu, one);
			return;
		}
}

/* A thread's name (its comm), without the newline; 0 when read. */
static int thread_name(pid_t pid, pid_t tid, char *name, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid,
		 (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(name, (int)size, f))
		name[0] = '\0';
	fclose(f);
	name[strcspn(name, "\n")] = '\0';
	return 0;
}

/*
 * Calls place(tid, name, data) for every thread of `pid`; the sum of what
 * it returns, or -1 when the process cannot be read.
 */
static int each_thread(pid_t pid,
		       int (*place)(pid_t tid, const char *name, void *data),
		       void *data)
{
	char path[64], name[32];
	struct dirent *de;
	DIR *d;
	int sum = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		pid_t tid = (pid_t)atoi(de->d_name);
		if (tid <= 0 || thread_name(pid, tid, name, sizeof(name)))
			continue;
		sum += place(tid, name, data);
	}
	closedir(d);
	return sum;
}

/* The process group of `pid` from /proc/<pid>/stat; -1 when gone. */
static pid_t group_of(pid_t pid)
{
	char path[64], buf[512], *close_paren;
	FILE *f;
	size_t n;
	int pgrp = -1;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "pid (comm) state ppid pgrp ...": comm may hold spaces and ')'. */
	close_paren = strrchr(buf, ')');
	if (!close_paren || sscanf(close_paren + 1, " %*c %*d %d", &pgrp) != 1)
		return -1;
	return (pid_t)pgrp;
}

/* each_thread over every process of the process group `pgid`. */
static int each_thread_in_group(pid_t pgid,
				int (*place)(pid_t tid, const char *name,
					     void *data),
				void *data)
{
	struct dirent *de;
	DIR *d = opendir("/proc");
	int sum = 0;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		pid_t pid = (pid_t)atoi(de->d_name);
		if (pid <= 0 || group_of(pid) != pgid)
			continue;
		int n = each_thread(pid, place, data);
		if (n > 0)
			sum += n;
	}
	closedir(d);
	return sum;
}

struct vcpu_placing {
	const struct cpu_plan *plan;
	int nr_vcpus;
};

/* QEMU's vCPU threads by the names -name debug-threads=on gives them. */
enum { VCPU_NONE = -2, VCPU_ALL = -1 };
static int vcpu_of_thread(const char *name)
{
	int n, end = 0;

	if (!strcmp(name, "ALL CPUs/TCG")) /* one thread runs them all */
		return VCPU_ALL;
	if (sscanf(name, "CPU %d/%n", &n, &end) != 1 || !end || n < 0)
		return VCPU_NONE;
	return n;
}

static int place_vcpu(pid_t tid, const char *name, void *data)
{
	const struct vcpu_placing *p = data;
	cpu_set_t one;
	int n = vcpu_of_thread(name);

	if (n == VCPU_ALL) {
		if (sched_setaffinity(tid, sizeof(p->plan->measure),
				      &p->plan->measure))
			return 0;
		return p->nr_vcpus;
	}
	if (n == VCPU_NONE)
		return 0;
	nth_cpu(&one, &p->plan->measure, n);
	return !sched_setaffinity(tid, sizeof(one), &one);
}

int cpus_pin_vcpus(const struct cpu_plan *plan, pid_t pgid, int nr_vcpus)
{
	struct vcpu_placing p = {plan, nr_vcpus};

	if (!plan || !plan->pinned)
		return 0;
	/*
	 * Called every poll until the threads exist: the group's leader is
	 * QEMU itself unless a wrapper started it, and its threads are read
	 * before every process's stat under /proc is.
	 */
	int n = each_thread(pgid, place_vcpu, &p);
	if (n >= nr_vcpus)
		return n;
	return each_thread_in_group(pgid, place_vcpu, &p);
}

static int realtime_thread(pid_t tid, const char *name, void *data)
{
	struct sched_param rt = {.sched_priority = 1};

	(void)data;
	/* The main thread keeps the binary's name (cut to 15 bytes). */
	if (vcpu_of_thread(name) == VCPU_NONE &&
	    strncmp(name, "qemu-system", 11))
		return 0;
	return !sched_setscheduler(tid, SCHED_FIFO, &rt);
}

int cpus_realtime_qemu(pid_t pgid)
{
	return each_thread_in_group(pgid, realtime_thread, NULL);
}

static int place_on_set(pid_t tid, const char *name, void *data)
{
	(void)name;
	return !sched_setaffinity(tid, sizeof(cpu_set_t), data);
}

int cpus_move_group(pid_t pgid, const cpu_set_t *set)
{
	return each_thread_in_group(pgid, place_on_set, (void *)set);
}
