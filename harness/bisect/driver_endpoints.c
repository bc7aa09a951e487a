/*
 * driver_endpoints.c: the endpoints the bisection stands on: good must be
 * fast and bad slow, shown by alternate boots until the separation test
 * decides (or, for build and boot bisections, good must pass and bad
 * fail); and the merge base, tested first when good is not an ancestor of
 * bad, as git does.
 */
#include "driver.h"
#include "driver_priv.h"

#include "progress.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The endpoints of a build or boot bisection: good passes, bad fails. */
enum driver_status driver_endpoints_typed(struct driver *d,
					  struct driver_result *res)
{
	struct bisect_state *st = d->st;
	struct probe_note gn = {0}, bn = {0};
	enum bisect_mark gm, bm;
	enum driver_status ret = DRIVER_CULPRIT;

	if (d->m.progress)
		progress_commit(d->m.progress, "good", 0, 0, st->good, NULL);
	if (driver_probe(d, st->good, 0, 1, &gn)) {
		ret = driver_stopped(d);
		goto out;
	}
	gm = bisect_classify(d->job->bisect_type, gn.outcome);
	driver_record(d, st->good, ROLE_GOOD, &gn, gm);
	if (d->m.progress)
		progress_commit(d->m.progress, "bad", 0, 0, st->bad, NULL);
	if (driver_probe(d, st->bad, 0, 1, &bn)) {
		ret = driver_stopped(d);
		goto out;
	}
	bm = bisect_classify(d->job->bisect_type, bn.outcome);
	driver_record(d, st->bad, ROLE_BAD, &bn, bm);
	if (gm != BISECT_GOOD || bm != BISECT_BAD) {
		driver_set_message(
			res,
			xstrfmt("for a %s bisection good must pass and bad "
				"fail: good %.12s %s, bad %.12s %s",
				d->job->bisect_type == BISECT_BUILD ? "build"
								    : "boot",
				st->good, probe_outcome_name(gn.outcome),
				st->bad, probe_outcome_name(bn.outcome)));
		st->status = STATE_NOT_SEPARATED;
		ret = DRIVER_NOT_SEPARATED;
	}
	driver_save(d);
out:
	driver_note_release(&gn);
	driver_note_release(&bn);
	return ret;
}

/* An endpoint that cannot be measured stops the run. */
static enum driver_status endpoint_failed(struct driver *d,
					  struct driver_result *res,
					  const char *which, const char *commit,
					  const struct probe_note *n)
{
	driver_set_message(
		res, xstrfmt("the %s endpoint %.12s cannot be measured: "
			     "%s: %s%s%s",
			     which, commit, probe_outcome_name(n->outcome),
			     driver_failure_text(n), n->log ? "; log: " : "",
			     n->log ? n->log : ""));
	driver_set_status(d, STATE_ABORTED);
	driver_save(d);
	return DRIVER_ABORT;
}

/*
 * The endpoints' verdict on their own drop: under "auto", whatever the
 * job's line (the bad one's own level is slow).
 */
static int endpoints_apart(struct driver *d, const struct sample_set *g,
			   const struct sample_set *b, struct verdict *apart)
{
	static const struct threshold own_drop = {THRESHOLD_AUTO, 0};
	struct noise_model nm;

	return judge_endpoints(&d->judge, g, b, &own_drop,
			       DRIVER_ENDPOINT_ERROR, apart, &nm);
}

/*
 * The job's line says the endpoints are not apart by it, on the virtual
 * clock, where the line may give way to their own drop (line_gives_way):
 * 1 while that drop is still undecided, so the endpoints boot again
 * rather than stop on the few boots the line needed. The re-planted
 * readahead regression on a disk at once, "25%": the line was decided on
 * 2 good and 1 bad boot, a -4.5% drop (0.00% noise) was not yet, and all
 * five runs stopped "not separated". 0 otherwise, -1 to stop.
 */
static int drop_undecided(struct driver *d, const struct sample_set *g,
			  const struct sample_set *b)
{
	struct verdict apart;

	if (d->judge.line.kind == THRESHOLD_AUTO || d->judge.faster ||
	    !measure_virtual(&d->m))
		return 0;
	if (endpoints_apart(d, g, b, &apart))
		return -1;
	return apart.kind == VERDICT_UNDECIDED;
}

