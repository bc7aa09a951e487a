/*
 * vm.c: one boot of one kernel under QEMU, from the run folder to the
 * classified outcome (see vm.h).
 *
 * Both serial ports go to plain files (QEMU's file chardev) that the harness
 * polls while QEMU runs. A file never blocks the guest when the harness is
 * slow to read, loses nothing if the harness reads late, and is itself the
 * record of the boot; a FIFO or socket would need a reader at all times.
 */
#include "vm.h"
#include "proto/spec_keys.h"
#include "cpus.h"
#include "boot_archive.h"
#include "boot_images.h"
#include "initramfs.h"
#include "kvm.h"
#include "qemu.h"
#include "run.h"
#include "rundir.h"
#include "safety.h"
#include "guest_spec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long QEMU may take to exit after the guest said done. */
#define DONE_GRACE_MS 10000
/*
 * How long QEMU may run on after a panic line: panic=-1 reboots at once,
 * but a kernel whose append says otherwise (or whose reboot hangs) would
 * otherwise hold the boot until the timeout.
 */
#define PANIC_GRACE_MS 5000
#define POLL_MS 20
/* How long QEMU may take to make its vCPU threads (place_vcpus). */
#define VCPU_WAIT_MS 3000
/* Panic lines quoted in the detail, at most. */
#define MAX_QUOTED 12

const char *boot_status_name(enum boot_status s)
{
	switch (s) {
	case BOOT_OK:
		return "ok";
	case BOOT_NO_USERSPACE:
		return "boot-failure";
	case BOOT_PANIC:
		return "panic";
	case BOOT_TIMEOUT:
		return "timeout";
	case BOOT_WORKLOAD_ERROR:
		return "workload-error";
	case BOOT_QEMU_ERROR:
		return "qemu-error";
	case BOOT_INTERRUPTED:
		return "interrupted";
	}
	return "unknown";
}

void boot_result_init(struct boot_result *r)
{
	memset(r, 0, sizeof(*r));
	strbuf_init(&r->detail);
	proto_report_init(&r->report);
	r->qemu_exit = -1;
}

void boot_result_release(struct boot_result *r)
{
	strbuf_release(&r->detail);
	proto_report_release(&r->report);
	free(r->console_log);
	free(r->result_log);
	r->console_log = r->result_log = NULL;
}

/*
 * What the kernel prints when it is in trouble. ktest.pl and syzkaller
 * look for the same words.
 */
static const char *const panic_words[] = {
	"Kernel panic",
	"Oops:",
	"Oops#",
	"BUG:",
	"kernel BUG at",
	"Call Trace:",
	"general protection fault",
	"No working init found",
};

static int is_panic_line(const char *line)
{
	for (size_t i = 0; i < ARRAY_SIZE(panic_words); i++)
		if (strstr(line, panic_words[i]))
			return 1;
	return 0;
}

/* Lines of `text` (CR stripped) into `lines`. */
static void split_lines(struct strvec *lines, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	for (const char *p = text; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		strbuf_reset(&sb);
		strbuf_add(&sb, p, n);
		while (sb.len && sb.buf[sb.len - 1] == '\r')
			sb.buf[--sb.len] = '\0';
		strvec_push(lines, sb.buf);
		p += n;
		if (*p)
			p++;
	}
	strbuf_release(&sb);
}

static void quote_tail(struct strbuf *detail, const struct strvec *lines,
		       size_t n)
{
	size_t nonempty = 0, start = lines->nr;
	while (start > 0 && nonempty < n) {
		start--;
		if (*lines->v[start])
			nonempty++;
	}
	for (size_t i = start; i < lines->nr; i++)
		if (*lines->v[i]) {
			/* A kernel's console may hold escapes: shown. */
			strbuf_addstr(detail, "\n  | ");
			strbuf_addsafe(detail, lines->v[i],
				       strlen(lines->v[i]));
		}
}

char *vm_memory_hint(const char *console, const struct machine_spec *m,
		     const struct topology *t)
{
	uint64_t kept = 0;

	if (!console || (!strstr(console, "Out of memory") &&
			 !strstr(console, "deadlocked on memory")))
		return NULL;
	for (size_t i = 0; t && i < t->nr_disks; i++)
		if (bus_has(t->disks[i].bus, BUS_GUEST) &&
		    t->disks[i].memory_backed)
			kept += t->disks[i].size_mb;
	if (!kept)
		return xstrfmt("the guest ran out of its memory "
			       "(machine.memory_mb %d)",
			       m->memory_mb);
	return xstrfmt("the guest ran out of its memory (machine.memory_mb "
		       "%d): memory-backed nullb disks keep every byte "
		       "written there, up to their %llu MiB; raise "
		       "machine.memory_mb or write less",
		       m->memory_mb, (unsigned long long)kept);
}

