/*
 * driver.c: the bisection as a whole (see driver.h): setting up, the
 * steps through the range with the bisect engine, the answer and its
 * confidence, and `git bisect run`'s one commit. The endpoints are in
 * driver_endpoints.c, the confirmation in driver_confirm.c, one commit's
 * probe in driver_probe.c; the evidence comes from the measuring layer
 * (measure.h), every verdict on it from the judge (judge.h), and nothing
 * here reaches git, make or QEMU.
 */
#include "driver.h"
#include "driver_priv.h"

#include "progress.h"
#include "run.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void driver_result_init(struct driver_result *r)
{
	memset(r, 0, sizeof(*r));
	r->confidence = NAN;
	bisect_report_answer_init(&r->answer);
}

void driver_result_release(struct driver_result *r)
{
	strvec_clear(&r->parents);
	strvec_clear(&r->suspects);
	free(r->message);
	free(r->note);
	bisect_report_answer_release(&r->answer);
	driver_result_init(r);
}

void driver_init(struct driver *d, const struct job *job,
		 const struct measure_ops *ops, void *payload,
		 const struct commit_graph *graph, struct bisect_state *st)
{
	memset(d, 0, sizeof(*d));
	d->job = job;
	measure_init(&d->m, job, ops, payload);
	judge_init(&d->judge, &d->m, st);
	d->graph = d->range = graph;
	d->st = st;
	/* The job's, its default applied where the job was made (job.c). */
	d->target = job->confidence;
	if (st) {
		d->good = d->m.good = st->good;
		d->bad = st->bad;
		d->prev = st->counts;
		d->prev_seconds = st->seconds;
	}
	d->t0 = now_ns();
}

void driver_release(struct driver *d)
{
	measure_release(&d->m);
	bisect_release(&d->engine);
	strvec_clear(&d->guess);
	graph_release(&d->narrowed);
}

/*
 * The marks that count, in order: of earlier runs, of earlier
 * confirmations. Once the steps are in doubt, a good or bad mark a step
 * gave before the doubt does not: the commit is judged again, on its
 * boots and at least one more (driver_probe.c). A skip still counts (a
 * build failure stays one), and so does every pairs' mark.
 */
static int replay(struct driver *d)
{
	const struct bisect_state *st = d->st;

	d->doubt = st->doubt_from >= 0;
	for (size_t i = 0; i < st->nr_marks; i++) {
		const struct state_mark *m = &st->marks[i];
		long n = graph_find(d->graph, m->commit);
		if (n <= 0) /* the endpoints and the merge base */
			continue;
		if (d->doubt && (long)i < st->doubt_from && !m->by_pairs &&
		    m->mark != BISECT_SKIP)
			continue;
		if (bisect_mark(&d->engine, (size_t)n, m->mark))
			return -1;
	}
	return 0;
}

/*
 * A step decides at DRIVER_STEP_ERROR: one wrong step in twenty, which
 * the answer's pairs catch. When they do, or when only skips are left,
 * any earlier step may be the wrong one, not just the commit the pairs
 * re-marked: the steps are put in doubt, and the range is bisected again,
 * each commit on the boots already taken and at least one of its own, so
 * one misleading boot cannot decide twice. Still at DRIVER_STEP_ERROR: a
 * bad level of one boot caps what any number of a commit's boots can
 * show, and at 1% unchanged commits at 102.5 MB/s ±0% stayed undecided
 * after eight boots each (tests/jobs/upstream-readahead.json). Once a
 * run.
 */
int driver_put_in_doubt(struct driver *d, const char *why)
{
	if (d->doubt)
		return 0;
	d->st->doubt_from = (long)d->st->nr_marks;
	driver_say(d, "[bisect] %s: every step's mark is in doubt; the range "
		      "is judged again, each commit on a boot of its own", why);
	bisect_release(&d->engine);
	if (bisect_init(&d->engine, d->graph) || replay(d))
		return -1;
	return driver_save(d) ? -1 : 0;
}

