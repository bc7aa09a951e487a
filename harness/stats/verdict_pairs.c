/*
 * verdict_pairs.c: the answer's pairs (verdict_pairs, verdict.h): does the
 * culprit read the drop against its parent, boot beside boot? The sides
 * and the weighing are verdict.c's (verdict_priv.h). Pure: no I/O except
 * error() on invalid input.
 */
#include "verdict.h"
#include "stats.h"
#include "util.h"
#include "verdict_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * The deepest the machine's slower mode is taken to be where an answer
 * is made: the model's, and the wall clock's at least, whatever the
 * clock (verdict_pairs says why).
 */
static double mode_depth(const struct noise_model *nm)
{
	return fmax(fabs(nm->mode_offset), fabs(NOISE_MODE_OFFSET));
}

int verdict_beyond_modes(double d, const struct noise_model *nm)
{
	return fabs(d) > mode_depth(nm) * VERDICT_MODE_RANGE_HI;
}

/* The spread of pairs' ratios, robustly: 1.4826 times their MAD. */
static double pairs_spread(const double *r, size_t n)
{
	double *d = xmalloc(n * sizeof(*d)), med = stats_median(r, n), v;

	for (size_t i = 0; i < n; i++)
		d[i] = fabs(r[i] - med);
	v = 1.4826 * stats_median(d, n);
	free(d);
	return v;
}

/* Do these boots (bytes/s) hold still on in->machine? */
static int boots_steady(const double *v, const struct verdict_pairs_input *in)
{
	return noise_steady_boots(v, in->n, in->machine);
}

/*
 * The levels that held still for the pairs: the run's (in->steady), and
 * the other one when one of them did and the other's own boots in the
 * pairs hold still. A culprit found on one boot of its own has too few
 * boots of the slow level for the run to show it still (or a good level
 * of two boots and no fast step, the fast one); its pairs then carried
 * the slower mode's odds forever, and the mode's depths, which reach
 * past a -7% to -35% drop, explained each pair better as the pairs'
 * spread shrank: 16 pairs at -20.0% on a clock steady to 0.01% read llr
 * +0.2, and a third of such bisections ended inconclusive
 * (bench/sensitivity, 2026-12-06). Where neither level held still (a
 * machine with a mode), the pairs' boots alone are not taken for it.
 */
static unsigned pairs_steady(const struct verdict_pairs_input *in)
{
	unsigned steady = in->steady;

	if ((steady & VERDICT_STEADY_SLOW) && !(steady & VERDICT_STEADY_FAST) &&
	    boots_steady(in->parent, in))
		steady |= VERDICT_STEADY_FAST;
	if ((steady & VERDICT_STEADY_FAST) && !(steady & VERDICT_STEADY_SLOW) &&
	    boots_steady(in->culprit, in))
		steady |= VERDICT_STEADY_SLOW;
	return steady;
}

/* The pairs' sides and the machine's mode, as each pair is weighed. */
struct pairs_law {
	struct side_law right, wrong;
	double pair_noise; /* one pair's spread, on the log scale */
	double wild;	   /* the rate of pairs that read anything */
	double depths[2];  /* the mode's depth, up and down */
	int still;	   /* both levels held still: no pair is a mode's */
};

/*
 * Each pair's ln(culprit / parent), the drop downwards; NULL after
 * error().
 */
static double *pairs_ratios(const struct verdict_pairs_input *in)
{
	double *ratio = xmalloc(in->n * sizeof(*ratio));

	for (size_t i = 0; i < in->n; i++) {
		ratio[i] = log(in->culprit[i] / in->parent[i]);
		if (!isfinite(ratio[i])) {
			free(ratio);
			error("a pair has %g and %g bytes/s", in->parent[i],
			      in->culprit[i]);
			return NULL;
		}
		if (in->faster)
			ratio[i] = -ratio[i];
	}
	return ratio;
}

