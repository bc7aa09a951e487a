/*
 * fio_output.c: fio's JSON report into per-direction results
 * (fio_output.h), and those results into a `sample` frame's "fio" object.
 */
#include "fio_output.h"
#include "json_read.h"
#include "report.h"

#include <stdio.h>
#include <string.h>

static const char *const dir_names[] = {"read", "write", "trim"};

static void get_u64(const struct jr_doc *d, int obj, const char *key,
		    uint64_t *out)
{
	if (jr_u64(d, jr_get(d, obj, key), out))
		*out = 0;
}

static void get_double(const struct jr_doc *d, int obj, const char *key,
		       double *out)
{
	if (jr_double(d, jr_get(d, obj, key), out))
		*out = 0;
}

static void read_lat(const struct jr_doc *d, int obj, struct fio_lat *l)
{
	memset(l, 0, sizeof(*l));
	if (obj < 0)
		return;
	get_u64(d, obj, "N", &l->n);
	l->have = l->n > 0;
	if (!l->have)
		return;
	get_u64(d, obj, "min", &l->min);
	get_u64(d, obj, "max", &l->max);
	get_double(d, obj, "mean", &l->mean);
	get_double(d, obj, "stddev", &l->stddev);
	int pct = jr_get(d, obj, "percentile");
	if (pct < 0 || d->nodes[pct].type != JR_OBJ)
		return;
	for (int i = d->nodes[pct].first; i >= 0 && l->nr_pct < FIO_MAX_PCT;
	     i = d->nodes[i].next) {
		const struct jr_node *n = &d->nodes[i];
		if (n->key_len >= sizeof(l->pct[0].name) ||
		    jr_u64(d, i, &l->pct[l->nr_pct].ns))
			continue;
		memcpy(l->pct[l->nr_pct].name, n->key, n->key_len);
		l->pct[l->nr_pct].name[n->key_len] = '\0';
		l->nr_pct++;
	}
}

static int parse_job(struct fio_job_result *out, const struct jr_doc *d,
		     int job, char *err, size_t errsize)
{
	uint64_t error = 0;
	int name = jr_get(d, job, "jobname");
	if (name >= 0 && d->nodes[name].type == JR_STR)
		snprintf(out->jobname, sizeof(out->jobname), "%.*s",
			 (int)d->nodes[name].text_len, d->nodes[name].text);
	get_u64(d, job, "error", &error);
	if (error) {
		snprintf(err, errsize, "fio job '%s' ended with error %llu (%s)",
			 out->jobname, (unsigned long long)error,
			 strerror((int)error));
		return -1;
	}
	get_double(d, job, "usr_cpu", &out->usr_cpu);
	get_double(d, job, "sys_cpu", &out->sys_cpu);
	get_u64(d, job, "job_runtime", &out->job_runtime_ms);
	for (size_t k = 0; k < sizeof(dir_names) / sizeof(*dir_names); k++) {
		int o = jr_get(d, job, dir_names[k]);
		struct fio_dir *x = &out->dirs[out->nr_dirs];
		if (o < 0)
			continue;
		memset(x, 0, sizeof(*x));
		x->name = dir_names[k];
		get_u64(d, o, "io_bytes", &x->io_bytes);
		get_u64(d, o, "total_ios", &x->total_ios);
		if (!x->io_bytes && !x->total_ios)
			continue;
		get_u64(d, o, "bw_bytes", &x->bw_bytes);
		get_u64(d, o, "runtime", &x->runtime_ms);
		get_double(d, o, "iops", &x->iops);
		read_lat(d, jr_get(d, o, "slat_ns"), &x->slat);
		read_lat(d, jr_get(d, o, "clat_ns"), &x->clat);
		read_lat(d, jr_get(d, o, "lat_ns"), &x->lat);
		out->nr_dirs++;
	}
	if (!out->nr_dirs) {
		snprintf(err, errsize, "fio job '%s' moved no data",
			 out->jobname);
		return -1;
	}
	return 0;
}

int fio_output_parse(struct fio_job_result *out, const char *text,
		     size_t len, char *err, size_t errsize)
{
	struct jr_doc d = JR_DOC_INIT;
	const char *brace = memchr(text, '{', len);
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!brace) {
		snprintf(err, errsize, "fio wrote no JSON report");
		return -1;
	}
	if (jr_parse(&d, brace, len - (size_t)(brace - text))) {
		snprintf(err, errsize, "fio's report is not JSON: %s", d.err);
		goto out;
	}
	int jobs = jr_get(&d, 0, "jobs"), nr = 0, job = -1;
	if (jobs < 0 || d.nodes[jobs].type != JR_ARR) {
		snprintf(err, errsize, "fio's report has no 'jobs' list");
		goto out;
	}
	for (int i = d.nodes[jobs].first; i >= 0; i = d.nodes[i].next, nr++)
		job = i;
	if (nr != 1) {
		snprintf(err, errsize,
			 "fio reported %d jobs; a point measures one (fio's "
			 "group_reporting merges several)",
			 nr);
		goto out;
	}
	rc = parse_job(out, &d, job, err, errsize);
out:
	jr_release(&d);
	return rc;
}

static void lat_json(struct json *j, const char *key, const struct fio_lat *l)
{
	if (!l->have)
		return;
	json_obj_begin(j, key);
	json_u64(j, "min", l->min);
	json_u64(j, "max", l->max);
	json_double(j, "mean", l->mean);
	json_double(j, "stddev", l->stddev);
	json_u64(j, "N", l->n);
	if (l->nr_pct) {
		json_obj_begin(j, "percentile");
		for (int i = 0; i < l->nr_pct; i++)
			json_u64(j, l->pct[i].name, l->pct[i].ns);
		json_end(j);
	}
	json_end(j);
}

void fio_output_json(struct json *j, const struct fio_dir *d)
{
	json_obj_begin(j, "fio");
	json_double(j, "iops", d->iops);
	json_u64(j, "total_ios", d->total_ios);
	lat_json(j, "slat_ns", &d->slat);
	lat_json(j, "clat_ns", &d->clat);
	lat_json(j, "lat_ns", &d->lat);
	json_end(j);
}
