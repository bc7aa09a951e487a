/*
 * verdict.c: fast / slow / undecided from per-boot values (see verdict.h),
 * the endpoint test, and the confidence of a result. Pure: no I/O except
 * error() on invalid input.
 *
 * Why a sequential probability ratio test. The question asked of a commit
 * is "does it sit at the good level or at the slow one?", and the cost is
 * boots. Wald's test answers it with the fewest boots on average for the
 * errors asked, at any size of drop: a drop twenty noise scales deep is
 * decided by one boot, a drop of two scales by a handful. Its bounds hold
 * for the whole sequence of looks, which a fixed-size test split over
 * looks (Bonferroni) only buys by asking every look for far more.
 *
 * The statistic. On the log scale, each boot of the candidate is weighed
 * against the fast level m_g (the baseline's location) and the slow level
 * m_s (the line's sides, or the bad endpoint's location for auto), and
 * the log ratios of the boots are summed. A boot's spread carries the
 * uncertainty of the level it is compared with: sigma * sqrt(1 + n_c/n_g)
 * against a baseline of n_g boots (for normal boots, the same evidence as
 * their mean against the level), likewise n_b for an estimated bad level.
 * So a baseline of two boots weighs less than one of sixteen, and the
 * evidence cannot grow faster than the baseline allows. Each boot is
 * explained in the machine's normal mode or in its slower one (noise.h),
 * and may be wild at the model's rate, which caps what it is worth. The
 * ratio uses a Student-t law with the noise model's degrees of freedom
 * (at most NOISE_MAX_NU): an unknown sigma makes tails heavier than
 * normal, and under t a stray value moves the ratio by a bounded amount.
 *
 * Composite sides. Under t, a commit far outside both levels would be
 * explained almost equally badly by each (the log density flattens), and a
 * -90% cliff tested against a 10% line would never be decided. So each
 * side is the half-line beyond its level: the distance counted against
 * "slow" is how far the commit sits above the slow level (0 below it), the
 * distance against "fast" how far below the baseline (0 above it). Between
 * the levels this is Wald's ratio of the two points; outside, the side the
 * commit is on explains it perfectly, as a generalized likelihood ratio
 * would. The error rates hold at the levels, where they matter most, and
 * are smaller beyond them.
 *
 * The auto endpoint test. Before the endpoints are known to differ, "slow"
 * has no level to test against. The test used is a mixture ratio (Robbins):
 * "no drop" against "a drop, of a size spread as a half-Cauchy of scale
 * VERDICT_MIXTURE_TAU". With a known noise scale its ratio is a martingale
 * under "no drop", so by Ville's inequality it passes 1/e with probability
 * at most e, at any look; the scale being estimated, the ratio is taken
 * under the same Student-t law as the verdicts, which keeps a lucky quiet
 * pair of boots from passing for a difference.
 */
#include "verdict.h"
#include "stats.h"
#include "util.h"
#include "verdict_priv.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Reasons are made of numbers and fixed words only, so a fixed buffer is
 * fine; cutting an over-long one short is better than failing a verdict.
 */
void verdict_fmt(char *buf, size_t size, const char *fmt, ...)
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

/* The boots of one side on the log scale, the change sought downwards. */
struct side {
	double *y;
	size_t n;
	double loc; /* location of y */
};

static int side_make(struct side *s, const double *v, size_t n, int faster,
		     const char *what)
{
	memset(s, 0, sizeof(*s));
	if (!n || !v)
		return error("no %s boots to compare", what);
	s->y = xmalloc(n * sizeof(*s->y));
	noise_log(s->y, v, n);
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(s->y[i])) {
			free(s->y);
			s->y = NULL;
			return error("a %s boot has %g bytes/s", what, v[i]);
		}
		if (faster)
			s->y[i] = -s->y[i];
	}
	s->n = n;
	/*
	 * Two boots have no median better than their mean; from three on
	 * the pseudo-median keeps one wild boot from moving the level far.
	 */
	s->loc = n < 3 ? stats_mean(s->y, n) : stats_pseudo_median(s->y, n);
	return 0;
}

static void side_release(struct side *s)
{
	free(s->y);
	s->y = NULL;
}

