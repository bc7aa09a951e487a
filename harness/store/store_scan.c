/*
 * store_scan.c: the results folder read back into series (store_scan.h).
 * Every sample document is read once into a flat list of records; the
 * records are then grouped into cells, and each cell pools only one
 * identity (build key, spec hash, machine), one median per boot. Which
 * folder is the job is store_scan_dir.c's, the commits' order
 * store_scan_order.c's, what a loaded scan is asked store_scan_query.c's.
 */
#include "store_scan.h"
#include "block_counters.h"
#include "results.h"
#include "run.h"
#include "stats.h"
#include "store_file.h"
#include "store_scan_priv.h"
#include "str_index.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* One verified metric of one sample document. */
struct record {
	size_t series, commit, identity;
	long boot;
	double bw;
	json_t *block; /* the metric's block-layer counters, or NULL */
};

struct loader {
	struct scan *s;
	struct record *recs;
	size_t nr_recs, alloc_recs;
	struct strvec identities;
	struct str_index identity_index;
	size_t alloc_commits;
	size_t ignored_docs;
};

/* A folder inside the job folder: a symbolic link would lead out of it. */
static int is_real_dir(const char *path)
{
	struct stat st;
	return !lstat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * Each commit folder is read once, and two names of one folder listing
 * differ: a new commit each time.
 */
static size_t find_or_add_commit(struct loader *l, const char *abbrev)
{
	struct scan *s = l->s;
	ALLOC_GROW(s->commits, s->nr_commits + 1, l->alloc_commits);
	struct scan_commit *c = &s->commits[s->nr_commits];
	memset(c, 0, sizeof(*c));
	results_commit_abbrev(abbrev, c->abbrev);
	c->id = xstrdup(abbrev);
	return s->nr_commits++;
}

static int same_clock(const struct clock *a, const struct clock *b)
{
	return a->kind == b->kind &&
	       (a->kind != CLOCK_VIRTUAL || a->shift == b->shift);
}

static size_t find_or_add_series(struct scan *s, const char *topo,
				 const char *engine, const char *point,
				 const char *metric, const struct clock *clock)
{
	for (size_t i = 0; i < s->nr_series; i++) {
		struct scan_series *x = &s->series[i];
		if (!strcmp(x->topology, topo) && !strcmp(x->engine, engine) &&
		    !strcmp(x->point, point) && !strcmp(x->metric, metric) &&
		    same_clock(&x->clock, clock))
			return i;
	}
	ALLOC_GROW(s->series, s->nr_series + 1, s->alloc_series);
	struct scan_series *x = &s->series[s->nr_series];
	memset(x, 0, sizeof(*x));
	x->topology = xstrdup(topo);
	x->engine = xstrdup(engine);
	x->point = xstrdup(point);
	x->metric = xstrdup(metric);
	x->clock = *clock;
	return s->nr_series++;
}

/* What tells two series apart, as one string (for remapping a sort). */
static char *series_key(const struct scan_series *x)
{
	return xstrfmt("%s\x1f%s\x1f%s\x1f%s\x1f%d\x1f%d", x->topology,
		       x->engine, x->point, x->metric, (int)x->clock.kind,
		       x->clock.kind == CLOCK_VIRTUAL ? x->clock.shift : 0);
}

static size_t intern(struct loader *l, const char *str)
{
	struct strvec *sv = &l->identities;
	long i = str_index_get(&l->identity_index, str, STR_INDEX_WHOLE);
	if (i >= 0)
		return (size_t)i;
	strvec_push(sv, str);
	/* The strvec may move its array, not the strings it holds. */
	str_index_put(&l->identity_index, sv->v[sv->nr - 1], STR_INDEX_WHOLE,
		      sv->nr - 1);
	return sv->nr - 1;
}

static const char *jstr(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));
	return v ? v : "";
}