/* One pair's spread: two boots' noise, or the pairs' own if wider. */
static double pair_noise(const struct verdict_pairs_input *in,
			 const double *ratio)
{
	double noise = in->noise->sigma * M_SQRT2;

	/*
	 * The pairs' own spread, once there are enough of them to show it,
	 * where it is wider than the model's: the model pools every commit's
	 * boots, and a fast kernel's steady ones (0.0%) hide a slow kernel
	 * that waits on QEMU's device and spreads 2%. 16 pairs of a real
	 * culprit at -22.2% ±2% against -21.3% sought, pair noise 0.3%: each
	 * pair a little short of the drop counted as several scales away, and
	 * read llr -13.8 (bench/bisect-repeat.sh, 2026-12-06).
	 */
	if (in->n >= VERDICT_PAIRS_OWN_SPREAD)
		noise = fmax(noise, pairs_spread(ratio, in->n));
	return noise;
}

/* The rate of pairs the machine changed mode within, and its depths. */
static double pairs_mode(struct pairs_law *law,
			 const struct verdict_pairs_input *in)
{
	double switch_rate, depth;

	/*
	 * How often the machine changes mode within a pair. A run's boots
	 * show fewer boots in the mode than there are (a commit booted while
	 * the mode lasts reads there every time, and looks steady), so here,
	 * where the answer is made, the prior is a floor.
	 */
	switch_rate = fmax(in->noise->mode_rate, NOISE_MODE_RATE);
	switch_rate = 2 * switch_rate * (1 - switch_rate);
	/*
	 * And as deep as the wall clock's at least, whatever the clock: a
	 * machine whose mode is deeper than its prior (a kernel that waits
	 * on QEMU's device moves 4-9% with the host's load on the virtual
	 * clock, for minutes) made pairs confirm a wrong commit in 0.25-1.5%
	 * of simulated bisections at the virtual clock's 5%, none here.
	 */
	depth = mode_depth(in->noise);
	law->depths[0] = depth;
	law->depths[1] = -depth;
	return switch_rate;
}

/* The right and wrong sides each pair is weighed against (out->steady). */
static void pairs_sides(struct pairs_law *law, struct verdict *out,
			const struct verdict_pairs_input *in, double noise)
{
	double switch_rate;

	law->pair_noise = noise;
	law->wild = fmin(0.5, 2 * verdict_wild_rate(in->noise));
	switch_rate = pairs_mode(law, in);
	verdict_side_edges(&law->wrong.edge, &law->right.edge, 0, in->drop,
			   !in->line);
	/*
	 * Two sides closer than the pairs' noise cannot be told apart by
	 * pairs: each would explain every pair on its side of zero, and the
	 * ratio would wander to a bound on noise alone. The drop confirmed
	 * is at least VERDICT_PAIRS_MIN_Z pair spreads.
	 */
	law->right.edge = fmin(law->right.edge,
			       law->wrong.edge - VERDICT_PAIRS_MIN_Z * noise);
	law->wrong.fast = 1;
	law->right.fast = 0;
	/*
	 * Both levels held still over the run: no slow stretch moved a
	 * kernel between the two boots of a pair, so no pair is a mode's.
	 */
	out->steady = pairs_steady(in);
	law->still =
		(out->steady & (VERDICT_STEADY_FAST | VERDICT_STEADY_SLOW)) ==
		(VERDICT_STEADY_FAST | VERDICT_STEADY_SLOW);
	law->wrong.rate = law->right.rate = law->still ? 0 : switch_rate;
	law->wrong.se = noise;
	/*
	 * A drop the endpoints measured is known to within drop_se, one
	 * error shared by every pair: on each pair's scale it counts n times
	 * its variance, as it would for the pairs' mean, but only up to
	 * VERDICT_PAIRS_SHARED pairs. Past that the right side grew so broad
	 * that, on a precise clock, the wrong side's mode explained each pair
	 * better: 16 pairs of a real culprit at -23.7% against a -15.7% drop
	 * sought, pair noise 0.2%, read llr -7.3 (52-bisect-upstream,
	 * 2026-12-06). Counted once per pair, or moving the right side's edge
	 * by it instead, confirmed more shallow wrong drops (bench/README.md).
	 */
	law->right.se =
		sqrt(noise * noise + fmin((double)in->n, VERDICT_PAIRS_SHARED) *
					     in->drop_se * in->drop_se);
}

/*
 * The pairs' evidence, its error and bound, and the figures reported;
 * the median ratio within a pair.
 */