/* Back from the log scale (and the direction) to bytes/s. */
static double level_bps(double y, int faster)
{
	return exp(faster ? -y : y);
}

static void noise_of(struct noise_model *out, const struct verdict_input *in,
		     const struct side *base, const struct side *bad,
		     const struct side *cand)
{
	struct noise_group g[3];
	size_t n = 0;

	if (in->noise) {
		*out = *in->noise;
		return;
	}
	g[n++] = (struct noise_group){base->y, base->n};
	if (bad && bad->n)
		g[n++] = (struct noise_group){bad->y, bad->n};
	if (cand && cand->n)
		g[n++] = (struct noise_group){cand->y, cand->n};
	noise_estimate(out, in->machine, g, n);
}

/* The figures every verdict reports, whatever it decides. */
void verdict_describe_sides(struct verdict *out, const double *base, size_t nb,
			    const double *cand, size_t nc)
{
	out->n_base = nb;
	out->n_cand = nc;
	out->base_median = stats_median(base, nb);
	out->base_pct_stddev = stats_pct_stddev(base, nb);
	out->cand_median = stats_median(cand, nc);
	out->cand_pct_stddev = stats_pct_stddev(cand, nc);
	out->pct_change = stats_pct_change(out->base_median, out->cand_median);
	out->shift = stats_hodges_lehmann(cand, nc, base, nb);
	out->cliff_delta = stats_cliff_delta(cand, nc, base, nb);
}

double verdict_error_bound(double e)
{
	if (!(e > 0 && e < 0.5))
		e = VERDICT_ERROR_DEFAULT;
	return log((1 - e) / e);
}

/* The share of boots that read anything: never below the floor. */
double verdict_wild_rate(const struct noise_model *nm)
{
	return nm->wild > NOISE_WILD_FLOOR ? fmin(nm->wild, 0.5)
					   : NOISE_WILD_FLOOR;
}

/*
 * The most evidence `n` boots of the thinnest side can carry: one boot is
 * a hiccup that reads anything at the model's wild rate h, so it is worth
 * odds of at most (1 - h) / h, applied to a ratio.
 */
double verdict_cap_evidence(double llr, size_t n, double h)
{
	double cap = (double)n * log((1 - h) / h);

	return llr > cap ? cap : llr < -cap ? -cap : llr;
}

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

/*
 * How well one side explains value `y`: the side is the half-line of
 * levels beyond `edge` (above it for fast, below for slow), seen on a
 * machine that runs a value in its normal mode (weight 1 - rate) or
 * shifted by each of `shift[0..nr)` (the rest of `rate`, split evenly).
 * Student-t with nu degrees of freedom, scale `se`.
 *
 * The mode's depth is not one number (25-50% here, from boot to boot),
 * so each shift stands for the range VERDICT_MODE_RANGE_LO to _HI times
 * it, and a side is explained by the depth in that range that suits it
 * best: the fast side's half-line reaches down by the deepest shift
 * down (or the least up), the slow side's up by the least down (or the
 * most up).
 * (struct side_law: verdict_priv.h.)
 */

static double shifted_edge(const struct side_law *s, double shift)
{
	double a = shift * VERDICT_MODE_RANGE_LO, b = shift * VERDICT_MODE_RANGE_HI;

	return s->edge + (s->fast ? fmin(a, b) : fmax(a, b));
}

static double side_distance(double y, const struct side_law *s, double e)
{
	return s->fast ? fmax(0, e - y) : fmax(0, y - e);
}

static double side_loglik(double y, const struct side_law *s, double nu,
			  const double *shift, size_t nr)
{
	double d = side_distance(y, s, s->edge);
	double l = (1 - s->rate) * exp(noise_t_logpdf(d / s->se, nu));

	for (size_t k = 0; s->rate > 0 && k < nr; k++) {
		d = side_distance(y, s, shifted_edge(s, shift[k]));
		l += s->rate / (double)nr * exp(noise_t_logpdf(d / s->se, nu));
	}
	return log(l) - log(s->se);
}

/*
 * What one value says, slow (or right) against fast (or wrong): a value
 * may be wild at rate h, reading anything, so it is worth odds of at most
 * (1 - h) / h either way.
 */
