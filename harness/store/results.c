/*
 * results.c: the results store (layout in results.h). Documents are
 * fio-style: one per sample, with one object per metric ("read", "write",
 * "rewrite") holding bytes and nanoseconds, so a bonnie sample's three
 * columns live together. The loader is where the never-pool rule lives:
 * a document is evidence only next to documents with the same build key,
 * spec hash and machine, and only as part of its boot's median.
 */
#include "results.h"
#include "block_counters.h"
#include "guest_spec.h"
#include "metric.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------ */
/* The machine. */

static char *cpu_model(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *model = NULL;
	FILE *f = fopen("/proc/cpuinfo", "r");
	char *line = NULL;
	size_t cap = 0;
	if (!f)
		return xstrdup("unknown");
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, "model name", 10))
			continue;
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		strbuf_addstr(&sb, colon + 1);
		strbuf_trim(&sb);
		model = strbuf_detach(&sb);
		break;
	}
	free(line);
	fclose(f);
	return model ? model : xstrdup("unknown");
}

void results_machine_fill(struct machine_id *m, const struct job *job,
			  int topo, const char *accel,
			  const char *qemu_version, const struct clock *clock)
{
	struct strbuf cache = STRBUF_INIT;
	const struct topology *t = &job->topologies[topo];
	int same = 1;

	memset(m, 0, sizeof(*m));
	m->accel = xstrdup(accel ? accel : "unknown");
	m->qemu_version = xstrdup(qemu_version ? qemu_version : "unknown");
	m->cpu_model = cpu_model();
	m->cpus = job->machine.cpus;
	m->memory_mb = job->machine.memory_mb;
	m->append = xstrdup(job->machine.append ? job->machine.append : "");
	if (clock)
		m->clock = *clock;
	for (size_t i = 1; i < t->nr_disks; i++)
		same &= !strcmp(job_disk_cache(&t->disks[i]),
				job_disk_cache(&t->disks[0]));
	if (same && t->nr_disks) {
		strbuf_addstr(&cache, job_disk_cache(&t->disks[0]));
	} else {
		for (size_t i = 0; i < t->nr_disks; i++)
			strbuf_addf(&cache, "%s%s:%s", i ? "," : "",
				    t->disks[i].name, job_disk_cache(&t->disks[i]));
	}
	m->cache = strbuf_detach(&cache);
}

void results_machine_release(struct machine_id *m)
{
	free(m->accel);
	free(m->qemu_version);
	free(m->cpu_model);
	free(m->cache);
	free(m->append);
	memset(m, 0, sizeof(*m));
}

static int str_eq(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

int results_machine_equal(const struct machine_id *a,
			  const struct machine_id *b)
{
	return str_eq(a->accel, b->accel) &&
	       str_eq(a->qemu_version, b->qemu_version) &&
	       str_eq(a->cpu_model, b->cpu_model) && a->cpus == b->cpus &&
	       a->memory_mb == b->memory_mb && str_eq(a->cache, b->cache) &&
	       str_eq(a->append, b->append) &&
	       a->clock.kind == b->clock.kind &&
	       (a->clock.kind != CLOCK_VIRTUAL ||
		a->clock.shift == b->clock.shift);
}

static json_t *machine_json(const struct machine_id *m)
{
	json_t *o = json_pack(
		"{s:s, s:s, s:s, s:i, s:i, s:s, s:s, s:s}", "accel",
		m->accel ? m->accel : "", "qemu_version",
		m->qemu_version ? m->qemu_version : "", "cpu_model",
		m->cpu_model ? m->cpu_model : "", "cpus", m->cpus, "memory_mb",
		m->memory_mb, "cache", m->cache ? m->cache : "", "append",
		m->append ? m->append : "", "clock", clock_name(m->clock.kind));
	if (o && m->clock.kind == CLOCK_VIRTUAL)
		json_object_set_new(o, "icount_shift",
				    json_integer(m->clock.shift));
	return o;
}

int results_clock_from_json(json_t *machine, struct clock *out)
{
	json_t *k = json_object_get(machine, "clock");
	json_t *s = json_object_get(machine, "icount_shift");

	out->kind = CLOCK_WALL;
	out->shift = 0;
	/* Written before clocks were recorded: the host's clock timed it. */
	if (!k)
		return 0;
	if (!json_is_string(k))
		return -1;
	if (!strcmp(json_string_value(k), "wall"))
		return 0;
	if (strcmp(json_string_value(k), "virtual") || !json_is_integer(s) ||
	    json_integer_value(s) < 0 ||
	    json_integer_value(s) > CLOCK_ICOUNT_SHIFT_MAX)
		return -1;
	out->kind = CLOCK_VIRTUAL;
	out->shift = (int)json_integer_value(s);
	return 0;
}

/* Read a document's machine; fields that are missing stay empty. */
static void machine_from_json(json_t *o, struct machine_id *m)
{
	const char *keys[] = { "accel", "qemu_version", "cpu_model", "cache",
			       "append" };
	char **dst[] = { &m->accel, &m->qemu_version, &m->cpu_model, &m->cache,
			 &m->append };
	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		json_t *v = json_object_get(o, keys[i]);
		*dst[i] = xstrdup(json_is_string(v) ? json_string_value(v) : "");
	}
	m->cpus = (int)json_integer_value(json_object_get(o, "cpus"));
	m->memory_mb = (int)json_integer_value(json_object_get(o, "memory_mb"));
	/* doc_check refused a clock that does not read. */
	results_clock_from_json(o, &m->clock);
}

