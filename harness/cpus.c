/*
 * cpus.c: the measuring CPUs and the building ones (the plan is in
 * cpus.h). The harness is one thread when it starts QEMU, so changing its
 * own affinity around the fork is how the child and QEMU's vCPU threads,
 * made later, get theirs.
 */
#include "cpus.h"
#include "job.h"
#include "util.h"

#include <errno.h>
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