double verdict_value_llr(double y, const struct side_law *slow,
			 const struct side_law *fast, double nu,
			 const double *shift, size_t nr, double h)
{
	double w = log((1 - h) / h);
	double l = side_loglik(y, slow, nu, shift, nr) -
		   side_loglik(y, fast, nu, shift, nr);

	return l > w ? w : l < -w ? -w : l;
}

/* The normal mode, or the machine's slower mode (either, shifted). */
static double shift_distance(double y, const struct side_law *s,
			     double shift)
{
	double d = side_distance(y, s, s->edge);

	return s->rate > 0 ? fmin(d, side_distance(y, s, shifted_edge(s, shift)))
			   : d;
}

/* 1 / (1 + e^|llr|), without overflow. */
double verdict_posterior_error(double llr)
{
	double a = fabs(llr);
	return a > 700 ? 0 : 1 / (1 + exp(a));
}

/*
 * The slow level on the log scale (direction applied), from the baseline's
 * location `g`, as the job's line (or the bad endpoint, for auto) puts it
 * (threshold_slow_level), or -1 after error().
 */
static int slow_level(double *out, const struct threshold *t, double g,
		      int faster, const struct side *bad)
{
	return threshold_slow_level(out, t, g, bad && bad->n ? bad->loc : NAN,
				    faster);
}

/*
 * The edges of the two sides: with auto, the baseline's level and the bad
 * endpoint's; with a line, VERDICT_LINE_ZONE of the way from the line to
 * the baseline on either side of it, so the threshold keeps its meaning
 * (the smallest drop that counts): a commit whose boots agree on a drop
 * smaller than the line is fast, one past it slow, and only one right at
 * the line takes every boot the cap allows.
 */
void verdict_side_edges(double *fast, double *slow, double g, double line,
			int is_auto)
{
	double zone = is_auto ? 0 : VERDICT_LINE_ZONE * (g - line);

	*fast = is_auto ? g : line + zone;
	*slow = line - zone;
}

/* Did both levels hold still over the run? */
static int both_steady(unsigned steady)
{
	unsigned both = VERDICT_STEADY_FAST | VERDICT_STEADY_SLOW;

	return (steady & both) == both;
}

/*
 * Does `cand` sit between the run's two levels as a level of its own
 * (struct verdict's between)? Both levels held still, so neither has a
 * slower mode that could read there; its own boots, VERDICT_BETWEEN_BOOTS
 * or more, held still too, so they are not hiccups; and its level is more
 * than VERDICT_IMPLAUSIBLE_Z scales (p0, p1: one boot's against each
 * level) from the good level and from the bad endpoint's. *mid gets the
 * line it is judged against: the threshold's, or with auto the middle of
 * the two levels (ln units, drops downwards).
 */
static int sits_between(const struct verdict_input *in, const struct side *base,
			const struct side *bad, const struct side *cand,
			double line, double p0, double p1, double *mid)
{
	if (!both_steady(in->steady) || !bad || !bad->n ||
	    !(bad->loc < base->loc) || cand->n < VERDICT_BETWEEN_BOOTS ||
	    !noise_steady(cand->y, cand->n, in->machine))
		return 0;
	*mid = in->threshold.kind == THRESHOLD_AUTO
		       ? (base->loc + bad->loc) / 2
		       : line;
	return base->loc - cand->loc > VERDICT_IMPLAUSIBLE_Z * p0 &&
	       cand->loc - bad->loc > VERDICT_IMPLAUSIBLE_Z * p1;
}

/*
 * The verdict's kind and its reason, from what decide weighed: the noise
 * `s`, `mid` the middle of the levels for a commit between them,
 * `last_bps` its newest boot.
 */
