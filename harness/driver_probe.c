/*
 * driver_probe.c: one commit as the driver measures it: its build, its
 * boots one at a time (the baseline refreshed beside a probe that stays
 * undecided), its per-boot values (read through the ops once per boot),
 * the run's noise model, the sequential verdict, and its record in the
 * bisect state.
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

static struct driver_series *driver_series_of(struct driver *d,
					      const char *commit)
{
	struct driver_series *s;

	for (size_t i = 0; i < d->nr_series; i++)
		if (!strcmp(d->series[i].commit, commit))
			return &d->series[i];
	ALLOC_GROW(d->series, d->nr_series + 1, d->alloc_series);
	s = &d->series[d->nr_series++];
	memset(s, 0, sizeof(*s));
	snprintf(s->commit, sizeof(s->commit), "%s", commit);
	s->stale = 1;
	return s;
}

void driver_series_stale(struct driver *d, const char *commit)
{
	driver_series_of(d, commit)->stale = 1;
}

/*
 * The per-boot values of `commit` (a copy: values and counts only), read
 * through the ops once and again after each boot of it.
 */
int driver_load(struct driver *d, const char *commit, struct sample_set *out)
{
	struct driver_series *s = driver_series_of(d, commit);

	if (s->stale) {
		sample_set_release(&s->set);
		if (d->ops->load(d->payload, commit, &s->set))
			return -1;
		s->stale = 0;
	}
	sample_set_copy_values(out, s->set.values, s->set.nr);
	out->nr_samples = s->set.nr_samples;
	out->nr_ignored = s->set.nr_ignored;
	return 0;
}

/* The baseline a verdict compares with: the last DRIVER_WINDOW good boots. */
static void driver_window(const struct sample_set *all, const double **v,
			  size_t *n)
{
	*n = all->nr > DRIVER_WINDOW ? DRIVER_WINDOW : all->nr;
	*v = all->values ? all->values + (all->nr - *n) : NULL;
}

/*
 * The run's noise model: every commit read so far with two boots or more
 * (the good endpoint through its window), on the log scale.
 */
void driver_noise(struct driver *d, struct noise_model *out)
{
	struct noise_group *g = xcalloc(d->nr_series + 1, sizeof(*g));
	double **y = xcalloc(d->nr_series + 1, sizeof(*y));
	size_t n = 0;

	for (size_t i = 0; i < d->nr_series; i++) {
		const struct driver_series *s = &d->series[i];
		const double *v = s->set.values;
		size_t nr = s->set.nr;
		if (s->stale || nr < 2)
			continue;
		if (driver_is_good(d, s->commit))
			driver_window(&s->set, &v, &nr);
		y[n] = xmalloc(nr * sizeof(double));
		noise_log(y[n], v, nr);
		g[n] = (struct noise_group){y[n], nr};
		n++;
	}
	noise_estimate(out, d->noise_machine, g, n);
	for (size_t i = 0; i < n; i++)
		free(y[i]);
	free(y);
	free(g);
}

/*
 * Build `commit`: 0 built, 1 it does not build (n says why), -1 abort.
 * Builds and cache hits are counted once per commit and run.
 */
int driver_build_commit(struct driver *d, const char *commit,
			struct probe_note *n)
{
	struct driver_build b = {0};
	int first = 1, failed;

	for (size_t i = 0; i < d->built.nr; i++)
		first &= !!strcmp(d->built.v[i], commit);
	if (d->progress)
		progress_phase(d->progress, "building");
	if (d->ops->build(d->payload, commit, &b)) {
		driver_build_release(&b);
		return -1;
	}
	if (first) {
		strvec_push(&d->built, commit);
		if (b.cached)
			d->builds_cached++;
		else
			d->builds++;
		if (b.failed && b.log)
			strvec_pushf(&d->logs, "build of %.12s: %s", commit,
				     b.log);
	}
	if (n) {
		memcpy(n->key, b.key, sizeof(n->key));
		n->cached = b.cached;
		if (b.failed) {
			n->outcome = PROBE_BUILD_FAILED;
			free(n->first_error);
			free(n->log);
			n->first_error = b.first_error;
			n->log = b.log;
			b.first_error = b.log = NULL;
		}
	}
	failed = b.failed;
	driver_build_release(&b);
	return failed ? 1 : 0;
}

/* Boot `commit` once: 0 it went well, 1 it failed (n says how), -1 stop. */
int driver_boot_commit(struct driver *d, const char *commit,
		       struct probe_note *n)
{
	struct driver_boot b = {0};
	int ret;

