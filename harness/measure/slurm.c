/*
 * slurm.c: sbatch, squeue/sacct and scancel, run as commands and read in
 * their machine-readable forms (--parsable, -h -o, -n -P). The commands
 * are Slurm's stable interface across versions, where libslurm's C API
 * changes with every release; and a lab's Slurm client config (SLURM_CONF,
 * the munge socket) reaches them as it reaches the user's own calls.
 */
#include "slurm.h"

#include "run.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define SLURM_POLL_MS 2000

void slurm_opts_init(struct slurm_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->retries = EXECUTOR_RETRIES;
	o->poll_ms = SLURM_POLL_MS;
}

void slurm_opts_release(struct slurm_opts *o)
{
	strvec_clear(&o->extra);
}

enum slurm_fate slurm_fate(const char *state)
{
	static const char *const active[] = {
		"PENDING",     "RUNNING",   "CONFIGURING", "COMPLETING",
		"REQUEUED",    "RESIZING",  "SUSPENDED",   "REQUEUE_HOLD",
		"REQUEUE_FED", "SIGNALING", "STAGE_OUT",   "STOPPED",
		NULL};
	/* FAILED: the task's command exited non-zero, as a build failure
	   does; what it measured, or why not, is in the results store. */
	static const char *const ended[] = {"COMPLETED", "FAILED", NULL};

	for (size_t i = 0; active[i]; i++)
		if (!strcmp(state, active[i]))
			return SLURM_ACTIVE;
	for (size_t i = 0; ended[i]; i++)
		if (!strcmp(state, ended[i]))
			return SLURM_ENDED;
	/* CANCELLED, TIMEOUT, NODE_FAIL, PREEMPTED, BOOT_FAIL, DEADLINE,
	   OUT_OF_MEMORY, REVOKED: the command did not get to its end. */
	return *state ? SLURM_LOST : SLURM_UNKNOWN;
}

int slurm_parse_job_id(const char *out, char id[32])
{
	size_t n = 0;

	while (*out == ' ' || *out == '\n')
		out++;
	while (isdigit((unsigned char)out[n]) && n < 31)
		n++;
	if (!n || (out[n] && out[n] != ';' && out[n] != '\n' && out[n] != ' '))
		return -1;
	memcpy(id, out, n);
	id[n] = '\0';
	return 0;
}

static void set_state(struct slurm_task *tasks, size_t n, unsigned lo,
		      unsigned hi, const char *state, size_t len)
{
	for (unsigned i = lo; i <= hi && i < n; i++) {
		if (len >= sizeof(tasks[i].state))
			len = sizeof(tasks[i].state) - 1;
		memcpy(tasks[i].state, state, len);
		tasks[i].state[len] = '\0';
		tasks[i].fate = slurm_fate(tasks[i].state);
	}
}

/* "5", "[6-9]", "[1,3,5-7]", "[2-9%2]" (at most 2 at once) */
static void parse_indices(const char *s, const char *end,
			  struct slurm_task *tasks, size_t n, const char *state,
			  size_t len)
{
	if (*s == '[')
		s++;
	while (s < end && *s != ']') {
		char *e;
		unsigned long lo = strtoul(s, &e, 10), hi = lo;
		if (e == s)
			return;
		if (*e == '-')
			hi = strtoul(e + 1, &e, 10);
		set_state(tasks, n, (unsigned)lo, (unsigned)hi, state, len);
		if (*e == '%')
			return;
		s = *e == ',' ? e + 1 : e;
		if (s == e)
			return;
	}
}

void slurm_parse_states(const char *text, const char *id,
			struct slurm_task *tasks, size_t n)
{
	size_t idlen = strlen(id);

	for (const char *line = text; *line;) {
		const char *eol = strchr(line, '\n');
		if (!eol)
			eol = line + strlen(line);
		const char *bar = memchr(line, '|', (size_t)(eol - line));
		if (bar && (size_t)(bar - line) >= idlen &&
		    !strncmp(line, id, idlen)) {
			const char *st = bar + 1;
			size_t len = strcspn(st, " |\n");
			if (st + len > eol)
				len = (size_t)(eol - st);
			const char *rest = line + idlen;
			if (rest == bar)
				set_state(tasks, n, 0, 0, st, len);
			else if (*rest == '_')
				parse_indices(rest + 1, bar, tasks, n, st, len);
			/* "1234.batch" and other steps: not a task. */
		}
		line = *eol ? eol + 1 : eol;
	}
}

