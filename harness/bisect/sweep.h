/*
 * sweep.h: `iobisect sweep`, the nightly measurement of a range of
 * history. This module owns choosing the sample of commits (every Nth
 * along first-parent history, or the tags that match a glob), the sweep
 * state file results/<job>/sweep-state.json that gives the store's
 * readers the commits' order, and deciding which change points are
 * regressions past the job's threshold. The choices and the JSON are pure;
 * sweep_commits.c reaches the repository (libgit2) and sweep_state_save
 * the file system.
 */
#ifndef IOBISECT_SWEEP_H
#define IOBISECT_SWEEP_H

#include "changepoint.h"
#include "job.h"
#include "util.h"

#include <stddef.h>

/* A tag of the repository and the commit it points to (peeled). */
struct sweep_tag {
	char *name; /* "v6.1", without refs/tags/ */
	char commit[41];
};

struct sweep_tags {
	struct sweep_tag *v;
	size_t nr, alloc;
};
#define SWEEP_TAGS_INIT                                                        \
	{                                                                      \
		NULL, 0, 0                                                     \
	}
void sweep_tags_push(struct sweep_tags *t, const char *name,
		     const char *commit);
void sweep_tags_release(struct sweep_tags *t);

/*
 * Every `every`th commit of `history` (oldest first, history[0] being A,
 * the start of the range) into `out`: history[0], history[every],
 * history[2 * every], ..., and always the last one (B). `every` must be
 * >= 1. Pure.
 */
void sweep_pick_every(struct strvec *out, const struct strvec *history,
		      unsigned every);

/*
 * The commits of `range` (the commits of A..B with A itself, oldest
 * first) that a tag matching the fnmatch(3) glob `pattern` points to, in
 * the order of `range`, each commit once. names gets the tag of each
 * chosen commit (the first matching name in `tags`' order), same order;
 * it may be NULL. Pure.
 */
void sweep_pick_tags(struct strvec *out, struct strvec *names,
		     const struct sweep_tags *tags, const char *pattern,
		     const struct strvec *range);

/* One commit of the sweep, as the state file lists it. */
struct sweep_point {
	char commit[41];
	char *subject; /* may be NULL */
	char *role;    /* "sweep", "step", "improvement"; may be NULL */
};

struct sweep_state {
	struct sweep_point *v; /* oldest first */
	size_t nr, alloc;
};
#define SWEEP_STATE_INIT                                                       \
	{                                                                      \
		NULL, 0, 0                                                     \
	}
struct sweep_point *sweep_state_add(struct sweep_state *s, const char *commit,
				    const char *subject, const char *role);
void sweep_state_release(struct sweep_state *s);

/*
 * The state as JSON, the format store_scan reads:
 * {"commits": [{"commit": "<id>", "subject": "...", "role": "..."}, ...]}
 * oldest first (subject and role left out when NULL). Pure.
 */
void sweep_state_to_json(const struct sweep_state *s, struct strbuf *out);
/*
 * Parse that text (entries may also be bare "<id>" strings); `origin`
 * names it in messages. Returns 0, or -1 after error(). Pure. Only the
 * tests read the file this strictly, holding the writer to its format:
 * the program's one reader is the store's scan (store_scan_order.c),
 * which takes the order and passes over the rest.
 */
int sweep_state_parse(struct sweep_state *s, const char *text,
		      const char *origin);
/* <dir>/sweep-state.json, written atomically. */
int sweep_state_save(const struct sweep_state *s, const char *dir);
/* Read it back; 1 when there is none, 0 when read, -1 after error()
   (the tests' round trip, as sweep_state_parse). */
int sweep_state_load(struct sweep_state *s, const char *dir);

/*
 * Boots a sampled commit starts with: two, so the change-point test sees
 * a spread in each, and more only where a step is undecided (below).
 * A detector's step that a looser significance sees and the job's does
 * not is undecided.
 */
#define SWEEP_BOOTS_FIRST 2
#define SWEEP_LOOSE_ALPHA 0.2

/*
 * The detector's options for the job: its threshold lowers the floor of
 * the change reported when it is a smaller percentage.
 */
void sweep_changepoint_options(struct changepoint_options *opt,
			       const struct threshold *t);

/*
 * The commits of `series` (n, oldest first) that a step left undecided
 * asks more boots of: the two measured commits beside each change point
 * the detector finds at SWEEP_LOOSE_ALPHA and not at opt->alpha, those
 * with fewer than `cap` boots, each once, ascending, into out (the
 * caller's array of n). *nr gets their number (0: every step decided,
 * or at the cap). Returns 0, or -1 after error(). Pure.
 */
int sweep_undecided(size_t *out, size_t *nr,
		    const struct changepoint_commit *series, size_t n,
		    const struct changepoint_options *opt, size_t cap);

/*
 * A round of the boots a sweep adds: the commits a step leaves undecided
 * (sweep_undecided: at, *nr), and the boots each is asked to reach in
 * the round, one more than the most any of them has (*want). *nr 0:
 * no round, every step decided or its commits at the cap. 0, or -1
 * after error(). Pure.
 */
int sweep_top_up_round(size_t *at, size_t *nr, unsigned *want,
		       const struct changepoint_commit *series, size_t n,
		       const struct changepoint_options *opt, size_t cap);

/*
 * Whether a change point goes past the job's threshold (a drop of at
 * least threshold percent, or of threshold MB/s; "auto" leaves it to the
 * change-point test, so every regression found counts). Improvements are
 * checked the same way on the rise. Pure.
 */
int sweep_past_threshold(const struct threshold *t,
			 const struct changepoint *cp);

/*
 * The name of the bisection job a sweep derives for the step between two
 * tested commits: "<job>-bisect-<12 of good>-<12 of bad>". Caller frees.
 */
char *sweep_bisect_job_name(const char *job, const char *good, const char *bad);

/*
 * The job file of that bisection: the sweep's job file text with "name",
 * "good", "bad" and "results" replaced, and "direction" set to "faster"
 * for an improvement (`faster`), "slower" for a regression. Returns 0, or -1 after error() when `job_text`
 * is not a JSON object. Pure.
 */
int sweep_bisect_job_text(struct strbuf *out, const char *job_text,
			  const char *origin, const char *name,
			  const char *good, const char *bad,
			  const char *results, int faster);

/* sweep_commits.c: the repository's side, through libgit2. */

/*
 * The first-parent history from `a` to `b` (full ids), oldest first,
 * `a` first and `b` last: the commits reached from b by first parents
 * until `a` (or a commit `a` descends from, when `a` sits on a merged
 * branch). Error when `a` is not an ancestor of `b`.
 */
int sweep_first_parents(struct strvec *out, const char *repo_path,
			const char *a, const char *b);
/* Every commit of a..b (merged branches too) with `a`, oldest first. */
int sweep_range_commits(struct strvec *out, const char *repo_path,
			const char *a, const char *b);
/* Every tag of the repository that leads to a commit. */
int sweep_list_tags(struct sweep_tags *out, const char *repo_path);

#endif