static void say_kind(struct verdict *out, const struct verdict_input *in,
		     const struct side *cand, const char *label, double s,
		     double mid, double last_bps)
{
	char head[220];

	verdict_fmt(head, sizeof(head),
		    "good %.1f MB/s (%.1f%%, %zu boots), %s %.1f MB/s (%.1f%%, "
		    "%zu boots): %+.1f%%; slow level %.1f MB/s, noise %.1f%%",
		    out->base_median / MB, out->base_pct_stddev, out->n_base,
		    label, out->cand_median / MB, out->cand_pct_stddev,
		    out->n_cand, out->pct_change, out->slow_level / MB,
		    out->sigma_pct);
	if (cand->n < (size_t)in->runs_min) {
		verdict_fmt(out->reason, sizeof(out->reason),
			    "%s; %zu of %d boots so far", head, cand->n,
			    in->runs_min);
	} else if (out->between) {
		double z = fabs(cand->loc - mid) /
			   (s * sqrt(1.0 / (double)cand->n));
		out->kind = cand->loc < mid ? VERDICT_BAD : VERDICT_GOOD;
		out->error = 0.5 * erfc(z / sqrt(2));
		verdict_fmt(out->reason, sizeof(out->reason),
			    "%s; it holds still between the levels (bad "
			    "%.1f MB/s): a second change; %s",
			    head, out->bad_level / MB,
			    out->kind == VERDICT_BAD ? "slow" : "fast");
	} else if (out->implausible) {
		verdict_fmt(out->reason, sizeof(out->reason),
			    "%s; the last boot (%.1f MB/s) fits neither level: "
			    "one more",
			    head, last_bps / MB);
	} else if (out->llr >= out->bound) {
		out->kind = VERDICT_BAD;
		verdict_fmt(out->reason, sizeof(out->reason),
			    "%s: llr %+.1f >= %.1f: slow", head, out->llr,
			    out->bound);
	} else if (out->llr <= -out->bound) {
		out->kind = VERDICT_GOOD;
		verdict_fmt(out->reason, sizeof(out->reason),
			    "%s: llr %+.1f <= -%.1f: fast", head, out->llr,
			    out->bound);
	} else {
		verdict_fmt(out->reason, sizeof(out->reason),
			    "%s: llr %+.1f within ±%.1f: one more", head,
			    out->llr, out->bound);
	}
}

/*
 * The test of `cand` between the fast level (base) and the slow one.
 * `check_last`: a last boot that fits neither level holds the verdict back
 * (for a commit under test; an endpoint's level is what it measures).
 */