	driver_series_of(d, commit)->stale = 1;
	if (d->ops->boot(d->payload, commit, &b)) {
		driver_boot_release(&b);
		return -1;
	}
	d->boots++;
	d->samples += (unsigned)b.samples;
	if (driver_is_good(d, commit)) {
		d->since_good = 0;
		d->baseline_boots++;
	} else {
		d->since_good++;
	}
	if (n)
		n->boots_run++;
	ret = !b.ok;
	if (!b.ok) {
		if (b.log)
			strvec_pushf(&d->logs, "%s boot of %.12s: %s",
				     probe_outcome_name(b.outcome), commit,
				     b.log);
		if (n) {
			n->outcome = b.outcome;
			free(n->first_error);
			free(n->log);
			n->first_error = b.first_error;
			n->log = b.log;
			b.first_error = b.log = NULL;
		}
	}
	driver_boot_release(&b);
	return ret;
}

/*
 * A good boot beside a probe that is still undecided, when the baseline
 * has not been refreshed for DRIVER_REFRESH boots (driver.h: drift).
 */
int driver_refresh_baseline(struct driver *d)
{
	struct probe_note g = {0};
	int r;

	if (d->since_good < DRIVER_REFRESH)
		return 0;
	if (d->progress)
		progress_phase(d->progress, "baseline boot");
	r = driver_boot_commit(d, d->st->good, &g);
	if (r > 0)
		driver_say(d, "warning: a boot of the good kernel failed: %s",
			   g.first_error ? g.first_error
					 : probe_outcome_name(g.outcome));
	driver_note_release(&g);
	return r < 0 ? -1 : 0;
}

void driver_verdict_input(struct driver *d, struct verdict_input *in,
			  const struct sample_set *good,
			  const struct sample_set *bad, double error,
			  struct noise_model *nm)
{
	memset(in, 0, sizeof(*in));
	driver_noise(d, nm);
	in->noise = nm;
	in->machine = d->noise_machine;
	driver_window(good, &in->base, &in->n_base);
	if (bad) {
		in->bad = bad->values;
		in->n_bad = bad->nr;
	}
	in->threshold = d->job->threshold;
	in->faster = d->job->faster;
	in->error = error;
	in->runs_min = d->job->runs_min;
}

/*
 * The verdict on `commit` against the baseline, from its boots after the
 * first `from`. 0 with *v filled, 1 when there is none yet (no such boots,
 * or an auto line that the baseline's drift has taken away: said as a
 * note, and more boots may bring it back), -1 to abort.
 */
int driver_judge(struct driver *d, const char *commit, size_t from,
		 double error, struct verdict *v, struct sample_set *cand)
{
	struct sample_set good = SAMPLE_SET_INIT, bad = SAMPLE_SET_INIT;
	struct verdict_input in;
	struct noise_model nm;
	struct strbuf why = STRBUF_INIT;
	int ret = -1, r;

	if (driver_load(d, commit, cand) ||
	    driver_load(d, d->st->good, &good) ||
	    (d->bad_built && strcmp(commit, d->st->bad) &&
	     driver_load(d, d->st->bad, &bad)))
		goto out;
	ret = 1;
	if (cand->nr <= from || !good.nr)
		goto out;
	driver_verdict_input(d, &in, &good, bad.nr ? &bad : NULL, error, &nm);
	in.cand = cand->values + from;
	in.n_cand = cand->nr - from;
	error_capture(&why);
	r = verdict_decide(v, &in);
	error_capture(NULL);
	if (r)
		driver_say(d, "no verdict yet on %.12s: %s", commit, why.buf);
	else
		ret = 0;
out:
	strbuf_release(&why);
	sample_set_release(&good);
	sample_set_release(&bad);
	return ret;
}

void driver_note_figures(struct probe_note *n, const struct sample_set *s)
{
	n->boots = s->nr;
	n->samples = s->nr_samples;
	n->median = s->nr ? stats_median(s->values, s->nr) : NAN;
	n->stddev_pct = s->nr ? stats_pct_stddev(s->values, s->nr) : NAN;
}

/*
 * A perf probe of a built commit: boot, judge, and boot again while
 * undecided, up to `cap` boots, the baseline refreshed beside it.
 */
static int probe_perf(struct driver *d, const char *commit, double error,
		      unsigned cap, struct probe_note *n)
{
	struct sample_set cand = SAMPLE_SET_INIT;
	unsigned tries = 0, floor = d->job->runs_min > 1 ? d->job->runs_min : 1;
	int ret = -1, r;

	for (;;) {
		if (driver_load(d, commit, &cand))
			goto out;
		if (cand.nr >= floor) {
			r = driver_judge(d, commit, 0, error, &n->v, &cand);
			if (r < 0)
				goto out;
			n->have_verdict = !r;
			if (!r && n->v.kind != VERDICT_UNDECIDED) {
				n->outcome = n->v.kind == VERDICT_BAD
						     ? PROBE_SLOW
						     : PROBE_FAST;
				break;
			}
		}
		if (cand.nr >= cap) {
			n->outcome = PROBE_UNDECIDED;
			break;
		}
		/* A boot that stores nothing usable must not loop forever. */
		if (tries++ > cap + 2) {
			n->outcome = PROBE_WORKLOAD_ERROR;
			n->first_error = xstrdup("boots complete but no sample "
						 "could be used");
			break;
		}
		if (cand.nr && driver_refresh_baseline(d))
			goto out;
		if (d->progress)
			progress_phase(d->progress, "boot %zu", cand.nr + 1);
		r = driver_boot_commit(d, commit, n);
		if (r < 0)
			goto out;
		if (r > 0)
			break;
	}
	driver_note_figures(n, &cand);
	ret = 0;
out:
	sample_set_release(&cand);
	return ret;
}

