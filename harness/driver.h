/*
 * driver.h: the bisection's policy, in one place. Given the range (a
 * commit graph), the job and a bisect state, the driver measures the
 * endpoints, tests the merge base, steps through the range with the bisect
 * engine, tops the culprit and its parents up until the result is as sure
 * as the job asks, and keeps the state (saved after every probe when a
 * file is given). `iobisect bisect`, `test` and `sweep` reach it through
 * driver_job.h; the unit tests and bench/sensitivity call it directly with
 * fake operations.
 *
 * The world is reached through struct driver_ops only: build a commit,
 * boot it once (storing what it measured), load the per-boot values stored
 * for it. The real operations (probe.h) reach libgit2, make and QEMU; a
 * test's replay numbers; the benchmark's resample measured boots.
 *
 * How many boots. Every verdict is a sequential test (verdict.h): a commit
 * is booted once, judged, and booted again only while the evidence is not
 * decisive, up to runs.max, then skipped. Steps are judged at a loose error
 * (DRIVER_STEP_ERROR): a wrong step only costs boots, because the answer
 * rests on the culprit and its parents alone (if the culprit is slower
 * than every parent by the drop, it made things slow, whatever the steps
 * said). That claim is confirmed on fresh pairs (driver_confirm.c): parent
 * and culprit booted back to back in a balanced random order, judged on
 * the ratio within each pair, until the pairs alone reach the job's
 * confidence, which is then the answer's. A confirmation that contradicts
 * the steps re-opens the range instead of naming a wrong commit.
 *
 * Noise. Every verdict shares one noise model (noise.h: a spread, the
 * machine's slower mode, a rate of wild boots), pooled from all the
 * commits this run booted twice or more (the good endpoint's last
 * DRIVER_WINDOW boots, the bad endpoint, the steps, the pairs).
 *
 * Drift. The baseline is the good endpoint's last DRIVER_WINDOW boots. A
 * probe that is not decided by its first boot gets a good boot before
 * every DRIVER_REFRESH boots of its own, so the baseline a slow-to-decide
 * verdict leans on is measured beside it; a cliff decided in one boot
 * needs none. The pairs need no baseline: each pair is its own.
 */
#ifndef IOBISECT_DRIVER_H
#define IOBISECT_DRIVER_H

#include "bisect.h"
#include "graph.h"
#include "job.h"
#include "results.h"
#include "state.h"
#include "util.h"
#include "verdict.h"

struct progress;

#define DRIVER_STEP_ERROR 0.05	   /* Wald's bounds for a step */
#define DRIVER_ENDPOINT_ERROR 0.01 /* for the endpoints' separation */
#define DRIVER_TEST_ERROR 0.01	   /* `iobisect test`: nothing confirms it */
#define DRIVER_WINDOW 16	   /* good boots a verdict compares with */
#define DRIVER_REFRESH 2	   /* a good boot per this many of a probe's */
#define DRIVER_MAX_REOPEN 3	   /* contradicted answers before giving up */

/* Exit codes of `iobisect bisect` (and the driver's results). */
enum driver_status {
	DRIVER_CULPRIT = 0,
	DRIVER_INCONCLUSIVE = 1, /* skips block it, or below the target */
	DRIVER_NOT_SEPARATED = 2,
	DRIVER_ABORT = 128,
	DRIVER_INTERRUPTED = 130,
};

struct driver_build {
	int failed;		 /* the commit does not build: its own fault */
	int cached;		 /* served from the build cache */
	char key[41];		 /* the build key, "" when unknown */
	char *first_error, *log; /* failed: what and where (owned) */
};

struct driver_boot {
	int ok; /* the guest ran the workload and its samples are stored */
	/* !ok: PROBE_BOOT_FAILED, PROBE_PANIC, PROBE_TIMEOUT or
	   PROBE_WORKLOAD_ERROR */
	enum probe_outcome outcome;
	size_t samples;		 /* samples stored */
	char *first_error, *log; /* !ok: what and where (owned) */
};

