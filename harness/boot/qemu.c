/*
 * qemu.c: QEMU's argv for one boot (pure), the kernel command line, and the
 * host probes the caller runs before building it (see qemu.h).
 *
 * Request size caps (disk_spec.max_sectors_kb) go where QEMU 7.2 has a
 * knob: scsi-hd's max_io_size (the Block Limits VPD page the guest's sd
 * driver honours) and nvme's mdts (2^mdts 4 KiB pages). virtio-blk and IDE
 * have none (virtio-blk only sizes segments), so for them the cap is the
 * guest's to apply through /sys/block/X/queue/max_sectors_kb.
 */
#include "kvm.h"
#include "qemu.h"
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_QEMU "qemu-system-x86_64"

/* QEMU option values double their commas. */
static void add_escaped(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == ',')
			strbuf_addch(sb, ',');
		strbuf_addch(sb, *s);
	}
}

static void push2(struct strvec *argv, const char *opt, const char *val)
{
	strvec_push(argv, opt);
	strvec_push(argv, val);
}

char *qemu_disk_serial(size_t index)
{
	return xstrfmt("iob%zu", index);
}

void qemu_cmdline(struct strbuf *out, const struct machine_spec *m)
{
	/*
	 * panic=-1 reboots at once on a panic, and -no-reboot turns that into
	 * QEMU's exit, so a panic ends the boot in a second instead of at the
	 * timeout; oops=panic does the same for an oops. The console keeps
	 * the kernel's default log level: under TCG the boot messages cost
	 * little and are what a failed boot is diagnosed from.
	 * no_timer_check: the kernel's early check that the IO-APIC timer
	 * ticks waits a fixed number of loops; an emulated CPU on a busy
	 * host can pass them before a tick arrives, and the boot panics
	 * ("IO-APIC + timer doesn't work"). A KVM guest skips the check on
	 * its own; we skip it always.
	 */
	strbuf_addstr(out, "console=ttyS0 panic=-1 oops=panic no_timer_check");
	if (m && m->append && *m->append) {
		strbuf_addch(out, ' ');
		strbuf_addstr(out, m->append);
	}
}

/*
 * The guest's null_blk disks, set by module parameters (built in, so on
 * the command line): as many devices as the topology has nullb disks, the
 * largest size (null_blk counts whole GiB), and the one completion time,
 * served by a guest timer (irqmode=2) so the wait is the guest's time.
 * Without a latency, requests complete as they are queued (irqmode=0).
 * Requests may be as large as a virtio-blk disk's (job_nullb_max_kb);
 * kernels whose null_blk has no max_sectors ignore the parameter. A
 * memory-backed null_blk keeps what is written, in the guest's memory.
 */

static void nullb_params(struct strbuf *out, const struct topology *t)
{
	size_t n = 0;
	uint64_t mb = 0, latency = 0;
	int memory = 0;

	for (size_t i = 0; t && i < t->nr_disks; i++) {
		const struct disk_spec *d = &t->disks[i];
		if (!bus_has(d->bus, BUS_GUEST))
			continue;
		n++;
		if (d->size_mb > mb)
			mb = d->size_mb;
		latency = d->latency_ns;
		memory = d->memory_backed;
	}
	if (!n)
		return;
	strbuf_addf(out,
		    " null_blk.nr_devices=%zu null_blk.gb=%llu"
		    " null_blk.max_sectors=%u",
		    n, (unsigned long long)((mb + 1023) / 1024),
		    job_nullb_max_kb(t) * 2);
	if (memory)
		strbuf_addstr(out, " null_blk.memory_backed=1");
	if (latency)
		strbuf_addf(out,
			    " null_blk.irqmode=2 null_blk.completion_nsec=%llu",
			    (unsigned long long)latency);
	else
		strbuf_addstr(out, " null_blk.irqmode=0");
}

