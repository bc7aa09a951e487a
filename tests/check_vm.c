/*
 * check_vm.c: the boot classifier on console texts and guest reports, and
 * vm_boot end to end against a fake QEMU (a shell script given as
 * machine.qemu) that writes a console and result frames, exits, fails or
 * hangs, so the run folder, the timeout, the reaping of QEMU's whole
 * process group and the timings are tested without a kernel.
 */
#include "clock.h"
#include "job.h"
#include "profile.h"
#include "proto.h"
#include "run.h"
#include "rundir.h"
#include "util.h"
#include "vm.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One framed line as the guest writes it. */
static void add_frame(struct strbuf *sb, unsigned seq, const char *json)
{
	strbuf_addf(sb, "%s %u %zu %08x %s\r\n", PROTO_MAGIC, seq, strlen(json),
		    proto_crc32(json, strlen(json)), json);
}

static const char *hello = "{\"type\":\"hello\",\"kernel\":\"6.1.0\","
			   "\"boot\":1}";
static const char *sample_ok =
	"{\"type\":\"sample\",\"point\":\"default\",\"index\":0,\"warmup\":false,"
	"\"metric\":\"read\",\"io_bytes\":1000000,\"runtime_ns\":1000000,"
	"\"bw_bytes\":1000000000,\"usr_ns\":1,\"sys_ns\":1,\"cpu_pct\":50.0,"
	"\"verified\":true}";
static const char *sample_bad =
	"{\"type\":\"sample\",\"point\":\"default\",\"index\":0,\"warmup\":false,"
	"\"metric\":\"read\",\"io_bytes\":1000000,\"runtime_ns\":1000000,"
	"\"bw_bytes\":1000000000,\"usr_ns\":1,\"sys_ns\":1,\"cpu_pct\":50.0,"
	"\"verified\":false}";
static const char *error_md = "{\"type\":\"error\",\"stage\":\"md\","
			      "\"message\":\"RUN_ARRAY: Invalid argument\"}";
static const char *done1 = "{\"type\":\"done\",\"samples\":1}";
static const char *done0 = "{\"type\":\"done\",\"samples\":0}";
/* A sample of a point the job's spec does not hold. */
static const char *sample_stranger =
	"{\"type\":\"sample\",\"point\":\"p\",\"index\":0,\"warmup\":false,"
	"\"metric\":\"read\",\"io_bytes\":1000000,\"runtime_ns\":1000000,"
	"\"bw_bytes\":1000000000,\"usr_ns\":1,\"sys_ns\":1,\"cpu_pct\":50.0,"
	"\"verified\":true}";

/* Frames from a list of payloads (NULL-terminated). */
static void frames(struct strbuf *sb, const char *const *payloads)
{
	for (unsigned i = 0; payloads[i]; i++)
		add_frame(sb, i, payloads[i]);
}

static const char *const panic_console =
	"[    0.500000] Run /init as init process\n"
	"[    0.600000] Kernel panic - not syncing: No working init found.  "
	"Try passing init= option to kernel.\r\n"
	"[    0.600100] CPU: 0 PID: 1 Comm: swapper/0 Not tainted 6.1.0 #1\n"
	"[    0.600200] Call Trace:\n"
	"[    0.600300]  <TASK>\n";
static const char *const oops_console =
	"[    1.0] BUG: kernel NULL pointer dereference, address: "
	"0000000000000008\n"
	"[    1.1] Oops: 0000 [#1] PREEMPT SMP\n";
static const char *const plain_console =
	"[    0.000000] Linux version 6.1.0\n"
	"[    0.000000] Command line: console=ttyS0 panic=-1 oops=panic\n"
	"[    0.600000] Run /init as init process\n";

struct classify_case {
	const char *what;
	const char *console;
	int timed_out, qemu_exit;
	enum boot_status want;
	const char *detail; /* must appear in the detail */
};