/* ------------------------------------------------------------------ */
/* The spec hash. */

void results_spec_hash(const struct job *job, const struct point *pt,
		       char out[41])
{
	const struct topology *t = &job->topologies[pt->topo];
	struct strbuf sb = STRBUF_INIT;

	/*
	 * The spec's lines say what the guest builds and runs; how QEMU
	 * emulates each disk (backing, latency, limits, cache) is not in the
	 * spec but shapes every number, so it is hashed too.
	 */
	spec_render_topology(job, pt->topo, &sb);
	for (size_t i = 0; i < t->nr_disks; i++) {
		const struct disk_spec *d = &t->disks[i];
		strbuf_addf(
			&sb,
			"qemu-disk name=%s backing=%s path=%s latency_ns=%llu "
			"bps_max=%llu iops_max=%llu readonly=%d cache=%s "
			"max_sectors_kb=%u",
			d->name, job_backing_names[d->backing],
			d->path ? d->path : "",
			(unsigned long long)d->latency_ns,
			(unsigned long long)d->bps_max,
			(unsigned long long)d->iops_max, d->readonly,
			job_disk_cache(d), d->max_sectors_kb);
		/*
		 * Only when set, so a disk without it keeps the hash its
		 * stored results were filed under.
		 */
		if (d->write_latency_ns)
			strbuf_addf(&sb, " write_latency_ns=%llu",
				    (unsigned long long)d->write_latency_ns);
		strbuf_addch(&sb, '\n');
	}
	spec_render_point_nosamples(job, pt, &sb);
	hash_hex(sb.buf, sb.len, out);
	strbuf_release(&sb);
}

/* ------------------------------------------------------------------ */
/* Storing a boot. */

static int write_json(const char *path, json_t *doc)
{
	char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	int ret;
	if (!text)
		return error("cannot serialise '%s'", path);
	size_t n = strlen(text);
	text = xrealloc(text, n + 2);
	text[n] = '\n';
	text[n + 1] = '\0';
	ret = write_file_atomic(path, text, n + 1);
	free(text);
	return ret;
}

static const char *topo_engine(const struct job *job, int topo)
{
	for (size_t i = 0; i < job->nr_points; i++)
		if (job->points[i].topo == topo)
			return job->points[i].engine;
	return "none";
}