/* One word for sbatch --wrap, which hands the line to sh. */
static void add_quoted(struct strbuf *sb, const char *word)
{
	strbuf_addch(sb, '\'');
	for (const char *p = word; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
}

void slurm_sbatch_argv(struct strvec *argv, const struct slurm_opts *o,
		       const char *name, const char *output, const char *array,
		       const char *const *cmd)
{
	struct strbuf wrap = STRBUF_INIT;

	strvec_push(argv, "sbatch");
	strvec_push(argv, "--parsable");
	strvec_pushf(argv, "--job-name=%s", name);
	strvec_pushf(argv, "--output=%s", output);
	if (array)
		strvec_pushf(argv, "--array=%s", array);
	if (o->partition)
		strvec_pushf(argv, "--partition=%s", o->partition);
	if (o->account)
		strvec_pushf(argv, "--account=%s", o->account);
	if (o->time_limit)
		strvec_pushf(argv, "--time=%s", o->time_limit);
	/*
	 * A probe gets the CPUs its boot needs, so probes at once on one
	 * node never share one (their boots would measure each other), and a
	 * boot measures the same alone or beside another. Before the extras: a
	 * user's own --cpus-per-task comes later and wins.
	 */
	if (o->cpus_per_task)
		strvec_pushf(argv, "--cpus-per-task=%u", o->cpus_per_task);
	for (size_t i = 0; i < o->extra.nr; i++)
		strvec_push(argv, o->extra.v[i]);
	/* exec: the task's own process is iobisect, so Slurm's signals
	   (scancel, the time limit) reach it and it stops its QEMU. */
	strbuf_addstr(&wrap, "exec");
	for (size_t i = 0; cmd[i]; i++) {
		strbuf_addch(&wrap, ' ');
		add_quoted(&wrap, cmd[i]);
	}
	strvec_pushf(argv, "--wrap=%s", wrap.buf);
	strbuf_release(&wrap);
}

/* Run a Slurm command; its standard output (and error) in `out`. */
static int slurm_run(const char *const *argv, struct strbuf *out)
{
	char path[] = "/tmp/iobisect-slurm-XXXXXX";
	int fd = mkstemp(path), rc;
	struct run_opts o = RUN_OPTS_INIT;

	if (fd < 0)
		return error("cannot make a temporary file for '%s'", argv[0]);
	close(fd);
	o.argv = argv;
	o.stdout_path = path;
	o.stderr_to_stdout = 1;
	o.timeout_ms = 60 * 1000;
	rc = run_command(&o);
	strbuf_reset(out);
	if (read_file(path, out))
		rc = rc ? rc : -1;
	unlink(path);
	strbuf_trim(out);
	if (rc == RUN_SPAWN)
		return error("cannot run '%s' (is Slurm's client, slurm-client "
			     "or slurm-wlm, installed?)",
			     argv[0]);
	return rc;
}

/* Jobs submitted and not yet seen ended, for slurm_cancel_pending. */
static struct strvec pending = STRVEC_INIT;

void slurm_forget(const char *id)
{
	int i = strvec_index(&pending, id);
	if (i < 0)
		return;
	free(pending.v[i]);
	pending.v[i] = pending.v[--pending.nr];
	pending.v[pending.nr] = NULL;
}

int slurm_submit(const struct slurm_opts *o, const char *name,
		 const char *output, const char *array, const char *const *cmd,
		 char id[32])
{
	struct strvec argv = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	int ret = 0;

	slurm_sbatch_argv(&argv, o, name, output, array, cmd);
	int rc = slurm_run((const char *const *)argv.v, &out);
	if (rc == 0 && slurm_parse_job_id(out.buf, id) == 0) {
		strvec_push(&pending, id);
	} else if (rc != RUN_SPAWN) {
		struct strbuf said = STRBUF_INIT;
		const char *nl = strchr(out.buf, '\n');
		strbuf_addsafe(&said, out.buf,
			       nl ? (size_t)(nl - out.buf) : out.len);
		ret = error("sbatch refused job '%s': %s", name,
			    said.len ? said.buf : "no job id printed");
		strbuf_release(&said);
	} else {
		ret = -1;
	}
	strbuf_release(&out);
	strvec_clear(&argv);
	return ret;
}

int slurm_look(const char *id, struct slurm_task *tasks, size_t n)
{
	struct strbuf out = STRBUF_INIT;
	const char *sq[] = {"squeue", "-h", "-r", "-t",	   "all",
			    "-j",     id,   "-o", "%i|%T", NULL};
	const char *sa[] = {"sacct", "-n", "-P",	  "-X", "-j",
			    id,	     "-o", "JobID,State", NULL};

	for (size_t i = 0; i < n; i++) {
		tasks[i].index = (unsigned)i;
		tasks[i].state[0] = '\0';
		tasks[i].fate = SLURM_UNKNOWN;
	}
	/* squeue knows a job until MinJobAge after its end; sacct after
	   that, where the cluster keeps accounting. */
	if (slurm_run(sq, &out) == 0)
		slurm_parse_states(out.buf, id, tasks, n);
	for (size_t i = 0; i < n; i++) {
		if (tasks[i].fate != SLURM_UNKNOWN)
			continue;
		if (slurm_run(sa, &out) == 0)
			slurm_parse_states(out.buf, id, tasks, n);
		break;
	}
	strbuf_release(&out);
	return 0;
}

/*
 * scancel is run apart from run_command, which kills its child at once
 * when the harness is interrupted: the interrupt is when it must run.
 */
void slurm_cancel(const char *id)
{
	char *const argv[] = {"scancel", (char *)id, NULL};
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (!posix_spawnp(&pid, "scancel", &fa, NULL, argv, environ))
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	posix_spawn_file_actions_destroy(&fa);
	slurm_forget(id);
}

void slurm_cancel_pending(void)
{
	while (pending.nr) {
		char *id = xstrdup(pending.v[pending.nr - 1]);
		slurm_cancel(id);
		free(id);
	}
}
