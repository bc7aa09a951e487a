/*
 * job.c: the job file. Parses the JSON (jansson) into struct job, checks
 * every key against what the harness and the guest understand, resolves
 * topology presets (qemu/<name>.json) and expands lists into topologies and
 * matrix points. Any problem is one error() naming the file and the key
 * path, because a typo in a job must cost seconds, not a kernel build.
 */
#include "job.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where we are in the JSON, for messages: "workload.threads[1]". */
struct ctx {
	const char *origin;
	struct strbuf path;
};

static size_t push(struct ctx *c, const char *key)
{
	size_t old = c->path.len;
	if (old)
		strbuf_addch(&c->path, '.');
	strbuf_addstr(&c->path, key);
	return old;
}

static size_t push_idx(struct ctx *c, size_t i)
{
	size_t old = c->path.len;
	strbuf_addf(&c->path, "[%zu]", i);
	return old;
}

static void pop(struct ctx *c, size_t old)
{
	c->path.len = old;
	if (c->path.alloc)
		c->path.buf[old] = '\0';
}

__attribute__((format(printf, 2, 3))) static int fail(struct ctx *c,
						      const char *fmt, ...)
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

static int in_list(const char *s, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(s, list[i]))
			return (int)i;
	return -1;
}

/* Refuse keys outside `allowed`, suggesting the nearest one. */
static int check_keys(struct ctx *c, json_t *obj, const char *const *allowed)
{
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		if (in_list(key, allowed) >= 0)
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
			return fail(c, "unknown key '%s' (did you mean '%s'?)",
				    key, best);
		return fail(c, "unknown key '%s'", key);
	}
	return 0;
}

static int get_int(struct ctx *c, json_t *v, long long min, long long max,
		   long long *out)
{
	if (!json_is_integer(v))
		return fail(c, "expected %s",
			    min >= 1   ? "a positive integer"
			    : min == 0 ? "a non-negative integer"
				       : "an integer");
	long long x = json_integer_value(v);
	if (x < min || x > max)
		return fail(c, "%lld is out of range (%lld..%lld)", x, min,
			    max);
	*out = x;
	return 0;
}

static int get_intf(struct ctx *c, json_t *obj, const char *key, long long min,
		    long long max, int *out)
{
	json_t *v = json_object_get(obj, key);
	long long x;
	if (!v)
		return 0;
	size_t old = push(c, key);
	int ret = get_int(c, v, min, max, &x);
	pop(c, old);
	if (!ret)
		*out = (int)x;
	return ret;
}

static int get_str(struct ctx *c, json_t *v, const char **out)
{
	if (!json_is_string(v))
		return fail(c, "expected a string");
	if (!*json_string_value(v))
		return fail(c, "must not be empty");
	*out = json_string_value(v);
	return 0;
}

/* An optional string member, duplicated into *out (replacing it). */
static int get_strf(struct ctx *c, json_t *obj, const char *key, char **out)
{
	json_t *v = json_object_get(obj, key);
	const char *s;
	if (!v)
		return 0;
	size_t old = push(c, key);
	int ret = get_str(c, v, &s);
	pop(c, old);
	if (ret)
		return -1;
	free(*out);
	*out = xstrdup(s);
	return 0;
}

static int get_enum(struct ctx *c, json_t *v, const char *const *choices,
		    const char *noun, int *out)
{
	const char *s;
	if (get_str(c, v, &s))
		return -1;
	int i = in_list(s, choices);
	if (i < 0) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t k = 0; choices[k]; k++)
			strbuf_addf(&sb, "%s%s", k ? ", " : "", choices[k]);
		fail(c, "unknown %s '%s' (expected %s)", noun, s, sb.buf);
		strbuf_release(&sb);
		return -1;
	}
	*out = i;
	return 0;
}

/* "~/x" -> "$HOME/x", so job files can name the cache's fixture repo. */
static char *expand_home(const char *s)
{
	const char *home = getenv("HOME");
	if (s[0] == '~' && s[1] == '/' && home)
		return xstrfmt("%s%s", home, s + 1);
	return xstrdup(s);
}

