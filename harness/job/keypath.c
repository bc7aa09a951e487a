/*
 * keypath.c: typed reads of a job's JSON that name the key path in every
 * refusal, and the key_rule check (see keypath.h).
 */
#include "keypath.h"
#include "proto/frame.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

size_t kp_push(struct keypath *c, const char *key)
{
	size_t old = c->path.len;
	if (old)
		strbuf_addch(&c->path, '.');
	strbuf_addstr(&c->path, key);
	return old;
}

size_t kp_push_idx(struct keypath *c, size_t i)
{
	size_t old = c->path.len;
	strbuf_addf(&c->path, "[%zu]", i);
	return old;
}

void kp_pop(struct keypath *c, size_t old)
{
	c->path.len = old;
	if (c->path.alloc)
		c->path.buf[old] = '\0';
}

int kp_fail(struct keypath *c, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	strbuf_addf(&sb, "%s: ", c->origin);
	if (c->path.len)
		strbuf_addf(&sb, "%s: ", c->path.buf);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("%s", sb.buf);
	strbuf_release(&sb);
	return -1;
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d[33][33];
	if (la > 32 || lb > 32)
		return 99;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t m = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < m)
				m = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < m)
				m = d[i][j - 1] + 1;
			d[i][j] = m;
		}
	return d[la][lb];
}

int list_index(const char *s, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(s, list[i]))
			return (int)i;
	return -1;
}

/* Refuse keys outside `allowed`, suggesting the nearest one. */
int kp_check_keys(struct keypath *c, json_t *obj, const char *const *allowed)
{
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		if (list_index(key, allowed) >= 0)
			continue;
		const char *best = NULL;
		size_t best_d = 3;
		for (size_t i = 0; allowed[i]; i++) {
			size_t d = edit_distance(key, allowed[i]);
			/* "memory" for "memory_mb": a unit left out. */
			if (strlen(key) >= 3 &&
			    !strncmp(key, allowed[i], strlen(key)))
				d = 1;
			if (d < best_d) {
				best_d = d;
				best = allowed[i];
			}
		}
		if (best)
			return kp_fail(c,
				       "unknown key '%s' (did you mean '%s'?)",
				       key, best);
		return kp_fail(c, "unknown key '%s'", key);
	}
	return 0;
}

int kp_int(struct keypath *c, json_t *v, long long min, long long max,
	   long long *out)
{
	/*
	 * A whole number past what JSON's integers hold (2^63) arrives as
	 * a real: it is a number out of range, not a number of another kind.
	 */
	double r = json_real_value(v);
	if (json_is_real(v) && isfinite(r) && r == trunc(r) &&
	    (r < (double)min || r > (double)max))
		return kp_fail(c, "%.0f is out of range (%lld..%lld)", r, min,
			       max);
	if (!json_is_integer(v))
		return kp_fail(c, "expected %s",
			       min >= 1	  ? "a positive integer"
			       : min == 0 ? "a non-negative integer"
					  : "an integer");
	long long x = json_integer_value(v);
	if (x < min || x > max)
		return kp_fail(c, "%lld is out of range (%lld..%lld)", x, min,
			       max);
	*out = x;
	return 0;
}

int kp_intf(struct keypath *c, json_t *obj, const char *key, long long min,
	    long long max, int *out)
{
	json_t *v = json_object_get(obj, key);
	long long x;
	if (!v)
		return 0;
	size_t old = kp_push(c, key);
	int ret = kp_int(c, v, min, max, &x);
	kp_pop(c, old);
	if (!ret)
		*out = (int)x;
	return ret;
}

int kp_str(struct keypath *c, json_t *v, const char **out)
{
	if (!json_is_string(v))
		return kp_fail(c, "expected a string");
	if (!*json_string_value(v))
		return kp_fail(c, "must not be empty");
	*out = json_string_value(v);
	return 0;
}

