/*
 * threshold.h: the line a job draws between fast and slow ("threshold":
 * "10%", "25MB/s" or "auto"), and its one owner. A step's verdict
 * (verdict.h), the pairs that judge an answer (bisect/judge.h) and a
 * sweep's changepoints (sweep.h) each ask where the slow level lies; what
 * "auto" means (the bad endpoint's own level) and how the line is written
 * for people are decided here only. Pure.
 */
#ifndef IOBISECT_THRESHOLD_H
#define IOBISECT_THRESHOLD_H

#include "util.h"

enum threshold_kind { THRESHOLD_PERCENT, THRESHOLD_MBPS, THRESHOLD_AUTO };

struct threshold {
	enum threshold_kind kind;
	double value; /* percent drop, or MB/s drop; unused for auto */
};

/* "auto", "25%", "50 MB/s": the line as a job's reader knows it. */
void threshold_text(struct strbuf *out, const struct threshold *t);

/*
 * Where `t` puts the slow level against a baseline of `base_bps` bytes/s,
 * as the log of their ratio in the frame where the change sought goes
 * down (a drop, or for `faster` a rise with its sign turned): a percent p
 * is log(1 - p/100) (for faster -log(1 + p/100)), an absolute drop of v
 * MB/s log((base - v) / base) (for faster -log((base + v) / base)).
 * Returns 0 with *drop below 0, or -1 when `t` draws no such line there:
 * "auto" (the bad endpoint's level draws it), a value not above 0, a
 * percent drop of 100 or more, a drop in MB/s not below the baseline.
 */
int threshold_drop(double *drop, const struct threshold *t, double base_bps,
		   int faster);

/*
 * The slow level a verdict weighs boots against, on the log scale of
 * verdict.h (ln of bytes/s, the sign turned for `faster`): the line's
 * below the baseline's level `fast`, or with "auto" the bad endpoint's
 * level `bad` (NAN when it has no boots), which must lie below `fast`.
 * 0, or -1 after error() saying why there is none.
 */
int threshold_slow_level(double *slow, const struct threshold *t, double fast,
			 double bad, int faster);

/*
 * The drop an answer's pairs seek, as threshold_drop's: the line's below
 * good's median `good_bps`, or with "auto" the endpoints' own drop, bad's
 * median `bad_bps` against good's, whichever way it went. 0 with *drop
 * below 0, or -1 after error() when there is none.
 */
int threshold_pairs_drop(double *drop, const struct threshold *t,
			 double good_bps, double bad_bps, int faster);

/*
 * A sweep's question: does a change from `before_bps` to `after_bps`
 * reach the line (`faster`: a rise)? With "auto" every change does: the
 * bisection of it finds its own level.
 */
int threshold_past(const struct threshold *t, double before_bps,
		   double after_bps, int faster);

#endif
