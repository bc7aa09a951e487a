/*
 * verdict.h: turning per-boot numbers into good / bad / undecided, soundly.
 *
 * The unit of evidence is the boot: each boot contributes one value, the
 * median of its samples (struct sample_set), in bytes/s, higher is faster.
 * The candidate is compared with the good endpoint's boots (the baseline),
 * which the caller keeps topping up with interleaved good-kernel boots; pass
 * the current baseline on every call, it is just data.
 *
 * Error control across adaptive looks: a commit is looked at after each of
 * its boots from runs_min to runs_max, and alpha (0.05 by default) is split
 * evenly over those looks (Bonferroni), so the chance that noise alone ever
 * makes a verdict, at any look, stays below alpha. A look whose sample sizes
 * cannot reach the per-look alpha (see stats_mw_floor) never decides.
 *
 * Pure: no I/O; invalid input returns -1 after error().
 */
#ifndef IOBISECT_VERDICT_H
#define IOBISECT_VERDICT_H

#include "job.h"

#include <stddef.h>

enum verdict_kind { VERDICT_UNDECIDED, VERDICT_GOOD, VERDICT_BAD };

struct verdict_input {
	const double *base; /* good endpoint, one value per boot, bytes/s */
	size_t n_base;
	const double *cand; /* the commit under test, one value per boot */
	size_t n_cand;
	/* Bad endpoint, per boot: needed for THRESHOLD_AUTO only. */
	const double *bad;
	size_t n_bad;
	/* Percent of the baseline median, MB/s (10^6 bytes/s), or auto. */
	struct threshold threshold;
	int runs_min, runs_max; /* the look plan: boots per commit */
	double alpha;           /* total error rate per verdict; 0: 0.05 */
};

struct verdict {
	enum verdict_kind kind;
	size_t n_base, n_cand;
	double base_median, cand_median;         /* bytes/s */
	double base_pct_stddev, cand_pct_stddev; /* LKP's %stddev */
	double pct_change; /* (cand_median - base_median) / base_median * 100 */
	double shift;      /* Hodges-Lehmann shift cand - base, bytes/s */
	double cliff_delta; /* cand against base, in [-1, 1] */
	double drop;       /* the threshold as a drop in bytes/s */
	double line;       /* base_median - drop: "slow" is below it */
	/* One-sided Mann-Whitney p that cand is slower than base. */
	double p_slower;
	/* One-sided p that cand is above the line (base shifted down by drop). */
	double p_fast;
	double alpha_look; /* the alpha of this look (alpha / looks) */
	double p_floor;    /* smallest p reachable with n_base and n_cand */
	/*
	 * Estimated probability that this verdict is wrong: the deciding
	 * p-value times the number of looks (Bonferroni-adjusted, so at most
	 * alpha for a decided verdict); 1 for undecided.
	 */
	double error;
	char reason[320]; /* one line for people, no trailing newline */
};

/*
 * Decide on the candidate. Rules (see verdict.c for why):
 *  - fewer than runs_min candidate boots: undecided;
 *  - sizes whose smallest possible p (p_floor) is above alpha_look:
 *    undecided, whatever the values;
 *  - BAD when the candidate's median is below the line AND the
 *    candidate is separated from the baseline (p_slower <= alpha_look);
 *  - GOOD when the candidate's median is at or above the line and it is
 *    shown to be above the line (p_fast <= alpha_look), so too few boots
 *    never pass for good;
 *  - otherwise UNDECIDED.
 * Returns 0, or -1 after error() (no baseline, auto threshold without a bad
 * endpoint slower than good, a threshold <= 0, runs_min > runs_max).
 */
int stats_verdict(struct verdict *out, const struct verdict_input *in);

enum verdict_next {
	VERDICT_NEXT_DONE, /* decided: mark it */
	VERDICT_NEXT_BOOT, /* undecided and under runs_max: boot it again */
	VERDICT_NEXT_SKIP, /* undecided at runs_max: mark it skip */
};
enum verdict_next verdict_more_boots(const struct verdict *v, int runs_max);

/*
 * Are the endpoints separated: is the bad endpoint slow by the threshold
 * compared with the good one? `in->bad` is the candidate here (in->cand is
 * ignored) and the same rules apply, so the answer is VERDICT_BAD (yes, go
 * on), VERDICT_GOOD (bad is not slower than the line: stop), or
 * VERDICT_UNDECIDED (boot the endpoints again while under runs_max, then
 * stop). out->reason gives both medians in MB/s with their spread, e.g.
 * "good 800.0 MB/s (1.9%, 6 boots), bad 776.0 MB/s (1.9%, 6 boots): -3.0%,
 * above the line 720.0 MB/s (10% drop) with p 0.0011 <= 0.0083: bad is not
 * slow". With THRESHOLD_AUTO the line is halfway, so only the separation is
 * tested; an auto bad endpoint not slower than good is VERDICT_GOOD.
 */
int verdict_endpoints(struct verdict *out, const struct verdict_input *in);

/* "good", "bad", "undecided". */
const char *verdict_name(enum verdict_kind k);

/*
 * Confidence of a bisection path in the way syzkaller reports it: the
 * probability that no verdict on the path was wrong, the product of
 * (1 - error_i) over the decided verdicts (struct verdict.error).
 */
double verdict_path_confidence(const double *errors, size_t n);

#endif
