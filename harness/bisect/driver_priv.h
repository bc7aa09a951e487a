/*
 * driver_priv.h: what the driver's own files share; nothing else includes
 * it. They call downwards only: driver.c (the run, its steps, `git bisect
 * run`'s one commit) over driver_endpoints.c (the endpoints, the merge
 * base) and driver_confirm.c (the answer's pairs), all three over
 * driver_probe.c (one commit probed and recorded, and what every part
 * shares), and that over the judge (judge.h) and the measuring layer
 * (measure.h). Beside the answer, driver_answer.c (a culprit whose image
 * is its parent's, the culprit's share of the drop), driver_revert.c (the
 * revert check) and driver_changes.c (every other change in the range,
 * each part bisected by a driver of its own).
 */
#ifndef IOBISECT_DRIVER_PRIV_H
#define IOBISECT_DRIVER_PRIV_H

#include "driver.h"
#include "judge.h"
#include "measure.h"
#include "noise.h"

/* What one probe of a commit came to (recorded in the state). */
struct probe_note {
	enum probe_outcome outcome;
	int have_verdict;
	struct verdict v;
	unsigned boots_run; /* boots this probe ran */
	size_t boots;	    /* the commit's boots behind the verdict */
	size_t samples;
	double median, stddev_pct; /* of the commit's boots */
	char key[41];
	int cached;
	char *first_error, *log;
	double seconds;
	/* The judged commit whose image this one's is, byte for byte. */
	char same_as[41];
};
void driver_note_release(struct probe_note *n);

/* driver_probe.c: what every part shares. */

