/*
 * results.h: the results store. One JSON document per sample, in a fixed
 * layout that names job, commit, topology, workload and matrix point:
 *
 *   <root>/<job>/<commit12>/<topology>-<engine>/<point>/boot-<n>-sample-<i>.json
 *   <root>/<job>/<commit12>/<topology>-<engine>/boot-<n>.json        (the boot)
 *   <root>/<job>/<commit12>/<topology>-<engine>/boot-<n>.console.log
 *
 * <commit12> is the commit's 12-character abbreviation (or the label given,
 * such as "kernel-<hash12>" for a prebuilt image). Every document carries
 * the build key, the spec hash (topology + workload definition + matrix
 * point) and the machine; results_load_samples() never pools documents that
 * differ in any of them. Boots, not samples, are the unit of evidence: the
 * loader returns one value per boot (the median of its samples).
 */
#ifndef IOBISECT_RESULTS_H
#define IOBISECT_RESULTS_H

#include "clock.h"
#include "job.h"
#include "proto.h"

#include <stdint.h>

/* What a sample was measured on; all of it must match to pool samples. */
struct machine_id {
	char *accel;        /* "tcg" or "kvm": the accelerator actually used */
	char *qemu_version; /* "7.2.0" */
	char *cpu_model;    /* host /proc/cpuinfo "model name" */
	int cpus;           /* guest cpus */
	int memory_mb;      /* guest memory */
	char *cache;        /* disks' cache modes, "writeback" or "d0:none,..." */
	char *append;       /* extra kernel command line, "" when none */
	/*
	 * What timed the samples (clock.h): "wall" or "virtual", and the
	 * virtual clock's shift. A document written before clocks were
	 * recorded was timed by the wall clock, and loads as such.
	 */
	struct clock clock;
};
#define MACHINE_ID_INIT { NULL, NULL, NULL, 0, 0, NULL, NULL, { 0, 0 } }

/*
 * Fill `m` for topology `topo` of `job`: guest cpus, memory, append and
 * cache modes from the job, `accel`, `qemu_version` and the clock as the
 * caller found them (qemu.c, clock_resolve; NULL: the wall clock), the
 * CPU model from /proc/cpuinfo ("unknown" if absent).
 */
void results_machine_fill(struct machine_id *m, const struct job *job,
			  int topo, const char *accel,
			  const char *qemu_version, const struct clock *clock);
void results_machine_release(struct machine_id *m);
int results_machine_equal(const struct machine_id *a,
			  const struct machine_id *b);
/*
 * The clock of a stored document's "machine" object: no "clock" key is
 * the wall clock (documents written before clocks were recorded). -1
 * when the key is there and does not read.
 */
int results_clock_from_json(json_t *machine, struct clock *out);

/*
 * The spec hash of point `pt` (40 hex + NUL): SHA-1 of the topology's disk
 * and layer lines and the point line of the spec, without the samples
 * count (more samples per boot measure the same thing; warmup does not).
 */
void results_spec_hash(const struct job *job, const struct point *pt,
		       char out[41]);

/* Everything one boot produced, for results_store_boot(). */
struct results_boot {
	const struct job *job;
	int topo;                /* index into job->topologies */
	const char *commit;      /* full id, abbreviated to 12 in paths */
	const char *build_key;   /* kbuild's key, or "image:<sha1>" */
	unsigned boot_id;        /* from results_reserve_boot_id() */
	const struct machine_id *machine;
	const struct proto_report *report; /* may be NULL: nothing came */
	const char *outcome;     /* vm.c's classification: "ok", "timeout"... */
	const char *console;     /* console log bytes (may be NULL) */
	size_t console_len;
	const char *started;     /* UTC timestamps (utc_timestamp()); NULL: now */
	const char *ended;
	uint64_t boot_ns;        /* QEMU start to exit */
	uint64_t first_sample_ns; /* QEMU start to first sample, 0 = unknown */
};
#define RESULTS_BOOT_INIT { 0 }