/* Bisect types build and boot ask less than a measurement. */
static int probe_typed(struct driver *d, const char *commit,
		       struct probe_note *n)
{
	struct sample_set set = SAMPLE_SET_INIT;
	int r = 0;

	/* Built: that is all "build" asks; "boot" asks for one boot. */
	n->outcome = PROBE_FAST;
	if (d->job->bisect_type == BISECT_BUILD)
		return 0;
	if (driver_load(d, commit, &set))
		return -1;
	if (!set.nr)
		r = driver_boot_commit(d, commit, n);
	sample_set_release(&set);
	return r < 0 ? -1 : 0;
}

/* Build, then measure as the bisect type asks. 0, or -1 to stop. */
int driver_probe(struct driver *d, const char *commit, double error,
		 unsigned cap, struct probe_note *n)
{
	uint64_t t0 = now_ns();
	int r;

	r = driver_build_commit(d, commit, n);
	if (r < 0)
		return -1;
	/* This one is built: the next ones can build beside its boots. */
	driver_prefetch(d);
	if (r == 0)
		r = d->job->bisect_type == BISECT_PERF
			    ? probe_perf(d, commit, error, cap, n)
			    : probe_typed(d, commit, n);
	n->seconds = (now_ns() - t0) / 1e9;
	return r < 0 ? -1 : 0;
}

/* Record a probe in the state (replacing an earlier one of this role). */
void driver_record(struct driver *d, const char *commit, const char *role,
		   const struct probe_note *n, const char *mark)
{
	struct bisect_state *st = d->st;
	struct state_probe *p = NULL;
	const char *last;
	char ts[32];

	for (size_t i = 0; i < st->nr_probes; i++)
		if (!strcmp(st->probes[i].commit, commit) &&
		    !strcmp(st->probes[i].role, role))
			p = &st->probes[i];
	if (!p) {
		p = state_add_probe(st, commit, role);
		p->subject = driver_subject(d, commit);
	}
	free(p->build_key);
	p->build_key = n->key[0] ? xstrdup(n->key) : NULL;
	p->cached = n->cached;
	free(p->outcome);
	p->outcome = xstrdup(probe_outcome_name(n->outcome));
	free(p->mark);
	p->mark = mark ? xstrdup(mark) : NULL;
	free(p->v.verdict);
	p->v.verdict = NULL;
	/* Every measured commit shows its own level, the good one too. */
	p->v.median = n->median;
	p->v.stddev_pct = n->stddev_pct;
	p->v.boots = (unsigned)n->boots;
	if (n->have_verdict) {
		p->v.verdict = xstrdup(verdict_name(n->v.kind));
		p->v.good_median = n->v.base_median;
		p->v.good_stddev_pct = n->v.base_pct_stddev;
		p->v.effect_pct = n->v.pct_change;
		p->v.llr = n->v.llr;
		p->v.error = n->v.error;
		p->v.good_boots = (unsigned)n->v.n_base;
	}
	p->boots += n->boots_run;
	p->samples = (unsigned)n->samples;
	free(p->log);
	p->log = n->log ? xstrdup(n->log) : NULL;
	free(p->first_error);
	p->first_error = n->first_error ? xstrdup(n->first_error) : NULL;
	utc_timestamp(ts, sizeof(ts));
	free(p->ended);
	p->ended = xstrdup(ts);
	p->seconds = n->seconds;
	last = state_find_mark(st, commit);
	if (mark && (!last || strcmp(last, mark)))
		state_add_mark(st, commit, mark);
}

void driver_say_verdict(struct driver *d, const char *commit,
			const struct probe_note *n, const char *mark)
{
	if (n->have_verdict && n->outcome != PROBE_BUILD_FAILED && n->v.n_cand)
		driver_say(
			d,
			"[bisect] %.12s is %s: %.1f MB/s ±%.0f%% vs %.1f MB/s "
			"±%.0f%% (%+.1f%%, %zu boots, error %.2g)",
			commit,
			!strcmp(mark, "bad")	? "slow"
			: !strcmp(mark, "good") ? "fast"
						: "undecided (skip)",
			n->v.cand_median / 1e6, n->v.cand_pct_stddev,
			n->v.base_median / 1e6, n->v.base_pct_stddev,
			n->v.pct_change, n->v.n_cand, n->v.error);
	else
		driver_say(d, "[bisect] %.12s: %s -> %s%s%s", commit,
			   probe_outcome_name(n->outcome), mark,
			   n->log ? ", log: " : "", n->log ? n->log : "");
}