/*
 * The endpoints' separation reads less of a drop than `k` times the job's
 * line (in log ratio).
 */
static int above_lines(const struct threshold *t, const struct verdict *sep,
		       double k)
{
	double line_drop;

	return sep->base_median > 0 && sep->cand_median > 0 &&
	       !threshold_drop(&line_drop, t, sep->base_median, 0) &&
	       log(sep->cand_median / sep->base_median) > k * line_drop;
}

/*
 * Apart by the job's line, but by less than twice it (in log ratio): on
 * the virtual clock a kernel that waits on QEMU's device moves across
 * such a line with the host's load (a 64 KiB cap's slow kernels read -23%
 * to -30% under "25%": its bad endpoint -30% on one boot, its culprit
 * -23% and called fast, no answer, and the list left the culprit out).
 */
static int drop_near_line(const struct threshold *t, const struct verdict *sep)
{
	return above_lines(t, sep, 2);
}

/*
 * Does the job's line give way to the endpoints' own drop? When the
 * endpoints are not apart by it: are they apart at all (the same boots
 * under "auto", the bad endpoint's own level slow)? Under the virtual
 * clock a size is not what a person saw: it shrinks what the wall clock
 * shows 3-60x (docs/clocks.md; a 64 KiB request cap -80% on TCG's wall
 * clock, -27% on the virtual one), so a line drawn from what was seen on
 * hardware would stop a bisection that can find the commit, and one just
 * crossed judges the steps by the host's load (drop_near_line). There
 * the run bisects for the endpoints' own drop and says so; on the wall
 * clock the line stands, and the message says what to change. 1 when the
 * run goes on under auto, 0 when not, -1 to stop.
 */
static int line_gives_way(struct driver *d, struct driver_result *res,
			  const struct sample_set *g,
			  const struct sample_set *b)
{
	const struct threshold *t = &d->judge.line;
	struct strbuf unit = STRBUF_INIT, text = STRBUF_INIT;
	const char *line;
	struct verdict apart;
	int virtual, ret = 0;

	if (t->kind == THRESHOLD_AUTO || d->judge.faster)
		return 0;
	if (d->separated) {
		if (!measure_virtual(&d->m) || !drop_near_line(t, &d->sep))
			return 0;
		apart = d->sep;
	} else if (endpoints_apart(d, g, b, &apart)) {
		return -1;
	}
	if (apart.kind == VERDICT_GOOD) /* no drop at all */
		return 0;
	virtual = measure_unit(&d->m, &unit);
	threshold_text(&text, t);
	line = text.buf;
	if (virtual && apart.kind == VERDICT_BAD) {
		driver_say(d,
			   "[bisect] the endpoints differ by %+.1f%% (%.1f "
			   "against %.1f %s), %s the job's %s line: the "
			   "virtual clock shows effects of other sizes than "
			   "the wall clock and hardware do (docs/clocks.md), "
			   "so the bisection seeks the endpoints' own drop "
			   "(threshold auto)",
			   apart.pct_change, apart.cand_median / 1e6,
			   apart.base_median / 1e6, unit.buf,
			   d->separated ? "near" : "less than", line);
		free(res->note);
		res->note = xstrfmt("the job's %s line gave way: the "
				    "endpoints differ by %+.1f%% in %s, and "
				    "the bisection sought the commit that "
				    "made that drop (threshold auto)",
				    line, apart.pct_change, unit.buf);
		judge_give_way(&d->judge);
		d->sep = apart;
		res->sep = apart;
		ret = 1;
	} else {
		driver_set_message(
			res, xstrfmt("endpoints not separated by the job's %s "
				     "line: bad %.1f MB/s against good %.1f "
				     "MB/s (%+.1f%%)%s; to find the commit that "
				     "made that drop, set \"threshold\" to a "
				     "line below %.0f%% or to \"auto\"",
				     line, apart.cand_median / 1e6,
				     apart.base_median / 1e6, apart.pct_change,
				     apart.kind == VERDICT_BAD
					     ? ", a drop beyond the noise"
					     : "",
				     fabs(apart.pct_change)));
	}
	strbuf_release(&text);
	strbuf_release(&unit);
	return ret;
}

