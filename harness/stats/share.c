/*
 * share.c: the culprit's share of the endpoints' drop, and levels that
 * differ beyond the noise (see share.h). Pure.
 *
 * Log ratios, not percentages: a -6.7% change followed by a -3.3% one
 * takes the endpoints to -9.8%, and ln(0.933) + ln(0.967) = ln(0.902), so
 * the shares of two changes add up to the whole. The standard error of a
 * difference of two medians of n_a and n_b boots is sigma * sqrt(1/n_a +
 * 1/n_b); the rest, (bad/good) - (culprit/parent), rests on four.
 */
#include "share.h"

#include <math.h>
#include <string.h>

static int level_ok(const struct share_level *l)
{
	return l->n > 0 && l->median > 0 && isfinite(l->median);
}

int share_account(struct share *out, const struct share_input *in)
{
	double le, lc, se;

	memset(out, 0, sizeof(*out));
	out->endpoints_pct = out->culprit_pct = NAN;
	out->explains_pct = out->rest_pct = NAN;
	if (!level_ok(&in->good) || !level_ok(&in->bad) ||
	    !level_ok(&in->parent) || !level_ok(&in->culprit) ||
	    in->bad.median == in->good.median)
		return -1;
	le = log(in->bad.median / in->good.median);
	lc = in->same_image ? 0 : log(in->culprit.median / in->parent.median);
	se = in->sigma *
	     sqrt(1.0 / (double)in->good.n + 1.0 / (double)in->bad.n +
		  1.0 / (double)in->parent.n + 1.0 / (double)in->culprit.n);
	out->endpoints_pct = (exp(le) - 1) * 100;
	out->culprit_pct = (exp(lc) - 1) * 100;
	out->explains_pct = lc / le * 100;
	out->rest_pct = 100 - out->explains_pct;
	out->rest_beyond_noise = fabs(le - lc) > SHARE_REST_SE * se;
	return 0;
}

int share_levels_differ(const struct share_level *a,
			const struct share_level *b, double sigma)
{
	double se;

	if (!level_ok(a) || !level_ok(b))
		return 0;
	se = sigma * sqrt(1.0 / (double)a->n + 1.0 / (double)b->n);
	return fabs(log(b->median / a->median)) > SHARE_REST_SE * se;
}
