/* run_counts.c: what a run cost (run_counts.h). */
#include "run_counts.h"

#include <stdint.h>

void run_counts_sum(struct run_counts *out, const struct run_counts *a,
		    const struct run_counts *b)
{
	out->builds = a->builds + b->builds;
	out->builds_cached = a->builds_cached + b->builds_cached;
	out->boots = a->boots + b->boots;
	out->samples = a->samples + b->samples;
}

void run_counts_to_json(json_t *obj, const struct run_counts *c)
{
	json_object_set_new(obj, "builds", json_integer(c->builds));
	json_object_set_new(obj, "builds_cached",
			    json_integer(c->builds_cached));
	json_object_set_new(obj, "boots", json_integer(c->boots));
	json_object_set_new(obj, "samples", json_integer(c->samples));
}

static unsigned count_of(const json_t *obj, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(obj, key));
	return v > 0 && v < (json_int_t)UINT32_MAX ? (unsigned)v : 0;
}

void run_counts_from_json(struct run_counts *c, const json_t *obj)
{
	c->builds = count_of(obj, "builds");
	c->builds_cached = count_of(obj, "builds_cached");
	c->boots = count_of(obj, "boots");
	c->samples = count_of(obj, "samples");
}
