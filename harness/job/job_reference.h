/*
 * job_reference.h: the keys a job takes beyond job_keys' table (the
 * workload's engines and their keys, the topology's keys, a disk's, a
 * layer kind's), as the parsers that check them hold them, for what
 * tells a person about them: the job's man page and the completion of
 * --set. Nothing here checks a job; the parsers do (job_parse.h).
 */
#ifndef IOBISECT_JOB_REFERENCE_H
#define IOBISECT_JOB_REFERENCE_H

#include "keypath.h"
#include "util.h"

/* The engines, NULL-ended, in proto/spec_keys.h's order (job_workload.c). */
const char *const *job_engines(void);
/* The workload's keys of every engine: engine, target, samples, warmup. */
extern const char *const job_workload_keys[];
/*
 * Is `r`, a key of `engine`'s rules (job_engine_rules), one a job may
 * give? fio's build and kernel_min are set by iobisect.
 */
int job_engine_key_given(const char *engine, const struct key_rule *r);
/* The figures engine number `i` reports ("write,rewrite,read"). */
const char *job_engine_metrics(int i);
const struct key_rule *job_engine_rules(const char *engine);

/*
 * The keys of a topology object, a preset's overrides among them
 * ("preset", "path", "extra_layers"), NULL-ended (job_topology.c).
 */
extern const char *const job_topology_keys[];
/* The layer kinds, NULL-ended; each one's rules (job_layer_rules). */
const char *const *job_layer_kinds(void);
const struct key_rule *job_layer_rules(const char *kind);

/*
 * The "description" of preset `name` (job_presets), or NULL when it has
 * none or cannot be read; the caller frees it.
 */
char *job_preset_description(const char *name);

/* A disk's keys, NULL-ended; a key's choices or NULL (job_disk.c). */
extern const char *const job_disk_keys[];
const char *const *job_disk_key_choices(const char *key);

/* What a rule's value is, in words: "integer, 1 to 65536", "one of a, b". */
void job_rule_describe(struct strbuf *out, const struct key_rule *r);

/*
 * Every key --set takes below workload and topology, as it names them
 * ("workload.bs_kb", "topology.disks.latency_ns"), once each, pushed on
 * `out`; with `choices`, the matching choices list of each (NULL when
 * the value is not one of a few) pushed as one space-separated string,
 * "" when none.
 */
void job_section_keys(struct strvec *out, struct strvec *choices);

#endif
