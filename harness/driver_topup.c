/*
 * driver_topup.c: the answer's evidence. The culprit the steps named and
 * each of its parents are judged again, on boots taken after their steps
 * chose them, and booted (the least sure first) until the product of the
 * verdicts' confidences reaches the job's target; a verdict that turns
 * against its step re-marks that commit and re-opens the range.
 */
#include "driver.h"
#include "driver_priv.h"

#include "noise.h"
#include "progress.h"
#include "run.h"
#include "stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The chance that a commit judged by `v` is not slow, or not fast. */
static double wrong_if_slow(const struct verdict *v)
{
	return v->llr > 700 ? 0 : v->llr < -700 ? 1 : 1 / (1 + exp(v->llr));
}

static double wrong_if_fast(const struct verdict *v)
{
	return v->llr < -700 ? 0 : v->llr > 700 ? 1 : 1 / (1 + exp(-v->llr));
}

/* The commits the culprit is judged against: its parents. */
static void culprit_parents(struct driver *d, size_t node, struct strvec *out)
{
	const struct commit_node *c = &d->graph->nodes[node];

	strvec_clear(out);
	for (size_t k = 0; k < c->nr_parents; k++)
		strvec_push(out, d->graph->nodes[c->parents[k]].id);
	for (int k = 0; k < c->outside_parents; k++)
		strvec_push(out, c->outside ? c->outside[k] : d->st->good);
}

/*
 * Are the endpoints DRIVER_CLIFF scales of noise apart or more (their
 * medians, whatever line the threshold draws)? A commit then sits at one
 * level or the other, a boot of it cannot be ambiguous, and a fluke that
 * deep is a hiccup (VERDICT_HICCUP), which the verdicts already price in.
 */
static int is_cliff(const struct driver *d)
{
	const struct verdict *v = &d->sep;

	return d->separated && v->sigma_pct > 0 && v->cand_median > 0 &&
	       v->base_median > 0 &&
	       fabs(log(v->base_median / v->cand_median)) /
			       (v->sigma_pct / 100) >=
		       DRIVER_CLIFF;
}

/*
 * The boots a step took to choose `commit`: the top-up judges it on the
 * boots after those. A commit is chosen as the culprit (or its parent)
 * because its step said slow (fast): those boots are biased toward that
 * verdict (the winner's curse), and a fluke among them would confirm
 * itself. Fresh boots cannot. On a cliff (is_cliff) the step's boots
 * count: no boot there is a near miss.
 */
static size_t chosen_at(const struct driver *d, const char *commit)
{
	for (size_t i = d->st->nr_probes; i-- > 0;) {
		const struct state_probe *p = &d->st->probes[i];
		if (!strcmp(p->commit, commit) &&
		    (!strcmp(p->role, "step") ||
		     !strcmp(p->role, "merge-base")))
			return is_cliff(d) ? 0 : p->v.boots;
	}
	return 0;
}

/* One of the culprit and its parents, as the top-up sees it. */
struct topup_item {
	const char *id;
	int slow;   /* should be slow (the culprit) */
	int judged; /* the good endpoint and a bad-endpoint culprit are not */
	const char *remark; /* the mark a contradicting verdict gave it */
	size_t from;	    /* boots the step chose it with (chosen_at) */
	struct verdict v;
	size_t boots; /* all its boots */
	double wrong; /* chance its side is wrong */
};

/*
 * Judge the culprit and each parent. Returns 0; sets *contra to the item
 * whose verdict contradicts its side at the step's error (or NULL), and
 * *conf to the confidence of the answer as it stands.
 */
static int topup_judge(struct driver *d, struct topup_item *it, size_t nr,
		       struct topup_item **contra, double *conf)
{
	struct sample_set s = SAMPLE_SET_INIT;
	int ret = 0;

	*contra = NULL;
	*conf = d->separated ? 1 - d->sep.error : 1;
	for (size_t i = 0; i < nr; i++) {
		int r;

		if (!it[i].judged)
			continue;
		r = driver_judge(d, it[i].id, it[i].from, DRIVER_STEP_ERROR,
				 &it[i].v, &s);
		if (r < 0) {
			ret = -1;
			break;
		}
		it[i].boots = s.nr;
		if (r > 0) {
			it[i].wrong = 1;
		} else {
			it[i].wrong = it[i].slow ? wrong_if_slow(&it[i].v)
						 : wrong_if_fast(&it[i].v);
			if (it[i].v.kind ==
			    (it[i].slow ? VERDICT_GOOD : VERDICT_BAD))
				*contra = &it[i];
		}
		*conf *= 1 - it[i].wrong;
	}
	sample_set_release(&s);
	return ret;
}

