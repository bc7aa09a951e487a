/*
 * sweep.c: the pure parts of a sweep (see sweep.h): which commits to
 * measure, the sweep state and its JSON, which steps are worth a
 * bisection, and the derived bisection job.
 */
#include "sweep.h"
#include "store_file.h"
#include "threshold.h"

#include <errno.h>
#include <fnmatch.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sweep_tags_push(struct sweep_tags *t, const char *name, const char *commit)
{
	ALLOC_GROW(t->v, t->nr + 1, t->alloc);
	t->v[t->nr].name = xstrdup(name);
	snprintf(t->v[t->nr].commit, sizeof(t->v[t->nr].commit), "%s", commit);
	t->nr++;
}

void sweep_tags_release(struct sweep_tags *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->v[i].name);
	free(t->v);
	t->v = NULL;
	t->nr = t->alloc = 0;
}

void sweep_pick_every(struct strvec *out, const struct strvec *history,
		      unsigned every)
{
	size_t i;

	if (!every)
		every = 1;
	for (i = 0; i < history->nr; i += every)
		strvec_push(out, history->v[i]);
	/* B is the point of the sweep: it is always measured. */
	if (history->nr && (history->nr - 1) % every)
		strvec_push(out, history->v[history->nr - 1]);
}

void sweep_pick_tags(struct strvec *out, struct strvec *names,
		     const struct sweep_tags *tags, const char *pattern,
		     const struct strvec *range)
{
	for (size_t i = 0; i < range->nr; i++) {
		for (size_t t = 0; t < tags->nr; t++) {
			if (strcmp(tags->v[t].commit, range->v[i]) ||
			    fnmatch(pattern, tags->v[t].name, 0))
				continue;
			strvec_push(out, range->v[i]);
			if (names)
				strvec_push(names, tags->v[t].name);
			break;
		}
	}
}

struct sweep_point *sweep_state_add(struct sweep_state *s, const char *commit,
				    const char *subject, const char *role)
{
	struct sweep_point *p;

	ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	p = &s->v[s->nr++];
	snprintf(p->commit, sizeof(p->commit), "%s", commit);
	p->subject = subject ? xstrdup(subject) : NULL;
	p->role = role ? xstrdup(role) : NULL;
	return p;
}

void sweep_state_release(struct sweep_state *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		free(s->v[i].subject);
		free(s->v[i].role);
	}
	free(s->v);
	s->v = NULL;
	s->nr = s->alloc = 0;
}

void sweep_state_to_json(const struct sweep_state *s, struct strbuf *out)
{
	json_t *root = json_object(), *list = json_array();
	char *text;

	for (size_t i = 0; i < s->nr; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "commit", json_string(s->v[i].commit));
		if (s->v[i].subject)
			json_object_set_new(o, "subject",
					    json_string(s->v[i].subject));
		if (s->v[i].role)
			json_object_set_new(o, "role",
					    json_string(s->v[i].role));
		json_array_append_new(list, o);
	}
	json_object_set_new(root, "commits", list);
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	strbuf_addstr(out, text);
	strbuf_addch(out, '\n');
	free(text);
	json_decref(root);
}

static int is_commit_id(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	return n == 40 && strspn(s, "0123456789abcdef") == 40;
}

int sweep_state_parse(struct sweep_state *s, const char *text,
		      const char *origin)
{
	json_error_t jerr;
	json_t *root = json_loads(text, 0, &jerr), *list, *c;
	size_t i;
	int ret = -1;

	if (!root)
		return error("%s:%d: %s", origin, jerr.line, jerr.text);
	list = json_object_get(root, "commits");
	if (!json_is_array(list)) {
		error("%s: commits: expected a list", origin);
		goto out;
	}
	json_array_foreach(list, i, c)
	{
		const char *id, *subject = NULL, *role = NULL;
		if (json_is_string(c)) {
			id = json_string_value(c);
		} else {
			id = json_string_value(json_object_get(c, "commit"));
			subject = json_string_value(
				json_object_get(c, "subject"));
			role = json_string_value(json_object_get(c, "role"));
		}
		if (!is_commit_id(id)) {
			error("%s: commits[%zu]: expected a full commit id",
			      origin, i);
			goto out;
		}
		sweep_state_add(s, id, subject, role);
	}
	ret = 0;
out:
	json_decref(root);
	return ret;
}

