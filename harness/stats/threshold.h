/*
 * threshold.h: the line a job draws between fast and slow ("threshold":
 * "10%", "25MB/s" or "auto"). A step's verdict (verdict.h), the pairs
 * that confirm an answer (driver_confirm.c) and a sweep's changepoints
 * (sweep.h) each ask where that line lies below a measured baseline, and
 * threshold_drop is the one answer they share. Pure.
 */
#ifndef IOBISECT_THRESHOLD_H
#define IOBISECT_THRESHOLD_H

enum threshold_kind { THRESHOLD_PERCENT, THRESHOLD_MBPS, THRESHOLD_AUTO };

struct threshold {
	enum threshold_kind kind;
	double value; /* percent drop, or MB/s drop; unused for auto */
};

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

#endif
