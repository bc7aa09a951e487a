/*
 * driver_revert.c: the revert check. After an answer, the bad endpoint
 * with the culprit reverted (a commit of the operations' own object
 * database that no ref names, ops->revert) is built once and booted in
 * pairs against the bad endpoint, as the answer's pairs are (alternating,
 * judged within each pair): how much of the endpoints' drop taking the
 * one commit out brings back. It stops when the pairs are decisive
 * either way (all of the drop, or none of it) or at runs.max pairs. Its
 * pairs are kept in the state after each ("revert"), so a run stopped
 * within them resumes on them. It is reported beside the answer, which is
 * saved before it begins and which nothing here can change.
 */
#include "driver.h"
#include "driver_priv.h"

#include "progress.h"
#include "run.h"
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void failed(struct bisect_report_answer *a, char *why)
{
	a->revert = REPORT_REVERT_FAILED;
	free(a->revert_why);
	a->revert_why = why;
}

/*
 * The record of this revert (its culprit, its commit) resumed: its pairs
 * read again, a pair taken after its last save found; else a new one,
 * saved before the first pair. 0, or -1 to stop.
 */
static int resume(struct driver *d, const char *culprit, const char *commit,
		  struct measure_pairs *p, size_t bad_from)
{
	struct state_revert *rec = &d->st->revert;
	struct state_confirm_parent *cp;
	size_t from;

	if (strcmp(rec->culprit, culprit) || strcmp(rec->commit, commit) ||
	    strcmp(rec->pairs.culprit, d->bad) || rec->pairs.nr_parents != 1) {
		state_revert_clear(rec);
		memcpy(rec->culprit, culprit, 41);
		memcpy(rec->commit, commit, 41);
		memcpy(rec->pairs.culprit, d->bad, 41);
		rec->pairs.culprit_from = (unsigned)bad_from;
		state_confirm_add_parent(&rec->pairs, commit,
					 (unsigned)p->parent_from);
		return driver_save(d) ? -1 : 0;
	}
	cp = &rec->pairs.parents[0];
	from = rec->pairs.culprit_from;
	p->parent_from = cp->parent_from;
	for (size_t i = 0; i < cp->nr_pairs; i++) {
		measure_pairs_push(p, NAN, NAN, cp->pairs[i].parent,
				   cp->pairs[i].culprit);
		if ((size_t)cp->pairs[i].culprit + 1 > from)
			from = (size_t)cp->pairs[i].culprit + 1;
	}
	if (measure_pairs_reread(&d->m, d->bad, p, from))
		return -1;
	driver_keep_pairs(cp, p);
	return 0;
}

/* The figures of the pairs: the revert against the bad endpoint. */
static void figures(struct driver *d, const struct measure_pairs *p,
		    struct bisect_report_answer *a)
{
	/* Pair k's ln(revert / bad): what taking the culprit out brought. */
	double *brought = xcalloc(p->n + 1, sizeof(*brought));
	double endpoints_drop = NAN, typical;

	for (size_t k = 0; k < p->n; k++)
		brought[k] = log(p->pv[k] / p->cv[k]);
	a->revert_pairs = (unsigned)p->n;
	if (!p->n) {
		free(brought);
		return;
	}
	typical = stats_median(brought, p->n);
	a->revert_median = stats_median(p->pv, p->n);
	a->revert_bad = stats_median(p->cv, p->n);
	a->revert_pct = (exp(typical) - 1) * 100;
	a->brought_mbps = a->revert_bad * (exp(typical) - 1) / 1e6;
	if (d->separated && d->sep.base_median > 0 && d->sep.cand_median > 0)
		endpoints_drop = log(d->sep.cand_median / d->sep.base_median);
	/* Of the endpoints' drop (a rise, for a job that seeks one). */
	if (isfinite(endpoints_drop) && endpoints_drop != 0)
		a->brought_pct = -typical / endpoints_drop * 100;
	free(brought);
}

/*
 * The revert does not apply on the bad tip: said, and kept in the state
 * with its conflicting files. 0, or -1 to stop.
 */
static int conflicts(struct driver *d, const char *culprit,
		     struct bisect_report_answer *a)
{
	a->revert = REPORT_REVERT_CONFLICTS;
	driver_say(d, "[bisect] reverting %.12s on the bad tip does "
		      "not apply cleanly: %zu files conflict",
		   culprit, a->conflicts.nr);
	state_revert_clear(&d->st->revert);
	memcpy(d->st->revert.culprit, culprit, 41);
	for (size_t i = 0; i < a->conflicts.nr; i++)
		strvec_push(&d->st->revert.conflicts, a->conflicts.v[i]);
	return driver_save(d) ? -1 : 0;
}

