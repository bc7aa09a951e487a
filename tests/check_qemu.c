/*
 * check_qemu.c: QEMU's argv for every bus, backing, cache mode, limit and
 * accelerator, the refusals, and the kernel command line. The job data is
 * filled by hand, as a parsed job would hold it.
 */
#include "qemu.h"
#include "run.h"
#include "check_skip.h"
#include "util.h"

#include <check.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

static struct machine_spec machine = {
	.cpus = 2,
	.memory_mb = 768,
	.accel = "auto",
	.timeout_s = 60,
};

/* argv as one string, each argument on its own line, for strstr. */
static void join_argv(struct strbuf *out, const struct strvec *argv)
{
	strbuf_reset(out);
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < argv->nr; i++)
		strbuf_addf(out, "%s\n", argv->v[i]);
}

/* One boot's config of `t` under clock `c`, with the usual files. */
static struct qemu_config boot_config(const struct topology *t,
				      const struct clock *c)
{
	return (struct qemu_config){
		.machine = &machine,
		.topo = t,
		.clock = c,
		.kernel = "/k/bzImage",
		.initrd = "/run/initramfs.cpio",
		.console_log = "/run/console.log",
		.result_log = "/run/result.log",
	};
}

static char *build(const struct topology *t, const struct qemu_disk_host *h,
		   int kvm, int *rc)
{
	struct qemu_config cfg = boot_config(t, NULL);
	struct strvec argv = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	cfg.disks = h;
	cfg.kvm = kvm;
	*rc = qemu_argv_build(&argv, &cfg);
	join_argv(&sb, &argv);
	strvec_clear(&argv);
	return strbuf_detach(&sb);
}

/* `opt` followed by exactly `val` somewhere in argv. */
static int has_pair(const char *joined, const char *opt, const char *val)
{
	char *want = xstrfmt("\n%s\n%s\n", opt, val);
	int found = strstr(joined, want) != NULL;
	free(want);
	return found;
}

#define ASSERT_PAIR(j, o, v)                                                   \
	ck_assert_msg(has_pair(j, o, v), "missing '%s %s' in:%s", o, v, j)

struct disk_case {
	const char *what;
	struct disk_spec disk;
	struct qemu_disk_host host;
	const char *want[5][2]; /* option, value pairs that must appear */
	const char *absent;	/* a text that must not appear */
};

