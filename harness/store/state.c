/*
 * state.c: the bisection state in memory (see state.h): its probes and
 * marks, and the bisect log. Its JSON form is state_json.c's, its file
 * (the atomic save, the load that refuses a corrupt file) state_file.c's,
 * the results folder's lock state_lock.c's.
 */
#include "state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void state_init(struct bisect_state *s)
{
	memset(s, 0, sizeof(*s));
	s->confidence = NAN;
	s->doubt_from = -1;
}

static void verdict_release(struct state_verdict *v)
{
	free(v->verdict);
	v->verdict = NULL;
}

static void probe_release(struct state_probe *p)
{
	free(p->subject);
	free(p->build_key);
	verdict_release(&p->v);
	free(p->log);
	free(p->first_error);
	free(p->started);
	free(p->ended);
}

void state_release(struct bisect_state *s)
{
	free(s->job_hash);
	free(s->job_name);
	free(s->good_rev);
	free(s->bad_rev);
	strvec_clear(&s->candidates);
	for (size_t i = 0; i < s->nr_probes; i++)
		probe_release(&s->probes[i]);
	free(s->probes);
	free(s->marks);
	strvec_clear(&s->suspects);
	state_confirm_clear(&s->confirm);
	state_revert_clear(&s->revert);
	strvec_clear(&s->same_image);
	strvec_clear(&s->between);
	free(s->changes);
	free(s->started);
	free(s->updated);
	free(s->unit);
	state_init(s);
}

static void copy_id(char dst[41], const char *src)
{
	snprintf(dst, 41, "%s", src ? src : "");
}

struct state_probe *state_add_probe(struct bisect_state *s, const char *commit,
				    enum probe_role role)
{
	struct state_probe *p;

	ALLOC_GROW(s->probes, s->nr_probes + 1, s->alloc_probes);
	p = &s->probes[s->nr_probes++];
	memset(p, 0, sizeof(*p));
	copy_id(p->commit, commit);
	p->role = role;
	p->outcome = PROBE_UNDECIDED;
	p->v.good_median = p->v.median = NAN;
	p->v.good_stddev_pct = p->v.stddev_pct = NAN;
	p->v.effect_pct = p->v.p_value = p->v.error = p->v.llr = NAN;
	return p;
}

void state_add_mark(struct bisect_state *s, const char *commit,
		    enum bisect_mark mark)
{
	ALLOC_GROW(s->marks, s->nr_marks + 1, s->alloc_marks);
	copy_id(s->marks[s->nr_marks].commit, commit);
	s->marks[s->nr_marks].mark = mark;
	s->marks[s->nr_marks].by_pairs = 0;
	s->nr_marks++;
}

void state_confirm_clear(struct state_confirm *c)
{
	for (size_t i = 0; i < c->nr_parents; i++)
		free(c->parents[i].pairs);
	free(c->parents);
	memset(c, 0, sizeof(*c));
}

void state_revert_clear(struct state_revert *r)
{
	strvec_clear(&r->conflicts);
	state_confirm_clear(&r->pairs);
	memset(r, 0, sizeof(*r));
}

struct state_confirm_parent *state_confirm_add_parent(struct state_confirm *c,
						      const char *parent,
						      unsigned parent_from)
{
	struct state_confirm_parent *p;

	ALLOC_GROW(c->parents, c->nr_parents + 1, c->alloc_parents);
	p = &c->parents[c->nr_parents++];
	memset(p, 0, sizeof(*p));
	copy_id(p->parent, parent);
	p->parent_from = parent_from;
	return p;
}

void state_confirm_add_pair(struct state_confirm_parent *p, unsigned parent,
			    unsigned culprit)
{
	ALLOC_GROW(p->pairs, p->nr_pairs + 1, p->alloc_pairs);
	p->pairs[p->nr_pairs].parent = parent;
	p->pairs[p->nr_pairs].culprit = culprit;
	p->nr_pairs++;
}

const struct state_probe *state_find_probe(const struct bisect_state *s,
					   const char *commit)
{
	for (size_t i = s->nr_probes; i-- > 0;)
		if (!strcmp(s->probes[i].commit, commit))
			return &s->probes[i];
	return NULL;
}

enum bisect_mark state_find_mark(const struct bisect_state *s,
				 const char *commit)
{
	for (size_t i = s->nr_marks; i-- > 0;)
		if (!strcmp(s->marks[i].commit, commit))
			return s->marks[i].mark;
	return BISECT_UNTESTED;
}

