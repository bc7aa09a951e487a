/*
 * verdict.c: good / bad / undecided from per-boot values (see verdict.h),
 * and the confidence of a bisection path. Pure: no I/O except error() on
 * invalid input.
 *
 * Why these rules.
 *
 * Evidence. One value per boot. Samples within a boot share the page cache,
 * the host's load at that minute and the guest's memory layout, so they are
 * not independent; counting them as such would make any two kernels look
 * "significantly" different. Between boots the noise is what it is.
 *
 * The line. The threshold defines a line below the baseline median: a
 * percentage of it, an absolute MB/s, or (auto) halfway between the good and
 * bad endpoints' medians. "Slow" means below the line, "fast" above it.
 *
 * BAD needs two things: the candidate's median is past the line (the drop is
 * as large as the user cares about), and the candidate is statistically
 * separated from the baseline (one-sided Mann-Whitney, candidate slower,
 * p <= the per-look alpha). The second is what keeps noise from being
 * blamed: for a commit that changes nothing, the chance of that p is at most
 * the per-look alpha, whatever the noise looks like (the test needs no
 * normality), and the first only makes BAD rarer.
 *
 * GOOD needs the candidate to be shown above the line: the one-sided
 * Mann-Whitney test of the candidate against the baseline shifted down by
 * the drop, p <= the per-look alpha. This is the equivalence-style half of
 * the decision: with too few boots the p cannot get small, so a handful of
 * noisy boots never passes for good; a commit that really is slow (below the
 * line) passes with probability at most the per-look alpha.
 *
 * Looks. The caller looks after every boot from runs_min to runs_max and
 * stops at the first verdict, so each look gets alpha / (runs_max - runs_min
 * + 1) (Bonferroni): over all looks the chance of a wrong BAD for an
 * unchanged commit, or a wrong GOOD for a commit past the line, stays below
 * alpha. The split is fixed by the plan, not by the data, which is what makes
 * the bound hold. Bonferroni is conservative for correlated looks; the cost
 * is a boot or two, the gain is a bound that holds with any noise.
 *
 * The floor. With nx against ny boots the smallest one-sided p Mann-Whitney
 * can give is 1 / C(nx + ny, nx): 0.05 for 3 against 3, 1/70 for 4 against 4.
 * When that is above the per-look alpha no data can decide, and the verdict
 * says so instead of pretending; the cure is more boots on either side (the
 * interleaved baseline boots count).
 */
#include "verdict.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MB 1e6

/*
 * p <= alpha with room for rounding: 1/20 computed as a count over a count
 * must still reach an alpha of 0.05 given as a decimal.
 */
static int reaches(double p, double alpha)
{
	return p <= alpha * (1 + 1e-9);
}

/*
 * Reasons are made of numbers and fixed words only, so a fixed buffer is
 * fine; cutting an over-long one short is better than failing a verdict.
 */