/* The endpoints' drop, from their medians, is a cliff. */
static int endpoints_cliff(const struct verdict *sep,
			   const struct noise_model *nm)
{
	return sep->base_median > 0 && sep->cand_median > 0 &&
	       verdict_beyond_modes(log(sep->cand_median / sep->base_median),
				    nm);
}

/*
 * The endpoints' boots while they are measured: each one's note and
 * boots, the least and most each takes, the failures and tries so far.
 * The slow end is bad, or the step standing in for it (`stand_in`: its
 * failures give way to bad rather than stop the run, `fell`).
 */
struct endpoints_run {
	int need_bad, stand_in, fell;
	const char *slow, *slow_name;
	char pick[41];
	struct probe_note gn, bn;
	struct sample_set g, b;
	size_t min, min_bad, first, cap;
	unsigned gfail, bfail, tries;
};

/* Where a step of the endpoints' boots leaves them. */
enum endpoints_step { ENDPOINTS_ON, ENDPOINTS_DONE, ENDPOINTS_STOP };

/* How many boots each endpoint takes, at least and at most. */
static void endpoints_counts(struct driver *d, struct endpoints_run *e)
{
	/*
	 * Two good boots give the noise model its first spread; one bad boot
	 * is enough when the drop is a cliff, more come while it is not. On
	 * a clock that holds a kernel still (noise.h: steady), one good boot
	 * is enough too when the drop is deeper than any mode can read
	 * (verdict_beyond_modes): no stretch of the host's load explains it,
	 * whatever either kernel's own spread.
	 */
	e->min = d->job->runs_min > 2 ? (size_t)d->job->runs_min : 2;
	e->min_bad = d->job->runs_min > 1 ? (size_t)d->job->runs_min : 1;
	e->first = d->judge.machine->steady > 0 ? e->min_bad : e->min;
	e->cap = driver_pairs_cap(d);
	if (e->cap < e->min)
		e->cap = e->min;
}

/*
 * The slow end cannot be measured: a step standing in for bad gives way
 * to it (e->fell), bad itself stops the run. 1, with *ret.
 */
static int slow_failed(struct driver *d, struct driver_result *res,
		       struct endpoints_run *e, enum driver_status *ret)
{
	if (e->stand_in) {
		e->fell = 1;
		*ret = DRIVER_CULPRIT;
		return 1;
	}
	*ret = endpoint_failed(d, res, "bad", d->bad, &e->bn);
	return 1;
}

/*
 * The slow end built; when it is bad, the range narrowed to the commits
 * that can change the endpoints' kernel (a step standing in narrows it
 * once it stands). 0, or 1 with *ret when the run stops.
 */
static int endpoints_build_bad(struct driver *d, struct driver_result *res,
			       struct endpoints_run *e, enum driver_status *ret)
{
	int r;

	if (d->m.progress)
		progress_commit(d->m.progress, e->slow_name, 0, 0, e->slow,
				NULL);
	r = driver_build_commit(d, e->slow, &e->bn);
	d->judge.bad = r ? NULL : e->slow;
	if (r < 0) {
		*ret = driver_stopped(d);
		return 1;
	}
	if (r)
		return slow_failed(d, res, e, ret);
	if (!e->stand_in && driver_narrow(d)) {
		*ret = driver_stopped(d);
		return 1;
	}
	return 0;
}

/* The endpoints' boots so far. 0, or 1 with *ret when the run stops. */
static int endpoints_load(struct driver *d, struct driver_result *res,
			  struct endpoints_run *e, enum driver_status *ret)
{
	if (measure_load(&d->m, d->good, &e->g)) {
		*ret = driver_stopped(d);
		return 1;
	}
	/*
	 * bad is built once good has its first boots: by then a lane
	 * has built it beside them.
	 */
	if (e->need_bad && !d->judge.bad && e->g.nr >= e->first &&
	    endpoints_build_bad(d, res, e, ret))
		return 1;
	if (d->judge.bad && measure_load(&d->m, e->slow, &e->b)) {
		*ret = driver_stopped(d);
		return 1;
	}
	return 0;
}

