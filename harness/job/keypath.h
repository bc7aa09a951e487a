/*
 * keypath.h: reading a job's JSON with the path of every value at hand,
 * so each refusal is one line naming the file and the key
 * ("demo.json: workload.threads[1]: 0 is out of range (1..256)"), and the
 * one way job files check a key's value: a table of struct key_rule, as
 * proto/spec_keys.h lists them for the keys that reach the guest.
 */
#ifndef IOBISECT_KEYPATH_H
#define IOBISECT_KEYPATH_H

#include "kver.h"
#include "util.h"

#include <jansson.h>

/* Where we are in the JSON, for messages: "workload.threads[1]". */
struct keypath {
	const char *origin; /* the file, named first in every message */
	struct strbuf path;
};

/* Enter `key` (or list index `i`); returns what kp_pop takes to leave it. */
size_t kp_push(struct keypath *c, const char *key);
size_t kp_push_idx(struct keypath *c, size_t i);
void kp_pop(struct keypath *c, size_t old);
/* error() "<origin>: <path>: <message>"; returns -1. */
__attribute__((format(printf, 2, 3))) int kp_fail(struct keypath *c,
						  const char *fmt, ...);

/* Refuse keys of `obj` outside `allowed`, suggesting the nearest one. */
int kp_check_keys(struct keypath *c, json_t *obj, const char *const *allowed);
/* Typed values; the ...f forms read an optional member `key` of `obj`. */
int kp_int(struct keypath *c, json_t *v, long long min, long long max,
	   long long *out);
int kp_intf(struct keypath *c, json_t *obj, const char *key, long long min,
	    long long max, int *out);
int kp_str(struct keypath *c, json_t *v, const char **out);
int kp_strf(struct keypath *c, json_t *obj, const char *key, char **out);
/* A string among `choices` (NULL-ended); *out is its index. */
int kp_enum(struct keypath *c, json_t *v, const char *const *choices,
	    const char *noun, int *out);
/* An optional member among `choices`; *out is left alone when absent. */
int kp_enumf(struct keypath *c, json_t *obj, const char *key,
	     const char *const *choices, const char *noun, int *out);
/* An optional true or false member; *out is left alone when absent. */
int kp_boolf(struct keypath *c, json_t *obj, const char *key, int *out);
/* A JSON scalar as one spec word: 5, "0.90", true -> 1. */
int kp_word(struct keypath *c, json_t *v, struct strbuf *out);
/* Words given as "a,b" or ["a", "b"], joined with commas. */
int kp_words(struct keypath *c, json_t *v, struct strbuf *out);

/* How a key's value is checked (the check column of proto/spec_keys.h). */
enum key_check {
	K_NAME,	  /* this layer's name */
	K_REF,	  /* an earlier disk or layer ("file:<path>" for loop) */
	K_REFS,	  /* a list of earlier disks or layers, joined with commas */
	K_INT,	  /* integer in [min, max] */
	K_POW2,	  /* power-of-two integer in [min, max] */
	K_ENUM,	  /* one of choices (numbers compared as text) */
	K_CHOICE, /* a string, one of choices */
	K_PATH,	  /* absolute path */
	K_ARGS,	  /* a word or a list of words, joined with commas */
	K_BOOL,	  /* true, false, 0 or 1 */
	K_REAL,	  /* number in (min, max] */
	K_WORD,	  /* any one spec word */
};

struct key_rule {
	const char *key;
	enum key_check check;
	long long min, max;
	const char *const *choices;
	int required;
};

/* A key_rule from a proto/spec_keys.h row. */
#define KEY_RULE(key, check, min, max, choices, required)                      \
	{#key, K_##check, min, max, choices, required},
#define KEY_RULES_END                                                          \
	{                                                                      \
		NULL, 0, 0, 0, NULL, 0                                         \
	}

const struct key_rule *key_rule_find(const struct key_rule *rules,
				     const char *key);
/* Check one scalar value `v` against `r`, giving its spec text. */
int kp_rule_value(struct keypath *c, const struct key_rule *r, json_t *v,
		  struct strbuf *out);

/* Index of `s` in the NULL-ended `list`, or -1. */
int list_index(const char *s, const char *const *list);
/* "~/x" -> "$HOME/x", so job files can name the cache's fixture repo. */
char *job_expand_home(const char *s);
/* Names of jobs, topologies, disks, layers: safe in paths and spec words. */
int job_valid_name(const char *s, size_t max);
/* A value that can stand as one spec word: printable, no blanks. */
int job_valid_word(const char *s);

/* "min" and "max" kernel versions of a rule (`obj`) into *r. */
int kp_kver_range(struct keypath *c, json_t *obj, struct kver_range *r);

#endif
