/*
 * driver.c: the bisection's policy over struct driver_ops (see driver.h):
 * the endpoints, the merge base, the steps, the top-up of the culprit and
 * its parents, the interleaved baseline, and the bisect state that records
 * all of it. Nothing here reaches git, make or QEMU except through the ops.
 */
#include "driver.h"

#include "noise.h"
#include "progress.h"
#include "run.h"
#include "stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void driver_build_release(struct driver_build *b)
{
	free(b->first_error);
	free(b->log);
	memset(b, 0, sizeof(*b));
}

void driver_boot_release(struct driver_boot *b)
{
	free(b->first_error);
	free(b->log);
	memset(b, 0, sizeof(*b));
}

void driver_result_init(struct driver_result *r)
{
	memset(r, 0, sizeof(*r));
	r->confidence = NAN;
}

void driver_result_release(struct driver_result *r)
{
	strvec_clear(&r->parents);
	strvec_clear(&r->suspects);
	free(r->message);
	driver_result_init(r);
}

void driver_init(struct driver *d, const struct job *job,
		 const struct driver_ops *ops, void *payload,
		 const struct commit_graph *graph, struct bisect_state *st)
{
	memset(d, 0, sizeof(*d));
	d->job = job;
	d->ops = ops;
	d->payload = payload;
	d->graph = graph;
	d->st = st;
	d->target = job->confidence > 0 ? job->confidence : 0.95;
	d->prev_builds = st->builds;
	d->prev_cached = st->builds_cached;
	d->prev_boots = st->boots;
	d->prev_samples = st->samples;
	d->prev_seconds = st->seconds;
	d->t0 = now_ns();
}

void driver_release(struct driver *d)
{
	for (size_t i = 0; i < d->nr_series; i++)
		sample_set_release(&d->series[i].set);
	free(d->series);
	bisect_release(&d->engine);
	strvec_clear(&d->logs);
	strvec_clear(&d->built);
}

/* What one probe of a commit came to (recorded in the state). */
struct probe_note {
	enum probe_outcome outcome;
	int have_verdict;
	struct verdict v;
	unsigned boots_run; /* boots this probe ran */
	size_t boots;       /* the commit's boots behind the verdict */
	size_t samples;
	double median, stddev_pct; /* of the commit's boots */
	char key[41];
	int cached;
	char *first_error, *log;
	double seconds;
};

static void note_release(struct probe_note *n)
{
	free(n->first_error);
	free(n->log);
	memset(n, 0, sizeof(*n));
}

static int is_good(const struct driver *d, const char *commit)
{
	return !strcmp(commit, d->st->good);
}

static char *subject_of(struct driver *d, const char *commit)
{
	char *s = d->ops->subject ? d->ops->subject(d->payload, commit) : NULL;
	return s ? s : xstrdup("");
}

static int save(struct driver *d)
{
	struct bisect_state *st = d->st;

	st->builds = d->prev_builds + d->builds;
	st->builds_cached = d->prev_cached + d->builds_cached;
	st->boots = d->prev_boots + d->boots;
	st->samples = d->prev_samples + d->samples;
	st->seconds = d->prev_seconds + (now_ns() - d->t0) / 1e9;
	return d->state_file ? state_save(st, d->state_file) : 0;
}

static void note(struct driver *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct driver *d, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!d->progress)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	progress_note(d->progress, "%s", sb.buf);
	strbuf_release(&sb);
}

/* An op returned -1: interrupted (state saved) or aborted. */
static enum driver_status stopped(struct driver *d)
{
	if (run_interrupted()) {
		save(d);
		if (d->state_file)
			note(d, "[bisect] interrupted; state saved in %s: run "
				"the same command to resume",
			     d->state_file);
		return DRIVER_INTERRUPTED;
	}
	d->st->status = STATE_ABORTED;
	save(d);
	return DRIVER_ABORT;
}

static struct driver_series *series_of(struct driver *d, const char *commit)
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

/*
 * The per-boot values of `commit` (a copy: values and counts only), read
 * through the ops once and again after each boot of it.
 */