/*
 * Have the endpoints boots enough? The baseline alone its least; both,
 * when the separation test shows them apart, they reach the cap, or no
 * drop is left to wait for.
 */
static enum endpoints_step endpoints_judge(struct driver *d,
					   struct driver_result *res,
					   struct endpoints_run *e,
					   enum driver_status *ret)
{
	struct noise_model nm;
	int r;

	if (!e->need_bad && e->g.nr >= e->min)
		return ENDPOINTS_DONE;
	if (!(e->need_bad && e->g.nr >= e->first && e->b.nr >= e->min_bad))
		return ENDPOINTS_ON;
	if (judge_endpoints(&d->judge, &e->g, &e->b, NULL,
			    DRIVER_ENDPOINT_ERROR, &d->sep, &nm)) {
		*ret = driver_stopped(d);
		return ENDPOINTS_STOP;
	}
	res->sep = d->sep;
	res->have_sep = 1;
	e->bn.have_verdict = 1;
	e->bn.v = d->sep;
	if (d->sep.kind == VERDICT_BAD &&
	    (e->g.nr >= e->min || endpoints_cliff(&d->sep, &nm))) {
		d->separated = 1;
		return ENDPOINTS_DONE;
	}
	if (e->g.nr >= e->cap && e->b.nr >= e->cap)
		return ENDPOINTS_DONE;
	/*
	 * A step standing in asks one thing of the line: is it below it?
	 * Not, and bad's own drop is what the line may give way to.
	 */
	if (d->sep.kind == VERDICT_GOOD && e->stand_in)
		return ENDPOINTS_DONE;
	if (d->sep.kind == VERDICT_GOOD) {
		r = drop_undecided(d, &e->g, &e->b);
		if (r < 0) {
			*ret = driver_stopped(d);
			return ENDPOINTS_STOP;
		}
		if (!r)
			return ENDPOINTS_DONE;
	}
	return ENDPOINTS_ON;
}

/*
 * Boots that store nothing usable must not loop forever. 0, or 1 with
 * *ret when the run stops.
 */
static int endpoints_tries_spent(struct driver *d, struct driver_result *res,
				 struct endpoints_run *e,
				 enum driver_status *ret)
{
	if (measure_tries_spent(e->tries++, 2 * e->cap, 2)) {
		struct probe_note *n =
			e->need_bad && e->b.nr < e->g.nr ? &e->bn : &e->gn;
		free(n->first_error);
		n->first_error = measure_no_sample_error();
		n->outcome = PROBE_WORKLOAD_ERROR;
		if (n == &e->bn)
			return slow_failed(d, res, e, ret);
		*ret = endpoint_failed(d, res, "good", d->good, n);
		return 1;
	}
	return 0;
}

/*
 * One boot of good or bad: good to its first boots, then whichever has
 * fewer, to the cap. 0, or 1 with *ret when the run stops.
 */
static int endpoints_boot(struct driver *d, struct driver_result *res,
			  struct endpoints_run *e, enum driver_status *ret)
{
	int want_good, r;
	struct probe_note *n;

