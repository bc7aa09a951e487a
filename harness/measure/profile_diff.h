/*
 * profile_diff.h: two profiles' difference (profile.h), base against
 * head: instructions per MB of every function either has, the total
 * first, the functions by the absolute change of their instructions per
 * MB. Pure; rendered for people and programs by profile_table.h.
 */
#ifndef IOBISECT_PROFILE_DIFF_H
#define IOBISECT_PROFILE_DIFF_H

#include "profile.h"

#include <stddef.h>

/* One row of the difference: instructions per MB of base and head. */
struct profile_diff_row {
	char *name;	   /* "[all kernel]", "[outside System.map]" or one */
	double a, b;	   /* instructions per MB */
	double change_pct; /* NAN where a is 0 (new in head) */
};

struct profile_diff {
	struct profile_diff_row total; /* all the kernel's instructions */
	struct profile_diff_row *rows; /* by |b - a|, largest first */
	size_t nr;
	double rows_sum; /* b - a summed over every row */
};
#define PROFILE_DIFF_INIT { { NULL, 0, 0, 0 }, NULL, 0, 0 }
void profile_diff_release(struct profile_diff *d);

/*
 * Base `a` against head `b`: a row for every function either has (the
 * instructions outside the map one more), so the rows' changes add up
 * to the total's. 0, or -1 after error() when either moved no bytes.
 */
int profile_diff(struct profile_diff *out, const struct profile *a,
		 const struct profile *b);

#endif