static const struct disk_case disk_cases[] = {
	{"virtio image writeback",
	 {.name = "d0",
	  .bus = BUS_VIRTIO,
	  .backing = BACKING_IMAGE,
	  .size_mb = 64},
	 {.image = "/run/d0.img"},
	 {{"-blockdev", "driver=file,node-name=p0,filename=/run/d0.img,"
			"cache.direct=off,cache.no-flush=off"},
	  {"-blockdev", "driver=raw,node-name=r0,file=p0"},
	  {"-device", "virtio-blk-pci,drive=r0,serial=iob0"}},
	 "throttle"},
	{"scsi tmpfs with request cap",
	 {.name = "d0",
	  .bus = BUS_SCSI,
	  .backing = BACKING_TMPFS,
	  .size_mb = 64,
	  .max_sectors_kb = 64},
	 {.image = "/dev/shm/x.img"},
	 {{"-device", "virtio-scsi-pci,id=scsi0"},
	  {"-blockdev", "driver=file,node-name=p0,filename=/dev/shm/x.img,"
			"cache.direct=off,cache.no-flush=off"},
	  {"-device", "scsi-hd,bus=scsi0.0,channel=0,scsi-id=0,lun=0,"
		      "drive=r0,serial=iob0,max_io_size=65536"}},
	 NULL},
	{"nvme null-co with latency and mdts",
	 {.name = "d0",
	  .bus = BUS_NVME,
	  .backing = BACKING_NULL,
	  .size_mb = 1024,
	  .latency_ns = 200000,
	  .max_sectors_kb = 64},
	 {0},
	 {{"-blockdev", "driver=null-co,node-name=p0,size=1073741824,"
			"read-zeroes=on,latency-ns=200000"},
	  {"-blockdev", "driver=raw,node-name=r0,file=p0"},
	  {"-device", "nvme,drive=r0,serial=iob0,mdts=4"}},
	 "virtio-scsi"},
	{"nvme host device read-only, cache none by default",
	 {.name = "d0",
	  .bus = BUS_NVME,
	  .backing = BACKING_HOST,
	  .path = "/dev/loop7",
	  .readonly = 1},
	 {.host_blockdev = 1},
	 {{"-blockdev", "driver=host_device,node-name=p0,filename="
			"/dev/loop7,cache.direct=on,cache.no-flush=off,"
			"read-only=on"},
	  {"-blockdev", "driver=raw,node-name=r0,file=p0,read-only=on"},
	  {"-device", "nvme,drive=r0,serial=iob0"}},
	 NULL},
	{"ide image",
	 {.name = "d0", .bus = BUS_IDE, .backing = BACKING_IMAGE, .size_mb = 8},
	 {.image = "/run/d0.img"},
	 {{"-device", "ide-hd,bus=ide.0,unit=0,drive=r0,serial=iob0"}},
	 "read-only"},
	{"host file writable, comma escaped, writethrough",
	 {.name = "d0",
	  .bus = BUS_VIRTIO,
	  .backing = BACKING_HOST,
	  .path = "/data/a,b.img",
	  .cache = "writethrough"},
	 {0},
	 {{"-blockdev", "driver=file,node-name=p0,filename=/data/a,,b.img,"
			"cache.direct=off,cache.no-flush=off"},
	  {"-device", "virtio-blk-pci,drive=r0,serial=iob0,"
		      "write-cache=off"}},
	 "read-only"},
	{"write latency: quorum of the image and a null-co twin under raw",
	 {.name = "d0",
	  .bus = BUS_VIRTIO,
	  .backing = BACKING_IMAGE,
	  .size_mb = 64,
	  .write_latency_ns = 8000000},
	 {.image = "/run/d0.img"},
	 {{"-blockdev", "driver=file,node-name=p0,filename=/run/d0.img,"
			"cache.direct=off,cache.no-flush=off"},
	  {"-blockdev", "driver=null-co,node-name=l0,size=67108864,"
			"latency-ns=8000000"},
	  {"-blockdev", "driver=quorum,node-name=q0,vote-threshold=2,"
			"read-pattern=fifo,children.0=p0,children.1=l0"},
	  {"-blockdev", "driver=raw,node-name=r0,file=q0"},
	  {"-device", "virtio-blk-pci,drive=r0,serial=iob0"}},
	 "file=p0\n"},
	{"write latency on a read-only tmpfs disk with a throttle on top",
	 {.name = "d0",
	  .bus = BUS_SCSI,
	  .backing = BACKING_TMPFS,
	  .size_mb = 8,
	  .write_latency_ns = 1000,
	  .iops_max = 100,
	  .readonly = 1},
	 {.image = "/dev/shm/x.img"},
	 {{"-blockdev", "driver=null-co,node-name=l0,size=8388608,"
			"latency-ns=1000,read-only=on"},
	  {"-blockdev", "driver=quorum,node-name=q0,vote-threshold=2,"
			"read-pattern=fifo,children.0=p0,children.1=l0,"
			"read-only=on"},
	  {"-blockdev", "driver=raw,node-name=r0,file=q0,read-only=on"},
	  {"-blockdev", "driver=throttle,node-name=t0,throttle-group=tg0,"
			"file=r0"},
	  {"-device", "scsi-hd,bus=scsi0.0,channel=0,scsi-id=0,lun=0,"
		      "drive=t0,serial=iob0"}},
	 NULL},
	{"throttled disk: group and filter node on top of raw",
	 {.name = "d0",
	  .bus = BUS_VIRTIO,
	  .backing = BACKING_IMAGE,
	  .size_mb = 64,
	  .bps_max = 50000000,
	  .iops_max = 2000,
	  .cache = "unsafe"},
	 {.image = "/run/d0.img"},
	 {{"-object", "throttle-group,id=tg0,x-bps-total=50000000,"
		      "x-iops-total=2000"},
	  {"-blockdev", "driver=throttle,node-name=t0,throttle-group=tg0,"
			"file=r0"},
	  {"-blockdev", "driver=file,node-name=p0,filename=/run/d0.img,"
			"cache.direct=off,cache.no-flush=on"},
	  {"-device", "virtio-blk-pci,drive=t0,serial=iob0"}},
	 NULL},
};

START_TEST(test_disk_argv)
{
	const struct disk_case *c = &disk_cases[_i];
	struct topology t = {.name = "x", .nr_disks = 1};
	t.disks = (struct disk_spec *)&c->disk;
	int rc;
	char *j = build(&t, &c->host, 0, &rc);
	ck_assert_msg(rc == 0, "%s: build failed", c->what);
	for (size_t k = 0; k < 5 && c->want[k][0]; k++)
		ck_assert_msg(has_pair(j, c->want[k][0], c->want[k][1]),
			      "%s: missing '%s %s' in:%s", c->what,
			      c->want[k][0], c->want[k][1], j);
	if (c->absent)
		ck_assert_msg(!strstr(j, c->absent), "%s: '%s' in:%s", c->what,
			      c->absent, j);
	free(j);
}
END_TEST

