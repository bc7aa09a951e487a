/*
 * job_topology_priv.h: what job_topology.c (a topology drafted, checked
 * and expanded) shares with job_preset.c (the presets a draft starts
 * from, and a job's overrides on one); nothing else includes it.
 */
#ifndef IOBISECT_JOB_TOPOLOGY_PRIV_H
#define IOBISECT_JOB_TOPOLOGY_PRIV_H

#include "job_parse.h"

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

/* A topology before its lists are expanded (job_topology.c). */
struct draft {
	char *name;
	struct disk_spec *disks;
	size_t nr_disks, alloc_disks;
	struct draft_layer *layers;
	size_t nr_layers, alloc_layers;
};

void draft_layer_release(struct draft_layer *l);
/* Set layer key `key` from JSON `v` (replacing an earlier value). */
int layer_set(struct keypath *c, struct draft_layer *l, const char *key,
	      json_t *v);
/* Checks that need the whole topology: sizes, references, names. */
int draft_check(struct keypath *c, struct draft *d);
/* Append the layers of JSON list `v`, at most a boot builds. */
int draft_add_layers(struct keypath *c, json_t *v, struct draft *d);
/* A full topology object: {name, description, disks, layers}. */
int draft_parse(struct keypath *c, json_t *v, const char *default_name,
		struct draft *d);

/* job_preset.c: preset `name` into *d, checked; its file names errors. */
int preset_load(struct keypath *c, const char *name, struct draft *d);
/* A job's overrides (the keys beside "preset") on a preset's draft. */
int draft_override(struct keypath *c, json_t *v, struct draft *d);

#endif
