/*
 * driver_answer.c: what stands beside the answer. A commit the steps
 * named whose kernel image is its parent's byte for byte cannot be the
 * slowdown: the drop its boots read was noise, so it is never named and
 * the range is judged again (driver.c). And a named answer's drop within
 * its pairs is set against the endpoints' drop: how much of it the one
 * commit explains, and whether what it leaves is more than the noise (a
 * second change in the range, or a later partial fix).
 */
#include "driver.h"
#include "driver_priv.h"

#include <math.h>
#include <string.h>

/*
 * The culprit at `node` and its parent `same` are one kernel, which the
 * steps judged slow and fast: one verdict was noise, and both get one
 * mark. A culprit slow for more than a step's verdict (the bad endpoint,
 * or a commit marked slow as its child's same kernel) makes its parent
 * slow; any other is marked fast, as its parent is. The culprit is kept
 * in the state's same_image, never to be named. 1 when a mark was given,
 * 0 when the mark cannot be given (an endpoint's), -1 to stop.
 */
static int one_kernel(struct driver *d, size_t node, const char *same)
{
	struct bisect_state *st = d->st;
	const char *culprit = d->graph->nodes[node].id;
	long at = graph_find(d->graph, same);
	int parent_slow = node == 0;
	const char *id;
	enum bisect_mark mark;

	for (size_t i = st->nr_marks; !parent_slow && i-- > 0;)
		if (!strcmp(st->marks[i].commit, culprit)) {
			parent_slow = st->marks[i].by_pairs &&
				      st->marks[i].mark == BISECT_BAD &&
				      strvec_index(&st->same_image, culprit) < 0;
			break;
		}
	/* Each commit of the range once: one kernel's chain is no longer. */
	if ((parent_slow && at <= 0) || ++d->same_images > d->graph->nr)
		return 0;
	driver_say(d,
		   "[bisect] %.12s has its parent %.12s's kernel image byte "
		   "for byte: it cannot be the slowdown, and one of their "
		   "verdicts was noise; it is not named",
		   culprit, same);
	if (strvec_index(&st->same_image, culprit) < 0)
		strvec_push(&st->same_image, culprit);
	id = parent_slow ? same : culprit;
	mark = parent_slow ? BISECT_BAD : BISECT_GOOD;
	driver_say(d, "[bisect] %.12s is marked %s, as %.12s is", id,
		   parent_slow ? "slow" : "fast", parent_slow ? culprit : same);
	/* The mark outlives the doubt, as the pairs' do. */
	if (bisect_mark(&d->engine, (size_t)graph_find(d->graph, id), mark))
		return -1;
	state_add_mark(st, id, mark);
	st->marks[st->nr_marks - 1].by_pairs = 1;
	return driver_save(d) ? -1 : 1;
}

int driver_same_image(struct driver *d, size_t node)
{
	const char *culprit = d->graph->nodes[node].id;
	struct strvec parents = STRVEC_INIT;
	const char *same = NULL;
	int ret = 0;

	/* A perf answer's drop: a typed one builds no parent to compare. */
	if (!d->m.ops->same_image || d->job->bisect_type != BISECT_PERF)
		return 0;
	driver_culprit_parents(d, node, &parents);
	for (size_t k = 0; k < parents.nr && !same && ret >= 0; k++) {
		struct probe_note n = {0};
		/* Both built (or found built): a cache look-up at most. */
		int r = driver_build_commit(d, culprit, &n);

		if (!r)
			r = driver_build_commit(d, parents.v[k], &n);
		driver_note_release(&n);
		if (r < 0)
			ret = -1;
		else if (!r && d->m.ops->same_image(d->m.payload, culprit,
						     parents.v[k]) == 1)
			same = parents.v[k];
	}
	if (same)
		ret = one_kernel(d, node, same);
	strvec_clear(&parents);
	return ret;
}

/*
 * What the rest may be before it is said to be more than the noise: in
 * standard errors of the two drops' difference (one in 370 by chance
 * for a normal law).
 */
#define ANSWER_REST_SE 3.0

void driver_answer_share(struct driver *d, const char *culprit,
			 struct driver_result *res)
{
	struct bisect_report_answer *a = &res->answer;
	const struct state_probe *p = NULL;
	const struct verdict *sep = &d->sep;
	struct noise_model nm;
	double le, lc, se;

	for (size_t i = 0; i < d->st->nr_probes; i++)
		if (d->st->probes[i].role == ROLE_CONFIRM &&
		    !strcmp(d->st->probes[i].commit, culprit))
			p = &d->st->probes[i];
	if (!p || !d->separated || !isfinite(p->v.effect_pct) ||
	    !p->v.good_boots || !(sep->base_median > 0) ||
	    !(sep->cand_median > 0) || !sep->n_base || !sep->n_cand)
		return;
	le = log(sep->cand_median / sep->base_median);
	/* The pairs' figure is of the side sought (verdict_pairs). */
	lc = log1p(p->v.effect_pct / 100) * (d->job->faster ? -1 : 1);
	if (!le)
		return;
	measure_noise(&d->m, &nm);
	/* The endpoints' medians, and a ratio within each of n pairs. */
	se = nm.sigma * sqrt(1.0 / (double)sep->n_base +
			     1.0 / (double)sep->n_cand +
			     2.0 / (double)p->v.good_boots);
	a->have_share = 1;
	a->endpoints_pct = (exp(le) - 1) * 100;
	a->culprit_pct = (exp(lc) - 1) * 100;
	a->explains_pct = lc / le * 100;
	a->rest_beyond_noise = fabs(le - lc) > ANSWER_REST_SE * se;
	driver_say(d,
		   "[bisect] %.12s explains %.0f%% of the endpoints' drop "
		   "(%+.1f%% within its pairs, the endpoints %+.1f%%)%s",
		   culprit, a->explains_pct, a->culprit_pct, a->endpoints_pct,
		   a->rest_beyond_noise ? "; the rest is beyond the noise: a "
					  "second change may be in the range"
					: "");
}