int qemu_accel_resolve(const struct machine_spec *m, int kvm_usable)
{
	const char *a = m && m->accel ? m->accel : "auto";
	if (!strcmp(a, "auto"))
		return kvm_usable ? 1 : 0;
	if (!strcmp(a, "tcg"))
		return 0;
	if (!strcmp(a, "kvm")) {
		if (!kvm_usable)
			return error("machine.accel: 'kvm' asked for but "
				     "/dev/kvm is not usable");
		return 1;
	}
	return error("machine.accel: '%s' is not auto, kvm or tcg", a);
}

int qemu_job_clock(struct clock *out, const struct job *job)
{
	int kvm = qemu_accel_resolve(&job->machine, kvm_usable());
	return kvm < 0 ? -1 : clock_resolve(out, job, kvm);
}

int qemu_version(const char *qemu, char **out_line)
{
	/*
	 * Run it without a shell (machine.qemu comes from a job file) and
	 * with a deadline: a binary that hangs on --version must not hold
	 * the harness, and SIGINT or SIGTERM ends the wait like any other.
	 */
	const char *argv[] = { qemu ? qemu : DEFAULT_QEMU, "--version", NULL };
	struct run_opts o = RUN_OPTS_INIT;
	struct strbuf out = STRBUF_INIT, quiet = STRBUF_INIT, *prev;
	const char *tmp = getenv("TMPDIR");
	char *path, *v = NULL;
	int fd, rc, ret = 1;

	/* $TMPDIR as every program honours it; /tmp when unset or relative. */
	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	path = xstrfmt("%s/iobisect-qemu-version.XXXXXX", tmp);
	*out_line = NULL;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		error("cannot make a temporary file in '%s' to ask QEMU its "
		      "version: %s",
		      tmp, strerror(errno));
		free(path);
		return -1;
	}
	close(fd);
	o.argv = argv;
	o.stdout_path = path;
	o.timeout_ms = 10000;
	/* Not found or not runnable: the caller says so, once. */
	prev = error_capture(&quiet);
	rc = run_command(&o);
	if (!rc && !read_file_max(path, &out, 65536) && out.len) {
		/* Its first line, shown and stored: escaped. */
		out.buf[strcspn(out.buf, "\n")] = '\0';
		v = xstrdup_safe(out.buf);
	}
	error_capture(prev);
	unlink(path);
	free(path);
	strbuf_release(&out);
	strbuf_release(&quiet);
	if (v) {
		*out_line = v;
		ret = 0;
	} else if (run_interrupted()) {
		/* The signal stopped it, not a missing QEMU. */
		ret = error("interrupted while asking '%s' its version",
			    argv[0]);
	}
	return ret;
}

struct cache_mode {
	const char *name;
	int direct, no_flush, write_cache;
};

static const struct cache_mode cache_modes[] = {
	{"writeback", 0, 0, 1},	 {"none", 1, 0, 1},   {"writethrough", 0, 0, 0},
	{"directsync", 1, 0, 0}, {"unsafe", 0, 1, 1},
};

static const struct cache_mode *find_cache(const struct disk_spec *d)
{
	const char *name = job_disk_cache(d);
	for (size_t i = 0; i < ARRAY_SIZE(cache_modes); i++)
		if (!strcmp(cache_modes[i].name, name))
			return &cache_modes[i];
	return NULL;
}

static const char *disk_label(const struct disk_spec *d, size_t i,
			      struct strbuf *sb)
{
	strbuf_reset(sb);
	if (d->name)
		strbuf_addf(sb, "%s", d->name);
	else
		strbuf_addf(sb, "#%zu", i);
	return sb->buf;
}

/*
 * write_latency_ns: QEMU 7.2 can delay requests only in null-co, and
 * blkdebug only fails them. So the image "pN" gets a null-co twin "lN" of
 * its size, and a quorum node "qN" writes and flushes both, completing
 * when both have: every write and flush takes at least the latency, and
 * writes still overlap up to the queue depth. Reads go to the image alone
 * (read-pattern=fifo), so the data is real. vote-threshold=2 makes a
 * failed write to the image fail the request; with 1, the twin's success
 * would hide it.
 */
