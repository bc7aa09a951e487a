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

/* The job's line for people: "25%", "50 MB/s". */
static char *line_text(const struct threshold *t)
{
	return t->kind == THRESHOLD_PERCENT ? xstrfmt("%g%%", t->value)
					    : xstrfmt("%g MB/s", t->value);
}

/* The endpoints' verdict under "auto" (the bad one's own level is slow). */
static int endpoints_apart(struct driver *d, const struct sample_set *g,
			   const struct sample_set *b, struct verdict *apart)
{
	struct verdict_input in;
	struct noise_model nm;

	measure_verdict_input(&d->m, &in, g, b, DRIVER_ENDPOINT_ERROR, &nm);
	in.threshold.kind = THRESHOLD_AUTO;
	return verdict_endpoints(apart, &in);
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

	if (d->job->threshold.kind == THRESHOLD_AUTO || d->job->faster ||
	    !measure_virtual(&d->m))
		return 0;
	if (endpoints_apart(d, g, b, &apart))
		return -1;
	return apart.kind == VERDICT_UNDECIDED;
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
	double line_drop;

	return sep->base_median > 0 && sep->cand_median > 0 &&
	       !threshold_drop(&line_drop, t, sep->base_median, 0) &&
	       log(sep->cand_median / sep->base_median) > 2 * line_drop;
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
	const struct threshold *t = &d->job->threshold;
	struct strbuf unit = STRBUF_INIT;
	struct verdict apart;
	char *line;
	int virtual, ret = 0;

	if (t->kind == THRESHOLD_AUTO || d->job->faster)
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
	line = line_text(t);
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
		d->job_as_judged = *d->job;
		d->job_as_judged.threshold.kind = THRESHOLD_AUTO;
		d->job = d->m.job = &d->job_as_judged;
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
	free(line);
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
 * Measure the endpoints of a perf bisection until they are shown
 * separated (or shown not to be, or both reach the cap): good and bad
 * alternately, at least two boots each so the noise model has data of
 * its own, at most twice runs.max each. `need_bad` 0: the baseline only
 * (`iobisect test` with a fixed threshold).
 */
enum driver_status
driver_endpoints_perf(struct driver *d, struct driver_result *res, int need_bad)
{
	struct probe_note gn = {0}, bn = {0};
	struct sample_set g = SAMPLE_SET_INIT, b = SAMPLE_SET_INIT;
	/*
	 * Two good boots give the noise model its first spread; one bad boot
	 * is enough when the drop is a cliff, more come while it is not. On
	 * a clock that holds a kernel still (noise.h: steady), one good boot
	 * is enough too when the drop is deeper than any mode can read
	 * (verdict_beyond_modes): no stretch of the host's load explains it,
	 * whatever either kernel's own spread.
	 */
	size_t min = d->job->runs_min > 2 ? (size_t)d->job->runs_min : 2;
	size_t min_bad = d->job->runs_min > 1 ? (size_t)d->job->runs_min : 1;
	size_t first = measure_noise_machine(&d->m)->steady > 0 ? min_bad : min;
	size_t cap = driver_pairs_cap(d);
	unsigned gfail = 0, bfail = 0, tries = 0;
	enum driver_status ret = DRIVER_CULPRIT;
	int r;

	if (cap < min)
		cap = min;
	if (d->m.progress)
		progress_commit(d->m.progress, "good", 0, 0, d->good, NULL);
	r = driver_build_commit(d, d->good, &gn);
	driver_prefetch(d);
	if (r) {
		ret = r < 0 ? driver_stopped(d)
			    : endpoint_failed(d, res, "good", d->good, &gn);
		goto out;
	}
	for (;;) {
		int want_good;
		struct probe_note *n;

		if (measure_load(&d->m, d->good, &g)) {
			ret = driver_stopped(d);
			goto out;
		}
		/*
		 * bad is built once good has its first boots: by then a lane
		 * has built it beside them.
		 */
		if (need_bad && !d->bad_built && g.nr >= first) {
			if (d->m.progress)
				progress_commit(d->m.progress, "bad", 0, 0,
						d->bad, NULL);
			r = driver_build_commit(d, d->bad, &bn);
			d->bad_built = !r;
			if (r) {
				ret = r < 0 ? driver_stopped(d)
					    : endpoint_failed(d, res, "bad",
							      d->bad, &bn);
				goto out;
			}
			if (driver_narrow(d)) {
				ret = driver_stopped(d);
				goto out;
			}
		}
		if (d->bad_built && measure_load(&d->m, d->bad, &b)) {
			ret = driver_stopped(d);
			goto out;
		}
		if (!need_bad && g.nr >= min)
			break;
		if (need_bad && g.nr >= first && b.nr >= min_bad) {
			struct verdict_input in;
			struct noise_model nm;
			measure_verdict_input(&d->m, &in, &g, &b,
					     DRIVER_ENDPOINT_ERROR, &nm);
			if (verdict_endpoints(&d->sep, &in)) {
				ret = driver_stopped(d);
				goto out;
			}
			res->sep = d->sep;
			res->have_sep = 1;
			bn.have_verdict = 1;
			bn.v = d->sep;
			if (d->sep.kind == VERDICT_BAD &&
			    (g.nr >= min || endpoints_cliff(&d->sep, &nm))) {
				d->separated = 1;
				break;
			}
			if (g.nr >= cap && b.nr >= cap)
				break;
			if (d->sep.kind == VERDICT_GOOD) {
				r = drop_undecided(d, &g, &b);
				if (r < 0) {
					ret = driver_stopped(d);
					goto out;
				}
				if (!r)
					break;
			}
		}
		/* Boots that store nothing usable must not loop forever. */
		if (measure_tries_spent(tries++, 2 * cap, 2)) {
			struct probe_note *n =
				need_bad && b.nr < g.nr ? &bn : &gn;
			free(n->first_error);
			n->first_error = measure_no_sample_error();
			n->outcome = PROBE_WORKLOAD_ERROR;
			ret = endpoint_failed(d, res, n == &gn ? "good" : "bad",
					      n == &gn ? d->good : d->bad, n);
			goto out;
		}
		want_good = g.nr < first || !need_bad ||
			    (b.nr >= min_bad &&
			     (g.nr < min || (g.nr <= b.nr && g.nr < cap))) ||
			    b.nr >= cap;
		n = want_good ? &gn : &bn;
		if (res->have_sep)
			driver_say(d, "[bisect] endpoints: %s boot %zu: %s",
				   want_good ? "good" : "bad",
				   (want_good ? g.nr : b.nr) + 1,
				   d->sep.kind == VERDICT_BAD
					   ? "a drop within the slower mode's "
					     "depths: two good boots at least"
					   : "not separated yet");
		if (d->m.progress)
			progress_phase(d->m.progress, "%s boot %zu",
				       want_good ? "good" : "bad",
				       (want_good ? g.nr : b.nr) + 1);
		r = driver_boot_commit(d, want_good ? d->good : d->bad, n);
		if (r < 0) {
			ret = driver_stopped(d);
			goto out;
		}
		/*
		 * One failed boot is the machine's hiccup (under TCG on a
		 * loaded host a kernel can fail its own timer check and
		 * panic once); an endpoint whose first two boots fail, or
		 * that fails three times, cannot be a reference.
		 */
		if (r > 0 && (want_good ? (++gfail >= 3 || (!g.nr && gfail >= 2))
					: (++bfail >= 3 || (!b.nr && bfail >= 2)))) {
			ret = endpoint_failed(
				d, res, want_good ? "good" : "bad",
				want_good ? d->good : d->bad, n);
			goto out;
		}
		if (r > 0)
			driver_say(
				d,
				"warning: a boot of the %s endpoint failed: %s",
				want_good ? "good" : "bad",
				driver_failure_text(n));
	}
	/* Apart at all, or only near the line: does the line give way? */
	r = need_bad ? line_gives_way(d, res, &g, &b) : 0;
	if (r < 0) {
		ret = driver_stopped(d);
		goto out;
	}
	if (r > 0) {
		d->separated = 1;
		bn.v = d->sep;
	}
	gn.outcome = bn.outcome = PROBE_FAST; /* measured */
	driver_note_figures(&gn, &g);
	driver_record(d, d->good, ROLE_GOOD, &gn, BISECT_GOOD);
	if (need_bad) {
		driver_note_figures(&bn, &b);
		driver_record(d, d->bad, ROLE_BAD, &bn,
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
out:
	sample_set_release(&g);
	sample_set_release(&b);
	driver_note_release(&gn);
	driver_note_release(&bn);
	return ret;
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
