/*
 * results_machine.c: what a sample was measured on (struct machine_id,
 * results.h): filled from the job and this host, compared before any two
 * documents are pooled, and written to and read back from a document's
 * "machine" object, with the clock that timed it.
 */
#include "results.h"
#include "results_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *cpu_model(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *model = NULL;
	FILE *f = fopen("/proc/cpuinfo", "r");
	char *line = NULL;
	size_t cap = 0;
	if (!f)
		return xstrdup("unknown");
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, "model name", 10))
			continue;
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		strbuf_addstr(&sb, colon + 1);
		strbuf_trim(&sb);
		model = strbuf_detach(&sb);
		break;
	}
	free(line);
	fclose(f);
	return model ? model : xstrdup("unknown");
}

void results_machine_fill(struct machine_id *m, const struct job *job,
			  int topo, const char *accel,
			  const char *qemu_version, const struct clock *clock)
{
	struct strbuf cache = STRBUF_INIT;
	const struct topology *t = &job->topologies[topo];
	int same = 1;

	memset(m, 0, sizeof(*m));
	m->accel = xstrdup(accel ? accel : "unknown");
	m->qemu_version = xstrdup(qemu_version ? qemu_version : "unknown");
	m->cpu_model = cpu_model();
	m->cpus = job->machine.cpus;
	m->memory_mb = job->machine.memory_mb;
	m->append = xstrdup(job->machine.append ? job->machine.append : "");
	if (clock)
		m->clock = *clock;
	for (size_t i = 1; i < t->nr_disks; i++)
		same &= !strcmp(job_disk_cache(&t->disks[i]),
				job_disk_cache(&t->disks[0]));
	if (same && t->nr_disks) {
		strbuf_addstr(&cache, job_disk_cache(&t->disks[0]));
	} else {
		for (size_t i = 0; i < t->nr_disks; i++)
			strbuf_addf(&cache, "%s%s:%s", i ? "," : "",
				    t->disks[i].name, job_disk_cache(&t->disks[i]));
	}
	m->cache = strbuf_detach(&cache);
}

void results_machine_release(struct machine_id *m)
{
	free(m->accel);
	free(m->qemu_version);
	free(m->cpu_model);
	free(m->cache);
	free(m->append);
	memset(m, 0, sizeof(*m));
}

static int str_eq(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

int results_machine_equal(const struct machine_id *a,
			  const struct machine_id *b)
{
	return str_eq(a->accel, b->accel) &&
	       str_eq(a->qemu_version, b->qemu_version) &&
	       str_eq(a->cpu_model, b->cpu_model) && a->cpus == b->cpus &&
	       a->memory_mb == b->memory_mb && str_eq(a->cache, b->cache) &&
	       str_eq(a->append, b->append) &&
	       a->clock.kind == b->clock.kind &&
	       (a->clock.kind != CLOCK_VIRTUAL ||
		a->clock.shift == b->clock.shift);
}

json_t *results_machine_json(const struct machine_id *m)
{
	json_t *o = json_pack(
		"{s:s, s:s, s:s, s:i, s:i, s:s, s:s, s:s}", "accel",
		m->accel ? m->accel : "", "qemu_version",
		m->qemu_version ? m->qemu_version : "", "cpu_model",
		m->cpu_model ? m->cpu_model : "", "cpus", m->cpus, "memory_mb",
		m->memory_mb, "cache", m->cache ? m->cache : "", "append",
		m->append ? m->append : "", "clock", clock_name(m->clock.kind));
	if (o && m->clock.kind == CLOCK_VIRTUAL)
		json_object_set_new(o, "icount_shift",
				    json_integer(m->clock.shift));
	return o;
}

int results_clock_from_json(json_t *machine, struct clock *out)
{
	json_t *k = json_object_get(machine, "clock");
	json_t *s = json_object_get(machine, "icount_shift");

	out->kind = CLOCK_WALL;
	out->shift = 0;
	/* Written before clocks were recorded: the host's clock timed it. */
	if (!k)
		return 0;
	if (!json_is_string(k))
		return -1;
	if (!strcmp(json_string_value(k), "wall"))
		return 0;
	if (strcmp(json_string_value(k), "virtual") || !json_is_integer(s) ||
	    json_integer_value(s) < 0 ||
	    json_integer_value(s) > CLOCK_ICOUNT_SHIFT_MAX)
		return -1;
	out->kind = CLOCK_VIRTUAL;
	out->shift = (int)json_integer_value(s);
	return 0;
}

void results_machine_from_json(json_t *o, struct machine_id *m)
{
	const char *keys[] = { "accel", "qemu_version", "cpu_model", "cache",
			       "append" };
	char **dst[] = { &m->accel, &m->qemu_version, &m->cpu_model, &m->cache,
			 &m->append };
	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		json_t *v = json_object_get(o, keys[i]);
		*dst[i] = xstrdup(json_is_string(v) ? json_string_value(v) : "");
	}
	m->cpus = (int)json_integer_value(json_object_get(o, "cpus"));
	m->memory_mb = (int)json_integer_value(json_object_get(o, "memory_mb"));
	/* results_doc_read (doc_check) refused a clock that does not read. */
	results_clock_from_json(o, &m->clock);
}
