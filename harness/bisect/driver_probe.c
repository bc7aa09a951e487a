/*
 * driver_probe.c: one commit as the bisection probes it, over the
 * measuring layer (measure.h): its build, its boots one at a time (the
 * baseline refreshed beside a probe that stays undecided), the judge's
 * sequential verdict on them (judge.h), and its record in the bisect
 * state; and the small things every part of the driver shares (the state
 * saved, the notes for people).
 */
#include "driver.h"
#include "driver_priv.h"

#include "progress.h"
#include "run.h"
#include "stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void driver_note_release(struct probe_note *n)
{
	free(n->first_error);
	free(n->log);
	memset(n, 0, sizeof(*n));
}

int driver_is_good(const struct driver *d, const char *commit)
{
	return !strcmp(commit, d->good);
}

char *driver_subject(struct driver *d, const char *commit)
{
	return measure_subject(&d->m, commit);
}

int driver_save(struct driver *d)
{
	struct bisect_state *st = d->st;

	if (!st)
		return 0;
	run_counts_sum(&st->counts, &d->prev, &d->m.counts);
	st->seconds = d->prev_seconds + (now_ns() - d->t0) / 1e9;
	return d->state_file ? state_save(st, d->state_file) : 0;
}

void driver_set_status(struct driver *d, enum state_status status)
{
	if (d->st)
		d->st->status = status;
}

void driver_say(struct driver *d, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!d->m.progress)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	progress_note(d->m.progress, "%s", sb.buf);
	strbuf_release(&sb);
}

/* An op returned -1: interrupted (state saved) or aborted. */
enum driver_status driver_stopped(struct driver *d)
{
	if (run_interrupted()) {
		driver_save(d);
		if (d->state_file)
			driver_say(
				d,
				"[bisect] interrupted; state saved in %s: run "
				"the same command to resume",
				d->state_file);
		return DRIVER_INTERRUPTED;
	}
	driver_set_status(d, STATE_ABORTED);
	driver_save(d);
	return DRIVER_ABORT;
}

void driver_set_message(struct driver_result *res, char *msg)
{
	free(res->message);
	res->message = msg;
}

const char *driver_failure_text(const struct probe_note *n)
{
	return n->first_error ? n->first_error : probe_outcome_name(n->outcome);
}

unsigned driver_count_role(const struct bisect_state *st, enum probe_role role)
{
	unsigned n = 0;

	for (size_t i = 0; i < st->nr_probes; i++)
		n += st->probes[i].role == role;
	return n;
}

void driver_prefetch(struct driver *d)
{
	if (d->guess.nr && d->m.ops->prefetch)
		d->m.ops->prefetch(d->m.payload,
				   (const char *const *)d->guess.v,
				   d->guess.nr);
	strvec_clear(&d->guess);
}

size_t driver_pairs_cap(const struct driver *d)
{
	return 2 * (size_t)d->job->runs_max;
}

int driver_build_commit(struct driver *d, const char *commit,
			struct probe_note *n)
{
	struct build_facts b = {0};
	int r = measure_build(&d->m, commit, &b);

	if (r >= 0) {
		memcpy(n->key, b.key, sizeof(n->key));
		n->cached = b.cached;
	}
	if (r > 0) {
		n->outcome = PROBE_BUILD_FAILED;
		free(n->first_error);
		free(n->log);
		n->first_error = b.first_error;
		n->log = b.log;
		b.first_error = b.log = NULL;
	}
	build_facts_release(&b);
	return r;
}

void driver_note_failure(struct probe_note *n, struct boot_facts *fail)
{
	n->outcome = fail->outcome;
	free(n->first_error);
	free(n->log);
	n->first_error = fail->first_error;
	n->log = fail->log;
	fail->first_error = fail->log = NULL;
}

int driver_boot_commit(struct driver *d, const char *commit,
		       struct probe_note *n)
{
	struct boot_facts b = {0};
	int r = measure_boot(&d->m, commit, &b);

	if (r >= 0)
		n->boots_run++;
	if (r > 0)
		driver_note_failure(n, &b);
	boot_facts_release(&b);
	return r;
}

