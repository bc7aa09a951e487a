/*
 * job.c: the job file. Parses the JSON (jansson) into struct job: each
 * section's scalar keys through the table (job_keys.c, which also holds
 * their defaults), and here what is more than a key and a value: the
 * kconfig, the executor's list of options, the checks that join two keys
 * and the order the sections must be read in (the metric names the
 * workload's figures). The topology (job_topology.c, job_disk.c) and the
 * workload (job_workload.c) are in their own files, the toolchains and
 * prebuilt images in job_build.c. Any problem is one error() naming the
 * file and the key path (keypath.h), because a typo in a job must cost
 * seconds, not a kernel build.
 */
#include "job_parse.h"
#include "clock.h"
#include "job_keys.h"
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

static int parse_machine(struct keypath *c, json_t *v, struct job *job)
{
	struct machine_spec *m = &job->machine;

	if (check_section(c, v, "machine") ||
	    job_keys_read(c, v, "machine", job))
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
	/* Refused before anything is built: such a boot would hang. */
	if (!strcmp(m->clock, "virtual") && clock_smp_refusal(m->cpus)) {
		size_t old = kp_push(c, "clock");
		kp_fail(c, "%s", clock_smp_refusal(m->cpus));
		kp_pop(c, old);
		return -1;
	}
	return 0;
}

/* The executor's scalar keys from the table; its list of options here. */
static int parse_executor(struct keypath *c, json_t *v, struct job *job)
{
	struct executor_spec *x = &job->executor;
	json_t *args;
	size_t i;

	if (check_section(c, v, "executor") ||
	    job_keys_read(c, v, "executor", job))
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
	if (check_section(c, v, "runs") || job_keys_read(c, v, "runs", job))
		return -1;
	if (job->runs_max < job->runs_min)
		return kp_fail(c, "max (%d) is below min (%d)", job->runs_max,
			       job->runs_min);
	return 0;
}