static double pairs_weigh(struct verdict *out,
			  const struct verdict_pairs_input *in,
			  const struct pairs_law *law, const double *ratio)
{
	size_t n = in->n;
	double llr = 0, median_ratio;

	for (size_t i = 0; i < n; i++)
		llr += verdict_value_llr(ratio[i], &law->right, &law->wrong,
					 in->noise->nu, law->depths, 2,
					 law->wild);
	out->llr = verdict_cap_evidence(llr, n, law->wild);
	out->error = verdict_posterior_error(out->llr);
	out->bound = verdict_error_bound(in->error_right);
	out->sigma_pct = law->pair_noise * 100;
	out->nu = in->noise->nu;
	out->n_base = out->n_cand = n;
	verdict_describe_sides(out, in->parent, n, in->culprit, n);
	/* The pairs' own figure: the median ratio within a pair. */
	median_ratio = stats_median(ratio, n);
	out->pct_change =
		(exp(in->faster ? -median_ratio : median_ratio) - 1) * 100;
	out->fast_level = out->base_median;
	out->slow_level = out->base_median * exp(in->drop);
	return median_ratio;
}

/*
 * And most pairs must say so themselves: a pair in which the machine
 * changed mode reads a drop as deep as the mode, so where the drop
 * sought is that deep, a few such pairs could carry the ratio while
 * most pairs read no drop. Past the midpoint of the two sides, more
 * than half of them.
 */
static size_t pairs_past_midpoint(const struct pairs_law *law,
				  const struct verdict_pairs_input *in,
				  const double *ratio, double median_ratio)
{
	double midpoint = (law->right.edge + law->wrong.edge) / 2;
	size_t below = 0;

	for (size_t i = 0; i < in->n; i++)
		below += ratio[i] < midpoint;
	/*
	 * Pairs that read a drop within the mode's depths can all be pairs
	 * whose culprit boots fell in slow stretches of the machine: such a
	 * drop is confirmed by three pairs at least, never by one or two
	 * that a stretch or two explain. A drop deeper than any mode (a
	 * cliff) needs one, and so does any drop when both levels held still
	 * over the run (there were no stretches).
	 */
	if (!law->still && in->n < 3 &&
	    !verdict_beyond_modes(median_ratio, in->noise))
		below = 0;
	return below;
}

/*
 * The pairs' test. Each pair is a boot of the parent and one of the
 * culprit taken back to back, r = ln(culprit / parent): whatever speed
 * the machine had for those seconds is in both and cancels. "Right" is
 * r at the drop or below (the answer holds: the culprit is that much
 * slower than its parent), "wrong" r at no drop or above for auto, and
 * for a line the zone on either side of it as in verdict_decide. A pair
 * in which the machine changed mode between its two boots is shifted by
 * the mode's depth, up or down, at the rate two independent boots would
 * do so, the mode's rate no lower than the prior's.
 */
int verdict_pairs(struct verdict *out, const struct verdict_pairs_input *in)
{
	struct pairs_law law = {0};
	double *ratio, median_ratio;
	size_t n = in->n, below;

	memset(out, 0, sizeof(*out));
	if (!n || !in->parent || !in->culprit || !in->noise)
		return error("no pairs to judge");
	if (!(in->drop < 0))
		return error("pairs need a drop below zero, not %g", in->drop);
	ratio = pairs_ratios(in);
	if (!ratio)
		return -1;
	pairs_sides(&law, out, in, pair_noise(in, ratio));
	median_ratio = pairs_weigh(out, in, &law, ratio);
	below = pairs_past_midpoint(&law, in, ratio, median_ratio);
	if (out->llr >= out->bound && 2 * below > n)
		out->kind = VERDICT_BAD;
	else if (out->llr <= -verdict_error_bound(in->error_wrong) &&
		 2 * below < n)
		out->kind = VERDICT_GOOD;
	verdict_fmt(
		out->reason, sizeof(out->reason),
		"%zu pairs: parent %.1f MB/s, culprit %.1f MB/s, %+.1f%% "
		"within a pair (the drop sought %+.1f%%, pair noise %.1f%%, "
		"%zu past half of it): llr %+.1f, %s",
		n, out->base_median / MB, out->cand_median / MB,
		out->pct_change, (exp(in->drop) - 1) * 100, out->sigma_pct,
		below, out->llr,
		out->kind == VERDICT_BAD    ? "confirmed"
		: out->kind == VERDICT_GOOD ? "contradicted"
					    : "one more pair");
	free(ratio);
	return 0;
}
