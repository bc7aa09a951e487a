/*
 * job.h: what a job file says, as plain data. job.c parses the JSON
 * (jansson) into these structs, checks every key and expands the
 * workload's lists into a matrix of points. Every other module reads these
 * structs and never the JSON, so they can be filled by hand in tests.
 */
#ifndef IOBISECT_JOB_H
#define IOBISECT_JOB_H

#include "kver.h"
#include "proto/frame.h"
#include "proto/spec_keys.h"
#include "prebuilt.h"
#include "table.h"
#include "toolenv.h"
#include "util.h"
#include <stdint.h>

/* Fragments added only for kernels in a version range (kconfig.by_version). */
struct kconfig_rule {
	struct kver_range range;
	struct strvec fragments;
};

struct kconfig_spec {
	char *base; /* "tiny" (default) or a path to a full .config */
	struct strvec fragments; /* names in kconfigs/ ("md") or paths */
	struct kconfig_rule *rules;
	size_t nr_rules;
};

/* kernel version range -> compilers (toolchain map). */
struct toolchain_rule {
	struct kver_range range;
	char *cc;	    /* "gcc-12" */
	char *hostcc;	    /* NULL: same as cc */
	struct toolenv env; /* where they run: the host unless a job says */
};

#define BUS_ENUM(suffix, name) BUS_##suffix,
enum disk_bus { PROTO_BUSES(BUS_ENUM) };
#undef BUS_ENUM
/* Names by enum disk_bus and enum disk_backing, as jobs and specs spell them.
 */
extern const char *const job_bus_names[];
extern const char *const job_backing_names[];

enum disk_backing {
	BACKING_IMAGE, /* sparse raw file in the run folder */
	BACKING_TMPFS, /* sparse raw file in /dev/shm (no host disk I/O) */
	BACKING_NULL,  /* QEMU null-co: reads zeroes, drops writes */
	BACKING_HOST,  /* a host block device or file passed through */
};

struct disk_spec {
	char *name; /* "d0": what layers' on= refer to */
	enum disk_bus bus;
	enum disk_backing backing;
	char *path;	     /* BACKING_HOST: the device or file */
	uint64_t size_mb;    /* images and null disks */
	uint64_t latency_ns; /* null-co latency-ns, 0 = none */
	uint64_t bps_max;    /* throttle group bytes/s, 0 = none */
	uint64_t iops_max;   /* throttle group requests/s, 0 = none */
	/*
	 * Images and tmpfs: the least time each write and each flush takes
	 * (a null-co delay line beside the image, qemu.c), 0 = none. An image
	 * in the host page cache completes both at once, so a flush that a
	 * real disk makes the writer wait for costs nothing there.
	 */
	uint64_t write_latency_ns;
	int readonly; /* passthrough is read-only unless destroy-data */
	char *cache;  /* QEMU cache mode; NULL: job_disk_cache's */
	uint32_t max_sectors_kb; /* virtio-blk/scsi request cap (0 = QEMU's) */
};

/*
 * A layer stacked on disks: kind is "part", "md", "dm", "loop" or "fs"; its
 * keys are the spec keys of workloads/PROTOCOL.md, already checked, as
 * "key=value" strings in file order ("name=" first).
 */
struct layer_spec {
	char *kind;
	struct strvec keys;
};

/* The QEMU cache mode of `d`: its own, else writeback (none for host). */
const char *job_disk_cache(const struct disk_spec *d);

struct topology {
	char *name; /* preset or job-given name, used in result paths */
	struct disk_spec *disks;
	size_t nr_disks;
	struct layer_spec *layers;
	size_t nr_layers;
};

struct machine_spec {
	int cpus;
	int memory_mb;
	char *accel;   /* "auto" (KVM when /dev/kvm is usable), "kvm", "tcg" */
	char *qemu;    /* binary, default qemu-system-x86_64 */
	int timeout_s; /* whole boot, from QEMU start to the guest's done */
	char *append;  /* extra kernel command line */
	int pin; /* QEMU on CPUs of its own when the host has some (cpus.h) */
	char *clock;	  /* "wall" (default), "virtual" or "auto" (clock.h) */
	int icount_shift; /* the virtual clock's: 2^N ns an instruction */
};

/* One point of the workload matrix: the engine and its "key=value"s. */
struct point {
	char *id; /* filesystem-safe and stable: "threads=2,bs_kb=11,ra_kb=1792"
		   */
	char *engine;
	char *target;
	struct strvec keys; /* engine keys, "key=value" */
	int topo;	    /* index into job.topologies */
	/* The fio engine: the job file's text, packed beside the spec. */
	char *fio_job;
};

enum threshold_kind { THRESHOLD_PERCENT, THRESHOLD_MBPS, THRESHOLD_AUTO };

struct threshold {
	enum threshold_kind kind;
	double value; /* percent drop, or MB/s drop; unused for auto */
};

enum bisect_type { BISECT_PERF, BISECT_BUILD, BISECT_BOOT };

/* "executor": where probes run (executor.h); the command line wins. */
struct executor_spec {
	int kind;	 /* -1 not given, 0 "local", 1 "slurm" */
	char *partition; /* sbatch --partition */
	char *account;	 /* sbatch --account */
	char *time_limit; /* sbatch --time */
	struct strvec sbatch_args; /* passed to sbatch as given */
	int probes;		   /* commits at once per round; 0 not given */
	int retries;		   /* runs again of a lost task; -1 not given */
};