START_TEST(test_machine_and_serials)
{
	struct topology t = {.name = "none"};
	int rc;
	machine.append = "loglevel=7 foo=bar";
	char *j = build(&t, NULL, 0, &rc);
	machine.append = NULL;
	ck_assert_int_eq(rc, 0);
	ck_assert(!strncmp(j, "\nqemu-system-x86_64\n", 20));
	ck_assert_ptr_nonnull(strstr(j, "\n-nodefaults\n"));
	ck_assert_ptr_nonnull(strstr(j, "\n-no-reboot\n"));
	ck_assert_ptr_nonnull(strstr(j, "\n-nographic\n"));
	ASSERT_PAIR(j, "-accel", "tcg,thread=multi");
	/* vCPU threads by name, for the measuring CPUs (cpus.h). */
	ASSERT_PAIR(j, "-name", "iobisect,debug-threads=on");
	ASSERT_PAIR(j, "-smp", "2");
	ASSERT_PAIR(j, "-m", "768");
	ASSERT_PAIR(j, "-kernel", "/k/bzImage");
	ASSERT_PAIR(j, "-initrd", "/run/initramfs.cpio");
	ASSERT_PAIR(j, "-append",
		    "console=ttyS0 panic=-1 oops=panic no_timer_check loglevel=7 foo=bar");
	/* The console is serial 0 and the result port serial 1, in order. */
	char *con = strstr(j, "file,id=console,path=/run/console.log");
	char *res = strstr(j, "file,id=result,path=/run/result.log");
	ck_assert_ptr_nonnull(con);
	ck_assert_ptr_nonnull(res);
	ck_assert(con < res);
	ASSERT_PAIR(j, "-serial", "chardev:console");
	ASSERT_PAIR(j, "-serial", "chardev:result");
	ck_assert(strstr(j, "chardev:console") < strstr(j, "chardev:result"));
	free(j);

	j = build(&t, NULL, 1, &rc);
	ASSERT_PAIR(j, "-accel", "kvm");
	ASSERT_PAIR(j, "-cpu", "host");
	free(j);
}
END_TEST

/* QEMU's argv for `cfg`, built (it must be) and joined into *j. */
static void joined_argv(struct strbuf *j, const struct qemu_config *cfg)
{
	struct strvec argv = STRVEC_INIT;

	ck_assert_int_eq(qemu_argv_build(&argv, cfg), 0);
	join_argv(j, &argv);
	strvec_clear(&argv);
}

/*
 * The virtual clock: QEMU counts instructions (-icount, a fixed shift,
 * sleep on while QEMU serves a disk) on one TCG thread, which icount
 * needs; KVM has no such clock.
 */
START_TEST(test_virtual_clock)
{
	struct disk_spec d = {.name = "d0", .bus = BUS_VIRTIO,
			      .backing = BACKING_NULL, .size_mb = 64,
			      .latency_ns = 200000};
	struct topology t = {.name = "one", .disks = &d, .nr_disks = 1};
	const struct clock v = {CLOCK_VIRTUAL, 5}, w = {CLOCK_WALL, 0};
	struct strbuf err = STRBUF_INIT;
	struct qemu_config cfg = boot_config(&t, &v);
	struct strvec argv = STRVEC_INIT;
	struct strbuf j = STRBUF_INIT;

	ck_assert_int_eq(qemu_argv_build(&argv, &cfg), 0);
	join_argv(&j, &argv);
	ASSERT_PAIR(j.buf, "-accel", "tcg,thread=single");
	ASSERT_PAIR(j.buf, "-icount", "shift=5,sleep=on");
	ck_assert_ptr_null(strstr(j.buf, "thread=multi"));
	strvec_clear(&argv);

	/* The wall clock is today's command line: no -icount. */
	cfg.clock = &w;
	ck_assert_int_eq(qemu_argv_build(&argv, &cfg), 0);
	for (size_t i = 0; i < argv.nr; i++)
		ck_assert_str_ne(argv.v[i], "-icount");
	strvec_clear(&argv);

	cfg.clock = &v;
	cfg.kvm = 1;
	error_capture(&err);
	ck_assert_int_eq(qemu_argv_build(&argv, &cfg), -1);
	error_capture(NULL);
	ck_assert_ptr_nonnull(strstr(err.buf, "machine.clock"));
	strvec_clear(&argv);
	strbuf_release(&err);
	strbuf_release(&j);
}
END_TEST

/*
 * nullb disks are the guest's null_blk: no QEMU device, module parameters
 * on the kernel's command line (one latency for all, the largest size in
 * whole GiB), and with no disk of QEMU's left, the virtual clock jumps
 * over idle waits (sleep=off), as each one ends at a guest timer.
 */
