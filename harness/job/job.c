/*
 * job.c: the job file. Parses the JSON (jansson) into struct job: the
 * kernel side (repo, revisions, kconfig), the machine, the
 * runs and the verdict's settings here (the threshold and the
 * confidence read in job_verdict.c); the topology (job_topology.c,
 * job_disk.c) and the workload (job_workload.c) in their own files. Any
 * toolchains and prebuilt images are in job_build.c. Any
 * problem is one error() naming the file and the key path (keypath.h),
 * because a typo in a job must cost seconds, not a kernel build.
 */
#include "job_parse.h"
#include "clock.h"
#include "job_keys.h"
#include "job_verdict.h"
#include "kconfig.h"
#include "metric.h"
#include "vcpus.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* The rest of the job. */

static int get_strlist(struct keypath *c, json_t *v, struct strvec *out)
{
	if (!json_is_array(v) || !json_array_size(v))
		return kp_fail(c, "expected a non-empty list of strings");
	for (size_t i = 0; i < json_array_size(v); i++) {
		const char *s;
		size_t old = kp_push_idx(c, i);
		if (kp_str(c, json_array_get(v, i), &s)) {
			kp_pop(c, old);
			return -1;
		}
		kp_pop(c, old);
		strvec_push(out, s);
	}
	return 0;
}

static int parse_kconfig(struct keypath *c, json_t *v, struct kconfig_spec *k)
{
	static const char *const keys[] = {"base", "fragments", "by_version",
					   NULL};
	static const char *const rule_keys[] = {"min", "max", "fragments",
						NULL};
	json_t *by;
	if (!json_is_object(v))
		return kp_fail(c, "expected an object");
	if (kp_check_keys(c, v, keys) || kp_strf(c, v, "base", &k->base))
		return -1;
	if (json_object_get(v, "fragments")) {
		size_t old = kp_push(c, "fragments");
		strvec_clear(&k->fragments);
		int r = get_strlist(c, json_object_get(v, "fragments"),
				    &k->fragments);
		kp_pop(c, old);
		if (r)
			return -1;
	}
	by = json_object_get(v, "by_version");
	if (!by)
		return 0;
	size_t old = kp_push(c, "by_version");
	if (!json_is_array(by)) {
		kp_fail(c, "expected a list");
		kp_pop(c, old);
		return -1;
	}
	k->rules = xcalloc(json_array_size(by) + 1, sizeof(*k->rules));
	for (size_t i = 0; i < json_array_size(by); i++) {
		json_t *r = json_array_get(by, i);
		struct kconfig_rule *rule = &k->rules[k->nr_rules++];
		size_t o2 = kp_push_idx(c, i);
		int bad = !json_is_object(r)
				  ? kp_fail(c, "expected an object")
				  : kp_check_keys(c, r, rule_keys) ||
					    kp_kver_range(c, r, &rule->range);
		if (!bad) {
			size_t o3 = kp_push(c, "fragments");
			json_t *f = json_object_get(r, "fragments");
			bad = f ? get_strlist(c, f, &rule->fragments)
				: kp_fail(c, "missing");
			kp_pop(c, o3);
		}
		kp_pop(c, o2);
		if (bad) {
			kp_pop(c, old);
			return -1;
		}
	}
	kp_pop(c, old);
	return 0;
}

/* A section's object, checked against the keys the table gives it. */
static int check_section(struct keypath *c, json_t *v, const char *section)
{
	const char **keys;
	int r;

	if (!json_is_object(v))
		return kp_fail(c, "expected an object");
	keys = job_key_names(section);
	r = kp_check_keys(c, v, keys);
	free(keys);
	return r;
}

