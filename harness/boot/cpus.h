/*
 * cpus.h: which host CPUs measure and which build.
 *
 * Under TCG a boot keeps one host CPU busy per guest vCPU; whatever else
 * runs on that CPU (a kernel build beside the boot, the harness) shows up
 * as noise in the boot's figure. When the job asks for it (machine.pin,
 * on by default) and the host has CPUs to spare, QEMU runs on the last
 * machine.cpus CPUs the harness may use (the measuring CPUs) and builds
 * beside a boot on the others. A host with no CPU to spare (one CPU, or
 * no more than the guest's vCPUs) pins nothing.
 *
 * Only QEMU's vCPU threads go on the measuring CPUs, one each: QEMU starts
 * on the building CPUs and its vCPU threads are moved once they exist.
 * Its main loop (device emulation, I/O completion) stays with the builds,
 * at a higher priority than theirs: sharing the measuring CPU with the
 * vCPU thread halved the demo's throughput.
 */
#ifndef IOBISECT_CPUS_H
#define IOBISECT_CPUS_H

#include <sched.h>
#include <sys/types.h>

struct machine_spec;

struct cpu_plan {
	int pinned;	   /* 0: nothing pinned, the sets below are unused */
	cpu_set_t measure; /* QEMU's CPUs */
	cpu_set_t build;   /* the rest: builds beside a boot */
};

/* The plan for `m` on this host (its allowed CPUs, sched_getaffinity). */
void cpu_plan_make(struct cpu_plan *plan, const struct machine_spec *m);

/*
 * Sets the harness's own CPUs to `set` for a fork that follows (the child
 * and every thread it makes inherit them); *saved gets what to put back.
 * 1 when they were changed (then call cpus_restore), 0 without a plan.
 */
int cpus_pin_self(const struct cpu_plan *plan, const cpu_set_t *set,
		  cpu_set_t *saved);
void cpus_restore(const cpu_set_t *saved);

/*
 * Under the virtual clock a guest that waits for QEMU's device is timed
 * by the host from its idle to its wake-up (icount sleep=on: the clock
 * follows the host while every vCPU sleeps), and that time holds QEMU's
 * main loop serving the completion and the vCPU thread waking. A build
 * or a busy neighbour on their CPUs delays both, by a scheduler slice or
 * more: the slow kernel that waits reads 2-7% apart from boot to boot
 * (docs/clocks.md). So once its vCPU threads are on CPUs of their own
 * (cpus_pin_vcpus found them by name), QEMU's main thread and its vCPU
 * threads in the group `pgid` go to the lowest real-time priority
 * (SCHED_FIFO 1), which wakes them ahead of every ordinary task; the
 * threads the main loop makes later inherit it. Never the harness, and
 * never two of them on one CPU where one spins: a real-time vCPU thread
 * beside the thread that must wake it would starve it. Needs root or
 * RLIMIT_RTPRIO; returns how many threads were set (0: QEMU runs as it
 * would), -1 when /proc cannot be read.
 */
int cpus_realtime_qemu(pid_t pgid);

/*
 * Moves the vCPU threads of the QEMU in the process group `pgid` (QEMU's
 * own, or that of a wrapper that started it; the threads are named
 * "CPU <n>/TCG" or "CPU <n>/KVM" by -name debug-threads=on, "ALL CPUs/TCG"
 * for one-thread TCG) to the plan's measuring CPUs: vCPU n to the n-th of
 * them (modulo their number). Safe to call again as more threads appear.
 * Returns how many vCPUs it placed (every one for "ALL CPUs"), 0 without
 * a plan, -1 when /proc cannot be read.
 */
int cpus_pin_vcpus(const struct cpu_plan *plan, pid_t pgid, int nr_vcpus);

/*
 * Every thread of every process in the process group `pgid` (a build lane
 * and all make started; a QEMU whose vCPUs have no names) onto `set`. Returns how many threads moved, -1
 * when /proc cannot be read.
 */
int cpus_move_group(pid_t pgid, const cpu_set_t *set);

#endif