int driver_is_good(const struct driver *d, const char *commit);
/* The commit's subject for people, "" when unknown (caller frees). */
char *driver_subject(struct driver *d, const char *commit);
/* The state with this run's totals, to its file when it has one. */
int driver_save(struct driver *d);
/* The run's status in its state (when it keeps one). */
void driver_set_status(struct driver *d, enum state_status status);
/* A line for people above the status line (nothing when quiet). */
void driver_say(struct driver *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* An op returned -1: interrupted (state saved) or aborted. */
enum driver_status driver_stopped(struct driver *d);
void driver_set_message(struct driver_result *res, char *msg);
const char *driver_failure_text(const struct probe_note *n);
unsigned driver_count_role(const struct bisect_state *st, enum probe_role role);
/* Hand the guessed next commits (d->guess) to ops->prefetch, once. */
void driver_prefetch(struct driver *d);
/*
 * The most boots an endpoint gets, and the most pairs the answer's
 * confirmation takes against each parent: twice runs.max.
 */
size_t driver_pairs_cap(const struct driver *d);

/* driver_probe.c: one commit. */

/* Build: 0 built, 1 it does not build (n says why), -1 stop. */
int driver_build_commit(struct driver *d, const char *commit,
			struct probe_note *n);
/* Boot once: 0 it went well, 1 it failed (n says how), -1 stop. */
int driver_boot_commit(struct driver *d, const char *commit,
		       struct probe_note *n);
/* A boot's failure (fail) as the note's outcome, error and log. */
void driver_note_failure(struct probe_note *n, struct boot_facts *fail);
void driver_note_figures(struct probe_note *n, const struct sample_set *s);
/* Build, then measure as the bisect type asks (up to `cap` boots). */
int driver_probe(struct driver *d, const char *commit, double error,
		 unsigned cap, struct probe_note *n);
/* Record a probe in the state (replacing an earlier one of this role). */
void driver_record(struct driver *d, const char *commit, enum probe_role role,
		   const struct probe_note *n, enum bisect_mark mark);
void driver_say_verdict(struct driver *d, const char *commit,
			const struct probe_note *n, enum bisect_mark mark);

/* driver.c */

/*
 * Every step's mark in doubt (the pairs contradicted the steps, only
 * skips are left, or the line they were judged by gave way): the range
 * is judged again, each commit on its boots and at least one more. Once
 * a run; said with `why`. 0, or -1 to stop.
 */
int driver_put_in_doubt(struct driver *d, const char *why);

/*
 * Narrow the range to the commits that can change the endpoints' kernel
 * (d->narrow), once a run, once both are built, and hand the first step
 * to ops->prefetch. 0, or -1 to stop.
 */
int driver_narrow(struct driver *d);
/*
 * A step's verdict `v` on `commit` that sat still between the levels
 * (struct verdict's between): said, and kept in the state's between,
 * out of both levels from then on. Nothing when it did not.
 */
void driver_between(struct driver *d, const char *commit,
		    const struct verdict *v);

/*
 * The range as good's build alone narrows it, where the steps standing
 * in for bad are chosen (driver_endpoints.c): *g is by_good (graph_release),
 * or the whole range when it cannot be narrowed. 0, or -1 after error().
 */
int driver_narrow_by_good(struct driver *d, struct commit_graph *by_good,
			  const struct commit_graph **g);
/*
 * The step that would stand in for bad: the next step of g on the
 * state's marks, into out ("" when there is none but bad). 0, or -1
 * after error().
 */
int driver_pick_stand_in(struct driver *d, const struct commit_graph *g,
			 char out[41]);

/* driver_endpoints.c */

/*
 * May a step stand in for bad: a perf bisection that keeps a state,
 * under the job's fixed line, with "stand_in" on and bad not measured.
 */
int driver_stand_in_allowed(const struct driver *d);
/*
 * A step stood in and bad is not measured: nothing may ask for bad's
 * boots, as that asks for its image, and so builds it.
 */
int driver_bad_unbuilt(const struct driver *d);
/*
 * After the answer: bad built and measured when a step stood in for it
 * and the revert check or the other changes need it, and the endpoints'
 * separation (d->sep, res->sep) taken again on it. 0, or -1 to stop.
 */
int driver_bad_after_answer(struct driver *d, struct driver_result *res);
enum driver_status driver_endpoints_typed(struct driver *d,
					  struct driver_result *res);
enum driver_status driver_endpoints_perf(struct driver *d,
					 struct driver_result *res,
					 int need_bad);
enum driver_status driver_merge_base(struct driver *d,
				     struct driver_result *res);

/* driver_confirm.c: the answer's confirmation. */

/* The commits the culprit at `node` is judged against: its parents. */
void driver_culprit_parents(struct driver *d, size_t node, struct strvec *out);
/* The pairs of p as a state's record keeps them (struct state_pair). */
void driver_keep_pairs(struct state_confirm_parent *rec,
		       const struct measure_pairs *p);
/*
 * Pairs of p->boots.parent and `commit` (judge_pairs), one at a time,
 * each kept in `rec` and the state saved before the next: until `in`
 * decides or `cap`. 0, 1 when boots kept failing, -1 to stop.
 */
int driver_take_pairs(struct driver *d, const char *commit,
		      struct state_confirm_parent *rec, struct judged_pairs *p,
		      struct verdict_pairs_input *in, size_t cap,
		      struct boot_facts *fail);
/* 0, or -1 to stop; see driver.h for the policy. */
int driver_confirm(struct driver *d, size_t node, struct driver_result *res,
		   int *reopen, double *conf);

/* driver_answer.c: what stands beside the answer. */

/*
 * 1 when the culprit at `node` has the image of one of its parents (it
 * cannot be the slowdown): it is marked fast as its parent is, kept in
 * the state's same_image, and never named. 0 when not (or not known), -1
 * to stop.
 */
int driver_same_image(struct driver *d, size_t node);
/* The level of a commit's boots (median 0 and n 0: none). */
struct share_level driver_level_of(struct driver *d, const char *commit);
/* One boot's spread for share.h's sums: the run's, at least the prior. */
double driver_share_sigma(struct driver *d);
/* The culprit's drop against its parent's set against the endpoints'. */
void driver_answer_share(struct driver *d, const char *culprit,
			 struct driver_result *res);

/* driver_changes.c */

/*
 * Every change in the range beside the answer (job "runs.changes"): the
 * parts whose ends differ beyond the noise, each bisected on its own,
 * kept in the state's changes and in res->answer.changes. It never
 * changes the answer. 0, or -1 to stop.
 */
int driver_changes(struct driver *d, struct driver_result *res);

/* driver_revert.c */

/*
 * The revert check of the answer `culprit` (job "runs.revert"): the bad
 * endpoint with it reverted, booted in pairs against it, in res->answer.
 * It never changes the answer. 0, or -1 to stop (its pairs are kept).
 */
int driver_revert(struct driver *d, const char *culprit,
		  struct driver_result *res);

#endif