	want_good = e->g.nr < e->first || !e->need_bad ||
		    (e->b.nr >= e->min_bad &&
		     (e->g.nr < e->min ||
		      (e->g.nr <= e->b.nr && e->g.nr < e->cap))) ||
		    e->b.nr >= e->cap;
	n = want_good ? &e->gn : &e->bn;
	if (res->have_sep)
		driver_say(d, "[bisect] endpoints: %s boot %zu: %s",
			   want_good ? "good" : e->slow_name,
			   (want_good ? e->g.nr : e->b.nr) + 1,
			   d->sep.kind == VERDICT_BAD
				   ? "a drop within the slower mode's "
				     "depths: two good boots at least"
				   : "not separated yet");
	if (d->m.progress)
		progress_phase(d->m.progress, "%s boot %zu",
			       want_good ? "good" : e->slow_name,
			       (want_good ? e->g.nr : e->b.nr) + 1);
	r = driver_boot_commit(d, want_good ? d->good : e->slow, n);
	if (r < 0) {
		*ret = driver_stopped(d);
		return 1;
	}
	/*
	 * One failed boot is the machine's hiccup (under TCG on a
	 * loaded host a kernel can fail its own timer check and
	 * panic once); an endpoint whose first two boots fail, or
	 * that fails three times, cannot be a reference.
	 */
	if (r > 0 &&
	    (want_good ? (++e->gfail >= 3 || (!e->g.nr && e->gfail >= 2))
		       : (++e->bfail >= 3 || (!e->b.nr && e->bfail >= 2)))) {
		if (!want_good)
			return slow_failed(d, res, e, ret);
		*ret = endpoint_failed(d, res, "good", d->good, n);
		return 1;
	}
	if (r > 0)
		driver_say(d, "warning: a boot of the %s endpoint failed: %s",
			   want_good ? "good" : e->slow_name,
			   driver_failure_text(n));
	return 0;
}

/*
 * The endpoints measured: the line given way or not, each recorded with
 * its mark, and the run not separated when they are not apart.
 */
static enum driver_status endpoints_record(struct driver *d,
					   struct driver_result *res,
					   struct endpoints_run *e)
{
	enum driver_status ret = DRIVER_CULPRIT;
	/* Apart at all, or only near the line: does the line give way? */
	int r = e->need_bad ? line_gives_way(d, res, &e->g, &e->b) : 0;

	if (r < 0)
		return driver_stopped(d);
	if (r > 0) {
		d->separated = 1;
		e->bn.v = d->sep;
		/*
		 * Steps that stood in were judged by the line that gave way:
		 * each is judged again, on its boots and one more.
		 */
		if (d->st && d->st->nr_marks &&
		    driver_put_in_doubt(d, "steps that stood in for bad were "
					   "judged by the line that gave way"))
			return driver_stopped(d);
	}
	e->gn.outcome = e->bn.outcome = PROBE_FAST; /* measured */
	driver_note_figures(&e->gn, &e->g);
	driver_record(d, d->good, ROLE_GOOD, &e->gn, BISECT_GOOD);
	if (e->need_bad) {
		driver_note_figures(&e->bn, &e->b);
		driver_record(d, d->bad, ROLE_BAD, &e->bn,
			      d->separated ? BISECT_BAD : BISECT_UNTESTED);
		if (d->separated) {
			driver_say(d, "[bisect] endpoints: %s", d->sep.reason);
		} else {
			if (!res->message)
				driver_set_message(
					res,
					xstrfmt("endpoints not separated: %s",
						d->sep.reason));
			driver_set_status(d, STATE_NOT_SEPARATED);
			ret = DRIVER_NOT_SEPARATED;
		}
	}
	driver_save(d);
	return ret;
}

/*
 * Boot the endpoints until they are judged (endpoints_judge): 0, or 1
 * with *ret when the run stops or a step standing in fell.
 */
static int endpoints_measure(struct driver *d, struct driver_result *res,
			     struct endpoints_run *e, enum driver_status *ret)
{
	enum endpoints_step step;

	for (;;) {
		if (endpoints_load(d, res, e, ret))
			return 1;
		step = endpoints_judge(d, res, e, ret);
		if (step == ENDPOINTS_STOP)
			return 1;
		if (step == ENDPOINTS_DONE)
			return 0;
		if (endpoints_tries_spent(d, res, e, ret) ||
		    endpoints_boot(d, res, e, ret))
			return 1;
	}
}

int driver_stand_in_allowed(const struct driver *d)
{
	const struct bisect_state *st = d->st;

	if (!st || !d->range || !d->job->stand_in || d->judge.faster ||
	    d->judge.line.kind == THRESHOLD_AUTO ||
	    d->job->bisect_type != BISECT_PERF)
		return 0;
	/* A probe of bad: measured as an endpoint, or after an answer. */
	return !driver_count_role(st, ROLE_BAD);
}