/* Names of jobs, topologies, disks, layers: safe in paths and spec words. */
static int valid_name(const char *s, size_t max)
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
static int valid_word(const char *s)
{
	size_t n = strlen(s);
	if (!n || n > 255)
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return 0;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Kernel versions. */

unsigned kver_parse(const char *s)
{
	unsigned v[3] = { 0, 0, 0 };
	int n = 0;
	if (!s)
		return 0;
	if (*s == 'v')
		s++;
	while (n < 3 && isdigit((unsigned char)*s)) {
		unsigned long x = strtoul(s, (char **)&s, 10);
		if (x > 255)
			return 0;
		v[n++] = (unsigned)x;
		if (n == 3 || *s != '.' || !isdigit((unsigned char)s[1]))
			break;
		s++;
	}
	if (n < 2 || (*s && isdigit((unsigned char)*s)))
		return 0;
	/* Whatever follows (".8", "-rc3", "+") does not change the order. */
	if (*s && *s != '.' && *s != '-' && *s != '+' && *s != '_')
		return 0;
	return KVER(v[0], v[1], v[2]);
}

int kver_in_range(unsigned v, const struct kver_range *r)
{
	return (!r->min || v >= r->min) && (!r->max || v <= r->max);
}

/* A range's "max": "3.2" covers every 3.2.x, so it means 3.2.255. */
static unsigned kver_parse_max(const char *s)
{
	unsigned v = kver_parse(s);
	const char *p = s + (*s == 'v');
	int dots = 0;
	for (; *p && (isdigit((unsigned char)*p) || *p == '.'); p++)
		dots += *p == '.';
	if (v && dots < 2)
		v |= 255;
	return v;
}

static int get_range(struct ctx *c, json_t *obj, struct kver_range *r)
{
	const char *keys[] = { "min", "max" };
	for (int i = 0; i < 2; i++) {
		json_t *v = json_object_get(obj, keys[i]);
		const char *s;
		if (!v)
			continue;
		size_t old = push(c, keys[i]);
		if (get_str(c, v, &s)) {
			pop(c, old);
			return -1;
		}
		unsigned k = i ? kver_parse_max(s) : kver_parse(s);
		if (!k) {
			fail(c, "'%s' is not a kernel version", s);
			pop(c, old);
			return -1;
		}
		pop(c, old);
		if (i)
			r->max = k;
		else
			r->min = k;
	}
	if (r->min && r->max && r->min > r->max)
		return fail(c, "min is above max");
	return 0;
}

/* ------------------------------------------------------------------ */
/* Data folder. */

static int has_data(const char *dir)
{
	struct stat st;
	char *q = xstrfmt("%s/qemu", dir), *k = xstrfmt("%s/kconfigs", dir);
	int ok = !stat(q, &st) && S_ISDIR(st.st_mode) && !stat(k, &st) &&
		 S_ISDIR(st.st_mode);
	free(q);
	free(k);
	return ok;
}

const char *job_data_dir(void)
{
	static char *exe_dir;
	static int looked;
	const char *env = getenv("IOBISECT_DATA");
	if (env && *env)
		return env;
	if (!looked) {
		char buf[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
		looked = 1;
		if (n > 0) {
			buf[n] = '\0';
			char *slash = strrchr(buf, '/');
			if (slash) {
				*slash = '\0';
				if (has_data(buf))
					exe_dir = xstrdup(buf);
			}
		}
	}
	return exe_dir ? exe_dir : ".";
}

/* ------------------------------------------------------------------ */
/* Topologies. */

/* How a layer key's value is checked. */
enum vkind {
	V_NAME,  /* this layer's name */
	V_REF,   /* an earlier disk or layer ("file:<path>" for loop) */
	V_REFS,  /* a list of earlier disks or layers, joined with commas */
	V_INT,   /* integer in [min, max] */
	V_POW2,  /* power-of-two integer in [min, max] */
	V_ENUM,  /* one of choices (numbers compared as text) */
	V_PATH,  /* absolute path */
	V_ARGS,  /* a word or a list of words, joined with commas */
};

struct key_rule {
	const char *key;
	enum vkind kind;
	long long min, max;
	const char *const *choices;
	int required;
};

static const char *const md_levels[] = { "0", "5", NULL };
static const char *const md_metadata[] = { "0.90", "1.0", "1.2", NULL };
static const char *const md_layouts[] = { "left-symmetric", "right-symmetric",
					  "left-asymmetric",
					  "right-asymmetric", NULL };
static const char *const bool01[] = { "0", "1", NULL };
static const char *const md_methods[] = { "ioctl", "mdadm", NULL };
static const char *const dm_methods[] = { "ioctl", "dmsetup", NULL };
/* ioctl-setfd forces the pre-5.8 LOOP_SET_FD route, to test it on new kernels. */
static const char *const loop_methods[] = { "ioctl", "ioctl-setfd", "losetup",
					      NULL };
static const char *const fs_types[] = { "ext4", "ext3", "xfs", NULL };

#define MB_MAX (1LL << 24)

static const struct key_rule part_rules[] = {
	{ "name", V_NAME, 0, 0, NULL, 1 },
	{ "on", V_REF, 0, 0, NULL, 1 },
	{ "start_mb", V_INT, 0, MB_MAX, NULL, 0 },
	{ "size_mb", V_INT, 1, MB_MAX, NULL, 1 },
	{ NULL, 0, 0, 0, NULL, 0 },
};
static const struct key_rule md_rules[] = {
	{ "name", V_NAME, 0, 0, NULL, 1 },
	{ "level", V_ENUM, 0, 0, md_levels, 1 },
	{ "chunk_kb", V_POW2, 4, 65536, NULL, 0 },
	{ "members", V_REFS, 0, 0, NULL, 1 },
	{ "metadata", V_ENUM, 0, 0, md_metadata, 0 },
	{ "layout", V_ENUM, 0, 0, md_layouts, 0 },
	{ "bitmap", V_ENUM, 0, 0, bool01, 0 },
	{ "bitmap_chunk_kb", V_POW2, 4, 1LL << 22, NULL, 0 },
	{ "stripe_cache", V_INT, 17, 32768, NULL, 0 },
	{ "method", V_ENUM, 0, 0, md_methods, 0 },
	{ NULL, 0, 0, 0, NULL, 0 },
};
static const struct key_rule dm_rules[] = {
	{ "name", V_NAME, 0, 0, NULL, 1 },
	{ "on", V_REF, 0, 0, NULL, 1 },
	{ "method", V_ENUM, 0, 0, dm_methods, 0 },
	{ NULL, 0, 0, 0, NULL, 0 },
};
static const struct key_rule loop_rules[] = {
	{ "name", V_NAME, 0, 0, NULL, 1 },
	{ "on", V_REF, 0, 0, NULL, 1 },
	{ "method", V_ENUM, 0, 0, loop_methods, 0 },
	{ NULL, 0, 0, 0, NULL, 0 },
};
static const struct key_rule fs_rules[] = {
	{ "name", V_NAME, 0, 0, NULL, 1 },
	{ "on", V_REF, 0, 0, NULL, 1 },
	{ "type", V_ENUM, 0, 0, fs_types, 1 },
	{ "mount", V_PATH, 0, 0, NULL, 0 },
	{ "mkfs_args", V_ARGS, 0, 0, NULL, 0 },
	{ NULL, 0, 0, 0, NULL, 0 },
};

static const char *const layer_kinds[] = { "part", "md", "dm", "loop", "fs",
					   NULL };
static const struct key_rule *const kind_rules[] = { part_rules, md_rules,
						     dm_rules, loop_rules,
						     fs_rules };

static const struct key_rule *find_rule(const struct key_rule *rules,
					const char *key)
{
	for (; rules->key; rules++)
		if (!strcmp(rules->key, key))
			return rules;
	return NULL;
}

/* One layer key before expansion: a scalar, or a list to expand over. */
struct draft_key {
	char *key;
	struct strvec values; /* one value, or several when expanding */
	int expand;
};

struct draft_layer {
	int kind; /* index in layer_kinds */
	char *name;
	struct draft_key *keys;
	size_t nr_keys, alloc_keys;
};

struct draft {
	char *name;
	struct disk_spec *disks;
	size_t nr_disks, alloc_disks;
	struct draft_layer *layers;
	size_t nr_layers, alloc_layers;
};

static void disk_release(struct disk_spec *d)
{
	free(d->name);
	free(d->path);
	free(d->cache);
}

static void draft_layer_release(struct draft_layer *l)
{
	for (size_t i = 0; i < l->nr_keys; i++) {
		free(l->keys[i].key);
		strvec_clear(&l->keys[i].values);
	}
	free(l->keys);
	free(l->name);
}

static void draft_release(struct draft *d)
{
	for (size_t i = 0; i < d->nr_disks; i++)
		disk_release(&d->disks[i]);
	free(d->disks);
	for (size_t i = 0; i < d->nr_layers; i++)
		draft_layer_release(&d->layers[i]);
	free(d->layers);
	free(d->name);
	memset(d, 0, sizeof(*d));
}

/* A JSON scalar as spec text: 5, "0.90", true -> 1. */
static int scalar_text(struct ctx *c, json_t *v, struct strbuf *out)
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
		return fail(c, "expected a number or a string");
	if (!valid_word(out->buf))
		return fail(c, "'%s' cannot contain blanks or be empty",
			    out->buf);
	if (out->len > PROTO_SPEC_MAX_VALUE)
		return fail(c, "'%.32s...' is longer than the guest takes (%d "
			       "bytes)",
			    out->buf, PROTO_SPEC_MAX_VALUE);
	return 0;
}

static int name_known(const struct draft *d, size_t nr_layers, const char *n)
{
	for (size_t i = 0; i < d->nr_disks; i++)
		if (!strcmp(d->disks[i].name, n))
			return 1;
	for (size_t i = 0; i < nr_layers && i < d->nr_layers; i++)
		if (d->layers[i].name && !strcmp(d->layers[i].name, n))
			return 1;
	return 0;
}

/* Check one scalar layer value `v` against `r`, giving its text. */
static int layer_value(struct ctx *c, const struct key_rule *r, json_t *v,
		       struct strbuf *out)
{
	strbuf_reset(out);
	switch (r->kind) {
	case V_INT:
	case V_POW2: {
		long long x;
		if (get_int(c, v, r->min, r->max, &x))
			return -1;
		if (r->kind == V_POW2 && (x & (x - 1)))
			return fail(c, "%lld is not a power of two", x);
		strbuf_addf(out, "%lld", x);
		return 0;
	}
	case V_ENUM:
		if (scalar_text(c, v, out))
			return -1;
		if (in_list(out->buf, r->choices) < 0) {
			struct strbuf sb = STRBUF_INIT;
			for (size_t k = 0; r->choices[k]; k++)
				strbuf_addf(&sb, "%s%s", k ? ", " : "",
					    r->choices[k]);
			fail(c, "'%s' is not one of %s", out->buf, sb.buf);
			strbuf_release(&sb);
			return -1;
		}
		return 0;
	case V_PATH:
		if (!json_is_string(v))
			return fail(c, "expected an absolute path");
		if (scalar_text(c, v, out))
			return -1;
		if (out->buf[0] != '/')
			return fail(c, "'%s' is not an absolute path",
				    out->buf);
		return 0;
	default:
		if (!json_is_string(v))
			return fail(c, "expected a string");
		return scalar_text(c, v, out);
	}
}

/* Words given as "a,b" or ["a", "b"], joined with commas. */
static int word_list(struct ctx *c, json_t *v, struct strbuf *out)
{
	struct strbuf one = STRBUF_INIT;
	strbuf_reset(out);
	if (json_is_string(v)) {
		strbuf_release(&one);
		return scalar_text(c, v, out);
	}
	if (!json_is_array(v) || !json_array_size(v))
		return fail(c, "expected a non-empty list of strings");
	for (size_t i = 0; i < json_array_size(v); i++) {
		size_t old = push_idx(c, i);
		json_t *e = json_array_get(v, i);
		strbuf_reset(&one);
		if (!json_is_string(e)) {
			fail(c, "expected a string");
			goto bad;
		}
		if (scalar_text(c, e, &one) || strchr(one.buf, ','))
			goto bad;
		pop(c, old);
		strbuf_addf(out, "%s%s", i ? "," : "", one.buf);
		continue;
	bad:
		if (strchr(one.buf, ','))
			fail(c, "'%s' cannot contain a comma", one.buf);
		pop(c, old);
		strbuf_release(&one);
		return -1;
	}
	strbuf_release(&one);
	return 0;
}

/* Set layer key `key` from JSON `v` (replacing an earlier value). */
static int layer_set(struct ctx *c, struct draft_layer *l, const char *key,
		     json_t *v)
{
	const struct key_rule *r = find_rule(kind_rules[l->kind], key);
	struct strbuf sb = STRBUF_INIT;
	struct draft_key nk = { NULL, STRVEC_INIT, 0 };
	int ret = -1;
	size_t old = push(c, key);

	if (!r) {
		pop(c, old);
		return fail(c, "unknown key '%s' for layer kind '%s'", key,
			    layer_kinds[l->kind]);
	}
	if (r->kind == V_REFS || r->kind == V_ARGS) {
		if (word_list(c, v, &sb))
			goto out;
		strvec_push(&nk.values, sb.buf);
	} else if (json_is_array(v)) {
		/* A list expands the topology into one per value. */
		if (r->kind == V_NAME || r->kind == V_REF) {
			fail(c, "cannot be a list");
			goto out;
		}
		if (!json_array_size(v)) {
			fail(c, "empty list");
			goto out;
		}
		/* The cap before the duplicate check, which is quadratic. */
		if (json_array_size(v) > JOB_MAX_TOPOLOGIES) {
			fail(c, "%zu values: the topology lists expand to more "
				"than %d topologies",
			     json_array_size(v), JOB_MAX_TOPOLOGIES);
			goto out;
		}
		for (size_t i = 0; i < json_array_size(v); i++) {
			size_t o2 = push_idx(c, i);
			if (layer_value(c, r, json_array_get(v, i), &sb)) {
				pop(c, o2);
				goto out;
			}
			for (size_t k = 0; k < nk.values.nr; k++)
				if (!strcmp(nk.values.v[k], sb.buf)) {
					fail(c, "'%s' is listed twice", sb.buf);
					pop(c, o2);
					goto out;
				}
			pop(c, o2);
			strvec_push(&nk.values, sb.buf);
		}
		nk.expand = 1;
	} else {
		if (layer_value(c, r, v, &sb))
			goto out;
		if (r->kind == V_NAME && !valid_name(sb.buf, 32)) {
			fail(c, "'%s' is not a valid name", sb.buf);
			goto out;
		}
		strvec_push(&nk.values, sb.buf);
	}
	if (r->kind == V_NAME) {
		free(l->name);
		l->name = xstrdup(nk.values.v[0]);
	}
	for (size_t i = 0; i < l->nr_keys; i++)
		if (!strcmp(l->keys[i].key, key)) {
			strvec_clear(&l->keys[i].values);
			l->keys[i].values = nk.values;
			l->keys[i].expand = nk.expand;
			nk.values.v = NULL;
			nk.values.nr = 0;
			ret = 0;
			goto out;
		}
	ALLOC_GROW(l->keys, l->nr_keys + 1, l->alloc_keys);
	nk.key = xstrdup(key);
	l->keys[l->nr_keys++] = nk;
	nk.values.v = NULL;
	nk.values.nr = 0;
	ret = 0;
out:
	strvec_clear(&nk.values);
	strbuf_release(&sb);
	pop(c, old);
	return ret;
}

static int layer_parse(struct ctx *c, json_t *v, struct draft_layer *l)
{
	json_t *kind = json_object_get(v, "kind");
	const char *key;
	json_t *val;
	size_t old;

	memset(l, 0, sizeof(*l));
	if (!json_is_object(v))
		return fail(c, "expected an object");
	if (!kind)
		return fail(c, "missing 'kind' (part, md, dm, loop or fs)");
	old = push(c, "kind");
	if (get_enum(c, kind, layer_kinds, "layer kind", &l->kind)) {
		pop(c, old);
		return -1;
	}
	pop(c, old);
	/* name= comes first in the spec, whatever the file order. */
	if (!json_object_get(v, "name"))
		return fail(c, "missing 'name'");
	if (layer_set(c, l, "name", json_object_get(v, "name")))
		return -1;
	json_object_foreach(v, key, val) {
		if (!strcmp(key, "kind") || !strcmp(key, "name"))
			continue;
		if (layer_set(c, l, key, val))
			return -1;
	}
	return 0;
}

static const char *const disk_keys[] = { "name",       "bus",
					 "backing",    "path",
					 "size_mb",    "latency_ns",
					 "bps_max",    "iops_max",
					 "readonly",   "cache",
					 "max_sectors_kb", NULL };
static const char *const buses[] = { "virtio", "scsi", "nvme", "ide", NULL };
static const char *const backings[] = { "image", "tmpfs", "null", "host",
					NULL };
static const char *const caches[] = { "none", "writeback", "writethrough",
				      "directsync", "unsafe", NULL };

/* Set one disk key; used for preset disks and for job overrides alike. */
static int disk_set(struct ctx *c, struct disk_spec *d, const char *key,
		    json_t *v)
{
	long long x;
	int i, ret = -1;
	const char *s;
	size_t old = push(c, key);

	if (!strcmp(key, "name")) {
		if (get_str(c, v, &s))
			goto out;
		if (!valid_name(s, 32)) {
			fail(c, "'%s' is not a valid name", s);
			goto out;
		}
		free(d->name);
		d->name = xstrdup(s);
	} else if (!strcmp(key, "bus")) {
		if (get_enum(c, v, buses, "bus", &i))
			goto out;
		d->bus = i;
	} else if (!strcmp(key, "backing")) {
		if (get_enum(c, v, backings, "backing", &i))
			goto out;
		d->backing = i;
		if (i == BACKING_HOST)
			d->readonly = 1;
	} else if (!strcmp(key, "path")) {
		if (get_str(c, v, &s))
			goto out;
		free(d->path);
		d->path = expand_home(s);
	} else if (!strcmp(key, "size_mb")) {
		if (get_int(c, v, 1, 1 << 20, &x))
			goto out;
		d->size_mb = x;
	} else if (!strcmp(key, "latency_ns")) {
		if (get_int(c, v, 0, 10000000000LL, &x))
			goto out;
		d->latency_ns = x;
	} else if (!strcmp(key, "bps_max")) {
		if (get_int(c, v, 0, 1LL << 40, &x))
			goto out;
		d->bps_max = x;
	} else if (!strcmp(key, "iops_max")) {
		if (get_int(c, v, 0, 100000000, &x))
			goto out;
		d->iops_max = x;
	} else if (!strcmp(key, "readonly")) {
		if (!json_is_boolean(v)) {
			fail(c, "expected true or false");
			goto out;
		}
		d->readonly = json_is_true(v);
	} else if (!strcmp(key, "cache")) {
		if (get_enum(c, v, caches, "cache mode", &i))
			goto out;
		free(d->cache);
		d->cache = xstrdup(caches[i]);
	} else if (!strcmp(key, "max_sectors_kb")) {
		/*
		 * Any bus: QEMU caps scsi and nvme requests, the guest writes
		 * queue/max_sectors_kb for all. The kernel takes no value
		 * below one page.
		 */
		if (get_int(c, v, 0, 65536, &x))
			goto out;
		if (x > 0 && x < 4) {
			fail(c, "%lld is below one 4 KiB page (0 leaves the "
				"kernel's cap)",
			     x);
			goto out;
		}
		d->max_sectors_kb = (uint32_t)x;
	} else {
		pop(c, old);
		old = c->path.len;
		fail(c, "unknown key '%s' for a disk", key);
		goto out;
	}
	ret = 0;
out:
	pop(c, old);
	return ret;
}

static int disk_parse(struct ctx *c, json_t *v, size_t idx,
		      struct disk_spec *d)
{
	const char *key;
	json_t *val;
	memset(d, 0, sizeof(*d));
	d->name = xstrfmt("d%zu", idx);
	if (!json_is_object(v))
		return fail(c, "expected an object");
	if (check_keys(c, v, disk_keys))
		return -1;
	/* backing first: it sets the read-only default that readonly overrides. */
	if (json_object_get(v, "backing") &&
	    disk_set(c, d, "backing", json_object_get(v, "backing")))
		return -1;
	json_object_foreach(v, key, val) {
		if (!strcmp(key, "backing"))
			continue;
		if (disk_set(c, d, key, val))
			return -1;
	}
	return 0;
}

static struct draft_key *find_key(struct draft_layer *l, const char *key)
{
	for (size_t j = 0; j < l->nr_keys; j++)
		if (!strcmp(l->keys[j].key, key))
			return &l->keys[j];
	return NULL;
}

/* Checks that need the whole topology: sizes, references, names. */
static int draft_check(struct ctx *c, struct draft *d)
{
	if (!d->nr_disks)
		return fail(c, "needs at least one disk");
	/* A preset's own layers plus extra_layers may pass the cap. */
	if (d->nr_layers > JOB_MAX_LAYERS)
		return fail(c, "%zu layers: a boot builds at most %d",
			    d->nr_layers, JOB_MAX_LAYERS);
	for (size_t i = 0; i < d->nr_disks; i++) {
		struct disk_spec *k = &d->disks[i];
		if (k->backing != BACKING_HOST && !k->size_mb)
			return fail(c, "disk '%s' needs size_mb", k->name);
		if (k->backing != BACKING_HOST && k->path)
			return fail(c, "disk '%s': path is only for backing host",
				    k->name);
		if (k->latency_ns && k->backing != BACKING_NULL)
			return fail(c,
				    "disk '%s': latency_ns needs backing null "
				    "(use bps_max or iops_max for images)",
				    k->name);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(d->disks[j].name, k->name))
				return fail(c, "disk name '%s' is used twice",
					    k->name);
	}
	for (size_t i = 0; i < d->nr_layers; i++) {
		struct draft_layer *l = &d->layers[i];
		const struct key_rule *r;
		/* The guest and default targets both need the mount point. */
		if (!strcmp(layer_kinds[l->kind], "fs") &&
		    !find_key(l, "mount")) {
			json_t *m = json_string("/mnt");
			int bad = layer_set(c, l, "mount", m);
			json_decref(m);
			if (bad)
				return -1;
		}
		if (name_known(d, i, l->name))
			return fail(c, "name '%s' is used twice", l->name);
		for (r = kind_rules[l->kind]; r->key; r++) {
			struct draft_key *k = NULL;
			for (size_t j = 0; j < l->nr_keys; j++)
				if (!strcmp(l->keys[j].key, r->key))
					k = &l->keys[j];
			if (!k) {
				if (r->required)
					return fail(c, "%s layer '%s' needs '%s'",
						    layer_kinds[l->kind],
						    l->name, r->key);
				continue;
			}
			if (r->kind == V_REF) {
				const char *t = k->values.v[0];
				if (!strncmp(t, "file:/", 6) &&
				    !strcmp(layer_kinds[l->kind], "loop"))
					continue;
				if (!name_known(d, i, t))
					return fail(c,
						    "layer '%s': on='%s' is not "
						    "an earlier disk or layer",
						    l->name, t);
			}
			if (r->kind == V_REFS) {
				struct strvec m = STRVEC_INIT;
				strvec_split(&m, k->values.v[0], ',');
				for (size_t j = 0; j < m.nr; j++)
					if (!name_known(d, i, m.v[j])) {
						fail(c,
						     "layer '%s': member '%s' is "
						     "not an earlier disk or layer",
						     l->name, m.v[j]);
						strvec_clear(&m);
						return -1;
					}
				if (m.nr < 2) {
					strvec_clear(&m);
					return fail(c,
						    "layer '%s' needs at least "
						    "two members",
						    l->name);
				}
				strvec_clear(&m);
			}
		}
	}
	return 0;
}