void driver_note_figures(struct probe_note *n, const struct sample_set *s)
{
	n->boots = s->nr;
	n->samples = s->nr_samples;
	n->median = s->nr ? stats_median(s->values, s->nr) : NAN;
	n->stddev_pct = s->nr ? stats_pct_stddev(s->values, s->nr) : NAN;
}

/*
 * Why a probe boots its commit once more, in a line for people: the
 * boots asked, the verdict's doubt, and whether the levels it stood on
 * held still (a level that did not keeps the slower mode's doubt, and a
 * boot between the levels is worth little): the verdict's own word on
 * them, not the store read again.
 */
static void say_why_more(struct driver *d, const char *commit,
			 const struct sample_set *cand, unsigned floor,
			 const struct probe_note *n)
{
	const struct verdict *v = &n->v;

	if (!d->m.progress)
		return;
	if (cand->nr < floor) {
		driver_say(d, "[bisect] %.12s: boot %zu: runs.min is %u", commit,
			   cand->nr + 1, floor);
		return;
	}
	if (d->doubt && !n->boots_run) {
		driver_say(d,
			   "[bisect] %.12s: boot %zu: the steps are in doubt, "
			   "and a verdict needs a boot of this probe's own",
			   commit, cand->nr + 1);
		return;
	}
	if (!n->have_verdict) {
		driver_say(d, "[bisect] %.12s: boot %zu: no verdict yet",
			   commit, cand->nr + 1);
		return;
	}
	driver_say(d,
		   "[bisect] %.12s: boot %zu: %s (llr %+.1f within ±%.1f, "
		   "noise %.1f%%; the good level %s, the bad one %s)",
		   commit, cand->nr + 1,
		   v->implausible ? "the last boot fits neither level"
				  : "not decisive yet",
		   v->llr, v->bound, v->sigma_pct,
		   v->steady & VERDICT_STEADY_FAST ? "held still"
						   : "may have a slower mode",
		   v->steady & VERDICT_STEADY_SLOW ? "held still"
						   : "may have a slower mode");
}

/*
 * The endpoint whose few boots cap the verdict below its bound (struct
 * verdict's thin), when another of its boots is allowed: the commit's
 * own boots cannot decide it until that endpoint has more. NULL when
 * none, or when the probe has made `cap` endpoint boots already (`added`).
 */
static const char *thin_endpoint(const struct driver *d, const char *commit,
				 const struct verdict *v, unsigned added,
				 unsigned cap)
{
	const char *who = NULL;

	if (v->kind != VERDICT_UNDECIDED || added >= cap)
		return NULL;
	if (v->thin == VERDICT_THIN_BAD && d->judge.bad && *d->judge.bad)
		who = d->judge.bad;
	else if (v->thin == VERDICT_THIN_BASE)
		who = d->good;
	/* An endpoint's own probe boots itself anyway. */
	return who && strcmp(who, commit) ? who : NULL;
}

/* One more boot of endpoint `who`, said with why. -1 to stop. */
static int boot_thin_endpoint(struct driver *d, const char *commit,
			      const char *who, const struct probe_note *n)
{
	/* The slow level is bad's, or the step's standing in for it. */
	const char *which = !strcmp(who, d->good)  ? "good"
			    : !strcmp(who, d->bad) ? "bad"
						   : "stand-in";
	struct probe_note en = {0};
	int r;

	if (n->v.implausible)
		driver_say(d,
			   "[bisect] %.12s: its last boot fits neither level, "
			   "and the %s endpoint's level stands on fewer boots "
			   "than this commit's: one more of the %s endpoint",
			   commit, which, which);
	else
		driver_say(d,
			   "[bisect] %.12s: the %s endpoint's few boots cap "
			   "what this commit's boots can say (llr %+.1f of "
			   "±%.1f): one more of the %s endpoint",
			   commit, which, n->v.llr, n->v.bound, which);
	if (d->m.progress)
		progress_phase(d->m.progress, "%s endpoint boot", which);
	r = driver_boot_commit(d, who, &en);
	if (r > 0)
		driver_say(d, "warning: a boot of the %s endpoint failed: %s",
			   which, driver_failure_text(&en));
	driver_note_release(&en);
	return r < 0 ? -1 : 0;
}

