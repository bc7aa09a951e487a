/*
 * executor.c: probes sent to Slurm (executor.h). The sender holds the
 * results folder's lock and writes the run's state; the tasks only add
 * boots (atomic per-sample documents) and their task document, each in a
 * run folder of its own, so they never contend with each other or with
 * the sender.
 */
#include "executor.h"

#include "probe.h"
#include "progress.h"
#include "run.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void executor_init(struct executor *x)
{
	memset(x, 0, sizeof(*x));
	x->kind = EXECUTOR_LOCAL;
	x->probes = 1;
	slurm_opts_init(&x->slurm);
}

void executor_release(struct executor *x)
{
	slurm_opts_release(&x->slurm);
}

int executor_from_job(struct executor *x, const struct job *job)
{
	const struct executor_spec *j = &job->executor;
	char *sbatch;

	if (!x->kind_given && j->kind >= 0)
		x->kind = j->kind ? EXECUTOR_SLURM : EXECUTOR_LOCAL;
	if (!x->slurm.partition)
		x->slurm.partition = j->partition;
	if (!x->slurm.account)
		x->slurm.account = j->account;
	if (!x->slurm.time_limit)
		x->slurm.time_limit = j->time_limit;
	/* The job's sbatch options first: the command line's come later and
	   win where sbatch takes the last. */
	struct strvec all = STRVEC_INIT;
	for (size_t i = 0; i < j->sbatch_args.nr; i++)
		strvec_push(&all, j->sbatch_args.v[i]);
	for (size_t i = 0; i < x->slurm.extra.nr; i++)
		strvec_push(&all, x->slurm.extra.v[i]);
	strvec_clear(&x->slurm.extra);
	x->slurm.extra = all;
	/* The job's probes go with its Slurm executor, not with --executor
	   local given over it. */
	if (x->kind == EXECUTOR_SLURM && x->probes <= 1 && j->probes > 1)
		x->probes = (unsigned)j->probes;
	if (j->retries >= 0)
		x->slurm.retries = (unsigned)j->retries;
	if (x->kind != EXECUTOR_SLURM) {
		if (x->probes > 1)
			return error("--probes %u needs --executor slurm: a "
				     "local run probes one commit at a time",
				     x->probes);
		return 0;
	}
	sbatch = run_which("sbatch");
	free(sbatch);
	if (!sbatch)
		return error("%s: the slurm executor needs sbatch in PATH "
			     "(slurm-client)",
			     job->path);
	return 0;
}

/* "0,3,7" for the tasks still to run. */
static char *array_of(const unsigned char *todo, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++)
		if (todo[i])
			strbuf_addf(&sb, "%s%zu", sb.len ? "," : "", i);
	return strbuf_detach(&sb);
}

/*
 * Wait until no task of job `id` is active, saying on the status line how
 * many are pending, running and done. A job that neither squeue nor sacct
 * knows for two minutes is gone (its tasks count as lost).
 */
static int wait_job(const struct executor *x, const char *id,
		    struct slurm_task *tasks, size_t n,
		    const unsigned char *todo, struct progress *progress)
{
	unsigned unknown_ms = 0;
	size_t last_done = (size_t)-1;

	for (;;) {
		size_t active = 0, unknown = 0, done = 0, sent = 0;
		if (run_interrupted()) {
			slurm_cancel(id);
			return -1;
		}
		slurm_look(id, tasks, n);
		for (size_t i = 0; i < n; i++) {
			if (!todo[i])
				continue;
			sent++;
			active += tasks[i].fate == SLURM_ACTIVE;
			unknown += tasks[i].fate == SLURM_UNKNOWN;
			done += tasks[i].fate == SLURM_ENDED ||
				tasks[i].fate == SLURM_LOST;
		}
		if (progress) {
			progress_phase(progress, "slurm job %s: %zu/%zu done",
				       id, done, sent);
			if (done != last_done && last_done != (size_t)-1)
				progress_note(progress,
					      "[slurm] job %s: %zu of %zu "
					      "tasks done",
					      id, done, sent);
		}
		last_done = done;
		if (!active && !unknown)
			break;
		unknown_ms = active ? 0 : unknown_ms + x->slurm.poll_ms;
		if (unknown_ms >= 120 * 1000)
			break;
		run_sleep_ms(x->slurm.poll_ms);
	}
	slurm_forget(id);
	return 0;
}

/* The paths the tasks are given: absolute, for a node's working folder. */
struct task_files {
	char *self, *job, *results, *list, *log;
};

