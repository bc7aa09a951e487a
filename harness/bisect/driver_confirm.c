/*
 * driver_confirm.c: the answer's evidence. An answer is a claim about two
 * commits, the culprit and its parent (each parent, for a merge): that
 * the one is slower than the other by the drop sought. So it is judged on
 * fresh boots of both taken side by side: pairs, parent and culprit back
 * to back, alternating all the way (ABAB..., the first drawn by a seed of
 * the commits, so a rerun repeats it), judged on the ratio within each
 * pair (verdict_pairs) until those pairs alone reach the job's
 * confidence. Not AB BA: that puts two boots of one commit side by side,
 * and one slow stretch of the machine over them reads as a drop in two
 * pairs at once (measured: 3-5% wrong answers on the sensitivity's mode
 * machine, against none alternating). Whatever speed the machine had for
 * those seconds is in both boots of a pair and cancels, so a machine whose
 * speed moves between pairs cannot make the answer; no answer is exempt,
 * a cliff included (it costs a pair there). Pairs that say there is no such drop re-mark the
 * commit their fresh boots show misjudged and re-open the range.
 */
#include "driver.h"
#include "driver_priv.h"

#include "progress.h"
#include "stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void driver_culprit_parents(struct driver *d, size_t node, struct strvec *out)
{
	const struct commit_node *c = &d->graph->nodes[node];

	strvec_clear(out);
	for (size_t k = 0; k < c->nr_parents; k++)
		strvec_push(out, d->graph->nodes[c->parents[k]].id);
	for (int k = 0; k < c->outside_parents; k++)
		strvec_push(out, c->outside ? c->outside[k] : d->good);
}

/*
 * The pairs said the culprit is not slower than this parent: which of
 * the two did the steps misjudge? Each is judged on its fresh boots (its
 * pairs') against the run's levels: the culprit now fast, or the parent
 * now slow; when neither verdict decides, the one further from the side
 * its step gave it. A commit the range cannot re-mark (an endpoint, or a
 * parent outside) leaves the other. 0 with *which (0 the culprit, 1 the
 * parent; -1 neither can be), -1 to stop.
 */
static int misjudged(struct driver *d, size_t node, const char *culprit,
		     size_t culprit_from, const struct measure_pairs *p,
		     int *which)
{
	struct verdict vc = {0}, vp = {0};
	struct sample_set s = SAMPLE_SET_INIT;
	long at = graph_find(d->graph, p->parent);
	int can_c = node != 0, can_p = at > 0, rc, rp;

	*which = can_c ? 0 : can_p ? 1 : -1;
	if (!can_c || !can_p)
		return 0;
	rc = judge_step(&d->judge, culprit, culprit_from, DRIVER_STEP_ERROR,
			&vc, &s);
	rp = rc < 0 ? -1
		    : judge_step(&d->judge, p->parent, p->parent_from,
				 DRIVER_STEP_ERROR, &vp, &s);
	sample_set_release(&s);
	if (rc < 0 || rp < 0)
		return -1;
	if (!rc && vc.kind == VERDICT_GOOD)
		*which = 0;
	else if (!rp && vp.kind == VERDICT_BAD)
		*which = 1;
	else if (!rc && !rp)
		/* ln odds for "slow" of each: the less slow culprit, or the
		   more slow parent, was misjudged. */
		*which = -vc.llr >= vp.llr ? 0 : 1;
	return 0;
}

/* The verdicts the answer rests on, in the state: role "confirm". */
static void record_pairs(struct driver *d, const char *commit,
			 const struct verdict *v, enum bisect_mark remark)
{
	struct probe_note n = {0};
	struct sample_set s = SAMPLE_SET_INIT;

	if (measure_load(&d->m, commit, &s)) {
		sample_set_release(&s);
		return;
	}
	n.outcome = PROBE_FAST; /* measured */
	n.have_verdict = v && v->n_cand > 0;
	if (n.have_verdict)
		n.v = *v;
	driver_note_figures(&n, &s);
	driver_record(d, commit, ROLE_CONFIRM, &n, remark);
	sample_set_release(&s);
}

/* The pairs as the record keeps them, the last one included. */
void driver_keep_pairs(struct state_confirm_parent *rec,
		       const struct measure_pairs *p)
{
	rec->nr_pairs = 0;
	for (size_t i = 0; i < p->n; i++)
		state_confirm_add_pair(rec, (unsigned)p->p_at[i],
				       (unsigned)p->c_at[i]);
}

/* The record is of this confirmation: its culprit and its parents. */
static int record_is_of(const struct state_confirm *c, const char *culprit,
			const struct judged_pairs *pairs, size_t nr)
{
	if (strcmp(c->culprit, culprit) || c->nr_parents != nr)
		return 0;
	for (size_t k = 0; k < nr; k++)
		if (strcmp(c->parents[k].parent, pairs[k].boots.parent))
			return 0;
	return 1;
}