/*
 * A run in doubt that cannot conclude: the pairs that contradicted the
 * steps may be the ones that were wrong (a kernel that waits on QEMU's
 * device can read 9% below its parent in one stretch of the host's load
 * and 22% in another: a real culprit's pairs read -9.3% against the
 * -21.9% sought, and it was re-marked fast), so each commit the pairs
 * re-marked is a suspect too, and the list holds the culprit either way.
 */
static void suspect_pairs_marks(struct driver *d)
{
	struct bisect_state *st = d->st;

	for (size_t i = 0; i < st->nr_marks; i++) {
		const char *id = st->marks[i].commit;
		if (st->marks[i].by_pairs && graph_find(d->graph, id) > 0 &&
		    strvec_index(&st->suspects, id) < 0 &&
		    strvec_index(&st->same_image, id) < 0)
			strvec_push(&st->suspects, id);
	}
}

/* Steps that stood before a doubt: a good or bad mark a step gave. */
static int steps_to_doubt(const struct driver *d)
{
	for (size_t i = 0; i < d->st->nr_marks; i++)
		if (!d->st->marks[i].by_pairs &&
		    (d->st->marks[i].mark == BISECT_GOOD ||
		     d->st->marks[i].mark == BISECT_BAD))
			return 1;
	return 0;
}

static long node_cost(size_t node, void *arg)
{
	const struct driver *d = arg;
	return d->build_cost(d->build_cost_arg, d->graph->nodes[node].id);
}

/* The engine's next step, by what it costs to build when that is known. */
static enum bisect_status next_step(struct driver *d,
				    struct bisect_split *split)
{
	return bisect_next_split(&d->engine, d->build_cost ? node_cost : NULL,
				 d, split);
}

/*
 * The commits the steps after probing `node` will ask for: the engine's
 * choice if `node` turns out good, and if it turns out bad (node SIZE_MAX:
 * the first step). They are built beside the boots of `node`.
 */
static void guess_next(struct driver *d, size_t node)
{
	static const enum bisect_mark outcome[] = { BISECT_GOOD, BISECT_BAD };
	struct strbuf quiet = STRBUF_INIT;
	enum bisect_mark was = node < d->graph->nr ? d->engine.marks[node]
						   : BISECT_UNTESTED;

	strvec_clear(&d->guess);
	if (!d->m.ops->prefetch)
		return;
	error_capture(&quiet);
	for (size_t k = 0; k < ARRAY_SIZE(outcome); k++) {
		struct bisect_split next;
		if (node < d->graph->nr)
			d->engine.marks[node] = outcome[k];
		if (next_step(d, &next) == BISECT_NEXT)
			strvec_push(&d->guess, d->graph->nodes[next.node].id);
		if (node >= d->graph->nr)
			break;
	}
	if (node < d->graph->nr)
		d->engine.marks[node] = was;
	error_capture(NULL);
	strbuf_release(&quiet);
}

int driver_narrow(struct driver *d)
{
	struct strbuf why = STRBUF_INIT;
	/* bad, or the step standing in for it: its build is the slow end. */
	const char *ends[] = {d->good, d->judge.bad ? d->judge.bad : d->bad};
	int r;

	if (d->narrow_done || !d->narrow || !d->range)
		return 0;
	d->narrow_done = 1;
	r = d->narrow(d->narrow_arg, ends, ARRAY_SIZE(ends), d->range,
		      &d->narrowed, &why);
	if (r > 0) {
		driver_say(d, "[bisect] %zu commits, each a candidate: %s",
			   d->range->nr, why.buf);
	} else if (!r) {
		driver_say(d, "[bisect] %zu commits, %zu can change this kernel",
			   d->range->nr, d->narrowed.nr);
		bisect_release(&d->engine);
		d->graph = &d->narrowed;
		if (bisect_init(&d->engine, d->graph) || replay(d))
			r = -1;
	}
	strbuf_release(&why);
	if (r < 0)
		return -1;
	/* The first step is known now: built beside the endpoints' boots. */
	guess_next(d, SIZE_MAX);
	driver_prefetch(d);
	return 0;
}

