/*
 * store_scan_order.c: the commits of a scan put in history order
 * (store_scan.h): the bisect state's (good, then the range oldest first),
 * else a sweep state's, else the time each commit's first document was
 * written. A state names each commit it knows by a full id; the scan
 * knows its folders, by abbreviation.
 */
#include "store_scan_priv.h"
#include "store_file.h"
#include "str_index.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * The order a state gives: each commit it names takes the next place, in
 * the order named; the others follow in the order they had. Ranks are
 * given first and the commits moved once, so a state naming every commit
 * of a large store is not a move of the whole array per commit.
 */
struct placer {
	struct scan *s;
	struct str_index by_abbrev; /* the first commit of each abbrev */
	size_t *rank;               /* SIZE_MAX: not named */
	size_t next;
};

static void placer_init(struct placer *p, struct scan *s)
{
	memset(p, 0, sizeof(*p));
	p->s = s;
	p->rank = xcalloc(s->nr_commits + 1, sizeof(*p->rank));
	for (size_t i = 0; i < s->nr_commits; i++) {
		p->rank[i] = SIZE_MAX;
		if (str_index_get(&p->by_abbrev, s->commits[i].abbrev, 12) < 0)
			str_index_put(&p->by_abbrev, s->commits[i].abbrev, 12,
				      i);
	}
}

/* The commit named `id` (any length >= 12) takes the next place. */
static void place(struct placer *p, const char *id, const char *subject,
		  const char *role)
{
	long i = str_index_get(&p->by_abbrev, id, 12);
	if (i < 0 || p->rank[i] != SIZE_MAX)
		return;
	struct scan_commit *c = &p->s->commits[i];
	if (subject && !c->subject)
		c->subject = xstrdup(subject);
	if (role && !c->role)
		c->role = xstrdup(role);
	p->rank[i] = p->next++;
}

/* Move the commits to their places, and free the placer. */
static void placer_apply(struct placer *p)
{
	struct scan *s = p->s;
	struct scan_commit *moved = xcalloc(s->nr_commits + 1, sizeof(*moved));
	size_t rest = p->next;

	for (size_t i = 0; i < s->nr_commits; i++)
		moved[p->rank[i] != SIZE_MAX ? p->rank[i] : rest++] =
			s->commits[i];
	if (s->nr_commits)
		memcpy(s->commits, moved, s->nr_commits * sizeof(*moved));
	free(moved);
	free(p->rank);
	str_index_release(&p->by_abbrev);
}

static int cmp_first_seen(const void *a, const void *b)
{
	const struct scan_commit *x = a, *y = b;
	const char *p = x->first_seen ? x->first_seen : "";
	const char *q = y->first_seen ? y->first_seen : "";
	int c = strcmp(p, q);
	return c ? c : strcmp(x->abbrev, y->abbrev);
}

static const char *probe_subject(const struct bisect_state *st,
				 const char *id)
{
	const struct state_probe *p = state_find_probe(st, id);
	return p ? p->subject : NULL;
}

static const char *state_role(const struct bisect_state *st, const char *id)
{
	enum bisect_mark m = state_find_mark(st, id);

	if (st->status == STATE_DONE && !strcmp(st->culprit, id))
		return "culprit";
	if (!strcmp(st->good, id))
		return "good";
	if (!strcmp(st->bad, id))
		return "bad";
	return m == BISECT_UNTESTED ? NULL : bisect_mark_name(m);
}

int scan_order_commits(struct scan *s, unsigned flags)
{
	struct placer pos;
	char *path;

	/* Timestamps first, so anything not named below keeps that order. */
	if (s->nr_commits)
		qsort(s->commits, s->nr_commits, sizeof(*s->commits),
		      cmp_first_seen);
	s->order = "timestamps";
	placer_init(&pos, s);

	path = xstrfmt("%s/bisect-state.json", s->dir);
	if (store_file_exists(path)) {
		struct strbuf why = STRBUF_INIT, *prev = NULL;
		int rc;
		if (flags & SCAN_STATE_OPTIONAL)
			prev = error_capture(&why);
		rc = state_load(&s->state, path);
		if (flags & SCAN_STATE_OPTIONAL) {
			error_capture(prev);
			if (rc < 0)
				warning("%s; going on without it", why.buf);
		}
		strbuf_release(&why);
		if (rc < 0 && (flags & SCAN_STATE_OPTIONAL)) {
			/* The sweep state or the timestamps order them. */
			state_release(&s->state);
			state_init(&s->state);
			free(path);
			goto sweep;
		}
		free(path);
		if (rc < 0) {
			placer_apply(&pos);
			return -1;
		}
		s->has_state = 1;
		const struct bisect_state *st = &s->state;
		place(&pos, st->good, probe_subject(st, st->good), "good");
		for (size_t i = st->candidates.nr; i-- > 0;) {
			const char *id = st->candidates.v[i];
			place(&pos, id, probe_subject(st, id),
			      state_role(st, id));
		}
		s->order = "bisect-state";
		placer_apply(&pos);
		return 0;
	}
	free(path);
sweep:
	path = xstrfmt("%s/sweep-state.json", s->dir);
	if (store_file_exists(path)) {
		/* Refused as the bisect state is: a warning when optional. */
		struct strbuf why = STRBUF_INIT, *prev = NULL;
		json_t *root, *list, *c;
		size_t i;
		if (flags & SCAN_STATE_OPTIONAL)
			prev = error_capture(&why);
		root = store_json_read(path, STORE_STATE_MAX, 0);
		if (flags & SCAN_STATE_OPTIONAL) {
			error_capture(prev);
			if (!root)
				warning("%s; going on without it", why.buf);
		}
		strbuf_release(&why);
		if (!root && !(flags & SCAN_STATE_OPTIONAL)) {
			free(path);
			placer_apply(&pos);
			return -1;
		}
		list = json_object_get(root, "commits");
		json_array_foreach(list, i, c) {
			const char *id = json_is_string(c) ?
						 json_string_value(c) :
						 json_string_value(json_object_get(c, "commit"));
			const char *subj = json_string_value(
				json_object_get(c, "subject"));
			const char *role = json_string_value(
				json_object_get(c, "role"));
			if (id)
				place(&pos, id, subj, role);
		}
		if (json_array_size(list))
			s->order = "sweep-state";
		json_decref(root);
	}
	free(path);
	placer_apply(&pos);
	return 0;
}