static void log_mark_line(struct strbuf *out, enum bisect_mark mark,
			  const char *id, const char *subject)
{
	strbuf_addf(out, "# %s: [%s] %s\n", bisect_mark_name(mark), id,
		    subject ? subject : "");
	strbuf_addf(out, "git bisect %s %s\n", bisect_mark_name(mark), id);
}

static void log_verdict(struct strbuf *out, const struct state_probe *p)
{
	const struct state_verdict *v = &p->v;

	if (!probe_outcome_measured(p->outcome)) {
		strbuf_addf(out, "#   %s", probe_outcome_name(p->outcome));
		if (p->first_error)
			strbuf_addf(out, ": %s", p->first_error);
		if (p->log)
			strbuf_addf(out, " (log: %s)", p->log);
		strbuf_addch(out, '\n');
		return;
	}
	if (!v->verdict) {
		if (v->boots && isfinite(v->median))
			strbuf_addf(out, "#   measured: %.1f MB/s ±%.0f%% (%u "
					 "boots)\n",
				    v->median / 1e6, v->stddev_pct, v->boots);
		return;
	}
	strbuf_addf(out,
		    "#   %s: %.1f MB/s ±%.0f%% (%u boots) vs good %.1f MB/s "
		    "±%.0f%% (%u boots): %+.1f%%, ",
		    v->verdict, v->median / 1e6, v->stddev_pct, v->boots,
		    v->good_median / 1e6, v->good_stddev_pct, v->good_boots,
		    v->effect_pct);
	/* States written before the sequential verdicts carry a p-value. */
	if (isfinite(v->llr))
		strbuf_addf(out, "llr %+.1f, error %.2g\n", v->llr, v->error);
	else
		strbuf_addf(out, "p=%.3g\n", v->p_value);
}

void state_log(const struct bisect_state *s, struct strbuf *out)
{
	strbuf_addf(out, "git bisect start '%s' '%s'\n", s->bad, s->good);
	if (s->unit)
		strbuf_addf(out, "# figures in %s\n", s->unit);
	for (size_t i = 0; i <= s->nr_marks; i++) {
		const struct state_mark *m;
		const struct state_probe *p = NULL;
		if ((long)i == s->doubt_from)
			strbuf_addstr(out, "# the steps' good and bad marks "
					   "above are in doubt from here on\n");
		if (i == s->nr_marks)
			break;
		m = &s->marks[i];
		/*
		 * The probe that gave this mark (a confirmation can re-mark a
		 * commit a step marked), else the commit's last one.
		 */
		for (size_t k = 0; k < s->nr_probes && !p; k++)
			if (!strcmp(s->probes[k].commit, m->commit) &&
			    s->probes[k].mark == m->mark)
				p = &s->probes[k];
		if (!p)
			p = state_find_probe(s, m->commit);
		log_mark_line(out, m->mark, m->commit,
			      p ? p->subject : NULL);
		if (p)
			log_verdict(out, p);
	}
	switch (s->status) {
	case STATE_DONE: {
		const struct state_probe *p = state_find_probe(s, s->culprit);
		strbuf_addf(out, "# first bad commit: [%s] %s\n", s->culprit,
			    p && p->subject ? p->subject : "");
		if (isfinite(s->confidence))
			strbuf_addf(out, "# confidence: %.1f%%\n",
				    s->confidence * 100);
		break;
	}
	case STATE_INCONCLUSIVE:
		strbuf_addstr(out, "# only skipped commits left to test\n");
		for (size_t i = 0; i < s->suspects.nr; i++) {
			const struct state_probe *p =
				state_find_probe(s, s->suspects.v[i]);
			strbuf_addf(out, "# possible first bad commit: [%s] %s\n",
				    s->suspects.v[i],
				    p && p->subject ? p->subject : "");
		}
		break;
	case STATE_NOT_SEPARATED:
		strbuf_addstr(out, "# the endpoints are not separated by the "
				   "threshold\n");
		break;
	case STATE_ABORTED:
		strbuf_addstr(out, "# aborted: an endpoint could not be "
				   "measured\n");
		break;
	case STATE_RUNNING:
		break;
	}
}

struct state_change *state_add_change(struct bisect_state *s,
				      const char *commit, const char *parent)
{
	struct state_change *c;

	ALLOC_GROW(s->changes, s->nr_changes + 1, s->alloc_changes);
	c = &s->changes[s->nr_changes++];
	memset(c, 0, sizeof(*c));
	snprintf(c->commit, sizeof(c->commit), "%s", commit);
	snprintf(c->parent, sizeof(c->parent), "%s", parent);
	c->confidence = NAN;
	return c;
}