/*
 * Fresh boots of the endpoint `commit`, which has `from` boots so far,
 * judged against the levels the run started with (`good`, `bad`: the
 * endpoints' boots when they were judged, loaded once by the caller). Up
 * to DRIVER_DRIFT_BOOTS boots, until a verdict says which level they are
 * at. 1 when the verdict is the other endpoint's level, 0 when not (its
 * own, still undecided: the answer is not vetoed on weak evidence, which
 * cost found culprits in the sensitivity runs; or a boot failed, which
 * says nothing of speed), -1 to stop. *now_median gets the fresh boots'
 * median.
 */
static int endpoint_moved(struct driver *d, const char *commit, int is_bad,
			  size_t from, const struct sample_set *good,
			  const struct sample_set *bad, double *now_median)
{
	struct sample_set now = SAMPLE_SET_INIT;
	int ret = 0;

	if (!good->nr || !bad->nr)
		return 0;
	for (int k = 0; k < DRIVER_DRIFT_BOOTS; k++) {
		struct probe_note n = {0};
		struct verdict_input in;
		struct noise_model nm;
		struct verdict v;
		int r;

		if (d->progress)
			progress_phase(d->progress, "%.12s again, boot %d",
				       commit, k + 1);
		r = driver_boot_commit(d, commit, &n);
		driver_note_release(&n);
		if (r) {
			ret = r < 0 ? -1 : 0;
			break;
		}
		if (driver_load(d, commit, &now)) {
			ret = -1;
			break;
		}
		if (now.nr <= from)
			break;
		driver_verdict_input(d, &in, good, bad, DRIVER_STEP_ERROR, &nm);
		/* All of the start's boots, not the baseline's window. */
		in.base = good->values;
		in.n_base = good->nr;
		in.cand = now.values + from;
		in.n_cand = now.nr - from;
		*now_median = stats_median(in.cand, in.n_cand);
		if (verdict_decide(&v, &in))
			continue;
		if (v.kind != VERDICT_UNDECIDED) {
			ret = v.kind == (is_bad ? VERDICT_GOOD : VERDICT_BAD);
			break;
		}
	}
	sample_set_release(&now);
	return ret;
}

/* The boots the endpoint of `role` was judged on, at most `nr`. */
static size_t start_boots(const struct driver *d, const char *role, size_t nr)
{
	for (size_t i = 0; i < d->st->nr_probes; i++) {
		const struct state_probe *p = &d->st->probes[i];
		if (!strcmp(p->role, role))
			return p->v.boots && p->v.boots < nr ? p->v.boots : nr;
	}
	return nr;
}

/*
 * Did the machine's speed move during the run? Each endpoint is booted
 * again and judged as a step against the levels the run started with: a
 * good one that now reads slow, or a bad one that now reads fast, means
 * the steps between were judged against levels the machine no longer has,
 * and the culprit is not named (said in res's message). Only endpoints
 * closer than DRIVER_DRIFT_MAX squared are asked: wider ones cannot flip.
 * 1 when it moved, 0 when not, -1 to stop.
 */
static int machine_moved(struct driver *d, struct driver_result *res)
{
	const struct verdict *sep = &d->sep;
	struct sample_set good = SAMPLE_SET_INIT, bad = SAMPLE_SET_INIT;
	int ret = -1;

	if (!d->separated || sep->base_median <= 0 || sep->cand_median <= 0 ||
	    fabs(log(sep->base_median / sep->cand_median)) >=
		    2 * log(DRIVER_DRIFT_MAX))
		return 0;
	if (driver_load(d, d->st->good, &good) ||
	    driver_load(d, d->st->bad, &bad))
		goto out;
	size_t good_all = good.nr, bad_all = bad.nr;
	/* The levels the run started with: the endpoints' own probes. */
	good.nr = start_boots(d, "good", good.nr);
	bad.nr = start_boots(d, "bad", bad.nr);
	for (int k = 0; k < 2; k++) {
		const char *commit = k ? d->st->bad : d->st->good;
		double now = 0;
		int r = endpoint_moved(d, commit, k, k ? bad_all : good_all,
				       &good, &bad, &now);
		if (r < 0)
			goto out;
		if (!r)
			continue;
		driver_set_message(
			res,
			xstrfmt("the %s endpoint %.12s now reads %s (%.1f MB/s "
				"against %.1f good and %.1f bad at the start): "
				"the machine's speed moved during the run, so "
				"the steps' verdicts do not hold and no culprit "
				"is named; run again when the machine is steady",
				k ? "bad" : "good", commit, k ? "fast" : "slow",
				now / 1e6,
				stats_median(good.values, good.nr) / 1e6,
				stats_median(bad.values, bad.nr) / 1e6));
		ret = 1;
		goto out;
	}
	driver_say(d, "[bisect] endpoints booted again: they read as at the "
		      "start");
	ret = 0;
out:
	sample_set_release(&good);
	sample_set_release(&bad);
	return ret;
}

