/* threshold.c: a job's line between fast and slow (threshold.h). */
#include "threshold.h"

#include <math.h>

#define MB 1e6

void threshold_text(struct strbuf *out, const struct threshold *t)
{
	if (t->kind == THRESHOLD_AUTO)
		strbuf_addstr(out, "auto");
	else
		strbuf_addf(out, t->kind == THRESHOLD_PERCENT ? "%g%%"
							      : "%g MB/s",
			    t->value);
}

int threshold_drop(double *drop, const struct threshold *t, double base_bps,
		   int faster)
{
	double v;

	switch (t->kind) {
	case THRESHOLD_PERCENT:
		if (!(t->value > 0) || (!faster && !(t->value < 100)))
			return -1;
		*drop = faster ? -log1p(t->value / 100)
			       : log1p(-t->value / 100);
		return 0;
	case THRESHOLD_MBPS:
		v = t->value * MB;
		if (!(v > 0) || !(base_bps > 0) || (!faster && !(v < base_bps)))
			return -1;
		*drop = faster ? -log((base_bps + v) / base_bps)
			       : log((base_bps - v) / base_bps);
		return isfinite(*drop) && *drop < 0 ? 0 : -1;
	case THRESHOLD_AUTO:
		break;
	}
	return -1;
}

/* Back from verdict.h's log scale (and the direction) to bytes/s. */
static double level_bps(double y, int faster)
{
	return exp(faster ? -y : y);
}

int threshold_slow_level(double *slow, const struct threshold *t, double fast,
			 double bad, int faster)
{
	double fast_bps = level_bps(fast, faster), drop;
	struct strbuf line = STRBUF_INIT;
	int ret;

	if (t->kind == THRESHOLD_AUTO) {
		if (isnan(bad))
			return error("threshold 'auto' needs the bad "
				     "endpoint's boots");
		if (!(bad < fast))
			return error("threshold 'auto' needs bad (%.1f MB/s) "
				     "%s than good (%.1f MB/s)",
				     level_bps(bad, faster) / MB,
				     faster ? "faster" : "slower",
				     fast_bps / MB);
		*slow = bad;
		return 0;
	}
	if (!threshold_drop(&drop, t, fast_bps, faster)) {
		*slow = fast + drop;
		return 0;
	}
	threshold_text(&line, t);
	if (t->kind == THRESHOLD_MBPS && t->value > 0)
		ret = error("threshold %s is not below the baseline's %.1f "
			    "MB/s",
			    line.buf, fast_bps / MB);
	else
		ret = error("threshold %s does not draw a line", line.buf);
	strbuf_release(&line);
	return ret;
}

int threshold_pairs_drop(double *drop, const struct threshold *t,
			 double good_bps, double bad_bps, int faster)
{
	if (t->kind == THRESHOLD_AUTO)
		*drop = -fabs(log(bad_bps / good_bps));
	else if (threshold_drop(drop, t, good_bps, faster))
		*drop = NAN;
	if (!(*drop < 0) || !isfinite(*drop)) {
		struct strbuf line = STRBUF_INIT;
		threshold_text(&line, t);
		error("no drop to seek: good %.1f MB/s, threshold %s",
		      good_bps / MB, line.buf);
		strbuf_release(&line);
		return -1;
	}
	return 0;
}

int threshold_past(const struct threshold *t, double before_bps,
		   double after_bps, int faster)
{
	double drop, seen;

	if (t->kind == THRESHOLD_AUTO)
		return 1;
	/* A line that lies at no level above zero: no change reaches it. */
	if (threshold_drop(&drop, t, before_bps, faster))
		return 0;
	seen = log(after_bps / before_bps);
	return (faster ? -seen : seen) <= drop;
}