static int add_write_latency(struct strvec *argv, const struct disk_spec *d,
			     size_t i, const char *ro, const char *label)
{
	if ((d->backing != BACKING_IMAGE && d->backing != BACKING_TMPFS) ||
	    !d->size_mb)
		return error("disk '%s': write_latency_ns needs backing image "
			     "or tmpfs",
			     label);
	strvec_push(argv, "-blockdev");
	strvec_pushf(
		argv,
		"driver=null-co,node-name=l%zu,size=%llu,latency-ns=%llu%s", i,
		(unsigned long long)d->size_mb << 20,
		(unsigned long long)d->write_latency_ns, ro);
	strvec_push(argv, "-blockdev");
	strvec_pushf(argv,
		     "driver=quorum,node-name=q%zu,vote-threshold=2,"
		     "read-pattern=fifo,children.0=p%zu,children.1=l%zu%s",
		     i, i, i, ro);
	return 0;
}

/* The protocol and raw nodes of disk `i`; the top node's name in `top`. */
static int add_backing(struct strvec *argv, const struct qemu_config *cfg,
		       size_t i, const struct cache_mode *cm,
		       struct strbuf *top)
{
	const struct disk_spec *d = &cfg->topo->disks[i];
	const struct qemu_disk_host *h = cfg->disks ? &cfg->disks[i] : NULL;
	struct strbuf label = STRBUF_INIT, opt = STRBUF_INIT;
	const char *ro = d->readonly ? ",read-only=on" : "";
	int rc = -1;

	disk_label(d, i, &label);
	switch (d->backing) {
	case BACKING_IMAGE:
	case BACKING_TMPFS:
	case BACKING_HOST: {
		const char *path = d->backing == BACKING_HOST
					   ? d->path
					   : (h ? h->image : NULL);
		if (!path || !*path) {
			error("disk '%s': no %s to attach", label.buf,
			      d->backing == BACKING_HOST ? "host path"
							 : "image file");
			goto out;
		}
		if (d->backing == BACKING_TMPFS && cm->direct) {
			error("disk '%s': cache mode '%s' needs O_DIRECT, "
			      "which tmpfs does not offer",
			      label.buf, cm->name);
			goto out;
		}
		strbuf_addf(&opt, "driver=%s,node-name=p%zu,filename=",
			    d->backing == BACKING_HOST && h && h->host_blockdev
				    ? "host_device"
				    : "file",
			    i);
		add_escaped(&opt, path);
		strbuf_addf(&opt, ",cache.direct=%s,cache.no-flush=%s%s",
			    cm->direct ? "on" : "off",
			    cm->no_flush ? "on" : "off", ro);
		break;
	}
	case BACKING_NULL:
		if (!d->size_mb) {
			error("disk '%s': a null disk needs a size", label.buf);
			goto out;
		}
		/* Reads return zeroes; latency-ns makes it behave like a disk.
		 */
		strbuf_addf(&opt,
			    "driver=null-co,node-name=p%zu,size=%llu,"
			    "read-zeroes=on",
			    i, (unsigned long long)d->size_mb << 20);
		if (d->latency_ns)
			strbuf_addf(&opt, ",latency-ns=%llu",
				    (unsigned long long)d->latency_ns);
		strbuf_addstr(&opt, ro);
		break;
	default:
		error("disk '%s': unknown backing", label.buf);
		goto out;
	}
	push2(argv, "-blockdev", opt.buf);
	if (d->write_latency_ns && add_write_latency(argv, d, i, ro, label.buf))
		goto out;
	strvec_pushf(argv, "-blockdev");
	strvec_pushf(argv, "driver=raw,node-name=r%zu,file=%c%zu%s", i,
		     d->write_latency_ns ? 'q' : 'p', i, ro);
	strbuf_reset(top);
	strbuf_addf(top, "r%zu", i);

	if (d->bps_max || d->iops_max) {
		strbuf_reset(&opt);
		strbuf_addf(&opt, "throttle-group,id=tg%zu", i);
		if (d->bps_max)
			strbuf_addf(&opt, ",x-bps-total=%llu",
				    (unsigned long long)d->bps_max);
		if (d->iops_max)
			strbuf_addf(&opt, ",x-iops-total=%llu",
				    (unsigned long long)d->iops_max);
		push2(argv, "-object", opt.buf);
		strvec_push(argv, "-blockdev");
		strvec_pushf(argv,
			     "driver=throttle,node-name=t%zu,"
			     "throttle-group=tg%zu,file=r%zu",
			     i, i, i);
		strbuf_reset(top);
		strbuf_addf(top, "t%zu", i);
	}
	rc = 0;
out:
	strbuf_release(&label);
	strbuf_release(&opt);
	return rc;
}

