/*
 * driver_changes.c: every change in the range, not only the answer's
 * (job "runs.changes"). A range can hold more than one: two regressions,
 * or a regression and a later partial fix. Once the answer is named, the
 * parts of the range on either side of it, from the good endpoint to
 * the culprit's parent and from the culprit to the bad endpoint, are
 * looked at: a part whose ends read apart beyond the noise
 * (share_levels_differ) holds another change, and it is bisected on its
 * own, as a range whose endpoints are those two commits, with `auto`
 * (the part's own drop, or rise: an improvement inside a regressed
 * range is one too) and every boot already taken. Each change found
 * splits its part again, until runs.changes are named or no part's ends
 * differ. The answer stays the answer: with a line, the first commit
 * past it; the others are reported beside it.
 *
 * Each part's bisection is a driver of its own, over the same
 * operations, with its state in memory: what it keeps is the changes
 * found (the state's changes), saved after each; a finished run asked
 * again reads them, and takes none of their pairs twice.
 */
#include "driver.h"
#include "driver_priv.h"

#include "share.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A part of the range still to look at: its good end and its bad end. */
struct part {
	char lo[41], hi[41];
};

static void add_part(struct part **parts, size_t *nr, size_t *alloc,
		     const char *lo, const char *hi)
{
	ALLOC_GROW(*parts, *nr + 1, *alloc);
	snprintf((*parts)[*nr].lo, 41, "%s", lo);
	snprintf((*parts)[*nr].hi, 41, "%s", hi);
	(*nr)++;
}

/* Pairs the state's confirmation took of `culprit` and its first parent. */
static unsigned pairs_of(const struct bisect_state *st, const char *culprit)
{
	if (strcmp(st->confirm.culprit, culprit) || !st->confirm.nr_parents)
		return 0;
	return (unsigned)st->confirm.parents[0].nr_pairs;
}

/*
 * Bisect the part lo..hi on its own. 0 with a change kept in the state
 * (and its two parts added), 1 when it names none, -1 to stop.
 */
static int bisect_part(struct driver *d, const struct part *pt,
		       struct part **parts, size_t *nr, size_t *alloc)
{
	struct share_level lo = driver_level_of(d, pt->lo);
	struct share_level hi = driver_level_of(d, pt->hi);
	long at_lo = graph_find(d->graph, pt->lo);
	long at_hi = graph_find(d->graph, pt->hi);
	struct commit_graph g = {0};
	struct bisect_state st;
	struct driver sub;
	struct driver_result res;
	struct job job;
	struct run_counts before;
	enum driver_status r;
	int ret = 1;

	if (at_hi < 0 || !share_levels_differ(&lo, &hi, driver_share_sigma(d)))
		return 1;
	if (!graph_between(d->graph, at_lo, (size_t)at_hi, &g)) {
		graph_release(&g);
		return 1;
	}
	driver_say(d,
		   "[bisect] %.12s..%.12s reads %.1f against %.1f MB/s, beyond "
		   "the noise: another change in its %zu commits, bisected on "
		   "its own",
		   pt->lo, pt->hi, lo.median / 1e6, hi.median / 1e6, g.nr);
	/* Its own drop (or rise), no revert, no search of its own. */
	job = *d->job;
	job.threshold.kind = THRESHOLD_AUTO;
	job.faster = hi.median > lo.median;
	job.revert = 0;
	job.changes = 1;
	state_init(&st);
	memcpy(st.good, pt->lo, 41);
	memcpy(st.bad, pt->hi, 41);
	driver_init(&sub, &job, d->m.ops, d->m.payload, &g, &st);
	sub.m.progress = d->m.progress;
	sub.multi = d->multi;
	r = driver_bisect(&sub, &res);
	before = d->m.counts;
	run_counts_sum(&d->m.counts, &before, &sub.m.counts);
	if (r == DRIVER_ABORT || r == DRIVER_INTERRUPTED) {
		ret = -1;
	} else if (r == DRIVER_CULPRIT && res.parents.nr) {
		struct state_change *c =
			state_add_change(d->st, res.culprit, res.parents.v[0]);
		c->confidence = res.confidence;
		c->pairs = pairs_of(&st, res.culprit);
		c->faster = job.faster;
		driver_say(d,
			   "[bisect] another change: %.12s, %s, confidence "
			   "%.1f%% on %u pairs",
			   res.culprit, job.faster ? "faster" : "slower",
			   res.confidence * 100, c->pairs);
		add_part(parts, nr, alloc, pt->lo, res.parents.v[0]);
		add_part(parts, nr, alloc, res.culprit, pt->hi);
		ret = driver_save(d) ? -1 : 0;
	} else {
		driver_say(d, "[bisect] %.12s..%.12s: no change named%s%s",
			   pt->lo, pt->hi, res.message ? ": " : "",
			   res.message ? res.message : "");
	}
	driver_result_release(&res);
	driver_release(&sub);
	state_release(&st);
	graph_release(&g);
	return ret;
}