static int load(struct driver *d, const char *commit, struct sample_set *out)
{
	struct driver_series *s = series_of(d, commit);

	sample_set_release(out);
	if (s->stale) {
		sample_set_release(&s->set);
		if (d->ops->load(d->payload, commit, &s->set))
			return -1;
		s->stale = 0;
	}
	out->nr = out->alloc = s->set.nr;
	out->values = xmalloc((out->nr + 1) * sizeof(*out->values));
	if (out->nr)
		memcpy(out->values, s->set.values,
		       out->nr * sizeof(*out->values));
	out->nr_samples = s->set.nr_samples;
	out->nr_ignored = s->set.nr_ignored;
	return 0;
}

/* The baseline a verdict compares with: the last DRIVER_WINDOW good boots. */
static void window(const struct sample_set *all, const double **v, size_t *n)
{
	*n = all->nr > DRIVER_WINDOW ? DRIVER_WINDOW : all->nr;
	*v = all->values ? all->values + (all->nr - *n) : NULL;
}

/*
 * The run's noise model: every commit read so far with two boots or more
 * (the good endpoint through its window), on the log scale.
 */
static void run_noise(struct driver *d, struct noise_model *out)
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
		if (is_good(d, s->commit))
			window(&s->set, &v, &nr);
		y[n] = xmalloc(nr * sizeof(double));
		noise_log(y[n], v, nr);
		g[n] = (struct noise_group){ y[n], nr };
		n++;
	}
	noise_estimate(out, g, n);
	for (size_t i = 0; i < n; i++)
		free(y[i]);
	free(y);
	free(g);
}

/*
 * Build `commit`: 0 built, 1 it does not build (n says why), -1 abort.
 * Builds and cache hits are counted once per commit and run.
 */
