/*
 * job_types.h: what a job file says, as plain data. job.h reads a file
 * into these structs, and the modules a job configures (the clock, the
 * vCPUs, the machine, the disks) read them. A part that a lower layer
 * owns is that layer's struct, embedded here: the kernel's config and
 * toolchains (kconfig.h, kbuild.h), the threshold (threshold.h), the
 * table (table_spec.h). This header includes nothing that leads back
 * to job.h.
 */
#ifndef IOBISECT_JOB_TYPES_H
#define IOBISECT_JOB_TYPES_H

#include "bus.h"
#include "kbuild.h"
#include "kconfig.h"
#include "kver.h"
#include "proto/spec_keys.h"
#include "table_spec.h"
#include "threshold.h"
#include "util.h"
#include <stdint.h>

/* Images from elsewhere (prebuilt.h); a job holds only a pointer. */
struct prebuilt_source;

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
	/*
	 * nullb: null_blk keeps what is written (in the guest's memory), so
	 * a write can be read back and checked; otherwise it is dropped.
	 */
	int memory_backed;
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

struct topology {
	char *name; /* preset or job-given name, used in result paths */
	struct disk_spec *disks;
	size_t nr_disks;
	struct layer_spec *layers;
	size_t nr_layers;
};

/*
 * The most machine.append may hold: x86 kernels take a command line of
 * 2048 bytes (COMMAND_LINE_SIZE), and the harness's own words (console,
 * panic, the guest's) need the rest.
 */
#define JOB_APPEND_MAX 1024

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
	int profile; /* profile the culprit and its parent (profile.h) */
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

enum bisect_type { BISECT_PERF, BISECT_BUILD, BISECT_BOOT };

/* Runs again of a task Slurm lost, when the job says none (slurm.h). */
#define EXECUTOR_RETRIES 2

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
	/*
	 * Pairs of culprit and parent booted on the wall clock after an
	 * answer the virtual clock found: the size TCG's wall clock shows,
	 * which the virtual clock shrinks (docs/clocks.md). 0: none.
	 */
	int wall_pairs;
	/*
	 * After a perf answer, the revert check (driver_revert.c): one build
	 * and up to runs_max pairs, reported beside the answer. 0: off.
	 */
	int revert;
	/*
	 * The changes a perf bisection seeks in its range, its answer's
	 * included (driver_changes.c): 1, the answer alone.
	 */
	int changes;
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
	/*
	 * Only commits that change a file the endpoints' images were made
	 * from are candidates (narrow.h); 0: every commit of the range.
	 */
	int inputs_only;
	/*
	 * Under a fixed line, a step shown below it stands in for the bad
	 * endpoint until the answer (driver_endpoints.c): bad's build, near
	 * a cold one across a release, waits until something needs it.
	 */
	int stand_in;
	char *results; /* results root, default "results" */
	/* How `iobisect run` lays its medians out, as the report did. */
	struct table_spec table;
};

#endif