int driver_narrow_by_good(struct driver *d, struct commit_graph *by_good,
			  const struct commit_graph **g)
{
	struct strbuf why = STRBUF_INIT;
	const char *ends[] = {d->good};
	int r = 1;

	if (d->narrow)
		r = d->narrow(d->narrow_arg, ends, ARRAY_SIZE(ends), d->range,
			      by_good, &why);
	strbuf_release(&why);
	*g = r ? d->range : by_good;
	return r < 0 ? -1 : 0;
}

int driver_pick_stand_in(struct driver *d, const struct commit_graph *g,
			 char out[41])
{
	const struct commit_graph *was = d->graph;
	struct bisect_engine eng;
	struct bisect_split split;
	int ret = -1;

	out[0] = '\0';
	if (bisect_init(&eng, g))
		return -1;
	/* Steps that stood in and read above the line: fast. */
	for (size_t i = 0; i < d->st->nr_marks; i++) {
		long n = graph_find(g, d->st->marks[i].commit);
		if (n > 0 &&
		    bisect_mark(&eng, (size_t)n, d->st->marks[i].mark))
			goto out;
	}
	/* node_cost reads the graph the engine's nodes are of. */
	d->graph = g;
	if (bisect_next_split(&eng, d->build_cost ? node_cost : NULL, d,
			      &split) == BISECT_NEXT &&
	    strcmp(g->nodes[split.node].id, d->bad))
		memcpy(out, g->nodes[split.node].id, 41);
	d->graph = was;
	ret = 0;
out:
	bisect_release(&eng);
	return ret;
}

/* Probe one step's commit, mark it and say so; -1 when the run stops. */
static int step(struct driver *d, struct driver_result *res, size_t node)
{
	struct probe_note n = {0};
	enum bisect_mark m;
	const char *id = d->graph->nodes[node].id;
	char *subject = driver_subject(d, id);
	int ret = -1;

	res->steps = driver_count_role(d->st, ROLE_STEP) + 1;
	if (d->m.progress)
		progress_commit(d->m.progress, "step", (int)res->steps,
				(int)(res->steps - 1 +
				      bisect_steps_left(&d->engine)),
				id, subject);
	free(subject);
	guess_next(d, node);
	if (driver_probe(d, id, DRIVER_STEP_ERROR, (unsigned)d->job->runs_max,
			 &n))
		goto out;
	m = bisect_classify(d->job->bisect_type, n.outcome);
	if (bisect_mark(&d->engine, node, m))
		goto out;
	driver_record(d, id, ROLE_STEP, &n, m);
	driver_say_verdict(d, id, &n, m);
	if (n.have_verdict)
		driver_between(d, id, &n.v);
	if (d->m.progress)
		progress_commit_done(d->m.progress);
	ret = 0;
out:
	driver_note_release(&n);
	return ret;
}

/* Is `node` still a possible first bad commit, and untested? */
static int open_candidate(const struct driver *d, size_t node)
{
	size_t *c = NULL, nc = bisect_candidates(&d->engine, &c);
	int open = 0;

	for (size_t i = 0; i < nc; i++)
		open |= c[i] == node;
	free(c);
	return open && d->engine.marks[node] == BISECT_UNTESTED;
}

/*
 * A multisection round (d->multi > 1, and operations that measure many
 * commits at once): the commits cutting the range into d->multi + 1
 * parts get their first boots together, then each is judged as a step,
 * oldest first, while it is still a candidate; a commit the verdicts
 * before it ruled out keeps its boots and gets no mark. 1 when a round
 * ran, 0 when there is no round to run, -1 when the run stops.
 */
