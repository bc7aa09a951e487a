/*
 * bisect.h: the bisection engine, pure, over a struct commit_graph
 * (graph.h): nodes[0] is the bad commit, children come before parents, and
 * the good side is outside the graph. The engine only knows good, bad and
 * skip; how a probe's outcome becomes one of those depends on the bisect
 * type (bisect_classify). The caller measures the endpoints and the merge
 * base itself; the engine starts from "nodes[0] is bad, everything outside
 * is good".
 *
 * The state is a set of marks, one per commit. Everything else is derived
 * from it, so replaying the same marks in any order (a resumed run) gives the
 * same candidates and the same next choice:
 *  - the first bad commit is an ancestor-or-self of every commit marked bad
 *    (and of nodes[0]);
 *  - it is not an ancestor-or-self of any commit marked good;
 *  - skipped commits stay candidates; the engine only avoids testing them.
 */
#ifndef IOBISECT_BISECT_H
#define IOBISECT_BISECT_H

#include "graph.h"
#include "job.h"
#include "marks.h"

#include <stddef.h>

/* One mark as it was given, in order (the engine's own log). */
struct bisect_probe {
	size_t node;
	enum bisect_mark mark;
};

/* (Named so because state.h's struct bisect_state is the saved JSON state.) */
struct bisect_engine {
	const struct commit_graph *graph; /* not owned; must outlive the engine */
	enum bisect_mark *marks;          /* per node; latest mark wins */
	struct bisect_probe *log;
	size_t nr_log, alloc_log;
};
#define BISECT_ENGINE_INIT { NULL, NULL, NULL, 0, 0 }

/* Start on a graph with at least one node. Returns 0, or -1 after error(). */
int bisect_init(struct bisect_engine *e, const struct commit_graph *g);
void bisect_release(struct bisect_engine *e);

/*
 * Record a verdict on a node (BISECT_UNTESTED clears it). Returns 0, or -1
 * after error() for a node out of range or marking nodes[0] good.
 */
int bisect_mark(struct bisect_engine *e, size_t node, enum bisect_mark mark);

enum bisect_status {
	BISECT_ERROR = -1,       /* marks contradict: no candidate left */
	BISECT_NEXT = 0,         /* *node is the commit to test next */
	BISECT_DONE = 1,         /* *node is the first bad commit: the only
				    candidate left */
	BISECT_INCONCLUSIVE = 2, /* only skipped commits left to test */
};

/*
 * What to do next. The choice follows git: the untested candidate whose
 * number of ancestors among the candidates (itself included, merges
 * included) is closest to half of them; when that best commit was skipped,
 * a deterministic pseudo-random pick biased toward good choices among the
 * untested ones, as git's skip_away() does, to move away from a region that
 * does not build or boot. BISECT_ERROR comes with error().
 */
enum bisect_status bisect_next(const struct bisect_engine *e, size_t *node);

/*
 * The loss of information a cheaper split may cost: the smaller side of
 * its cut holds at least 40% of the candidates, a split no worse than
 * 60/40. A verdict on a 60/40 split tells H(0.4) = 0.971 bits against the
 * middle's 1 bit, so on average the steps are about 3% more (one in 33);
 * at worst, every verdict on the larger side, 0.6^k shrinks the range as
 * 0.5^k would in 1.36 times the steps. A build is where a real range's
 * time goes (a step across a header most objects include builds near
 * cold, 12.5 minutes, where a .c file builds in 13 s), so a split that
 * builds a few objects instead of most of them pays for a few percent
 * more steps many times over; past 60/40 the steps a split adds grow
 * fast (70/30 tells 0.88 bits).
 */
#define BISECT_SPLIT_MIN_SHARE 0.4
/*
 * Commits whose cost is asked at most, spread evenly over those within
 * the bound (the middle always): a cost is a tree diff for each build
 * folder, 0.13 s on the fixture's kernel (with ccache one diff a commit,
 * 0.04 s, build_warm.h: 24 costs in 0.9-1.0 s), and a step asks for its
 * own choice and for both guesses beside it; within 60/40 a range of
 * 13,000 commits has 2,600.
 */
#define BISECT_SPLIT_MAX_ASKED 24

/*
 * bisect_next where building a commit costs something (issue 46): among
 * the untested commits near the middle, whose cut leaves the smaller
 * side at least BISECT_SPLIT_MIN_SHARE of the candidates (above: why
 * 60/40), the one cost() says is cheapest; ties to the one nearest
 * the middle, then git's order. cost (node's objects to build; below 0:
 * not known, never cheaper) is asked of the middle first, then down the
 * ranking (BISECT_SPLIT_MAX_ASKED of them, spread) until a commit costs
 * nothing. Without cost, or when the middle
 * is skipped (git's skip_away), bisect_next's choice. out->middle is
 * bisect_next's commit, out->cost and out->middle_cost their costs (-1
 * when not asked).
 */
struct bisect_split {
	size_t node, middle;
	long cost, middle_cost;
};
enum bisect_status bisect_next_split(const struct bisect_engine *e,
				     long (*cost)(size_t node, void *arg),
				     void *arg, struct bisect_split *out);

/*
 * A multisection round: up to k untested commits that cut the candidates
 * into k + 1 parts of about equal weight (the weight bisect_next cuts in
 * two), into out[k], lightest first. Skipped commits are not chosen.
 * Returns how many; 0 when the range is decided or contradicts itself.
 */
size_t bisect_next_many(const struct bisect_engine *e, size_t k, size_t *out);

/*
 * The possible first bad commits now, in graph order (caller frees *out).
 * When bisect_next says INCONCLUSIVE these are the skipped commits plus the
 * bad tip, the list to print after "the first bad commit is one of".
 */
size_t bisect_candidates(const struct bisect_engine *e, size_t **out);

/* About how many more probes: ceil(log2(candidates)); 0 when done. */
unsigned bisect_steps_left(const struct bisect_engine *e);

/*
 * The mark an outcome earns under a bisect type:
 *  perf:  fast good, slow bad, anything else skip;
 *  build: build failure bad, built (any later outcome) good;
 *  boot:  build failure skip; boot failure, panic, timeout bad; a guest
 *         that ran (workload error, fast, slow, undecided) good.
 */
enum bisect_mark bisect_classify(enum bisect_type type,
				 enum probe_outcome outcome);

/* The `git bisect run` exit code of a mark: 0 good, 1 bad, 125 skip. */
int bisect_exit_code(enum bisect_mark mark);

#endif
