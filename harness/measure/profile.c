/*
 * profile.c: a profile computed from the plugin's counts, the map and
 * the guest's report; kept as JSON beside the commit's boots
 * (profile.h). The profiled boot itself is profile_boot.c's.
 */
#include "profile.h"
#include "json_num.h"
#include "results.h"
#include "store_file.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

void profile_release(struct profile *p)
{
	free(p->label);
	for (size_t i = 0; i < p->nr; i++)
		free(p->fns[i].name);
	free(p->fns);
	memset(p, 0, sizeof(*p));
}

static uint64_t json_u64(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) && json_integer_value(v) > 0
		       ? (uint64_t)json_integer_value(v)
		       : 0;
}

/* Reads and writes of the topology's disks in one sample's block_v1. */
static uint64_t disk_requests(json_t *block)
{
	json_t *devs = json_object_get(block, "devices"), *d;
	size_t i;
	uint64_t n = 0;
	json_array_foreach(devs, i, d)
	{
		const char *kind = json_string_value(json_object_get(d, "kind"));
		json_t *st = json_object_get(d, "stat");
		/* The requests the driver saw: md and dm pass theirs on. */
		if (kind && !strcmp(kind, "disk"))
			n = u64_add_sat(n, u64_add_sat(json_u64(st, "reads"),
						       json_u64(st, "writes")));
	}
	return n;
}

int profile_compute(struct profile *out, const struct tbcount *tc,
		    const struct ksyms *ks, const struct proto_report *rep)
{
	struct func_count *f;
	size_t nr;

	out->kernel_insns = tc->kernel_insns;
	out->user_insns = tc->user_insns;
	out->windows = tc->windows;
	for (size_t i = 0; i < rep->nr_samples; i++) {
		const struct proto_sample *s = &rep->samples[i];
		if (s->warmup)
			continue;
		out->samples++;
		/* Past 2^64 they stay at it; profile_save says so. */
		out->io_bytes = u64_add_sat(out->io_bytes, s->io_bytes);
		out->runtime_ns = u64_add_sat(out->runtime_ns, s->runtime_ns);
		out->requests =
			u64_add_sat(out->requests, disk_requests(s->block));
	}
	if (!tc->windows)
		return error("the guest marked no window for the profile (a "
			     "guest program older than profiles?)");
	ksyms_fold(ks, tc->counts, tc->nr, &f, &nr, &out->unknown_insns);
	out->fns = xcalloc(nr ? nr : 1, sizeof(*out->fns));
	out->alloc = nr;
	for (size_t i = 0; i < nr; i++)
		out->fns[out->nr++] =
			(struct profile_fn){xstrdup(f[i].name), f[i].insns};
	free(f);
	return 0;
}

double profile_per_mb(const struct profile *p, uint64_t insns)
{
	return p->io_bytes ? (double)insns * 1e6 / (double)p->io_bytes : 0;
}

double profile_per_request(const struct profile *p, uint64_t insns)
{
	return p->requests ? (double)insns / (double)p->requests : 0;
}

/* A count as JSON keeps it: never past JSON_COUNT_MAX, never negative. */
static json_int_t count_json(uint64_t v)
{
	return (json_int_t)(v > JSON_COUNT_MAX ? JSON_COUNT_MAX : v);
}

json_t *profile_to_json(const struct profile *p)
{
	json_t *fns = json_array();
	for (size_t i = 0; i < p->nr; i++)
		json_array_append_new(
			fns, json_pack("{s:s, s:I}", "name", p->fns[i].name,
				       "insns", count_json(p->fns[i].insns)));
	return json_pack(
		"{s:s, s:s, s:s?, s:I, s:I, s:I, s:I, s:I, s:I, s:i, s:i, "
		"s:f, s:o}",
		"type", "profile_v1", "unit", PROFILE_UNIT_NOTE, "label",
		p->label, "kernel_insns", count_json(p->kernel_insns),
		"user_insns", count_json(p->user_insns), "unknown_insns",
		count_json(p->unknown_insns), "io_bytes",
		count_json(p->io_bytes), "requests", count_json(p->requests),
		"runtime_ns", count_json(p->runtime_ns), "windows",
		(int)p->windows, "samples", (int)p->samples, "wall_s",
		p->wall_s, "functions", fns);
}

/*
 * Count `key` of `o` into *out (0 when absent), at most `max`: -1 after
 * error() naming `what` and `at` (the key's place) when it is anything
 * but an integer from 0. A string or a negative insns read as 0 without
 * a word.
 */
static int count_from_json(json_t *o, const char *key, uint64_t max,
			   uint64_t *out, const char *what, const char *at)
{
	json_t *v = json_object_get(o, key);

	*out = 0;
	if (!v)
		return 0;
	if (!json_is_integer(v))
		return error("'%s': %s is %s, not a count", what, at,
			     json_kind(v));
	if (json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) > max)
		return error("'%s': %s is %" JSON_INTEGER_FORMAT
			     ", not a count",
			     what, at, json_integer_value(v));
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

