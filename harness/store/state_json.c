/*
 * state_json.c: the bisection state as JSON (state.h): the document
 * state_save writes and the reader that names the key at fault in one
 * that does not read, with the words its enums are written as.
 */
#include "state.h"
#include "json_num.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STATE_VERSION 1

static const char *const status_names[] = {
	[STATE_RUNNING] = "running",
	[STATE_DONE] = "done",
	[STATE_INCONCLUSIVE] = "inconclusive",
	[STATE_NOT_SEPARATED] = "not-separated",
	[STATE_ABORTED] = "aborted",
};

static const char *const role_names[] = {
	[ROLE_GOOD] = "good",
	[ROLE_BAD] = "bad",
	[ROLE_MERGE_BASE] = "merge-base",
	[ROLE_STEP] = "step",
	[ROLE_CONFIRM] = "confirm",
};

const char *probe_role_name(enum probe_role role)
{
	return name_of(role_names, ARRAY_SIZE(role_names), role, "unknown");
}

const char *state_status_name(enum state_status st)
{
	return name_of(status_names, ARRAY_SIZE(status_names), st, "unknown");
}


static void set_str(json_t *o, const char *key, const char *v)
{
	if (v)
		json_object_set_new(o, key, json_string(v));
}

static json_t *strvec_json(const struct strvec *sv)
{
	json_t *a = json_array();
	for (size_t i = 0; i < sv->nr; i++)
		json_array_append_new(a, json_string(sv->v[i]));
	return a;
}

/* The answer's pairs under way (state.h): none, no key. */
static json_t *confirm_json(const struct state_confirm *c)
{
	json_t *o = json_object(), *parents = json_array();

	json_object_set_new(o, "culprit", json_string(c->culprit));
	json_object_set_new(o, "culprit_from", json_integer(c->culprit_from));
	for (size_t i = 0; i < c->nr_parents; i++) {
		const struct state_confirm_parent *p = &c->parents[i];
		json_t *po = json_object(), *pairs = json_array();
		json_object_set_new(po, "parent", json_string(p->parent));
		json_object_set_new(po, "parent_from",
				    json_integer(p->parent_from));
		for (size_t k = 0; k < p->nr_pairs; k++)
			json_array_append_new(
				pairs,
				json_pack("[II]",
					  (json_int_t)p->pairs[k].parent,
					  (json_int_t)p->pairs[k].culprit));
		json_object_set_new(po, "pairs", pairs);
		json_array_append_new(parents, po);
	}
	json_object_set_new(o, "parents", parents);
	return o;
}

/* The revert check (state.h): none begun, no key. */
static json_t *revert_json(const struct state_revert *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "culprit", json_string(r->culprit));
	json_object_set_new(o, "commit", json_string(r->commit));
	json_object_set_new(o, "conflicts", strvec_json(&r->conflicts));
	if (r->pairs.culprit[0])
		json_object_set_new(o, "pairs", confirm_json(&r->pairs));
	return o;
}

static json_t *change_json(const struct state_change *c)
{
	json_t *o = json_object();

	json_object_set_new(o, "commit", json_string(c->commit));
	json_object_set_new(o, "parent", json_string(c->parent));
	json_object_set_new(o, "confidence", json_num(c->confidence));
	json_object_set_new(o, "pairs", json_integer(c->pairs));
	json_object_set_new(o, "faster", json_boolean(c->faster));
	return o;
}