int sweep_state_save(const struct sweep_state *s, const char *dir)
{
	struct strbuf text = STRBUF_INIT;
	char *path = xstrfmt("%s/sweep-state.json", dir);
	int ret;

	sweep_state_to_json(s, &text);
	ret = write_file_atomic(path, text.buf, text.len);
	strbuf_release(&text);
	free(path);
	return ret;
}

int sweep_state_load(struct sweep_state *s, const char *dir)
{
	struct strbuf text = STRBUF_INIT;
	char *path = xstrfmt("%s/sweep-state.json", dir);
	int ret = 1;

	if (store_file_exists(path))
		ret = store_file_read(path, &text, STORE_STATE_MAX) ||
				      sweep_state_parse(s, text.buf, path)
			      ? -1
			      : 0;
	strbuf_release(&text);
	free(path);
	return ret;
}

int sweep_past_threshold(const struct threshold *t,
			 const struct changepoint *cp)
{
	return threshold_past(t, cp->before_median, cp->after_median,
			      cp->kind != CHANGEPOINT_REGRESSION);
}

void sweep_changepoint_options(struct changepoint_options *opt,
			       const struct threshold *t)
{
	*opt = (struct changepoint_options)CHANGEPOINT_OPTIONS_INIT;
	if (t->kind == THRESHOLD_PERCENT && t->value < opt->min_effect_pct)
		opt->min_effect_pct = t->value;
}

/* Is there a change point at `index` among the detector's? */
static int has_step(const struct changepoint_result *r, size_t index)
{
	for (size_t i = 0; i < r->nr; i++)
		if (r->points[i].index == index)
			return 1;
	return 0;
}

int sweep_undecided(size_t *out, size_t *nr,
		    const struct changepoint_commit *series, size_t n,
		    const struct changepoint_options *opt, size_t cap)
{
	struct changepoint_result strict = CHANGEPOINT_RESULT_INIT,
				  loose = CHANGEPOINT_RESULT_INIT;
	struct changepoint_options lo = *opt;
	unsigned char *beside = xcalloc(n ? n : 1, 1);
	int ret = -1;

	*nr = 0;
	lo.alpha = SWEEP_LOOSE_ALPHA;
	if (changepoint_detect(&strict, series, n, opt) ||
	    changepoint_detect(&loose, series, n, &lo))
		goto out;
	for (size_t i = 0; i < loose.nr; i++) {
		const struct changepoint *cp = &loose.points[i];
		if (!has_step(&strict, cp->index))
			beside[cp->before] = beside[cp->index] = 1;
	}
	/* Each once, ascending: the sample's order, as it was measured. */
	for (size_t c = 0; c < n; c++)
		if (beside[c] && series[c].n < cap)
			out[(*nr)++] = c;
	ret = 0;
out:
	free(beside);
	changepoint_result_release(&strict);
	changepoint_result_release(&loose);
	return ret;
}

int sweep_top_up_round(size_t *at, size_t *nr, unsigned *want,
		       const struct changepoint_commit *series, size_t n,
		       const struct changepoint_options *opt, size_t cap)
{
	*want = 0;
	if (sweep_undecided(at, nr, series, n, opt, cap))
		return -1;
	/* One boot more for the commit that has the most: all reach it. */
	for (size_t i = 0; i < *nr; i++)
		if (series[at[i]].n + 1 > *want)
			*want = (unsigned)series[at[i]].n + 1;
	return 0;
}

char *sweep_bisect_job_name(const char *job, const char *good, const char *bad)
{
	return xstrfmt("%s-bisect-%.12s-%.12s", job, good, bad);
}

int sweep_bisect_job_text(struct strbuf *out, const char *job_text,
			  const char *origin, const char *name,
			  const char *good, const char *bad,
			  const char *results, int faster)
{
	json_error_t jerr;
	json_t *root = json_loads(job_text, 0, &jerr);
	char *text;

	if (!root)
		return error("%s:%d: %s", origin, jerr.line, jerr.text);
	if (!json_is_object(root)) {
		json_decref(root);
		return error("%s: expected a JSON object", origin);
	}
	json_object_set_new(root, "name", json_string(name));
	json_object_set_new(root, "good", json_string(good));
	json_object_set_new(root, "bad", json_string(bad));
	json_object_set_new(root, "results", json_string(results));
	json_object_set_new(root, "direction",
			    json_string(faster ? "faster" : "slower"));
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	strbuf_addstr(out, text);
	strbuf_addch(out, '\n');
	free(text);
	json_decref(root);
	return 0;
}