static int parse_machine(struct keypath *c, json_t *v, struct machine_spec *m)
{
	if (check_section(c, v, "machine") ||
	    job_key_int(c, v, "machine", "cpus", &m->cpus) ||
	    job_key_int(c, v, "machine", "memory_mb", &m->memory_mb) ||
	    job_key_int(c, v, "machine", "timeout_s", &m->timeout_s) ||
	    job_key_int(c, v, "machine", "icount_shift", &m->icount_shift) ||
	    kp_strf(c, v, "qemu", &m->qemu) ||
	    kp_strf(c, v, "append", &m->append))
		return -1;
	/* A 1 MB one failed only at QEMU's start: too long for execve. */
	if (m->append && strlen(m->append) > JOB_APPEND_MAX) {
		size_t old = kp_push(c, "append");
		int r = kp_fail(c, "%zu characters; at most %d fit beside the "
				   "harness's own on the kernel's command line",
				strlen(m->append), JOB_APPEND_MAX);
		kp_pop(c, old);
		return r;
	}
	int i = -1, k = -1;
	if (kp_boolf(c, v, "pin", &m->pin) ||
	    kp_boolf(c, v, "profile", &m->profile) ||
	    job_key_enum(c, v, "machine", "accel", "accelerator", &i) ||
	    job_key_enum(c, v, "machine", "clock", "clock", &k))
		return -1;
	if (i >= 0) {
		free(m->accel);
		m->accel = xstrdup(job_key_find("machine", "accel")->choices[i]);
	}
	if (k >= 0) {
		free(m->clock);
		m->clock = xstrdup(job_key_find("machine", "clock")->choices[k]);
	}
	/* Refused before anything is built: such a boot would hang. */
	if (!strcmp(m->clock, "virtual") && clock_smp_refusal(m->cpus)) {
		size_t old = kp_push(c, "clock");
		kp_fail(c, "%s", clock_smp_refusal(m->cpus));
		kp_pop(c, old);
		return -1;
	}
	return 0;
}

static int parse_executor(struct keypath *c, json_t *v,
			  struct executor_spec *x)
{
	json_t *args;
	size_t i;

	if (check_section(c, v, "executor") ||
	    job_key_enum(c, v, "executor", "kind", "executor", &x->kind) ||
	    kp_strf(c, v, "partition", &x->partition) ||
	    kp_strf(c, v, "account", &x->account) ||
	    kp_strf(c, v, "time_limit", &x->time_limit) ||
	    job_key_int(c, v, "executor", "probes", &x->probes) ||
	    job_key_int(c, v, "executor", "retries", &x->retries))
		return -1;
	if (!(args = json_object_get(v, "sbatch_args")))
		return 0;
	size_t old = kp_push(c, "sbatch_args");
	if (!json_is_array(args))
		return kp_fail(c, "expected a list of sbatch options");
	json_array_foreach(args, i, v)
	{
		const char *a;
		size_t o = kp_push_idx(c, i);
		if (kp_str(c, v, &a))
			return -1;
		if (a[0] != '-')
			return kp_fail(c, "'%s' is not an sbatch option", a);
		strvec_push(&x->sbatch_args, a);
		kp_pop(c, o);
	}
	kp_pop(c, old);
	return 0;
}

static int parse_runs(struct keypath *c, json_t *v, struct job *job)
{
	if (check_section(c, v, "runs") ||
	    job_key_int(c, v, "runs", "min", &job->runs_min) ||
	    job_key_int(c, v, "runs", "max", &job->runs_max) ||
	    job_key_int(c, v, "runs", "samples", &job->samples) ||
	    job_key_int(c, v, "runs", "warmup", &job->warmup) ||
	    job_key_int(c, v, "runs", "wall_pairs", &job->wall_pairs))
		return -1;
	if (job->runs_max < job->runs_min)
		return kp_fail(c, "max (%d) is below min (%d)", job->runs_max,
			       job->runs_min);
	return 0;
}

static void job_defaults(struct job *job)
{
	memset(job, 0, sizeof(*job));
	job->kconfig.base = xstrdup("tiny");
	strvec_split(&job->kconfig.fragments, KCONFIG_DEFAULT_FRAGMENTS, ',');
	/* Each other default is the table's (job_keys.c). */
	job->machine.cpus = vcpus_default();
	job->machine.memory_mb = job_key_default_int("machine", "memory_mb");
	job->machine.accel = xstrdup(job_key_default("machine", "accel"));
	job->machine.qemu = xstrdup(job_key_default("machine", "qemu"));
	job->machine.timeout_s = job_key_default_int("machine", "timeout_s");
	job->machine.pin = job_key_default_int("machine", "pin");
	job->machine.profile = job_key_default_int("machine", "profile");
	/* "auto": the virtual clock under TCG (clock.h, docs/clocks.md). */
	job->machine.clock = xstrdup(job_key_default("machine", "clock"));
	job->machine.icount_shift =
		job_key_default_int("machine", "icount_shift");
	/* Not given: the executor's own (executor.c, slurm.h). */
	job->executor.kind = -1;
	job->executor.retries = -1;
	job->samples = job_key_default_int("runs", "samples");
	job->warmup = job_key_default_int("runs", "warmup");
	/*
	 * Verdicts are sequential: a boot is judged as it arrives, so one
	 * boot is the floor and evidence, not a count, sets how many follow.
	 */
	job->runs_min = job_key_default_int("runs", "min");
	job->runs_max = job_key_default_int("runs", "max");
	job->wall_pairs = job_key_default_int("runs", "wall_pairs");
	job->confidence = job_key_default_num("", "confidence");
	job->metric = xstrdup(job_key_default("", "metric"));
	job->threshold.kind = THRESHOLD_AUTO;
	job->bisect_type = BISECT_PERF;
	job->results = xstrdup(job_key_default("", "results"));
}

