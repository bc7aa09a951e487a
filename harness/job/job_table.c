/*
 * job_table.c: a job's "table": how `iobisect run` lays out its medians,
 * as the report the job reproduces printed them (table.h). The keys it
 * names are checked against the job's topologies and points, so a typo
 * costs a second, not a boot.
 */
#include "job_parse.h"

#include <string.h>

/* A key a table may name: the metric, the topology, or a list's key. */
static int table_key_known(const struct job *job, const char *key)
{
	if (!strcmp(key, "metric") || !strcmp(key, "topology"))
		return 1;
	for (size_t i = 0; i < job->nr_topologies; i++)
		if (table_spec_name_has(job->topologies[i].name, key))
			return 1;
	for (size_t i = 0; i < job->nr_points; i++)
		if (table_spec_name_has(job->points[i].id, key))
			return 1;
	return 0;
}

static int table_key(struct keypath *c, const struct job *job, json_t *v,
		     char **out)
{
	const char *s;
	if (kp_str(c, v, &s))
		return -1;
	if (!table_key_known(job, s))
		return kp_fail(c,
			       "'%s' is not the metric, the topology, or a "
			       "workload or topology key given as a list",
			       s);
	*out = xstrdup(s);
	return 0;
}

/* "labels" {key: text} or "divide" {key: number} into "key=value". */
static int table_map(struct keypath *c, const struct job *job, json_t *obj,
		     const char *name, struct strvec *out)
{
	json_t *m = json_object_get(obj, name), *v;
	int labels = !strcmp(name, "labels"), ret = 0;
	const char *key, *text;
	size_t old;

	if (!m)
		return 0;
	old = kp_push(c, name);
	if (!json_is_object(m))
		ret = kp_fail(c, "expected an object");
	json_object_foreach(m, key, v) {
		size_t o2 = kp_push(c, key);
		if (!table_key_known(job, key))
			ret = kp_fail(c, "no key '%s' to name", key);
		else if (labels && !(ret = kp_str(c, v, &text)))
			strvec_pushf(out, "%s=%s", key, text);
		else if (!labels &&
			 (!json_is_number(v) || !(json_number_value(v) > 0)))
			ret = kp_fail(c, "expected a number above 0");
		else if (!labels)
			strvec_pushf(out, "%s=%g", key, json_number_value(v));
		kp_pop(c, o2);
		if (ret)
			break;
	}
	kp_pop(c, old);
	return ret;
}

/*
 * "table": {"title", "rows": [keys], "columns": key, "labels": {..},
 * "divide": {..}, "cpu": bool}: the report's own table (table.h).
 */
int job_parse_table(struct keypath *c, json_t *v, struct job *job)
{
	static const char *const keys[] = {
		"title", "rows", "columns", "labels", "divide", "cpu", NULL};
	struct table_spec *t = &job->table;
	json_t *rows;

	if (!json_is_object(v))
		return kp_fail(c, "expected an object");
	if (kp_check_keys(c, v, keys) || kp_strf(c, v, "title", &t->title) ||
	    kp_boolf(c, v, "cpu", &t->cpu))
		return -1;
	if ((rows = json_object_get(v, "rows"))) {
		size_t old = kp_push(c, "rows");
		int ret = json_is_array(rows) && json_array_size(rows)
				  ? 0
				  : kp_fail(c, "expected a list of keys");
		for (size_t i = 0; !ret && i < json_array_size(rows); i++) {
			size_t o2 = kp_push_idx(c, i);
			char *k = NULL;
			ret = table_key(c, job, json_array_get(rows, i), &k);
			if (!ret)
				strvec_push(&t->rows, k);
			free(k);
			kp_pop(c, o2);
		}
		kp_pop(c, old);
		if (ret)
			return -1;
	}
	if (json_object_get(v, "columns")) {
		size_t old = kp_push(c, "columns");
		int ret = table_key(c, job, json_object_get(v, "columns"),
				    &t->columns);
		kp_pop(c, old);
		if (ret)
			return -1;
	}
	return table_map(c, job, v, "labels", &t->labels) ||
			       table_map(c, job, v, "divide", &t->divide)
		       ? -1
		       : 0;
}