static json_t *metric_json(const struct proto_sample *s)
{
	json_t *m = json_pack(
		"{s:I, s:I, s:I, s:I, s:I, s:f, s:b}", "io_bytes",
		(json_int_t)s->io_bytes, "runtime_ns",
		(json_int_t)s->runtime_ns, "bw_bytes", (json_int_t)s->bw_bytes,
		"usr_ns", (json_int_t)s->usr_ns, "sys_ns",
		(json_int_t)s->sys_ns, "cpu_pct", s->cpu_pct, "verified",
		s->verified);
	/*
	 * Inside the metric, as a bonnie sample's three phases each have
	 * their own; documents without it (older) load as they did.
	 */
	json_t *block = counters_derive(s->block, s->io_bytes);
	if (block)
		json_object_set_new(m, COUNTERS_KEY, block);
	/* Beside the bytes, under fio's names: "read.iops" is a metric. */
	if (s->fio)
		json_object_update_missing(m, s->fio);
	return m;
}

static json_t *point_keys_json(const struct point *pt)
{
	json_t *o = json_object();
	for (size_t i = 0; i < pt->keys.nr; i++) {
		const char *eq = strchr(pt->keys.v[i], '=');
		char *k = xstrndup(pt->keys.v[i], (size_t)(eq - pt->keys.v[i]));
		json_object_set_new(o, k, json_string(eq + 1));
		free(k);
	}
	return o;
}

static int store_samples(const struct results_boot *b, const char *dir,
			 json_t *common)
{
	const struct proto_report *r = b->report;
	const struct job *job = b->job;
	int ret = 0;

	for (size_t i = 0; i < job->nr_points && !ret; i++) {
		const struct point *pt = &job->points[i];
		char hash[41];
		if (pt->topo != b->topo)
			continue;
		results_spec_hash(job, pt, hash);
		/* Every index of this point, each with its metrics. */
		for (size_t s = 0; s < r->nr_samples && !ret; s++) {
			const struct proto_sample *a = &r->samples[s];
			int first = 1;
			if (a->warmup || strcmp(a->point, pt->id))
				continue;
			for (size_t q = 0; q < s; q++)
				if (!r->samples[q].warmup &&
				    r->samples[q].index == a->index &&
				    !strcmp(r->samples[q].point, pt->id))
					first = 0;
			if (!first)
				continue;
			json_t *doc = json_deep_copy(common);
			json_object_set_new(doc, "point", json_string(pt->id));
			json_object_set_new(doc, "index",
					    json_integer(a->index));
			json_object_set_new(doc, "spec_hash", json_string(hash));
			json_object_set_new(doc, "engine",
					    json_string(pt->engine));
			json_object_set_new(doc, "target",
					    json_string(pt->target));
			json_object_set_new(doc, "point_keys",
					    point_keys_json(pt));
			json_object_set_new(doc, "samples_per_boot",
					    json_integer(job->samples));
			json_object_set_new(doc, "warmups_per_point",
					    json_integer(job->warmup));
			for (size_t q = s; q < r->nr_samples; q++) {
				const struct proto_sample *c = &r->samples[q];
				if (!c->warmup && c->index == a->index &&
				    !strcmp(c->point, pt->id))
					json_object_set_new(doc, c->metric,
							    metric_json(c));
			}
			char *pdir = xstrfmt("%s/%s", dir, pt->id);
			char *path = xstrfmt("%s/boot-%u-sample-%d.json", pdir,
					     b->boot_id, a->index);
			ret = mkdir_p(pdir, 0755);
			if (!ret)
				ret = write_json(path, doc);
			free(path);
			free(pdir);
			json_decref(doc);
		}
	}
	return ret;
}