START_TEST(test_nullb_disks)
{
	struct disk_spec d[2] = {
		{.name = "d0", .bus = BUS_NULLB, .backing = BACKING_NULL,
		 .size_mb = 512, .latency_ns = 200000},
		{.name = "d1", .bus = BUS_NULLB, .backing = BACKING_NULL,
		 .size_mb = 1500, .latency_ns = 200000},
	};
	struct topology t = {.name = "nullb", .disks = d, .nr_disks = 2};
	const struct clock v = {CLOCK_VIRTUAL, 4};
	struct qemu_config cfg = boot_config(&t, &v);
	struct strvec argv = STRVEC_INIT;
	struct strbuf j = STRBUF_INIT;
	const char *append = NULL;

	ck_assert_int_eq(qemu_argv_build(&argv, &cfg), 0);
	join_argv(&j, &argv);
	for (size_t i = 1; i < argv.nr; i++)
		if (!strcmp(argv.v[i - 1], "-append"))
			append = argv.v[i];
	ASSERT_PAIR(j.buf, "-icount", "shift=4,sleep=off");
	ck_assert_ptr_null(strstr(j.buf, "-blockdev"));
	ck_assert_ptr_null(strstr(j.buf, "-device"));
	ck_assert_ptr_nonnull(append);
	ck_assert_ptr_nonnull(strstr(append, " null_blk.nr_devices=2 "
					     "null_blk.gb=2 "
					     "null_blk.max_sectors=2560 "
					     "null_blk.irqmode=2 "
					     "null_blk.completion_nsec=200000"));
	strvec_clear(&argv);

	/* Memory-backed: null_blk keeps what is written. */
	ck_assert_ptr_null(strstr(j.buf, "memory_backed"));
	d[0].memory_backed = d[1].memory_backed = 1;
	ck_assert_int_eq(qemu_argv_build(&argv, &cfg), 0);
	join_argv(&j, &argv);
	ck_assert_ptr_nonnull(strstr(j.buf, " null_blk.memory_backed=1"));
	strvec_clear(&argv);
	d[0].memory_backed = d[1].memory_backed = 0;

	/* A cap above the block layer's default raises null_blk's own. */
	d[0].max_sectors_kb = 4096;
	ck_assert_int_eq(qemu_argv_build(&argv, &cfg), 0);
	join_argv(&j, &argv);
	ck_assert_ptr_nonnull(strstr(j.buf, " null_blk.max_sectors=8192 "));
	strvec_clear(&argv);
	d[0].max_sectors_kb = 0;

	/* A disk of QEMU's beside them: its waits are host time again. */
	d[1].bus = BUS_VIRTIO;
	ck_assert_int_eq(qemu_argv_build(&argv, &cfg), 0);
	join_argv(&j, &argv);
	ASSERT_PAIR(j.buf, "-icount", "shift=4,sleep=on");
	ck_assert_ptr_nonnull(strstr(j.buf, "null_blk.nr_devices=1 "
					    "null_blk.gb=1 "));
	ck_assert_ptr_nonnull(strstr(j.buf, "virtio-blk-pci,drive=r1,"));
	strvec_clear(&argv);
	strbuf_release(&j);
}
END_TEST

/*
 * A virtio-blk or virtio-scsi disk on null-co with no latency completes
 * each request before the vCPU runs on when its queue is served in the
 * vCPU's thread (ioeventfd=off): under the virtual clock no wait is left
 * on the host's time, so the clock jumps over idle (sleep=off). A latency,
 * a throttle, an NVMe disk, or the wall clock keep QEMU's usual ways.
 */
START_TEST(test_virtio_completes_at_once)
{
	struct disk_spec d = {.name = "d0", .bus = BUS_VIRTIO,
			      .backing = BACKING_NULL, .size_mb = 1024};
	struct topology t = {.name = "virtio", .disks = &d, .nr_disks = 1};
	const struct clock v = {CLOCK_VIRTUAL, 4}, w = {CLOCK_WALL, 0};
	struct qemu_config cfg = boot_config(&t, &v);
	struct strbuf j = STRBUF_INIT;

	joined_argv(&j, &cfg);
	ASSERT_PAIR(j.buf, "-icount", "shift=4,sleep=off");
	ck_assert_ptr_nonnull(strstr(j.buf, "virtio-blk-pci,drive=r0,"
					    "serial=iob0,ioeventfd=off"));

	uint64_t *keys[] = {&d.latency_ns, &d.bps_max, &d.iops_max};
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		*keys[k] = 200000;
		joined_argv(&j, &cfg);
		ASSERT_PAIR(j.buf, "-icount", "shift=4,sleep=on");
		ck_assert_ptr_null(strstr(j.buf, "ioeventfd"));
		*keys[k] = 0;
	}

	/* virtio-scsi: the controller's queue in the vCPU's thread. */
	d.bus = BUS_SCSI;
	joined_argv(&j, &cfg);
	ASSERT_PAIR(j.buf, "-icount", "shift=4,sleep=off");
	ck_assert_ptr_nonnull(
		strstr(j.buf, "\nvirtio-scsi-pci,id=scsi0,ioeventfd=off\n"));
	d.latency_ns = 200000;
	joined_argv(&j, &cfg);
	ASSERT_PAIR(j.buf, "-icount", "shift=4,sleep=on");
	ck_assert_ptr_nonnull(strstr(j.buf, "\nvirtio-scsi-pci,id=scsi0\n"));
	d.latency_ns = 0;

	d.bus = BUS_NVME;
	joined_argv(&j, &cfg);
	ASSERT_PAIR(j.buf, "-icount", "shift=4,sleep=on");
	ck_assert_int_eq(job_topology_waits_on_host(&t), 1);
	d.bus = BUS_NULLB;
	ck_assert_int_eq(job_topology_waits_on_host(&t), 0);
	d.bus = BUS_VIRTIO;
	ck_assert_int_eq(job_topology_waits_on_host(&t), 0);
	d.latency_ns = 1;
	ck_assert_int_eq(job_topology_waits_on_host(&t), 1);
	d.latency_ns = 0;

	d.bus = BUS_VIRTIO;
	cfg.clock = &w;
	joined_argv(&j, &cfg);
	ck_assert_ptr_null(strstr(j.buf, "-icount"));
	ck_assert_ptr_null(strstr(j.buf, "ioeventfd"));
	strbuf_release(&j);
}
END_TEST

