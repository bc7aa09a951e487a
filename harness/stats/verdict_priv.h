/*
 * verdict_priv.h: what verdict.c (a commit's verdict, the endpoints')
 * shares with verdict_pairs.c (the answer's pairs); nothing else
 * includes it.
 */
#ifndef IOBISECT_VERDICT_PRIV_H
#define IOBISECT_VERDICT_PRIV_H

#include "verdict.h"

#include <stddef.h>

#define MB 1e6

/*
 * One side of a test: the half-line of levels beyond `edge` (above it for
 * fast, below for slow), Student-t of scale `se` (verdict.c's side_loglik
 * says how it explains a value).
 */
struct side_law {
	double edge, se;
	int fast;
	double rate; /* of values in the slower mode, 0: a level held still */
};

/* A reason into a fixed buffer, cut short rather than failing. */
__attribute__((format(printf, 3, 4))) void verdict_fmt(char *buf, size_t size,
						       const char *fmt, ...);
/* The figures every verdict reports, whatever it decides. */
void verdict_describe_sides(struct verdict *out, const double *base, size_t nb,
			    const double *cand, size_t nc);
/* Wald's bound ln((1 - e) / e) for the error asked (the default if none). */
double verdict_error_bound(double e);
/* The share of boots that read anything: never below the floor. */
double verdict_wild_rate(const struct noise_model *nm);
/* `llr` within what `n` boots at wild rate h can carry. */
double verdict_cap_evidence(double llr, size_t n, double h);
/* What one value says, slow (or right) against fast (or wrong). */
double verdict_value_llr(double y, const struct side_law *slow,
			 const struct side_law *fast, double nu,
			 const double *shift, size_t nr, double h);
/* 1 / (1 + e^|llr|), without overflow. */
double verdict_posterior_error(double llr);
/* The edges of the fast and slow sides from level g and the line. */
void verdict_side_edges(double *fast, double *slow, double g, double line,
			int is_auto);

#endif