int results_store_boot(const struct results_boot *b)
{
	const struct job *job = b->job;
	const struct proto_report *r = b->report;
	const char *topo, *engine;
	char now[32], c12[13];
	char *dir, *path = NULL;
	json_t *common = NULL, *boot = NULL, *errs;
	int ret = -1, complete;

	if (b->topo < 0 || (size_t)b->topo >= job->nr_topologies)
		return error("no topology %d in job '%s'", b->topo, job->name);
	if (!b->machine)
		return error("no machine identity for a boot of job '%s'",
			     job->name);
	topo = job->topologies[b->topo].name;
	engine = topo_engine(job, b->topo);
	dir = results_boot_dir(job->results, job->name, b->commit, topo,
			       engine);
	if (mkdir_p(dir, 0755))
		goto out;
	utc_timestamp(now, sizeof(now));
	results_commit_abbrev(b->commit, c12);
	complete = r && proto_report_complete(r) &&
		   (!b->outcome || !strcmp(b->outcome, "ok"));

	free(path);
	path = xstrfmt("%s/boot-%u.console.log", dir, b->boot_id);
	if (write_file_atomic(path, b->console ? b->console : "",
			      b->console ? b->console_len : 0))
		goto out;

	common = json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:I, s:s, s:s?, s:b, s:o, s:s, s:s}",
		"job", job->name, "commit", b->commit ? b->commit : "",
		"commit_abbrev", c12, "build_key",
		b->build_key ? b->build_key : "", "topology", topo, "boot",
		(json_int_t)b->boot_id, "outcome", b->outcome ? b->outcome : "",
		"kernel", r ? r->kernel : NULL, "complete", complete,
		"machine", machine_json(b->machine), "started",
		b->started ? b->started : now, "ended",
		b->ended ? b->ended : now);
	if (!common) {
		error("cannot build the result document for '%s'", dir);
		goto out;
	}

	boot = json_deep_copy(common);
	json_object_set_new(boot, "engine", json_string(engine));
	json_object_set_new(boot, "boot_ns", json_integer((json_int_t)b->boot_ns));
	json_object_set_new(boot, "first_sample_ns",
			    json_integer((json_int_t)b->first_sample_ns));
	json_object_set_new(boot, "console", json_string(strrchr(path, '/') + 1));
	if (r) {
		errs = json_array();
		for (size_t i = 0; i < r->nr_errors; i++)
			json_array_append_new(
				errs, json_pack("{s:s, s:s}", "stage",
						r->errors[i].stage, "message",
						r->errors[i].message));
		json_object_set_new(boot, "errors", errs);
		json_object_set(boot, "hello", r->hello ? r->hello : json_null());
		json_object_set(boot, "topology_read_back",
				r->topology ? r->topology : json_null());
		json_object_set(boot, "points", r->points);
		json_object_set_new(boot, "frames", json_integer(r->nr_frames));
		json_object_set_new(boot, "frames_rejected",
				    json_integer(r->nr_rejected));
		json_object_set_new(boot, "noise_lines",
				    json_integer(r->nr_noise));
		json_t *rej = json_array();
		for (size_t i = 0; i < r->rejects.nr; i++)
			json_array_append_new(rej, json_string(r->rejects.v[i]));
		json_object_set_new(boot, "rejects", rej);
		json_object_set_new(boot, "done", json_boolean(r->done));
		json_object_set_new(boot, "samples",
				    json_integer((json_int_t)r->nr_samples));
	}
	if (r && store_samples(b, dir, common))
		goto out;
	/* The boot document last: its presence says the boot is stored. */
	free(path);
	path = xstrfmt("%s/boot-%u.json", dir, b->boot_id);
	ret = write_json(path, boot);
out:
	json_decref(common);
	json_decref(boot);
	free(path);
	free(dir);
	return ret;
}

/* "boot-12.json", "boot-12.console.log", "boot-12-sample-0.json" -> 12. */
static long boot_number(const char *name)
{
	char *end;
	if (strncmp(name, "boot-", 5))
		return -1;
	long n = strtol(name + 5, &end, 10);
	if (end == name + 5 || n < 0 ||
	    (*end != '.' && strncmp(end, "-sample-", 8)))
		return -1;
	return n;
}

static unsigned next_boot_id(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	long max = 0;

	if (!d)
		return 1;
	while ((e = readdir(d))) {
		/* ".boot-12": a number reserved by a boot still running. */
		long n = boot_number(e->d_name + (e->d_name[0] == '.'));
		if (n > max)
			max = n;
		if (e->d_name[0] == '.' || n >= 0)
			continue;
		/* A point folder: samples of a boot whose boot file is lost. */
		char *sub = xstrfmt("%s/%s", dir, e->d_name);
		DIR *sd = opendir(sub);
		struct dirent *se;
		while (sd && (se = readdir(sd))) {
			long m = boot_number(se->d_name);
			if (m > max)
				max = m;
		}
		if (sd)
			closedir(sd);
		free(sub);
	}
	closedir(d);
	return (unsigned)max + 1;
}