START_TEST(test_mixed_buses_serials_follow_disk_order)
{
	struct disk_spec disks[] = {
		{.name = "a",
		 .bus = BUS_NVME,
		 .backing = BACKING_NULL,
		 .size_mb = 8},
		{.name = "b",
		 .bus = BUS_SCSI,
		 .backing = BACKING_NULL,
		 .size_mb = 8},
		{.name = "c",
		 .bus = BUS_IDE,
		 .backing = BACKING_NULL,
		 .size_mb = 8},
		{.name = "d",
		 .bus = BUS_IDE,
		 .backing = BACKING_NULL,
		 .size_mb = 8},
		{.name = "e",
		 .bus = BUS_IDE,
		 .backing = BACKING_NULL,
		 .size_mb = 8},
		{.name = "f",
		 .bus = BUS_SCSI,
		 .backing = BACKING_NULL,
		 .size_mb = 8},
	};
	struct topology t = {.name = "mix", .disks = disks, .nr_disks = 6};
	int rc;
	char *j = build(&t, NULL, 0, &rc);
	ck_assert_int_eq(rc, 0);
	ASSERT_PAIR(j, "-device", "nvme,drive=r0,serial=iob0");
	ASSERT_PAIR(j, "-device",
		    "scsi-hd,bus=scsi0.0,channel=0,scsi-id=1,"
		    "lun=0,drive=r1,serial=iob1");
	ASSERT_PAIR(j, "-device",
		    "ide-hd,bus=ide.0,unit=0,drive=r2,serial=iob2");
	ASSERT_PAIR(j, "-device",
		    "ide-hd,bus=ide.0,unit=1,drive=r3,serial=iob3");
	ASSERT_PAIR(j, "-device",
		    "ide-hd,bus=ide.1,unit=0,drive=r4,serial=iob4");
	ASSERT_PAIR(j, "-device",
		    "scsi-hd,bus=scsi0.0,channel=0,scsi-id=5,"
		    "lun=0,drive=r5,serial=iob5");
	/* One SCSI controller for all SCSI disks, before them. */
	char *ctl = strstr(j, "virtio-scsi-pci");
	ck_assert_ptr_nonnull(ctl);
	ck_assert_ptr_null(strstr(ctl + 1, "virtio-scsi-pci"));
	ck_assert(ctl < strstr(j, "scsi-hd"));
	free(j);
}
END_TEST

struct refusal {
	const char *what;
	struct disk_spec disk;
	struct qemu_disk_host host;
	const char *message;
};

static const struct refusal refusals[] = {
	{"host disk without path",
	 {.name = "h", .bus = BUS_VIRTIO, .backing = BACKING_HOST},
	 {0},
	 "disk 'h': no host path"},
	{"image not prepared",
	 {.name = "i",
	  .bus = BUS_VIRTIO,
	  .backing = BACKING_IMAGE,
	  .size_mb = 8},
	 {0},
	 "disk 'i': no image file"},
	{"null disk of size 0",
	 {.name = "n", .bus = BUS_NVME, .backing = BACKING_NULL},
	 {0},
	 "disk 'n': a null disk needs a size"},
	{"O_DIRECT on tmpfs",
	 {.name = "t",
	  .bus = BUS_VIRTIO,
	  .backing = BACKING_TMPFS,
	  .size_mb = 8,
	  .cache = "none"},
	 {.image = "/dev/shm/t.img"},
	 "disk 't': cache mode 'none' needs O_DIRECT"},
	{"unknown cache mode",
	 {.name = "c",
	  .bus = BUS_VIRTIO,
	  .backing = BACKING_NULL,
	  .size_mb = 8,
	  .cache = "fast"},
	 {0},
	 "disk 'c': unknown cache mode 'fast'"},
	{"read-only IDE disk",
	 {.name = "ro",
	  .bus = BUS_IDE,
	  .backing = BACKING_HOST,
	  .path = "/dev/sdz",
	  .readonly = 1},
	 {.host_blockdev = 1},
	 "disk 'ro': bus ide cannot be read-only; use virtio, scsi"},
	{"write latency on a null disk",
	 {.name = "w",
	  .bus = BUS_VIRTIO,
	  .backing = BACKING_NULL,
	  .size_mb = 8,
	  .write_latency_ns = 1000},
	 {0},
	 "disk 'w': write_latency_ns needs backing image or tmpfs"},
	{"write latency on a host disk",
	 {.name = "h",
	  .bus = BUS_VIRTIO,
	  .backing = BACKING_HOST,
	  .path = "/dev/sdz",
	  .write_latency_ns = 1000},
	 {.host_blockdev = 1},
	 "disk 'h': write_latency_ns needs backing image or tmpfs"},
	{"nvme cap below 8 KiB",
	 {.name = "v",
	  .bus = BUS_NVME,
	  .backing = BACKING_NULL,
	  .size_mb = 8,
	  .max_sectors_kb = 4},
	 {0},
	 "disk 'v': nvme cannot cap requests below 8 KiB"},
};