/* log2 of the largest power of two <= v. */
static unsigned ilog2u(uint32_t v)
{
	unsigned r = 0;
	while (v >>= 1)
		r++;
	return r;
}

/*
 * Where disk `i`, the `slot`-th of its bus, sits on the bus (bus_place):
 * the options of its -device before the drive.
 */
static int add_place(struct strbuf *opt, const struct bus_info *b, size_t i,
		     int slot, const char *label)
{
	switch (b->place) {
	case PLACE_ALONE:
		return 0;
	case PLACE_SCSI_ID:
		strbuf_addf(opt, "bus=%s0.0,channel=0,scsi-id=%zu,lun=0,",
			    b->name, i);
		return 0;
	case PLACE_IDE_UNIT:
		if (slot >= 4)
			return error("disk '%s': the pc machine has four IDE "
				     "slots",
				     label);
		strbuf_addf(opt, "bus=ide.%d,unit=%d,", slot / 2, slot % 2);
		return 0;
	}
	return error("disk '%s': bus %s has no place", label, b->name);
}

/* QEMU's own cap of the disk's requests (bus_cap), if it has one. */
static int add_cap(struct strbuf *opt, const struct bus_info *b,
		   const struct disk_spec *d, const char *label)
{
	if (!d->max_sectors_kb)
		return 0;
	switch (b->cap) {
	case CAP_NONE:
		return 0;
	case CAP_MAX_IO_SIZE:
		strbuf_addf(opt, ",max_io_size=%llu",
			    (unsigned long long)d->max_sectors_kb << 10);
		return 0;
	case CAP_MDTS:
		/* mdts=0 means "no limit", so 8 KiB is the least. */
		if (d->max_sectors_kb < 8)
			return error("disk '%s': %s cannot cap requests "
				     "below 8 KiB",
				     label, b->name);
		strbuf_addf(opt, ",mdts=%u", ilog2u(d->max_sectors_kb / 4));
		return 0;
	}
	return error("disk '%s': bus %s has no cap rule", label, b->name);
}

/* The buses that can be read-only, "virtio, scsi or nvme". */
static void ro_buses(struct strbuf *out)
{
	size_t n = 0, k = 0;

	for (size_t b = 0; b < NR_BUSES; b++)
		n += bus_has(b, BUS_RO);
	for (size_t b = 0; b < NR_BUSES; b++) {
		if (!bus_has(b, BUS_RO))
			continue;
		if (k++)
			strbuf_addstr(out, k == n ? " or " : ", ");
		strbuf_addstr(out, bus_info[b].name);
	}
}

/*
 * Disk `i`'s -device, the `slot`-th of its bus, on node `top`. A bus with
 * a controller has ioeventfd set there (qemu_argv_build), else here.
 */
static int add_device(struct strvec *argv, const struct disk_spec *d, size_t i,
		      int slot, const char *top, const struct cache_mode *cm,
		      int virtual_clock)
{
	struct strbuf opt = STRBUF_INIT, label = STRBUF_INIT;
	char *serial = qemu_disk_serial(i);
	const struct bus_info *b = &bus_info[d->bus];
	int rc = -1;

	disk_label(d, i, &label);
	if (d->readonly && !(b->flags & BUS_RO)) {
		struct strbuf can = STRBUF_INIT;
		/* QEMU: "Block node is read-only" for ide-hd. */
		ro_buses(&can);
		error("disk '%s': bus %s cannot be read-only; use %s",
		      label.buf, b->name, can.buf);
		strbuf_release(&can);
		goto out;
	}
	strbuf_addf(&opt, "%s,", b->device);
	if (add_place(&opt, b, i, slot, label.buf))
		goto out;
	strbuf_addf(&opt, "drive=%s,serial=%s", top, serial);
	if (add_cap(&opt, b, d, label.buf))
		goto out;
	/*
	 * Its queue served in the vCPU's thread, null-co finishes the
	 * request before the guest runs on, so the guest never idles on
	 * QEMU's time: the readahead regression's slow kernel read 98.0 MB/s
	 * in six boots of six (0.00%, compiles beside) where, served by the
	 * main loop, it spread 0.6% (bench/clocks.md).
	 */
	if (!b->controller && virtual_clock && job_disk_completes_at_once(d))
		strbuf_addstr(&opt, ",ioeventfd=off");
	if (!cm->write_cache)
		strbuf_addstr(&opt, ",write-cache=off");
	push2(argv, "-device", opt.buf);
	rc = 0;
out:
	free(serial);
	strbuf_release(&opt);
	strbuf_release(&label);
	return rc;
}