static const char *const topo_keys[] = { "name", "description", "disks",
					 "layers", NULL };

/* A full topology object: {name, description, disks, layers}. */
static int draft_parse(struct ctx *c, json_t *v, const char *default_name,
		       struct draft *d)
{
	json_t *disks, *layers, *name;
	size_t old;

	memset(d, 0, sizeof(*d));
	if (!json_is_object(v))
		return fail(c, "expected a preset name or an object");
	if (check_keys(c, v, topo_keys))
		return -1;
	name = json_object_get(v, "name");
	if (name) {
		const char *s;
		old = push(c, "name");
		if (get_str(c, name, &s) ||
		    (!valid_name(s, 64) && fail(c, "'%s' is not a valid name", s))) {
			pop(c, old);
			return -1;
		}
		pop(c, old);
		d->name = xstrdup(s);
	} else {
		d->name = xstrdup(default_name);
	}
	disks = json_object_get(v, "disks");
	old = push(c, "disks");
	if (!json_is_array(disks) || !json_array_size(disks)) {
		fail(c, disks ? "expected a non-empty list of disks"
			      : "missing");
		pop(c, old);
		return -1;
	}
	/* Before parsing them: 5,000 disks kept QEMU busy 22 s to fail. */
	if (json_array_size(disks) > JOB_MAX_DISKS) {
		fail(c, "%zu disks: a boot takes at most %d",
		     json_array_size(disks), JOB_MAX_DISKS);
		pop(c, old);
		return -1;
	}
	for (size_t i = 0; i < json_array_size(disks); i++) {
		size_t o2 = push_idx(c, i);
		ALLOC_GROW(d->disks, d->nr_disks + 1, d->alloc_disks);
		if (disk_parse(c, json_array_get(disks, i), i,
			       &d->disks[d->nr_disks++])) {
			pop(c, o2);
			pop(c, old);
			return -1;
		}
		pop(c, o2);
	}
	pop(c, old);
	layers = json_object_get(v, "layers");
	if (!layers)
		return 0;
	old = push(c, "layers");
	if (!json_is_array(layers)) {
		fail(c, "expected a list of layers");
		pop(c, old);
		return -1;
	}
	if (json_array_size(layers) > JOB_MAX_LAYERS) {
		fail(c, "%zu layers: a boot builds at most %d",
		     json_array_size(layers), JOB_MAX_LAYERS);
		pop(c, old);
		return -1;
	}
	for (size_t i = 0; i < json_array_size(layers); i++) {
		size_t o2 = push_idx(c, i);
		ALLOC_GROW(d->layers, d->nr_layers + 1, d->alloc_layers);
		if (layer_parse(c, json_array_get(layers, i),
				&d->layers[d->nr_layers++])) {
			pop(c, o2);
			pop(c, old);
			return -1;
		}
		pop(c, o2);
	}
	pop(c, old);
	return 0;
}