/*
 * The confirmation's record in the state (struct state_confirm). A
 * stopped run's of this culprit and these parents is resumed: the boots
 * before its pairs as it counted them, its pairs read again, and a pair
 * taken after its last save (measure_pairs_reread). Otherwise a new one
 * from the boots stored now, saved before the first pair, so that pair
 * is found again however soon the run stops. 0, or -1 to stop.
 */
static int resume_record(struct driver *d, const char *culprit,
			 struct judged_pairs *pairs, size_t nr,
			 size_t *culprit_from)
{
	struct state_confirm *c = &d->st->confirm;
	size_t from;

	if (!record_is_of(c, culprit, pairs, nr)) {
		state_confirm_clear(c);
		memcpy(c->culprit, culprit, 41);
		c->culprit_from = (unsigned)*culprit_from;
		for (size_t k = 0; k < nr; k++)
			state_confirm_add_parent(
				c, pairs[k].boots.parent,
				(unsigned)pairs[k].boots.parent_from);
		return driver_save(d) ? -1 : 0;
	}
	*culprit_from = from = c->culprit_from;
	for (size_t k = 0; k < nr; k++) {
		const struct state_confirm_parent *cp = &c->parents[k];
		pairs[k].boots.parent_from = cp->parent_from;
		for (size_t i = 0; i < cp->nr_pairs; i++) {
			measure_pairs_push(&pairs[k].boots, NAN, NAN,
					   cp->pairs[i].parent,
					   cp->pairs[i].culprit);
			if ((size_t)cp->pairs[i].culprit + 1 > from)
				from = (size_t)cp->pairs[i].culprit + 1;
		}
	}
	/*
	 * The culprit's boots after every pair recorded are the parent's
	 * whose pairs were under way: one parent's pairs end before the
	 * next one's begin, so only that parent has boots of its own after
	 * its record's.
	 */
	for (size_t k = 0; k < nr; k++) {
		struct measure_pairs *p = &pairs[k].boots;
		if (measure_pairs_reread(&d->m, culprit, p, from))
			return -1;
		if (p->n && p->c_at[p->n - 1] + 1 > from)
			from = p->c_at[p->n - 1] + 1;
		driver_keep_pairs(&d->st->confirm.parents[k], p);
	}
	return 0;
}

/*
 * Pairs (judge_pairs) one at a time, each kept in `rec` and the state
 * saved before the next is booted: a run stopped anywhere in them loses
 * at most the pair under way. 0, 1 when boots kept failing, -1 to stop.
 */
int driver_take_pairs(struct driver *d, const char *commit,
		      struct state_confirm_parent *rec, struct judged_pairs *p,
		      struct verdict_pairs_input *in, size_t cap,
		      struct boot_facts *fail)
{
	for (;;) {
		size_t had = p->boots.n;
		int r = judge_pairs(&d->judge, commit, p, in,
				    had < cap ? had + 1 : cap, fail);

		if (r)
			return r;
		if (p->boots.n > had) {
			driver_keep_pairs(rec, &p->boots);
			if (driver_save(d))
				return -1;
		}
		if (p->decided || p->boots.n >= cap)
			return 0;
	}
}

/*
 * The culprit's parents built, and the boots each commit had before its
 * pairs: 0, 1 when a parent cannot be measured (res says why), -1 to
 * stop.
 */
static int parents_built(struct driver *d, const char *culprit,
			 struct judged_pairs *pairs, size_t nr,
			 size_t *culprit_from, struct driver_result *res)
{
	struct sample_set s = SAMPLE_SET_INIT;
	int ret = -1;

	if (measure_load(&d->m, culprit, &s))
		goto out;
	*culprit_from = s.nr;
	for (size_t k = 0; k < nr; k++) {
		struct measure_pairs *p = &pairs[k].boots;
		struct probe_note n = {0};
		int r;
		p->parent = res->parents.v[k];
		r = driver_build_commit(d, p->parent, &n);
		if (r > 0)
			driver_set_message(res,
					   xstrfmt("the culprit's parent %.12s "
						   "cannot be measured: %s",
						   p->parent,
						   driver_failure_text(&n)));
		driver_note_release(&n);
		if (r) {
			ret = r;
			goto out;
		}
		if (measure_load(&d->m, p->parent, &s))
			goto out;
		p->parent_from = s.nr;
	}
	ret = 0;
out:
	sample_set_release(&s);
	return ret;
}

/*
 * The pairs of `p` say the culprit at `node` is not slower than this
 * parent: re-mark the commit they show misjudged, and re-open the range
 * (*reopen); when neither can be re-marked, res says so. 0, or -1 to
 * stop.
 */
