/*
 * clock.c: the clock that times a job's boots, chosen from the job and
 * the accelerator (clock.h).
 */
#include "clock.h"
#include "job.h"

#include <string.h>

const char *clock_name(enum clock_kind kind)
{
	return kind == CLOCK_VIRTUAL ? "virtual" : "wall";
}

/*
 * A disk whose real time is the point: one passed through, or one QEMU
 * throttles (bps_max, iops_max: a rate in host time, which the virtual
 * clock would read at whatever pace the guest's instructions run).
 */
static int has_real_time_disk(const struct job *job)
{
	for (size_t t = 0; t < job->nr_topologies; t++)
		for (size_t i = 0; i < job->topologies[t].nr_disks; i++) {
			const struct disk_spec *d = &job->topologies[t].disks[i];
			if (d->backing == BACKING_HOST || d->bps_max ||
			    d->iops_max)
				return 1;
		}
	return 0;
}

int clock_job_shift(const struct job *job)
{
	if (job->machine.icount_shift >= 0)
		return job->machine.icount_shift;
	return job_waits_in_guest_time(job) ? CLOCK_ICOUNT_SHIFT_GUEST_WAITS
					    : CLOCK_ICOUNT_SHIFT;
}

const char *clock_smp_refusal(int cpus)
{
	/*
	 * Seen with Linux 6.1 on QEMU 7.2: CPU 1 spins in cpu_init()
	 * waiting for CPU 0's go-ahead, CPU 0 stays in schedule(), and the
	 * guest's clock no longer moves (every later console line has the
	 * same time stamp), so CPU 0's wait for CPU 1 never ends.
	 */
	if (cpus <= 1)
		return NULL;
	return "'virtual' needs one vCPU (QEMU's instruction count hangs "
	       "an SMP guest at \"x86: Booting SMP configuration\"): set "
	       "machine.cpus 1 or machine.clock \"wall\"";
}

int clock_resolve(struct clock *out, const struct job *job, int kvm)
{
	const struct machine_spec *m = &job->machine;
	const char *want = m->clock ? m->clock : "auto";

	out->kind = CLOCK_WALL;
	out->shift = 0;
	if (!strcmp(want, "wall"))
		return 0;
	if (!strcmp(want, "auto")) {
		/* A job with several vCPUs (the seeds' two readers) runs. */
		if (kvm || has_real_time_disk(job) ||
		    clock_smp_refusal(m->cpus))
			return 0;
	} else if (strcmp(want, "virtual")) {
		return error("machine.clock: '%s' is not auto, virtual or wall",
			     want);
	} else if (kvm) {
		return error("machine.clock: 'virtual' counts instructions "
			     "under TCG, and this boot runs under KVM: set "
			     "machine.accel \"tcg\" or machine.clock \"wall\"");
	} else if (clock_smp_refusal(m->cpus)) {
		return error("machine.clock: %s", clock_smp_refusal(m->cpus));
	}
	out->kind = CLOCK_VIRTUAL;
	out->shift = clock_job_shift(job);
	return 0;
}

void clock_unit(struct strbuf *out, const struct clock *c)
{
	strbuf_addstr(out, "MB/s");
	if (c && c->kind == CLOCK_VIRTUAL)
		strbuf_addf(out, " in virtual time (icount, shift %d)",
			    c->shift);
}