static int preset_load(struct ctx *c, const char *name, struct draft *d)
{
	struct strbuf text = STRBUF_INIT;
	char *path;
	json_t *root;
	json_error_t jerr;
	int ret = -1;

	if (!valid_name(name, 64) || strchr(name, '.'))
		return fail(c, "unknown preset '%s'", name);
	path = xstrfmt("%s/qemu/%s.json", job_data_dir(), name);
	if (!file_exists(path)) {
		fail(c, "unknown preset '%s' (no '%s')", name, path);
		free(path);
		return -1;
	}
	if (read_file_max(path, &text, JOB_FILE_MAX))
		goto out;
	root = json_loadb(text.buf, text.len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		error("%s: not valid JSON: %s at line %d", path, jerr.text,
		      jerr.line);
		goto out;
	}
	/* Problems inside a preset name the preset's file, not the job. */
	struct ctx pc = { path, STRBUF_INIT };
	ret = draft_parse(&pc, root, name, d);
	if (!ret)
		ret = draft_check(&pc, d);
	strbuf_release(&pc.path);
	json_decref(root);
out:
	strbuf_release(&text);
	free(path);
	return ret;
}

/*
 * Overrides on a preset: "name"; "path" for every host disk; "disks" {..}
 * for every disk; "<disk name>" {..} or "<layer name>" {..} for one;
 * "layers" [..] replacing the layers; "extra_layers" [..] appended.
 */
static int draft_override(struct ctx *c, json_t *v, struct draft *d)
{
	const char *key;
	json_t *val;
	json_object_foreach(v, key, val) {
		size_t old = push(c, key);
		int ret = 0;
		if (!strcmp(key, "preset") || !strcmp(key, "description")) {
			/* handled by the caller / comments */
		} else if (!strcmp(key, "name")) {
			const char *s;
			ret = get_str(c, val, &s);
			if (!ret && !valid_name(s, 64))
				ret = fail(c, "'%s' is not a valid name", s);
			if (!ret) {
				free(d->name);
				d->name = xstrdup(s);
			}
		} else if (!strcmp(key, "path")) {
			int any = 0;
			for (size_t i = 0; !ret && i < d->nr_disks; i++)
				if (d->disks[i].backing == BACKING_HOST) {
					any = 1;
					ret = disk_set(c, &d->disks[i], "path",
						       val);
				}
			if (!ret && !any)
				ret = fail(c, "the topology has no host disk");
		} else if (!strcmp(key, "disks") && !json_is_object(val)) {
			ret = fail(c, "expected an object of disk keys applied "
				      "to every disk");
		} else if (!strcmp(key, "disks")) {
			const char *k2;
			json_t *v2;
			for (size_t i = 0; !ret && i < d->nr_disks; i++)
				json_object_foreach(val, k2, v2) if (!ret) ret =
					disk_set(c, &d->disks[i], k2, v2);
		} else if (!strcmp(key, "layers") ||
			   !strcmp(key, "extra_layers")) {
			if (!json_is_array(val)) {
				ret = fail(c, "expected a list of layers");
			} else if (json_array_size(val) > JOB_MAX_LAYERS) {
				ret = fail(c, "%zu layers: a boot builds at "
					      "most %d",
					   json_array_size(val),
					   JOB_MAX_LAYERS);
			} else if (!strcmp(key, "layers")) {
				for (size_t i = 0; i < d->nr_layers; i++)
					draft_layer_release(&d->layers[i]);
				d->nr_layers = 0;
			}
			for (size_t i = 0; !ret && i < json_array_size(val);
			     i++) {
				size_t o2 = push_idx(c, i);
				ALLOC_GROW(d->layers, d->nr_layers + 1,
					   d->alloc_layers);
				ret = layer_parse(c, json_array_get(val, i),
						  &d->layers[d->nr_layers++]);
				pop(c, o2);
			}
		} else {
			struct disk_spec *disk = NULL;
			struct draft_layer *layer = NULL;
			for (size_t i = 0; i < d->nr_disks; i++)
				if (!strcmp(d->disks[i].name, key))
					disk = &d->disks[i];
			for (size_t i = 0; i < d->nr_layers; i++)
				if (!strcmp(d->layers[i].name, key))
					layer = &d->layers[i];
			if (!disk && !layer) {
				pop(c, old);
				fail(c,
				     "unknown key '%s' (not a disk or layer of "
				     "preset '%s')",
				     key, d->name);
				return -1;
			}
			if (!json_is_object(val)) {
				ret = fail(c, "expected an object");
			} else {
				const char *k2;
				json_t *v2;
				json_object_foreach(val, k2, v2) {
					if (ret)
						break;
					if (disk)
						ret = disk_set(c, disk, k2, v2);
					else if (!strcmp(k2, "kind"))
						ret = fail(c,
							   "cannot change a "
							   "layer's kind");
					else
						ret = layer_set(c, layer, k2,
								v2);
				}
			}
		}
		pop(c, old);
		if (ret)
			return -1;
	}
	return 0;
}

static void topology_release(struct topology *t)
{
	for (size_t i = 0; i < t->nr_disks; i++)
		disk_release(&t->disks[i]);
	free(t->disks);
	for (size_t i = 0; i < t->nr_layers; i++) {
		free(t->layers[i].kind);
		strvec_clear(&t->layers[i].keys);
	}
	free(t->layers);
	free(t->name);
}

static void disk_copy(struct disk_spec *to, const struct disk_spec *from)
{
	*to = *from;
	to->name = xstrdup(from->name);
	to->path = from->path ? xstrdup(from->path) : NULL;
	to->cache = from->cache ? xstrdup(from->cache) : NULL;
}

/*
 * Expand the draft's list values into topologies, cartesian, in layer
 * then key order, the first list varying slowest; names get ",key=value"
 * (",layer.key=value" when two layers expand the same key).
 */
static int draft_expand(struct ctx *c, const struct draft *d,
			struct job *job)
{
	size_t nr_dims = 0, total = 1;
	struct draft_key *dims[64];
	const char *dim_layer[64];