START_TEST(test_refusals_name_the_disk)
{
	const struct refusal *c = &refusals[_i];
	struct topology t = {.name = "x", .nr_disks = 1};
	t.disks = (struct disk_spec *)&c->disk;
	struct strbuf err = STRBUF_INIT;
	int rc;
	error_capture(&err);
	char *j = build(&t, &c->host, 0, &rc);
	error_capture(NULL);
	ck_assert_msg(rc == -1, "%s: accepted", c->what);
	ck_assert_msg(strstr(err.buf, c->message), "%s: got '%s'", c->what,
		      err.buf);
	strbuf_release(&err);
	free(j);
}
END_TEST

/*
 * The bus table has a row per bus, named as jobs spell it, and a device
 * of QEMU's on every bus but the guest's own.
 */
START_TEST(test_bus_table_rows)
{
	for (size_t b = 0; b < NR_BUSES; b++) {
		const struct bus_info *i = &bus_info[b];
		ck_assert_str_eq(i->name, job_bus_names[b]);
		ck_assert_msg((i->device == NULL) == bus_has(b, BUS_GUEST),
			      "bus %s: a device iff not the guest's", i->name);
		ck_assert_msg(!i->controller || i->device, "bus %s", i->name);
	}
	ck_assert_ptr_null(job_bus_names[NR_BUSES]);
	ck_assert_int_eq(bus_has((enum disk_bus)NR_BUSES, 0), 0);
}
END_TEST

/* A bus out of the table's range is refused, not read past its end. */
START_TEST(test_unknown_bus_refused)
{
	struct disk_spec d = {.name = "u",
			      .bus = (enum disk_bus)NR_BUSES,
			      .backing = BACKING_NULL,
			      .size_mb = 8};
	struct topology t = {.name = "x", .disks = &d, .nr_disks = 1};
	struct strbuf err = STRBUF_INIT;
	int rc;
	error_capture(&err);
	free(build(&t, NULL, 0, &rc));
	error_capture(NULL);
	ck_assert_int_eq(rc, -1);
	ck_assert_ptr_nonnull(strstr(err.buf, "disk 'u': unknown bus"));
	strbuf_release(&err);
}
END_TEST

START_TEST(test_five_ide_disks_refused)
{
	struct disk_spec d[5];
	memset(d, 0, sizeof(d));
	for (int i = 0; i < 5; i++) {
		d[i].bus = BUS_IDE;
		d[i].backing = BACKING_NULL;
		d[i].size_mb = 8;
	}
	d[4].name = "fifth";
	struct topology t = {.name = "ide", .disks = d, .nr_disks = 5};
	struct strbuf err = STRBUF_INIT;
	int rc;
	error_capture(&err);
	free(build(&t, NULL, 0, &rc));
	error_capture(NULL);
	ck_assert_int_eq(rc, -1);
	ck_assert_ptr_nonnull(strstr(err.buf, "disk 'fifth'"));
	strbuf_release(&err);
}
END_TEST

static const struct {
	const char *accel;
	int kvm_usable, want;
} accels[] = {
	{"auto", 1, 1}, {"auto", 0, 0}, {NULL, 1, 1},	{"tcg", 1, 0},
	{"kvm", 1, 1},	{"kvm", 0, -1}, {"hvf", 1, -1},
};

START_TEST(test_accel_resolve)
{
	struct machine_spec m = {.accel = (char *)accels[_i].accel};
	struct strbuf err = STRBUF_INIT;
	error_capture(&err);
	int got = qemu_accel_resolve(&m, accels[_i].kvm_usable);
	error_capture(NULL);
	ck_assert_int_eq(got, accels[_i].want);
	if (got < 0)
		ck_assert_ptr_nonnull(strstr(err.buf, "machine.accel"));
	strbuf_release(&err);
}
END_TEST

