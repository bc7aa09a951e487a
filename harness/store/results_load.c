/*
 * results_load.c: stored sample documents read back as evidence
 * (results.h): each checked for the types results_store_boot() writes,
 * then reduced to one value per boot. This is where the never-pool rule
 * lives: a document is evidence only next to documents with the same
 * build key, spec hash and machine, and only as part of its boot's median.
 */
#include "results.h"
#include "json_num.h"
#include "metric.h"
#include "results_priv.h"
#include "sample_check.h"
#include "store_file.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void sample_set_release(struct sample_set *s)
{
	free(s->values);
	free(s->cpu_pct);
	free(s->boots);
	memset(s, 0, sizeof(*s));
}

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
		int named = sample_metric_known(key);
		json_t *bw;
		if (named && !json_is_object(v)) {
			strbuf_addf(why, "'%s' is %s, not a metric object", key,
				    json_kind(v));
			return -1;
		}
		if (!json_is_object(v) || not_a_metric(key))
			continue;
		/* The rule a sample frame was read by (sample_check.h). */
		bw = json_object_get(v, "bw_bytes");
		if (!json_is_integer(bw)) {
			strbuf_addf(why, "%s.bw_bytes is %s, not an integer",
				    key, json_kind(bw));
			return -1;
		}
		struct strbuf sub = STRBUF_INIT;
		int bad = sample_figures_check(v, &sub);
		if (bad)
			strbuf_addf(why, "%s.%s", key, sub.buf);
		strbuf_release(&sub);
		if (bad)
			return -1;
	}
	return 0;
}

/*
 * A document refused once is said once per process: evidence is loaded
 * again after every boot, and a bisection printed the same 27 warnings
 * after each of its 17 boots.
 */
static int said_before(const char *path)
{
	static struct strvec said = STRVEC_INIT;

	for (size_t i = 0; i < said.nr; i++)
		if (!strcmp(said.v[i], path))
			return 1;
	strvec_push(&said, path);
	return 0;
}

json_t *results_doc_read(const char *path)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf *prev = error_capture(&why);
	json_error_t jerr;
	json_t *doc = NULL;
	int rc = store_file_read(path, &text, RESULTS_DOC_MAX);

	error_capture(prev);
	if (rc) {
		/* One line per bad document: the read's own message. */
		if (!said_before(path))
			warning("ignoring a sample document: %s", why.buf);
		goto out;
	}
	doc = json_loadb(text.buf, text.len, 0, &jerr);
	if (!doc) {
		if (!said_before(path))
			warning("ignoring '%s': %s (line %d)", path,
				jerr.text, jerr.line);
	} else if (!json_is_object(doc)) {
		if (!said_before(path))
			warning("ignoring '%s': not a JSON object", path);
		json_decref(doc);
		doc = NULL;
	} else if (doc_check(doc, &why)) {
		if (!said_before(path))
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

/* A copy of n elements of `v`, or NULL for none kept. */
static void *copy_array(const void *v, size_t n, size_t size)
{
	void *out;

	if (!v)
		return NULL;
	out = xmalloc((n + 1) * size);
	if (n)
		memcpy(out, v, n * size);
	return out;
}

void sample_set_copy(struct sample_set *out, const struct sample_set *from)
{
	sample_set_copy_values(out, from->values, from->nr);
	out->cpu_pct = copy_array(from->cpu_pct, from->nr, sizeof(double));
	out->boots = copy_array(from->boots, from->nr, sizeof(unsigned));
	out->nr_samples = from->nr_samples;
	out->nr_ignored = from->nr_ignored;
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
	results_machine_from_json(json_object_get(doc, "machine"), &dm);
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
			long boot = results_boot_number(f->d_name);
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