	for (size_t i = 0; i < d->nr_layers; i++)
		for (size_t j = 0; j < d->layers[i].nr_keys; j++)
			if (d->layers[i].keys[j].expand && nr_dims < 64) {
				dim_layer[nr_dims] = d->layers[i].name;
				dims[nr_dims++] = &d->layers[i].keys[j];
				total *= d->layers[i].keys[j].values.nr;
				if (total > JOB_MAX_TOPOLOGIES)
					total = JOB_MAX_TOPOLOGIES + 1;
			}
	if (total > JOB_MAX_TOPOLOGIES || nr_dims == 64)
		return fail(c, "the topology lists expand to more than %d "
			       "topologies",
			    JOB_MAX_TOPOLOGIES);
	job->topologies = xcalloc(total, sizeof(*job->topologies));
	job->nr_topologies = total;
	for (size_t n = 0; n < total; n++) {
		struct topology *t = &job->topologies[n];
		struct strbuf name = STRBUF_INIT;
		size_t pick[64], rest = n;
		for (size_t k = nr_dims; k-- > 0;) {
			pick[k] = rest % dims[k]->values.nr;
			rest /= dims[k]->values.nr;
		}
		strbuf_addstr(&name, d->name);
		for (size_t k = 0; k < nr_dims; k++) {
			int dup = 0;
			for (size_t o = 0; o < nr_dims; o++)
				dup |= o != k && !strcmp(dims[o]->key,
							 dims[k]->key);
			strbuf_addch(&name, ',');
			if (dup)
				strbuf_addf(&name, "%s.", dim_layer[k]);
			strbuf_addf(&name, "%s=%s", dims[k]->key,
				    dims[k]->values.v[pick[k]]);
		}
		t->name = strbuf_detach(&name);
		t->disks = xcalloc(d->nr_disks, sizeof(*t->disks));
		t->nr_disks = d->nr_disks;
		for (size_t i = 0; i < d->nr_disks; i++)
			disk_copy(&t->disks[i], &d->disks[i]);
		t->layers = xcalloc(d->nr_layers ? d->nr_layers : 1,
				    sizeof(*t->layers));
		t->nr_layers = d->nr_layers;
		for (size_t i = 0; i < d->nr_layers; i++) {
			const struct draft_layer *l = &d->layers[i];
			t->layers[i].kind = xstrdup(layer_kinds[l->kind]);
			for (size_t j = 0; j < l->nr_keys; j++) {
				const struct draft_key *k = &l->keys[j];
				size_t v = 0;
				for (size_t q = 0; q < nr_dims; q++)
					if (dims[q] == k)
						v = pick[q];
				strvec_pushf(&t->layers[i].keys, "%s=%s",
					     k->key, k->values.v[v]);
			}
		}
	}
	return 0;
}