static void add_serial(struct strvec *argv, const char *id, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "file,id=%s,path=", id);
	add_escaped(&sb, path);
	push2(argv, "-chardev", sb.buf);
	strvec_push(argv, "-serial");
	strvec_pushf(argv, "chardev:%s", id);
	strbuf_release(&sb);
}

/*
 * QEMU itself, the machine with no default devices, its accelerator and
 * clock, its size, and the kernel and initramfs it boots.
 */
static int add_machine(struct strvec *argv, const struct qemu_config *cfg)
{
	const struct machine_spec *m = cfg->machine;

	strvec_push(argv, m && m->qemu && *m->qemu ? m->qemu : DEFAULT_QEMU);
	/*
	 * No default devices (no NIC, no VGA, no monitor, no serial we did
	 * not ask for), no window, and a guest reboot ends QEMU.
	 */
	strvec_push(argv, "-nodefaults");
	strvec_push(argv, "-nographic");
	strvec_push(argv, "-no-reboot");
	push2(argv, "-machine", "pc");
	/*
	 * Threads named by role ("CPU 0/TCG", "CPU 0/KVM"), so the harness
	 * can put the vCPU threads alone on the measuring CPUs (cpus.h).
	 */
	push2(argv, "-name", "iobisect,debug-threads=on");
	if (cfg->clock && cfg->clock->kind == CLOCK_VIRTUAL) {
		if (cfg->kvm)
			return error("machine.clock: the virtual clock needs "
				     "TCG");
		/*
		 * icount runs every vCPU on one host thread, at a fixed
		 * shift ("auto" re-tunes the rate to the host's speed).
		 * sleep=on while QEMU serves a disk: a guest waiting for it
		 * sees the wait's host time, where sleep=off would jump to
		 * its next timer and round every wait to a tick. With only
		 * the guest's own null_blk, every wait is a guest timer, and
		 * with disks that complete at once there is none to wait
		 * for: sleep=off jumps straight to the next timer, and no
		 * host time enters.
		 */
		push2(argv, "-accel", "tcg,thread=single");
		strvec_push(argv, "-icount");
		strvec_pushf(argv, "shift=%d,sleep=%s", cfg->clock->shift,
			     job_topology_waits_on_host(cfg->topo) ? "on"
								   : "off");
	} else if (cfg->kvm) {
		push2(argv, "-accel", "kvm");
		push2(argv, "-cpu", "host");
	} else {
		/* One host thread per vCPU: measured faster than thread=single.
		 */
		push2(argv, "-accel", "tcg,thread=multi");
	}
	strvec_push(argv, "-smp");
	strvec_pushf(argv, "%d", m && m->cpus > 0 ? m->cpus : 1);
	strvec_push(argv, "-m");
	strvec_pushf(argv, "%d", m && m->memory_mb > 0 ? m->memory_mb : 512);
	push2(argv, "-kernel", cfg->kernel);
	push2(argv, "-initrd", cfg->initrd);
	return 0;
}

/*
 * The kernel command line (-append), with the guest's null_blk disks;
 * a profiled boot adds the plugin and runs the kernel at its linked
 * addresses.
 */