json_t *state_to_json(const struct bisect_state *s)
{
	json_t *root = json_object(), *probes = json_array(),
	       *marks = json_array();

	json_object_set_new(root, "version", json_integer(STATE_VERSION));
	set_str(root, "job_hash", s->job_hash);
	set_str(root, "job", s->job_name);
	set_str(root, "good_rev", s->good_rev);
	set_str(root, "bad_rev", s->bad_rev);
	json_object_set_new(root, "good", json_string(s->good));
	json_object_set_new(root, "bad", json_string(s->bad));
	json_object_set_new(root, "merge_base", json_string(s->merge_base));
	if (s->stand_in[0])
		json_object_set_new(root, "stand_in", json_string(s->stand_in));
	json_object_set_new(root, "candidates", strvec_json(&s->candidates));
	for (size_t i = 0; i < s->nr_probes; i++) {
		const struct state_probe *p = &s->probes[i];
		json_t *o = json_object();
		json_object_set_new(o, "commit", json_string(p->commit));
		set_str(o, "subject", p->subject);
		set_str(o, "role", probe_role_name(p->role));
		set_str(o, "build_key", p->build_key);
		json_object_set_new(o, "cached", json_boolean(p->cached));
		set_str(o, "outcome", probe_outcome_name(p->outcome));
		if (p->mark != BISECT_UNTESTED)
			set_str(o, "mark", bisect_mark_name(p->mark));
		if (p->v.verdict) {
			json_t *v = json_object();
			set_str(v, "verdict", p->v.verdict);
			json_object_set_new(v, "good_median_bw_bytes",
					    json_num(p->v.good_median));
			json_object_set_new(v, "good_stddev_pct",
					    json_num(p->v.good_stddev_pct));
			json_object_set_new(v, "median_bw_bytes",
					    json_num(p->v.median));
			json_object_set_new(v, "stddev_pct",
					    json_num(p->v.stddev_pct));
			json_object_set_new(v, "effect_pct",
					    json_num(p->v.effect_pct));
			if (isfinite(p->v.p_value))
				json_object_set_new(v, "p_value",
						    json_num(p->v.p_value));
			json_object_set_new(v, "llr", json_num(p->v.llr));
			json_object_set_new(v, "error", json_num(p->v.error));
			json_object_set_new(v, "good_boots",
					    json_integer(p->v.good_boots));
			json_object_set_new(v, "boots",
					    json_integer(p->v.boots));
			json_object_set_new(o, "verdict", v);
		}
		/* The commit's own level, with or without a verdict. */
		if (!p->v.verdict && p->v.boots) {
			json_object_set_new(o, "median_bw_bytes",
					    json_num(p->v.median));
			json_object_set_new(o, "stddev_pct",
					    json_num(p->v.stddev_pct));
			json_object_set_new(o, "boots",
					    json_integer(p->v.boots));
		}
		json_object_set_new(o, "boots_run", json_integer(p->boots));
		json_object_set_new(o, "samples", json_integer(p->samples));
		set_str(o, "log", p->log);
		set_str(o, "first_error", p->first_error);
		set_str(o, "started", p->started);
		set_str(o, "ended", p->ended);
		json_object_set_new(o, "seconds", json_num(p->seconds));
		json_array_append_new(probes, o);
	}
	json_object_set_new(root, "probes", probes);
	for (size_t i = 0; i < s->nr_marks; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "commit",
				    json_string(s->marks[i].commit));
		json_object_set_new(
			o, "mark",
			json_string(bisect_mark_name(s->marks[i].mark)));
		if (s->marks[i].by_pairs)
			json_object_set_new(o, "by", json_string("pairs"));
		json_array_append_new(marks, o);
	}
	json_object_set_new(root, "marks", marks);
	if (s->doubt_from >= 0)
		json_object_set_new(root, "doubt_from",
				    json_integer(s->doubt_from));
	json_object_set_new(root, "status",
			    json_string(state_status_name(s->status)));
	json_object_set_new(root, "culprit", json_string(s->culprit));
	json_object_set_new(root, "suspects", strvec_json(&s->suspects));
	json_object_set_new(root, "confidence", json_num(s->confidence));
	if (s->confirm.culprit[0])
		json_object_set_new(root, "confirm", confirm_json(&s->confirm));
	if (s->revert.culprit[0])
		json_object_set_new(root, "revert", revert_json(&s->revert));
	if (s->same_image.nr)
		json_object_set_new(root, "same_image",
				    strvec_json(&s->same_image));
	if (s->between.nr)
		json_object_set_new(root, "between", strvec_json(&s->between));
	if (s->nr_changes || s->changes_sought) {
		json_t *a = json_array();
		for (size_t i = 0; i < s->nr_changes; i++)
			json_array_append_new(a, change_json(&s->changes[i]));
		json_object_set_new(root, "changes", a);
		json_object_set_new(root, "changes_sought",
				    json_boolean(s->changes_sought));
	}
	run_counts_to_json(root, &s->counts);
	json_object_set_new(root, "seconds", json_num(s->seconds));
	set_str(root, "started", s->started);
	set_str(root, "updated", s->updated);
	set_str(root, "unit", s->unit);
	return root;
}