static int decide(struct verdict *out, const struct verdict_input *in,
		  const struct side *base, const struct side *bad,
		  const struct side *cand, const char *label, int check_last)
{
	struct noise_model nm;
	struct side_law fast, slow;
	double s, c1 = 0, h, moff, p0, p1, last, nc, llr = 0, d_fast, d_slow;
	double mid = 0;
	int is_auto = in->threshold.kind == THRESHOLD_AUTO;
	size_t thin;

	if (slow_level(&c1, &in->threshold, base->loc, in->faster, bad))
		return -1;
	noise_of(&nm, in, base, bad, cand);
	s = nm.sigma;
	h = verdict_wild_rate(&nm);
	/* The machine's slower mode, in the frame where drops go down. */
	moff = in->faster ? -nm.mode_offset : nm.mode_offset;
	out->fast_level = level_bps(base->loc, in->faster);
	out->slow_level = level_bps(c1, in->faster);
	out->sigma_pct = s * 100;
	out->nu = nm.nu;
	out->bound = verdict_error_bound(in->error);

	/*
	 * Each boot is weighed on its own against each side, so a boot the
	 * slower mode explains counts as that, and its spread carries the
	 * uncertainty of the level it is compared with: a level measured by
	 * n boots moves every boot's distance together, which per boot is
	 * a variance of n_c / n times one boot's (the same evidence, for
	 * normal boots, as their mean against the level).
	 */
	nc = (double)cand->n;
	verdict_side_edges(&fast.edge, &slow.edge, base->loc, c1, is_auto);
	fast.fast = 1;
	slow.fast = 0;
	/*
	 * A level that held still over the run is not in the slower mode:
	 * an unchanged commit reads at the baseline, so a boot between the
	 * levels of a cliff or a 5% drop is the commit's own (one boot shows
	 * it), not the baseline's kernel on a slow stretch.
	 */
	fast.rate = in->steady & VERDICT_STEADY_FAST ? 0 : nm.mode_rate;
	slow.rate = in->steady & VERDICT_STEADY_SLOW ? 0 : nm.mode_rate;
	out->steady = in->steady;
	fast.se = s * sqrt(1 + nc / (double)base->n);
	slow.se = is_auto ? s * sqrt(1 + nc / (double)bad->n) : fast.se;
	for (size_t i = 0; i < cand->n; i++)
		llr += verdict_value_llr(cand->y[i], &slow, &fast, nm.nu, &moff,
					 1, h);
	thin = min_size(cand->n, is_auto ? min_size(base->n, bad->n)
					 : base->n);
	out->llr = verdict_cap_evidence(llr, thin, h);
	out->error = verdict_posterior_error(out->llr);

	/*
	 * The newest boot, alone: far from both sides, in either mode? Not
	 * when it sits deeper below the baseline than any mode reads and
	 * nearer the slow side: no mode of the good kernel is there, and the
	 * slow kernel of a cliff spreads more than the pooled noise when it
	 * waits on QEMU's device (the demo's: ±10% about -76%, pooled 0.5%),
	 * which held every one of its boots back for another.
	 */
	last = cand->y[cand->n - 1];
	p0 = s * sqrt(1 + 1.0 / (double)base->n);
	p1 = is_auto ? s * sqrt(1 + 1.0 / (double)bad->n) : p0;
	d_fast = shift_distance(last, &fast, moff);
	d_slow = shift_distance(last, &slow, moff);
	out->implausible = check_last && d_fast / p0 > VERDICT_IMPLAUSIBLE_Z &&
			   d_slow / p1 > VERDICT_IMPLAUSIBLE_Z &&
			   !(verdict_beyond_modes(d_fast, &nm) &&
			     d_slow < d_fast);
	out->bad_level = bad && bad->n ? level_bps(bad->loc, in->faster) : NAN;
	out->between = check_last &&
		       sits_between(in, base, bad, cand, c1, p0,
				    bad && bad->n
					    ? s * sqrt(1 + 1.0 / (double)bad->n)
					    : p1,
				    &mid);
	if (out->between) {
		out->implausible = 0;
		out->own_level = level_bps(cand->loc, in->faster);
	}
	/*
	 * Held back by an endpoint's boots more than by the commit's: a
	 * level of fewer boots than the commit's caps what they can say
	 * (eight boots at the baseline against one bad boot, at a wild rate
	 * of 9%, stayed at -2.3 of 2.9 and were skipped) and may be off
	 * (a bad boot in a dip of the host's load, -30% where the slow
	 * kernels read -23.5%, left each of them fitting neither level).
	 * Not a boot that fits neither level once both held still: no
	 * endpoint's boot moves a level that held still, and the commit's
	 * own next boots say whether it sits between them (issue 47: the
	 * bad endpoint was booted after each of such a commit's 8 boots).
	 */
	if ((fabs(out->llr) < out->bound ||
	     (out->implausible && !both_steady(in->steady))) &&
	    thin < cand->n && !out->between)
		out->thin = is_auto && bad->n <= base->n ? VERDICT_THIN_BAD
							: VERDICT_THIN_BASE;

	say_kind(out, in, cand, label, s, mid, level_bps(last, in->faster));
	return 0;
}

int verdict_decide(struct verdict *out, const struct verdict_input *in)
{
	struct side base, bad = {0}, cand;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (side_make(&base, in->base, in->n_base, in->faster, "baseline"))
		return -1;
	if (side_make(&cand, in->cand, in->n_cand, in->faster, "candidate"))
		goto out_base;
	/* The bad endpoint's boots: the auto level, and noise data. */
	if (in->n_bad &&
	    side_make(&bad, in->bad, in->n_bad, in->faster, "bad endpoint"))
		goto out;
	verdict_describe_sides(out, in->base, in->n_base, in->cand, in->n_cand);
	ret = decide(out, in, &base, &bad, &cand, "this", 1);
out:
	side_release(&bad);
	side_release(&cand);
out_base:
	side_release(&base);
	return ret;
}

/*
 * ln of the one-sided mixture ratio for a drop estimate d (< 0: bad below
 * good) with scale `se` under Student-t with nu degrees of freedom: the
 * likelihood of d averaged over drops spread as a half-Cauchy of scale
 * tau, against its likelihood with no drop. The spread of drops has a tail
 * as heavy as the likelihood's: with a normal one, a -85% cliff would sit
 * where the spread says drops never are, and the ratio would stay near 1.
 * Integrated on a grid of the drop in units of tau (the t law has no
 * closed form for this), wide enough to hold the likelihood's peak.
 */