enum boot_status vm_classify(struct strbuf *detail, const char *console,
			     const struct proto_report *r, int timed_out,
			     int qemu_exit)
{
	struct strvec lines = STRVEC_INIT;
	enum boot_status st;
	size_t quoted = 0;

	split_lines(&lines, console);
	for (size_t i = 0; i < lines.nr; i++) {
		/* The echoed command line says "oops=panic"; it is no oops. */
		if (strstr(lines.v[i], "ommand line:") ||
		    !is_panic_line(lines.v[i]))
			continue;
		if (!quoted)
			strbuf_addstr(detail,
				      "kernel panic/oops on the console:");
		if (quoted++ < MAX_QUOTED)
			strbuf_addf(detail, "\n  | %s", lines.v[i]);
	}
	if (quoted) {
		st = BOOT_PANIC;
		goto out;
	}
	if (timed_out) {
		st = BOOT_TIMEOUT;
		if (!r || !r->hello)
			strbuf_addstr(detail, "timed out before the guest "
					      "said hello; console ends:");
		else
			strbuf_addf(detail,
				    "timed out after %zu sample(s) without "
				    "done; console ends:",
				    r->nr_samples);
		quote_tail(detail, &lines, 5);
		goto out;
	}
	if ((!r || !r->hello) && qemu_exit != 0) {
		st = BOOT_QEMU_ERROR;
		strbuf_addf(detail,
			    "QEMU failed (exit %d) before the guest "
			    "started",
			    qemu_exit);
		goto out;
	}
	if (!r || !r->hello) {
		st = BOOT_NO_USERSPACE;
		strbuf_addstr(detail,
			      "the guest never said hello; console ends:");
		quote_tail(detail, &lines, 8);
		goto out;
	}
	st = BOOT_WORKLOAD_ERROR;
	if (r->nr_errors) {
		for (size_t i = 0; i < r->nr_errors; i++)
			strbuf_addf(detail, "%sguest error in %s: %s",
				    i ? "\n" : "",
				    r->errors[i].stage ? r->errors[i].stage
						       : "?",
				    r->errors[i].message ? r->errors[i].message
							 : "");
		goto out;
	}
	for (size_t i = 0; i < r->nr_samples; i++)
		if (!r->samples[i].warmup && !r->samples[i].verified) {
			strbuf_addf(detail,
				    "sample %d of point '%s' failed "
				    "verification",
				    r->samples[i].index, r->samples[i].point);
			goto out;
		}
	if (r->broken || r->nr_rejected) {
		strbuf_addf(detail, "%u frame(s) rejected on the result port",
			    r->nr_rejected);
		for (size_t i = 0; i < r->rejects.nr; i++)
			strbuf_addf(detail, "\n  %s", r->rejects.v[i]);
		goto out;
	}
	if (!r->done) {
		strbuf_addf(detail,
			    "the guest stopped after %zu sample(s) "
			    "without saying done",
			    r->nr_samples);
		goto out;
	}
	const char *unmeasured = proto_report_unmeasured(r);
	if (unmeasured) {
		if (*unmeasured)
			strbuf_addf(detail, "point '%s' sent no sample",
				    unmeasured);
		else
			strbuf_addstr(detail, "the guest sent no sample");
		goto out;
	}
	if (!proto_report_complete(r)) {
		strbuf_addf(detail, "done counts %ld sample(s), %zu arrived",
			    r->done_samples, r->nr_samples);
		goto out;
	}
	st = BOOT_OK;
out:
	strvec_clear(&lines);
	return st;
}

/* Read what has been appended to `fd` since the last call; feed the parser. */
static void drain(int fd, struct proto_report *rep)
{
	char buf[16384];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		proto_report_feed(rep, buf, (size_t)n);
	}
}

/* Hand the samples that came since the last look to req->on_sample. */
static void tell_samples(const struct boot_request *req,
			 const struct proto_report *rep, size_t *told)
{
	for (; *told < rep->nr_samples; (*told)++)
		if (req->on_sample)
			req->on_sample(req->sample_payload,
				       &rep->samples[*told]);
}

static void note_times(struct boot_result *out, uint64_t t0)
{
	uint64_t t = now_ns() - t0;
	if (!out->hello_ns && out->report.hello)
		out->hello_ns = t;
	if (!out->first_sample_ns && out->report.nr_samples)
		out->first_sample_ns = t;
	if (!out->done_ns && out->report.done)
		out->done_ns = t;
}