static int round_of_many(struct driver *d, struct driver_result *res)
{
	size_t *pick, nk;
	const char **ids;
	unsigned floor = d->job->runs_min > 1 ? (unsigned)d->job->runs_min : 1;
	int ret = -1;

	if (d->multi < 2 || !d->m.ops->measure_many)
		return 0;
	pick = xcalloc(d->multi, sizeof(*pick));
	nk = bisect_next_many(&d->engine, d->multi, pick);
	if (nk < 2) {
		free(pick);
		return 0;
	}
	ids = xcalloc(nk + 1, sizeof(*ids));
	for (size_t i = 0; i < nk; i++)
		ids[i] = d->graph->nodes[pick[i]].id;
	d->rounds++;
	driver_say(d, "[bisect] round %u: %zu commits at once", d->rounds, nk);
	/* The round's boots count as the run's, as a step's own do. */
	if (measure_many(&d->m, ids, nk, floor, NULL))
		goto out;
	for (size_t i = 0; i < nk; i++)
		if (open_candidate(d, pick[i]) && step(d, res, pick[i]))
			goto out;
	ret = 1;
	if (driver_save(d))
		ret = -1;
out:
	free(ids);
	free(pick);
	return ret;
}

/* Step until the engine names one commit (*culprit) or cannot. */
static enum driver_status steps(struct driver *d, struct driver_result *res,
				size_t *culprit)
{
	struct bisect_state *st = d->st;

	for (;;) {
		size_t *c = NULL, nc;
		struct bisect_split split;
		enum bisect_status s;
		int r;

		if (run_interrupted())
			return driver_stopped(d);
		s = next_step(d, &split);
		if (s == BISECT_DONE) {
			*culprit = split.node;
			return DRIVER_CULPRIT;
		}
		if ((s == BISECT_ERROR || s == BISECT_INCONCLUSIVE) &&
		    !d->doubt && steps_to_doubt(d)) {
			/* The skips may hide behind a wrong step. */
			if (driver_put_in_doubt(
				    d, s == BISECT_ERROR
					       ? "the marks contradict "
						 "each other"
					       : "only skips are left"))
				return driver_stopped(d);
			continue;
		}
		if (s == BISECT_ERROR || s == BISECT_INCONCLUSIVE) {
			nc = bisect_candidates(&d->engine, &c);
			for (size_t i = 0; i < nc; i++)
				strvec_push(&st->suspects,
					    d->graph->nodes[c[i]].id);
			free(c);
			if (s == BISECT_ERROR)
				driver_set_message(
					res, xstrdup("the marks contradict "
						     "each other: a "
						     "confirmation or a resumed run "
						     "changed a "
						     "verdict the range "
						     "depends on"));
			st->status = STATE_INCONCLUSIVE;
			driver_save(d);
			return DRIVER_INCONCLUSIVE;
		}
		r = round_of_many(d, res);
		if (r < 0)
			return driver_stopped(d);
		if (r > 0)
			continue;
		d->rounds++;
		if (split.node != split.middle)
			driver_say(d,
				   "[bisect] step: %.12s (%ld objects to "
				   "build beside every commit built here; "
				   "the middle, %.12s, would build %ld)",
				   d->graph->nodes[split.node].id, split.cost,
				   d->graph->nodes[split.middle].id,
				   split.middle_cost);
		if (step(d, res, split.node))
			return driver_stopped(d);
		if (driver_save(d))
			return DRIVER_ABORT;
	}
}

/*
 * What the figures are in, kept in the state (and its log) and said once
 * when it is not the host's MB/s, so every line after it reads right.
 */
static void say_unit(struct driver *d)
{
	struct strbuf unit = STRBUF_INIT;

	if (measure_unit(&d->m, &unit))
		driver_say(d, "[bisect] figures in %s", unit.buf);
	if (d->st) {
		free(d->st->unit);
		d->st->unit = strbuf_detach(&unit);
	}
	strbuf_release(&unit);
}

/*
 * Beside the good endpoint's boots: bad, and the first step, unless
 * the endpoints' builds will narrow the range first: that step may
 * be a commit that cannot change the kernel.
 */