static int build(struct driver *d, const char *commit, struct probe_note *n)
{
	struct driver_build b = { 0 };
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
static int boot(struct driver *d, const char *commit, struct probe_note *n)
{
	struct driver_boot b = { 0 };
	int ret;

	series_of(d, commit)->stale = 1;
	if (d->ops->boot(d->payload, commit, &b)) {
		driver_boot_release(&b);
		return -1;
	}
	d->boots++;
	d->samples += (unsigned)b.samples;
	if (is_good(d, commit)) {
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
static int refresh_baseline(struct driver *d)
{
	struct probe_note g = { 0 };
	int r;

	if (d->since_good < DRIVER_REFRESH)
		return 0;
	if (d->progress)
		progress_phase(d->progress, "baseline boot");
	r = boot(d, d->st->good, &g);
	if (r > 0)
		note(d, "warning: a boot of the good kernel failed: %s",
		     g.first_error ? g.first_error : probe_outcome_name(g.outcome));
	note_release(&g);
	return r < 0 ? -1 : 0;
}

static void verdict_input_fill(struct driver *d, struct verdict_input *in,
			       const struct sample_set *good,
			       const struct sample_set *bad, double error,
			       struct noise_model *nm)
{
	memset(in, 0, sizeof(*in));
	run_noise(d, nm);
	in->noise = nm;
	window(good, &in->base, &in->n_base);
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
static int judge(struct driver *d, const char *commit, size_t from,
		 double error, struct verdict *v, struct sample_set *cand)
{
	struct sample_set good = SAMPLE_SET_INIT, bad = SAMPLE_SET_INIT;
	struct verdict_input in;
	struct noise_model nm;
	struct strbuf why = STRBUF_INIT;
	int ret = -1, r;

	if (load(d, commit, cand) || load(d, d->st->good, &good) ||
	    (d->bad_built && strcmp(commit, d->st->bad) &&
	     load(d, d->st->bad, &bad)))
		goto out;
	ret = 1;
	if (cand->nr <= from || !good.nr)
		goto out;
	verdict_input_fill(d, &in, &good, bad.nr ? &bad : NULL, error, &nm);
	in.cand = cand->values + from;
	in.n_cand = cand->nr - from;
	error_capture(&why);
	r = verdict_decide(v, &in);
	error_capture(NULL);
	if (r)
		note(d, "no verdict yet on %.12s: %s", commit, why.buf);
	else
		ret = 0;
out:
	strbuf_release(&why);
	sample_set_release(&good);
	sample_set_release(&bad);
	return ret;
}

static void note_own_figures(struct probe_note *n, const struct sample_set *s)
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
		if (load(d, commit, &cand))
			goto out;
		if (cand.nr >= floor) {
			r = judge(d, commit, 0, error, &n->v, &cand);
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
		if (cand.nr && refresh_baseline(d))
			goto out;
		if (d->progress)
			progress_phase(d->progress, "boot %zu", cand.nr + 1);
		r = boot(d, commit, n);
		if (r < 0)
			goto out;
		if (r > 0)
			break;
	}
	note_own_figures(n, &cand);
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
	if (load(d, commit, &set))
		return -1;
	if (!set.nr)
		r = boot(d, commit, n);
	sample_set_release(&set);
	return r < 0 ? -1 : 0;
}

/* Build, then measure as the bisect type asks. 0, or -1 to stop. */
static int probe(struct driver *d, const char *commit, double error,
		 unsigned cap, struct probe_note *n)
{
	uint64_t t0 = now_ns();
	int r;

	r = build(d, commit, n);
	if (r < 0)
		return -1;
	if (r == 0)
		r = d->job->bisect_type == BISECT_PERF
			    ? probe_perf(d, commit, error, cap, n)
			    : probe_typed(d, commit, n);
	n->seconds = (now_ns() - t0) / 1e9;
	return r < 0 ? -1 : 0;
}

/* Record a probe in the state (replacing an earlier one of this role). */
static void record(struct driver *d, const char *commit, const char *role,
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
		p->subject = subject_of(d, commit);
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

static void say_verdict(struct driver *d, const char *commit,
			const struct probe_note *n, const char *mark)
{
	if (n->have_verdict && n->outcome != PROBE_BUILD_FAILED &&
	    n->v.n_cand)
		note(d,
		     "[bisect] %.12s is %s: %.1f MB/s ±%.0f%% vs %.1f MB/s "
		     "±%.0f%% (%+.1f%%, %zu boots, error %.2g)",
		     commit,
		     !strcmp(mark, "bad")    ? "slow"
		     : !strcmp(mark, "good") ? "fast"
					     : "undecided (skip)",
		     n->v.cand_median / 1e6, n->v.cand_pct_stddev,
		     n->v.base_median / 1e6, n->v.base_pct_stddev,
		     n->v.pct_change, n->v.n_cand, n->v.error);
	else
		note(d, "[bisect] %.12s: %s -> %s%s%s", commit,
		     probe_outcome_name(n->outcome), mark,
		     n->log ? ", log: " : "", n->log ? n->log : "");
}

static void set_message(struct driver_result *res, char *msg)
{
	free(res->message);
	res->message = msg;
}

static const char *failure_text(const struct probe_note *n)
{
	return n->first_error ? n->first_error : probe_outcome_name(n->outcome);
}

/* The endpoints of a build or boot bisection: good passes, bad fails. */
static enum driver_status endpoints_typed(struct driver *d,
					  struct driver_result *res)
{
	struct bisect_state *st = d->st;
	struct probe_note gn = { 0 }, bn = { 0 };
	enum bisect_mark gm, bm;
	enum driver_status ret = DRIVER_CULPRIT;

	if (d->progress)
		progress_commit(d->progress, "good", 0, 0, st->good, NULL);
	if (probe(d, st->good, 0, 1, &gn)) {
		ret = stopped(d);
		goto out;
	}
	gm = bisect_classify(d->job->bisect_type, gn.outcome);
	record(d, st->good, "good", &gn, bisect_mark_name(gm));
	if (d->progress)
		progress_commit(d->progress, "bad", 0, 0, st->bad, NULL);
	if (probe(d, st->bad, 0, 1, &bn)) {
		ret = stopped(d);
		goto out;
	}
	bm = bisect_classify(d->job->bisect_type, bn.outcome);
	record(d, st->bad, "bad", &bn, bisect_mark_name(bm));
	if (gm != BISECT_GOOD || bm != BISECT_BAD) {
		set_message(res,
			    xstrfmt("for a %s bisection good must pass and bad "
				    "fail: good %.12s %s, bad %.12s %s",
				    d->job->bisect_type == BISECT_BUILD ? "build"
									: "boot",
				    st->good, probe_outcome_name(gn.outcome),
				    st->bad, probe_outcome_name(bn.outcome)));
		st->status = STATE_NOT_SEPARATED;
		ret = DRIVER_NOT_SEPARATED;
	}
	save(d);
out:
	note_release(&gn);
	note_release(&bn);
	return ret;
}

/* An endpoint that cannot be measured stops the run. */
static enum driver_status endpoint_failed(struct driver *d,
					  struct driver_result *res,
					  const char *which, const char *commit,
					  const struct probe_note *n)
{
	set_message(res, xstrfmt("the %s endpoint %.12s cannot be measured: "
				 "%s: %s%s%s",
				 which, commit, probe_outcome_name(n->outcome),
				 failure_text(n), n->log ? "; log: " : "",
				 n->log ? n->log : ""));
	d->st->status = STATE_ABORTED;
	save(d);
	return DRIVER_ABORT;
}

/*
 * Measure the endpoints of a perf bisection until they are shown
 * separated (or shown not to be, or both reach the cap): good and bad
 * alternately, at least two boots each so the noise model has data of
 * its own, at most twice runs.max each. `need_bad` 0: the baseline only
 * (`iobisect test` with a fixed threshold).
 */
static enum driver_status endpoints_perf(struct driver *d,
					 struct driver_result *res,
					 int need_bad)
{
	struct bisect_state *st = d->st;
	struct probe_note gn = { 0 }, bn = { 0 };
	struct sample_set g = SAMPLE_SET_INIT, b = SAMPLE_SET_INIT;
	/*
	 * Two good boots give the noise model its first spread; one bad boot
	 * is enough when the drop is a cliff, more come while it is not.
	 */
	size_t min = d->job->runs_min > 2 ? (size_t)d->job->runs_min : 2;
	size_t min_bad = d->job->runs_min > 1 ? (size_t)d->job->runs_min : 1;
	size_t cap = 2 * (size_t)d->job->runs_max;
	unsigned gfail = 0, bfail = 0, tries = 0;
	enum driver_status ret = DRIVER_CULPRIT;
	int r;

	if (cap < min)
		cap = min;
	if (d->progress)
		progress_commit(d->progress, "good", 0, 0, st->good, NULL);
	r = build(d, st->good, &gn);
	if (r) {
		ret = r < 0 ? stopped(d) : endpoint_failed(d, res, "good",
							   st->good, &gn);
		goto out;
	}
	if (need_bad) {
		if (d->progress)
			progress_commit(d->progress, "bad", 0, 0, st->bad,
					NULL);
		r = build(d, st->bad, &bn);
		d->bad_built = !r;
		if (r) {
			ret = r < 0 ? stopped(d)
				    : endpoint_failed(d, res, "bad", st->bad,
						      &bn);
			goto out;
		}
	}
	for (;;) {
		int want_good;
		struct probe_note *n;

		if (load(d, st->good, &g) ||
		    (need_bad && load(d, st->bad, &b))) {
			ret = stopped(d);
			goto out;
		}
		if (!need_bad && g.nr >= min)
			break;
		if (need_bad && g.nr >= min && b.nr >= min_bad) {
			struct verdict_input in;
			struct noise_model nm;
			verdict_input_fill(d, &in, &g, &b,
					   DRIVER_ENDPOINT_ERROR, &nm);
			if (verdict_endpoints(&d->sep, &in)) {
				ret = stopped(d);
				goto out;
			}
			res->sep = d->sep;
			res->have_sep = 1;
			bn.have_verdict = 1;
			bn.v = d->sep;
			if (d->sep.kind == VERDICT_BAD) {
				d->separated = 1;
				break;
			}
			if (d->sep.kind == VERDICT_GOOD ||
			    (g.nr >= cap && b.nr >= cap))
				break;
		}
		/* Boots that store nothing usable must not loop forever. */
		if (tries++ > 2 * cap + 4) {
			struct probe_note *n = need_bad && b.nr < g.nr ? &bn
									: &gn;
			free(n->first_error);
			n->first_error = xstrdup("boots complete but no sample "
						 "could be used");
			n->outcome = PROBE_WORKLOAD_ERROR;
			ret = endpoint_failed(d, res, n == &gn ? "good" : "bad",
					      n == &gn ? st->good : st->bad, n);
			goto out;
		}
		want_good = g.nr < min || !need_bad ||
			    (b.nr >= min_bad && g.nr <= b.nr && g.nr < cap) ||
			    b.nr >= cap;
		n = want_good ? &gn : &bn;
		if (d->progress) {
			progress_commit(d->progress, want_good ? "good" : "bad",
					0, 0, want_good ? st->good : st->bad,
					NULL);
			progress_phase(d->progress, "boot %zu",
				       (want_good ? g.nr : b.nr) + 1);
		}
		r = boot(d, want_good ? st->good : st->bad, n);
		if (r < 0) {
			ret = stopped(d);
			goto out;
		}
		/*
		 * One failed boot among good ones is the machine's hiccup;
		 * an endpoint that fails from the start, or three times,
		 * cannot be a reference.
		 */
		if (r > 0 && (want_good ? (++gfail >= 3 || !g.nr)
					: (++bfail >= 3 || !b.nr))) {
			ret = endpoint_failed(d, res,
					      want_good ? "good" : "bad",
					      want_good ? st->good : st->bad, n);
			goto out;
		}
		if (r > 0)
			note(d, "warning: a boot of the %s endpoint failed: %s",
			     want_good ? "good" : "bad", failure_text(n));
	}
	gn.outcome = bn.outcome = PROBE_FAST; /* measured */
	note_own_figures(&gn, &g);
	record(d, st->good, "good", &gn, "good");
	if (need_bad) {
		note_own_figures(&bn, &b);
		record(d, st->bad, "bad", &bn, d->separated ? "bad" : NULL);
		if (d->separated) {
			note(d, "[bisect] endpoints: %s", d->sep.reason);
		} else {
			set_message(res, xstrfmt("endpoints not separated: %s",
						 d->sep.reason));
			st->status = STATE_NOT_SEPARATED;
			ret = DRIVER_NOT_SEPARATED;
		}
	}
	save(d);
out:
	sample_set_release(&g);
	sample_set_release(&b);
	note_release(&gn);
	note_release(&bn);
	return ret;
}

/* git tests the merge base first when good is not an ancestor of bad. */
static enum driver_status merge_base(struct driver *d,
				     struct driver_result *res)
{
	struct bisect_state *st = d->st;
	struct probe_note n = { 0 };
	const char *known = state_find_mark(st, st->merge_base);
	enum bisect_mark m;
	char *subject;

	if (!st->merge_base[0])
		return DRIVER_CULPRIT;
	if (known) {
		m = !strcmp(known, "bad") ? BISECT_BAD : BISECT_GOOD;
	} else {
		subject = subject_of(d, st->merge_base);
		if (d->progress)
			progress_commit(d->progress, "merge-base", 0, 0,
					st->merge_base, subject);
		free(subject);
		if (probe(d, st->merge_base, DRIVER_STEP_ERROR,
			  (unsigned)d->job->runs_max, &n)) {
			note_release(&n);
			return stopped(d);
		}
		m = bisect_classify(d->job->bisect_type, n.outcome);
		record(d, st->merge_base, "merge-base", &n,
		       bisect_mark_name(m));
		say_verdict(d, st->merge_base, &n, bisect_mark_name(m));
		note_release(&n);
		save(d);
	}
	if (m == BISECT_BAD) {
		set_message(res, xstrfmt("the merge base %.12s is already "
					 "slow: the slowdown came before it, "
					 "between it and good %.12s there is "
					 "a fix",
					 st->merge_base, st->good));
		st->status = STATE_NOT_SEPARATED;
		save(d);
		return DRIVER_NOT_SEPARATED;
	}
	if (m == BISECT_SKIP)
		note(d, "warning: the merge base %.12s could not be tested: "
			"the first slow commit may be older",
		     st->merge_base);
	return DRIVER_CULPRIT;
}

static enum bisect_mark mark_from_name(const char *m)
{
	return !strcmp(m, "good")  ? BISECT_GOOD
	       : !strcmp(m, "bad") ? BISECT_BAD
				   : BISECT_SKIP;
}

/* The marks of earlier runs (and of earlier top-ups), in order. */
static int replay(struct driver *d)
{
	for (size_t i = 0; i < d->st->nr_marks; i++) {
		long n = graph_find(d->graph, d->st->marks[i].commit);
		if (n <= 0) /* the endpoints and the merge base */
			continue;
		if (bisect_mark(&d->engine, (size_t)n,
				mark_from_name(d->st->marks[i].mark)))
			return -1;
	}
	return 0;
}

static unsigned count_role(const struct bisect_state *st, const char *role)
{
	unsigned n = 0;

	for (size_t i = 0; i < st->nr_probes; i++)
		n += !strcmp(st->probes[i].role, role);
	return n;
}

/* Step until the engine names one commit (*culprit) or cannot. */
static enum driver_status steps(struct driver *d, struct driver_result *res,
				size_t *culprit)
{
	struct bisect_state *st = d->st;

	for (;;) {
		size_t node, *c = NULL, nc;
		enum bisect_status s;
		struct probe_note n = { 0 };
		enum bisect_mark m;
		char *subject;
		const char *id;

		if (run_interrupted())
			return stopped(d);
		s = bisect_next(&d->engine, &node);
		if (s == BISECT_DONE) {
			*culprit = node;
			return DRIVER_CULPRIT;
		}
		if (s == BISECT_ERROR || s == BISECT_INCONCLUSIVE) {
			nc = bisect_candidates(&d->engine, &c);
			for (size_t i = 0; i < nc; i++)
				strvec_push(&st->suspects,
					    d->graph->nodes[c[i]].id);
			free(c);
			if (s == BISECT_ERROR)
				set_message(res, xstrdup(
					"the marks contradict each other: a "
					"top-up or a resumed run changed a "
					"verdict the range depends on"));
			st->status = STATE_INCONCLUSIVE;
			save(d);
			return DRIVER_INCONCLUSIVE;
		}
		id = d->graph->nodes[node].id;
		subject = subject_of(d, id);
		res->steps = count_role(st, "step") + 1;
		if (d->progress)
			progress_commit(d->progress, "step", (int)res->steps,
					(int)(res->steps - 1 +
					      bisect_steps_left(&d->engine)),
					id, subject);
		free(subject);
		if (probe(d, id, DRIVER_STEP_ERROR, (unsigned)d->job->runs_max,
			  &n)) {
			note_release(&n);
			return stopped(d);
		}
		m = bisect_classify(d->job->bisect_type, n.outcome);
		if (bisect_mark(&d->engine, node, m)) {
			note_release(&n);
			return stopped(d);
		}
		record(d, id, "step", &n, bisect_mark_name(m));
		say_verdict(d, id, &n, bisect_mark_name(m));
		note_release(&n);
		if (d->progress)
			progress_commit_done(d->progress);
		if (save(d))
			return DRIVER_ABORT;
	}
}

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
 * The boots a step took to choose `commit`: the top-up judges it on the
 * boots after those. A commit is chosen as the culprit (or its parent)
 * because its step said slow (fast): those boots are biased toward that
 * verdict (the winner's curse), and a fluke among them would confirm
 * itself. Fresh boots cannot. On a cliff (is_cliff) the step's boots
 * count: no boot there is a near miss.
 */
/*
 * Are the endpoints' levels DRIVER_CLIFF scales of noise apart or more? A
 * commit can then sit at one level or the other, a boot of it cannot be
 * ambiguous, and a fluke that deep is a hiccup (VERDICT_HICCUP), which the
 * verdicts already price in.
 */
static int is_cliff(const struct driver *d)
{
	const struct verdict *v = &d->sep;

	return d->separated && v->sigma_pct > 0 && v->slow_level > 0 &&
	       fabs(log(v->fast_level / v->slow_level)) /
			       (v->sigma_pct / 100) >=
		       DRIVER_CLIFF;
}

static size_t chosen_at(const struct driver *d, const char *commit)
{
	for (size_t i = d->st->nr_probes; i-- > 0;) {
		const struct state_probe *p = &d->st->probes[i];
		if (!strcmp(p->commit, commit) &&
		    (!strcmp(p->role, "step") || !strcmp(p->role, "merge-base")))
			return is_cliff(d) ? 0 : p->v.boots;
	}
	return 0;
}

/* One of the culprit and its parents, as the top-up sees it. */
struct topup_item {
	const char *id;
	int slow;     /* should be slow (the culprit) */
	int judged;   /* the good endpoint and a bad-endpoint culprit are not */
	const char *remark; /* the mark a contradicting verdict gave it */
	size_t from;  /* boots the step chose it with (chosen_at) */
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
		r = judge(d, it[i].id, it[i].from, DRIVER_STEP_ERROR, &it[i].v,
			  &s);
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
 * Boot the culprit and its parents until the answer's confidence reaches
 * the target (each at most twice runs.max boots). A verdict that turns
 * against its step re-marks that commit and sets *reopen. Returns 0, or
 * -1 to stop.
 */
static int topup(struct driver *d, size_t node, struct driver_result *res,
		 int *reopen, double *conf)
{
	struct topup_item *it, *contra;
	size_t nr, cap = 2 * (size_t)d->job->runs_max;
	char *subject;
	int ret = -1;

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
		it[i].judged = !is_good(d, it[i].id);
	}
	for (size_t i = 0; i < nr; i++)
		it[i].from = chosen_at(d, it[i].id);
	subject = subject_of(d, it[0].id);
	if (d->progress)
		progress_commit(d->progress, "top-up", 0, 0, it[0].id, subject);
	free(subject);
	for (size_t i = 0; i < nr; i++) {
		struct probe_note n = { 0 };
		int r;
		if (!it[i].judged)
			continue;
		r = build(d, it[i].id, &n);
		if (r > 0)
			set_message(res, xstrfmt("the culprit's parent %.12s "
						 "cannot be measured: %s",
						 it[i].id, failure_text(&n)));
		note_release(&n);
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
		struct probe_note n = { 0 };
		int r;

		if (topup_judge(d, it, nr, &contra, conf))
			goto out;
		if (contra) {
			long at = graph_find(d->graph, contra->id);
			const char *mark = contra->slow ? "good" : "bad";
			if (at <= 0) {
				set_message(res, xstrfmt(
					"the culprit's parent %.12s, outside "
					"the range, is slow: the slowdown is "
					"older than the range",
					contra->id));
				*conf = 0;
				break;
			}
			note(d, "[bisect] the top-up of %.12s contradicts its "
				"step: it is %s (%s); re-opening the range",
			     contra->id, contra->slow ? "fast" : "slow",
			     contra->v.reason);
			if (bisect_mark(&d->engine, (size_t)at,
					mark_from_name(mark)))
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
		if (next->boots > next->from && refresh_baseline(d))
			goto out;
		if (d->progress)
			progress_phase(d->progress, "top-up %.12s boot %zu",
				       next->id, next->boots + 1);
		r = boot(d, next->id, &n);
		if (r > 0)
			set_message(res, xstrfmt("the top-up could not boot "
						 "%.12s: %s",
						 next->id, failure_text(&n)));
		note_release(&n);
		if (r < 0)
			goto out;
		if (r > 0) {
			*conf = 0;
			break;
		}
	}
	/* The verdicts the answer rests on, as they ended. */
	for (size_t i = 0; i < nr; i++) {
		struct probe_note n = { 0 };
		struct sample_set s = SAMPLE_SET_INIT;
		if (!it[i].judged || load(d, it[i].id, &s)) {
			sample_set_release(&s);
			continue;
		}
		n.outcome = PROBE_FAST; /* measured */
		n.have_verdict = it[i].v.n_cand > 0;
		n.v = it[i].v;
		note_own_figures(&n, &s);
		record(d, it[i].id, "top-up", &n, it[i].remark);
		sample_set_release(&s);
	}
	save(d);
	ret = 0;
out:
	free(it);
	return ret;
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
	ret = d->job->bisect_type == BISECT_PERF ? endpoints_perf(d, res, 1)
						 : endpoints_typed(d, res);
	if (ret == DRIVER_CULPRIT)
		ret = merge_base(d, res);
	if (ret != DRIVER_CULPRIT)
		goto out;
	if (bisect_init(&d->engine, d->graph) || replay(d)) {
		ret = stopped(d);
		goto out;
	}
	for (;;) {
		int reopen = 0;

		ret = steps(d, res, &culprit);
		if (ret != DRIVER_CULPRIT)
			goto out;
		if (d->job->bisect_type != BISECT_PERF)
			break;
		if (topup(d, culprit, res, &reopen, &conf)) {
			ret = stopped(d);
			goto out;
		}
		if (!reopen)
			break;
		if (res->reopened > DRIVER_MAX_REOPEN) {
			set_message(res, xstrfmt("%u top-ups contradicted the "
						 "steps: the range does not "
						 "hold one clear slowdown",
						 res->reopened));
			strvec_push(&st->suspects, d->graph->nodes[culprit].id);
			st->status = STATE_INCONCLUSIVE;
			ret = DRIVER_INCONCLUSIVE;
			goto out;
		}
		save(d);
	}
	memcpy(res->culprit, d->graph->nodes[culprit].id, 41);
	res->confidence = conf;
	st->confidence = conf;
	if (d->job->bisect_type != BISECT_PERF || conf >= d->target) {
		memcpy(st->culprit, res->culprit, 41);
		st->status = STATE_DONE;
	} else {
		if (!res->message)
			set_message(res, xstrfmt(
				"%.12s is the likeliest first slow commit, at "
				"confidence %.1f%%, below the job's %.1f%% "
				"within %d boots each",
				res->culprit, conf * 100, d->target * 100,
				2 * d->job->runs_max));
		strvec_push(&st->suspects, res->culprit);
		st->status = STATE_INCONCLUSIVE;
		ret = DRIVER_INCONCLUSIVE;
	}
	save(d);
out:
	for (size_t i = 0; i < st->suspects.nr; i++)
		strvec_push(&res->suspects, st->suspects.v[i]);
	res->steps = count_role(st, "step");
	return res->status = ret;
}

enum driver_status driver_test(struct driver *d, const char *commit,
			       struct driver_result *res,
			       enum bisect_mark *mark)
{
	struct probe_note n = { 0 };
	enum driver_status ret = DRIVER_CULPRIT;
	int is_auto = d->job->threshold.kind == THRESHOLD_AUTO;
	const char *word;

	driver_result_init(res);
	*mark = BISECT_SKIP;
	if (d->job->bisect_type == BISECT_PERF) {
		if (is_auto && !d->st->bad[0]) {
			error("threshold 'auto' needs the bad endpoint: the "
			      "job names none");
			return res->status = DRIVER_ABORT;
		}
		ret = endpoints_perf(d, res, is_auto);
		if (ret != DRIVER_CULPRIT)
			goto out;
	}
	if (d->progress)
		progress_commit(d->progress, "test", 0, 0, commit, NULL);
	if (probe(d, commit, DRIVER_TEST_ERROR, (unsigned)d->job->runs_max,
		  &n)) {
		ret = stopped(d);
		goto out;
	}
	*mark = bisect_classify(d->job->bisect_type, n.outcome);
	word = *mark == BISECT_GOOD  ? "fast"
	       : *mark == BISECT_BAD ? "slow"
				     : "untestable";
	if (n.have_verdict && n.outcome != PROBE_BUILD_FAILED)
		set_message(res, xstrfmt("%s: %.12s %.1f MB/s ±%.0f%% vs good "
					 "%.1f MB/s ±%.0f%% (%+.1f%%, %zu "
					 "boots, error %.2g)",
					 word, commit, n.v.cand_median / 1e6,
					 n.v.cand_pct_stddev,
					 n.v.base_median / 1e6,
					 n.v.base_pct_stddev, n.v.pct_change,
					 n.v.n_cand, n.v.error));
	else
		set_message(res, xstrfmt("%s: %.12s %s%s%s", word, commit,
					 n.first_error ? n.first_error : "",
					 n.log ? " log: " : "",
					 n.log ? n.log : ""));
out:
	note_release(&n);
	return res->status = ret;
}

int driver_measure(struct driver *d, const char *commit, unsigned want,
		   struct driver_boot *out)
{
	struct probe_note n = { 0 };
	struct sample_set s = SAMPLE_SET_INIT;
	unsigned tries = 0;
	int r, ret = -1;

	memset(out, 0, sizeof(*out));
	r = build(d, commit, &n);
	if (r < 0)
		goto out;
	out->ok = !r;
	while (out->ok) {
		if (load(d, commit, &s))
			goto out;
		if (s.nr >= want)
			break;
		/* A boot that stores nothing usable must not loop forever. */
		if (tries++ > want + 2) {
			n.outcome = PROBE_WORKLOAD_ERROR;
			n.first_error = xstrdup("boots complete but no sample "
						"could be used");
			out->ok = 0;
			break;
		}
		if (d->progress)
			progress_phase(d->progress, "boot %zu/%u", s.nr + 1,
				       want);
		r = boot(d, commit, &n);
		if (r < 0)
			goto out;
		out->ok = !r;
	}
	if (!out->ok) {
		out->outcome = n.outcome;
		out->first_error = n.first_error;
		out->log = n.log;
		n.first_error = n.log = NULL;
	}
	ret = 0;
out:
	sample_set_release(&s);
	note_release(&n);
	return ret;
}
