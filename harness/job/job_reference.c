/*
 * job_reference.c: the keys a job takes beyond job_keys' table, in words
 * and as --set names them (job_reference.h). The lists are the parsers'
 * own (job_workload.c, job_topology.c, job_disk.c): a key added there is
 * on the man page and in the completion at the next `make man`.
 */
#include "job.h"
#include "job_reference.h"

#include <string.h>

void job_rule_describe(struct strbuf *out, const struct key_rule *r)
{
	switch (r->check) {
	case K_INT:
		strbuf_addf(out, "integer, %lld to %lld", r->min, r->max);
		break;
	case K_POW2:
		strbuf_addf(out, "power of two, %lld to %lld", r->min, r->max);
		break;
	case K_REAL:
		strbuf_addf(out, "number, above %lld, at most %lld", r->min,
			    r->max);
		break;
	case K_BOOL:
		strbuf_addstr(out, "true/false");
		break;
	case K_ENUM:
	case K_CHOICE:
		strbuf_addstr(out, "one of");
		for (size_t i = 0; r->choices[i]; i++)
			strbuf_addf(out, "%s %s", i ? "," : "", r->choices[i]);
		break;
	case K_PATH:
		strbuf_addstr(out, "absolute path");
		break;
	case K_NAME:
		strbuf_addstr(out, "name");
		break;
	case K_REF:
		strbuf_addstr(out, "an earlier disk or layer");
		break;
	case K_REFS:
		strbuf_addstr(out, "earlier disks or layers, a list");
		break;
	case K_ARGS:
		strbuf_addstr(out, "words, a list");
		break;
	default:
		strbuf_addstr(out, "word");
	}
}

/* `list`, NULL-ended, as one string of words ("" for NULL). */
static void push_choices(struct strvec *choices, const char *const *list)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; list && list[i]; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", list[i]);
	strvec_push(choices, sb.buf);
	strbuf_release(&sb);
}

static void push_key(struct strvec *out, struct strvec *choices,
		     const char *key, const char *const *list)
{
	if (strvec_index(out, key) >= 0)
		return;
	strvec_push(out, key);
	if (choices)
		push_choices(choices, list);
}

void job_section_keys(struct strvec *out, struct strvec *choices)
{
	static const char *const bools[] = {"true", "false", NULL};
	const char *const *engines = job_engines();
	struct strvec presets = STRVEC_INIT;
	char *key;

	job_presets(&presets); /* presets.v: NULL-ended, or NULL for none */
	push_key(out, choices, "workload", engines);
	for (size_t i = 0; job_workload_keys[i]; i++) {
		key = xstrfmt("workload.%s", job_workload_keys[i]);
		push_key(out, choices, key,
			 strcmp(job_workload_keys[i], "engine") ? NULL : engines);
		free(key);
	}
	for (size_t e = 0; engines[e]; e++)
		for (const struct key_rule *r = job_engine_rules(engines[e]);
		     r->key; r++) {
			if (!job_engine_key_given(engines[e], r))
				continue;
			key = xstrfmt("workload.%s", r->key);
			push_key(out, choices, key,
				 r->check == K_BOOL ? bools : r->choices);
			free(key);
		}
	push_key(out, choices, "topology", (const char *const *)presets.v);
	for (size_t i = 0; job_topology_keys[i]; i++) {
		key = xstrfmt("topology.%s", job_topology_keys[i]);
		push_key(out, choices, key,
			 strcmp(job_topology_keys[i], "preset")
				 ? NULL
				 : (const char *const *)presets.v);
		free(key);
	}
	for (size_t i = 0; job_disk_keys[i]; i++) {
		key = xstrfmt("topology.disks.%s", job_disk_keys[i]);
		push_key(out, choices, key,
			 job_disk_key_choices(job_disk_keys[i]));
		free(key);
	}
	strvec_clear(&presets);
}
