/*
 * probe.h: measuring one commit for a bisection. A probe builds the commit
 * (kbuild_image; a cache hit counts as "served from cache"), boots it
 * (vm_boot) as many times as the verdict needs, stores every boot's samples
 * in the results store at once (nothing measured is ever lost, and what is
 * already stored for the same build key, spec hash and machine is re-used,
 * not measured again), and interleaves boots of the good kernel so that a
 * machine that drifts over an hour does not make a regression. The
 * outcome (build failure, boot failure, panic, timeout, workload error,
 * fast, slow, undecided) is for bisect_classify to turn into a mark.
 */
#ifndef IOBISECT_PROBE_H
#define IOBISECT_PROBE_H

#include "bisect.h"
#include "job.h"
#include "results.h"
#include "util.h"
#include "verdict.h"

struct progress;
struct repo;

/* A commit's image, built once per run and remembered. */
struct probe_image {
	char commit[41];
	char key[41];
	char *image;  /* NULL when the build failed */
	int cached;   /* served from the cache */
	char *log, *first_error, *message;
	int failed;   /* BUILD_FAILED: the commit's own fault */
};

/* Everything a run's probes share. */
struct probe_ctx {
	struct job *job;
	const char *repo_path;
	struct progress *progress; /* may be NULL */
	int topo;                  /* the metric point's topology */
	const struct point *point; /* the metric point */
	char spec_hash[41];
	struct machine_id machine;
	char run_dir[4096];        /* <results>/<job>/.run: one boot at a time */
	/* The endpoints, once measured: the baseline and the auto line. */
	const struct probe_image *good, *bad;
	unsigned good_boots_cap; /* the baseline pool grows up to this */
	/* Images asked for this run (each commit once). */
	struct probe_image *images;
	size_t nr_images, alloc_images;
	/* Counters for the report. */
	unsigned builds;        /* make ran (failures included) */
	unsigned builds_cached; /* served from the build cache */
	unsigned boots, samples;
	struct strvec logs; /* "<what>: <path>" of failures */
	int interrupted;    /* SIGINT/SIGTERM seen: stop, state saved */
	int qemu_broken;    /* QEMU itself failed: abort, not a skip */
};

/*
 * Set up: the metric point (job->metric_point or the first point), its
 * topology and spec hash, the machine identity (accelerator and QEMU
 * version found on this host), and the run folder, reaping any QEMU a
 * killed run left there. Returns 0, or -1 after error().
 */
int probe_ctx_init(struct probe_ctx *ctx, struct job *job,
		   const char *repo_path, struct progress *progress);
void probe_ctx_release(struct probe_ctx *ctx);

/*
 * Build `commit` (a full id) or return the image built earlier in this
 * run. Returns the image (check ->image: NULL when the build failed), or
 * NULL after error() when the build could not even be attempted.
 */
const struct probe_image *probe_build(struct probe_ctx *ctx,
				      const char *commit);

/* The per-boot values stored for an image at the metric point. */
int probe_load(struct probe_ctx *ctx, const struct probe_image *img,
	       struct sample_set *out);

/*
 * Boot an image once and store what it gave. *status gets the boot's
 * enum boot_status; the first error or panic line and the console log go
 * to *first_error and *log (caller frees) when it did not go well.
 * Returns 0 when QEMU ran, -1 after error() when the boot could not be set
 * up.
 */
int probe_boot(struct probe_ctx *ctx, const struct probe_image *img,
	       int *status, char **first_error, char **log);

/* What a probe of one commit came to. */
struct probe_result {
	enum probe_outcome outcome;
	int have_verdict;
	struct verdict v;
	unsigned boots_run; /* boots this call ran (re-used ones excluded) */
	unsigned boots;     /* the commit's boots behind the verdict */
	unsigned samples;
	char *log, *first_error;
	double seconds;
};
void probe_result_release(struct probe_result *r);

/*
 * Boot the image until `want` boots of it are stored (the good endpoint
 * and the confirmation use this). A failed boot ends it with its outcome.
 * Returns 0, or -1 after error() (set-up failure, QEMU broken,
 * interrupted).
 */
int probe_fill(struct probe_ctx *ctx, const struct probe_image *img,
	       unsigned want, struct probe_result *out);

/*
 * Measure a candidate against the good endpoint (ctx->good) until the
 * verdict decides or runs_max boots are spent, interleaving good boots.
 * `bad_values` (the bad endpoint's per-boot values) serve the auto
 * threshold. For bisect types build and boot the probe stops as soon as
 * the type's question is answered. Returns 0 (out->outcome says what came
 * of it), or -1 after error() when the run must stop (set-up failure, QEMU
 * broken, interrupted).
 */
int probe_commit(struct probe_ctx *ctx, const char *commit,
		 struct probe_result *out);

enum probe_endpoints_status {
	ENDPOINTS_SEPARATED,     /* bad is slow by the threshold: bisect */
	ENDPOINTS_NOT_SEPARATED, /* stop: both medians are in sep->reason */
	ENDPOINTS_GOOD_FAILED,   /* good cannot be built or booted: abort */
	ENDPOINTS_BAD_FAILED,    /* bad cannot be built or booted: abort */
};

/*
 * Measure the endpoints of a perf bisection, good first: good gets
 * runs_max boots (the baseline every verdict compares with), bad runs_min,
 * then both more while verdict_endpoints is undecided. Sets ctx->good and
 * ctx->bad. *status says how it ended; gr and br hold what each endpoint's
 * probe came to, sep the separation verdict. Returns 0, or -1 after error()
 * when the run must stop (set-up failure, QEMU broken, interrupted).
 */
int probe_endpoints(struct probe_ctx *ctx, const char *good,
		    const char *good_subject, const char *bad,
		    const char *bad_subject, struct probe_result *gr,
		    struct probe_result *br, struct verdict *sep,
		    enum probe_endpoints_status *status);

/* The error rate of one verdict (struct verdict_input.alpha). */
#define PROBE_ALPHA 0.02

/*
 * Boot two images alternately until each has `want` boots (the
 * confirmation of a culprit against its parent), so drift of the machine
 * hits both alike. Outcomes go to ra and rb.
 */
int probe_fill_pair(struct probe_ctx *ctx, const struct probe_image *a,
		    const struct probe_image *b, unsigned want,
		    struct probe_result *ra, struct probe_result *rb);

/* Fill a verdict_input from the job (threshold, runs) and the values. */
void probe_verdict_input(const struct probe_ctx *ctx,
			 struct verdict_input *in,
			 const struct sample_set *base,
			 const struct sample_set *cand,
			 const struct sample_set *bad);

#endif
