/*
 * job_topology.c: a job's "topology": a preset (qemu/<name>.json,
 * job_preset.c), a preset with overrides, or a whole topology of disks
 * and layers. Layer keys are checked against proto/spec_keys.h,
 * references between layers against the layers before them, and keys
 * given as lists expand into one topology per combination (matrix.h).
 */
#include "job_parse.h"
#include "job_reference.h"
#include "job_topology_priv.h"
#include "matrix.h"

#include <stdlib.h>
#include <string.h>

static const char *const md_levels[] = {PROTO_MD_LEVELS, NULL};
static const char *const md_metadata[] = {PROTO_MD_METADATA, NULL};
static const char *const md_layouts[] = {PROTO_MD_LAYOUTS, NULL};
static const char *const bool01[] = {PROTO_BOOL01, NULL};
static const char *const md_methods[] = {PROTO_MD_METHODS, NULL};
static const char *const dm_methods[] = {PROTO_DM_METHODS, NULL};
static const char *const loop_methods[] = {PROTO_LOOP_METHODS, NULL};
static const char *const fs_types[] = {PROTO_FS_TYPES, NULL};

/* Each kind's key rules, as proto/spec_keys.h lists them. */
#define RULES(kind, KEYS)                                                      \
	static const struct key_rule kind##_rules[] = {KEYS(KEY_RULE)          \
							       KEY_RULES_END};
PROTO_LAYERS(RULES)
#undef RULES
#define KIND_NAME(kind, KEYS) #kind,
#define KIND_RULES(kind, KEYS) kind##_rules,
static const char *const layer_kinds[] = {PROTO_LAYERS(KIND_NAME) NULL};
static const struct key_rule *const kind_rules[] = {PROTO_LAYERS(KIND_RULES)};
#undef KIND_NAME
#undef KIND_RULES

const char *const *job_layer_kinds(void)
{
	return layer_kinds;
}

const struct key_rule *job_layer_rules(const char *kind)
{
	int i = list_index(kind, layer_kinds);
	return i < 0 ? NULL : kind_rules[i];
}

void draft_layer_release(struct draft_layer *l)
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