static int parse_topology(struct ctx *c, json_t *v, struct job *job)
{
	struct draft d;
	int ret = -1;
	size_t old = push(c, "topology");

	memset(&d, 0, sizeof(d));
	if (json_is_string(v)) {
		if (preset_load(c, json_string_value(v), &d))
			goto out;
	} else if (json_is_object(v) && json_object_get(v, "preset")) {
		json_t *p = json_object_get(v, "preset");
		size_t o2 = push(c, "preset");
		if (!json_is_string(p)) {
			fail(c, "expected a preset name");
			pop(c, o2);
			goto out;
		}
		pop(c, o2);
		if (preset_load(c, json_string_value(p), &d) ||
		    draft_override(c, v, &d) || draft_check(c, &d))
			goto out;
	} else if (json_is_object(v)) {
		if (draft_parse(c, v, "custom", &d) || draft_check(c, &d))
			goto out;
	} else {
		fail(c, "expected a preset name or an object");
		goto out;
	}
	ret = draft_expand(c, &d, job);
out:
	draft_release(&d);
	pop(c, old);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Workload. */

static const char *const engines[] = { "seqread", "seqwrite", "rawread",
				       "bonnie", NULL };
static const char *const fadvises[] = { "none", "sequential", "noreuse",
					"dontneed", NULL };

enum ekind { E_INT, E_BOOL, E_ENUM, E_REAL };
struct engine_key {
	const char *key;
	enum ekind kind;
	long long min, max;
	const char *const *choices;
};

static const struct engine_key seqread_keys[] = {
	{ "threads", E_INT, 1, 256, NULL },
	{ "bs_kb", E_INT, 1, 65536, NULL },
	{ "ra_kb", E_INT, 0, 1 << 20, NULL },
	{ "size_mb", E_INT, 1, MB_MAX, NULL },
	{ "ram_x", E_REAL, 0, 16, NULL },
	{ "direct", E_BOOL, 0, 1, NULL },
	{ "fadvise", E_ENUM, 0, 0, fadvises },
	{ "runtime_ms", E_INT, 0, JOB_RUNTIME_MS_MAX, NULL },
	{ NULL, 0, 0, 0, NULL },
};
static const struct engine_key seqwrite_keys[] = {
	{ "threads", E_INT, 1, 256, NULL },
	{ "bs_kb", E_INT, 1, 65536, NULL },
	{ "size_mb", E_INT, 1, MB_MAX, NULL },
	{ "fsync", E_BOOL, 0, 1, NULL },
	{ "direct", E_BOOL, 0, 1, NULL },
	{ "runtime_ms", E_INT, 0, JOB_RUNTIME_MS_MAX, NULL },
	{ NULL, 0, 0, 0, NULL },
};
static const struct engine_key rawread_keys[] = {
	{ "bs_kb", E_INT, 1, 65536, NULL },
	{ "size_mb", E_INT, 1, MB_MAX, NULL },
	{ "direct", E_BOOL, 0, 1, NULL },
	{ "ra_kb", E_INT, 0, 1 << 20, NULL },
	{ "runtime_ms", E_INT, 0, JOB_RUNTIME_MS_MAX, NULL },
	{ NULL, 0, 0, 0, NULL },
};
static const struct engine_key bonnie_keys[] = {
	{ "size_mb", E_INT, 1, MB_MAX, NULL },
	{ "chunk_kb", E_INT, 1, 65536, NULL },
	{ NULL, 0, 0, 0, NULL },
};
static const struct engine_key *const engine_keys[] = {
	seqread_keys, seqwrite_keys, rawread_keys, bonnie_keys
};
/* The metrics each engine reports, for checking the job's metric. */
static const char *const engine_metrics[] = { "read", "write", "read",
					      "write,rewrite,read" };

static int engine_value(struct ctx *c, const struct engine_key *k, json_t *v,
			struct strbuf *out)
{
	strbuf_reset(out);
	switch (k->kind) {
	case E_INT: {
		long long x;
		if (get_int(c, v, k->min, k->max, &x))
			return -1;
		strbuf_addf(out, "%lld", x);
		return 0;
	}
	case E_BOOL:
		if (json_is_boolean(v))
			strbuf_addstr(out, json_is_true(v) ? "1" : "0");
		else if (json_is_integer(v) && (json_integer_value(v) == 0 ||
						json_integer_value(v) == 1))
			strbuf_addf(out, "%d", (int)json_integer_value(v));
		else
			return fail(c, "expected true, false, 0 or 1");
		return 0;
	case E_REAL: {
		if (!json_is_number(v))
			return fail(c, "expected a number");
		double x = json_number_value(v);
		if (!(x > k->min && x <= k->max))
			return fail(c, "%g is out of range (above %lld, at most "
				       "%lld)",
				    x, k->min, k->max);
		strbuf_addf(out, "%g", x);
		return 0;
	}
	case E_ENUM: {
		int i;
		if (get_enum(c, v, k->choices, k->key, &i))
			return -1;
		strbuf_addstr(out, k->choices[i]);
		return 0;
	}
	}
	return -1;
}

/* A workload key with its one or several values. */
struct wkey {
	const char *key;
	struct strvec values;
	int list; /* given as a list: a matrix dimension */
};

static int topo_has(const struct topology *t, const char *name)
{
	for (size_t i = 0; i < t->nr_disks; i++)
		if (!strcmp(t->disks[i].name, name))
			return 1;
	for (size_t i = 0; i < t->nr_layers; i++)
		if (!strcmp(t->layers[i].keys.v[0] + 5, name))
			return 1;
	return 0;
}

/* The value of layer key `key`, or NULL. */
static const char *layer_get(const struct layer_spec *l, const char *key)
{
	size_t n = strlen(key);
	for (size_t i = 0; i < l->keys.nr; i++)
		if (!strncmp(l->keys.v[i], key, n) && l->keys.v[i][n] == '=')
			return l->keys.v[i] + n + 1;
	return NULL;
}

/* The default target: a file on the top file system, else the top device. */
static char *default_target(const struct topology *t)
{
	if (t->nr_layers) {
		const struct layer_spec *l = &t->layers[t->nr_layers - 1];
		if (!strcmp(l->kind, "fs")) {
			const char *m = layer_get(l, "mount");
			return xstrfmt("%s/iobisect.dat", m ? m : "/mnt");
		}
		return xstrdup(layer_get(l, "name"));
	}
	return xstrdup(t->disks[t->nr_disks - 1].name);
}

static int check_target(struct ctx *c, const struct topology *t, int engine,
			const char *target)
{
	if (target[0] == '/') {
		if (!strcmp(engines[engine], "rawread"))
			return fail(c, "engine 'rawread' reads a block device, "
				       "not the file '%s'",
				    target);
		for (size_t i = 0; i < t->nr_layers; i++) {
			const char *m = layer_get(&t->layers[i], "mount");
			if (!strcmp(t->layers[i].kind, "fs")) {
				size_t n = strlen(m ? m : "/mnt");
				if (!strncmp(target, m ? m : "/mnt", n) &&
				    target[n] == '/' && target[n + 1])
					return 0;
			}
		}
		return fail(c, "'%s' is not on a file system of topology '%s'",
			    target, t->name);
	}
	if (!strcmp(engines[engine], "bonnie"))
		return fail(c, "engine 'bonnie' needs a file target on a "
			       "file system, not '%s'",
			    target);
	if (!topo_has(t, target))
		return fail(c, "'%s' is not a disk or layer of topology '%s'",
			    target, t->name);
	for (size_t i = 0; i < t->nr_layers; i++)
		if (!strcmp(t->layers[i].kind, "fs") &&
		    !strcmp(layer_get(&t->layers[i], "name"), target))
			return fail(c, "'%s' is a file system; give a file "
				       "path under its mount",
				    target);
	return 0;
}

/* Point ids are folder names: keep [A-Za-z0-9._,=+-], others become '_'. */
static void id_sanitize(char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._,=+-", *s))
			*s = '_';
}

static const char *const workload_common[] = { "engine", "target",
					       "samples", "warmup", NULL };

static const struct engine_key *engine_key_find(int engine, const char *key)
{
	for (const struct engine_key *k = engine_keys[engine]; k->key; k++)
		if (!strcmp(k->key, key))
			return k;
	return NULL;
}

static int parse_workload(struct ctx *c, json_t *w, struct job *job,
			  int *samples, int *warmup)
{
	struct wkey keys[32];
	size_t nr = 0, total = 1;
	int engine, ret = -1;
	const char *key;
	json_t *v;
	struct strbuf sb = STRBUF_INIT;
	size_t old = push(c, "workload");

	memset(keys, 0, sizeof(keys));
	if (json_is_string(w)) {
		if (get_enum(c, w, engines, "engine", &engine))
			goto out;
		w = NULL;
	} else if (!json_is_object(w)) {
		fail(c, "expected an engine name or an object");
		goto out;
	} else {
		json_t *e = json_object_get(w, "engine");
		if (!e) {
			fail(c, "missing 'engine' (seqread, seqwrite, rawread "
				"or bonnie)");
			goto out;
		}
		size_t o2 = push(c, "engine");
		int r = get_enum(c, e, engines, "engine", &engine);
		pop(c, o2);
		if (r)
			goto out;
	}
	if (w && (get_intf(c, w, "samples", 1, 1000, samples) ||
		  get_intf(c, w, "warmup", 0, 100, warmup)))
		goto out;

	json_object_foreach(w, key, v) {
		const struct engine_key *ek = engine_key_find(engine, key);
		int is_target = !strcmp(key, "target");
		if (!is_target && in_list(key, workload_common) >= 0)
			continue;
		if (!is_target && !ek) {
			fail(c, "unknown key '%s' for engine '%s'", key,
			     engines[engine]);
			goto out;
		}
		if (nr == ARRAY_SIZE(keys)) {
			fail(c, "too many keys");
			goto out;
		}
		/*
		 * The cap before the values are checked against each other
		 * (quadratic): 100,000 targets took half a minute to refuse.
		 */
		if (json_is_array(v) &&
		    (json_array_size(v) > JOB_MAX_POINTS ||
		     total * json_array_size(v) * job->nr_topologies >
			     JOB_MAX_POINTS)) {
			fail(c, "the matrix has more than %d points (%zu "
				"topologies x the workload's lists)",
			     JOB_MAX_POINTS, job->nr_topologies);
			goto out;
		}
		struct wkey *k = &keys[nr++];
		size_t o2 = push(c, key);
		k->key = key;
		k->list = json_is_array(v);
		size_t n = k->list ? json_array_size(v) : 1;
		if (k->list && !n) {
			fail(c, "empty list");
			pop(c, o2);
			goto out;
		}
		for (size_t i = 0; i < n; i++) {
			json_t *e = k->list ? json_array_get(v, i) : v;
			size_t o3 = k->list ? push_idx(c, i) : c->path.len;
			int r;
			if (is_target) {
				const char *s;
				r = get_str(c, e, &s);
				strbuf_reset(&sb);
				if (!r)
					strbuf_addstr(&sb, s);
				if (!r && !valid_word(s))
					r = fail(c, "'%s' cannot contain blanks",
						 s);
				if (!r && strlen(s) > PROTO_SPEC_MAX_VALUE)
					r = fail(c, "'%.32s...' is longer than "
						    "the guest takes (%d bytes)",
						 s, PROTO_SPEC_MAX_VALUE);
			} else {
				r = engine_value(c, ek, e, &sb);
			}
			for (size_t q = 0; !r && q < k->values.nr; q++)
				if (!strcmp(k->values.v[q], sb.buf))
					r = fail(c, "'%s' is listed twice",
						 sb.buf);
			pop(c, o3);
			if (r) {
				pop(c, o2);
				goto out;
			}
			strvec_push(&k->values, sb.buf);
		}
		pop(c, o2);
		if (k->list)
			total *= n;
		if (total > JOB_MAX_POINTS)
			total = JOB_MAX_POINTS + 1;
	}
	if (w && json_object_get(w, "size_mb") && json_object_get(w, "ram_x")) {
		fail(c, "size_mb and ram_x exclude each other");
		goto out;
	}
	/*
	 * A job with good and bad is meant for bisection: bound its samples
	 * by time unless the workload says otherwise (runtime_ms 0 keeps the
	 * byte count). As a single value the key leaves point ids as they
	 * were; it enters the spec, so the spec hash keeps these samples
	 * apart from byte-bound ones.
	 */
	if (job->good && job->bad && engine_key_find(engine, "runtime_ms") &&
	    !json_object_get(w, "runtime_ms")) {
		struct wkey *k = &keys[nr++];
		k->key = "runtime_ms";
		strvec_pushf(&k->values, "%d", JOB_BISECT_RUNTIME_MS);
	}
	/* Each point costs samples x boots of guest time: keep it sane. */
	if (total * job->nr_topologies > JOB_MAX_POINTS) {
		fail(c, "the matrix has more than %d points (%zu topologies "
			"x the workload's lists)",
		     JOB_MAX_POINTS, job->nr_topologies);
		goto out;
	}
	/* One boot runs every point of its topology; the guest stops here. */
	if (total > JOB_MAX_POINTS_PER_TOPOLOGY) {
		fail(c, "the matrix has %zu points per topology; a boot runs "
			"at most %d",
		     total, JOB_MAX_POINTS_PER_TOPOLOGY);
		goto out;
	}

	job->points = xcalloc(total * job->nr_topologies, sizeof(*job->points));
	for (size_t t = 0; t < job->nr_topologies; t++) {
		const struct topology *topo = &job->topologies[t];
		char *deftarget = default_target(topo);
		for (size_t n = 0; n < total; n++) {
			struct point *p = &job->points[job->nr_points++];
			struct strbuf id = STRBUF_INIT;
			size_t pick[32], rest = n;
			for (size_t k = nr; k-- > 0;) {
				size_t cnt = keys[k].list ? keys[k].values.nr
							  : 1;
				pick[k] = rest % cnt;
				rest /= cnt;
			}
			p->engine = xstrdup(engines[engine]);
			p->topo = (int)t;
			for (size_t k = 0; k < nr; k++) {
				const char *val = keys[k].values.v[pick[k]];
				if (keys[k].list)
					strbuf_addf(&id, "%s%s=%s",
						    id.len ? "," : "",
						    keys[k].key, val);
				/*
				 * runtime_ms=0 is no bound, as when absent:
				 * left out, it leaves the spec and the spec
				 * hash as they were before the key existed.
				 */
				if (!strcmp(keys[k].key, "target"))
					p->target = xstrdup(val);
				else if (strcmp(keys[k].key, "runtime_ms") ||
					 strcmp(val, "0"))
					strvec_pushf(&p->keys, "%s=%s",
						     keys[k].key, val);
			}
			if (!p->target)
				p->target = xstrdup(deftarget);
			if (!id.len)
				strbuf_addstr(&id, "default");
			id_sanitize(id.buf);
			p->id = strbuf_detach(&id);
			if (strlen(p->id) > PROTO_SPEC_MAX_VALUE) {
				fail(c, "point '%.32s...' has a name longer "
					"than the guest takes (%d bytes)",
				     p->id, PROTO_SPEC_MAX_VALUE);
				free(deftarget);
				goto out;
			}
			size_t o2 = push(c, "target");
			int r = check_target(c, topo, engine, p->target);
			pop(c, o2);
			if (r) {
				free(deftarget);
				goto out;
			}
		}
		free(deftarget);
	}
	ret = 0;
out:
	for (size_t k = 0; k < nr; k++)
		strvec_clear(&keys[k].values);
	strbuf_release(&sb);
	pop(c, old);
	return ret;
}

/* ------------------------------------------------------------------ */
/* The rest of the job. */

static const char *const default_fragments[] = {
	"base", "virtio", "nvme", "md", "dm", "loop", "ext4", "xfs", NULL
};

static int get_strlist(struct ctx *c, json_t *v, struct strvec *out)
{
	if (!json_is_array(v) || !json_array_size(v))
		return fail(c, "expected a non-empty list of strings");
	for (size_t i = 0; i < json_array_size(v); i++) {
		const char *s;
		size_t old = push_idx(c, i);
		if (get_str(c, json_array_get(v, i), &s)) {
			pop(c, old);
			return -1;
		}
		pop(c, old);
		strvec_push(out, s);
	}
	return 0;
}

static int parse_kconfig(struct ctx *c, json_t *v, struct kconfig_spec *k)
{
	static const char *const keys[] = { "base", "fragments", "by_version",
					    NULL };
	static const char *const rule_keys[] = { "min", "max", "fragments",
						 NULL };
	json_t *by;
	if (!json_is_object(v))
		return fail(c, "expected an object");
	if (check_keys(c, v, keys) || get_strf(c, v, "base", &k->base))
		return -1;
	if (json_object_get(v, "fragments")) {
		size_t old = push(c, "fragments");
		strvec_clear(&k->fragments);
		int r = get_strlist(c, json_object_get(v, "fragments"),
				    &k->fragments);
		pop(c, old);
		if (r)
			return -1;
	}
	by = json_object_get(v, "by_version");
	if (!by)
		return 0;
	size_t old = push(c, "by_version");
	if (!json_is_array(by)) {
		fail(c, "expected a list");
		pop(c, old);
		return -1;
	}
	k->rules = xcalloc(json_array_size(by) + 1, sizeof(*k->rules));
	for (size_t i = 0; i < json_array_size(by); i++) {
		json_t *r = json_array_get(by, i);
		struct kconfig_rule *rule = &k->rules[k->nr_rules++];
		size_t o2 = push_idx(c, i);
		int bad = !json_is_object(r) ? fail(c, "expected an object")
			  : check_keys(c, r, rule_keys) ||
				  get_range(c, r, &rule->range);
		if (!bad) {
			size_t o3 = push(c, "fragments");
			json_t *f = json_object_get(r, "fragments");
			bad = f ? get_strlist(c, f, &rule->fragments)
				: fail(c, "missing");
			pop(c, o3);
		}
		pop(c, o2);
		if (bad) {
			pop(c, old);
			return -1;
		}
	}
	pop(c, old);
	return 0;
}

static int parse_toolchain(struct ctx *c, json_t *v, struct job *job)
{
	static const char *const keys[] = { "min", "max", "cc", "hostcc",
					    NULL };
	if (!json_is_array(v) || !json_array_size(v))
		return fail(c, "expected a non-empty list");
	job->toolchains = xcalloc(json_array_size(v), sizeof(*job->toolchains));
	for (size_t i = 0; i < json_array_size(v); i++) {
		json_t *r = json_array_get(v, i);
		struct toolchain_rule *t = &job->toolchains[job->nr_toolchains++];
		size_t old = push_idx(c, i);
		int bad = !json_is_object(r) ? fail(c, "expected an object")
			  : check_keys(c, r, keys) ||
				  get_range(c, r, &t->range) ||
				  get_strf(c, r, "cc", &t->cc) ||
				  get_strf(c, r, "hostcc", &t->hostcc);
		if (!bad && !t->cc)
			bad = fail(c, "missing 'cc'");
		pop(c, old);
		if (bad)
			return -1;
	}
	return 0;
}

static int parse_machine(struct ctx *c, json_t *v, struct machine_spec *m)
{
	static const char *const keys[] = {
		"cpus", "memory_mb", "accel", "qemu", "timeout_s", "append",
		"pin", NULL
	};
	static const char *const accels[] = { "auto", "kvm", "tcg", NULL };
	json_t *a;
	if (!json_is_object(v))
		return fail(c, "expected an object");
	if (check_keys(c, v, keys) || get_intf(c, v, "cpus", 1, 64, &m->cpus) ||
	    get_intf(c, v, "memory_mb", 64, 65536, &m->memory_mb) ||
	    get_intf(c, v, "timeout_s", 1, 86400, &m->timeout_s) ||
	    get_strf(c, v, "qemu", &m->qemu) ||
	    get_strf(c, v, "append", &m->append))
		return -1;
	if ((a = json_object_get(v, "pin"))) {
		if (!json_is_boolean(a)) {
			size_t old = push(c, "pin");
			fail(c, "expected true or false");
			pop(c, old);
			return -1;
		}
		m->pin = json_is_true(a);
	}
	a = json_object_get(v, "accel");
	if (a) {
		int i;
		size_t old = push(c, "accel");
		int r = get_enum(c, a, accels, "accelerator", &i);
		pop(c, old);
		if (r)
			return -1;
		free(m->accel);
		m->accel = xstrdup(accels[i]);
	}
	return 0;
}

static int parse_runs(struct ctx *c, json_t *v, struct job *job)
{
	static const char *const keys[] = { "min", "max", "samples", "warmup",
					    NULL };
	if (!json_is_object(v))
		return fail(c, "expected an object");
	if (check_keys(c, v, keys) ||
	    get_intf(c, v, "min", 1, 100, &job->runs_min) ||
	    get_intf(c, v, "max", 1, 1000, &job->runs_max) ||
	    get_intf(c, v, "samples", 1, 1000, &job->samples) ||
	    get_intf(c, v, "warmup", 0, 100, &job->warmup))
		return -1;
	if (job->runs_max < job->runs_min)
		return fail(c, "max (%d) is below min (%d)", job->runs_max,
			    job->runs_min);
	return 0;
}

/* Thresholds a measurement can tell apart, and nothing beyond. */
#define THRESHOLD_MIN 0.01
#define THRESHOLD_MAX_MBPS 1e6

static int parse_threshold(struct ctx *c, json_t *v, struct threshold *t)
{
	const char *s;
	size_t n;
	int pct;
	double x;
	char *num;

	if (get_str(c, v, &s))
		return -1;
	if (!strcmp(s, "auto")) {
		t->kind = THRESHOLD_AUTO;
		t->value = 0;
		return 0;
	}
	n = strlen(s);
	pct = n > 1 && s[n - 1] == '%';
	if (!pct && (n <= 4 || strcmp(s + n - 4, "MB/s")))
		goto bad;
	num = xstrndup(s, n - (pct ? 1 : 4));
	/* "infMB/s", "0x10%", " 10%", "1e-300%": strtod took them all. */
	if (parse_decimal(num, &x)) {
		free(num);
		goto bad;
	}
	free(num);
	if (x < THRESHOLD_MIN || (pct && x >= 100) ||
	    (!pct && x > THRESHOLD_MAX_MBPS))
		return fail(c, "'%s' is out of range (%g to below 100%%, or "
			       "%g to %g MB/s)",
			    s, THRESHOLD_MIN, THRESHOLD_MIN, THRESHOLD_MAX_MBPS);
	t->kind = pct ? THRESHOLD_PERCENT : THRESHOLD_MBPS;
	t->value = x;
	return 0;
bad:
	return fail(c, "'%s' is not a threshold (\"10%%\", \"25MB/s\" or "
		       "\"auto\")",
		    s);
}

/*
 * The confidence a bisection's answer must reach: 0.95 or "95%". Below one
 * half it would name a coin toss; at 1 no number of boots reaches it.
 */
static int parse_confidence(struct ctx *c, json_t *v, double *out)
{
	double x;

	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		size_t n = strlen(s);
		char *num = n ? xstrndup(s, n - 1) : NULL;
		/* As for a threshold: "0x5f%" and "9.5e1%" are not written. */
		int bad = !n || s[n - 1] != '%' || parse_decimal(num, &x);
		free(num);
		if (bad)
			return fail(c, "'%s' is not a confidence (0.95 or "
				       "\"95%%\")",
				    s);
		x /= 100;
	} else if (json_is_number(v)) {
		x = json_number_value(v);
	} else {
		return fail(c, "expected a number (0.95) or a percentage "
			       "(\"95%%\")");
	}
	if (!(x >= 0.5 && x <= 0.9999))
		return fail(c, "%g is not a confidence between 0.5 and 0.9999",
			    x);
	*out = x;
	return 0;
}