static const struct classify_case cases[] = {
	{"clean boot", plain_console, 0, 0, BOOT_OK, NULL},
	{"panic quoted", panic_console, 0, 0, BOOT_PANIC,
	 "Kernel panic - not syncing: No working init found"},
	{"panic wins over timeout", panic_console, 1, RUN_TIMEOUT, BOOT_PANIC,
	 "Call Trace:"},
	{"oops after samples", oops_console, 0, 0, BOOT_PANIC,
	 "BUG: kernel NULL pointer dereference"},
	{"hang before hello", plain_console, 1, RUN_TIMEOUT, BOOT_TIMEOUT,
	 "before the guest said hello"},
	{"hang after hello", plain_console, 1, RUN_TIMEOUT, BOOT_TIMEOUT,
	 "after 0 sample(s)"},
	{"no userspace", plain_console, 0, 0, BOOT_NO_USERSPACE,
	 "never said hello"},
	{"qemu refused to start", "", 0, 1, BOOT_QEMU_ERROR, "exit 1"},
	{"error frame", plain_console, 0, 0, BOOT_WORKLOAD_ERROR,
	 "guest error in md: RUN_ARRAY: Invalid argument"},
	{"verify failure", plain_console, 0, 0, BOOT_WORKLOAD_ERROR,
	 "failed verification"},
	{"no done", plain_console, 0, 0, BOOT_WORKLOAD_ERROR,
	 "without saying done"},
	/* `run` called it "ok" and exited 0; a bisection booted 17 times. */
	{"no sample at all", plain_console, 0, 0, BOOT_WORKLOAD_ERROR,
	 "the guest sent no sample"},
};

/* The frames of each case, by index (arrays of pointers cannot be static
 * initialisers from other statics in C11). */
static void case_payloads(size_t i, const char **p)
{
	const char *ok[] = {hello, sample_ok, done1, NULL};
	const char *none[] = {NULL};
	const char *hello_only[] = {hello, NULL};
	const char *err[] = {hello, error_md, done1, NULL};
	const char *bad[] = {hello, sample_bad, done1, NULL};
	const char *nodone[] = {hello, sample_ok, NULL};
	const char *nosample[] = {hello, done0, NULL};
	const char **pick;
	switch (i) {
	case 0:
	case 3:
		pick = ok;
		break;
	case 5:
		pick = hello_only;
		break;
	case 8:
		pick = err;
		break;
	case 9:
		pick = bad;
		break;
	case 10:
		pick = nodone;
		break;
	case 11:
		pick = nosample;
		break;
	default:
		pick = none;
	}
	for (size_t k = 0; (p[k] = pick[k]); k++)
		;
}

START_TEST(test_classify)
{
	const struct classify_case *c = &cases[_i];
	const char *payloads[8];
	struct proto_report r;
	struct strbuf sb = STRBUF_INIT, detail = STRBUF_INIT;
	case_payloads(_i, payloads);
	frames(&sb, payloads);
	proto_report_init(&r);
	proto_report_feed(&r, sb.buf, sb.len);
	proto_report_finish(&r);
	enum boot_status got = vm_classify(&detail, c->console, &r,
					   c->timed_out, c->qemu_exit);
	ck_assert_msg(got == c->want, "%s: got %s, want %s (%s)", c->what,
		      boot_status_name(got), boot_status_name(c->want),
		      detail.buf);
	if (c->detail)
		ck_assert_msg(strstr(detail.buf, c->detail),
			      "%s: '%s' not in '%s'", c->what, c->detail,
			      detail.buf);
	proto_report_release(&r);
	strbuf_release(&sb);
	strbuf_release(&detail);
}
END_TEST

START_TEST(test_command_line_is_no_oops)
{
	/* "oops=panic" echoed on the console must not count as an oops. */
	struct strbuf detail = STRBUF_INIT;
	ck_assert_int_eq(vm_classify(&detail,
				     "Kernel command line: console=ttyS0 "
				     "oops=panic\n",
				     NULL, 0, 0),
			 BOOT_NO_USERSPACE);
	strbuf_release(&detail);
}
END_TEST

/*
 * A guest out of memory says so, and names the memory-backed nullb disks
 * that hold what was written there; any other panic gets no such line.
 */
