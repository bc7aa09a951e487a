/*
 * vm.h: one boot. vm_boot() prepares a run folder (disk images, the
 * initramfs with /spec), starts QEMU through run.h, follows the guest's
 * result port and the kernel console while it runs, enforces the timeout,
 * always reaps QEMU (timeout, interrupt or not), and classifies the outcome.
 * vm_classify() is the pure part of that, tested on plain text.
 */
#ifndef IOBISECT_VM_H
#define IOBISECT_VM_H

#include "job.h"
#include "proto.h"
#include "util.h"

#include <stdint.h>

enum boot_status {
	BOOT_OK,	     /* done frame, no error, every sample verified */
	BOOT_NO_USERSPACE,   /* QEMU ended and the guest never said hello */
	BOOT_PANIC,	     /* panic, oops or BUG on the console */
	BOOT_TIMEOUT,	     /* still running at machine.timeout_s: killed */
	BOOT_WORKLOAD_ERROR, /* error frame, verify failure, or no done */
	BOOT_QEMU_ERROR,     /* QEMU refused to start or failed by itself */
	BOOT_INTERRUPTED,    /* the harness was interrupted: QEMU killed */
};

/* "ok", "boot-failure", "panic", "timeout", "workload-error", ... */
const char *boot_status_name(enum boot_status s);

struct boot_request {
	const struct job *job;
	int topo;	     /* index into job->topologies */
	const char *kernel;  /* bzImage */
	const char *run_dir; /* this harness's own (rundir.h): a boot
				truncates and removes files there */
	const char *label;   /* commit or label, written into the spec */
	unsigned boot_id;
	const char *guest; /* NULL: initramfs_find_guest() */
	int keep_images;   /* leave disk images and initramfs behind */
	/* A profiled boot: the plugin and its counts' file (qemu.h). */
	const char *plugin, *plugin_out;
	/*
	 * Optional: called with each sample frame (warmups too) as the
	 * result port gives it, while the guest still runs: what a person
	 * watches is shown as it is measured, not when the boot ends.
	 */
	void (*on_sample)(void *payload, const struct proto_sample *s);
	void *sample_payload;
};

struct boot_result {
	enum boot_status status;
	struct strbuf detail;	    /* one or a few lines for people */
	struct proto_report report; /* everything the guest said */
	char *console_log;	    /* <run_dir>/console.log */
	char *result_log;	    /* <run_dir>/result.log (raw frames) */
	int kvm;		    /* the accelerator used: 1 KVM, 0 TCG */
	int timed_out;
	int qemu_exit; /* run_wait()'s code, -1 if not started */
	/* Times from QEMU's start; 0 when it never happened. */
	uint64_t hello_ns, first_sample_ns, done_ns, total_ns;
};

void boot_result_init(struct boot_result *r);
void boot_result_release(struct boot_result *r);

/*
 * A boot that panicked because the guest ran out of memory ("Out of
 * memory", "deadlocked on memory" on `console`): one line to add to its
 * detail, naming machine.memory_mb and, when topology `t` has
 * memory-backed nullb disks, that they keep every written byte in that
 * memory. NULL for any other console; the caller frees it. Pure.
 */
char *vm_memory_hint(const char *console, const struct machine_spec *m,
		     const struct topology *t);

/*
 * Boot req->kernel on topology req->topo of req->job. The run folder holds
 * initramfs.cpio, the disk images (dN.img; tmpfs disks go to /dev/shm),
 * qemu.cmdline, qemu.log (QEMU's own messages), qemu.pid while QEMU runs,
 * console.log and result.log. Images and the initramfs are removed after
 * the boot unless keep_images. Returns 0 when QEMU ran (out->status says
 * how it went), -1 after error() when the boot could not be set up.
 */
int vm_boot(struct boot_result *out, const struct boot_request *req);

/*
 * Classify a finished boot from the console text, the guest's report,
 * whether it was killed at the timeout and QEMU's exit code (as run_wait
 * gives it), and put the reason in `detail` (panic lines quoted). Pure.
 */
enum boot_status vm_classify(struct strbuf *detail, const char *console,
			     const struct proto_report *report, int timed_out,
			     int qemu_exit);

#endif