static void guess_endpoints(struct driver *d)
{
	/* A step may stand in for bad: it is known once good is built. */
	if (driver_stand_in_allowed(d))
		return;
	if (!d->narrow)
		guess_next(d, SIZE_MAX);
	strvec_push(&d->guess, d->st->bad);
	if (d->guess.nr > 1) {
		/* bad first: the endpoints come before any step */
		char *first = d->guess.v[0];
		d->guess.v[0] = d->guess.v[1];
		d->guess.v[1] = first;
	}
}

/*
 * What the steps stand on: the endpoints, the range narrowed once both
 * are built, and the merge base.
 */
static enum driver_status stand_on_endpoints(struct driver *d,
					     struct driver_result *res)
{
	enum driver_status ret = d->job->bisect_type == BISECT_PERF
					 ? driver_endpoints_perf(d, res, 1)
					 : driver_endpoints_typed(d, res);

	if (ret == DRIVER_CULPRIT && driver_narrow(d))
		ret = driver_stopped(d);
	if (ret == DRIVER_CULPRIT)
		ret = driver_merge_base(d, res);
	return ret;
}

/*
 * The confirmations contradicted the steps too often: inconclusive, with
 * what the marks leave open and the last answer as the suspects.
 */
static enum driver_status
too_many_reopens(struct driver *d, struct driver_result *res, size_t culprit)
{
	struct bisect_state *st = d->st;
	size_t *c = NULL, nc;

	driver_set_message(res, xstrfmt("%u confirmations contradicted "
					"the steps: the range does not "
					"hold one clear slowdown",
					res->reopened));
	/* What the marks leave open, and the last answer. */
	strvec_push(&st->suspects, d->graph->nodes[culprit].id);
	nc = bisect_candidates(&d->engine, &c);
	for (size_t i = 0; i < nc; i++)
		if (c[i] != culprit)
			strvec_push(&st->suspects, d->graph->nodes[c[i]].id);
	free(c);
	st->status = STATE_INCONCLUSIVE;
	return DRIVER_INCONCLUSIVE;
}

/*
 * The steps to a culprit, taken again while it cannot be the answer: its
 * image is its parent's, or (perf) its pairs contradict the steps. A
 * perf answer's confidence in *conf.
 */
static enum driver_status find_culprit(struct driver *d,
				       struct driver_result *res,
				       size_t *culprit, double *conf)
{
	struct bisect_state *st = d->st;
	enum driver_status ret;

	for (;;) {
		int reopen = 0, r;

		ret = steps(d, res, culprit);
		if (ret != DRIVER_CULPRIT)
			return ret;
		/* Its parent's image: never the answer (driver_answer.c). */
		r = driver_same_image(d, *culprit);
		if (r < 0 ||
		    (r > 0 && driver_put_in_doubt(d, "the answer's image "
						     "is its parent's")))
			return driver_stopped(d);
		if (r > 0)
			continue;
		if (d->job->bisect_type != BISECT_PERF)
			return ret;
		/*
		 * A finished run asked again (a report, an upload) keeps the
		 * answer its pairs gave: the pairs are not taken twice.
		 */
		if (!strcmp(st->answered, d->graph->nodes[*culprit].id) &&
		    st->answered_confidence >= d->target) {
			*conf = st->answered_confidence;
			driver_culprit_parents(d, *culprit, &res->parents);
			return ret;
		}
		if (driver_confirm(d, *culprit, res, &reopen, conf))
			return driver_stopped(d);
		if (!reopen)
			return ret;
		if (res->reopened > DRIVER_MAX_REOPEN)
			return too_many_reopens(d, res, *culprit);
		if (driver_put_in_doubt(d, "the pairs contradict the steps"))
			return driver_stopped(d);
		driver_save(d);
	}
}

/*
 * The answer kept: done, or, for a perf answer below the job's
 * confidence, inconclusive with a message and the answer a suspect.
 */