__attribute__((format(printf, 3, 4))) static void
fmt_fixed(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

const char *verdict_name(enum verdict_kind k)
{
	switch (k) {
	case VERDICT_GOOD:
		return "good";
	case VERDICT_BAD:
		return "bad";
	default:
		return "undecided";
	}
}

static void describe_threshold(char *buf, size_t size,
			       const struct threshold *t)
{
	switch (t->kind) {
	case THRESHOLD_PERCENT:
		fmt_fixed(buf, size, "%g%% drop", t->value);
		break;
	case THRESHOLD_MBPS:
		fmt_fixed(buf, size, "%g MB/s drop", t->value);
		break;
	default:
		fmt_fixed(buf, size, "halfway to bad");
	}
}

static int check_plan(const struct verdict_input *in)
{
	if (!in->n_base || !in->base)
		return error("no baseline boots to compare with");
	if (in->runs_min < 1 || in->runs_max < in->runs_min)
		return error("runs.min %d and runs.max %d do not make a plan",
			     in->runs_min, in->runs_max);
	if (in->threshold.kind != THRESHOLD_AUTO && !(in->threshold.value > 0))
		return error("threshold must be above 0, not %g",
			     in->threshold.value);
	return 0;
}

/*
 * The core: fill `out` for candidate values `cand` against the baseline with
 * the drop already in bytes/s. `label_base` and `label_cand` name the two
 * sides in the reason.
 */
static void decide(struct verdict *out, const struct verdict_input *in,
		   const double *cand, size_t n_cand, double drop,
		   const char *label_base, const char *label_cand)
{
	double alpha = in->alpha > 0 ? in->alpha : 0.05;
	int looks = in->runs_max - in->runs_min + 1;
	double *shifted;
	struct stats_mw mw;
	char head[200], thr[48];
	const char *r = head;

	memset(out, 0, sizeof(*out));
	out->kind = VERDICT_UNDECIDED;
	out->error = 1;
	out->n_base = in->n_base;
	out->n_cand = n_cand;
	out->base_median = stats_median(in->base, in->n_base);
	out->base_pct_stddev = stats_pct_stddev(in->base, in->n_base);
	out->cand_median = stats_median(cand, n_cand);
	out->cand_pct_stddev = stats_pct_stddev(cand, n_cand);
	out->pct_change =
		(out->cand_median - out->base_median) / out->base_median * 100;
	out->shift = stats_hodges_lehmann(cand, n_cand, in->base, in->n_base);
	out->cliff_delta = stats_cliff_delta(cand, n_cand, in->base, in->n_base);
	out->drop = drop;
	out->line = out->base_median - drop;
	out->alpha_look = alpha / looks;
	out->p_floor = stats_mw_floor(n_cand, in->n_base);
	out->p_slower = out->p_fast = 1;

	if (!stats_mann_whitney(cand, n_cand, in->base, in->n_base, STATS_LESS,
				&mw))
		out->p_slower = mw.p;
	shifted = xmalloc(in->n_base * sizeof(*shifted));
	for (size_t i = 0; i < in->n_base; i++)
		shifted[i] = in->base[i] - drop;
	if (!stats_mann_whitney(cand, n_cand, shifted, in->n_base,
				STATS_GREATER, &mw))
		out->p_fast = mw.p;
	free(shifted);

	describe_threshold(thr, sizeof(thr), &in->threshold);
	fmt_fixed(head, sizeof(head),
		 "%s %.1f MB/s (%.1f%%, %zu boots), %s %.1f MB/s (%.1f%%, "
		 "%zu boots): %+.1f%%",
		 label_base, out->base_median / MB, out->base_pct_stddev,
		 out->n_base, label_cand, out->cand_median / MB,
		 out->cand_pct_stddev, n_cand, out->pct_change);

	if (n_cand < (size_t)in->runs_min) {
		fmt_fixed(out->reason, sizeof(out->reason),
			 "%s; %zu of %d boots so far", r, n_cand, in->runs_min);
		return;
	}
	if (!reaches(out->p_floor, out->alpha_look)) {
		fmt_fixed(out->reason, sizeof(out->reason),
			 "%s; %zu against %zu boots cannot reach p %.4f "
			 "(smallest p %.4f)",
			 r, n_cand, out->n_base, out->alpha_look, out->p_floor);
		return;
	}
	if (out->cand_median < out->line && reaches(out->p_slower, out->alpha_look)) {
		out->kind = VERDICT_BAD;
		out->error = fmin(1, out->p_slower * looks);
		fmt_fixed(out->reason, sizeof(out->reason),
			 "%s, below the line %.1f MB/s (%s), slower with p "
			 "%.4f <= %.4f",
			 r, out->line / MB, thr, out->p_slower, out->alpha_look);
		return;
	}
	if (out->cand_median >= out->line && reaches(out->p_fast, out->alpha_look)) {
		out->kind = VERDICT_GOOD;
		out->error = fmin(1, out->p_fast * looks);
		fmt_fixed(out->reason, sizeof(out->reason),
			 "%s, above the line %.1f MB/s (%s) with p %.4f <= "
			 "%.4f",
			 r, out->line / MB, thr, out->p_fast, out->alpha_look);
		return;
	}
	fmt_fixed(out->reason, sizeof(out->reason),
		 "%s, line %.1f MB/s (%s): slower p %.4f, above-line p %.4f, "
		 "need <= %.4f",
		 r, out->line / MB, thr, out->p_slower, out->p_fast,
		 out->alpha_look);
}

int stats_verdict(struct verdict *out, const struct verdict_input *in)
{
	double base_median, drop;

	memset(out, 0, sizeof(*out));
	if (check_plan(in) < 0)
		return -1;
	if (!in->n_cand || !in->cand)
		return error("no candidate boots to decide on");
	base_median = stats_median(in->base, in->n_base);
	switch (in->threshold.kind) {
	case THRESHOLD_PERCENT:
		drop = base_median * in->threshold.value / 100;
		break;
	case THRESHOLD_MBPS:
		drop = in->threshold.value * MB;
		break;
	default: {
		double bad_median;
		if (!in->n_bad || !in->bad)
			return error("threshold 'auto' needs the bad endpoint's boots");
		bad_median = stats_median(in->bad, in->n_bad);
		if (!(bad_median < base_median))
			return error("threshold 'auto' needs bad (%.1f MB/s) slower than good (%.1f MB/s)",
				     bad_median / MB, base_median / MB);
		drop = (base_median - bad_median) / 2;
	}
	}
	decide(out, in, in->cand, in->n_cand, drop, "good", "this");
	return 0;
}

int verdict_endpoints(struct verdict *out, const struct verdict_input *in)
{
	struct verdict_input v = *in;
	double base_median, bad_median;

	memset(out, 0, sizeof(*out));
	if (check_plan(in) < 0)
		return -1;
	if (!in->n_bad || !in->bad)
		return error("no boots of the bad endpoint");
	base_median = stats_median(in->base, in->n_base);
	bad_median = stats_median(in->bad, in->n_bad);
	if (in->threshold.kind == THRESHOLD_AUTO && !(bad_median < base_median)) {
		/*
		 * Auto puts the line halfway between the endpoints; with bad at
		 * or above good there is no line, and nothing to bisect.
		 */
		decide(out, in, in->bad, in->n_bad, 0, "good", "bad");
		out->kind = VERDICT_GOOD;
		out->error = 1;
		fmt_fixed(out->reason, sizeof(out->reason),
			 "good %.1f MB/s (%.1f%%), bad %.1f MB/s (%.1f%%): "
			 "bad is not slower than good",
			 out->base_median / MB, out->base_pct_stddev,
			 out->cand_median / MB, out->cand_pct_stddev);
		return 0;
	}
	v.cand = in->bad;
	v.n_cand = in->n_bad;
	if (stats_verdict(out, &v) < 0)
		return -1;
	/* Same figures, told from the endpoints' point of view. */
	decide(out, &v, in->bad, in->n_bad, out->drop, "good", "bad");
	if (out->kind == VERDICT_GOOD) {
		size_t len = strlen(out->reason);
		fmt_fixed(out->reason + len, sizeof(out->reason) - len,
			 ": bad is not slow");
	}
	return 0;
}

enum verdict_next verdict_more_boots(const struct verdict *v, int runs_max)
{
	if (v->kind != VERDICT_UNDECIDED)
		return VERDICT_NEXT_DONE;
	if (v->n_cand < (size_t)(runs_max > 0 ? runs_max : 0))
		return VERDICT_NEXT_BOOT;
	return VERDICT_NEXT_SKIP;
}

double verdict_path_confidence(const double *errors, size_t n)
{
	double c = 1;

	for (size_t i = 0; i < n; i++) {
		double e = errors[i];
		if (e < 0)
			e = 0;
		if (e > 1)
			e = 1;
		c *= 1 - e;
	}
	return c;
}