static void read_doc(struct loader *l, const char *path, size_t commit,
		     long boot)
{
	json_t *doc = results_doc_read(path), *v;
	struct scan_commit *c = &l->s->commits[commit];
	const char *key;
	char *machine, *ident;
	struct clock clock;

	if (!doc) {
		l->ignored_docs++;
		return;
	}
	if (!json_is_true(json_object_get(doc, "complete"))) {
		l->ignored_docs++;
		json_decref(doc);
		return;
	}
	if (!l->s->job && *jstr(doc, "job"))
		l->s->job = xstrdup(jstr(doc, "job"));
	if (strlen(jstr(doc, "commit")) > strlen(c->id)) {
		free(c->id);
		c->id = xstrdup(jstr(doc, "commit"));
	}
	if (*jstr(doc, "started") &&
	    (!c->first_seen || strcmp(jstr(doc, "started"), c->first_seen) < 0)) {
		free(c->first_seen);
		c->first_seen = xstrdup(jstr(doc, "started"));
	}
	/*
	 * Each clock is a series of its own, so figures of two clocks are
	 * never pooled, plotted on one line or compared. A document written
	 * before clocks were recorded was timed by the wall clock: said so,
	 * it pools with the wall clock's new ones of the same machine.
	 */
	v = json_object_get(doc, "machine");
	results_clock_from_json(v, &clock);
	if (json_is_object(v) && !json_object_get(v, "clock"))
		json_object_set_new(v, "clock",
				    json_string(clock_name(CLOCK_WALL)));
	machine = json_dumps(v, JSON_SORT_KEYS | JSON_COMPACT);
	ident = xstrfmt("%s|%s|%s", jstr(doc, "build_key"),
			jstr(doc, "spec_hash"), machine ? machine : "");
	json_object_foreach(doc, key, v) {
		json_t *bw = json_object_get(v, "bw_bytes");
		if (!json_is_object(v) || !json_is_integer(bw))
			continue;
		if (!json_is_true(json_object_get(v, "verified")))
			continue;
		ALLOC_GROW(l->recs, l->nr_recs + 1, l->alloc_recs);
		struct record *r = &l->recs[l->nr_recs++];
		r->series = find_or_add_series(l->s, jstr(doc, "topology"),
					       jstr(doc, "engine"),
					       jstr(doc, "point"), key, &clock);
		r->commit = commit;
		r->identity = intern(l, ident);
		r->boot = boot;
		r->bw = (double)json_integer_value(bw);
		r->block = json_object_get(v, PROTO_COUNTERS_KEY);
		r->block = json_is_object(r->block) ? json_incref(r->block)
						    : NULL;
	}
	free(ident);
	free(machine);
	json_decref(doc);
}

static int read_commit(struct loader *l, const char *cdir, const char *name)
{
	DIR *d = opendir_nofollow(cdir), *pd, *sd;
	struct dirent *te, *p, *f;
	size_t commit = find_or_add_commit(l, name);

	if (!d)
		return error("cannot open '%s': %s", cdir, strerror(errno));
	while ((te = readdir(d))) {
		if (te->d_name[0] == '.')
			continue;
		char *tdir = xstrfmt("%s/%s", cdir, te->d_name);
		pd = opendir_nofollow(tdir);
		while (pd && (p = readdir(pd))) {
			if (p->d_name[0] == '.')
				continue;
			char *pdir = xstrfmt("%s/%s", tdir, p->d_name);
			sd = opendir_nofollow(pdir);
			/* A big store is a long read: a signal ends it. */
			while (sd && !run_interrupted() && (f = readdir(sd))) {
				long boot = scan_sample_boot(f->d_name);
				if (boot < 0)
					continue;
				char *path = xstrfmt("%s/%s", pdir, f->d_name);
				read_doc(l, path, commit, boot);
				free(path);
			}
			if (sd)
				closedir(sd);
			free(pdir);
		}
		if (pd)
			closedir(pd);
		free(tdir);
	}
	closedir(d);
	if (run_interrupted())
		return error("interrupted while reading '%s'", cdir);
	return 0;
}

static int cmp_record(const void *a, const void *b)
{
	const struct record *x = a, *y = b;
	if (x->series != y->series)
		return x->series < y->series ? -1 : 1;
	if (x->commit != y->commit)
		return x->commit < y->commit ? -1 : 1;
	if (x->identity != y->identity)
		return x->identity < y->identity ? -1 : 1;
	return (x->boot > y->boot) - (x->boot < y->boot);
}

/*
 * Reduce the records r[0..n) of one cell, sorted by identity then boot,
 * to one value per boot of one identity: the one with the most distinct
 * boots (the first on a tie). One pass: a large store is read in n log n,
 * not in a scan of every record for every cell.
 */
static void fill_cell(const struct record *r, size_t n, struct scan_cell *cell)
{
	size_t best = 0, best_end = 0, best_boots = 0;
	double *tmp;

	for (size_t i = 0; i < n;) {
		size_t j = i, boots = 0;
		for (; j < n && r[j].identity == r[i].identity; j++)
			boots += j == i || r[j].boot != r[j - 1].boot;
		if (boots > best_boots) {
			best_boots = boots;
			best = i;
			best_end = j;
		}
		i = j;
	}
	if (!best_boots)
		return;
	cell->blocks = json_array();
	for (size_t i = best; i < best_end; i++)
		if (r[i].block)
			json_array_append(cell->blocks, r[i].block);
	cell->values = xcalloc(best_boots, sizeof(double));
	cell->boots = xcalloc(best_boots, sizeof(unsigned));
	tmp = xcalloc(best_end - best, sizeof(double));
	for (size_t i = best; i < best_end;) {
		size_t k = 0, j = i;
		for (; j < best_end && r[j].boot == r[i].boot; j++)
			tmp[k++] = r[j].bw;
		cell->values[cell->nr] = stats_median(tmp, k);
		cell->boots[cell->nr++] = (unsigned)r[i].boot;
		i = j;
	}
	cell->nr_ignored = n - (best_end - best);
	free(tmp);
}