int profile_from_json(struct profile *out, json_t *doc, const char *what)
{
	static const char *const keys[] = { "kernel_insns",  "user_insns",
					    "unknown_insns", "io_bytes",
					    "requests",	     "runtime_ns" };
	uint64_t *const at[] = { &out->kernel_insns,  &out->user_insns,
				 &out->unknown_insns, &out->io_bytes,
				 &out->requests,      &out->runtime_ns };
	json_t *fns = json_object_get(doc, "functions"), *f;
	const char *type = json_string_value(json_object_get(doc, "type"));
	const char *label = json_string_value(json_object_get(doc, "label"));
	uint64_t n;
	size_t i;

	profile_release(out);
	if (!type || strcmp(type, "profile_v1") || !json_is_array(fns))
		return error("'%s' is not a profile", what);
	out->label = label ? xstrdup(label) : NULL;
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (count_from_json(doc, keys[i], JSON_COUNT_MAX, at[i], what,
				    keys[i]))
			goto bad;
	if (count_from_json(doc, "windows", UINT_MAX, &n, what, "windows"))
		goto bad;
	out->windows = (unsigned)n;
	if (count_from_json(doc, "samples", UINT_MAX, &n, what, "samples"))
		goto bad;
	out->samples = (unsigned)n;
	out->wall_s = json_number_value(json_object_get(doc, "wall_s"));
	json_array_foreach(fns, i, f)
	{
		const char *name = json_string_value(json_object_get(f, "name"));
		char at[48];
		if (!name)
			continue;
		snprintf(at, sizeof(at), "functions[%zu].insns", i);
		if (!json_object_get(f, "insns")) {
			error("'%s': %s is missing", what, at);
			goto bad;
		}
		if (count_from_json(f, "insns", JSON_COUNT_MAX, &n, what, at))
			goto bad;
		ALLOC_GROW(out->fns, out->nr + 1, out->alloc);
		out->fns[out->nr++] = (struct profile_fn){ xstrdup(name), n };
	}
	return 0;
bad:
	profile_release(out);
	return -1;
}

char *profile_path(const char *root, const char *job, const char *label)
{
	char *dir = results_commit_dir(root, job, label);
	char *path = xstrfmt("%s/profile.json", dir);
	free(dir);
	return path;
}

char *profile_find(const char *job_dir, const char *rev)
{
	DIR *d = opendir(job_dir);
	struct dirent *e;
	char *found = NULL;
	size_t n = strlen(rev);
	int many = 0;

	if (!d || !n)
		goto out;
	while ((e = readdir(d))) {
		size_t m = strlen(e->d_name);
		if (e->d_name[0] == '.' ||
		    strncmp(e->d_name, rev, n < m ? n : m) || (n < m && n < 7))
			continue;
		char *path = xstrfmt("%s/%s/profile.json", job_dir, e->d_name);
		if (!store_file_exists(path)) {
			free(path);
			continue;
		}
		if (found)
			many = 1;
		free(found);
		found = path;
	}
out:
	if (d)
		closedir(d);
	if (many) {
		free(found);
		found = NULL;
	}
	return found;
}

/*
 * Where `p` holds a count a document cannot keep, in `where`: 0 when
 * nowhere (profile_to_json would cap it, as jansson would wrap it).
 */
static int count_too_big(const struct profile *p, struct strbuf *where)
{
	const char *const keys[] = { "kernel_insns",  "user_insns",
				     "unknown_insns", "io_bytes",
				     "requests",      "runtime_ns" };
	const uint64_t v[] = { p->kernel_insns,	 p->user_insns,
			       p->unknown_insns, p->io_bytes,
			       p->requests,	 p->runtime_ns };

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (v[i] > JSON_COUNT_MAX) {
			strbuf_addf(where, "%s is %llu", keys[i],
				    (unsigned long long)v[i]);
			return 1;
		}
	for (size_t i = 0; i < p->nr; i++)
		if (p->fns[i].insns > JSON_COUNT_MAX) {
			strbuf_addf(where, "functions[%zu].insns is %llu", i,
				    (unsigned long long)p->fns[i].insns);
			return 1;
		}
	return 0;
}

int profile_save(const struct profile *p, const char *path)
{
	struct strbuf where = STRBUF_INIT;
	if (count_too_big(p, &where)) {
		error("cannot write '%s': %s, past the 2^63-1 a JSON "
		      "document keeps",
		      path, where.buf);
		strbuf_release(&where);
		return -1;
	}
	json_t *doc = profile_to_json(p);
	char *text = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	int rc = text ? write_file_atomic(path, text, strlen(text))
		      : error("cannot write '%s'", path);
	free(text);
	json_decref(doc);
	return rc;
}

int profile_load(struct profile *out, const char *path)
{
	if (!store_file_exists(path))
		return 1;
	json_t *doc = store_json_read(path, STORE_PROFILE_MAX,
				      JSON_REJECT_DUPLICATES);
	if (!doc)
		return -1;
	int rc = profile_from_json(out, doc, path);
	json_decref(doc);
	return rc;
}