/*
 * Boot the culprit and its parents until the answer's confidence reaches
 * the target (each at most twice runs.max boots). A verdict that turns
 * against its step re-marks that commit and sets *reopen. Returns 0, or
 * -1 to stop.
 */
int driver_topup(struct driver *d, size_t node, struct driver_result *res,
		 int *reopen, double *conf)
{
	struct topup_item *it, *contra;
	size_t nr, cap = 2 * (size_t)d->job->runs_max;
	char *subject;
	int ret = -1, announced = 0;

	*reopen = 0;
	culprit_parents(d, node, &res->parents);
	nr = res->parents.nr + 1;
	it = xcalloc(nr, sizeof(*it));
	it[0].id = d->graph->nodes[node].id;
	it[0].slow = 1;
	/* The bad endpoint's slowness is the separation, already counted. */
	it[0].judged = node != 0;
	for (size_t i = 1; i < nr; i++) {
		it[i].id = res->parents.v[i - 1];
		it[i].judged = !driver_is_good(d, it[i].id);
	}
	for (size_t i = 0; i < nr; i++)
		it[i].from = chosen_at(d, it[i].id);
	for (size_t i = 0; i < nr; i++) {
		struct probe_note n = {0};
		int r;
		if (!it[i].judged)
			continue;
		r = driver_build_commit(d, it[i].id, &n);
		if (r > 0)
			driver_set_message(res,
					   xstrfmt("the culprit's parent %.12s "
						   "cannot be measured: %s",
						   it[i].id,
						   driver_failure_text(&n)));
		driver_note_release(&n);
		if (r < 0)
			goto out;
		if (r > 0) {
			*conf = 0;
			ret = 0;
			goto out;
		}
	}
	for (;;) {
		struct topup_item *next = NULL;
		struct probe_note n = {0};
		int r;

		if (topup_judge(d, it, nr, &contra, conf))
			goto out;
		if (contra) {
			long at = graph_find(d->graph, contra->id);
			const char *mark = contra->slow ? "good" : "bad";
			if (at <= 0) {
				driver_set_message(
					res, xstrfmt("the culprit's parent "
						     "%.12s, outside "
						     "the range, is slow: the "
						     "slowdown is "
						     "older than the range",
						     contra->id));
				*conf = 0;
				break;
			}
			driver_say(
				d,
				"[bisect] the top-up of %.12s contradicts its "
				"step: it is %s (%s); re-opening the range",
				contra->id, contra->slow ? "fast" : "slow",
				contra->v.reason);
			if (bisect_mark(&d->engine, (size_t)at,
					driver_mark_from_name(mark)))
				goto out;
			contra->remark = mark;
			res->reopened++;
			*reopen = 1;
			break;
		}
		if (*conf >= d->target)
			break;
		for (size_t i = 0; i < nr; i++)
			if (it[i].judged && it[i].boots < it[i].from + cap &&
			    (!next || it[i].wrong > next->wrong))
				next = &it[i];
		if (!next)
			break;
		/* As in a step: a verdict still open after a fresh look. */
		if (next->boots > next->from && driver_refresh_baseline(d))
			goto out;
		if (d->progress) {
			/* Said once, when the answer needs boots of its own. */
			if (!announced) {
				subject = driver_subject(d, it[0].id);
				progress_commit(d->progress, "top-up", 0, 0,
						it[0].id, subject);
				free(subject);
				announced = 1;
			}
			progress_phase(d->progress, "top-up %.12s boot %zu",
				       next->id, next->boots + 1);
		}
		r = driver_boot_commit(d, next->id, &n);
		if (r > 0)
			driver_set_message(res,
					   xstrfmt("the top-up could not boot "
						   "%.12s: %s",
						   next->id,
						   driver_failure_text(&n)));
		driver_note_release(&n);
		if (r < 0)
			goto out;
		if (r > 0) {
			*conf = 0;
			break;
		}
	}
	if (!*reopen && *conf > 0) {
		int moved = machine_moved(d, res);
		if (moved < 0)
			goto out;
		if (moved) {
			*conf = 0;
			res->speed_moved = 1;
		}
	}
	/* The verdicts the answer rests on, as they ended. */
	for (size_t i = 0; i < nr; i++) {
		struct probe_note n = {0};
		struct sample_set s = SAMPLE_SET_INIT;
		if (!it[i].judged || driver_load(d, it[i].id, &s)) {
			sample_set_release(&s);
			continue;
		}
		n.outcome = PROBE_FAST; /* measured */
		n.have_verdict = it[i].v.n_cand > 0;
		n.v = it[i].v;
		driver_note_figures(&n, &s);
		driver_record(d, it[i].id, "top-up", &n, it[i].remark);
		sample_set_release(&s);
	}
	driver_save(d);
	ret = 0;
out:
	free(it);
	return ret;
}
