/*
 * profile.h: where a kernel spends its instructions in a workload. One
 * boot with iobisect's QEMU plugin (tbcount.h) counts the guest
 * kernel's instructions per translation block inside the windows the
 * guest marks around its measured samples; the counts are folded into
 * the kernel's functions with its System.map (ksyms.h) and set against
 * the bytes and the requests the samples moved. The figures are the
 * emulated CPU's instruction counts, exact and free of sampling, not
 * cycles: every instruction costs the same under TCG, as on the virtual
 * clock (docs/clocks.md).
 *
 * profile_compute and the JSON are pure; profile_boot boots.
 */
#ifndef IOBISECT_PROFILE_H
#define IOBISECT_PROFILE_H

#include "job.h"
#include "ksyms.h"
#include "proto.h"
#include "tbcount.h"

#include <jansson.h>
#include <stdint.h>

/* How people are told what is counted, wherever a profile is shown. */
#define PROFILE_UNIT_NOTE                                                      \
	"emulated guest instructions (QEMU TCG count, exact), not cycles"

struct profile_fn {
	char *name;
	uint64_t insns;
};

struct profile {
	char *label;	   /* the commit, or the image's label */
	uint64_t kernel_insns; /* all kernel instructions in the windows */
	uint64_t user_insns;   /* the guest program's, for scale */
	uint64_t unknown_insns; /* kernel ones outside System.map's text */
	uint64_t io_bytes;     /* moved by the measured samples */
	uint64_t requests;     /* their requests on the disks (block_v1) */
	uint64_t runtime_ns;   /* the samples' own time, summed */
	unsigned windows, samples;
	double wall_s; /* the profiled boot's wall time */
	struct profile_fn *fns; /* most instructions first */
	size_t nr, alloc;
};
#define PROFILE_INIT { 0 }
void profile_release(struct profile *p);

/*
 * Fold `tc` with `ks` and take the bytes, the requests (reads and
 * writes of the topology's disks) and the time of the measured samples
 * of `rep`. 0, or -1 after error() when the plugin's windows and the
 * guest's measured samples disagree (a guest that marks none).
 */
int profile_compute(struct profile *out, const struct tbcount *tc,
		    const struct ksyms *ks, const struct proto_report *rep);

/* Instructions per MB (10^6 bytes) and per request; 0 when unknown. */
double profile_per_mb(const struct profile *p, uint64_t insns);
double profile_per_request(const struct profile *p, uint64_t insns);

/* A profile as JSON (the "profile_v1" document) and back. */
json_t *profile_to_json(const struct profile *p);
/* 0, or -1 after error() naming `what`. */
int profile_from_json(struct profile *out, json_t *doc, const char *what);

/* <results>/<job>/<commit>/profile.json: where a commit's is kept. */
char *profile_path(const char *root, const char *job, const char *label);
/*
 * The profile of `rev` in the job folder `job_dir`: the commit folder
 * whose name `rev` starts, or that starts with a shorter `rev`, when
 * one alone holds a profile. NULL when none or several; caller frees.
 */
char *profile_find(const char *job_dir, const char *rev);
/* Write and read it: 0, or -1 after error(); read: 1 when there is none. */
int profile_save(const struct profile *p, const char *path);
int profile_load(struct profile *out, const char *path);

/* One profiled boot. */
struct profile_request {
	const struct job *job;
	int topo;	      /* the topology booted */
	const char *image;    /* bzImage; its System.map beside it */
	const char *map;      /* NULL: kmap_path(image) */
	const char *label;    /* commit or label */
	const char *run_dir;  /* the harness's own (rundir.h) */
	const char *plugin;   /* tbcount_available's */
	const char *counts;   /* where the plugin writes */
};

/*
 * Boot req->image once with the plugin and fill `out`. 0, or -1 after
 * error() (no map, a boot that failed, counts that cannot be read).
 */
int profile_boot(struct profile *out, const struct profile_request *req);

/*
 * Profile `commit` (a full id) on the job of `ctx` (probe.h), at its
 * metric point's topology: its image built or taken from the cache
 * with its System.map (BUILD_WANT_MAP), one boot in ctx's run folder,
 * the profile and the plugin's counts kept in the commit's folder of
 * the results (profile_path). 0, or -1 after error().
 */
struct probe_ctx;
int profile_commit(struct profile *out, struct probe_ctx *ctx,
		   const char *commit, const char *plugin);

#endif