static const char *const job_keys[] = {
	"name",      "description", "repo",     "good",	   "bad",
	"kernel",    "kconfig",	    "toolchain", "machine",     "topology",
	"workload",  "runs",	    "metric",	 "metric_point", "threshold",
	"bisect_type", "results",   "direction", "confidence", NULL
};

static void job_defaults(struct job *job)
{
	memset(job, 0, sizeof(*job));
	job->kconfig.base = xstrdup("tiny");
	for (size_t i = 0; default_fragments[i]; i++)
		strvec_push(&job->kconfig.fragments, default_fragments[i]);
	job->machine.cpus = 2;
	job->machine.memory_mb = 512;
	job->machine.accel = xstrdup("auto");
	job->machine.qemu = xstrdup("qemu-system-x86_64");
	job->machine.timeout_s = 300;
	job->machine.pin = 1;
	job->samples = 3;
	job->warmup = 1;
	/*
	 * Verdicts are sequential: a boot is judged as it arrives, so one
	 * boot is the floor and evidence, not a count, sets how many follow.
	 */
	job->runs_min = 1;
	job->runs_max = 8;
	job->confidence = 0.95;
	job->metric = xstrdup("read");
	job->threshold.kind = THRESHOLD_AUTO;
	job->bisect_type = BISECT_PERF;
	job->results = xstrdup("results");
}

/* "dir/raid0.json" -> "raid0": the default job name. */
static char *name_from_origin(const char *origin)
{
	const char *base = strrchr(origin, '/');
	base = base ? base + 1 : origin;
	size_t n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".json"))
		n -= 5;
	char *s = xstrndup(base, n);
	id_sanitize(s);
	return s;
}

