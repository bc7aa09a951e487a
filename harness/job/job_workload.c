/*
 * job_workload.c: a job's "workload": the engine, its keys (checked
 * against proto/spec_keys.h), the target on each topology, and the matrix
 * of points the keys given as lists make, one per combination and
 * topology (matrix.h).
 */
#include "job_parse.h"
#include "job_reference.h"
#include "matrix.h"

#include <ctype.h>
#include <string.h>

static const char *const fadvises[] = {PROTO_FADVISES, NULL};

/* Each engine's key rules, as proto/spec_keys.h lists them. */
#define RULES(engine, KEYS, metrics)                                           \
	static const struct key_rule engine##_rules[] = {                      \
		KEYS(KEY_RULE) KEY_RULES_END};
PROTO_ENGINES(RULES)
#undef RULES
#define ENGINE_NAME(engine, KEYS, metrics) #engine,
#define ENGINE_RULES(engine, KEYS, metrics) engine##_rules,
#define ENGINE_METRICS(engine, KEYS, metrics) metrics,
static const char *const engines[] = {PROTO_ENGINES(ENGINE_NAME) NULL};
static const struct key_rule *const engine_rules[] = {
	PROTO_ENGINES(ENGINE_RULES)};
/* The metrics each engine reports, for checking the job's metric. */
static const char *const engine_metrics[] = {PROTO_ENGINES(ENGINE_METRICS)};
#undef ENGINE_NAME
#undef ENGINE_RULES
#undef ENGINE_METRICS

int job_engine_index(const char *engine)
{
	return list_index(engine, engines);
}

const struct key_rule *job_engine_rules(const char *engine)
{
	int i = list_index(engine, engines);
	return i < 0 ? NULL : engine_rules[i];
}