START_TEST(test_qemu_accepts_every_bus_and_backing)
{
	/*
	 * QEMU itself is the judge of the option syntax: build one argv with
	 * every bus, backing, limit and cache mode, drop the kernel (there is
	 * none in a unit test) and start QEMU stopped (-S). QEMU still up
	 * after a second means it accepted every option; otherwise its
	 * message says which one it refused.
	 */
	char *qemu = run_which("qemu-system-x86_64");
	if (!qemu)
		CHECK_SKIP("no qemu-system-x86_64 in PATH");
	free(qemu);
	char dir[] = "/tmp/check_qemu.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char *img = xstrfmt("%s/d0.img", dir),
	     *shm = xstrfmt("/dev/shm/check_qemu.%d.img", getpid());
	char *hostf = xstrfmt("%s/host.img", dir),
	     *log = xstrfmt("%s/qemu.log", dir);
	ck_assert_int_eq(write_file_atomic(img, "", 0), 0);
	ck_assert_int_eq(truncate(img, 8 << 20), 0);
	char *img2 = xstrfmt("%s/d3.img", dir);
	ck_assert_int_eq(write_file_atomic(img2, "", 0), 0);
	ck_assert_int_eq(truncate(img2, 8 << 20), 0);
	ck_assert_int_eq(write_file_atomic(shm, "", 0), 0);
	ck_assert_int_eq(truncate(shm, 8 << 20), 0);
	ck_assert_int_eq(write_file_atomic(hostf, "", 0), 0);
	ck_assert_int_eq(truncate(hostf, 8 << 20), 0);
	struct disk_spec disks[6 + NR_BUSES] = {
		{.name = "a",
		 .bus = BUS_VIRTIO,
		 .backing = BACKING_IMAGE,
		 .size_mb = 8,
		 .bps_max = 10000000,
		 .iops_max = 100,
		 .write_latency_ns = 5000000},
		{.name = "b",
		 .bus = BUS_SCSI,
		 .backing = BACKING_TMPFS,
		 .size_mb = 8,
		 .max_sectors_kb = 64,
		 .cache = "writethrough",
		 .write_latency_ns = 1000},
		{.name = "c",
		 .bus = BUS_NVME,
		 .backing = BACKING_NULL,
		 .size_mb = 8,
		 .latency_ns = 100000,
		 .max_sectors_kb = 128},
		{.name = "d",
		 .bus = BUS_IDE,
		 .backing = BACKING_IMAGE,
		 .size_mb = 8,
		 .cache = "unsafe"},
		{.name = "e",
		 .bus = BUS_VIRTIO,
		 .backing = BACKING_HOST,
		 .path = hostf,
		 .readonly = 1},
		{.name = "f",
		 .bus = BUS_SCSI,
		 .backing = BACKING_HOST,
		 .path = hostf,
		 .readonly = 1,
		 .cache = "directsync"},
	};
	struct qemu_disk_host hosts[6 + NR_BUSES] = {
		{.image = img}, {.image = shm}, {0}, {.image = img2}, {0}, {0},
	};
	struct topology t = {.name = "all", .disks = disks, .nr_disks = 6};
	/* And a capped null disk on every bus of the table, a new one too. */
	char names[NR_BUSES][32];
	for (size_t b = 0; b < NR_BUSES; b++) {
		if (bus_has(b, BUS_GUEST))
			continue;
		snprintf(names[b], sizeof(names[b]), "on-%s", bus_info[b].name);
		disks[t.nr_disks++] = (struct disk_spec){
			.name = names[b],
			.bus = b,
			.backing = BACKING_NULL,
			.size_mb = 8,
			.max_sectors_kb = 64,
		};
	}
	/* Each clock's options, the virtual one's -icount included. */
	const struct clock clocks[] = {{CLOCK_WALL, 0}, {CLOCK_VIRTUAL, 3}};
	struct qemu_config cfg = {
		.machine = &machine,
		.topo = &t,
		.clock = &clocks[_i],
		.disks = hosts,
		.kernel = "/k",
		.initrd = "/i",
		.console_log = log,
		.result_log = log,
	};
	struct strvec argv = STRVEC_INIT, cut = STRVEC_INIT;
	ck_assert_int_eq(qemu_argv_build(&argv, &cfg), 0);
	for (size_t i = 0; i < argv.nr; i++) {
		if (!strcmp(argv.v[i], "-kernel") ||
		    !strcmp(argv.v[i], "-initrd") ||
		    !strcmp(argv.v[i], "-append")) {
			i++;
			continue;
		}
		/* Two chardevs on one file is fine; ids must differ. */
		strvec_push(&cut, argv.v[i]);
	}
	strvec_push(&cut, "-S");
	struct run_opts ro = RUN_OPTS_INIT;
	ro.argv = (const char *const *)cut.v;
	ro.stdout_path = log;
	ro.stderr_to_stdout = 1;
	pid_t pid = run_start(&ro);
	ck_assert_int_gt(pid, 0);
	int rc = run_wait(pid, 1500);
	struct strbuf out = STRBUF_INIT;
	read_file(log, &out);
	ck_assert_msg(rc == RUN_TIMEOUT, "QEMU refused our argv (rc %d): %s",
		      rc, out.buf);
	strbuf_release(&out);
	strvec_clear(&argv);
	strvec_clear(&cut);
	unlink(shm);
	remove_tree(dir);
	free(img);
	free(img2);
	free(shm);
	free(hostf);
	free(log);
}
END_TEST