int results_reserve_boot_id(unsigned *out, const char *root,
			    const char *job, const char *commit,
			    const char *topology, const char *engine)
{
	char *dir = results_boot_dir(root, job, commit, topology, engine);
	int ret = -1;

	if (mkdir_p(dir, 0755))
		goto out;
	/*
	 * mkdir is the claim: of two harnesses that found the same highest
	 * number, one makes ".boot-N" and the other goes on to N+1, so no
	 * boot's files replace another's.
	 */
	for (unsigned id = next_boot_id(dir);; id++) {
		char *mark = xstrfmt("%s/.boot-%u", dir, id);
		int rc = mkdir(mark, 0755);
		int e = errno;
		free(mark);
		if (!rc) {
			*out = id;
			ret = 0;
			break;
		}
		if (e != EEXIST || id == UINT_MAX) {
			error("cannot reserve boot %u in '%s': %s", id, dir,
			      strerror(e));
			break;
		}
	}
out:
	free(dir);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Loading evidence. */

void sample_set_release(struct sample_set *s)
{
	free(s->values);
	free(s->cpu_pct);
	free(s->boots);
	memset(s, 0, sizeof(*s));
}

static const char *json_kind(json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "a list";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "?";
}

/* A byte rate past 1 PB/s is not a measurement of a QEMU disk. */
#define RESULTS_MAX_BW 1000000000000000LL

/* Keys that are objects without being metrics. */
static int not_a_metric(const char *key)
{
	return !strcmp(key, "machine") || !strcmp(key, "point_keys");
}

/*
 * What results_store_boot() writes, checked before a document can be
 * evidence: a loader that skipped a wrongly typed metric in silence, or
 * averaged bw_bytes -5, would pool what nobody measured. Says what is
 * wrong in `why`.
 */
static int doc_check(json_t *doc, struct strbuf *why)
{
	static const char *const strings[] = { "job", "commit", "build_key",
					       "spec_hash", "topology",
					       "engine", "point", "started" };
	static const char *const counts[] = { "io_bytes", "runtime_ns",
					      "usr_ns", "sys_ns" };
	const char *key;
	json_t *v;

	for (size_t i = 0; i < ARRAY_SIZE(strings); i++) {
		v = json_object_get(doc, strings[i]);
		if (v && !json_is_string(v)) {
			strbuf_addf(why, "'%s' is %s, not a string", strings[i],
				    json_kind(v));
			return -1;
		}
	}
	v = json_object_get(doc, "complete");
	if (v && !json_is_boolean(v)) {
		strbuf_addf(why, "'complete' is %s, not true or false",
			    json_kind(v));
		return -1;
	}
	v = json_object_get(doc, "machine");
	if (v && !json_is_object(v)) {
		strbuf_addf(why, "'machine' is %s, not an object",
			    json_kind(v));
		return -1;
	}
	struct clock clock;
	if (v && results_clock_from_json(v, &clock)) {
		strbuf_addf(why, "machine.clock is not \"wall\" or \"virtual\" "
				 "with an icount_shift of 0 to %d",
			    CLOCK_ICOUNT_SHIFT_MAX);
		return -1;
	}
	json_object_foreach(doc, key, v) {
		int named = !strcmp(key, "read") || !strcmp(key, "write") ||
			    !strcmp(key, "rewrite") || !strcmp(key, "trim");
		json_t *bw, *x;
		if (named && !json_is_object(v)) {
			strbuf_addf(why, "'%s' is %s, not a metric object", key,
				    json_kind(v));
			return -1;
		}
		if (!json_is_object(v) || not_a_metric(key))
			continue;
		bw = json_object_get(v, "bw_bytes");
		if (!json_is_integer(bw)) {
			strbuf_addf(why, "%s.bw_bytes is %s, not an integer",
				    key, bw ? json_kind(bw) : "missing");
			return -1;
		}
		if (json_integer_value(bw) < 0 ||
		    json_integer_value(bw) > RESULTS_MAX_BW) {
			strbuf_addf(why, "%s.bw_bytes is %lld, not a byte rate",
				    key, (long long)json_integer_value(bw));
			return -1;
		}
		x = json_object_get(v, "verified");
		if (x && !json_is_boolean(x)) {
			strbuf_addf(why, "%s.verified is %s, not true or false",
				    key, json_kind(x));
			return -1;
		}
		x = json_object_get(v, "cpu_pct");
		if (x && (!json_is_number(x) ||
			  !isfinite(json_number_value(x)) ||
			  json_number_value(x) < 0)) {
			strbuf_addf(why, "%s.cpu_pct is not a percentage", key);
			return -1;
		}
		for (size_t i = 0; i < ARRAY_SIZE(counts); i++) {
			x = json_object_get(v, counts[i]);
			if (x && (!json_is_integer(x) ||
				  json_integer_value(x) < 0)) {
				strbuf_addf(why, "%s.%s is not a count", key,
					    counts[i]);
				return -1;
			}
		}
	}
	return 0;
}

json_t *results_doc_read(const char *path)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf *prev = error_capture(&why);
	json_error_t jerr;
	json_t *doc = NULL;
	int rc = read_file_nofollow(path, &text, RESULTS_DOC_MAX);

	error_capture(prev);
	if (rc) {
		/* One line per bad document: the read's own message. */
		warning("ignoring a sample document: %s", why.buf);
		goto out;
	}
	doc = json_loadb(text.buf, text.len, 0, &jerr);
	if (!doc)
		warning("ignoring '%s': %s (line %d)", path, jerr.text,
			jerr.line);
	else if (!json_is_object(doc)) {
		warning("ignoring '%s': not a JSON object", path);
		json_decref(doc);
		doc = NULL;
	} else if (doc_check(doc, &why)) {
		warning("ignoring '%s': %s", path, why.buf);
		json_decref(doc);
		doc = NULL;
	}
out:
	strbuf_release(&text);
	strbuf_release(&why);
	return doc;
}

