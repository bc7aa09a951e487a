/*
 * profile_table.h: a profile for people (profile.h): the top functions
 * by instructions per MB moved, per request and as a share of all the
 * kernel's; and two profiles' difference in LKP's shape (base, %change,
 * head per function), the total first, then the functions by the
 * absolute change of their instructions per MB. Pure: profiles in,
 * rows and text out. The difference itself is profile_diff.h's.
 */
#ifndef IOBISECT_PROFILE_TABLE_H
#define IOBISECT_PROFILE_TABLE_H

#include "profile.h"
#include "profile_diff.h"
#include "util.h"

#include <jansson.h>

#include <stddef.h>

/* The table of one profile, its `max_rows` top functions. */
void profile_render(const struct profile *p, size_t max_rows,
		    struct strbuf *out);

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