int driver_bad_unbuilt(const struct driver *d)
{
	return d->st && d->st->stand_in[0] &&
	       !driver_count_role(d->st, ROLE_BAD);
}

/*
 * The step standing in is below the job's line, and far enough below it
 * that the line stands (line_gives_way would not give it up for the
 * step's own drop, which only bad's could stand for).
 */
static int stand_in_holds(struct driver *d)
{
	return d->separated && d->judge.line.kind != THRESHOLD_AUTO &&
	       !(measure_virtual(&d->m) &&
		 drop_near_line(&d->judge.line, &d->sep));
}

/*
 * The step stood in: good and it recorded, the range narrowed by both,
 * and the report's note says so.
 */
static int stand_in_record(struct driver *d, struct driver_result *res,
			   struct endpoints_run *e)
{
	struct bisect_state *st = d->st;
	struct strbuf line = STRBUF_INIT;

	e->gn.outcome = PROBE_FAST;
	driver_note_figures(&e->gn, &e->g);
	driver_record(d, d->good, ROLE_GOOD, &e->gn, BISECT_GOOD);
	e->bn.outcome = PROBE_SLOW;
	driver_note_figures(&e->bn, &e->b);
	driver_record(d, e->slow, ROLE_STEP, &e->bn, BISECT_BAD);
	memcpy(st->stand_in, e->slow, 41);
	/* The pick lives as long as this call; the state's as the run. */
	d->judge.bad = e->slow = st->stand_in;
	driver_say(d,
		   "[bisect] %.12s stands in for bad: %s; bad %.12s is built "
		   "only if something needs it",
		   e->slow, d->sep.reason, d->bad);
	threshold_text(&line, &d->judge.line);
	free(res->note);
	res->note = xstrfmt("%.12s, below the job's %s line, stood in for bad "
			    "%.12s: bad was not built to find the answer",
			    e->slow, line.buf, d->bad);
	strbuf_release(&line);
	if (driver_save(d))
		return -1;
	return driver_narrow(d);
}

/*
 * Above the line and within half of it of good's level: at good's level,
 * not a smaller drop the line would give way to once bad is measured on
 * the virtual clock (a step walked past as fast there would be judged
 * again, and its pairs would stand on bad's one boot).
 */
static int stand_in_at_good(const struct threshold *t,
			    const struct verdict *sep)
{
	return sep->kind == VERDICT_GOOD && above_lines(t, sep, 0.5);
}

/* The slow end's boots and verdict forgotten: the next one is measured. */
static void slow_reset(struct driver *d, struct driver_result *res,
		       struct endpoints_run *e, const char *slow)
{
	sample_set_release(&e->b);
	e->b = (struct sample_set)SAMPLE_SET_INIT;
	driver_note_release(&e->bn);
	memset(&e->bn, 0, sizeof(e->bn));
	e->fell = 0;
	e->bfail = e->tries = 0;
	e->slow = slow;
	d->judge.bad = NULL;
	d->separated = 0;
	memset(&d->sep, 0, sizeof(d->sep));
	res->have_sep = 0;
	memset(&res->sep, 0, sizeof(res->sep));
}

/* A step standing in read above the line: fast, a step of the range. */
static int stand_in_fast(struct driver *d, struct endpoints_run *e)
{
	e->bn.outcome = PROBE_FAST;
	driver_note_figures(&e->bn, &e->b);
	driver_record(d, e->slow, ROLE_STEP, &e->bn, BISECT_GOOD);
	driver_say(d, "[bisect] %.12s is above the job's line: %s", e->slow,
		   d->sep.reason);
	return driver_save(d);
}

/*
 * One step standing in: 1 when it stood or the run stops (*ret), 0 when
 * bad is to be built, 2 when it read at good's level and the next one
 * stands in.
 */