START_TEST(test_memory_hint)
{
	static const char oom[] =
		"[   26.6] Kernel panic - not syncing: System is deadlocked "
		"on memory\n";
	struct machine_spec m = {.memory_mb = 256};
	struct disk_spec disks[2] = {
		{.name = "d0", .bus = BUS_NULLB, .size_mb = 2048,
		 .memory_backed = 1},
		{.name = "d1", .bus = BUS_VIRTIO, .size_mb = 64},
	};
	struct topology t = {.name = "t", .disks = disks, .nr_disks = 2};
	char *hint = vm_memory_hint(oom, &m, &t);

	ck_assert_ptr_nonnull(hint);
	ck_assert_msg(strstr(hint, "machine.memory_mb 256") &&
			      strstr(hint, "up to their 2048 MiB"),
		      "%s", hint);
	free(hint);
	disks[0].memory_backed = 0;
	hint = vm_memory_hint("Out of memory: Killed process 1 (init)\n", &m,
			      &t);
	ck_assert_ptr_nonnull(hint);
	ck_assert_ptr_null(strstr(hint, "nullb"));
	free(hint);
	ck_assert_ptr_null(vm_memory_hint(
		"Kernel panic - not syncing: VFS: Unable to mount root\n", &m,
		&t));
}
END_TEST

/* vm_boot against a fake QEMU. */

static char dir[] = "/tmp/check_vm.XXXXXX";
static char *fake_qemu, *kernel, *guest;

/*
 * The fake QEMU finds the two chardev files in its argv, appends
 * $FAKE_DIR/console and $FAKE_DIR/frames to them, records its own pid and
 * the pid of a child it leaves in its group, then sleeps $FAKE_SLEEP and
 * exits $FAKE_EXIT.
 */
static const char fake_script[] =
	"#!/bin/sh\n"
	"con= res=\n"
	"for a in \"$@\"; do case \"$a\" in\n"
	"  file,id=console,path=*) con=${a#file,id=console,path=} ;;\n"
	"  file,id=result,path=*) res=${a#file,id=result,path=} ;;\n"
	"esac; done\n"
	"echo $$ > \"$FAKE_DIR/qemu.pids\"\n"
	"sleep 1000 & echo $! >> \"$FAKE_DIR/qemu.pids\"\n"
	"echo \"$@\" > \"$FAKE_DIR/argv\"\n"
	"cat \"$FAKE_DIR/console\" >> \"$con\"\n"
	"sleep 0.1\n"
	"cat \"$FAKE_DIR/frames\" >> \"$res\"\n"
	"sleep \"$FAKE_SLEEP\"\n"
	"exit \"$FAKE_EXIT\"\n";

