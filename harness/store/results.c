/*
 * results.c: a boot into the results store (layout in results.h): the
 * spec hash its samples are filed under, its documents, and the boot
 * number it takes. Documents are fio-style: one per sample, with one
 * object per metric ("read", "write", "rewrite") holding bytes and
 * nanoseconds, so a bonnie sample's three columns live together. The
 * machine they name is results_machine.c's; reading them back as evidence
 * is results_load.c's.
 */
#include "results.h"
#include "block_counters.h"
#include "guest_spec.h"
#include "results_priv.h"
#include "version.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	guest_spec_render_topology(job, pt->topo, &sb);
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
		/*
		 * null_blk's module parameters: its request cap (127.5 KiB
		 * before 2026-12-06, whose figures must not pool with these)
		 * and whether it keeps the data.
		 */
		if (bus_has(d->bus, BUS_GUEST))
			strbuf_addf(&sb, " nullb_max_kb=%u memory_backed=%d",
				    job_nullb_max_kb(t), d->memory_backed);
		strbuf_addch(&sb, '\n');
	}
	guest_spec_render_point_nosamples(job, pt, &sb);
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
	json_t *block = block_counters_derive(s->block, s->io_bytes);
	if (block)
		json_object_set_new(m, PROTO_COUNTERS_KEY, block);
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
			ret = mkdir_below(b->job->results, pdir, 0755);
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
	if (mkdir_below(job->results, dir, 0755))
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
		"{s:s, s:s, s:s, s:s, s:s, s:I, s:s, s:s?, s:b, s:o, s:s, s:s, "
		"s:s}",
		"job", job->name, "commit", b->commit ? b->commit : "",
		"commit_abbrev", c12, "build_key",
		b->build_key ? b->build_key : "", "topology", topo, "boot",
		(json_int_t)b->boot_id, "outcome", b->outcome ? b->outcome : "",
		"kernel", r ? r->kernel : NULL, "complete", complete,
		"machine", results_machine_json(b->machine), "started",
		b->started ? b->started : now, "ended",
		b->ended ? b->ended : now, "iobisect", version_string());
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

/* ------------------------------------------------------------------ */
/* Boot numbers. */

static unsigned next_boot_id(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	long max = 0;

	if (!d)
		return 1;
	while ((e = readdir(d))) {
		/* ".boot-12": a number reserved by a boot still running. */
		long n = results_boot_number(e->d_name + (e->d_name[0] == '.'));
		if (n > max)
			max = n;
		if (e->d_name[0] == '.' || n >= 0)
			continue;
		/* A point folder: samples of a boot whose boot file is lost. */
		char *sub = xstrfmt("%s/%s", dir, e->d_name);
		DIR *sd = opendir(sub);
		struct dirent *se;
		while (sd && (se = readdir(sd))) {
			long m = results_boot_number(se->d_name);
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

	if (mkdir_below(root, dir, 0755))
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
		/* A boot that never happened gave its folders back at once
		 * (results_release_boot_id): made again. */
		if (rc && e == ENOENT && !mkdir_below(root, dir, 0755)) {
			rc = mkdir(mark, 0755);
			e = errno;
		}
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

void results_release_boot_id(unsigned id, const char *root, const char *job,
			     const char *commit, const char *topology,
			     const char *engine)
{
	char *dir = results_boot_dir(root, job, commit, topology, engine);
	char *mark = xstrfmt("%s/.boot-%u", dir, id);
	char *commit_dir = results_commit_dir(root, job, commit);

	/* rmdir: a folder that holds anything, another boot's, stays. */
	if (!rmdir(mark) && !rmdir(dir))
		rmdir(commit_dir);
	free(commit_dir);
	free(mark);
	free(dir);
}