/* Readers: each says which key is wrong; -1 after error(). */
static int get_str(const json_t *o, const char *key, int required,
		   char **out, const char *origin)
{
	json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v)) {
		if (required)
			return error("%s: missing '%s'", origin, key);
		return 0;
	}
	if (!json_is_string(v))
		return error("%s: '%s' is not a string", origin, key);
	*out = xstrdup(json_string_value(v));
	return 0;
}

static int get_id(const json_t *o, const char *key, char out[41],
		  int allow_empty, const char *origin)
{
	json_t *v = json_object_get(o, key);
	const char *s;
	size_t n;

	if (!json_is_string(v))
		return error("%s: '%s' is not a commit id", origin, key);
	s = json_string_value(v);
	n = strlen(s);
	if ((n == 0 && !allow_empty) || (n != 0 && n != 40) ||
	    strspn(s, "0123456789abcdef") != n)
		return error("%s: '%s' is not a commit id", origin, key);
	memcpy(out, s, n + 1);
	return 0;
}

/* A count; 0, as a missing one, when it is not one unsigned holds (a
 * version of 2^32 + 1 is not version 1). */
static unsigned get_uint(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) && json_integer_value(v) >= 0 &&
			       json_integer_value(v) <= UINT_MAX
		       ? (unsigned)json_integer_value(v)
		       : 0;
}

static int get_strvec(const json_t *o, const char *key, struct strvec *sv,
		      const char *origin)
{
	json_t *a = json_object_get(o, key), *v;
	size_t i;

	if (!a)
		return 0;
	if (!json_is_array(a))
		return error("%s: '%s' is not a list", origin, key);
	json_array_foreach(a, i, v) {
		if (!json_is_string(v))
			return error("%s: '%s' holds a non-string", origin,
				      key);
		strvec_push(sv, json_string_value(v));
	}
	return 0;
}

static int changes_from_json(struct bisect_state *s, const json_t *root,
			     const char *origin)
{
	json_t *a = json_object_get(root, "changes"), *v;
	char commit[41], parent[41];
	size_t i;

	s->changes_sought =
		json_is_true(json_object_get(root, "changes_sought"));
	if (!a)
		return 0;
	if (!json_is_array(a))
		return error("%s: 'changes' is not a list", origin);
	json_array_foreach(a, i, v) {
		struct state_change *c;

		if (!json_is_object(v))
			return error("%s: 'changes' holds a non-object",
				     origin);
		if (get_id(v, "commit", commit, 0, origin) ||
		    get_id(v, "parent", parent, 0, origin))
			return -1;
		c = state_add_change(s, commit, parent);
		c->confidence = json_num_at(v, "confidence");
		c->pairs = get_uint(v, "pairs");
		c->faster = json_is_true(json_object_get(v, "faster"));
	}
	return 0;
}

/* The text of a word that does not read, for its error line. */
static const char *word_text(const json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : "(not text)";
}

static int get_role(const json_t *o, const char *id, enum probe_role *out,
		    const char *origin)
{
	json_t *v = json_object_get(o, "role");
	int i = json_is_string(v)
			? name_index(role_names, ARRAY_SIZE(role_names),
				     json_string_value(v))
			: -1;

	if (!v || json_is_null(v))
		return error("%s: missing 'role'", origin);
	if (i < 0)
		return error("%s: probe of %s: '%s' is not a known role",
			     origin, id, word_text(v));
	*out = (enum probe_role)i;
	return 0;
}

enum probe_outcome state_measured_outcome(const struct state_verdict *v)
{
	if (v->verdict && !strcmp(v->verdict, "good"))
		return PROBE_FAST;
	if (v->verdict && !strcmp(v->verdict, "bad"))
		return PROBE_SLOW;
	return PROBE_UNDECIDED;
}

static int get_outcome(const json_t *o, const char *id, struct state_probe *p,
		       const char *origin)
{
	json_t *v = json_object_get(o, "outcome");
	int r = 1;

	if (json_is_string(v))
		r = probe_outcome_parse(json_string_value(v), &p->outcome);
	else if (v && !json_is_null(v))
		r = -1;
	if (r < 0)
		return error("%s: probe of %s: '%s' is not a known outcome",
			     origin, id, word_text(v));
	if (r)
		p->outcome = state_measured_outcome(&p->v);
	return 0;
}