void sample_set_push(struct sample_set *s, unsigned boot, double value,
		     double cpu_pct)
{
	/* Each array grown on its own: sample_set_copy_values leaves
	   cpu_pct and boots unset. A set holds a few dozen boots. */
	s->values = xrealloc(s->values, (s->nr + 1) * sizeof(*s->values));
	s->cpu_pct = xrealloc(s->cpu_pct, (s->nr + 1) * sizeof(*s->cpu_pct));
	s->boots = xrealloc(s->boots, (s->nr + 1) * sizeof(*s->boots));
	s->alloc = s->nr + 1;
	s->values[s->nr] = value;
	s->cpu_pct[s->nr] = cpu_pct;
	s->boots[s->nr] = boot;
	s->nr++;
	s->nr_samples++;
}

void sample_set_copy_values(struct sample_set *out, const double *values,
			    size_t n)
{
	sample_set_release(out);
	out->nr = out->alloc = n;
	out->values = xmalloc((n + 1) * sizeof(*out->values));
	if (n)
		memcpy(out->values, values, n * sizeof(*out->values));
	out->nr_samples = n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The samples of one boot (one folder, one boot number). */
struct boot_acc {
	size_t folder;
	long boot;
	double *bw, *cpu;
	size_t nr, alloc;
};

static int doc_matches(json_t *doc, const char *build_key,
		       const char *spec_hash, const struct machine_id *m,
		       const char *metric, double *bw, double *cpu)
{
	struct machine_id dm;
	json_t *met = metric_object(doc, metric);
	const char *bk = json_string_value(json_object_get(doc, "build_key"));
	const char *sh = json_string_value(json_object_get(doc, "spec_hash"));
	int ok;

	if (!bk || !sh || strcmp(bk, build_key) || strcmp(sh, spec_hash) ||
	    !json_is_true(json_object_get(doc, "complete")) ||
	    !json_is_object(met) ||
	    !json_is_true(json_object_get(met, "verified")) ||
	    !json_is_integer(json_object_get(met, "bw_bytes")))
		return 0;
	machine_from_json(json_object_get(doc, "machine"), &dm);
	ok = results_machine_equal(&dm, m);
	results_machine_release(&dm);
	if (!ok)
		return 0;
	if (metric_value(met, metric, bw))
		return 0;
	*cpu = json_number_value(json_object_get(met, "cpu_pct"));
	return 1;
}

static int cmp_boot(const void *a, const void *b)
{
	const struct boot_acc *x = a, *y = b;
	if (x->boot != y->boot)
		return (x->boot > y->boot) - (x->boot < y->boot);
	return (x->folder > y->folder) - (x->folder < y->folder);
}

int results_load_samples(const char *root, const char *job,
			 const char *commit, const char *build_key,
			 const char *spec_hash, const struct machine_id *m,
			 const char *point, const char *metric,
			 struct sample_set *out)
{
	char c12[13];
	char *cdir;
	DIR *d;
	struct dirent *e;
	struct boot_acc *acc = NULL;
	size_t nr_acc = 0, alloc_acc = 0, folder = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	results_commit_abbrev(commit, c12);
	cdir = results_commit_dir(root, job, commit);
	d = opendir_nofollow(cdir);
	if (!d) {
		int e = errno;
		free(cdir);
		if (e == ENOENT)
			return 0;
		return error("cannot open '%s/%s/%s': %s", root, job, c12,
			     strerror(e));
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *pdir = xstrfmt("%s/%s/%s", cdir, e->d_name, point);
		DIR *pd = opendir_nofollow(pdir);
		struct dirent *f;
		folder++;
		while (pd && (f = readdir(pd))) {
			long boot = boot_number(f->d_name);
			size_t n = strlen(f->d_name);
			if (boot < 0 || n < 5 || strcmp(f->d_name + n - 5, ".json"))
				continue;
			char *path = xstrfmt("%s/%s", pdir, f->d_name);
			json_t *doc = results_doc_read(path);
			double bw, cpu;
			if (!doc) {
				out->nr_ignored++;
			} else if (!doc_matches(doc, build_key, spec_hash, m,
						metric, &bw, &cpu)) {
				out->nr_ignored++;
			} else {
				struct boot_acc *a = NULL;
				for (size_t i = 0; i < nr_acc; i++)
					if (acc[i].folder == folder &&
					    acc[i].boot == boot)
						a = &acc[i];
				if (!a) {
					ALLOC_GROW(acc, nr_acc + 1, alloc_acc);
					a = &acc[nr_acc++];
					memset(a, 0, sizeof(*a));
					a->folder = folder;
					a->boot = boot;
				}
				size_t cap = a->alloc;
				ALLOC_GROW(a->bw, a->nr + 1, a->alloc);
				if (cap != a->alloc)
					a->cpu = xrealloc(a->cpu, a->alloc *
								  sizeof(double));
				a->bw[a->nr] = bw;
				a->cpu[a->nr++] = cpu;
				out->nr_samples++;
			}
			json_decref(doc);
			free(path);
		}
		if (pd)
			closedir(pd);
		free(pdir);
	}
	closedir(d);
	free(cdir);

	if (nr_acc)
		qsort(acc, nr_acc, sizeof(*acc), cmp_boot);
	if (!nr_acc) {
		free(acc);
		return ret;
	}
	out->alloc = nr_acc;
	out->values = xcalloc(nr_acc, sizeof(double));
	out->cpu_pct = xcalloc(nr_acc, sizeof(double));
	out->boots = xcalloc(nr_acc, sizeof(unsigned));
	for (size_t i = 0; i < nr_acc; i++) {
		out->values[i] = median(acc[i].bw, acc[i].nr);
		out->cpu_pct[i] = median(acc[i].cpu, acc[i].nr);
		out->boots[i] = (unsigned)acc[i].boot;
		out->nr++;
		free(acc[i].bw);
		free(acc[i].cpu);
	}
	free(acc);
	return ret;
}
