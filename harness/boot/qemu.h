/*
 * qemu.h: QEMU's command line for one boot, built from a machine spec and a
 * topology as plain data (qemu_argv_build is pure), plus the two small
 * probes of the host it needs (is KVM usable, is a path a block device),
 * kept apart so the argv can be tested without a host.
 *
 * Every disk is a chain of -blockdev nodes, always ending in a raw format
 * node: a protocol node (file, host_device or null-co) "pN", the raw node
 * "rN" (over a quorum "qN" of the image and a null-co "lN" when writes
 * have a latency), and when the disk has bandwidth or IOPS limits a
 * throttle filter node "tN" in its own throttle group "tgN" (each disk is
 * its own spindle).
 * The device (virtio-blk, scsi-hd on one virtio-scsi controller, nvme or
 * ide-hd) sits on the top node and carries serial "iobN", N being the
 * disk's index in the topology, which is how the guest finds it.
 */
#ifndef IOBISECT_QEMU_H
#define IOBISECT_QEMU_H

#include "clock.h"
#include "job.h"
#include "util.h"

/* What the harness prepared for one disk before QEMU starts. */
struct qemu_disk_host {
	const char *image; /* BACKING_IMAGE/TMPFS: the sparse file */
	int host_blockdev; /* BACKING_HOST: path is a block device */
};

struct qemu_config {
	const struct machine_spec *machine;
	const struct topology *topo;
	const struct qemu_disk_host *disks; /* topo->nr_disks entries */
	int kvm;		 /* the resolved accelerator: 1 KVM, 0 TCG */
	const struct clock *clock; /* clock_resolve's; NULL: the wall clock */
	const char *kernel;	 /* bzImage */
	const char *initrd;	 /* the initramfs of this boot */
	const char *console_log; /* serial 0 (kernel console) goes here */
	const char *result_log;	 /* serial 1 (the guest's frames) go here */
	/*
	 * A profiled boot: iobisect's QEMU plugin and the file it writes
	 * its counts to (tbcount.h); the kernel then runs at its linked
	 * addresses (nokaslr), so System.map names them. NULL: none.
	 */
	const char *plugin, *plugin_out;
};

/*
 * Append QEMU's argv (argv[0] = machine->qemu or qemu-system-x86_64) to
 * `argv`. Pure. Returns -1 with an error naming the disk when the topology
 * cannot be expressed (a host disk without a path, more than four IDE
 * disks, a size of 0), or naming machine.clock for a virtual clock under
 * KVM.
 */
int qemu_argv_build(struct strvec *argv, const struct qemu_config *cfg);

/* The kernel command line a boot gets: console, panic handling, append. */
void qemu_cmdline(struct strbuf *out, const struct machine_spec *machine);

/* The serial number the disk at `index` carries ("iob0"). */
char *qemu_disk_serial(size_t index);

/*
 * Resolve machine->accel ("auto", "kvm", "tcg"; NULL is "auto") to 1 (KVM)
 * or 0 (TCG), given whether KVM is usable. Pure. -1 with an error when
 * "kvm" is asked for and not usable, or the word is unknown.
 */
int qemu_accel_resolve(const struct machine_spec *machine, int kvm_usable);

/*
 * The clock of `job`'s boots on this host: machine.accel resolved with
 * kvm_usable() (kvm.h), then clock_resolve. 0, or -1 after error().
 */
int qemu_job_clock(struct clock *out, const struct job *job);

/*
 * The QEMU version line ("QEMU emulator version 7.2.22 ...") into *out
 * (caller frees), escaped as error lines are (it is printed): 0; 1 when `qemu` did not run or said nothing (the
 * caller names it); -1 after error() when the probe itself could not be
 * made (no temporary file in $TMPDIR) or a signal stopped it.
 */
int qemu_version(const char *qemu, char **out);

#endif
