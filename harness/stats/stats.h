/*
 * stats.h: plain statistics as pure functions over arrays of doubles:
 * location and spread (median, mean, standard deviation, quantiles, the
 * change in percent), the Hodges-Lehmann shift and Cliff's delta a verdict
 * reports, the Mann-Whitney U test with exact p-values for small samples
 * (the star of two commits' comparison, store_scan.h; a verdict itself is
 * a sequential test, verdict.h), and a small deterministic random number
 * generator for simulations. Nothing here does I/O or keeps state;
 * inputs are never modified (functions that sort work on a copy).
 */
#ifndef IOBISECT_STATS_H
#define IOBISECT_STATS_H

#include <stddef.h>
#include <stdint.h>

/* All of these return NAN when n is 0. */
double stats_median(const double *v, size_t n);
double stats_mean(const double *v, size_t n);
/* Sample standard deviation (divides by n - 1); 0 for n == 1. */
double stats_stddev(const double *v, size_t n);
/* 100 * stddev / mean, LKP's "%stddev"; NAN when the mean is 0. */
double stats_pct_stddev(const double *v, size_t n);
/*
 * The change from `from` to `to` in percent of `from`: -10 for a tenth
 * less. From 0 it is infinite (NaN from 0 to 0); a caller that means
 * something else there says so.
 */
double stats_pct_change(double from, double to);
double stats_min(const double *v, size_t n);
double stats_max(const double *v, size_t n);
/*
 * Quantile q in [0, 1] with linear interpolation between order statistics
 * (R's default, type 7; numpy's default): q = 0.5 is the median.
 */
double stats_quantile(const double *v, size_t n, double q);

/* Which way the alternative hypothesis of a test points, for x against y. */
enum stats_alternative {
	STATS_LESS,      /* x tends to be smaller than y */
	STATS_GREATER,   /* x tends to be larger than y */
	STATS_TWO_SIDED,
};

struct stats_mw {
	/*
	 * U of x, as R's wilcox.test calls it W: the number of pairs (x_i, y_j)
	 * with x_i > y_j, ties counting one half. 0 <= u <= nx * ny.
	 */
	double u;
	double p;  /* p-value for the alternative asked */
	int exact; /* 1: exact (conditional on ties) distribution; 0: normal */
	int ties;  /* 1 when some values are equal across the pooled sample */
};

/*
 * Mann-Whitney U (Wilcoxon rank-sum) test of x against y. Exact when
 * nx + ny <= STATS_MW_EXACT_MAX: the permutation distribution of the rank
 * sum is counted by dynamic programming, using mid-ranks when there are ties
 * (the exact conditional test; without ties it is the classic table, the
 * same p as R's wilcox.test(exact = TRUE)). Larger samples use the normal
 * approximation with the tie correction and a continuity correction (R's
 * wilcox.test(exact = FALSE, correct = TRUE)). Two-sided p is twice the
 * smaller one-sided p, at most 1. Returns 0, or -1 when a sample is empty
 * or holds a NAN (no message: the caller knows what the data were).
 */
#define STATS_MW_EXACT_MAX 60
int stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
		       enum stats_alternative alt, struct stats_mw *out);

/*
 * Hodges-Lehmann estimate of the shift of x relative to y: the median of
 * all nx * ny differences x_i - y_j. Robust, and the natural companion of
 * the Mann-Whitney test.
 */
double stats_hodges_lehmann(const double *x, size_t nx, const double *y,
			    size_t ny);

/*
 * The one-sample Hodges-Lehmann estimate of location (the pseudo-median):
 * the median of all n(n+1)/2 averages (x_i + x_j) / 2, i <= j. As
 * efficient as the mean under a normal law (95%) and as robust as the
 * median to one wild value among five or more.
 */
double stats_pseudo_median(const double *x, size_t n);

/*
 * Cliff's delta of x against y: (#(x_i > y_j) - #(x_i < y_j)) / (nx * ny),
 * in [-1, 1]; -1 means every x is below every y.
 */
double stats_cliff_delta(const double *x, size_t nx, const double *y,
			 size_t ny);

/*
 * A tiny deterministic generator (splitmix64) so simulations and any
 * resampling give the same numbers on every machine and every run.
 */
struct stats_rng {
	uint64_t state;
};
#define STATS_RNG_INIT(seed) { (seed) }
uint64_t stats_rng_next(struct stats_rng *r);
/* Uniform in [0, 1). */
double stats_rng_uniform(struct stats_rng *r);
/* Standard normal (Box-Muller). */
double stats_rng_normal(struct stats_rng *r);

#endif