struct driver_ops {
	/*
	 * Build `commit` (a full id), or find it built. 0 (out->failed says
	 * whether it built), or -1 after error() when no build could even be
	 * tried: the run aborts.
	 */
	int (*build)(void *payload, const char *commit,
		     struct driver_build *out);
	/*
	 * Boot the commit's image once and store what it measured. 0 (out
	 * says how it went), or -1 after error(): interrupted (see
	 * run_interrupted) or QEMU itself broken; the run stops.
	 */
	int (*boot)(void *payload, const char *commit, struct driver_boot *out);
	/* The per-boot values stored for `commit`, in boot order. */
	int (*load)(void *payload, const char *commit, struct sample_set *out);
	/* Optional: the commit's subject for people (owned), or NULL. */
	char *(*subject)(void *payload, const char *commit);
	/*
	 * Optional: the commits the run may need next, best first, to build
	 * beside the boots to come (a hint: nothing waits for it).
	 */
	void (*prefetch)(void *payload, const char *const *commits, size_t n);
	/*
	 * Optional: build `n` commits and boot each until `boots` are stored,
	 * all at once (a multisection round on a cluster). 0, or -1 after
	 * error() as boot.
	 */
	int (*measure_many)(void *payload, const char *const *commits,
			    size_t n, unsigned boots);
};

void driver_build_release(struct driver_build *b);
void driver_boot_release(struct driver_boot *b);

struct driver {
	/* Set by the caller (driver_init). */
	const struct job *job;
	const struct driver_ops *ops;
	void *payload;
	/* The range, nodes[0] the bad endpoint; NULL for driver_test. */
	const struct commit_graph *graph;
	/*
	 * good, bad and merge_base set; marks and probes of an earlier run
	 * are replayed. Updated as the run goes.
	 */
	struct bisect_state *st;
	const char *state_file;	   /* NULL: kept in memory only */
	struct progress *progress; /* NULL: quiet */
	double target;		   /* confidence asked (job "confidence") */
	/* The noise model's priors: by the clock that times the boots. */
	const struct noise_machine *noise_machine;
	unsigned multi; /* commits probed at once per round; 0, 1: bisect */

	/* This run. */
	struct bisect_engine engine;
	unsigned boots, baseline_boots, builds, builds_cached, samples;
	unsigned since_good; /* boots since the last good one */
	unsigned rounds;     /* multisection rounds (and single steps) */
	unsigned prev_builds, prev_cached, prev_boots, prev_samples;
	double prev_seconds;
	uint64_t t0;
	struct verdict sep; /* the endpoints' separation */
	int separated;
	int bad_built; /* the bad endpoint is built: its boots can be read */
	struct strvec logs;  /* "<what>: <path>" of failures */
	struct strvec built; /* commits built (or found built) this run */
	struct strvec guess; /* the next probes' commits, for ops->prefetch */
	/* Per-boot values read through ops->load, re-read after a boot. */
	struct driver_series {
		char commit[41];
		struct sample_set set;
		int stale;
	} * series;
	size_t nr_series, alloc_series;
};

/* Set up; the state's counters are the earlier runs' totals. */
void driver_init(struct driver *d, const struct job *job,
		 const struct driver_ops *ops, void *payload,
		 const struct commit_graph *graph, struct bisect_state *st);
void driver_release(struct driver *d);

struct driver_result {
	enum driver_status status;
	char culprit[41];	/* DRIVER_CULPRIT (and below the target) */
	struct strvec parents;	/* the culprit's parents it was judged with */
	struct strvec suspects; /* DRIVER_INCONCLUSIVE: possible culprits */
	struct verdict sep;	/* the endpoints, when measured */
	int have_sep;
	double confidence; /* NAN when not known */
	char *message;	   /* one line: why it stopped, or a warning */
	unsigned steps;	   /* step probes, earlier runs included */
	unsigned reopened; /* confirmations that contradicted a step */
};
void driver_result_init(struct driver_result *r);
void driver_result_release(struct driver_result *r);

/*
 * Bisect d->graph: endpoints, merge base, steps, confirmation. Returns the
 * status (also in res->status); DRIVER_ABORT and DRIVER_INTERRUPTED come
 * after error() or with the state saved. The state's status, culprit,
 * suspects and confidence are set to match.
 */
enum driver_status driver_bisect(struct driver *d, struct driver_result *res);

/*
 * `git bisect run`'s question for one commit: measure the baseline (and
 * with "auto" the bad endpoint, and check they are separated), then judge
 * `commit` at DRIVER_TEST_ERROR. *mark gets its mark; returns
 * DRIVER_CULPRIT (0: *mark is valid), DRIVER_NOT_SEPARATED, DRIVER_ABORT
 * or DRIVER_INTERRUPTED.
 */
enum driver_status driver_test(struct driver *d, const char *commit,
			       struct driver_result *res,
			       enum bisect_mark *mark);

/*
 * Build `commit` and boot it until `want` boots are stored (a sweep's
 * sample of a range; no verdict). out->ok, or what failed. Returns 0, or
 * -1 to stop (see run_interrupted).
 */
int driver_measure(struct driver *d, const char *commit, unsigned want,
		   struct driver_boot *out);

#endif