/*
 * Follow the console while QEMU runs: read what was appended since the
 * last look and remember when a panic line first showed. Lines may be
 * split across reads, so the unfinished tail is kept for the next look.
 */
struct console_watch {
	int fd;
	struct strbuf tail;
	uint64_t panic_ns;
};

static void console_watch(struct console_watch *w, uint64_t t0)
{
	char buf[8192];
	ssize_t n;
	if (w->fd < 0 || w->panic_ns)
		return;
	while ((n = read(w->fd, buf, sizeof(buf))) > 0) {
		strbuf_add(&w->tail, buf, (size_t)n);
		char *nl;
		while ((nl = memchr(w->tail.buf, '\n', w->tail.len))) {
			*nl = '\0';
			if (!w->panic_ns &&
			    !strstr(w->tail.buf, "ommand line:") &&
			    is_panic_line(w->tail.buf))
				w->panic_ns = now_ns() - t0;
			size_t used = (size_t)(nl - w->tail.buf) + 1;
			memmove(w->tail.buf, nl + 1, w->tail.len - used + 1);
			w->tail.len -= used;
		}
	}
}

static void sleep_ms(int ms)
{
	struct timespec ts = {0, (long)ms * 1000000L};
	nanosleep(&ts, NULL);
}

static int create_empty(const char *path)
{
	int fd = open_nofollow(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/*
 * 1 once QEMU's vCPU threads are on the measuring CPUs. QEMU leads a
 * process group of its own (run_start), which also holds it when a
 * wrapper script starts it. The threads exist within a second of the
 * start, long before the guest measures; a QEMU whose threads have no
 * names by then goes there whole, as measuring beside a build would be
 * worse than sharing with its main loop.
 */
static int place_vcpus(const struct cpu_plan *plan, pid_t pid, int vcpus,
		       uint64_t elapsed_ns, int realtime)
{
	if (cpus_pin_vcpus(plan, pid, vcpus) >= vcpus) {
		/* Each on a CPU of its own: their waits served at once. */
		if (realtime)
			cpus_realtime_qemu(pid);
		return 1;
	}
	if (elapsed_ns < VCPU_WAIT_MS * 1000000ull)
		return 0;
	warning("QEMU's vCPU threads were not found by name: all of QEMU "
		"runs on the measuring CPUs");
	cpus_move_group(pid, &plan->measure);
	return 1;
}

/* QEMU's argv as a shell-readable line, for people rerunning a boot. */
static void write_cmdline(const char *path, const struct strvec *argv)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < argv->nr; i++) {
		strbuf_addstr(&sb, i ? " '" : "'");
		for (const char *c = argv->v[i]; *c; c++) {
			if (*c == '\'')
				strbuf_addstr(&sb, "'\\''");
			else
				strbuf_addch(&sb, *c);
		}
		strbuf_addch(&sb, '\'');
	}
	strbuf_addch(&sb, '\n');
	write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
}

/* The boot's archive: the spec, and the job files of its fio points. */
static int vm_initramfs(const char *initrd, const struct strbuf *spec,
			const struct boot_request *req)
{
	const struct job *job = req->job;
	struct boot_file *files =
		xcalloc(job->nr_points + 1, sizeof(*files));
	struct strvec paths = STRVEC_INIT;
	size_t nr = 0;
	for (size_t i = 0; i < job->nr_points; i++) {
		const struct point *p = &job->points[i];
		const char *sha = strvec_value(&p->keys, "job");
		if (p->topo != req->topo || !p->fio_job || !sha)
			continue;
		strvec_pushf(&paths, "%s/%s.fio", PROTO_FIO_JOB_DIR, sha);
		files[nr++] = (struct boot_file){
			paths.v[paths.nr - 1], p->fio_job, strlen(p->fio_job)};
	}
	int rc = boot_archive_write(initrd, spec->buf, req->guest, files, nr);
	free(files);
	strvec_clear(&paths);
	return rc;
}

/* One boot while it runs: what its steps share, released at its end. */
struct boot_run {
	const struct boot_request *req;
	const struct topology *t;
	struct boot_result *out;
	struct boot_images im;
	struct strvec argv; /* QEMU's */
	struct clock clock;
	struct cpu_plan plan;
	char *initrd, *pidfile, *qlog, *cmdfile;
	int fd;		  /* the result port's file, read as it grows */
	pid_t pid;	  /* QEMU's */
	uint64_t t0;	  /* when QEMU started */
	int vcpus_placed; /* place_vcpus is done */
};