struct job {
	char *path;   /* the job file, for messages */
	char *name;   /* results/<name>/... */
	char *repo;   /* kernel repository */
	char *good;   /* fast revision */
	char *bad;    /* slow revision */
	char *kernel; /* prebuilt bzImage instead of repo builds (run only) */
	/* Images per commit from a folder or a command: nothing is built. */
	struct prebuilt_source *prebuilt;
	struct kconfig_spec kconfig;
	struct toolchain_rule *toolchains;
	size_t nr_toolchains;
	struct machine_spec machine;
	struct executor_spec executor;
	/* Topology settings given as lists expand to several topologies. */
	struct topology *topologies;
	size_t nr_topologies;
	struct point *points;
	size_t nr_points;
	int samples;  /* samples per point per boot (after warmup) */
	int warmup;   /* samples dropped at the start of each point */
	int runs_min; /* boots per commit before a verdict */
	int runs_max; /* boots per commit at most */
	/* The metric a verdict decides on, "read" or "write" (bw_bytes of it).
	 */
	char *metric;
	char *metric_point; /* the point id it is taken from; NULL: the first */
	struct threshold threshold;
	/* "direction": "faster" looks for the commit that made it faster. */
	int faster;
	/* The confidence a bisection's culprit must reach (0.95). */
	double confidence;
	enum bisect_type bisect_type;
	char *results; /* results root, default "results" */
	/* How `iobisect run` lays its medians out, as the report did. */
	struct table_spec table;
};

/*
 * Parse and check a job file. Any problem gives one error that names the
 * file and the key ("job.json: workload.threads: expected an integer or a
 * list of integers") and returns -1.
 */
int job_load(struct job *job, const char *path);
/* The same from a JSON text; `origin` names it in messages. */
int job_parse(struct job *job, const char *text, const char *origin);
void job_release(struct job *job);

/*
 * Added by job.c's author (additive):
 *
 * job_load_overrides: job_load with command-line overrides applied to the
 * JSON before it is checked, each "dotted.key=value"; the value is read as
 * JSON when it parses, else taken as a string: "topology=raid0-4",
 * "topology.path=/dev/loop0", "workload=rawread", "workload.bs_kb=[128,2048]",
 * "kernel=/tmp/bzImage". A string topology or workload becomes
 * {"preset": ...} / {"engine": ...} when a key below it is set. A NULL path
 * starts from {"name": "run"}. `overrides` is NULL-terminated or NULL.
 */
int job_load_overrides(struct job *job, const char *path,
		       const char *const *overrides);
/*
 * The override job_load_overrides takes for `--results DIR`: the folder
 * as a JSON string, whatever it looks like ("2024" stays a name). -1
 * after error() when DIR is not UTF-8 text (a job is JSON).
 */
int job_override_results(struct strvec *ov, const char *dir);
/* job_load with `--results DIR` (NULL: the job's own "results"). */
int job_load_results(struct job *job, const char *path, const char *results);
/*
 * The job's verdicts need the bad endpoint measured: a perf job whose
 * threshold is auto (the line sits between the endpoints' levels).
 */
int job_needs_bad(const struct job *job);
/* error() naming the job when it needs bad and `bad` is NULL or "". */
int job_check_needs_bad(const struct job *job, const char *bad);
/* repo, good and bad are optional in a job (run needs none): bisect checks. */
int job_check_bisect(const struct job *job);
/* The point `id` of topology `topo`, or NULL. */
const struct point *job_find_point(const struct job *job, int topo,
				   const char *id);
/* Index of the topology named `name` ("raid5-4,bitmap=1"), or -1. */
int job_find_topology(const struct job *job, const char *name);
/* Limits on what the lists of a job may expand to. */
#define JOB_MAX_TOPOLOGIES 64
#define JOB_MAX_POINTS 4096
/* What the guest can build and run in one boot (proto/frame.h). */
#define JOB_MAX_DISKS PROTO_SPEC_MAX_DISKS
#define JOB_MAX_LAYERS PROTO_SPEC_MAX_LAYERS
#define JOB_MAX_POINTS_PER_TOPOLOGY PROTO_SPEC_MAX_POINTS
/* A job or preset file is a few KiB; this is far beyond any real one. */
#define JOB_FILE_MAX ((size_t)4 << 20)

/*
 * runtime_ms, the time bound of a sample of seqread, seqwrite and rawread:
 * at most an hour, 0 for none (bytes alone). A job with good and bad that
 * gives none gets JOB_BISECT_RUNTIME_MS: a bisection boots every commit
 * several times, and without a bound a slow commit's boot lasts as many
 * times longer as it is slower. On the demo job (128 MiB of 4 KiB reads
 * at 200 us a request) a fast kernel's sample takes 0.45-0.65 s under TCG,
 * so 1.5 s cuts only kernels below ~90 MB/s, a drop of over half: moderate
 * slowdowns are still measured over the same bytes as their baseline.
 */
#define JOB_RUNTIME_MS_MAX PROTO_RUNTIME_MS_MAX
#define JOB_BISECT_RUNTIME_MS 1500

/*
 * Where presets (qemu/<name>.json) and fragments (kconfigs/) live:
 * $IOBISECT_DATA, else the folder of the iobisect binary, else the current
 * folder.
 */
const char *job_data_dir(void);

#endif