/* Oldest first: a change whose parent is another's commit comes after. */
static int older(struct driver *d, const struct state_change *a,
		 const struct state_change *b)
{
	return graph_find(d->graph, a->commit) > graph_find(d->graph, b->commit);
}

/* The changes kept, as the report shows them, oldest first. */
static void changes_result(struct driver *d, struct driver_result *res)
{
	const struct bisect_state *st = d->st;
	struct share_input in = {
		.good = driver_level_of(d, d->good),
		.bad = driver_level_of(d, d->bad),
		.sigma = driver_share_sigma(d),
		.same_image = 0,
	};
	size_t *order = xcalloc(st->nr_changes + 1, sizeof(*order));

	for (size_t i = 0; i < st->nr_changes; i++) {
		size_t k = i;
		while (k > 0 && older(d, &st->changes[i],
				      &st->changes[order[k - 1]])) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = i;
	}
	for (size_t i = 0; i < st->nr_changes; i++) {
		const struct state_change *c = &st->changes[order[i]];
		struct bisect_report_change *rc =
			bisect_report_answer_add_change(&res->answer);
		struct share sh;

		memcpy(rc->commit, c->commit, 41);
		memcpy(rc->parent, c->parent, 41);
		rc->confidence = c->confidence;
		rc->pairs = c->pairs;
		rc->faster = c->faster;
		rc->answer = !strcmp(c->commit, res->culprit);
		in.parent = driver_level_of(d, c->parent);
		in.culprit = driver_level_of(d, c->commit);
		if (!share_account(&sh, &in)) {
			rc->change_pct = sh.culprit_pct;
			rc->explains_pct = sh.explains_pct;
		}
	}
	free(order);
}

int driver_changes(struct driver *d, struct driver_result *res)
{
	struct bisect_state *st = d->st;
	struct part *parts = NULL;
	size_t nr = 0, alloc = 0;
	int ret = 0;

	if (d->job->changes < 2 || !res->parents.nr)
		return 0;
	if (!st->changes_sought) {
		if (!st->nr_changes) {
			struct state_change *c = state_add_change(
				st, res->culprit, res->parents.v[0]);
			c->confidence = res->confidence;
			c->pairs = pairs_of(st, res->culprit);
			c->faster = d->job->faster;
		}
		/*
		 * The answer explains the endpoints' drop within the noise:
		 * no other change to seek, and no part's ends to boot.
		 */
		if (!res->answer.have_share || res->answer.rest_beyond_noise) {
			add_part(&parts, &nr, &alloc, d->good,
				 res->parents.v[0]);
			add_part(&parts, &nr, &alloc, res->culprit, d->bad);
		}
		for (size_t i = 0; i < nr && ret >= 0 &&
				   st->nr_changes < (size_t)d->job->changes;
		     i++)
			ret = bisect_part(d, &parts[i], &parts, &nr, &alloc);
		free(parts);
		if (ret < 0)
			return -1;
		st->changes_sought = 1;
		if (driver_save(d))
			return -1;
	}
	changes_result(d, res);
	return 0;
}
