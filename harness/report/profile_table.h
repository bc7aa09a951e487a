/*
 * profile_table.h: a profile for people (profile.h): the top functions
 * by instructions per MB moved, per request and as a share of all the
 * kernel's; and two profiles' difference in LKP's shape (base, %change,
 * head per function), the total first, then the functions by the
 * absolute change of their instructions per MB. Pure: profiles in,
 * rows and text out.
 */
#ifndef IOBISECT_PROFILE_TABLE_H
#define IOBISECT_PROFILE_TABLE_H

#include "profile.h"
#include "util.h"

#include <jansson.h>

#include <stddef.h>

/* The table of one profile, its `max_rows` top functions. */
void profile_render(const struct profile *p, size_t max_rows,
		    struct strbuf *out);

/* One row of the difference: instructions per MB of base and head. */
struct profile_diff_row {
	const char *name; /* the profiles' own; "[total]" and "[outside the map]" */
	double a, b;	  /* instructions per MB */
	double change_pct; /* NAN where a is 0 (new in head) */
};

struct profile_diff {
	struct profile_diff_row total; /* all the kernel's instructions */
	struct profile_diff_row *rows; /* by |b - a|, largest first */
	size_t nr;
	double rows_sum; /* b - a summed over every function */
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

/*
 * The difference for people: a heading that says what is counted, the
 * total, then at most max_rows functions, each line after `indent`.
 */
void profile_diff_render(const struct profile_diff *d, const char *a_label,
			 const char *b_label, size_t max_rows,
			 const char *indent, struct strbuf *out);

/*
 * The difference for programs: the unit, the total and at most
 * max_rows functions, each {"function", "base_insns_per_mb",
 * "head_insns_per_mb", "change_pct" (null for a new one)}.
 */
json_t *profile_diff_json(const struct profile_diff *d, size_t max_rows);

#endif
