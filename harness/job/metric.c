/*
 * metric.c: naming, checking and reading a job's metric (metric.h).
 */
#include "metric.h"
#include "keypath.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the fio engine keeps of each latency object (fio_output.c). */
static const char *const lat_objects[] = {"slat_ns", "clat_ns", "lat_ns",
					  NULL};
static const char *const lat_fields[] = {"min", "max", "mean", "stddev",
					 NULL};

/* The direction: `name` up to its first dot, in `buf`. */
static const char *direction_of(const char *name, char *buf, size_t size)
{
	size_t n = strcspn(name, ".");
	if (n >= size)
		n = size - 1;
	memcpy(buf, name, n);
	buf[n] = '\0';
	return buf;
}

/* "99", "99.9", "99.000000" -> fio's "%f" name; -1 if not in (0, 100]. */
static int percentile_name(const char *s, struct strbuf *out)
{
	double p;
	if (parse_decimal(s, &p) || !(p > 0 && p <= 100))
		return -1;
	strbuf_addf(out, "%f", p);
	return 0;
}

/* The part after "<direction>." of a fio metric; "" when it is none. */
static int check_detail(const char *d, struct strbuf *canon)
{
	if (!strcmp(d, "bw_bytes") || !strcmp(d, "iops")) {
		strbuf_addstr(canon, d);
		return 0;
	}
	for (size_t i = 0; lat_objects[i]; i++) {
		size_t n = strlen(lat_objects[i]);
		if (strncmp(d, lat_objects[i], n) || d[n] != '.')
			continue;
		const char *rest = d + n + 1;
		strbuf_addf(canon, "%s.", lat_objects[i]);
		if (list_index(rest, lat_fields) >= 0) {
			strbuf_addstr(canon, rest);
			return 0;
		}
		if (!strncmp(rest, "percentile.", 11)) {
			strbuf_addstr(canon, "percentile.");
			return percentile_name(rest + 11, canon);
		}
	}
	return -1;
}

int metric_check(const char *name, const char *directions, int detailed,
		 char **out, struct strbuf *why)
{
	struct strvec dirs = STRVEC_INIT;
	struct strbuf canon = STRBUF_INIT;
	char dir[16];
	int rc = -1;

	strvec_split(&dirs, directions, ',');
	direction_of(name, dir, sizeof(dir));
	if (strvec_index(&dirs, dir) < 0) {
		strbuf_addf(why, "reports no '%s' (only %s)", dir, directions);
		goto out;
	}
	strbuf_addstr(&canon, dir);
	if (name[strlen(dir)] == '.') {
		strbuf_addch(&canon, '.');
		if (!detailed) {
			strbuf_addf(why,
				    "keeps a direction's bandwidth alone, not "
				    "'%s' (fio's figures are the fio engine's)",
				    name);
			goto out;
		}
		if (check_detail(name + strlen(dir) + 1, &canon)) {
			strbuf_addf(why,
				    "reports no '%s' (fio's figures: %s.iops, "
				    "%s.bw_bytes, %s.clat_ns.mean, "
				    "%s.clat_ns.percentile.99.000000, ...)",
				    name, dir, dir, dir, dir);
			goto out;
		}
	}
	*out = strbuf_detach(&canon);
	rc = 0;
out:
	strvec_clear(&dirs);
	strbuf_release(&canon);
	return rc;
}

int metric_higher_better(const char *name)
{
	return !strstr(name, "_ns.");
}

json_t *metric_object(json_t *doc, const char *name)
{
	char dir[16];
	return json_object_get(doc, direction_of(name, dir, sizeof(dir)));
}

/*
 * Walk `path` down from `v`: at each object, the key that is the whole
 * rest of the path wins, else the key followed by a dot ("99.000000" is
 * one key, "clat_ns" the start of a path).
 */
static json_t *walk(json_t *v, const char *path)
{
	while (*path) {
		const char *key;
		json_t *child, *next = NULL;
		size_t best = 0;
		if (!json_is_object(v))
			return NULL;
		json_object_foreach(v, key, child) {
			size_t n = strlen(key);
			if (!strcmp(key, path))
				return child;
			if (n > best && !strncmp(path, key, n) &&
			    path[n] == '.') {
				best = n;
				next = child;
			}
		}
		if (!next)
			return NULL;
		v = next;
		path += best + 1;
	}
	return v;
}

int metric_value(json_t *obj, const char *name, double *out)
{
	const char *dot = strchr(name, '.');
	json_t *v = walk(obj, dot ? dot + 1 : "bw_bytes");
	if (!json_is_number(v))
		return -1;
	double x = json_number_value(v);
	if (!isfinite(x) || x < 0)
		return -1;
	if (!metric_higher_better(name)) {
		if (x <= 0)
			return -1;
		x = 1e9 / x;
	}
	*out = x;
	return 0;
}
