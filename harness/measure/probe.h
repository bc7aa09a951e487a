/*
 * probe.h: the real world under the measuring layer (measure.h). A commit is built
 * once per run (kbuild_image; a cache hit counts as "served from cache"),
 * booted (vm_boot) one boot at a time, and every boot's samples are stored
 * in the results store at once (nothing measured is ever lost, and what is
 * already stored for the same build key, spec hash and machine is re-used,
 * not measured again). How many boots, and of which commit, is the
 * policy's (driver.h, a command's), not this file's.
 */
#ifndef IOBISECT_PROBE_H
#define IOBISECT_PROBE_H

#include "marks.h"
#include "job.h"
#include "lanes.h"
#include "measure.h"
#include "results.h"
#include "rundir.h"
#include "util.h"
#include "verdict.h"
#include "vm.h"

struct progress;
struct repo;

/* A commit's image, built once per run and remembered. */
struct probe_image {
	char commit[41];
	char *image;   /* NULL when the build failed */
	char *message; /* kbuild's word on a failure that names no error */
	/* key, cached; failed (the commit's own fault), first_error, log */
	struct build_facts build;
};

/* Everything a run's probes share. */
struct probe_ctx {
	struct job *job;
	const char *repo_path;
	struct progress *progress; /* may be NULL */
	struct repo *repo;         /* for subjects; may be NULL */
	int topo;                  /* the metric point's topology */
	const struct point *point; /* the metric point */
	char spec_hash[41];
	struct machine_id machine;
	struct rundir rundir;      /* this process's own: one boot at a time */
	struct lanes lanes;        /* builds, beside the boots */
	/* Images asked for this run (each commit once). */
	struct probe_image *images;
	size_t nr_images, alloc_images;
	int interrupted;    /* SIGINT/SIGTERM seen: stop, state saved */
	int qemu_broken;    /* QEMU itself failed: abort, not a skip */
};

/*
 * The machine a job's boots run on, found once: the accelerator, the
 * clock, and QEMU's version, read by one rule. With the topology they are
 * the machine's identity (results.h), which decides whose boots are
 * pooled: `iobisect run` and a bisection's probes must agree on it.
 */
struct probe_machine {
	int kvm; /* 1 KVM, 0 TCG */
	struct clock clock;
	char *qemu_version; /* "7.2.22" */
};
/* 0, or -1 after error() (no QEMU, a clock the job cannot have). */
int probe_machine_init(struct probe_machine *pm, struct job *job);
void probe_machine_release(struct probe_machine *pm);
/* The identity of boots on topology `topo` (results_machine_release). */
void probe_machine_id(struct machine_id *out, const struct job *job, int topo,
		      const struct probe_machine *pm);

/*
 * One boot as every command boots: a boot id reserved, the image booted
 * (vm_boot) in `run_dir`, and what it gave stored in the results store at
 * once, console log included, unless it was interrupted. `iobisect run`
 * calls it for each of its boots, probe_boot for a bisection's.
 */
struct probe_boot_args {
	const struct job *job;
	int topo;
	const char *engine; /* the point's engine: names the boot's folder */
	const char *commit, *build_key, *image;
	const char *run_dir;
	const struct machine_id *machine;
	int keep_images;
	/* Optional: called with the boot id just before QEMU starts. */
	void (*before)(void *payload, unsigned id);
	/* Optional: each sample as it comes (vm.h, boot_request). */
	void (*on_sample)(void *payload, const struct proto_sample *s);
	void *payload;
};
/*
 * 0 when QEMU ran (br, set up by boot_result_init, says how; *stored is
 * 1 when it was stored, 0 when interrupted, -1 after error() when the
 * store failed), or -1 after error() when there was no boot.
 */
int probe_boot_once(const struct probe_boot_args *a, struct boot_result *br,
		    unsigned *id, int *stored);

/*
 * Set up: the metric point (job->metric_point or the first point), its
 * topology and spec hash, the machine identity (accelerator and QEMU
 * version found on this host), and the process's own run folder
 * (rundir.h: probes at once on one results folder, Slurm tasks on one
 * node, a `run` beside a bisection, never share one), reaping what gone
 * harnesses left. Returns 0, or -1 after error().
 */
int probe_ctx_init(struct probe_ctx *ctx, struct job *job,
		   const char *repo_path, struct progress *progress);
void probe_ctx_release(struct probe_ctx *ctx);
/*
 * Boot the same images as `job` says from now on: another clock (a copy
 * of the run's job with machine.clock set), so the machine's identity is
 * found again and boots are stored, and loaded, under that clock's
 * series. 0, or -1 after error() with the context as it was.
 */
int probe_ctx_retime(struct probe_ctx *ctx, struct job *job);

/*
 * Build `commit` (a full id) or return the image built earlier in this
 * run. Returns the image (check ->image: NULL when the build failed), or
 * NULL after error() when the build could not even be attempted.
 */
const struct probe_image *probe_build(struct probe_ctx *ctx,
				      const char *commit);

/*
 * 1 when two images built have the same bytes, 0 when not, -1 when
 * either has none (not built, or its build failed).
 */
int probe_same_image(const struct probe_image *a, const struct probe_image *b);

/* The per-boot values stored for an image at the metric point. */
int probe_load(struct probe_ctx *ctx, const struct probe_image *img,
	       struct sample_set *out);

/*
 * Boot an image once and store what it gave. *status gets the boot's
 * enum boot_status, *samples the samples it stored (warm-ups left out);
 * the first error or panic line and the console log go to *first_error
 * and *log (caller frees) when it did not go well. Returns 0 when QEMU
 * ran, -1 after error() when the boot could not be set up. What a run
 * built and booted is counted above, once (measure.h).
 */
int probe_boot(struct probe_ctx *ctx, const struct probe_image *img,
	       int *status, size_t *samples, char **first_error, char **log);

/*
 * The measuring layer's operations (measure.h) over a probe_ctx payload:
 * build through probe_build, boot through probe_boot, load through
 * probe_load, subjects through ctx->repo when it is set, the clock
 * probe_ctx_init resolved.
 */
extern const struct measure_ops probe_ops;

/*
 * One probe sent from elsewhere (a Slurm task, `iobisect measure`): build
 * `commit` from `build_repo` and boot it until `want` boots are stored
 * (0: build only), in a run folder of its own, without the results
 * folder's lock (the run that sent it holds that), then write the task
 * document (task_doc.h). Returns 0 when the commit built and booted, 1
 * when it failed (its own fault: the document says how), -1 after
 * error(), or when interrupted.
 */
int probe_task(struct job *job, const char *build_repo, const char *commit,
	       unsigned want, struct progress *progress);

#endif