static void job_defaults(struct job *job)
{
	memset(job, 0, sizeof(*job));
	/* Every key's default that is a value is the table's (job_keys.c). */
	job_keys_defaults(job);
	/*
	 * The rest are more than a value the table could write: a section's
	 * (every fragment), the host's (its CPUs, vcpus.h), the disks' (the
	 * virtual clock's shift, clock.h), and the executor's, left unset
	 * here so its command line can win.
	 */
	job->kconfig.base = xstrdup("tiny");
	strvec_split(&job->kconfig.fragments, KCONFIG_DEFAULT_FRAGMENTS, ',');
	job->machine.cpus = vcpus_default();
	job->machine.icount_shift = -1; /* clock_job_shift: by the disks */
	job->executor.kind = -1;
	job->executor.retries = -1;
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

/* The top level's keys and its name (the file's, when it gives none). */
static int parse_top(struct keypath *c, json_t *root, const char *origin,
		     struct job *job)
{
	size_t old;

	if (!json_is_object(root))
		return kp_fail(c, "expected a JSON object");
	if (check_section(c, root, ""))
		return -1;
	/* The top level's scalars, from the table; its sections below. */
	if (job_keys_read(c, root, "", job))
		return -1;
	if (!job->name)
		job->name = name_from_origin(origin);
	else if (!job_valid_name(job->name, 64)) {
		old = kp_push(c, "name");
		kp_fail(c,
			"'%s' is not a valid name (letters, digits, '.', '_', "
			"'-')",
			job->name);
		kp_pop(c, old);
		return -1;
	}
	return 0;
}

/* The sections that stand alone, each where the job gives it. */
static int parse_sections(struct keypath *c, json_t *root, struct job *job)
{
	json_t *v;
	size_t old;

#define SECTION(key, call)                                                     \
	if ((v = json_object_get(root, key))) {                                \
		old = kp_push(c, key);                                         \
		int r_ = (call);                                               \
		kp_pop(c, old);                                                \
		if (r_)                                                        \
			return -1;                                             \
	}
	SECTION("kconfig", parse_kconfig(c, v, &job->kconfig));
	SECTION("toolchain", job_parse_toolchain(c, v, job));
	SECTION("prebuilt", job_parse_prebuilt(c, v, job));
	SECTION("machine", parse_machine(c, v, job));
	SECTION("runs", parse_runs(c, v, job));
	SECTION("executor", parse_executor(c, v, job));
#undef SECTION
	return 0;
}

/* The topologies, then the workload's points on them. */
static int parse_topology_workload(struct keypath *c, json_t *root,
				   struct job *job)
{
	int workload_samples = 0, workload_warmup = -1;
	json_t *v = json_object_get(root, "topology");

	if (!v)
		return kp_fail(c, "missing key 'topology'");
	if (job_parse_topology(c, v, job))
		return -1;
	v = json_object_get(root, "workload");
	if (!v)
		return kp_fail(c, "missing key 'workload'");
	if (job_parse_workload(c, v, job, &workload_samples, &workload_warmup))
		return -1;
	/* workload.samples/warmup are the same knobs as runs.*; one place. */
	if (workload_samples || workload_warmup >= 0) {
		json_t *runs = json_object_get(root, "runs");
		if (runs &&
		    ((workload_samples && json_object_get(runs, "samples")) ||
		     (workload_warmup >= 0 && json_object_get(runs, "warmup"))))
			return kp_fail(c, "workload: samples and warmup are "
					  "given in 'runs' too; keep one");
		if (workload_samples)
			job->samples = workload_samples;
		if (workload_warmup >= 0)
			job->warmup = workload_warmup;
	}
	return 0;
}

/* The metric, which names the workload's figures, and its threshold. */
static int parse_metric(struct keypath *c, json_t *root, struct job *job)
{
	json_t *v;
	size_t old;

	if ((v = json_object_get(root, "metric"))) {
		const char *eng = job->points[0].engine, *name;
		struct strbuf why = STRBUF_INIT;
		char *canon = NULL;
		old = kp_push(c, "metric");
		int r = kp_str(c, v, &name);
		if (!r && metric_check(name,
				       job_engine_metrics(job_engine_index(eng)),
				       !strcmp(eng, "fio"), &canon, &why))
			r = kp_fail(c, "engine '%s' %s", eng, why.buf);
		strbuf_release(&why);
		kp_pop(c, old);
		if (r)
			return -1;
		free(job->metric);
		job->metric = canon;
	}
	/* A latency is judged as its reciprocal: MB/s mean nothing there. */
	if (job->threshold.kind == THRESHOLD_MBPS &&
	    (strchr(job->metric, '.') && !strstr(job->metric, ".bw_bytes")))
		return kp_fail(c,
			       "threshold: an absolute threshold is in MB/s; "
			       "metric '%s' takes a percentage or \"auto\"",
			       job->metric);
	return 0;
}

/* After the topologies and points: the keys these name are theirs. */
static int parse_table_point(struct keypath *c, json_t *root, struct job *job)
{
	json_t *v;
	size_t old;

	if ((v = json_object_get(root, "table"))) {
		old = kp_push(c, "table");
		int r = job_parse_table(c, v, job);
		kp_pop(c, old);
		if (r)
			return -1;
	}
	if (job->metric_point) {
		int found = 0;
		for (size_t i = 0; i < job->nr_points; i++)
			found |= !strcmp(job->points[i].id, job->metric_point);
		if (!found) {
			old = kp_push(c, "metric_point");
			kp_fail(c,
				"no matrix point '%s' (points are named like "
				"'%s')",
				job->metric_point, job->points[0].id);
			kp_pop(c, old);
			return -1;
		}
	}
	return 0;
}

int job_parse_json(struct job *job, json_t *root, const char *origin)
{
	struct keypath c = {origin, STRBUF_INIT};
	int ret = -1;

	job_defaults(job);
	job->path = xstrdup(origin);
	/* In this order: the metric names the workload's figures. */
	if (!parse_top(&c, root, origin, job) &&
	    !parse_sections(&c, root, job) &&
	    !parse_topology_workload(&c, root, job) &&
	    !parse_metric(&c, root, job) && !parse_table_point(&c, root, job))
		ret = 0;
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