int driver_revert(struct driver *d, const char *culprit,
		  struct driver_result *res)
{
	struct bisect_report_answer *a = &res->answer;
	struct judged_pairs jp = {0};
	struct measure_pairs *p = &jp.boots;
	struct verdict_pairs_input in;
	struct sample_set s = SAMPLE_SET_INIT;
	struct boot_facts fail = {0};
	struct probe_note n = {0};
	char commit[41] = "";
	unsigned boots = d->m.counts.boots, builds = d->m.counts.builds;
	uint64_t t0 = now_ns();
	size_t bad_from;
	int r, ret = -1;

	if (!d->job->revert || d->job->bisect_type != BISECT_PERF ||
	    !d->m.ops->revert || !d->bad || !*d->bad)
		return 0;
	memcpy(a->reverted, culprit, 41);
	strvec_clear(&a->conflicts);
	if (d->job->prebuilt) {
		failed(a, xstrdup("the images are made elsewhere (prebuilt): "
				  "none is the revert's"));
		return 0;
	}
	r = d->m.ops->revert(d->m.payload, d->bad, culprit, commit,
			     &a->conflicts);
	if (r < 0) {
		/* Beside the answer: it stands without it. */
		failed(a, xstrdup(error_last() ? error_last()
					       : "the revert failed"));
		return 0;
	}
	if (r > 0)
		return conflicts(d, culprit, a);
	memcpy(a->revert_commit, commit, 41);
	driver_say(d, "[bisect] the bad tip with %.12s reverted (%.12s): "
		      "built once, booted in pairs against the bad tip "
		      "(runs.revert)",
		   culprit, commit);
	r = driver_build_commit(d, commit, &n);
	if (!r)
		r = driver_build_commit(d, d->bad, &n);
	if (r > 0)
		failed(a, xstrfmt("the revert does not build: %s",
				  driver_failure_text(&n)));
	if (r < 0)
		goto out;
	if (r)
		goto done;
	if (d->m.progress)
		progress_commit(d->m.progress, "revert", 0, 0, commit, NULL);
	p->parent = commit;
	if (measure_load(&d->m, commit, &s))
		goto out;
	p->parent_from = s.nr;
	if (measure_load(&d->m, d->bad, &s))
		goto out;
	bad_from = s.nr;
	if (resume(d, culprit, commit, p, bad_from))
		goto out;
	/*
	 * The drop the answer's pairs sought, seen from the revert: the bad
	 * tip slower than it by all of it, or by none. Loose errors: it
	 * measures a size, it decides nothing.
	 */
	r = judge_pairs_input(&d->judge, &in, d->separated ? &d->sep : NULL,
			      DRIVER_STEP_ERROR, DRIVER_STEP_ERROR);
	if (r < 0)
		goto out;
	if (r > 0) {
		failed(a, xstrdup("the threshold draws no drop"));
		goto done;
	}
	r = driver_take_pairs(d, d->bad, &d->st->revert.pairs.parents[0], &jp,
			      &in, (size_t)d->job->runs_max, &fail);
	if (r > 0)
		failed(a, xstrfmt("boots failed (%s)", boot_facts_text(&fail)));
	if (r < 0)
		goto out;
	a->revert = a->revert == REPORT_REVERT_FAILED ? a->revert
						       : REPORT_REVERT_MEASURED;
	figures(d, p, a);
	if (a->revert == REPORT_REVERT_MEASURED)
		driver_say(d,
			   "[bisect] reverting %.12s on the bad tip brings "
			   "back %.0f%% of the drop (%+.1f MB/s; %zu pairs, "
			   "%+.1f%% within a pair)",
			   culprit, a->brought_pct, a->brought_mbps, p->n,
			   a->revert_pct);
done:
	if (d->m.progress)
		progress_commit_done(d->m.progress);
	ret = 0;
out:
	/*
	 * A stop (SIGINT) leaves its pairs kept for the run that resumes;
	 * any other failure leaves the answer as it stands, and says why.
	 */
	if (ret < 0 && !run_interrupted()) {
		failed(a, xstrdup(error_last() ? error_last() : "it failed"));
		ret = 0;
	}
	a->revert_boots = d->m.counts.boots - boots;
	a->revert_builds = d->m.counts.builds - builds;
	a->revert_seconds = (double)(now_ns() - t0) / 1e9;
	driver_note_release(&n);
	boot_facts_release(&fail);
	sample_set_release(&s);
	judged_pairs_release(&jp);
	return ret;
}