/* A probe's mark may be missing (none given); a mark's may not. */
static int get_mark(const json_t *o, const char *id, int required,
		    enum bisect_mark *out, const char *origin)
{
	json_t *v = json_object_get(o, "mark");

	*out = BISECT_UNTESTED;
	if (!required && (!v || json_is_null(v)))
		return 0;
	if (!json_is_string(v) || bisect_mark_parse(json_string_value(v), out))
		return error("%s: mark of %s is not good, bad or skip", origin,
			     id);
	return 0;
}

static int probe_from_json(struct bisect_state *s, const json_t *o,
			   const char *origin)
{
	char id[41];
	enum probe_role role = ROLE_STEP;
	struct state_probe *p;
	json_t *v;

	if (!json_is_object(o))
		return error("%s: a probe is not an object", origin);
	if (get_id(o, "commit", id, 0, origin) ||
	    get_role(o, id, &role, origin))
		return -1;
	p = state_add_probe(s, id, role);
	if (get_str(o, "subject", 0, &p->subject, origin) ||
	    get_str(o, "build_key", 0, &p->build_key, origin) ||
	    get_mark(o, id, 0, &p->mark, origin) ||
	    get_str(o, "log", 0, &p->log, origin) ||
	    get_str(o, "first_error", 0, &p->first_error, origin) ||
	    get_str(o, "started", 0, &p->started, origin) ||
	    get_str(o, "ended", 0, &p->ended, origin))
		return -1;
	p->cached = json_is_true(json_object_get(o, "cached"));
	p->boots = get_uint(o, "boots_run");
	p->samples = get_uint(o, "samples");
	p->seconds = json_num_at(o, "seconds");
	v = json_object_get(o, "verdict");
	if (v) {
		if (!json_is_object(v) ||
		    get_str(v, "verdict", 1, &p->v.verdict, origin))
			return error("%s: probe of %s has a bad verdict",
				     origin, id);
		p->v.good_median = json_num_at(v, "good_median_bw_bytes");
		p->v.good_stddev_pct = json_num_at(v, "good_stddev_pct");
		p->v.median = json_num_at(v, "median_bw_bytes");
		p->v.stddev_pct = json_num_at(v, "stddev_pct");
		p->v.effect_pct = json_num_at(v, "effect_pct");
		p->v.p_value = json_num_at(v, "p_value");
		p->v.llr = json_num_at(v, "llr");
		p->v.error = json_num_at(v, "error");
		p->v.good_boots = get_uint(v, "good_boots");
		p->v.boots = get_uint(v, "boots");
	} else if (json_object_get(o, "boots")) {
		p->v.median = json_num_at(o, "median_bw_bytes");
		p->v.stddev_pct = json_num_at(o, "stddev_pct");
		p->v.boots = get_uint(o, "boots");
	}
	return get_outcome(o, id, p, origin);
}

/* A count of boots, or a boot's place among its commit's: -1 when not. */
static int count_of(const json_t *v, unsigned *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > UINT_MAX)
		return -1;
	*out = (unsigned)json_integer_value(v);
	return 0;
}

/*
 * "confirm": the answer's pairs under way. Its culprit is a commit of
 * the range (check_marks); its parents any commits (outside ones too).
 */
static int confirm_from_json(struct state_confirm *c, const json_t *o,
			     const char *origin)
{
	json_t *a, *v, *pairs, *pair;
	size_t i, k;

	if (!json_is_object(o))
		return error("%s: 'confirm' is not an object", origin);
	if (get_id(o, "culprit", c->culprit, 0, origin))
		return -1;
	if (count_of(json_object_get(o, "culprit_from"), &c->culprit_from))
		return error("%s: 'confirm': 'culprit_from' is not a count of "
			     "boots",
			     origin);
	a = json_object_get(o, "parents");
	if (!json_is_array(a))
		return error("%s: 'confirm': 'parents' is not a list", origin);
	json_array_foreach(a, i, v) {
		char id[41];
		unsigned from;
		struct state_confirm_parent *p;
		if (!json_is_object(v))
			return error("%s: 'confirm': a parent is not an object",
				     origin);
		if (get_id(v, "parent", id, 0, origin))
			return -1;
		if (count_of(json_object_get(v, "parent_from"), &from))
			return error("%s: 'confirm': parent %s: 'parent_from' "
				     "is not a count of boots",
				     origin, id);
		p = state_confirm_add_parent(c, id, from);
		pairs = json_object_get(v, "pairs");
		if (!json_is_array(pairs))
			return error("%s: 'confirm': parent %s: 'pairs' is not "
				     "a list",
				     origin, id);
		json_array_foreach(pairs, k, pair) {
			unsigned pa, ca;
			if (!json_is_array(pair) ||
			    json_array_size(pair) != 2 ||
			    count_of(json_array_get(pair, 0), &pa) ||
			    count_of(json_array_get(pair, 1), &ca))
				return error("%s: 'confirm': parent %s: a pair "
					     "is not two boots' places",
					     origin, id);
			state_confirm_add_pair(p, pa, ca);
		}
	}
	return 0;
}