/* The boot's files in its run folder, and what its report must hold. */
static void name_files(struct boot_run *b)
{
	const struct boot_request *req = b->req;
	const struct job *job = req->job;
	struct boot_result *out = b->out;

	b->initrd = xstrfmt("%s/initramfs.cpio", req->run_dir);
	b->pidfile = rundir_pidfile(req->run_dir);
	b->qlog = xstrfmt("%s/qemu.log", req->run_dir);
	b->cmdfile = xstrfmt("%s/qemu.cmdline", req->run_dir);
	free(out->console_log);
	free(out->result_log);
	out->console_log = xstrfmt("%s/console.log", req->run_dir);
	out->result_log = xstrfmt("%s/result.log", req->run_dir);
	out->report.expect_boot = req->boot_id;
	out->report.expect_samples = (unsigned)job->samples;
	out->report.expect_warmups = (unsigned)job->warmup;
	out->report.expect_points = 0;
	strvec_clear(&out->report.expect_ids);
	for (size_t i = 0; i < job->nr_points; i++)
		if (job->points[i].topo == req->topo) {
			out->report.expect_points++;
			strvec_push(&out->report.expect_ids, job->points[i].id);
		}
}

/*
 * What QEMU needs before it starts: the initramfs with the spec, the disk
 * images, the accelerator and clock, its argv (also in qemu.cmdline), the
 * empty logs, and the result port's file open to read.
 */