/*
 * Write the boot: the console log, boot-<n>.json (outcome, kernel, errors,
 * topology read back, rejected frames, machine, timestamps) and one document
 * per non-warmup sample of a point of this topology. Samples are stored even
 * from an incomplete boot, marked "complete": false, and never loaded as
 * evidence. Writes are atomic. Returns 0 or -1 after error().
 */
int results_store_boot(const struct results_boot *b);

/*
 * Reserve the boot number to use next under <root>/<job>/<commit12>/
 * <topology>-<engine>/ (one more than the highest found there, 1 for the
 * first) with a ".boot-N" mark that no other harness can take too.
 * 0, or -1 after error().
 */
int results_reserve_boot_id(unsigned *out, const char *root,
			    const char *job, const char *commit,
			    const char *topology, const char *engine);
/*
 * Give back a number reserved for a boot that never happened (its QEMU
 * could not be set up): its ".boot-N" mark goes, and the commit's
 * folders it leaves empty, so a run that booted nothing leaves nothing.
 */
void results_release_boot_id(unsigned id, const char *root, const char *job,
			     const char *commit, const char *topology,
			     const char *engine);

/* Folder <root>/<job>: a job's, a sweep's or a derived bisection's. */
char *results_job_dir(const char *root, const char *job);
/* <root>/<job>/<name>: bisect-state.json, report.txt, .tasks (caller frees). */
char *results_job_file(const char *root, const char *job, const char *name);
/* Folder <root>/<job>/<commit12> (caller frees). */
char *results_commit_dir(const char *root, const char *job, const char *commit);
/* Folder <root>/<job>/<commit12>/<topology>-<engine> (caller frees). */
char *results_boot_dir(const char *root, const char *job, const char *commit,
		       const char *topology, const char *engine);
/* A commit as it appears in paths: its first 12 characters. */
void results_commit_abbrev(const char *commit, char out[13]);

/* A sample document is about 1 KiB; anything past this is not one. */
#define RESULTS_DOC_MAX ((size_t)1 << 20)

/*
 * Read a stored sample document for loading: a regular file of at most
 * RESULTS_DOC_MAX bytes holding a JSON object whose keys have the types
 * results_store_boot() writes (each metric's figures by the rule a sample
 * frame is read by, sample_check.h). Returns it, or NULL after a warning
 * that names the file and what is wrong with it, said once per process
 * however often it is read; such a document is never evidence.
 */
json_t *results_doc_read(const char *path);

/* One value per boot: the evidence a verdict rests on. */
struct sample_set {
	/* per boot: the median of its samples' metric value (metric.h):
	 * bw_bytes, bytes/s, for "read" */
	double *values;
	double *cpu_pct;  /* per boot: median cpu_pct of the same samples */
	unsigned *boots;  /* boot ids, same order, ascending */
	size_t nr, alloc;
	size_t nr_samples; /* sample documents that went into the values */
	size_t nr_ignored; /* documents of this point left out: other build
			      key, spec hash, machine, incomplete, unverified */
};
#define SAMPLE_SET_INIT { NULL, NULL, NULL, 0, 0, 0, 0 }
void sample_set_release(struct sample_set *s);
/* Append one boot's value (a document read back, in boot order). */
void sample_set_push(struct sample_set *s, unsigned boot, double value,
		     double cpu_pct);
/* `out` (released first) holds a copy of `from`, whatever of it is set. */
void sample_set_copy(struct sample_set *out, const struct sample_set *from);
/* `out` (released first) holds a copy of n per-boot values, nothing else. */
void sample_set_copy_values(struct sample_set *out, const double *values,
			    size_t n);

/*
 * Load the samples of `point` (a point id) and `metric` ("read") under
 * <root>/<job>/<commit12>/ (any topology folder) whose build key, spec hash
 * and machine all equal the given ones, from complete boots, non-warmup and
 * verified, and reduce them to one median per boot. A missing folder is an
 * empty set, not an error. Returns 0 or -1 after error().
 */
int results_load_samples(const char *root, const char *job,
			 const char *commit, const char *build_key,
			 const char *spec_hash, const struct machine_id *m,
			 const char *point, const char *metric,
			 struct sample_set *out);

#endif