static double log_mixture_ratio(double d, double se, double nu, double tau)
{
	enum { STEPS = 800 };
	double umax = fmax(20, (-d + 20 * se) / tau), du = umax / STEPS;
	double l[STEPS + 1], top = -INFINITY, sum = 0;

	for (int k = 0; k <= STEPS; k++) {
		double u = k * du, w = k == 0 || k == STEPS ? 0.5 : 1;
		/* 2 / (pi (1 + u^2)) du: the half-Cauchy of the drop -tau u. */
		l[k] = noise_t_logpdf((d + tau * u) / se, nu) - log1p(u * u) +
		       log(2 / M_PI * du * w);
		top = fmax(top, l[k]);
	}
	for (int k = 0; k <= STEPS; k++)
		sum += exp(l[k] - top);
	return top + log(sum) - noise_t_logpdf(d / se, nu);
}

static int endpoints_auto(struct verdict *out, const struct verdict_input *in,
			  const struct side *good, const struct side *bad)
{
	struct noise_model nm;
	double se, d;
	char head[200];

	noise_of(&nm, in, good, bad, NULL);
	out->sigma_pct = nm.sigma * 100;
	out->nu = nm.nu;
	out->fast_level = level_bps(good->loc, in->faster);
	out->slow_level = level_bps(bad->loc, in->faster);
	/* The same bound as Wald's, so one decisive boot of each can pass. */
	out->bound = verdict_error_bound(in->error);
	d = bad->loc - good->loc;
	/*
	 * Locations carry the boots the slower mode took, which the spread
	 * within a mode leaves out: a boot's spread, the mode the run's
	 * boots showed included (not the prior's: a quiet machine keeps its
	 * sensitivity).
	 */
	se = sqrt(nm.sigma * nm.sigma + nm.mode_seen * (1 - nm.mode_seen) *
						nm.mode_offset *
						nm.mode_offset) *
	     sqrt(1.0 / (double)good->n + 1.0 / (double)bad->n);
	out->llr = verdict_cap_evidence(
		log_mixture_ratio(d, se, nm.nu, VERDICT_MIXTURE_TAU),
		min_size(good->n, bad->n), verdict_wild_rate(&nm));
	out->error = out->llr > 0 ? exp(-out->llr) : 1;
	verdict_fmt(
		head, sizeof(head),
		"good %.1f MB/s (%.1f%%, %zu boots), bad %.1f MB/s (%.1f%%, "
		"%zu boots): %+.1f%%, noise %.1f%%",
		out->base_median / MB, out->base_pct_stddev, out->n_base,
		out->cand_median / MB, out->cand_pct_stddev, out->n_cand,
		out->pct_change, out->sigma_pct);
	if (out->llr >= out->bound) {
		out->kind = VERDICT_BAD;
		verdict_fmt(out->reason, sizeof(out->reason),
			    "%s: ratio e^%.1f >= e^%.1f: separated", head,
			    out->llr, out->bound);
	} else {
		verdict_fmt(out->reason, sizeof(out->reason),
			    "%s: ratio e^%.1f < e^%.1f: not separated (yet)",
			    head, out->llr, out->bound);
	}
	return 0;
}

int verdict_endpoints(struct verdict *out, const struct verdict_input *in)
{
	struct side good, bad;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (side_make(&good, in->base, in->n_base, in->faster, "good endpoint"))
		return -1;
	if (side_make(&bad, in->bad, in->n_bad, in->faster, "bad endpoint"))
		goto out_good;
	verdict_describe_sides(out, in->base, in->n_base, in->bad, in->n_bad);
	if (in->threshold.kind == THRESHOLD_AUTO) {
		ret = endpoints_auto(out, in, &good, &bad);
	} else {
		struct verdict_input v = *in;
		v.runs_min = 1;
		ret = decide(out, &v, &good, NULL, &bad, "bad", 0);
	}
	side_release(&bad);
out_good:
	side_release(&good);
	return ret;
}