static int job_parse_json(struct job *job, json_t *root, const char *origin)
{
	struct ctx c = { origin, STRBUF_INIT };
	int ret = -1, workload_samples = 0, workload_warmup = -1;
	json_t *v;
	size_t old;

	job_defaults(job);
	job->path = xstrdup(origin);
	if (!json_is_object(root)) {
		fail(&c, "expected a JSON object");
		goto out;
	}
	if (check_keys(&c, root, job_keys))
		goto out;
	if (get_strf(&c, root, "name", &job->name) ||
	    get_strf(&c, root, "repo", &job->repo) ||
	    get_strf(&c, root, "good", &job->good) ||
	    get_strf(&c, root, "bad", &job->bad) ||
	    get_strf(&c, root, "kernel", &job->kernel) ||
	    get_strf(&c, root, "results", &job->results))
		goto out;
	if (!job->name)
		job->name = name_from_origin(origin);
	else if (!valid_name(job->name, 64)) {
		old = push(&c, "name");
		fail(&c, "'%s' is not a valid name (letters, digits, '.', '_', "
			 "'-')",
		     job->name);
		pop(&c, old);
		goto out;
	}
	if (job->repo) {
		char *e = expand_home(job->repo);
		free(job->repo);
		job->repo = e;
	}
	if (job->kernel) {
		char *e = expand_home(job->kernel);
		free(job->kernel);
		job->kernel = e;
	}

#define SECTION(key, call)                                                     \
	if ((v = json_object_get(root, key))) {                                \
		old = push(&c, key);                                           \
		int r_ = (call);                                               \
		pop(&c, old);                                                  \
		if (r_)                                                        \
			goto out;                                              \
	}
	SECTION("kconfig", parse_kconfig(&c, v, &job->kconfig));
	SECTION("toolchain", parse_toolchain(&c, v, job));
	SECTION("machine", parse_machine(&c, v, &job->machine));
	SECTION("runs", parse_runs(&c, v, job));
	SECTION("threshold", parse_threshold(&c, v, &job->threshold));

	if ((v = json_object_get(root, "direction"))) {
		static const char *const dirs[] = { "slower", "faster", NULL };
		int i;
		old = push(&c, "direction");
		int r = get_enum(&c, v, dirs, "direction", &i);
		pop(&c, old);
		if (r)
			goto out;
		job->faster = i == 1;
	}
	SECTION("confidence", parse_confidence(&c, v, &job->confidence));
#undef SECTION

	if ((v = json_object_get(root, "bisect_type"))) {
		static const char *const types[] = { "perf", "build", "boot",
						     NULL };
		int i;
		old = push(&c, "bisect_type");
		int r = get_enum(&c, v, types, "bisect type", &i);
		pop(&c, old);
		if (r)
			goto out;
		job->bisect_type = i;
	}

	v = json_object_get(root, "topology");
	if (!v) {
		fail(&c, "missing key 'topology'");
		goto out;
	}
	if (parse_topology(&c, v, job))
		goto out;
	v = json_object_get(root, "workload");
	if (!v) {
		fail(&c, "missing key 'workload'");
		goto out;
	}
	if (parse_workload(&c, v, job, &workload_samples, &workload_warmup))
		goto out;
	/* workload.samples/warmup are the same knobs as runs.*; one place. */
	if (workload_samples || workload_warmup >= 0) {
		json_t *runs = json_object_get(root, "runs");
		if (runs && ((workload_samples &&
			      json_object_get(runs, "samples")) ||
			     (workload_warmup >= 0 &&
			      json_object_get(runs, "warmup")))) {
			fail(&c, "workload: samples and warmup are given in "
				 "'runs' too; keep one");
			goto out;
		}
		if (workload_samples)
			job->samples = workload_samples;
		if (workload_warmup >= 0)
			job->warmup = workload_warmup;
	}

	if ((v = json_object_get(root, "metric"))) {
		static const char *const metrics[] = { "read", "write",
						       "rewrite", NULL };
		int i;
		old = push(&c, "metric");
		int r = get_enum(&c, v, metrics, "metric", &i);
		if (!r) {
			const char *eng = job->points[0].engine;
			int e = in_list(eng, engines);
			struct strvec ms = STRVEC_INIT;
			strvec_split(&ms, engine_metrics[e], ',');
			int found = 0;
			for (size_t k = 0; k < ms.nr; k++)
				found |= !strcmp(ms.v[k], metrics[i]);
			strvec_clear(&ms);
			if (!found)
				r = fail(&c, "engine '%s' reports no '%s'", eng,
					 metrics[i]);
		}
		pop(&c, old);
		if (r)
			goto out;
		free(job->metric);
		job->metric = xstrdup(metrics[i]);
	}
	if (get_strf(&c, root, "metric_point", &job->metric_point))
		goto out;
	if (job->metric_point) {
		int found = 0;
		for (size_t i = 0; i < job->nr_points; i++)
			found |= !strcmp(job->points[i].id, job->metric_point);
		if (!found) {
			old = push(&c, "metric_point");
			fail(&c, "no matrix point '%s' (points are named like "
				 "'%s')",
			     job->metric_point, job->points[0].id);
			pop(&c, old);
			goto out;
		}
	}
	ret = 0;
out:
	strbuf_release(&c.path);
	if (ret)
		job_release(job);
	return ret;
}

int job_parse(struct job *job, const char *text, const char *origin)
{
	json_error_t jerr;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	int ret;
	if (!root) {
		memset(job, 0, sizeof(*job));
		return error("%s: not valid JSON: %s at line %d", origin,
			     jerr.text, jerr.line);
	}
	ret = job_parse_json(job, root, origin);
	json_decref(root);
	return ret;
}

int job_load(struct job *job, const char *path)
{
	return job_load_overrides(job, path, NULL);
}

/* Set root.a.b = value, making objects on the way (strings become presets). */
static int set_dotted(json_t *root, const char *spec, const char *origin)
{
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec)
		return error("%s: override '%s' is not key=value", origin,
			     spec);
	/* jansson refuses other bytes, and the override was lost unsaid. */
	if (!utf8_valid(spec)) {
		struct strbuf shown = STRBUF_INIT;
		strbuf_addsafe(&shown, spec, strlen(spec));
		error("%s: override '%s' is not valid UTF-8", origin,
		      shown.buf);
		strbuf_release(&shown);
		return -1;
	}
	char *path = xstrndup(spec, eq - spec);
	json_t *value = json_loads(eq + 1, JSON_DECODE_ANY, NULL);
	if (!value)
		value = json_string(eq + 1);
	json_t *obj = root;
	char *p = path, *dot;
	int ret = 0;
	while ((dot = strchr(p, '.'))) {
		*dot = '\0';
		json_t *next = json_object_get(obj, p);
		if (json_is_string(next) && !strcmp(p, "topology")) {
			next = json_pack("{s:s}", "preset",
					 json_string_value(next));
			json_object_set_new(obj, p, next);
		} else if (json_is_string(next) && !strcmp(p, "workload")) {
			next = json_pack("{s:s}", "engine",
					 json_string_value(next));
			json_object_set_new(obj, p, next);
		} else if (!next) {
			next = json_object();
			json_object_set_new(obj, p, next);
		} else if (!json_is_object(next)) {
			ret = error("%s: override '%s': '%s' is not an object",
				    origin, spec, p);
			goto out;
		}
		obj = next;
		p = dot + 1;
	}
	if (json_object_set(obj, p, value))
		ret = error("%s: override '%s' cannot be set", origin, spec);
out:
	json_decref(value);
	free(path);
	return ret;
}

int job_load_overrides(struct job *job, const char *path,
		       const char *const *overrides)
{
	struct strbuf text = STRBUF_INIT;
	json_error_t jerr;
	json_t *root;
	const char *origin = path ? path : "command line";
	int ret = -1;

	memset(job, 0, sizeof(*job));
	if (path) {
		if (read_file_max(path, &text, JOB_FILE_MAX))
			return -1;
		root = json_loadb(text.buf, text.len, JSON_REJECT_DUPLICATES,
				  &jerr);
		if (!root) {
			error("%s: not valid JSON: %s at line %d", path,
			      jerr.text, jerr.line);
			goto out;
		}
	} else {
		root = json_pack("{s:s}", "name", "run");
	}
	for (size_t i = 0; overrides && overrides[i]; i++)
		if (set_dotted(root, overrides[i], origin)) {
			json_decref(root);
			goto out;
		}
	ret = job_parse_json(job, root, origin);
	json_decref(root);
out:
	strbuf_release(&text);
	return ret;
}

int job_check_bisect(const struct job *job)
{
	const char *missing = !job->repo ? "repo"
			      : !job->good ? "good"
			      : !job->bad  ? "bad"
					   : NULL;
	if (missing)
		return error("%s: missing key '%s' (needed to bisect)",
			     job->path ? job->path : "job", missing);
	return 0;
}

const struct point *job_find_point(const struct job *job, int topo,
				   const char *id)
{
	for (size_t i = 0; i < job->nr_points; i++)
		if (job->points[i].topo == topo &&
		    !strcmp(job->points[i].id, id))
			return &job->points[i];
	return NULL;
}

int job_find_topology(const struct job *job, const char *name)
{
	for (size_t i = 0; i < job->nr_topologies; i++)
		if (!strcmp(job->topologies[i].name, name))
			return (int)i;
	return -1;
}

void job_release(struct job *job)
{
	free(job->path);
	free(job->name);
	free(job->repo);
	free(job->good);
	free(job->bad);
	free(job->kernel);
	free(job->kconfig.base);
	strvec_clear(&job->kconfig.fragments);
	for (size_t i = 0; i < job->kconfig.nr_rules; i++)
		strvec_clear(&job->kconfig.rules[i].fragments);
	free(job->kconfig.rules);
	for (size_t i = 0; i < job->nr_toolchains; i++) {
		free(job->toolchains[i].cc);
		free(job->toolchains[i].hostcc);
	}
	free(job->toolchains);
	free(job->machine.accel);
	free(job->machine.qemu);
	free(job->machine.append);
	for (size_t i = 0; i < job->nr_topologies; i++)
		topology_release(&job->topologies[i]);
	free(job->topologies);
	for (size_t i = 0; i < job->nr_points; i++) {
		free(job->points[i].id);
		free(job->points[i].engine);
		free(job->points[i].target);
		strvec_clear(&job->points[i].keys);
	}
	free(job->points);
	free(job->metric);
	free(job->metric_point);
	free(job->results);
	memset(job, 0, sizeof(*job));
}