/* An optional string member, duplicated into *out (replacing it). */
int kp_strf(struct keypath *c, json_t *obj, const char *key, char **out)
{
	json_t *v = json_object_get(obj, key);
	const char *s;
	if (!v)
		return 0;
	size_t old = kp_push(c, key);
	int ret = kp_str(c, v, &s);
	kp_pop(c, old);
	if (ret)
		return -1;
	free(*out);
	*out = xstrdup(s);
	return 0;
}

/* ", "-joined choices, for the message that lists them. */
static char *choices_text(const char *const *choices)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t k = 0; choices[k]; k++)
		strbuf_addf(&sb, "%s%s", k ? ", " : "", choices[k]);
	return strbuf_detach(&sb);
}

int kp_enum(struct keypath *c, json_t *v, const char *const *choices,
	    const char *noun, int *out)
{
	const char *s;
	if (kp_str(c, v, &s))
		return -1;
	int i = list_index(s, choices);
	if (i < 0) {
		char *all = choices_text(choices);
		kp_fail(c, "unknown %s '%s' (expected %s)", noun, s, all);
		free(all);
		return -1;
	}
	*out = i;
	return 0;
}

int kp_enumf(struct keypath *c, json_t *obj, const char *key,
	     const char *const *choices, const char *noun, int *out)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return 0;
	size_t old = kp_push(c, key);
	int ret = kp_enum(c, v, choices, noun, out);
	kp_pop(c, old);
	return ret;
}

int kp_boolf(struct keypath *c, json_t *obj, const char *key, int *out)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return 0;
	if (!json_is_boolean(v)) {
		size_t old = kp_push(c, key);
		kp_fail(c, "expected true or false");
		kp_pop(c, old);
		return -1;
	}
	*out = json_is_true(v);
	return 0;
}

/* "~/x" -> "$HOME/x", so job files can name the cache's fixture repo. */
char *job_expand_home(const char *s)
{
	const char *home = getenv("HOME");
	if (s[0] == '~' && s[1] == '/' && home)
		return xstrfmt("%s%s", home, s + 1);
	return xstrdup(s);
}

/* Names of jobs, topologies, disks, layers: safe in paths and spec words. */
int job_valid_name(const char *s, size_t max)
{
	size_t n = strlen(s);
	if (!n || n > max || s[0] == '.' || s[0] == '-')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-", *s))
			return 0;
	return 1;
}

/* A value that can stand as one spec word: printable, no blanks. */
int job_valid_word(const char *s)
{
	size_t n = strlen(s);
	if (!n || n > 255)
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return 0;
	return 1;
}