/* "dir/raid0.json" -> "raid0": the default job name. */
static char *name_from_origin(const char *origin)
{
	const char *base = strrchr(origin, '/');
	base = base ? base + 1 : origin;
	size_t n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".json"))
		n -= 5;
	/*
	 * The name is a folder under the results root: it must pass the
	 * check a "name" does, so "..json" or "...json" cannot make it the
	 * root itself or its parent.
	 */
	char *s = xstrndup(base, n > 64 ? 64 : n);
	for (char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			*p = '_';
	if (s[0] == '.' || s[0] == '-')
		s[0] = '_';
	if (!s[0]) {
		free(s);
		s = xstrdup("job");
	}
	return s;
}

int job_parse_json(struct job *job, json_t *root, const char *origin)
{
	struct keypath c = {origin, STRBUF_INIT};
	int ret = -1, workload_samples = 0, workload_warmup = -1;
	json_t *v;
	size_t old;

	job_defaults(job);
	job->path = xstrdup(origin);
	if (!json_is_object(root)) {
		kp_fail(&c, "expected a JSON object");
		goto out;
	}
	if (check_section(&c, root, ""))
		goto out;
	if (kp_strf(&c, root, "name", &job->name) ||
	    kp_strf(&c, root, "repo", &job->repo) ||
	    kp_strf(&c, root, "good", &job->good) ||
	    kp_strf(&c, root, "bad", &job->bad) ||
	    kp_strf(&c, root, "kernel", &job->kernel) ||
	    kp_strf(&c, root, "results", &job->results))
		goto out;
	if (!job->name)
		job->name = name_from_origin(origin);
	else if (!job_valid_name(job->name, 64)) {
		old = kp_push(&c, "name");
		kp_fail(&c,
			"'%s' is not a valid name (letters, digits, '.', '_', "
			"'-')",
			job->name);
		kp_pop(&c, old);
		goto out;
	}
	if (job->repo) {
		char *e = job_expand_home(job->repo);
		free(job->repo);
		job->repo = e;
	}
	if (job->kernel) {
		char *e = job_expand_home(job->kernel);
		free(job->kernel);
		job->kernel = e;
	}

#define SECTION(key, call)                                                     \
	if ((v = json_object_get(root, key))) {                                \
		old = kp_push(&c, key);                                        \
		int r_ = (call);                                               \
		kp_pop(&c, old);                                               \
		if (r_)                                                        \
			goto out;                                              \
	}
	SECTION("kconfig", parse_kconfig(&c, v, &job->kconfig));
	SECTION("toolchain", job_parse_toolchain(&c, v, job));
	SECTION("prebuilt", job_parse_prebuilt(&c, v, job));
	SECTION("machine", parse_machine(&c, v, &job->machine));
	SECTION("runs", parse_runs(&c, v, job));
	SECTION("executor", parse_executor(&c, v, &job->executor));
	SECTION("threshold", job_verdict_threshold(&c, v, &job->threshold));

	if (job_key_enum(&c, root, "", "direction", "direction", &job->faster))
		goto out;
	SECTION("confidence", job_verdict_confidence(&c, v, &job->confidence));
#undef SECTION

	/* The table's choices are in the order of enum bisect_type. */
	int type = job->bisect_type;
	if (job_key_enum(&c, root, "", "bisect_type", "bisect type", &type))
		goto out;
	job->bisect_type = type;

	v = json_object_get(root, "topology");
	if (!v) {
		kp_fail(&c, "missing key 'topology'");
		goto out;
	}
	if (job_parse_topology(&c, v, job))
		goto out;
	v = json_object_get(root, "workload");
	if (!v) {
		kp_fail(&c, "missing key 'workload'");
		goto out;
	}
	if (job_parse_workload(&c, v, job, &workload_samples, &workload_warmup))
		goto out;
	/* workload.samples/warmup are the same knobs as runs.*; one place. */
	if (workload_samples || workload_warmup >= 0) {
		json_t *runs = json_object_get(root, "runs");
		if (runs &&
		    ((workload_samples && json_object_get(runs, "samples")) ||
		     (workload_warmup >= 0 &&
		      json_object_get(runs, "warmup")))) {
			kp_fail(&c, "workload: samples and warmup are given in "
				    "'runs' too; keep one");
			goto out;
		}
		if (workload_samples)
			job->samples = workload_samples;
		if (workload_warmup >= 0)
			job->warmup = workload_warmup;
	}

	if ((v = json_object_get(root, "metric"))) {
		const char *eng = job->points[0].engine, *name;
		struct strbuf why = STRBUF_INIT;
		char *canon = NULL;
		old = kp_push(&c, "metric");
		int r = kp_str(&c, v, &name);
		if (!r && metric_check(name,
				       job_engine_metrics(job_engine_index(eng)),
				       !strcmp(eng, "fio"), &canon, &why))
			r = kp_fail(&c, "engine '%s' %s", eng, why.buf);
		strbuf_release(&why);
		kp_pop(&c, old);
		if (r)
			goto out;
		free(job->metric);
		job->metric = canon;
	}
	/* A latency is judged as its reciprocal: MB/s mean nothing there. */
	if (job->threshold.kind == THRESHOLD_MBPS &&
	    (strchr(job->metric, '.') && !strstr(job->metric, ".bw_bytes"))) {
		kp_fail(&c, "threshold: an absolute threshold is in MB/s; "
			    "metric '%s' takes a percentage or \"auto\"",
			job->metric);
		goto out;
	}
	if (kp_strf(&c, root, "metric_point", &job->metric_point))
		goto out;
	/* After the topologies and points: the keys it names are theirs. */
	if ((v = json_object_get(root, "table"))) {
		old = kp_push(&c, "table");
		int r = job_parse_table(&c, v, job);
		kp_pop(&c, old);
		if (r)
			goto out;
	}
	if (job->metric_point) {
		int found = 0;
		for (size_t i = 0; i < job->nr_points; i++)
			found |= !strcmp(job->points[i].id, job->metric_point);
		if (!found) {
			old = kp_push(&c, "metric_point");
			kp_fail(&c,
				"no matrix point '%s' (points are named like "
				"'%s')",
				job->metric_point, job->points[0].id);
			kp_pop(&c, old);
			goto out;
		}
	}
	ret = 0;
out:
	strbuf_release(&c.path);
	if (ret)
		job_release(job);
	return ret;
}