/* Set layer key `key` from JSON `v` (replacing an earlier value). */
int layer_set(struct keypath *c, struct draft_layer *l, const char *key,
	      json_t *v)
{
	const struct key_rule *r = key_rule_find(kind_rules[l->kind], key);
	struct strbuf sb = STRBUF_INIT;
	struct draft_key nk = {NULL, STRVEC_INIT, 0};
	int ret = -1;
	size_t old = kp_push(c, key);

	if (!r) {
		kp_pop(c, old);
		return kp_fail(c, "unknown key '%s' for layer kind '%s'", key,
			       layer_kinds[l->kind]);
	}
	if (r->check == K_REFS || r->check == K_ARGS) {
		if (kp_words(c, v, &sb))
			goto out;
		strvec_push(&nk.values, sb.buf);
	} else if (json_is_array(v)) {
		/* A list expands the topology into one per value. */
		if (r->check == K_NAME || r->check == K_REF) {
			kp_fail(c, "cannot be a list");
			goto out;
		}
		if (!json_array_size(v)) {
			kp_fail(c, "empty list");
			goto out;
		}
		/* The cap before the duplicate check, which is quadratic. */
		if (json_array_size(v) > JOB_MAX_TOPOLOGIES) {
			kp_fail(c,
				"%zu values: the topology lists expand to more "
				"than %d topologies",
				json_array_size(v), JOB_MAX_TOPOLOGIES);
			goto out;
		}
		for (size_t i = 0; i < json_array_size(v); i++) {
			size_t o2 = kp_push_idx(c, i);
			if (kp_rule_value(c, r, json_array_get(v, i), &sb)) {
				kp_pop(c, o2);
				goto out;
			}
			for (size_t k = 0; k < nk.values.nr; k++)
				if (!strcmp(nk.values.v[k], sb.buf)) {
					kp_fail(c, "'%s' is listed twice",
						sb.buf);
					kp_pop(c, o2);
					goto out;
				}
			kp_pop(c, o2);
			strvec_push(&nk.values, sb.buf);
		}
		nk.expand = 1;
	} else {
		if (kp_rule_value(c, r, v, &sb))
			goto out;
		if (r->check == K_NAME && !job_valid_name(sb.buf, 32)) {
			kp_fail(c, "'%s' is not a valid name", sb.buf);
			goto out;
		}
		strvec_push(&nk.values, sb.buf);
	}
	if (r->check == K_NAME) {
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
	kp_pop(c, old);
	return ret;
}

static int layer_parse(struct keypath *c, json_t *v, struct draft_layer *l)
{
	json_t *kind = json_object_get(v, "kind");
	const char *key;
	json_t *val;
	size_t old;

	memset(l, 0, sizeof(*l));
	if (!json_is_object(v))
		return kp_fail(c, "expected an object");
	if (!kind)
		return kp_fail(c, "missing 'kind' (part, md, dm, loop or fs)");
	old = kp_push(c, "kind");
	if (kp_enum(c, kind, layer_kinds, "layer kind", &l->kind)) {
		kp_pop(c, old);
		return -1;
	}
	kp_pop(c, old);
	/* name= comes first in the spec, whatever the file order. */
	if (!json_object_get(v, "name"))
		return kp_fail(c, "missing 'name'");
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

static struct draft_key *find_key(struct draft_layer *l, const char *key)
{
	for (size_t j = 0; j < l->nr_keys; j++)
		if (!strcmp(l->keys[j].key, key))
			return &l->keys[j];
	return NULL;
}

/* Checks that need the whole topology: sizes, references, names. */
int draft_check(struct keypath *c, struct draft *d)
{
	if (!d->nr_disks)
		return kp_fail(c, "needs at least one disk");
	/* A preset's own layers plus extra_layers may pass the cap. */
	if (d->nr_layers > JOB_MAX_LAYERS)
		return kp_fail(c, "%zu layers: a boot builds at most %d",
			       d->nr_layers, JOB_MAX_LAYERS);
	for (size_t i = 0; i < d->nr_disks; i++) {
		struct disk_spec *k = &d->disks[i];
		if (k->backing != BACKING_HOST && !k->size_mb)
			return kp_fail(c, "disk '%s' needs size_mb", k->name);
		if (k->backing != BACKING_HOST && k->path)
			return kp_fail(
				c, "disk '%s': path is only for backing host",
				k->name);
		if (k->latency_ns && k->backing != BACKING_NULL)
			return kp_fail(
				c,
				"disk '%s': latency_ns needs backing null "
				"(use bps_max or iops_max for images)",
				k->name);
		/*
		 * A null disk has latency_ns for every request; a host
		 * disk is a real one and has its own.
		 */
		if (k->write_latency_ns && k->backing != BACKING_IMAGE &&
		    k->backing != BACKING_TMPFS)
			return kp_fail(c,
				       "disk '%s': write_latency_ns needs "
				       "backing image or tmpfs",
				       k->name);
		if (bus_has(k->bus, BUS_GUEST) &&
		    disk_nullb_check(c, d->disks, k))
			return -1;
		if (!bus_has(k->bus, BUS_GUEST) && k->memory_backed)
			return kp_fail(c,
				       "disk '%s': memory_backed is null_blk's "
				       "(bus nullb); a QEMU disk keeps its "
				       "data on an image or tmpfs backing",
				       k->name);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(d->disks[j].name, k->name))
				return kp_fail(c,
					       "disk name '%s' is used twice",
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
			return kp_fail(c, "name '%s' is used twice", l->name);
		for (r = kind_rules[l->kind]; r->key; r++) {
			struct draft_key *k = NULL;
			for (size_t j = 0; j < l->nr_keys; j++)
				if (!strcmp(l->keys[j].key, r->key))
					k = &l->keys[j];
			if (!k) {
				if (r->required)
					return kp_fail(
						c, "%s layer '%s' needs '%s'",
						layer_kinds[l->kind], l->name,
						r->key);
				continue;
			}
			if (r->check == K_REF) {
				const char *t = k->values.v[0];
				if (!strncmp(t, "file:/", 6) &&
				    !strcmp(layer_kinds[l->kind], "loop"))
					continue;
				if (!name_known(d, i, t))
					return kp_fail(
						c,
						"layer '%s': on='%s' is not "
						"an earlier disk or layer",
						l->name, t);
			}
			if (r->check == K_REFS) {
				struct strvec m = STRVEC_INIT;
				strvec_split(&m, k->values.v[0], ',');
				for (size_t j = 0; j < m.nr; j++)
					if (!name_known(d, i, m.v[j])) {
						kp_fail(c,
							"layer '%s': member "
							"'%s' is "
							"not an earlier disk "
							"or layer",
							l->name, m.v[j]);
						strvec_clear(&m);
						return -1;
					}
				if (m.nr < 2) {
					strvec_clear(&m);
					return kp_fail(
						c,
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

static int add_disk(struct keypath *c, json_t *v, size_t i, struct draft *d)
{
	ALLOC_GROW(d->disks, d->nr_disks + 1, d->alloc_disks);
	return disk_parse(c, v, i, &d->disks[d->nr_disks++]);
}

static int add_layer(struct keypath *c, json_t *v, size_t i, struct draft *d)
{
	(void)i;
	ALLOC_GROW(d->layers, d->nr_layers + 1, d->alloc_layers);
	return layer_parse(c, v, &d->layers[d->nr_layers++]);
}

/* Each element of list `v` through `add`, its index in the key path. */
static int add_each(struct keypath *c, json_t *v, struct draft *d,
		    int (*add)(struct keypath *, json_t *, size_t,
			       struct draft *))
{
	for (size_t i = 0; i < json_array_size(v); i++) {
		size_t old = kp_push_idx(c, i);
		int ret = add(c, json_array_get(v, i), i, d);
		kp_pop(c, old);
		if (ret)
			return -1;
	}
	return 0;
}

/* The disks of JSON list `v`, at least one and at most a boot takes. */
static int draft_add_disks(struct keypath *c, json_t *v, struct draft *d)
{
	if (!json_is_array(v) || !json_array_size(v))
		return kp_fail(c, v ? "expected a non-empty list of disks"
				    : "missing");
	/* Before parsing them: 5,000 disks kept QEMU busy 22 s to fail. */
	if (json_array_size(v) > JOB_MAX_DISKS)
		return kp_fail(c, "%zu disks: a boot takes at most %d",
			       json_array_size(v), JOB_MAX_DISKS);
	return add_each(c, v, d, add_disk);
}

/* Append the layers of JSON list `v`, at most a boot builds. */
int draft_add_layers(struct keypath *c, json_t *v, struct draft *d)
{
	if (!json_is_array(v))
		return kp_fail(c, "expected a list of layers");
	if (json_array_size(v) > JOB_MAX_LAYERS)
		return kp_fail(c, "%zu layers: a boot builds at most %d",
			       json_array_size(v), JOB_MAX_LAYERS);
	return add_each(c, v, d, add_layer);
}

/*
 * A description is only read by people, but it is a string: a list or an
 * object there is a job file gone wrong, and says so like any other key.
 */
static int topology_description_check(struct keypath *c, json_t *v)
{
	const char *s;
	if (!v)
		return 0;
	size_t old = kp_push(c, "description");
	int ret = kp_str(c, v, &s);
	kp_pop(c, old);
	return ret;
}

static const char *const topo_keys[] = {"name", "description", "disks",
					"layers", NULL};
/* Those, and a preset's overrides (draft_override) beside them. */
const char *const job_topology_keys[] = {"preset", "name", "description",
					 "path", "disks", "layers",
					 "extra_layers", NULL};

/* A full topology object: {name, description, disks, layers}. */
int draft_parse(struct keypath *c, json_t *v, const char *default_name,
		struct draft *d)
{
	json_t *disks, *layers, *name;
	size_t old;

	memset(d, 0, sizeof(*d));
	if (!json_is_object(v))
		return kp_fail(c, "expected a preset name or an object");
	if (kp_check_keys(c, v, topo_keys) ||
	    topology_description_check(c, json_object_get(v, "description")))
		return -1;
	name = json_object_get(v, "name");
	if (name) {
		const char *s;
		old = kp_push(c, "name");
		if (kp_str(c, name, &s) ||
		    (!job_valid_name(s, 64) &&
		     kp_fail(c, "'%s' is not a valid name", s))) {
			kp_pop(c, old);
			return -1;
		}
		kp_pop(c, old);
		d->name = xstrdup(s);
	} else {
		d->name = xstrdup(default_name);
	}
	disks = json_object_get(v, "disks");
	old = kp_push(c, "disks");
	int ret = draft_add_disks(c, disks, d);
	kp_pop(c, old);
	layers = json_object_get(v, "layers");
	if (ret || !layers)
		return ret;
	old = kp_push(c, "layers");
	ret = draft_add_layers(c, layers, d);
	kp_pop(c, old);
	return ret;
}

void job_topology_release(struct topology *t)
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

/*
 * Expand the draft's list values into topologies, cartesian, in layer
 * then key order, the first list varying slowest; names get ",key=value"
 * (",layer.key=value" when two layers expand the same key).
 */
static int draft_expand(struct keypath *c, const struct draft *d,
			struct job *job)
{
	struct matrix m = {0};
	const struct draft_key *dims[MATRIX_MAX_LISTS];
	const char *dim_layer[MATRIX_MAX_LISTS];
	size_t total;

	for (size_t i = 0; i < d->nr_layers; i++)
		for (size_t j = 0; j < d->layers[i].nr_keys; j++) {
			const struct draft_key *k = &d->layers[i].keys[j];
			if (!k->expand)
				continue;
			if (matrix_add(&m, k->values.nr))
				return kp_fail(c, "more than %d keys are lists",
					       MATRIX_MAX_LISTS);
			dim_layer[m.nr - 1] = d->layers[i].name;
			dims[m.nr - 1] = k;
		}
	total = matrix_total(&m, JOB_MAX_TOPOLOGIES);
	if (total > JOB_MAX_TOPOLOGIES)
		return kp_fail(c,
			       "the topology lists expand to more than %d "
			       "topologies",
			       JOB_MAX_TOPOLOGIES);
	job->topologies = xcalloc(total, sizeof(*job->topologies));
	job->nr_topologies = total;
	for (size_t n = 0; n < total; n++) {
		struct topology *t = &job->topologies[n];
		struct strbuf name = STRBUF_INIT;
		size_t pick[MATRIX_MAX_LISTS];
		matrix_pick(&m, n, pick);
		strbuf_addstr(&name, d->name);
		for (size_t k = 0; k < m.nr; k++) {
			int dup = 0;
			for (size_t o = 0; o < m.nr; o++)
				dup |= o != k &&
				       !strcmp(dims[o]->key, dims[k]->key);
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
				for (size_t q = 0; q < m.nr; q++)
					if (dims[q] == k)
						v = pick[q];
				strvec_pushf(&t->layers[i].keys, "%s=%s",
					     k->key, k->values.v[v]);
			}
		}
	}
	return 0;
}

int job_parse_topology(struct keypath *c, json_t *v, struct job *job)
{
	struct draft d;
	int ret = -1;
	size_t old = kp_push(c, "topology");

	memset(&d, 0, sizeof(d));
	if (json_is_string(v)) {
		if (preset_load(c, json_string_value(v), &d))
			goto out;
	} else if (json_is_object(v) && json_object_get(v, "preset")) {
		json_t *p = json_object_get(v, "preset");
		size_t o2 = kp_push(c, "preset");
		if (!json_is_string(p)) {
			kp_fail(c, "expected a preset name");
			kp_pop(c, o2);
			goto out;
		}
		kp_pop(c, o2);
		if (preset_load(c, json_string_value(p), &d) ||
		    draft_override(c, v, &d) || draft_check(c, &d))
			goto out;
	} else if (json_is_object(v)) {
		if (draft_parse(c, v, "custom", &d) || draft_check(c, &d))
			goto out;
	} else {
		kp_fail(c, "expected a preset name or an object");
		goto out;
	}
	ret = draft_expand(c, &d, job);
out:
	draft_release(&d);
	kp_pop(c, old);
	return ret;
}