static int task_files(struct task_files *f, const struct job *job,
		      const char *job_path, const char *const *commits,
		      size_t n)
{
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct strbuf list = STRBUF_INIT;
	char *dir;
	int ret;

	if (len <= 0)
		return error("cannot find iobisect's own path for the tasks");
	exe[len] = '\0';
	f->self = xstrdup(exe);
	f->job = absolute_path(job_path);
	f->results = absolute_path(job->results);
	dir = results_job_file(f->results, job->name, ".tasks");
	f->list = xstrfmt("%s/list-%ld-%ld.txt", dir, (long)time(NULL),
			  (long)getpid());
	/* %A the array's job id, %a the task: one log per task. */
	f->log = xstrfmt("%s/slurm-%%A_%%a.log", dir);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&list, "%s\n", commits[i]);
	ret = mkdir_p(dir, 0755) ||
	      write_file_atomic(f->list, list.buf, list.len);
	strbuf_release(&list);
	free(dir);
	return ret ? -1 : 0;
}

static void task_files_release(struct task_files *f)
{
	if (f->list)
		unlink(f->list);
	free(f->self);
	free(f->job);
	free(f->results);
	free(f->list);
	free(f->log);
}

int executor_measure(const struct executor *x, const struct job *job,
		     const char *job_path, const char *const *commits, size_t n,
		     unsigned boots, struct task_doc *docs,
		     struct progress *progress)
{
	struct task_files f = {0};
	struct slurm_task *tasks = xcalloc(n + 1, sizeof(*tasks));
	unsigned char *todo = xcalloc(n + 1, 1);
	char *boots_s = xstrfmt("%u", boots), id[32];
	int ret = -1;

	if (task_files(&f, job, job_path, commits, n))
		goto out;
	const char *cmd[] = {f.self,	"measure", f.job,   "--commit-list",
			     f.list,	"--boots", boots_s, "--results",
			     f.results, NULL};
	for (size_t i = 0; i < n; i++) {
		char *path = task_doc_path(f.results, job->name, commits[i]);
		unlink(path); /* an earlier run's, not this one's answer */
		free(path);
		todo[i] = 1;
	}
	for (unsigned attempt = 0;; attempt++) {
		size_t sent = 0;
		for (size_t i = 0; i < n; i++)
			sent += todo[i];
		char *array = array_of(todo, n);
		char *name = xstrfmt("iobisect-%s", job->name);
		struct slurm_opts o = x->slurm;
		/* The guest's vCPUs and one for QEMU's own thread, as a
		   local boot has them (cpus.h). */
		o.cpus_per_task = (unsigned)job->machine.cpus + 1;
		int rc = slurm_submit(&o, name, f.log, array, cmd, id);
		free(name);
		if (!rc && progress)
			progress_note(progress,
				      "[slurm] job %s: %s%zu commits, %u "
				      "boots each (tasks %s)",
				      id, attempt ? "again, " : "", sent, boots,
				      array);
		free(array);
		if (rc || wait_job(x, id, tasks, n, todo, progress))
			goto out;
		size_t lost = 0;
		for (size_t i = 0; i < n; i++) {
			if (!todo[i])
				continue;
			todo[i] = tasks[i].fate != SLURM_ENDED;
			lost += todo[i];
		}
		if (!lost)
			break;
		if (attempt >= x->slurm.retries)
			break;
		if (progress)
			progress_note(progress,
				      "[slurm] job %s: %zu tasks lost, sent "
				      "again (%u of %u)",
				      id, lost, attempt + 1, x->slurm.retries);
	}
	for (size_t i = 0; i < n; i++) {
		char *path = task_doc_path(f.results, job->name, commits[i]);
		int rc = task_doc_read(&docs[i], path);
		free(path);
		if (rc < 0)
			goto out;
		if (rc == 0)
			continue;
		/* No document: the task died before it, or Slurm lost it
		   past the retries. Untestable, never slow. */
		memcpy(docs[i].commit, commits[i], 41);
		docs[i].ok = 0;
		docs[i].outcome = PROBE_BOOT_FAILED;
		docs[i].first_error = xstrfmt(
			"slurm task %zu of job %s ended %s, with no result", i,
			id, tasks[i].state[0] ? tasks[i].state : "unseen");
		char *log = xstrfmt(".tasks/slurm-%s_%zu.log", id, i);
		docs[i].log = results_job_file(f.results, job->name, log);
		free(log);
	}
	ret = 0;
out:
	task_files_release(&f);
	free(tasks);
	free(todo);
	free(boots_s);
	return ret;
}

