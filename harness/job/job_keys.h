/*
 * job_keys.h: every key of a job file, once: its type, default, range
 * and one line of help, as proto/spec_keys.h lists the keys that reach
 * the guest (and fio its options). The job's defaults (job.c), the checks
 * of its values, `iobisect help job` and the job reference in the docs
 * (docs/job.md, made by `iobisect help job --markdown`) all come from
 * this table. The topology's and the workload's own keys are the guest's
 * (proto/spec_keys.h); a section key here names where they are.
 */
#ifndef IOBISECT_JOB_KEYS_H
#define IOBISECT_JOB_KEYS_H

#include "keypath.h"
#include "util.h"

#include <stdio.h>

enum job_key_type {
	JK_STRING,
	JK_PATH,    /* a string; "~/" is the home folder */
	JK_INT,	    /* min..max */
	JK_BOOL,
	JK_ENUM,    /* one of choices */
	JK_SECTION, /* an object or list read by its own parser */
	JK_SPECIAL, /* a string or number read by its own parser */
};

struct job_key {
	const char *key; /* "machine.cpus": section.name */
	enum job_key_type type;
	const char *def; /* the default as a job would write it; NULL none */
	long long min, max;
	const char *const *choices; /* JK_ENUM, NULL-ended */
	const char *help;
};

/* The table, closed by an entry whose key is NULL. */
extern const struct job_key job_keys[];

/* The entry of `section`.`name` ("" section: the top level), or NULL. */
const struct job_key *job_key_find(const char *section, const char *name);
/*
 * The key names of `section` (NULL-ended, for kp_check_keys): the
 * caller frees the array, not the names.
 */
const char **job_key_names(const char *section);
/* The default of an integer or boolean key (0 when it has none). */
int job_key_default_int(const char *section, const char *name);
/* The default of a number key (0 when it has none). */
double job_key_default_num(const char *section, const char *name);
/* The default of a string or choice key (NULL when it has none). */
const char *job_key_default(const char *section, const char *name);

/* kp_intf with the key's own range. */
int job_key_int(struct keypath *c, json_t *obj, const char *section,
		const char *name, int *out);
/* kp_enumf with the key's own choices; *out the index. */
int job_key_enum(struct keypath *c, json_t *obj, const char *section,
		 const char *name, const char *what, int *out);

/* A key's type in words ("integer", "choice"). */
const char *job_key_type_name(const struct job_key *k);
/* Append its range or its choices; nothing when the type says it all. */
void job_key_range(struct strbuf *out, const struct job_key *k);

/* `iobisect help job`: the table for people, or as Markdown (the docs'). */
void job_keys_print(FILE *f, int markdown);

#endif