static int prepare_boot(struct boot_run *b)
{
	const struct boot_request *req = b->req;
	const struct job *job = req->job;
	struct boot_result *out = b->out;
	struct strbuf spec = STRBUF_INIT;
	int rc = -1;

	if (guest_spec_render(job, req->topo, req->label, req->boot_id,
			      &spec) ||
	    vm_initramfs(b->initrd, &spec, req) ||
	    boot_images_prepare(&b->im, b->t, req->run_dir, req->boot_id))
		goto out;
	out->kvm = qemu_accel_resolve(&job->machine, kvm_usable());
	if (out->kvm < 0 || clock_resolve(&b->clock, job, out->kvm))
		goto out;

	struct qemu_config cfg = {
		.machine = &job->machine,
		.topo = b->t,
		.disks = b->im.host,
		.kvm = out->kvm,
		.clock = &b->clock,
		.kernel = req->kernel,
		.initrd = b->initrd,
		.console_log = out->console_log,
		.result_log = out->result_log,
		.plugin = req->plugin,
		.plugin_out = req->plugin_out,
	};
	if (qemu_argv_build(&b->argv, &cfg) || create_empty(out->console_log) ||
	    create_empty(out->result_log) || create_empty(b->qlog))
		goto out;
	write_cmdline(b->cmdfile, &b->argv);
	b->fd = open(out->result_log, O_RDONLY | O_CLOEXEC);
	if (b->fd < 0) {
		error("cannot open '%s': %s", out->result_log, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&spec);
	return rc;
}

/*
 * Start QEMU. When the host has CPUs to spare, QEMU starts on the building
 * CPUs and its vCPU threads move to the measuring ones once they exist
 * (cpus.h): placed by watch_qemu, as the boot is watched.
 */
static int start_qemu(struct boot_run *b)
{
	struct run_opts ro = RUN_OPTS_INIT;
	ro.argv = (const char *const *)b->argv.v;
	ro.stdout_path = b->qlog;
	ro.stderr_to_stdout = 1;
	ro.pidfile = b->pidfile;
	cpu_set_t saved;
	cpu_plan_make(&b->plan, &b->req->job->machine);
	int pinned = cpus_pin_self(&b->plan, &b->plan.build, &saved);
	b->vcpus_placed = !pinned;
	b->t0 = now_ns();
	b->pid = run_start(&ro);
	if (pinned)
		cpus_restore(&saved);
	return b->pid < 0 ? -1 : 0;
}

/*
 * Follow QEMU until it ends, or kill it (timeout, interrupt, or a guest
 * that said done or panicked and lingers), then read the last of what
 * the guest said. 1 when the harness was interrupted.
 */
static int watch_qemu(struct boot_run *b)
{
	const struct machine_spec *m = &b->req->job->machine;
	struct boot_result *out = b->out;
	int vcpus = m->cpus > 0 ? m->cpus : 1;
	uint64_t timeout_ns =
		(uint64_t)(m->timeout_s > 0 ? m->timeout_s : 300) *
		1000000000ull;
	int interrupted = 0;
	size_t told = 0;
	struct console_watch cw = {-1, STRBUF_INIT, 0};
	cw.fd = open(out->console_log, O_RDONLY | O_CLOEXEC);
	for (;;) {
		/* Reaped, with what QEMU left in its group and its keeper. */
		int ended = run_poll(b->pid, &out->qemu_exit);
		drain(b->fd, &out->report);
		note_times(out, b->t0);
		tell_samples(b->req, &out->report, &told);
		console_watch(&cw, b->t0);
		if (ended)
			break;
		uint64_t el = now_ns() - b->t0;
		if (!b->vcpus_placed)
			b->vcpus_placed =
				place_vcpus(&b->plan, b->pid, vcpus, el,
					    b->clock.kind == CLOCK_VIRTUAL);
		if (run_interrupted())
			interrupted = 1;
		else if (el > timeout_ns)
			out->timed_out = 1;
		else if (out->done_ns &&
			 el > out->done_ns + DONE_GRACE_MS * 1000000ull)
			/* Done but the guest did not reboot: enough. */
			;
		else if (cw.panic_ns &&
			 el > cw.panic_ns + PANIC_GRACE_MS * 1000000ull)
			/* Panicked and not rebooting: the console says it all.
			 */
			;
		else {
			sleep_ms(POLL_MS);
			continue;
		}
		run_kill(b->pid);
		out->qemu_exit = out->timed_out ? RUN_TIMEOUT : RUN_SIGNALED;
		break;
	}
	/*
	 * The harness's own signal handler may have killed QEMU before this
	 * loop saw the signal: that boot was interrupted, not a QEMU failure.
	 */
	if (out->qemu_exit == RUN_SIGNALED && run_interrupted())
		interrupted = 1;
	out->total_ns = now_ns() - b->t0;
	if (cw.fd >= 0)
		close(cw.fd);
	strbuf_release(&cw.tail);
	unlink(b->pidfile);
	drain(b->fd, &out->report);
	proto_report_finish(&out->report);
	note_times(out, b->t0);
	tell_samples(b->req, &out->report, &told);
	return interrupted;
}

/* The boot's status and detail, from the console, the report and qemu.log. */
static void judge_boot(struct boot_run *b, int interrupted)
{
	struct boot_result *out = b->out;
	struct strbuf console = STRBUF_INIT;

	read_file(out->console_log, &console);
	if (interrupted) {
		out->status = BOOT_INTERRUPTED;
		strbuf_addstr(&out->detail, "interrupted: QEMU was killed");
	} else {
		out->status = vm_classify(&out->detail, console.buf,
					  &out->report, out->timed_out,
					  out->done_ns ? 0 : out->qemu_exit);
		char *oom =
			out->status == BOOT_PANIC
				? vm_memory_hint(console.buf,
						 &b->req->job->machine, b->t)
				: NULL;
		if (oom)
			strbuf_addf(&out->detail, "\n  %s", oom);
		free(oom);
		if (out->status == BOOT_QEMU_ERROR) {
			struct strbuf ql = STRBUF_INIT;
			if (!read_file(b->qlog, &ql) && ql.len) {
				strbuf_trim(&ql);
				strbuf_addf(&out->detail, ": %s", ql.buf);
			}
			strbuf_release(&ql);
		}
	}
	strbuf_release(&console);
}

/* Close, remove (unless kept) and free what the boot made. */
static void boot_run_release(struct boot_run *b)
{
	if (b->fd >= 0)
		close(b->fd);
	boot_images_release(&b->im, !b->req->keep_images);
	if (!b->req->keep_images && b->initrd)
		unlink(b->initrd);
	strvec_clear(&b->argv);
	free(b->initrd);
	free(b->pidfile);
	free(b->qlog);
	free(b->cmdfile);
}

int vm_boot(struct boot_result *out, const struct boot_request *req)
{
	struct boot_run b = {
		.req = req,
		.out = out,
		.argv = STRVEC_INIT,
		.fd = -1,
		.pid = -1,
	};
	int rc = -1;

	if (req->topo < 0 || (size_t)req->topo >= req->job->nr_topologies)
		return error("topology %d is not in the job", req->topo);
	b.t = &req->job->topologies[req->topo];
	if (mkdir_p(req->run_dir, 0755))
		return -1;
	name_files(&b);
	if (prepare_boot(&b) || start_qemu(&b))
		goto out;
	judge_boot(&b, watch_qemu(&b));
	rc = 0;
out:
	boot_run_release(&b);
	return rc;
}
