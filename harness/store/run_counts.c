/* run_counts.c: what a run cost (run_counts.h). */
#include "run_counts.h"
#include "json_num.h"


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

void run_counts_from_json(struct run_counts *c, const json_t *obj)
{
	c->builds = json_count_at(obj, "builds");
	c->builds_cached = json_count_at(obj, "builds_cached");
	c->boots = json_count_at(obj, "boots");
	c->samples = json_count_at(obj, "samples");
}