static void vm_setup(void)
{
	strcpy(dir, "/tmp/check_vm.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	fake_qemu = xstrfmt("%s/fake-qemu", dir);
	kernel = xstrfmt("%s/bzImage", dir);
	guest = xstrfmt("%s/guest", dir);
	ck_assert_int_eq(write_file_atomic(fake_qemu, fake_script,
					   sizeof(fake_script) - 1),
			 0);
	chmod(fake_qemu, 0755);
	ck_assert_int_eq(write_file_atomic(kernel, "K", 1), 0);
	ck_assert_int_eq(write_file_atomic(guest, "G", 1), 0);
	setenv("FAKE_DIR", dir, 1);
}

static void vm_teardown(void)
{
	remove_tree(dir);
	free(fake_qemu);
	free(kernel);
	free(guest);
}

static void fake(const char *console, const char *const *payloads,
		 const char *sleep_s, const char *exit_code)
{
	struct strbuf sb = STRBUF_INIT;
	char *p = xstrfmt("%s/console", dir);
	ck_assert_int_eq(write_file_atomic(p, console, strlen(console)), 0);
	free(p);
	frames(&sb, payloads);
	p = xstrfmt("%s/frames", dir);
	ck_assert_int_eq(write_file_atomic(p, sb.buf, sb.len), 0);
	free(p);
	strbuf_release(&sb);
	setenv("FAKE_SLEEP", sleep_s, 1);
	setenv("FAKE_EXIT", exit_code, 1);
}

static void load_job(struct job *job, int timeout_s, const char *topology)
{
	char *text = xstrfmt(
		"{\"name\":\"t\",\"machine\":{\"qemu\":\"%s\",\"accel\":"
		"\"tcg\","
		"\"timeout_s\":%d},\"topology\":%s,"
		"\"workload\":{\"engine\":\"rawread\",\"target\":\"d0\","
		"\"bs_kb\":128,\"size_mb\":16},\"runs\":{\"samples\":1,"
		"\"warmup\":0}}",
		fake_qemu, timeout_s, topology);
	ck_assert_int_eq(job_parse(job, text, "test"), 0);
	free(text);
}

static const char *null_disk = "{\"disks\":[{\"name\":\"d0\",\"bus\":"
			       "\"virtio\",\"backing\":\"null\",\"size_mb\":64,"
			       "\"latency_ns\":1000}]}";

/* Running, not a zombie waiting for init to reap it; give it 1 s to die. */
static int alive(pid_t pid)
{
	for (int i = 0; i < 50; i++) {
		char *f = xstrfmt("/proc/%ld/stat", (long)pid);
		struct strbuf sb = STRBUF_INIT;
		int gone = !file_exists(f) || read_file(f, &sb);
		char *paren = strrchr(sb.buf, ')');
		if (!gone && paren && paren[1] == ' ' && paren[2] == 'Z')
			gone = 1;
		strbuf_release(&sb);
		free(f);
		if (gone)
			return 0;
		usleep(20000);
	}
	return 1;
}

/* Every process the fake QEMU started must be gone. */
static void assert_reaped(void)
{
	char *p = xstrfmt("%s/qemu.pids", dir);
	struct strbuf sb = STRBUF_INIT;
	struct strvec pids = STRVEC_INIT;
	ck_assert_int_eq(read_file(p, &sb), 0);
	strvec_split(&pids, sb.buf, '\n');
	ck_assert_uint_eq(pids.nr, 2);
	for (size_t i = 0; i < pids.nr; i++) {
		long pid;
		ck_assert_int_eq(parse_long(pids.v[i], &pid), 0);
		ck_assert_msg(!alive((pid_t)pid), "pid %ld left running", pid);
	}
	strvec_clear(&pids);
	strbuf_release(&sb);
	free(p);
}

START_TEST(test_boot_ok_with_timings)
{
	struct job job;
	struct boot_result br;
	const char *p[] = {hello, sample_ok, done1, NULL};
	fake(plain_console, p, "0", "0");
	load_job(&job, 20, null_disk);
	char *run = xstrfmt("%s/run", dir);
	struct boot_request req = {.job = &job,
				   .topo = 0,
				   .kernel = kernel,
				   .run_dir = run,
				   .label = "abc",
				   .boot_id = 1,
				   .guest = guest};
	boot_result_init(&br);
	ck_assert_int_eq(vm_boot(&br, &req), 0);
	ck_assert_msg(br.status == BOOT_OK, "%s: %s",
		      boot_status_name(br.status), br.detail.buf);
	ck_assert_uint_eq(br.report.nr_samples, 1);
	ck_assert_uint_gt(br.hello_ns, 0);
	ck_assert_uint_ge(br.first_sample_ns, br.hello_ns);
	ck_assert_uint_ge(br.done_ns, br.first_sample_ns);
	ck_assert_uint_ge(br.total_ns, br.done_ns);
	ck_assert_int_eq(br.kvm, 0);
	/* The console and the argv are kept; the pid file is gone. */
	struct strbuf sb = STRBUF_INIT;
	ck_assert_int_eq(read_file(br.console_log, &sb), 0);
	ck_assert_str_eq(sb.buf, plain_console);
	strbuf_reset(&sb);
	char *f = xstrfmt("%s/qemu.cmdline", run);
	ck_assert_int_eq(read_file(f, &sb), 0);
	ck_assert_ptr_nonnull(strstr(sb.buf, "driver=null-co"));
	/* The command line of the clock the job resolves to (check_clock). */
	struct clock clock;
	ck_assert_int_eq(clock_resolve(&clock, &job, 0), 0);
	if (clock.kind == CLOCK_VIRTUAL) {
		ck_assert_ptr_nonnull(strstr(sb.buf, "'tcg,thread=single'"));
		ck_assert_ptr_nonnull(strstr(sb.buf, "'-icount'"));
	} else {
		ck_assert_ptr_nonnull(strstr(sb.buf, "'tcg,thread=multi'"));
	}
	free(f);
	f = xstrfmt("%s/qemu.pid", run);
	ck_assert(!file_exists(f));
	free(f);
	f = xstrfmt("%s/initramfs.cpio", run);
	ck_assert(!file_exists(f));
	free(f);
	assert_reaped();
	strbuf_release(&sb);
	boot_result_release(&br);
	job_release(&job);
	free(run);
}
END_TEST

START_TEST(test_hang_is_killed_at_timeout)
{
	struct job job;
	struct boot_result br;
	const char *p[] = {hello, NULL};
	fake(plain_console, p, "1000", "0");
	load_job(&job, 1, null_disk);
	char *run = xstrfmt("%s/run", dir);
	struct boot_request req = {.job = &job,
				   .topo = 0,
				   .kernel = kernel,
				   .run_dir = run,
				   .label = "abc",
				   .boot_id = 1,
				   .guest = guest};
	boot_result_init(&br);
	uint64_t t0 = now_ns();
	ck_assert_int_eq(vm_boot(&br, &req), 0);
	double s = (now_ns() - t0) / 1e9;
	ck_assert_msg(br.status == BOOT_TIMEOUT, "%s: %s",
		      boot_status_name(br.status), br.detail.buf);
	ck_assert(br.timed_out);
	ck_assert_msg(s >= 1.0 && s < 4.0, "took %.2fs for a 1 s timeout", s);
	ck_assert_ptr_nonnull(strstr(br.detail.buf, "after 0 sample(s)"));
	assert_reaped();
	boot_result_release(&br);
	job_release(&job);
	free(run);
}
END_TEST

START_TEST(test_panic_without_reboot_is_cut_short)
{
	/* A kernel told panic=0 halts after its panic: no need to wait. */
	struct job job;
	struct boot_result br;
	const char *p[] = {NULL};
	fake(panic_console, p, "1000", "0");
	load_job(&job, 25, null_disk);
	char *run = xstrfmt("%s/run", dir);
	struct boot_request req = {.job = &job,
				   .topo = 0,
				   .kernel = kernel,
				   .run_dir = run,
				   .label = "abc",
				   .boot_id = 1,
				   .guest = guest};
	boot_result_init(&br);
	uint64_t t0 = now_ns();
	ck_assert_int_eq(vm_boot(&br, &req), 0);
	double s = (now_ns() - t0) / 1e9;
	ck_assert_msg(br.status == BOOT_PANIC, "%s",
		      boot_status_name(br.status));
	ck_assert(!br.timed_out);
	ck_assert_msg(s < 10.0, "took %.1fs: waited for the timeout", s);
	ck_assert_ptr_nonnull(strstr(br.detail.buf, "No working init found"));
	assert_reaped();
	boot_result_release(&br);
	job_release(&job);
	free(run);
}
END_TEST

/* A result stream that names another boot gives this boot nothing. */
START_TEST(test_frames_of_another_boot_refused)
{
	struct job job;
	struct boot_result br;
	const char *p[] = {hello, sample_ok, done1, NULL};
	fake(plain_console, p, "0", "0");
	load_job(&job, 20, null_disk);
	char *run = xstrfmt("%s/run", dir);
	struct boot_request req = {.job = &job,
				   .topo = 0,
				   .kernel = kernel,
				   .run_dir = run,
				   .label = "abc",
				   .boot_id = 2,
				   .guest = guest};
	boot_result_init(&br);
	ck_assert_int_eq(vm_boot(&br, &req), 0);
	ck_assert_int_ne(br.status, BOOT_OK);
	ck_assert_uint_eq(br.report.nr_samples, 0);
	ck_assert(!proto_report_complete(&br.report));
	boot_result_release(&br);
	job_release(&job);
	free(run);
}
END_TEST

/*
 * A boot whose guest measured a point the spec does not hold, and none it
 * does, is the workload's error, saying why: `run` said "ok", and the
 * store kept nothing a bisection could use.
 */
START_TEST(test_sample_of_another_point_is_workload_error)
{
	struct job job;
	struct boot_result br;
	const char *p[] = {hello, sample_stranger, done1, NULL};
	fake(plain_console, p, "0", "0");
	load_job(&job, 20, null_disk);
	char *run = xstrfmt("%s/run", dir);
	struct boot_request req = {.job = &job,
				   .topo = 0,
				   .kernel = kernel,
				   .run_dir = run,
				   .label = "abc",
				   .boot_id = 1,
				   .guest = guest};
	boot_result_init(&br);
	ck_assert_int_eq(vm_boot(&br, &req), 0);
	ck_assert_msg(br.status == BOOT_WORKLOAD_ERROR, "%s: %s",
		      boot_status_name(br.status), br.detail.buf);
	ck_assert_msg(strstr(br.detail.buf, "point 'p', which the spec does "
					    "not hold"),
		      "%s", br.detail.buf);
	ck_assert(!proto_report_complete(&br.report));
	boot_result_release(&br);
	job_release(&job);
	free(run);
}
END_TEST

START_TEST(test_images_made_and_removed)
{
	struct job job;
	struct boot_result br;
	const char *p[] = {hello, sample_ok, done1, NULL};
	fake(plain_console, p, "0", "0");
	load_job(&job, 20,
		 "{\"disks\":[{\"name\":\"d0\",\"bus\":\"virtio\","
		 "\"backing\":\"image\",\"size_mb\":64},{\"name\":\"d1\","
		 "\"bus\":\"nvme\",\"backing\":\"tmpfs\",\"size_mb\":8}]}");
	char *run = xstrfmt("%s/run", dir);
	struct boot_request req = {.job = &job,
				   .topo = 0,
				   .kernel = kernel,
				   .run_dir = run,
				   .label = "abc",
				   .boot_id = 1,
				   .guest = guest};
	boot_result_init(&br);
	ck_assert_int_eq(vm_boot(&br, &req), 0);
	ck_assert_msg(br.status == BOOT_OK, "%s", br.detail.buf);
	struct strbuf argv = STRBUF_INIT;
	char *f = xstrfmt("%s/argv", dir);
	ck_assert_int_eq(read_file(f, &argv), 0);
	char *img = xstrfmt("filename=%s/d0.img", run);
	ck_assert_ptr_nonnull(strstr(argv.buf, img));
	char *shm = xstrfmt("/dev/shm/iobisect-%ld-1-d1.img", (long)getpid());
	ck_assert_ptr_nonnull(strstr(argv.buf, shm));
	/* Both images are gone after the boot. */
	ck_assert(!file_exists(img + strlen("filename=")));
	ck_assert(!file_exists(shm));
	free(shm);
	free(img);
	free(f);
	strbuf_release(&argv);
	boot_result_release(&br);
	job_release(&job);
	free(run);
}
END_TEST

START_TEST(test_qemu_failure_keeps_its_message)
{
	struct job job;
	struct boot_result br;
	const char *p[] = {NULL};
	fake("", p, "0", "1");
	load_job(&job, 20, null_disk);
	char *run = xstrfmt("%s/run", dir);
	struct boot_request req = {.job = &job,
				   .topo = 0,
				   .kernel = kernel,
				   .run_dir = run,
				   .label = "abc",
				   .boot_id = 1,
				   .guest = guest};
	boot_result_init(&br);
	ck_assert_int_eq(vm_boot(&br, &req), 0);
	ck_assert_msg(br.status == BOOT_QEMU_ERROR, "%s",
		      boot_status_name(br.status));
	boot_result_release(&br);
	job_release(&job);
	free(run);
}
END_TEST

START_TEST(test_missing_host_disk_is_setup_error)
{
	struct job job;
	struct boot_result br;
	load_job(&job, 20,
		 "{\"disks\":[{\"name\":\"d0\",\"bus\":\"virtio\","
		 "\"backing\":\"host\",\"path\":\"/nonexistent/disk\","
		 "\"readonly\":true}]}");
	char *run = xstrfmt("%s/run", dir);
	struct boot_request req = {.job = &job,
				   .topo = 0,
				   .kernel = kernel,
				   .run_dir = run,
				   .label = "abc",
				   .boot_id = 1,
				   .guest = guest};
	struct strbuf err = STRBUF_INIT;
	boot_result_init(&br);
	error_capture(&err);
	ck_assert_int_eq(vm_boot(&br, &req), -1);
	error_capture(NULL);
	ck_assert_ptr_nonnull(strstr(err.buf, "/nonexistent/disk"));
	strbuf_release(&err);
	boot_result_release(&br);
	job_release(&job);
	free(run);
}
END_TEST

/*
 * A link planted at this process's run folder name (.run-<host>-<pid>,
 * easy to guess) took the run's lock, logs and console to its target;
 * it is refused by name and nothing is made there.
 */
START_TEST(test_run_folder_link_is_refused)
{
	struct rundir rd = RUNDIR_INIT;
	struct strbuf err = STRBUF_INIT;
	char *root = xstrfmt("%s/results", dir);
	char *job_dir = xstrfmt("%s/job", root);
	char *outside = xstrfmt("%s/outside", dir);
	char *link = xstrfmt("%s/.run-%s-%ld", job_dir, host_name(),
			     (long)getpid());
	DIR *d;
	struct dirent *e;

	ck_assert_int_eq(mkdir_p(job_dir, 0755), 0);
	ck_assert_int_eq(mkdir_p(outside, 0755), 0);
	ck_assert_int_eq(symlink(outside, link), 0);
	error_capture(&err);
	ck_assert_int_eq(rundir_open(&rd, root, job_dir), -1);
	error_capture(NULL);
	ck_assert_msg(strstr(err.buf, link) && strstr(err.buf, "symbolic link"),
		      "got '%s'", err.buf);
	d = opendir(outside);
	while ((e = readdir(d)))
		ck_assert_msg(e->d_name[0] == '.', "made '%s'", e->d_name);
	closedir(d);
	rundir_close(&rd);
	strbuf_release(&err);
	free(link);
	free(outside);
	free(job_dir);
	free(root);
}
END_TEST

/*
 * A profiled boot whose QEMU never loaded the plugin ends OK without
 * counts: the error says so and names the plugin, not a bare
 * "cannot open".
 */
START_TEST(test_profile_without_counts_says_so)
{
	struct job job;
	struct profile p = PROFILE_INIT;
	const char *frames_[] = {hello, sample_ok, done1, NULL};
	static const char map[] = "ffffffff81000000 T _stext\n";
	char *map_path = xstrfmt("%s/System.map", dir);
	char *run = xstrfmt("%s/run", dir);
	char *counts = xstrfmt("%s/profile.counts", dir);
	struct strbuf err = STRBUF_INIT, *prev;

	fake(plain_console, frames_, "0", "0");
	load_job(&job, 20, null_disk);
	ck_assert_int_eq(write_file_atomic(map_path, map, strlen(map)), 0);
	setenv("IOBISECT_GUEST", guest, 1);
	struct profile_request req = {.job = &job,
				      .topo = 0,
				      .image = kernel,
				      .label = "abc",
				      .run_dir = run,
				      .plugin = "/x/iobisect-tbcount.so",
				      .counts = counts};
	prev = error_capture(&err);
	ck_assert_int_eq(profile_boot(&p, &req), -1);
	error_capture(prev);
	unsetenv("IOBISECT_GUEST");
	ck_assert_msg(strstr(err.buf, "plugin wrote no counts") &&
			      strstr(err.buf, "/x/iobisect-tbcount.so"),
		      "%s", err.buf);
	/* A --map that names nothing is not "no System.map beside". */
	strbuf_reset(&err);
	req.map = "/nonexistent/System.map";
	prev = error_capture(&err);
	ck_assert_int_eq(profile_boot(&p, &req), -1);
	error_capture(prev);
	ck_assert_msg(strstr(err.buf, "System.map given for") &&
			      !strstr(err.buf, "beside"),
		      "%s", err.buf);
	strbuf_release(&err);
	profile_release(&p);
	job_release(&job);
	free(counts);
	free(run);
	free(map_path);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("vm");
	TCase *tc = tcase_create("classify");
	tcase_add_loop_test(tc, test_classify, 0, ARRAY_SIZE(cases));
	tcase_add_test(tc, test_command_line_is_no_oops);
	tcase_add_test(tc, test_memory_hint);
	suite_add_tcase(s, tc);
	tc = tcase_create("boot");
	tcase_add_checked_fixture(tc, vm_setup, vm_teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_boot_ok_with_timings);
	tcase_add_test(tc, test_hang_is_killed_at_timeout);
	tcase_add_test(tc, test_panic_without_reboot_is_cut_short);
	tcase_add_test(tc, test_images_made_and_removed);
	tcase_add_test(tc, test_frames_of_another_boot_refused);
	tcase_add_test(tc, test_sample_of_another_point_is_workload_error);
	tcase_add_test(tc, test_qemu_failure_keeps_its_message);
	tcase_add_test(tc, test_missing_host_disk_is_setup_error);
	tcase_add_test(tc, test_run_folder_link_is_refused);
	tcase_add_test(tc, test_profile_without_counts_says_so);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
