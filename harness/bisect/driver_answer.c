/*
 * driver_answer.c: what stands beside the answer. A commit the steps
 * named whose kernel image is its parent's byte for byte cannot be the
 * slowdown: the drop its boots read was noise, so it is never named and
 * the range is judged again (driver.c). And a named answer's drop against
 * its parent is set against the endpoints' drop: how much of it the one
 * commit explains, and whether what it leaves is more than the noise (a
 * second change in the range, or a later partial fix).
 */
#include "driver.h"
#include "driver_priv.h"

#include "share.h"
#include "stats.h"

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

struct share_level driver_level_of(struct driver *d, const char *commit)
{
	struct sample_set s = SAMPLE_SET_INIT;
	struct share_level l = {0, 0};

	if (!measure_load(&d->m, commit, &s) && s.nr) {
		l.median = stats_median(s.values, s.nr);
		l.n = s.nr;
	}
	sample_set_release(&s);
	return l;
}

/*
 * One boot's spread for the accounting: the run's, no quieter than the
 * clock's prior, as levels drift over a run.
 */
double driver_share_sigma(struct driver *d)
{
	struct noise_model nm;

	judge_noise(&d->judge, &nm);
	return fmax(nm.sigma, d->judge.machine->prior_sigma);
}

/*
 * Both drops from the medians of all the four commits' boots, as the
 * report's table shows them: within the culprit's pairs alone, one pair
 * in a slower stretch of the host (one pair confirms a cliff) read a
 * drop 8% deeper than the medians on the demo's virtual clock. The sums
 * are share_account's (share.h).
 */
void driver_answer_share(struct driver *d, const char *culprit,
			 struct driver_result *res)
{
	struct bisect_report_answer *a = &res->answer;
	struct share_input in;
	struct share sh;

	/* No share of a drop whose slow end was not measured. */
	if (!res->parents.nr || driver_bad_unbuilt(d))
		return;
	in = (struct share_input){
		.good = driver_level_of(d, d->good),
		.bad = driver_level_of(d, d->bad),
		.culprit = driver_level_of(d, culprit),
		.sigma = driver_share_sigma(d),
		.same_image = 0, /* such a culprit is never named */
	};
	in.parent = driver_level_of(d, res->parents.v[0]);
	if (share_account(&sh, &in))
		return;
	a->have_share = 1;
	a->endpoints_pct = sh.endpoints_pct;
	a->culprit_pct = sh.culprit_pct;
	a->explains_pct = sh.explains_pct;
	a->rest_pct = sh.rest_pct;
	a->rest_beyond_noise = sh.rest_beyond_noise;
	driver_say(d,
		   "[bisect] %.12s explains %.0f%% of the endpoints' drop "
		   "(%+.1f%% against its parent, the endpoints %+.1f%%)%s",
		   culprit, a->explains_pct, a->culprit_pct, a->endpoints_pct,
		   a->rest_beyond_noise ? "; the rest is beyond the noise: "
					  "another change in the range"
					: "");
}
