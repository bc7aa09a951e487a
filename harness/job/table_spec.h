/*
 * table_spec.h: what a job's "table" asks of `iobisect run`'s table
 * (table.h lays the medians out by it; job_table.c reads it from the
 * job file). The job holds it, so it lives with the job's words.
 */
#ifndef IOBISECT_TABLE_SPEC_H
#define IOBISECT_TABLE_SPEC_H

#include "util.h"

/* What the job's "table" asks for; every field optional. */
struct table_spec {
	char *title;
	struct strvec rows; /* keys: a point's, a topology's, or "metric" */
	char *columns;	    /* one key; NULL: "metric" */
	/* "key=label" and "key=divisor" (RASize in 4 KiB pages: ra_kb / 4) */
	struct strvec labels, divide;
	int cpu; /* a %CPU column beside each MB/s */
};

void table_spec_release(struct table_spec *s);

/*
 * The value of `key` in a name made of "k=v" words joined with commas
 * ("raid5-4,bitmap=1", "threads=2,bs_kb=11"); a word without '=' (the
 * topology's own name) has no key. NULL when absent; caller frees.
 */
char *table_spec_name_value(const char *name, const char *key);
/* Does `name` hold `key`? */
int table_spec_name_has(const char *name, const char *key);

#endif