static int stand_in_step(struct driver *d, struct driver_result *res,
			 struct endpoints_run *e, enum driver_status *ret,
			 const struct commit_graph *g)
{
	if (d->st->stand_in[0])
		memcpy(e->pick, d->st->stand_in, 41);
	else if (driver_pick_stand_in(d, g, e->pick)) {
		*ret = driver_stopped(d);
		return 1;
	}
	if (!e->pick[0])
		return 0;
	slow_reset(d, res, e, e->pick);
	strvec_push(&d->guess, e->pick);
	driver_prefetch(d);
	if (endpoints_measure(d, res, e, ret) && !e->fell)
		return 1;
	if (!e->fell && stand_in_holds(d)) {
		if (stand_in_record(d, res, e))
			*ret = driver_stopped(d);
		return 1;
	}
	if (e->fell || !stand_in_at_good(&d->judge.line, &d->sep)) {
		driver_say(d,
			   "[bisect] %.12s is not shown below the job's line "
			   "nor at good's level (%s): bad %.12s is built",
			   e->pick,
			   e->fell ? driver_failure_text(&e->bn) : d->sep.reason,
			   d->bad);
		return 0;
	}
	if (stand_in_fast(d, e)) {
		*ret = driver_stopped(d);
		return 1;
	}
	return 2;
}

/*
 * Before bad is built, the step the bisection takes first is measured
 * against good (driver_stand_in_allowed): under a fixed line a step that
 * reads below it is slow whatever bad reads, and the first bad commit is
 * before it. Across a release bad's build is near a cold one (every
 * header the range changes), and it is often never needed. A step shown
 * at good's level is fast, as a step after bad's boots would be, and the
 * next step stands in, up to bad. 1 when a step stands in (d->judge.bad
 * is it), 0 when bad is to be measured (a step that did not build or
 * boot, one between good's level and the line, near the line or
 * undecided keeps its boots for when the bisection reaches it), 1 with
 * *ret when the run stops.
 */
static int stand_in(struct driver *d, struct driver_result *res,
		    struct endpoints_run *e, enum driver_status *ret)
{
	struct commit_graph by_good = {0};
	const struct commit_graph *g = d->range;
	int r;

	/* Narrowed once: every step up the range is chosen in it. */
	if (!d->st->stand_in[0] && driver_narrow_by_good(d, &by_good, &g)) {
		*ret = driver_stopped(d);
		return 1;
	}
	e->stand_in = 1;
	e->slow_name = "stand-in";
	do
		r = stand_in_step(d, res, e, ret, g);
	while (r == 2);
	graph_release(&by_good);
	if (r)
		return 1;
	e->stand_in = 0;
	e->slow_name = "bad";
	slow_reset(d, res, e, d->bad);
	return 0;
}

/*
 * Measure the endpoints of a perf bisection until they are shown
 * separated (or shown not to be, or both reach the cap): good and bad
 * alternately, at least two boots each so the noise model has data of
 * its own, at most twice runs.max each; or good and a step standing in
 * for bad (stand_in). `need_bad` 0: the baseline only (`iobisect test`
 * with a fixed threshold).
 */
enum driver_status
driver_endpoints_perf(struct driver *d, struct driver_result *res, int need_bad)
{
	struct endpoints_run e = {.need_bad = need_bad,
				  .slow = d->bad,
				  .slow_name = "bad",
				  .g = SAMPLE_SET_INIT,
				  .b = SAMPLE_SET_INIT};
	enum driver_status ret = DRIVER_CULPRIT;
	int r;

	endpoints_counts(d, &e);
	if (d->m.progress)
		progress_commit(d->m.progress, "good", 0, 0, d->good, NULL);
	r = driver_build_commit(d, d->good, &e.gn);
	if (!r && need_bad && driver_stand_in_allowed(d) &&
	    stand_in(d, res, &e, &ret))
		goto out;
	driver_prefetch(d);
	if (r) {
		ret = r < 0 ? driver_stopped(d)
			    : endpoint_failed(d, res, "good", d->good, &e.gn);
		goto out;
	}
	if (endpoints_measure(d, res, &e, &ret))
		goto out;
	ret = endpoints_record(d, res, &e);
out:
	sample_set_release(&e.g);
	sample_set_release(&e.b);
	driver_note_release(&e.gn);
	driver_note_release(&e.bn);
	return ret;
}

/*
 * The endpoints' drop once bad is measured after the answer: what the
 * revert check and the search for other changes measure against.
 */