static enum driver_status keep_answer(struct driver *d,
				      struct driver_result *res, size_t culprit,
				      double conf)
{
	struct bisect_state *st = d->st;

	memcpy(res->culprit, d->graph->nodes[culprit].id, 41);
	res->confidence = conf;
	st->confidence = conf;
	if (d->job->bisect_type != BISECT_PERF || conf >= d->target) {
		memcpy(st->culprit, res->culprit, 41);
		st->status = STATE_DONE;
		return DRIVER_CULPRIT;
	}
	if (!res->message && conf < 0.5)
		driver_set_message(
			res, xstrfmt("%.12s was the bisection's answer, "
				     "but its pairs lean against it: "
				     "confidence %.1f%% within %zu "
				     "pairs, below the job's %.1f%%",
				     res->culprit, conf * 100,
				     driver_pairs_cap(d), d->target * 100));
	else if (!res->message)
		driver_set_message(res, xstrfmt("%.12s is the likeliest "
						"first slow commit, at "
						"confidence %.1f%%, below "
						"the job's %.1f%% "
						"within %zu pairs",
						res->culprit, conf * 100,
						d->target * 100,
						driver_pairs_cap(d)));
	if (res->culprit[0])
		strvec_push(&st->suspects, res->culprit);
	st->status = STATE_INCONCLUSIVE;
	return DRIVER_INCONCLUSIVE;
}

/* The result's suspects and counts, however the run ended. */
static void result_gather(struct driver *d, struct driver_result *res,
			  enum driver_status ret)
{
	struct bisect_state *st = d->st;

	/* However the run ended inconclusive (suspect_pairs_marks). */
	if (ret == DRIVER_INCONCLUSIVE && d->doubt) {
		suspect_pairs_marks(d);
		driver_save(d);
	}
	for (size_t i = 0; i < st->suspects.nr; i++)
		strvec_push(&res->suspects, st->suspects.v[i]);
	for (size_t i = 0; i < st->same_image.nr; i++)
		strvec_push(&res->answer.same_image, st->same_image.v[i]);
	res->steps = driver_count_role(st, ROLE_STEP);
}

enum driver_status driver_bisect(struct driver *d, struct driver_result *res)
{
	struct bisect_state *st = d->st;
	enum driver_status ret;
	size_t culprit = 0;
	double conf = NAN;

	driver_result_init(res);
	if (!d->graph || !d->graph->nr) {
		error("no commits to bisect");
		return res->status = DRIVER_ABORT;
	}
	if (bisect_init(&d->engine, d->graph) || replay(d)) {
		ret = driver_stopped(d);
		goto out;
	}
	say_unit(d);
	guess_endpoints(d);
	ret = stand_on_endpoints(d, res);
	if (ret != DRIVER_CULPRIT)
		goto out;
	ret = find_culprit(d, res, &culprit, &conf);
	if (ret != DRIVER_CULPRIT)
		goto out;
	ret = keep_answer(d, res, culprit, conf);
	driver_save(d);
	/* Beside the answer, saved above: neither can change it. */
	if (st->status == STATE_DONE && d->job->bisect_type == BISECT_PERF) {
		if (driver_bad_after_answer(d, res)) {
			ret = driver_stopped(d);
			goto out;
		}
		driver_answer_share(d, res->culprit, res);
		if (driver_revert(d, res->culprit, res) ||
		    driver_changes(d, res))
			ret = driver_stopped(d);
	}
out:
	result_gather(d, res, ret);
	return res->status = ret;
}

/*
 * `git bisect run`'s commit, judged as an answer is: on pairs of the good
 * endpoint and the commit booted back to back, at DRIVER_TEST_ERROR
 * either way, up to runs.max pairs (then untestable). Nothing confirms a
 * mark git is given, and a machine whose speed moves for minutes must
 * not make one: the pairs are what it cannot move. 0, or -1 to stop.
 */
