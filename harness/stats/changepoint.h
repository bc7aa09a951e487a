/*
 * changepoint.h: finding the steps in a series of commits measured over
 * time (a sweep, or the commits a bisection visited), where each commit
 * has several noisy per-boot values (bytes/s, higher is faster).
 *
 * Method: circular binary segmentation (Olshen et al., 2004) with a
 * permutation test over segments. Within a segment of commits, every
 * interval of commits is a candidate cut: its statistic is the
 * standardized Wilcoxon rank sum of the interval's boots against the rest
 * of the segment's, and the best cut is the one with the largest |z|. An
 * interval that starts or ends with the segment is one split; one inside
 * it is a level that comes and goes (a regression and its fix within one
 * sweep), which plain binary segmentation misses: no single split
 * separates fast-slow-fast. Segments longer than 512 commits look at
 * single splits only (the search is quadratic). Significance comes from
 * permuting the boots of the segment (a fixed-seed generator, so the
 * answer is the same on every run) and recomputing the largest |z| over
 * all cuts: the p-value is (1 + #permuted >= observed) / (1 +
 * permutations). A cut with p <= alpha splits the segment and every piece
 * is searched again. Ranks make one wild boot harmless; the medians
 * between neighbouring change points give the effect.
 *
 * Three rules keep noise from being called a step:
 *  - a level must last min_segment commits (2 by default) on each side of
 *    a step (in each piece of a cut), so one wild commit (an outlier) is
 *    never a change point; the price is that a step in the last tested
 *    commit is seen only once one more commit is measured after it; and
 *    a level inside a segment must be one: each of its commits nearer its
 *    level than the rest's;
 *  - the change of the medians on the two sides (between neighbouring
 *    change points) must reach min_effect_pct;
 *  - the step must be sharp: over the `window` (4) commits on each side,
 *    two flat levels must fit the commit medians better than a straight
 *    line. A slow drift passes the permutation test but fails this one; it
 *    is reported as a drift over the segment (struct changepoint_drift)
 *    and not cut into steps.
 *
 * Pure: no I/O.
 */
#ifndef IOBISECT_CHANGEPOINT_H
#define IOBISECT_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

/* One commit of the series: its per-boot values (may be none: skipped). */
struct changepoint_commit {
	const double *values;
	size_t n;
};

struct changepoint_options {
	double min_effect_pct; /* smallest |change| reported, percent */
	double alpha;          /* significance level of each split */
	unsigned permutations; /* of each permutation test */
	uint64_t seed;         /* of the permutation generator */
	size_t min_segment;    /* commits a level must last, >= 1 */
	size_t window;         /* commits each side of a step, step vs line */
};
#define CHANGEPOINT_OPTIONS_INIT { 5.0, 0.01, 1999, 0x10b15ec7ULL, 2, 4 }

enum changepoint_kind {
	CHANGEPOINT_REGRESSION,  /* lower after the step: slower */
	CHANGEPOINT_IMPROVEMENT, /* higher after the step */
};

struct changepoint {
	/*
	 * Index into the series of the first commit of the new level: the
	 * step lies between commit index - 1 (or the nearest measured one
	 * before it) and commit index, which is where a bisection goes.
	 */
	size_t index;
	size_t before; /* the measured commit just before the step */
	enum changepoint_kind kind;
	double before_median; /* median of the boots since the previous step */
	double after_median;  /* median of the boots up to the next step */
	double change_pct;    /* (after - before) / before * 100 */
	double p_value;       /* of the permutation test that found it */
};

/* A significant but gradual change over commits [first, last]. */
struct changepoint_drift {
	size_t first, last;
	double first_median, last_median; /* of the commits at both ends */
	double change_pct;
	double p_value;
};

struct changepoint_result {
	struct changepoint *points; /* ascending index */
	size_t nr, alloc;
	struct changepoint_drift *drifts;
	size_t nr_drifts, alloc_drifts;
};
#define CHANGEPOINT_RESULT_INIT { NULL, 0, 0, NULL, 0, 0 }

/*
 * Find the steps in `series` (n commits in order, oldest first). `opt`
 * may be NULL for the defaults. Commits without values are passed over
 * (a step is never placed on one). Returns 0, or -1 after error() on
 * invalid options.
 */
int changepoint_detect(struct changepoint_result *out,
		       const struct changepoint_commit *series, size_t n,
		       const struct changepoint_options *opt);
void changepoint_result_release(struct changepoint_result *r);

/* "regression", "improvement". */
const char *changepoint_kind_name(enum changepoint_kind k);

#endif