/*
 * machine.qemu comes from a job: it is run without a shell, and one that
 * hangs on --version gives way to SIGTERM (popen waited for it).
 */
START_TEST(test_qemu_version_no_shell_no_hang)
{
	char dir[] = "/tmp/check_qemu.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char *hang = xstrfmt("%s/hang", dir), *mark = xstrfmt("%s/ran", dir);
	char *inject = xstrfmt("touch %s; echo QEMU", mark);
	const char *script = "#!/bin/sh\nexec sleep 60\n";

	char *line = NULL;
	struct strbuf err = STRBUF_INIT;

	ck_assert_int_eq(qemu_version(inject, &line), 1);
	ck_assert_ptr_null(line);
	ck_assert_msg(!file_exists(mark), "a shell ran the job's qemu string");
	ck_assert_int_eq(write_file_atomic(hang, script, strlen(script)), 0);
	ck_assert_int_eq(chmod(hang, 0755), 0);
	run_install_signal_handlers();
	pid_t me = getpid(), pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		struct timespec ts = { 0, 300 * 1000000 };
		nanosleep(&ts, NULL);
		kill(me, SIGTERM);
		_exit(0);
	}
	uint64_t t0 = now_ns();
	/* Stopped by the signal: said as such, not as a missing QEMU. */
	error_capture(&err);
	ck_assert_int_eq(qemu_version(hang, &line), -1);
	error_capture(NULL);
	double secs = (now_ns() - t0) / 1e9;
	waitpid(pid, NULL, 0);
	ck_assert_msg(secs < 5, "waited %.1f s for a hung --version", secs);
	ck_assert_msg(strstr(err.buf, "interrupted"), "got '%s'", err.buf);
	strbuf_release(&err);
	remove_tree(dir);
	free(hang);
	free(mark);
	free(inject);
}
END_TEST

/*
 * The probe's temporary file goes where $TMPDIR says (it went to a fixed
 * /tmp), and a folder it cannot write is said as such, not as "is
 * qemu-system-x86 installed?".
 */
START_TEST(test_qemu_version_honours_tmpdir)
{
	char dir[] = "/tmp/check_qemu.XXXXXX";
	char *fake, *line = NULL, *old = getenv("TMPDIR");
	const char *script = "#!/bin/sh\necho QEMU emulator version 9.9.9\n";
	struct strbuf err = STRBUF_INIT;

	old = old ? xstrdup(old) : NULL;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	fake = xstrfmt("%s/qemu", dir);
	ck_assert_int_eq(write_file_atomic(fake, script, strlen(script)), 0);
	ck_assert_int_eq(chmod(fake, 0755), 0);
	setenv("TMPDIR", dir, 1);
	ck_assert_int_eq(qemu_version(fake, &line), 0);
	ck_assert_str_eq(line, "QEMU emulator version 9.9.9");
	free(line);
	setenv("TMPDIR", "/nonexistent-tmpdir", 1);
	error_capture(&err);
	ck_assert_int_eq(qemu_version(fake, &line), -1);
	error_capture(NULL);
	ck_assert_msg(strstr(err.buf, "/nonexistent-tmpdir") &&
			      !strstr(err.buf, "installed"),
		      "got '%s'", err.buf);
	if (old)
		setenv("TMPDIR", old, 1);
	else
		unsetenv("TMPDIR");
	remove_tree(dir);
	strbuf_release(&err);
	free(fake);
	free(old);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("qemu");
	TCase *tc = tcase_create("argv");
	tcase_set_timeout(tc, 20);
	tcase_add_loop_test(tc, test_disk_argv, 0, ARRAY_SIZE(disk_cases));
	tcase_add_test(tc, test_machine_and_serials);
	tcase_add_test(tc, test_mixed_buses_serials_follow_disk_order);
	tcase_add_loop_test(tc, test_refusals_name_the_disk, 0,
			    ARRAY_SIZE(refusals));
	tcase_add_test(tc, test_five_ide_disks_refused);
	tcase_add_test(tc, test_bus_table_rows);
	tcase_add_test(tc, test_unknown_bus_refused);
	tcase_add_loop_test(tc, test_accel_resolve, 0, ARRAY_SIZE(accels));
	tcase_add_loop_test(tc, test_qemu_accepts_every_bus_and_backing, 0, 2);
	tcase_add_test(tc, test_virtual_clock);
	tcase_add_test(tc, test_nullb_disks);
	tcase_add_test(tc, test_virtio_completes_at_once);
	tcase_add_test(tc, test_qemu_version_no_shell_no_hang);
	tcase_add_test(tc, test_qemu_version_honours_tmpdir);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