/*
 * A perf probe of a built commit: boot, judge, and boot again while
 * undecided, up to `cap` boots, the baseline refreshed beside it; when
 * an endpoint's few boots are what holds the verdict back, that
 * endpoint boots instead.
 */
static int probe_perf(struct driver *d, const char *commit, double error,
		      unsigned cap, struct probe_note *n)
{
	struct sample_set cand = SAMPLE_SET_INIT;
	unsigned tries = 0, floor = d->job->runs_min > 1 ? d->job->runs_min : 1;
	unsigned endpoint_boots = 0;
	const char *thin;
	int ret = -1, r;

	for (;;) {
		if (measure_load(&d->m, commit, &cand))
			goto out;
		/* In doubt, a verdict needs a boot of this probe's own. */
		if (cand.nr >= floor && (!d->doubt || n->boots_run)) {
			r = judge_step(&d->judge, commit, 0, error, &n->v,
				       &cand);
			if (r < 0)
				goto out;
			n->have_verdict = !r;
			if (!r && n->v.kind != VERDICT_UNDECIDED) {
				n->outcome = n->v.kind == VERDICT_BAD
						     ? PROBE_SLOW
						     : PROBE_FAST;
				break;
			}
			thin = r ? NULL
				 : thin_endpoint(d, commit, &n->v,
						 endpoint_boots, cap);
			if (thin) {
				if (boot_thin_endpoint(d, commit, thin, n))
					goto out;
				endpoint_boots++;
				continue;
			}
		}
		if (cand.nr >= cap) {
			n->outcome = PROBE_UNDECIDED;
			break;
		}
		if (measure_tries_spent(tries++, cap, 1)) {
			n->outcome = PROBE_WORKLOAD_ERROR;
			n->first_error = measure_no_sample_error();
			break;
		}
		if (cand.nr && measure_refresh_baseline(&d->m))
			goto out;
		if (cand.nr)
			say_why_more(d, commit, &cand, floor, n);
		if (d->m.progress)
			progress_phase(d->m.progress, "boot %zu", cand.nr + 1);
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
	if (measure_load(&d->m, commit, &set))
		return -1;
	if (!set.nr)
		r = driver_boot_commit(d, commit, n);
	sample_set_release(&set);
	return r < 0 ? -1 : 0;
}

/* `commit`'s image is `other`'s byte for byte: 1, 0 not or unknown. */
static int same_image(struct driver *d, const char *commit, const char *other)
{
	return other && *other && strcmp(commit, other) &&
	       d->m.ops->same_image(d->m.payload, commit, other) == 1;
}

/*
 * A commit that builds the very image of one already judged has its
 * level: it takes that verdict without a boot (a declaration nothing
 * uses, a comment, a merge of files this kernel never reads). The
 * endpoints' always; the steps' while they are not in doubt, as a
 * doubted mark may be the wrong one. Only once that level has held
 * still (judge_steady, judge.c): until then a step's boot is evidence the
 * answer's pairs need to tell a drop from the slower mode, as a run on
 * nullb at -46.6% showed, whose pairs stopped at their cap without it.
 */
static int same_as_judged(struct driver *d, const char *commit,
			  struct probe_note *n)
{
	const struct bisect_state *st = d->st;
	const char *match = NULL;
	enum bisect_mark mark = BISECT_UNTESTED;

	if (!d->m.ops->same_image || d->job->bisect_type != BISECT_PERF)
		return 0;
	if (same_image(d, commit, d->good)) {
		match = d->good;
		mark = BISECT_GOOD;
	} else if (d->judge.bad && same_image(d, commit, d->judge.bad)) {
		match = d->judge.bad;
		mark = BISECT_BAD;
	}
	for (size_t i = 0; !match && st && !d->doubt && i < st->nr_marks; i++) {
		const struct state_mark *m = &st->marks[i];
		if (!m->by_pairs &&
		    (m->mark == BISECT_GOOD || m->mark == BISECT_BAD) &&
		    same_image(d, commit, m->commit)) {
			match = m->commit;
			mark = m->mark;
		}
	}
	if (!match)
		return 0;
	unsigned steady = 0;
	if (judge_steady(&d->judge, &steady) ||
	    !(steady & (mark == BISECT_BAD ? VERDICT_STEADY_SLOW
					   : VERDICT_STEADY_FAST)))
		return 0;
	memcpy(n->same_as, match, 41);
	n->outcome = mark == BISECT_BAD ? PROBE_SLOW : PROBE_FAST;
	return 1;
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
	if (r == 0 && same_as_judged(d, commit, n))
		r = 1;
	if (r == 0)
		r = d->job->bisect_type == BISECT_PERF
			    ? probe_perf(d, commit, error, cap, n)
			    : probe_typed(d, commit, n);
	n->seconds = (now_ns() - t0) / 1e9;
	return r < 0 ? -1 : 0;
}

/* Record a probe in the state (replacing an earlier one of this role). */
void driver_record(struct driver *d, const char *commit, enum probe_role role,
		   const struct probe_note *n, enum bisect_mark mark)
{
	struct bisect_state *st = d->st;
	struct state_probe *p = NULL;
	char ts[32];

	if (!st) /* driver_test keeps nothing */
		return;
	for (size_t i = 0; i < st->nr_probes; i++)
		if (!strcmp(st->probes[i].commit, commit) &&
		    st->probes[i].role == role)
			p = &st->probes[i];
	if (!p) {
		p = state_add_probe(st, commit, role);
		p->subject = driver_subject(d, commit);
	}
	free(p->build_key);
	p->build_key = n->key[0] ? xstrdup(n->key) : NULL;
	p->cached = n->cached;
	p->mark = mark;
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
	p->outcome = probe_outcome_measured(n->outcome)
			     ? state_measured_outcome(&p->v)
			     : n->outcome;
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
	/*
	 * In doubt a step's mark is given again even where it stands: the
	 * one before the doubt no longer counts on resume (driver.c).
	 */
	if (mark != BISECT_UNTESTED &&
	    (d->doubt || state_find_mark(st, commit) != mark)) {
		state_add_mark(st, commit, mark);
		st->marks[st->nr_marks - 1].by_pairs = role == ROLE_CONFIRM;
	}
}

void driver_between(struct driver *d, const char *commit,
		    const struct verdict *v)
{
	if (!v->between)
		return;
	if (d->st && strvec_index(&d->st->between, commit) < 0)
		strvec_push(&d->st->between, commit);
	driver_say(d,
		   "[bisect] %.12s reads %.1f MB/s, between the levels %.1f "
		   "and %.1f: a second change in the range; it is %s",
		   commit, v->own_level / 1e6, v->fast_level / 1e6,
		   v->bad_level / 1e6,
		   v->kind == VERDICT_BAD ? "slow" : "fast");
}

void driver_say_verdict(struct driver *d, const char *commit,
			const struct probe_note *n, enum bisect_mark mark)
{
	if (n->same_as[0])
		driver_say(d,
			   "[bisect] %.12s builds the image of %.12s byte for "
			   "byte: %s, without a boot",
			   commit, n->same_as,
			   mark == BISECT_BAD ? "slow" : "fast");
	else if (n->have_verdict && n->outcome != PROBE_BUILD_FAILED &&
		 n->v.n_cand)
		driver_say(
			d,
			"[bisect] %.12s is %s: %.1f MB/s ±%.0f%% vs %.1f MB/s "
			"±%.0f%% (%+.1f%%, %zu boots, error %.2g)",
			commit,
			mark == BISECT_BAD    ? "slow"
			: mark == BISECT_GOOD ? "fast"
					      : "undecided (skip)",
			n->v.cand_median / 1e6, n->v.cand_pct_stddev,
			n->v.base_median / 1e6, n->v.base_pct_stddev,
			n->v.pct_change, n->v.n_cand, n->v.error);
	else
		driver_say(d, "[bisect] %.12s: %s -> %s%s%s", commit,
			   probe_outcome_name(n->outcome),
			   bisect_mark_name(mark), n->log ? ", log: " : "",
			   n->log ? n->log : "");
}