/*
 * "revert": the revert check. Its culprit the answer reverted, its commit
 * the revert (none when it did not apply), its pairs as "confirm"'s.
 */
static int revert_from_json(struct state_revert *r, const json_t *o,
			    const char *origin)
{
	json_t *v;

	if (!json_is_object(o))
		return error("%s: 'revert' is not an object", origin);
	if (get_id(o, "culprit", r->culprit, 0, origin) ||
	    get_id(o, "commit", r->commit, 1, origin))
		return -1;
	if (get_strvec(o, "conflicts", &r->conflicts, origin))
		return -1;
	v = json_object_get(o, "pairs");
	if (v && confirm_from_json(&r->pairs, v, origin))
		return -1;
	if (v && (r->pairs.nr_parents != 1 ||
		  strcmp(r->pairs.parents[0].parent, r->commit)))
		return error("%s: 'revert': its pairs are not of its commit",
			     origin);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Is `id` among the sorted ids? */
static int among(char **ids, size_t nr, const char *id)
{
	const char *key = id;

	return bsearch(&key, ids, nr, sizeof(*ids), cmp_str) != NULL;
}

/*
 * Every mark names a commit of the bisection: an endpoint, the merge base
 * or a candidate. A mark for any other commit (one not in the repository)
 * was taken, and skipped without a word on resume. Sorted ids keep this
 * n log n however long a hostile file is.
 */
static int check_marks(const struct bisect_state *s, const char *origin)
{
	char **ids = xcalloc(s->candidates.nr + 1, sizeof(*ids));
	int ret = 0;

	/* A state saved before the range was known has no candidates. */
	if (s->candidates.nr) {
		memcpy(ids, s->candidates.v, s->candidates.nr * sizeof(*ids));
		qsort(ids, s->candidates.nr, sizeof(*ids), cmp_str);
	}
	for (size_t i = 0; i < s->nr_marks && !ret; i++) {
		const char *id = s->marks[i].commit;
		if (!strcmp(id, s->good) || !strcmp(id, s->bad) ||
		    !strcmp(id, s->merge_base) ||
		    among(ids, s->candidates.nr, id))
			continue;
		ret = error("%s: mark of %s: not a commit of the bisection "
			    "%.12s..%.12s",
			    origin, id, s->good, s->bad);
	}
	if (!ret && *s->stand_in && !among(ids, s->candidates.nr, s->stand_in))
		ret = error("%s: 'stand_in' %s is not a commit of the "
			    "bisection %.12s..%.12s",
			    origin, s->stand_in, s->good, s->bad);
	if (!ret && *s->confirm.culprit &&
	    !among(ids, s->candidates.nr, s->confirm.culprit))
		ret = error("%s: 'confirm': culprit %s is not a commit "
			    "of the bisection %.12s..%.12s",
			    origin, s->confirm.culprit, s->good, s->bad);
	if (!ret && s->status == STATE_DONE && *s->culprit &&
	    !among(ids, s->candidates.nr, s->culprit))
		ret = error("%s: culprit %s is not a commit of the "
			    "bisection %.12s..%.12s",
			    origin, s->culprit, s->good, s->bad);
	/* Its last mark is what the bisection was told: fast is no culprit. */
	if (!ret && s->status == STATE_DONE && *s->culprit) {
		if (state_find_mark(s, s->culprit) == BISECT_GOOD)
			ret = error("%s: culprit %s is also marked good",
				    origin, s->culprit);
	}
	free(ids);
	return ret;
}

int state_from_json(struct bisect_state *s, const json_t *root,
		    const char *origin)
{
	json_t *a, *v;
	char *status = NULL;
	size_t i;
	int ret = -1, st;

	state_init(s);
	if (!json_is_object(root)) {
		error("%s: not a bisection state (not a JSON object)", origin);
		goto out;
	}
	if (get_uint(root, "version") != STATE_VERSION) {
		error("%s: unknown state version", origin);
		goto out;
	}
	if (get_str(root, "job_hash", 1, &s->job_hash, origin) ||
	    get_str(root, "job", 0, &s->job_name, origin) ||
	    get_str(root, "good_rev", 0, &s->good_rev, origin) ||
	    get_str(root, "bad_rev", 0, &s->bad_rev, origin) ||
	    get_id(root, "good", s->good, 0, origin) ||
	    get_id(root, "bad", s->bad, 0, origin) ||
	    get_id(root, "merge_base", s->merge_base, 1, origin) ||
	    get_strvec(root, "candidates", &s->candidates, origin) ||
	    get_strvec(root, "suspects", &s->suspects, origin) ||
	    get_str(root, "started", 0, &s->started, origin) ||
	    get_str(root, "updated", 0, &s->updated, origin) ||
	    get_str(root, "unit", 0, &s->unit, origin) ||
	    get_str(root, "status", 1, &status, origin) ||
	    get_id(root, "culprit", s->culprit, 1, origin))
		goto out;
	st = name_index(status_names, ARRAY_SIZE(status_names), status);
	if (st < 0) {
		error("%s: unknown status '%s'", origin, status);
		goto out;
	}
	s->status = (enum state_status)st;
	s->confidence = json_num_at(root, "confidence");
	run_counts_from_json(&s->counts, root);
	s->seconds = json_num_at(root, "seconds");
	/* A spoiled time is none: the report's total must not go negative. */
	if (!isfinite(s->seconds) || s->seconds < 0)
		s->seconds = 0;

	a = json_object_get(root, "probes");
	if (!json_is_array(a)) {
		error("%s: 'probes' is not a list", origin);
		goto out;
	}
	json_array_foreach(a, i, v)
		if (probe_from_json(s, v, origin))
			goto out;

	a = json_object_get(root, "marks");
	if (!json_is_array(a)) {
		error("%s: 'marks' is not a list", origin);
		goto out;
	}
	json_array_foreach(a, i, v) {
		char id[41];
		enum bisect_mark m;
		json_t *by;
		if (get_id(v, "commit", id, 0, origin) ||
		    get_mark(v, id, 1, &m, origin))
			goto out;
		state_add_mark(s, id, m);
		/* A step's mark says nothing: older states have no "by". */
		by = json_object_get(v, "by");
		if (by && !(json_is_string(by) &&
			    !strcmp(json_string_value(by), "pairs"))) {
			error("%s: mark of %s: 'by' is not \"pairs\"", origin,
			      id);
			goto out;
		}
		s->marks[s->nr_marks - 1].by_pairs = by != NULL;
	}
	/* Older states, and ones with no pairs under way, have none. */
	v = json_object_get(root, "confirm");
	if (v && confirm_from_json(&s->confirm, v, origin))
		goto out;
	v = json_object_get(root, "revert");
	if (v && revert_from_json(&s->revert, v, origin))
		goto out;
	/* Older states, and runs whose bad stands for itself, have none. */
	if (json_object_get(root, "stand_in") &&
	    get_id(root, "stand_in", s->stand_in, 0, origin))
		goto out;
	if (get_strvec(root, "same_image", &s->same_image, origin) ||
	    get_strvec(root, "between", &s->between, origin) ||
	    changes_from_json(s, root, origin))
		goto out;
	if (check_marks(s, origin))
		goto out;
	v = json_object_get(root, "doubt_from");
	if (v && !(json_is_integer(v) && json_integer_value(v) >= 0 &&
		   (size_t)json_integer_value(v) <= s->nr_marks)) {
		error("%s: 'doubt_from' is not a count of its marks", origin);
		goto out;
	}
	s->doubt_from = v ? (long)json_integer_value(v) : -1;
	ret = 0;
out:
	free(status);
	if (ret)
		state_release(s);
	return ret;
}