int job_needs_bad(const struct job *job)
{
	return job->bisect_type == BISECT_PERF &&
	       job->threshold.kind == THRESHOLD_AUTO;
}

int job_check_needs_bad(const struct job *job, const char *bad)
{
	if (job_needs_bad(job) && (!bad || !*bad))
		return error("%s: threshold 'auto' needs 'bad'",
			     job->path ? job->path : "job");
	return 0;
}

int job_check_bisect(const struct job *job)
{
	const char *missing = !job->repo   ? "repo"
			      : !job->good ? "good"
			      : !job->bad  ? "bad"
					   : NULL;
	if (missing)
		return error("%s: missing key '%s' (needed to bisect)",
			     job->path ? job->path : "job", missing);
	return 0;
}

const struct point *job_find_point(const struct job *job, int topo,
				   const char *id)
{
	for (size_t i = 0; i < job->nr_points; i++)
		if (job->points[i].topo == topo &&
		    !strcmp(job->points[i].id, id))
			return &job->points[i];
	return NULL;
}

int job_find_topology(const struct job *job, const char *name)
{
	for (size_t i = 0; i < job->nr_topologies; i++)
		if (!strcmp(job->topologies[i].name, name))
			return (int)i;
	return -1;
}

void job_release(struct job *job)
{
	free(job->executor.partition);
	free(job->executor.account);
	free(job->executor.time_limit);
	strvec_clear(&job->executor.sbatch_args);
	table_spec_release(&job->table);
	free(job->path);
	free(job->name);
	free(job->repo);
	free(job->good);
	free(job->bad);
	free(job->kernel);
	free(job->kconfig.base);
	strvec_clear(&job->kconfig.fragments);
	for (size_t i = 0; i < job->kconfig.nr_rules; i++)
		strvec_clear(&job->kconfig.rules[i].fragments);
	free(job->kconfig.rules);
	job_build_release(job);
	free(job->machine.accel);
	free(job->machine.clock);
	free(job->machine.qemu);
	free(job->machine.append);
	for (size_t i = 0; i < job->nr_topologies; i++)
		job_topology_release(&job->topologies[i]);
	free(job->topologies);
	for (size_t i = 0; i < job->nr_points; i++) {
		free(job->points[i].id);
		free(job->points[i].engine);
		free(job->points[i].target);
		strvec_clear(&job->points[i].keys);
		free(job->points[i].fio_job);
	}
	free(job->points);
	free(job->metric);
	free(job->metric_point);
	free(job->results);
	memset(job, 0, sizeof(*job));
}
