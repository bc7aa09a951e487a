/*
 * job_keys.h: every key of a job file, once: its type, where struct job
 * keeps it, its default, range and one line of help, as
 * proto/spec_keys.h lists the keys that reach the guest (and fio its
 * options, each with the offset it writes). The job's defaults, the
 * reading and checking of its scalar keys (job.c calls job_keys_read
 * for each section), `iobisect help job` and the job reference in the
 * docs (docs/job.md, made by `iobisect help job --markdown`) all come
 * from this table. The topology's and the workload's own keys are the
 * guest's (proto/spec_keys.h); a section key here names where they are.
 */
#ifndef IOBISECT_JOB_KEYS_H
#define IOBISECT_JOB_KEYS_H

#include "keypath.h"
#include "util.h"

#include <stdio.h>

struct job;

enum job_key_type {
	JK_STRING,  /* char *, as written */
	JK_PATH,    /* char *; "~/" is the home folder */
	JK_INT,	    /* int, min..max */
	JK_BOOL,    /* int, 0 or 1 */
	JK_ENUM,    /* int: the index of one of choices */
	JK_CHOICE,  /* char *: one of choices, as written */
	JK_SECTION, /* an object or list read by its own parser */
	JK_SPECIAL, /* a string or number read by the entry's `read` */
};

enum job_key_flags {
	/*
	 * The default is words for people, not a value: the job keeps the
	 * key unset and the code the entry's comment names fills it.
	 */
	JKF_DEF_ELSEWHERE = 1 << 0,
	/* job.c reads it itself, after the keys its value depends on. */
	JKF_READ_ELSEWHERE = 1 << 1,
};

struct job_key {
	const char *key; /* "machine.cpus": section.name */
	enum job_key_type type;
	/*
	 * Where struct job keeps it (an offset); 0, the place of the job
	 * file's own path, for none: a section's parser or nothing reads it.
	 */
	size_t at;
	/* The default as a job would write it (words with JKF_DEF_ELSEWHERE),
	   NULL none. */
	const char *def;
	long long min, max;
	const char *const *choices; /* JK_ENUM, JK_CHOICE: NULL-ended */
	const char *noun; /* JK_ENUM, JK_CHOICE: a value, in messages */
	/* JK_SPECIAL: `v` (the key path at it) into the field; -1 refused. */
	int (*read)(struct keypath *c, json_t *v, void *field);
	unsigned flags; /* enum job_key_flags */
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
/* The default of a number key (0 when it has none). */
double job_key_default_num(const char *section, const char *name);

/*
 * Every key the table places and gives a default, set to that default in
 * `job` (the rest is left as it is: zero, or the caller's).
 */
void job_keys_defaults(struct job *job);
/*
 * Each key of `section` ("" the top level) that the table places and
 * `obj` holds, read and checked into `job`, in the table's order. -1
 * after the one error that names the key.
 */
int job_keys_read(struct keypath *c, json_t *obj, const char *section,
		  struct job *job);

/* A key's type in words ("integer", "choice"). */
const char *job_key_type_name(const struct job_key *k);
/* Append its range or its choices; nothing when the type says it all. */
void job_key_range(struct strbuf *out, const struct job_key *k);

/* `iobisect help job`: the table for people, or as Markdown (the docs'). */
void job_keys_print(FILE *f, int markdown);

#endif