/* The document kept for `commit`, made empty when new. */
static struct task_doc *doc_of(struct executor_probe *p, const char *commit)
{
	for (size_t i = 0; i < p->nr; i++)
		if (!strcmp(p->docs[i].commit, commit))
			return &p->docs[i];
	ALLOC_GROW(p->docs, p->nr + 1, p->alloc);
	task_doc_init(&p->docs[p->nr]);
	memcpy(p->docs[p->nr].commit, commit, 41);
	return &p->docs[p->nr++];
}

/* Run tasks for `commits` up to `boots` each; keep their documents. */
static int send(struct executor_probe *p, const char *const *commits, size_t n,
		unsigned boots)
{
	struct task_doc *got = xcalloc(n + 1, sizeof(*got));
	int ret;

	for (size_t i = 0; i < n; i++)
		task_doc_init(&got[i]);
	ret = executor_measure(p->x, p->job, p->job->path, commits, n, boots,
			       got, p->progress);
	for (size_t i = 0; i < n; i++) {
		if (!ret) {
			struct task_doc *t = doc_of(p, commits[i]);
			task_doc_release(t);
			*t = got[i];
		} else {
			task_doc_release(&got[i]);
		}
	}
	free(got);
	return ret;
}

/* What a task's document says of the commit's build. */
static void doc_build_facts(const struct task_doc *t, struct build_facts *out)
{
	memcpy(out->key, t->key, sizeof(out->key));
	out->cached = t->cached;
	out->failed = !t->ok && t->outcome == PROBE_BUILD_FAILED;
	if (out->failed) {
		out->first_error = xstrdup(t->first_error ? t->first_error
							  : "build failed");
		out->log = t->log ? xstrdup(t->log) : NULL;
	}
}

static int xops_build(void *payload, const char *commit,
		      struct build_facts *out)
{
	struct executor_probe *p = payload;
	struct task_doc *t = doc_of(p, commit);

	if (!t->key[0] && send(p, &commit, 1, 0))
		return -1;
	doc_build_facts(doc_of(p, commit), out);
	return 0;
}

static int xops_boot(void *payload, const char *commit, struct boot_facts *out)
{
	struct executor_probe *p = payload;
	size_t had = doc_of(p, commit)->set.nr;
	struct task_doc *t;

	if (send(p, &commit, 1, (unsigned)had + 1))
		return -1;
	t = doc_of(p, commit);
	out->ok = t->ok && t->set.nr > had;
	out->outcome = t->ok ? PROBE_WORKLOAD_ERROR : t->outcome;
	out->samples = t->set.nr > had ? t->set.nr - had : 0;
	if (!out->ok) {
		out->first_error =
			xstrdup(t->first_error ? t->first_error
					       : "the task stored no boot");
		out->log = t->log ? xstrdup(t->log) : NULL;
	}
	return 0;
}

static int xops_load(void *payload, const char *commit, struct sample_set *out)
{
	struct executor_probe *p = payload;
	const struct sample_set *s = &doc_of(p, commit)->set;

	sample_set_release(out);
	for (size_t i = 0; i < s->nr; i++)
		sample_set_push(out, s->boots[i], s->values[i],
				s->cpu_pct ? s->cpu_pct[i] : 0);
	return 0;
}

static char *xops_subject(void *payload, const char *commit)
{
	struct executor_probe *p = payload;

	return probe_ops.subject(p->ctx, commit);
}

/* The tasks' clock is the one this host resolved for the job. */
static const struct clock *xops_clock(void *payload)
{
	struct executor_probe *p = payload;

	return probe_ops.clock(p->ctx);
}

/*
 * Each commit's task as its document says it went: built, and every
 * boot asked for stored, or how it failed (a task that never got to its
 * end: executor_measure).
 */
static int xops_measure_many(void *payload, const char *const *commits,
			     size_t n, unsigned boots,
			     struct build_facts *builds, struct boot_facts *out)
{
	struct executor_probe *p = payload;

	if (send(p, commits, n, boots))
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct task_doc *t = doc_of(p, commits[i]);
		doc_build_facts(t, &builds[i]);
		out[i].ok = t->ok;
		out[i].outcome = t->outcome;
		out[i].first_error =
			t->first_error ? xstrdup(t->first_error) : NULL;
		out[i].log = t->log ? xstrdup(t->log) : NULL;
	}
	return 0;
}

const struct measure_ops executor_ops = {
	.build = xops_build,
	.boot = xops_boot,
	.load = xops_load,
	.subject = xops_subject,
	.measure_many = xops_measure_many,
	.clock = xops_clock,
};

void executor_probe_release(struct executor_probe *p)
{
	for (size_t i = 0; i < p->nr; i++)
		task_doc_release(&p->docs[i]);
	free(p->docs);
	p->docs = NULL;
	p->nr = p->alloc = 0;
}