static int endpoints_after_answer(struct driver *d, struct driver_result *res,
				  const struct sample_set *b)
{
	struct sample_set g = SAMPLE_SET_INIT;
	struct noise_model nm;
	struct verdict sep;
	int r = measure_load(&d->m, d->good, &g);

	if (!r && g.nr && b->nr &&
	    !(r = judge_endpoints(&d->judge, &g, b, NULL, DRIVER_ENDPOINT_ERROR,
				  &sep, &nm))) {
		d->sep = sep;
		res->sep = sep;
		res->have_sep = 1;
	}
	sample_set_release(&g);
	return r;
}

int driver_bad_after_answer(struct driver *d, struct driver_result *res)
{
	struct probe_note n = {0};
	struct sample_set s = SAMPLE_SET_INIT;
	/* A level with a spread of its own, as good's first boots give. */
	size_t want = d->job->runs_min > 2 ? (size_t)d->job->runs_min : 2;
	unsigned fails = 0;
	int r;

	if (!d->st->stand_in[0] || !driver_stand_in_allowed(d) ||
	    (d->job->changes < 2 && !d->job->revert))
		return 0;
	driver_say(d,
		   "[bisect] bad %.12s is built now: the revert check and the "
		   "search for other changes stand on its level",
		   d->bad);
	if (d->m.progress)
		progress_commit(d->m.progress, "bad", 0, 0, d->bad, NULL);
	r = driver_build_commit(d, d->bad, &n);
	while (!r && !(r = measure_load(&d->m, d->bad, &s)) && s.nr < want &&
	       fails < 2) {
		r = driver_boot_commit(d, d->bad, &n);
		fails += r > 0;
		r = r > 0 ? 0 : r;
		sample_set_release(&s);
	}
	if (r >= 0) {
		if (r == 0 && s.nr) {
			n.outcome = PROBE_FAST; /* measured */
			driver_note_figures(&n, &s);
			r = endpoints_after_answer(d, res, &s);
		}
		driver_record(d, d->bad, ROLE_BAD, &n, BISECT_UNTESTED);
		if (r >= 0)
			r = driver_save(d);
	}
	sample_set_release(&s);
	driver_note_release(&n);
	return r < 0 ? -1 : 0;
}

/* git tests the merge base first when good is not an ancestor of bad. */
enum driver_status driver_merge_base(struct driver *d,
				     struct driver_result *res)
{
	struct bisect_state *st = d->st;
	struct probe_note n = {0};
	enum bisect_mark known = state_find_mark(st, st->merge_base);
	enum bisect_mark m;
	char *subject;

	if (!st->merge_base[0])
		return DRIVER_CULPRIT;
	if (known != BISECT_UNTESTED) {
		m = known == BISECT_BAD ? BISECT_BAD : BISECT_GOOD;
	} else {
		subject = driver_subject(d, st->merge_base);
		if (d->m.progress)
			progress_commit(d->m.progress, "merge-base", 0, 0,
					st->merge_base, subject);
		free(subject);
		if (driver_probe(d, st->merge_base, DRIVER_STEP_ERROR,
				 (unsigned)d->job->runs_max, &n)) {
			driver_note_release(&n);
			return driver_stopped(d);
		}
		m = bisect_classify(d->job->bisect_type, n.outcome);
		driver_record(d, st->merge_base, ROLE_MERGE_BASE, &n, m);
		driver_say_verdict(d, st->merge_base, &n, m);
		driver_note_release(&n);
		driver_save(d);
	}
	if (m == BISECT_BAD) {
		driver_set_message(res,
				   xstrfmt("the merge base %.12s is already "
					   "slow: the slowdown came before it, "
					   "between it and good %.12s there is "
					   "a fix",
					   st->merge_base, st->good));
		st->status = STATE_NOT_SEPARATED;
		driver_save(d);
		return DRIVER_NOT_SEPARATED;
	}
	if (m == BISECT_SKIP)
		driver_say(d,
			   "warning: the merge base %.12s could not be tested: "
			   "the first slow commit may be older",
			   st->merge_base);
	return DRIVER_CULPRIT;
}
