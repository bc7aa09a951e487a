/*
 * clock.h: which clock times a boot's samples. Under TCG the guest's
 * MB/s is mostly guest CPU per byte, and the host clock that times it is
 * moved by whatever else the host runs. QEMU can time the guest by the
 * instructions it executes instead (-icount shift=N, single-threaded
 * TCG): guest time then advances 2^N ns per instruction, whatever the
 * host does, while a guest that waits for a QEMU disk still sees host
 * time pass (sleep=on; none with disks that complete at once or nullb,
 * qemu.c). Under KVM, and for a real disk passed through, the
 * wall clock is the point.
 *
 * A sample says which clock timed it (results.h); samples of two clocks
 * or two shifts are never pooled or compared. Pure: the accelerator is
 * resolved by the caller (qemu.h).
 */
#ifndef IOBISECT_CLOCK_H
#define IOBISECT_CLOCK_H

#include "util.h"

struct job;

enum clock_kind {
	CLOCK_WALL,    /* the host's: what QEMU serves as guest time today */
	CLOCK_VIRTUAL, /* QEMU's instruction count, a fixed shift */
};

struct clock {
	enum clock_kind kind;
	int shift; /* CLOCK_VIRTUAL: 2^shift ns of guest time an instruction */
};

/*
 * The shift a job gets unless it says (machine.icount_shift), by what its
 * disks wait on (clock_job_shift). The shift sets how fast the guest's
 * CPU is against its disks' latency: shift 4 is a 62.5 MIPS CPU, shift 0
 * a 1 GIPS one (a real CPU does some 3-10 GIPS).
 *
 * When a wait may be the host's (QEMU's latency is a timer on its
 * realtime clock), a larger shift makes guest time pass faster per
 * instruction, so the host-time part weighs less against the guest's
 * work, and timed waits (the kernel's delay loops, a sample's runtime_ms)
 * cost fewer instructions and boots less wall time: 4, chosen by
 * measurement (docs/clocks.md).
 *
 * When every latency is the guest's own (a nullb disk's completion time,
 * sleep=off jumps over the wait), no host time enters at any shift, and
 * the shift only decides how much the latency weighs: at 4 a 200 us
 * completion hides behind the slow CPU's copying (the demo's moderate
 * branch +1.5%, the re-planted readahead fix -3.5%), at 0 it weighs as
 * on a disk (-17.0% and -46.6%, each boot the same to 0.03%; 2026-12-06).
 * Shift 0 costs about twice shift 4's wall time a boot.
 */
#define CLOCK_ICOUNT_SHIFT 4
#define CLOCK_ICOUNT_SHIFT_GUEST_WAITS 0
/* QEMU takes 0..10 ("shift=N": 2^N ns per instruction). */
#define CLOCK_ICOUNT_SHIFT_MAX 10

/*
 * The virtual clock's shift for `job`: machine.icount_shift when the job
 * sets it (0 or more), else CLOCK_ICOUNT_SHIFT_GUEST_WAITS when every
 * latency of its disks is guest time (job_waits_in_guest_time), else
 * CLOCK_ICOUNT_SHIFT.
 */
int clock_job_shift(const struct job *job);

/* "wall" or "virtual", as jobs and documents spell them. */
const char *clock_name(enum clock_kind kind);

/*
 * The clock of `job`'s boots under the resolved accelerator (`kvm` 1 or
 * 0). machine.clock "virtual" or "wall" is taken as given; "auto" (the
 * default, NULL too) is the virtual clock under TCG with one vCPU, unless
 * a disk of the job is a real one passed through or throttled by QEMU
 * (bps_max, iops_max: their real time is the point there); the wall clock
 * otherwise. Returns 0, or -1 after one
 * error() line naming the key and what to set instead: "virtual" under KVM, or
 * with more than one vCPU (clock_smp_refusal).
 */
int clock_resolve(struct clock *out, const struct job *job, int kvm);

/*
 * Why "virtual" with `cpus` vCPUs is refused, one line for a "machine.clock:"
 * prefix, or NULL when it is not (one vCPU). QEMU 7.2 under icount stops
 * an SMP guest's clock while it brings up its second CPU: the kernel
 * stays at "x86: Booting SMP configuration" until the timeout.
 */
const char *clock_smp_refusal(int cpus);

/*
 * What a figure in bytes/s timed by `c` is shown as: "MB/s", or
 * "MB/s in virtual time (icount, shift 3)".
 */
void clock_unit(struct strbuf *out, const struct clock *c);

#endif