const char *job_engine_metrics(int i)
{
	return engine_metrics[i];
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
	return strvec_value(&l->keys, key);
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

static int check_target(struct keypath *c, const struct topology *t, int engine,
			const char *target)
{
	if (target[0] == '/') {
		if (!strcmp(engines[engine], "rawread"))
			return kp_fail(c,
				       "engine 'rawread' reads a block device, "
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
		return kp_fail(c,
			       "'%s' is not on a file system of topology '%s'",
			       target, t->name);
	}
	if (!strcmp(engines[engine], "bonnie"))
		return kp_fail(c,
			       "engine 'bonnie' needs a file target on a "
			       "file system, not '%s'",
			       target);
	if (!topo_has(t, target))
		return kp_fail(c,
			       "'%s' is not a disk or layer of topology '%s'",
			       target, t->name);
	for (size_t i = 0; i < t->nr_layers; i++)
		if (!strcmp(t->layers[i].kind, "fs") &&
		    !strcmp(layer_get(&t->layers[i], "name"), target))
			return kp_fail(c,
				       "'%s' is a file system; give a file "
				       "path under its mount",
				       target);
	return 0;
}

/* Point ids are folder names: keep [A-Za-z0-9._,=+-], others become '_'. */
void job_id_sanitize(char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._,=+-", *s))
			*s = '_';
}

const char *const job_workload_keys[] = {"engine", "target", "samples",
					 "warmup", NULL};
/* Keys of the fio engine that the harness sets (job_fio.c), never a job. */
static const char *const fio_harness_keys[] = {"build", "kernel_min", NULL};

const char *const *job_engines(void)
{
	return engines;
}

int job_engine_key_given(const char *engine, const struct key_rule *r)
{
	return strcmp(engine, "fio") || list_index(r->key, fio_harness_keys) < 0;
}

/* The workload's keys as read, each with its values, before its points. */
struct workload_read {
	struct wkey keys[32];
	size_t nr;
	struct matrix m;
	size_t total; /* the points of one topology so far */
	int engine, is_fio;
	struct strbuf sb; /* the value being read */
	struct strvec fio_keys;
	char *fio_text;
};

/* The engine: the workload's name, or its "engine" (*w NULL for a name). */
static int workload_engine(struct keypath *c, json_t **w, int *engine)
{
	if (json_is_string(*w)) {
		if (kp_enum(c, *w, engines, "engine", engine))
			return -1;
		*w = NULL;
	} else if (!json_is_object(*w)) {
		return kp_fail(c, "expected an engine name or an object");
	} else {
		json_t *e = json_object_get(*w, "engine");
		if (!e)
			return kp_fail(c,
				       "missing 'engine' (seqread, seqwrite, "
				       "rawread, bonnie or fio)");
		size_t o2 = kp_push(c, "engine");
		int r = kp_enum(c, e, engines, "engine", engine);
		kp_pop(c, o2);
		if (r)
			return -1;
	}
	return 0;
}

/* One value into *sb: a target is a word of the guest's, the rest by rule. */
static int workload_value(struct keypath *c, struct strbuf *sb, int is_target,
			  const struct key_rule *ek, json_t *e)
{
	const char *s;
	int r;

	if (!is_target)
		return kp_rule_value(c, ek, e, sb);
	r = kp_str(c, e, &s);
	strbuf_reset(sb);
	if (!r)
		strbuf_addstr(sb, s);
	if (!r && !job_valid_word(s))
		r = kp_fail(c, "'%s' cannot contain blanks", s);
	if (!r && strlen(s) > PROTO_SPEC_MAX_VALUE)
		r = kp_fail(c,
			    "'%.32s...' is longer than the guest takes (%d "
			    "bytes)",
			    s, PROTO_SPEC_MAX_VALUE);
	return r;
}

/* Workload key `key` (one value, or a list to expand over) into wr. */
static int workload_key(struct keypath *c, struct workload_read *wr,
			const struct job *job, const char *key, json_t *v)
{
	const struct key_rule *ek =
		key_rule_find(engine_rules[wr->engine], key);
	int is_target = !strcmp(key, "target");

	if (!is_target && list_index(key, job_workload_keys) >= 0)
		return 0;
	/* job_fio_workload read the job; the rest is the harness's. */
	if (wr->is_fio && !strcmp(key, "job"))
		return 0;
	if (wr->is_fio && list_index(key, fio_harness_keys) >= 0)
		return kp_fail(
			c, "'%s' is set by iobisect, from the host's fio", key);
	if (!is_target && !ek)
		return kp_fail(c, "unknown key '%s' for engine '%s'", key,
			       engines[wr->engine]);
	if (wr->nr == ARRAY_SIZE(wr->keys))
		return kp_fail(c, "too many keys");
	/*
	 * The cap before the values are checked against each other
	 * (quadratic): 100,000 targets took half a minute to refuse.
	 */
	if (json_is_array(v) &&
	    (json_array_size(v) > JOB_MAX_POINTS ||
	     wr->total * json_array_size(v) * job->nr_topologies >
		     JOB_MAX_POINTS))
		return kp_fail(c,
			       "the matrix has more than %d points (%zu "
			       "topologies x the workload's lists)",
			       JOB_MAX_POINTS, job->nr_topologies);
	struct wkey *k = &wr->keys[wr->nr++];
	size_t o2 = kp_push(c, key);
	k->key = key;
	k->list = json_is_array(v);
	size_t n = k->list ? json_array_size(v) : 1;
	if (k->list && !n) {
		kp_fail(c, "empty list");
		kp_pop(c, o2);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *e = k->list ? json_array_get(v, i) : v;
		size_t o3 = k->list ? kp_push_idx(c, i) : c->path.len;
		int r = workload_value(c, &wr->sb, is_target, ek, e);
		for (size_t q = 0; !r && q < k->values.nr; q++)
			if (!strcmp(k->values.v[q], wr->sb.buf))
				r = kp_fail(c, "'%s' is listed twice",
					    wr->sb.buf);
		kp_pop(c, o3);
		if (r) {
			kp_pop(c, o2);
			return -1;
		}
		strvec_push(&k->values, wr->sb.buf);
	}
	kp_pop(c, o2);
	matrix_add(&wr->m, n);
	wr->total = matrix_total(&wr->m, JOB_MAX_POINTS);
	return 0;
}

/* The keys the harness adds to the workload's, one value each. */
static void workload_added_keys(struct workload_read *wr, const struct job *job,
				json_t *w)
{
	/*
	 * A job with good and bad is meant for bisection: bound its samples
	 * by time unless the workload says otherwise (runtime_ms 0 keeps the
	 * byte count). As a single value the key leaves point ids as they
	 * were; it enters the spec, so the spec hash keeps these samples
	 * apart from byte-bound ones.
	 */
	if (job->good && job->bad &&
	    key_rule_find(engine_rules[wr->engine], "runtime_ms") &&
	    !json_object_get(w, "runtime_ms")) {
		struct wkey *k = &wr->keys[wr->nr++];
		k->key = "runtime_ms";
		strvec_pushf(&k->values, "%d", JOB_BISECT_RUNTIME_MS);
		matrix_add(&wr->m, 1);
	}
	/* The fio keys, one value each: they name no point. */
	for (size_t i = 0; i < wr->fio_keys.nr; i++) {
		struct wkey *k = &wr->keys[wr->nr++];
		char *eq = strchr(wr->fio_keys.v[i], '=');
		*eq = '\0';
		k->key = wr->fio_keys.v[i];
		strvec_push(&k->values, eq + 1);
		matrix_add(&wr->m, 1);
	}
}

/* The matrix's size, in all and per topology, within what a boot runs. */
static int workload_caps(struct keypath *c, const struct workload_read *wr,
			 const struct job *job)
{
	/* Each point costs samples x boots of guest time: keep it sane. */
	if (wr->total * job->nr_topologies > JOB_MAX_POINTS)
		return kp_fail(c,
			       "the matrix has more than %d points (%zu "
			       "topologies x the workload's lists)",
			       JOB_MAX_POINTS, job->nr_topologies);
	/* One boot runs every point of its topology; the guest stops here. */
	if (wr->total > JOB_MAX_POINTS_PER_TOPOLOGY)
		return kp_fail(c,
			       "the matrix has %zu points per topology; a boot "
			       "runs at most %d",
			       wr->total, JOB_MAX_POINTS_PER_TOPOLOGY);
	return 0;
}

/* Point `n` of the matrix on topology `t`: its keys, target and name. */
static int workload_point(struct keypath *c, const struct workload_read *wr,
			  struct job *job, size_t t, size_t n,
			  const char *deftarget)
{
	const struct topology *topo = &job->topologies[t];
	struct point *p = &job->points[job->nr_points++];
	struct strbuf id = STRBUF_INIT;
	size_t pick[MATRIX_MAX_LISTS];

	matrix_pick(&wr->m, n, pick);
	p->engine = xstrdup(engines[wr->engine]);
	p->topo = (int)t;
	for (size_t k = 0; k < wr->nr; k++) {
		const char *val = wr->keys[k].values.v[pick[k]];
		if (wr->keys[k].list)
			strbuf_addf(&id, "%s%s=%s", id.len ? "," : "",
				    wr->keys[k].key, val);
		/*
		 * runtime_ms=0 is no bound, as when absent: left out, it
		 * leaves the spec and the spec hash as they were before the
		 * key existed.
		 */
		if (!strcmp(wr->keys[k].key, "target"))
			p->target = xstrdup(val);
		else if (strcmp(wr->keys[k].key, "runtime_ms") ||
			 strcmp(val, "0"))
			strvec_pushf(&p->keys, "%s=%s", wr->keys[k].key, val);
	}
	if (!p->target)
		p->target = xstrdup(deftarget);
	if (wr->fio_text)
		p->fio_job = xstrdup(wr->fio_text);
	if (!id.len)
		strbuf_addstr(&id, "default");
	job_id_sanitize(id.buf);
	p->id = strbuf_detach(&id);
	if (strlen(p->id) > PROTO_SPEC_MAX_VALUE)
		return kp_fail(c,
			       "point '%.32s...' has a name longer than the "
			       "guest takes (%d bytes)",
			       p->id, PROTO_SPEC_MAX_VALUE);
	size_t o2 = kp_push(c, "target");
	int r = check_target(c, topo, wr->engine, p->target);
	kp_pop(c, o2);
	return r ? -1 : 0;
}

/* Every point: each topology by each combination of the lists. */
static int workload_points(struct keypath *c, const struct workload_read *wr,
			   struct job *job)
{
	job->points =
		xcalloc(wr->total * job->nr_topologies, sizeof(*job->points));
	for (size_t t = 0; t < job->nr_topologies; t++) {
		char *deftarget = default_target(&job->topologies[t]);
		for (size_t n = 0; n < wr->total; n++)
			if (workload_point(c, wr, job, t, n, deftarget)) {
				free(deftarget);
				return -1;
			}
		free(deftarget);
	}
	return 0;
}

int job_parse_workload(struct keypath *c, json_t *w, struct job *job,
		       int *samples, int *warmup)
{
	struct workload_read wr = {
		.total = 1, .sb = STRBUF_INIT, .fio_keys = STRVEC_INIT};
	int ret = -1;
	const char *key;
	json_t *v;
	size_t old = kp_push(c, "workload");

	if (workload_engine(c, &w, &wr.engine))
		goto out;
	if (w && (kp_intf(c, w, "samples", 1, 1000, samples) ||
		  kp_intf(c, w, "warmup", 0, 100, warmup)))
		goto out;
	wr.is_fio = !strcmp(engines[wr.engine], "fio");
	if (wr.is_fio) {
		if (job_fio_workload(c, w, &wr.fio_text, &wr.fio_keys))
			goto out;
		job_fio_kconfig(job);
	}
	json_object_foreach(w, key, v) {
		if (workload_key(c, &wr, job, key, v))
			goto out;
	}
	if (w && json_object_get(w, "size_mb") && json_object_get(w, "ram_x")) {
		kp_fail(c, "size_mb and ram_x exclude each other");
		goto out;
	}
	workload_added_keys(&wr, job, w);
	if (workload_caps(c, &wr, job) || workload_points(c, &wr, job))
		goto out;
	ret = 0;
out:
	for (size_t k = 0; k < wr.nr; k++)
		strvec_clear(&wr.keys[k].values);
	strvec_clear(&wr.fio_keys);
	free(wr.fio_text);
	strbuf_release(&wr.sb);
	kp_pop(c, old);
	return ret;
}
