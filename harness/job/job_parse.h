/*
 * job_parse.h: the sections of a job file, each in its own file, as
 * job.c calls them. Inside the job parser only; everything else reads
 * struct job (job_types.h).
 */
#ifndef IOBISECT_JOB_PARSE_H
#define IOBISECT_JOB_PARSE_H

#include "job.h"
#include "keypath.h"

/*
 * job_build.c: how the job's kernels are had: "toolchain" (compilers by
 * kernel version, each maybe in an environment) and "prebuilt" (images
 * from a folder or a command instead of builds).
 */
/*
 * The job in `root` (a parsed job file with any overrides set) into
 * *job; `origin` names it in errors (job.c).
 */
int job_parse_json(struct job *job, json_t *root, const char *origin);

int job_parse_toolchain(struct keypath *c, json_t *v, struct job *job);
int job_parse_prebuilt(struct keypath *c, json_t *v, struct job *job);
void job_build_release(struct job *job);

/* job_disk.c: one disk of a topology (preset or job). */
int disk_parse(struct keypath *c, json_t *v, size_t idx, struct disk_spec *d);
/* Set one disk key; used for preset disks and for job overrides alike. */
int disk_set(struct keypath *c, struct disk_spec *d, const char *key,
	     json_t *v);
void disk_copy(struct disk_spec *to, const struct disk_spec *from);
void disk_release(struct disk_spec *d);
/*
 * The checks of a nullb disk `k` (the guest's null_blk) against its
 * topology's `disks` before it: nothing of QEMU's, one latency for all.
 */
int disk_nullb_check(struct keypath *c, const struct disk_spec *disks,
		     const struct disk_spec *k);

/*
 * job_topology.c: "topology" (a preset name, a preset with overrides, or
 * a whole topology) into job->topologies, one per combination of the
 * layer keys given as lists.
 */
int job_parse_topology(struct keypath *c, json_t *v, struct job *job);
void job_topology_release(struct topology *t);
/*
 * The rules of a layer kind's keys ("md"), or NULL. Only a test calls
 * it, to hold the table to the guest's list (proto/spec_keys.h).
 */
const struct key_rule *job_layer_rules(const char *kind);

/*
 * job_workload.c: "workload" into job->points, one per topology and
 * combination of the keys given as lists. *samples and *warmup get the
 * workload's own, when it gives them.
 */
int job_parse_workload(struct keypath *c, json_t *w, struct job *job,
		       int *samples, int *warmup);
/* The engine's index in PROTO_ENGINES order, or -1. */
int job_engine_index(const char *engine);
/* The rules of an engine's keys, or NULL (a test's, as job_layer_rules). */
const struct key_rule *job_engine_rules(const char *engine);
/* The metrics engine `i` reports, comma-separated ("write,rewrite,read"). */
const char *job_engine_metrics(int i);
/* Point ids are folder names: keep [A-Za-z0-9._,=+-], others become '_'. */
void job_id_sanitize(char *s);

/*
 * job_fio.c: the fio engine's "job" of workload `w`: *text gets the fio
 * job file's text (caller frees), `keys` the spec keys the harness sets
 * ("job=<sha1>", "build=<sha1>", "kernel_min=3.2.0"). -1 after one error,
 * also when the host has no fio.
 */
int job_fio_workload(struct keypath *c, json_t *w, char **text,
		     struct strvec *keys);
/* The fio engine's kernels need the "fio" Kconfig fragment (SysV IPC). */
void job_fio_kconfig(struct job *job);

/* job_table.c: "table", after the topologies and points it names. */
int job_parse_table(struct keypath *c, json_t *v, struct job *job);

#endif
