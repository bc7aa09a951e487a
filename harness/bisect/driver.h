/*
 * driver.h: the bisection's policy, in one place. Given the range (a
 * commit graph), the job and a bisect state, the driver measures the
 * endpoints, tests the merge base, steps through the range with the bisect
 * engine, confirms the culprit against its parents until the result is as
 * sure as the job asks, and keeps the state (saved after every probe when
 * a file is given). `iobisect bisect` and `sweep` reach it through
 * driver_job.h, `iobisect test` asks it about one commit (driver_test);
 * the unit tests and bench/sensitivity call it directly with fake
 * operations.
 *
 * The driver decides what to measure next, and what a verdict means for
 * the range; it measures and judges nothing itself. Every build, boot,
 * per-boot value, noise model and pair comes from the measuring layer
 * (measure.h), over the operations it is given: the real ones (probe.h),
 * a test's replay numbers, the benchmark's resample measured boots. Every
 * verdict on them is the judge's (judge.h).
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
 * JUDGE_WINDOW boots, the bad endpoint, the steps, the pairs).
 *
 * Drift. The baseline is the good endpoint's last JUDGE_WINDOW boots. A
 * probe that is not decided by its first boot gets a good boot before
 * every MEASURE_REFRESH boots of its own, so the baseline a slow-to-decide
 * verdict leans on is measured beside it; a cliff decided in one boot
 * needs none. The pairs need no baseline: each pair is its own.
 */
#ifndef IOBISECT_DRIVER_H
#define IOBISECT_DRIVER_H

#include "bisect.h"
#include "bisect_report.h"
#include "exit_code.h"
#include "graph.h"
#include "job.h"
#include "judge.h"
#include "measure.h"
#include "results.h"
#include "state.h"
#include "util.h"
#include "verdict.h"

#define DRIVER_STEP_ERROR 0.05	   /* Wald's bounds for a step */
#define DRIVER_ENDPOINT_ERROR 0.01 /* for the endpoints' separation */
#define DRIVER_TEST_ERROR 0.01	   /* `iobisect test`: nothing confirms it */
#define DRIVER_MAX_REOPEN 3	   /* contradicted answers before giving up */

/* Exit codes of `iobisect bisect` (and the driver's results). */
enum driver_status {
	DRIVER_CULPRIT = 0,
	DRIVER_INCONCLUSIVE = 1, /* skips block it, or below the target */
	DRIVER_NOT_SEPARATED = 2,
	DRIVER_ABORT = EXIT_ABORT,
	DRIVER_INTERRUPTED = EXIT_INTERRUPTED,
};

struct driver {
	/* Set by the caller (driver_init). */
	const struct job *job;
	/*
	 * The evidence: builds, boots, values, noise, pairs (measure.h).
	 * The caller sets m.progress (NULL: quiet).
	 */
	struct measure m;
	/*
	 * Every verdict on it (judge.h): the run's priors, its line (the
	 * job's, or auto once it gave way to the endpoints' own drop), and
	 * the bad endpoint once built.
	 */
	struct judge judge;
	/*
	 * The range, nodes[0] the bad endpoint; NULL for driver_test. Once
	 * the endpoints are built, the commits that can change their kernel
	 * (`narrowed`, when `narrow` is set), and `range` keeps the whole.
	 */
	const struct commit_graph *graph;
	const struct commit_graph *range;
	/*
	 * Set by the caller: the range as the endpoints' builds narrow it
	 * (graph_narrow), given the endpoints' commits once they are built.
	 * 0 with *out filled, 1 when it cannot be narrowed (*why says why),
	 * -1 after error().
	 */
	int (*narrow)(void *arg, const char *const *commits, size_t nr,
		      const struct commit_graph *range,
		      struct commit_graph *out, struct strbuf *why);
	void *narrow_arg;
	/*
	 * Set by the caller: the objects a build of `commit` compiles that
	 * no commit this host has built holds (build_cost.h: ccache's, or
	 * the build folders' at hand), -1 when not known. Each
	 * step is then the cheapest commit near the middle
	 * (bisect_next_split); NULL: the middle.
	 */
	long (*build_cost)(void *arg, const char *commit);
	void *build_cost_arg;
	/*
	 * good, bad and merge_base set; marks and probes of an earlier run
	 * are replayed. Updated as the run goes. NULL for driver_test:
	 * nothing is kept.
	 */
	struct bisect_state *st;
	const char *good, *bad;	/* the endpoints (full ids; bad may be "") */
	const char *state_file; /* NULL: kept in memory only */
	double target;		/* confidence asked (job "confidence") */
	unsigned multi; /* commits probed at once per round; 0, 1: bisect */

	/* This run. */
	struct bisect_engine engine;
	unsigned rounds; /* multisection rounds (and single steps) */
	struct run_counts prev;
	double prev_seconds;
	uint64_t t0;
	struct verdict sep; /* the endpoints' separation */
	int separated;
	int doubt;     /* the steps' marks are in doubt (st->doubt_from) */
	unsigned same_images; /* answers whose image was their parent's */
	struct strvec guess; /* the next probes' commits, for ops->prefetch */
	struct commit_graph narrowed;
	int narrow_done; /* asked once a run */
};

/*
 * Set up; the state's counters are the earlier runs' totals. `graph` and
 * `st` are NULL for driver_test, which is given its endpoints.
 */
void driver_init(struct driver *d, const struct job *job,
		 const struct measure_ops *ops, void *payload,
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
	/* one line: how the job was read (a line that gave way), or NULL */
	char *note;
	unsigned steps;	   /* step probes, earlier runs included */
	unsigned reopened; /* confirmations that contradicted a step */
	/* Beside the answer: its share, the revert check, same images. */
	struct bisect_report_answer answer;
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
 * `git bisect run`'s question for one commit: measure the baseline `good`
 * (and with "auto" the bad endpoint `bad`, and check they are
 * separated), then judge `commit` at DRIVER_TEST_ERROR. Nothing is kept
 * but the boots stored: git keeps the bisection's state. *mark gets its
 * mark; returns DRIVER_CULPRIT (0: *mark is valid), DRIVER_NOT_SEPARATED,
 * DRIVER_ABORT or DRIVER_INTERRUPTED.
 */
enum driver_status driver_test(struct driver *d, const char *good,
			       const char *bad, const char *commit,
			       struct driver_result *res,
			       enum bisect_mark *mark);

#endif