static int cmp_series(const void *a, const void *b)
{
	const struct scan_series *x = a, *y = b;
	int c = strcmp(x->topology, y->topology);
	if (!c)
		c = strcmp(x->engine, y->engine);
	if (!c)
		c = strcmp(x->point, y->point);
	if (!c)
		c = strcmp(x->metric, y->metric);
	/* The wall clock first, then virtual by shift. */
	if (!c)
		c = (int)x->clock.kind - (int)y->clock.kind;
	if (!c)
		c = x->clock.shift - y->clock.shift;
	return c;
}

/* How many commits series `x` has boots of. */
static size_t measured_commits(const struct scan *s,
			       const struct scan_series *x)
{
	size_t n = 0;

	for (size_t c = 0; c < s->nr_commits; c++)
		n += x->cells[c].nr > 0;
	return n;
}

static int same_figure(const struct scan_series *x, const struct scan_series *y)
{
	return !strcmp(x->topology, y->topology) &&
	       !strcmp(x->engine, y->engine) && !strcmp(x->point, y->point) &&
	       !strcmp(x->metric, y->metric);
}

/*
 * Of one figure's clocks, the one most commits were measured on comes
 * first: the bisection's own, whose answer a reader looks for, before
 * the wall clock's pairs of two commits (runs.wall_pairs) that came
 * first by the clocks' order. On a tie the clocks' order stays.
 */
static void order_clocks(struct scan *s)
{
	for (size_t i = 1; i < s->nr_series; i++)
		for (size_t j = i; j > 0 && same_figure(&s->series[j - 1],
							&s->series[j]);
		     j--) {
			if (measured_commits(s, &s->series[j]) <=
			    measured_commits(s, &s->series[j - 1]))
				break;
			struct scan_series t = s->series[j];
			s->series[j] = s->series[j - 1];
			s->series[j - 1] = t;
		}
}

int scan_load(struct scan *out, const char *dir, const char *job)
{
	return scan_load_flags(out, dir, job, 0);
}

/* Every commit folder of the job into records; the job's name. */
static int read_commits(struct loader *l)
{
	struct scan *out = l->s;
	DIR *d = opendir(out->dir);
	struct dirent *e;

	if (!d)
		return error("cannot open '%s': %s", out->dir, strerror(errno));
	while ((e = readdir(d))) {
		char *c = xstrfmt("%s/%s", out->dir, e->d_name);
		if (e->d_name[0] != '.' && strcmp(e->d_name, "spool") &&
		    is_real_dir(c) && read_commit(l, c, e->d_name)) {
			free(c);
			closedir(d);
			return -1;
		}
		free(c);
	}
	closedir(d);
	if (!out->job) {
		const char *slash = strrchr(out->dir, '/');
		out->job = xstrdup(slash ? slash + 1 : out->dir);
	}
	return 0;
}

/* Drop folders that held no sample (spool, logs, other files). */
static void drop_empty_commits(struct loader *l)
{
	struct scan *out = l->s;
	size_t *renum = xcalloc(out->nr_commits + 1, sizeof(*renum));
	size_t kept = 0;

	for (size_t r = 0; r < l->nr_recs; r++)
		renum[l->recs[r].commit] = 1;
	for (size_t i = 0; i < out->nr_commits; i++) {
		if (!renum[i]) {
			free(out->commits[i].id);
			free(out->commits[i].first_seen);
			continue;
		}
		out->commits[kept] = out->commits[i];
		renum[i] = kept++;
	}
	out->nr_commits = kept;
	for (size_t r = 0; r < l->nr_recs; r++)
		l->recs[r].commit = renum[l->recs[r].commit];
	free(renum);
}

/*
 * The commits in order (store_scan_order.c); the records, which name
 * commits by their index before ordering, follow them.
 */