static int test_pairs(struct driver *d, const char *commit,
		      struct probe_note *n, enum bisect_mark *mark)
{
	struct judged_pairs p = {.boots.parent = d->good};
	struct verdict_pairs_input in;
	struct boot_facts fail = {0};
	int r;

	*mark = BISECT_SKIP;
	r = driver_build_commit(d, commit, n);
	if (r)
		return r < 0 ? -1 : 0;
	if (judge_pairs_input(&d->judge, &in, d->separated ? &d->sep : NULL,
			      DRIVER_TEST_ERROR, DRIVER_TEST_ERROR))
		return -1;
	r = judge_pairs(&d->judge, commit, &p, &in, (size_t)d->job->runs_max,
			&fail);
	if (r > 0)
		driver_note_failure(n, &fail);
	boot_facts_release(&fail);
	if (r == 0) {
		n->have_verdict = p.boots.n > 0;
		n->v = p.v;
		n->outcome = PROBE_UNDECIDED;
		if (p.decided)
			*mark = p.v.kind == VERDICT_BAD ? BISECT_BAD
							: BISECT_GOOD;
		if (*mark != BISECT_SKIP)
			n->outcome = *mark == BISECT_BAD ? PROBE_SLOW
							 : PROBE_FAST;
	}
	judged_pairs_release(&p);
	return r < 0 ? -1 : 0;
}

enum driver_status driver_test(struct driver *d, const char *good,
			       const char *bad, const char *commit,
			       struct driver_result *res,
			       enum bisect_mark *mark)
{
	struct probe_note n = {0};
	enum driver_status ret = DRIVER_CULPRIT;
	int need_bad = job_needs_bad(d->job), r;
	const char *word;

	driver_result_init(res);
	*mark = BISECT_SKIP;
	d->good = d->m.good = good;
	d->bad = bad ? bad : "";
	if (d->job->bisect_type == BISECT_PERF) {
		if (job_check_needs_bad(d->job, d->bad))
			return res->status = DRIVER_ABORT;
		ret = driver_endpoints_perf(d, res, need_bad);
		if (ret != DRIVER_CULPRIT)
			goto out;
	}
	if (d->m.progress)
		progress_commit(d->m.progress, "test", 0, 0, commit, NULL);
	if (d->job->bisect_type == BISECT_PERF)
		r = test_pairs(d, commit, &n, mark);
	else if (!(r = driver_probe(d, commit, DRIVER_TEST_ERROR,
				    (unsigned)d->job->runs_max, &n)))
		*mark = bisect_classify(d->job->bisect_type, n.outcome);
	if (r) {
		ret = driver_stopped(d);
		goto out;
	}
	word = *mark == BISECT_GOOD  ? "fast"
	       : *mark == BISECT_BAD ? "slow"
				     : "untestable";
	if (n.have_verdict && n.outcome != PROBE_BUILD_FAILED) {
		struct strbuf unit = STRBUF_INIT;
		/* Said when the figures are not the host's MB/s. */
		int virtual = measure_unit(&d->m, &unit);

		driver_set_message(
			res, xstrfmt("%s: %.12s %.1f MB/s ±%.0f%% vs good "
				     "%.1f MB/s ±%.0f%% (%+.1f%% within %zu "
				     "pairs, error %.2g)%s%s",
				     word, commit, n.v.cand_median / 1e6,
				     n.v.cand_pct_stddev, n.v.base_median / 1e6,
				     n.v.base_pct_stddev, n.v.pct_change,
				     n.v.n_cand, n.v.error, virtual ? "; " : "",
				     virtual ? unit.buf : ""));
		strbuf_release(&unit);
	} else
		driver_set_message(res,
				   xstrfmt("%s: %.12s %s%s%s", word, commit,
					   n.first_error ? n.first_error : "",
					   n.log ? " log: " : "",
					   n.log ? n.log : ""));
out:
	driver_note_release(&n);
	return res->status = ret;
}