/* A JSON scalar as spec text: 5, "0.90", true -> 1. */
int kp_word(struct keypath *c, json_t *v, struct strbuf *out)
{
	if (json_is_integer(v))
		strbuf_addf(out, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		strbuf_addf(out, "%g", json_real_value(v));
	else if (json_is_boolean(v))
		strbuf_addstr(out, json_is_true(v) ? "1" : "0");
	else if (json_is_string(v))
		strbuf_addstr(out, json_string_value(v));
	else
		return kp_fail(c, "expected a number or a string");
	if (!job_valid_word(out->buf))
		return kp_fail(c, "'%s' cannot contain blanks or be empty",
			       out->buf);
	if (out->len > PROTO_SPEC_MAX_VALUE)
		return kp_fail(c,
			       "'%.32s...' is longer than the guest takes (%d "
			       "bytes)",
			       out->buf, PROTO_SPEC_MAX_VALUE);
	return 0;
}
const struct key_rule *key_rule_find(const struct key_rule *rules,
				     const char *key)
{
	for (; rules->key; rules++)
		if (!strcmp(rules->key, key))
			return rules;
	return NULL;
}

int kp_rule_value(struct keypath *c, const struct key_rule *r, json_t *v,
		  struct strbuf *out)
{
	strbuf_reset(out);
	switch (r->check) {
	case K_INT:
	case K_POW2: {
		long long x;
		if (kp_int(c, v, r->min, r->max, &x))
			return -1;
		if (r->check == K_POW2 && (x & (x - 1)))
			return kp_fail(c, "%lld is not a power of two", x);
		strbuf_addf(out, "%lld", x);
		return 0;
	}
	case K_ENUM:
		if (kp_word(c, v, out))
			return -1;
		if (list_index(out->buf, r->choices) < 0) {
			char *all = choices_text(r->choices);
			kp_fail(c, "'%s' is not one of %s", out->buf, all);
			free(all);
			return -1;
		}
		return 0;
	case K_CHOICE: {
		int i;
		if (kp_enum(c, v, r->choices, r->key, &i))
			return -1;
		strbuf_addstr(out, r->choices[i]);
		return 0;
	}
	case K_BOOL:
		if (json_is_boolean(v))
			strbuf_addstr(out, json_is_true(v) ? "1" : "0");
		else if (json_is_integer(v) && (json_integer_value(v) == 0 ||
						json_integer_value(v) == 1))
			strbuf_addf(out, "%d", (int)json_integer_value(v));
		else
			return kp_fail(c, "expected true, false, 0 or 1");
		return 0;
	case K_REAL: {
		if (!json_is_number(v))
			return kp_fail(c, "expected a number");
		double x = json_number_value(v);
		if (!(x > r->min && x <= r->max))
			return kp_fail(c,
				       "%g is out of range (above %lld, at "
				       "most %lld)",
				       x, r->min, r->max);
		strbuf_addf(out, "%g", x);
		return 0;
	}
	case K_PATH:
		if (!json_is_string(v))
			return kp_fail(c, "expected an absolute path");
		if (kp_word(c, v, out))
			return -1;
		if (out->buf[0] != '/')
			return kp_fail(c, "'%s' is not an absolute path",
				       out->buf);
		return 0;
	default:
		if (!json_is_string(v))
			return kp_fail(c, "expected a string");
		return kp_word(c, v, out);
	}
}

/* Words given as "a,b" or ["a", "b"], joined with commas. */
int kp_words(struct keypath *c, json_t *v, struct strbuf *out)
{
	struct strbuf one = STRBUF_INIT;
	strbuf_reset(out);
	if (json_is_string(v)) {
		strbuf_release(&one);
		return kp_word(c, v, out);
	}
	if (!json_is_array(v) || !json_array_size(v))
		return kp_fail(c, "expected a non-empty list of strings");
	for (size_t i = 0; i < json_array_size(v); i++) {
		size_t old = kp_push_idx(c, i);
		json_t *e = json_array_get(v, i);
		strbuf_reset(&one);
		if (!json_is_string(e)) {
			kp_fail(c, "expected a string");
			goto bad;
		}
		if (kp_word(c, e, &one) || strchr(one.buf, ','))
			goto bad;
		kp_pop(c, old);
		strbuf_addf(out, "%s%s", i ? "," : "", one.buf);
		continue;
	bad:
		if (strchr(one.buf, ','))
			kp_fail(c, "'%s' cannot contain a comma", one.buf);
		kp_pop(c, old);
		strbuf_release(&one);
		return -1;
	}
	strbuf_release(&one);
	return 0;
}

int kp_kver_range(struct keypath *c, json_t *obj, struct kver_range *r)
{
	const char *keys[] = {"min", "max"};
	for (int i = 0; i < 2; i++) {
		json_t *v = json_object_get(obj, keys[i]);
		const char *s;
		if (!v)
			continue;
		size_t old = kp_push(c, keys[i]);
		if (kp_str(c, v, &s)) {
			kp_pop(c, old);
			return -1;
		}
		unsigned k = i ? kver_parse_max(s) : kver_parse(s);
		if (!k) {
			kp_fail(c, "'%s' is not a kernel version", s);
			kp_pop(c, old);
			return -1;
		}
		kp_pop(c, old);
		if (i)
			r->max = k;
		else
			r->min = k;
	}
	if (r->min && r->max && r->min > r->max)
		return kp_fail(c, "min is above max");
	return 0;
}