static int order_commits(struct loader *l, unsigned flags)
{
	struct scan *out = l->s;
	char (*before)[13] = xcalloc(out->nr_commits + 1, 13);

	for (size_t i = 0; i < out->nr_commits; i++)
		memcpy(before[i], out->commits[i].abbrev, 13);
	if (scan_order_commits(out, flags)) {
		free(before);
		return -1;
	}
	size_t *map = xcalloc(out->nr_commits + 1, sizeof(*map));
	struct str_index after = { 0 };
	for (size_t j = 0; j < out->nr_commits; j++)
		str_index_put(&after, out->commits[j].abbrev, STR_INDEX_WHOLE,
			      j);
	for (size_t i = 0; i < out->nr_commits; i++) {
		long j = str_index_get(&after, before[i], STR_INDEX_WHOLE);
		map[i] = j >= 0 ? (size_t)j : 0;
	}
	str_index_release(&after);
	for (size_t r = 0; r < l->nr_recs; r++)
		l->recs[r].commit = map[l->recs[r].commit];
	free(map);
	free(before);
	return 0;
}

/* Sort the series, then remap the records' series indexes. */
static void order_series(struct loader *l)
{
	struct scan *out = l->s;
	size_t *order = xcalloc(out->nr_series + 1, sizeof(*order));
	char **keys = xcalloc(out->nr_series + 1, sizeof(*keys));

	for (size_t i = 0; i < out->nr_series; i++)
		keys[i] = series_key(&out->series[i]);
	if (out->nr_series)
		qsort(out->series, out->nr_series, sizeof(*out->series),
		      cmp_series);
	for (size_t i = 0; i < out->nr_series; i++) {
		char *k = series_key(&out->series[i]);
		for (size_t j = 0; j < out->nr_series; j++)
			if (!strcmp(keys[j], k))
				order[j] = i;
		free(k);
	}
	for (size_t r = 0; r < l->nr_recs; r++)
		l->recs[r].series = order[l->recs[r].series];
	for (size_t i = 0; i < out->nr_series; i++)
		free(keys[i]);
	free(keys);
	free(order);
}

/* Each series' cells: the records of one series and commit, pooled. */
static void fill_cells(struct loader *l)
{
	struct scan *out = l->s;

	for (size_t i = 0; i < out->nr_series; i++)
		out->series[i].cells =
			xcalloc(out->nr_commits + 1, sizeof(struct scan_cell));
	if (l->nr_recs)
		qsort(l->recs, l->nr_recs, sizeof(*l->recs), cmp_record);
	for (size_t i = 0; i < l->nr_recs;) {
		const struct record *r = &l->recs[i];
		size_t j = i;
		while (j < l->nr_recs && l->recs[j].series == r->series &&
		       l->recs[j].commit == r->commit)
			j++;
		fill_cell(r, j - i, &out->series[r->series].cells[r->commit]);
		i = j;
	}
}

/* The profiles a bisection took of its culprit and the parent. */
static void load_profiles(struct scan *out)
{
	for (size_t i = 0; i < out->nr_commits; i++) {
		char *path = xstrfmt("%s/%s/profile.json", out->dir,
				     out->commits[i].abbrev);
		out->commits[i].profile = store_json_optional(
			path, STORE_PROFILE_MAX, JSON_REJECT_DUPLICATES,
			"a profile");
		free(path);
	}
}

int scan_load_flags(struct scan *out, const char *dir, const char *job,
		    unsigned flags)
{
	struct loader l = { 0 };
	int ret = -1;

	memset(out, 0, sizeof(*out));
	state_init(&out->state);
	l.s = out;
	if (scan_find_job_dir(out, dir, job))
		return -1;
	if (read_commits(&l))
		goto out;
	drop_empty_commits(&l);
	if (order_commits(&l, flags))
		goto out;
	order_series(&l);
	fill_cells(&l);
	order_clocks(out);
	load_profiles(out);
	ret = 0;
out:
	for (size_t r = 0; r < l.nr_recs; r++)
		json_decref(l.recs[r].block);
	free(l.recs);
	str_index_release(&l.identity_index);
	strvec_clear(&l.identities);
	if (ret)
		scan_release(out);
	return ret;
}

void scan_release(struct scan *s)
{
	for (size_t i = 0; i < s->nr_series; i++) {
		struct scan_series *x = &s->series[i];
		for (size_t c = 0; x->cells && c < s->nr_commits; c++) {
			free(x->cells[c].values);
			free(x->cells[c].boots);
			json_decref(x->cells[c].blocks);
		}
		free(x->cells);
		free(x->topology);
		free(x->engine);
		free(x->point);
		free(x->metric);
	}
	free(s->series);
	for (size_t i = 0; i < s->nr_commits; i++) {
		json_decref(s->commits[i].profile);
		free(s->commits[i].id);
		free(s->commits[i].subject);
		free(s->commits[i].first_seen);
		free(s->commits[i].role);
	}
	free(s->commits);
	free(s->dir);
	free(s->job);
	state_release(&s->state);
	memset(s, 0, sizeof(*s));
	state_init(&s->state);
}