static int add_append(struct strvec *argv, const struct qemu_config *cfg)
{
	struct strbuf sb = STRBUF_INIT;

	qemu_cmdline(&sb, cfg->machine);
	nullb_params(&sb, cfg->topo);
	if (cfg->plugin) {
		/* QEMU's options have no escape for a comma in a value. */
		if (strchr(cfg->plugin, ',') ||
		    (cfg->plugin_out && strchr(cfg->plugin_out, ','))) {
			error("qemu: a comma in '%s' or '%s'", cfg->plugin,
			      cfg->plugin_out ? cfg->plugin_out : "");
			strbuf_release(&sb);
			return -1;
		}
		strbuf_addstr(&sb, " nokaslr");
		strvec_push(argv, "-plugin");
		strvec_pushf(argv, "%s,out=%s", cfg->plugin,
			     cfg->plugin_out ? cfg->plugin_out : "");
	}
	push2(argv, "-append", sb.buf);
	strbuf_release(&sb);
	return 0;
}

/*
 * One controller serves every disk of its bus (one virtio-scsi for
 * SCSI): its queue goes to the vCPU's thread when all of them complete
 * at once. -1 with an error when a disk's bus is unknown.
 */
static int add_controllers(struct strvec *argv, const struct topology *t,
			   int virtual_clock)
{
	for (size_t i = 0; t && i < t->nr_disks; i++)
		if ((unsigned)t->disks[i].bus >= NR_BUSES) {
			struct strbuf label = STRBUF_INIT;
			error("disk '%s': unknown bus",
			      disk_label(&t->disks[i], i, &label));
			strbuf_release(&label);
			return -1;
		}
	for (size_t b = 0; b < NR_BUSES; b++) {
		int used = 0, at_once = 1;
		if (!bus_info[b].controller)
			continue;
		for (size_t i = 0; t && i < t->nr_disks; i++)
			if ((size_t)t->disks[i].bus == b) {
				used = 1;
				at_once &= job_disk_completes_at_once(
					&t->disks[i]);
			}
		if (!used)
			continue;
		strvec_push(argv, "-device");
		strvec_pushf(argv, "%s,id=%s0%s", bus_info[b].controller,
			     bus_info[b].name,
			     virtual_clock && at_once ? ",ioeventfd=off" : "");
	}
	return 0;
}

/* Each disk QEMU serves: its backing nodes, then its device on its bus. */
static int add_disks(struct strvec *argv, const struct qemu_config *cfg,
		     int virtual_clock)
{
	const struct topology *t = cfg->topo;
	struct strbuf top = STRBUF_INIT, label = STRBUF_INIT;
	int slots[NR_BUSES] = {0};
	int rc = -1;

	for (size_t i = 0; t && i < t->nr_disks; i++) {
		const struct disk_spec *d = &t->disks[i];
		const struct cache_mode *cm = find_cache(d);
		if (bus_has(d->bus, BUS_GUEST))
			continue; /* the guest's: nullb_params */
		if (!cm) {
			error("disk '%s': unknown cache mode '%s'",
			      disk_label(d, i, &label), d->cache);
			goto out;
		}
		if (add_backing(argv, cfg, i, cm, &top) ||
		    add_device(argv, d, i, slots[d->bus]++, top.buf, cm,
			       virtual_clock))
			goto out;
	}
	rc = 0;
out:
	strbuf_release(&top);
	strbuf_release(&label);
	return rc;
}

int qemu_argv_build(struct strvec *argv, const struct qemu_config *cfg)
{
	if (!cfg->kernel || !cfg->initrd || !cfg->console_log ||
	    !cfg->result_log)
		return error("qemu: kernel, initrd and both serial files are "
			     "needed");
	if (add_machine(argv, cfg) || add_append(argv, cfg))
		return -1;
	/* Serial 0 is the kernel console, serial 1 the guest's result port. */
	add_serial(argv, "console", cfg->console_log);
	add_serial(argv, "result", cfg->result_log);

	int virtual_clock = cfg->clock && cfg->clock->kind == CLOCK_VIRTUAL;
	if (add_controllers(argv, cfg->topo, virtual_clock) ||
	    add_disks(argv, cfg, virtual_clock))
		return -1;
	return 0;
}
