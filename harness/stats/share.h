/*
 * share.h: the accounting beside an answer. How much of the endpoints'
 * drop one change explains (the culprit against its parent, set against
 * bad against good, as log ratios so two changes add up), what is left,
 * and whether what is left is more than the noise: another change in the
 * range (a second regression, or a later partial fix when the change
 * explains more than all of the drop). And whether two commits' levels
 * differ beyond the noise, which says whether a part of the range holds
 * a change still to find (driver_changes.c). Pure.
 */
#ifndef IOBISECT_SHARE_H
#define IOBISECT_SHARE_H

#include <stddef.h>

/*
 * What two levels may differ by before it is more than the noise: in
 * standard errors of their difference (one in 370 by chance for a
 * normal law).
 */
#define SHARE_REST_SE 3.0

/* A commit's level: the median of its boots (bytes/s) and their number. */
struct share_level {
	double median;
	size_t n;
};

struct share_input {
	struct share_level good, bad;	   /* the endpoints */
	struct share_level parent, culprit; /* the change */
	/* One boot's spread, ln units (no quieter than the clock's prior). */
	double sigma;
	/*
	 * The culprit's image is its parent's byte for byte: it changed
	 * nothing, whatever its boots read, and explains none of the drop.
	 */
	int same_image;
};

struct share {
	double endpoints_pct; /* bad against good */
	double culprit_pct;   /* the culprit against its parent */
	double explains_pct;  /* of the endpoints' drop, in log ratio */
	double rest_pct;      /* what it leaves: 100 - explains_pct */
	/* The rest is more than SHARE_REST_SE standard errors. */
	int rest_beyond_noise;
};

/*
 * The culprit's share of the endpoints' drop. 0, or -1 when a level is
 * missing (no boots, not above 0) or the endpoints read the same.
 */
int share_account(struct share *out, const struct share_input *in);

/*
 * Do levels a and b differ by more than SHARE_REST_SE standard errors of
 * their difference, at one boot's spread `sigma`? 0 when either has no
 * boots.
 */
int share_levels_differ(const struct share_level *a,
			const struct share_level *b, double sigma);

#endif