static int contradicted(struct driver *d, size_t node, size_t culprit_from,
			const struct judged_pairs *p, struct driver_result *res,
			int *reopen)
{
	const char *culprit = d->graph->nodes[node].id, *id;
	const char *parent = p->boots.parent;
	enum bisect_mark mark;
	int which;

	if (misjudged(d, node, culprit, culprit_from, &p->boots, &which))
		return -1;
	if (which < 0) {
		driver_set_message(
			res, xstrfmt("the pairs of %.12s and its parent %.12s "
				     "show no drop, and neither can be "
				     "re-marked: the machine's speed moved "
				     "during the run, or the slowdown is older "
				     "than the range",
				     culprit, parent));
		return 0;
	}
	id = which ? parent : culprit;
	mark = which ? BISECT_BAD : BISECT_GOOD;
	driver_say(d,
		   "[bisect] the pairs contradict the steps: %.12s is %s; "
		   "re-opening the range",
		   id, which ? "slow" : "fast");
	if (bisect_mark(&d->engine, (size_t)graph_find(d->graph, id), mark))
		return -1;
	record_pairs(d, id, &p->v, mark);
	res->reopened++;
	*reopen = 1;
	/* Its pairs are done with: the range is open again. */
	if (d->st)
		state_confirm_clear(&d->st->confirm);
	return 0;
}

/*
 * Confirm the culprit at `node` against each parent, pair by pair, until
 * the pairs alone reach the job's confidence (each parent at most twice
 * runs.max pairs). *conf gets the answer's confidence (0 when it could not
 * be judged: res's message says why); *reopen is set when the pairs
 * contradicted the steps and a commit was re-marked. 0, or -1 to stop.
 */
int driver_confirm(struct driver *d, size_t node, struct driver_result *res,
		   int *reopen, double *conf)
{
	const char *culprit = d->graph->nodes[node].id;
	size_t nr, cap = driver_pairs_cap(d), culprit_from = 0;
	struct judged_pairs *pairs;
	struct verdict_pairs_input in;
	/* Each parent's share of the answer's confidence, so all hold. */
	double each_sure;
	char *subject;
	int ret = -1, r;

	*reopen = 0;
	*conf = 0;
	driver_culprit_parents(d, node, &res->parents);
	nr = res->parents.nr;
	pairs = xcalloc(nr ? nr : 1, sizeof(*pairs));
	if (!nr) {
		driver_set_message(res, xstrfmt("%.12s has no parent to be "
						"compared with",
						culprit));
		goto done;
	}
	r = parents_built(d, culprit, pairs, nr, &culprit_from, res);
	if (r < 0)
		goto out;
	if (r > 0)
		goto done;
	if (d->st && resume_record(d, culprit, pairs, nr, &culprit_from))
		goto out;
	if (d->m.progress) {
		subject = driver_subject(d, culprit);
		progress_commit(d->m.progress, "confirm", 0, 0, culprit, subject);
		free(subject);
	}
	each_sure = pow(d->target, 1.0 / (double)nr);
	r = judge_pairs_input(&d->judge, &in, d->separated ? &d->sep : NULL,
			      1 - each_sure, DRIVER_STEP_ERROR);
	if (r < 0)
		goto out;
	if (r > 0) {
		driver_set_message(res, xstrdup("the answer cannot be "
						"confirmed: the threshold "
						"draws no drop"));
		goto done;
	}
	*conf = 1;
	for (size_t k = 0; k < nr; k++) {
		struct judged_pairs *p = &pairs[k];
		struct boot_facts fail = {0};

		r = d->st ? driver_take_pairs(d, culprit,
					      &d->st->confirm.parents[k], p,
					      &in, cap, &fail)
			  : judge_pairs(&d->judge, culprit, p, &in, cap, &fail);
		if (r > 0)
			driver_set_message(res,
					   xstrfmt("the answer could not be "
						   "confirmed: boots failed (%s)",
						   boot_facts_text(&fail)));
		boot_facts_release(&fail);
		if (r < 0)
			goto out;
		if (r > 0) {
			*conf = 0;
			goto done;
		}
		driver_say(d, "[bisect] %.12s against its parent %.12s: %s",
			   culprit, p->boots.parent, p->v.reason);
		if (p->v.kind == VERDICT_GOOD) {
			*conf = 0;
			if (contradicted(d, node, culprit_from, p, res, reopen))
				goto out;
			break;
		}
		/*
		 * The pairs' odds for the answer. Their error is of the side
		 * they lean to: pairs stopped by the cap leaning against the
		 * answer give it that error, not one less it.
		 */
		*conf *= p->v.llr > 0 ? 1 - p->v.error : p->v.error;
		if (p->v.kind != VERDICT_BAD)
			break; /* the cap: below the target */
	}
done:
	if (!*reopen) {
		record_pairs(d, culprit, nr ? &pairs[0].v : NULL,
			     BISECT_UNTESTED);
		/* A parent that failed to build leaves the later ones unset. */
		for (size_t k = 0; k < nr && pairs[k].boots.parent; k++)
			if (!driver_is_good(d, pairs[k].boots.parent))
				record_pairs(d, pairs[k].boots.parent,
					     &pairs[k].v, BISECT_UNTESTED);
	}
	driver_save(d);
	ret = 0;
out:
	for (size_t k = 0; k < nr; k++)
		judged_pairs_release(&pairs[k]);
	free(pairs);
	return ret;
}
