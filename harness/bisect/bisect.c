/*
 * bisect.c: the bisection engine over a commit graph (see bisect.h): the
 * candidates derived from the marks, git's choice of the next commit
 * (closest to halving the candidates, away from skipped ones) and the
 * mapping of probe outcomes to marks per bisect type. The loop over probes
 * is the driver's (driver.c). Pure: no I/O except error() on invalid
 * input.
 */
#include "bisect.h"
#include "exit_code.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int bisect_init(struct bisect_engine *e, const struct commit_graph *g)
{
	memset(e, 0, sizeof(*e));
	if (!g || !g->nr)
		return error("no commits to bisect");
	/*
	 * The engine leans on the topological order (parents after children)
	 * to propagate reachability in one pass; check it once here.
	 */
	for (size_t i = 0; i < g->nr; i++)
		for (size_t k = 0; k < g->nodes[i].nr_parents; k++) {
			size_t p = g->nodes[i].parents[k];
			if (p <= i || p >= g->nr)
				return error("commit '%s' has parent index %zu out of topological order",
					     g->nodes[i].id, p);
		}
	e->graph = g;
	e->marks = xcalloc(g->nr, sizeof(*e->marks));
	return 0;
}

void bisect_release(struct bisect_engine *e)
{
	free(e->marks);
	free(e->log);
	memset(e, 0, sizeof(*e));
}

int bisect_mark(struct bisect_engine *e, size_t node, enum bisect_mark mark)
{
	if (node >= e->graph->nr)
		return error("no commit number %zu in a range of %zu", node,
			     e->graph->nr);
	if (node == 0 && mark == BISECT_GOOD)
		return error("commit '%s' is the bad end of the range; it cannot be good",
			     e->graph->nodes[0].id);
	e->marks[node] = mark;
	ALLOC_GROW(e->log, e->nr_log + 1, e->alloc_log);
	e->log[e->nr_log++] = (struct bisect_probe){ node, mark };
	return 0;
}

/*
 * cand[i] = 1 when node i can still be the first bad commit: an
 * ancestor-or-self of every bad commit (nodes[0] always counts as bad) and
 * not an ancestor-or-self of any good one. Returns how many there are.
 */
static size_t compute_candidates(const struct bisect_engine *e,
				 unsigned char *cand)
{
	const struct commit_graph *g = e->graph;
	size_t n = g->nr, nr_bad = 0, count = 0;
	unsigned *reach = xcalloc(n, sizeof(*reach));
	unsigned char *seen = xmalloc(n), *good = xcalloc(n, 1);

	for (size_t b = 0; b < n; b++) {
		if (b && e->marks[b] != BISECT_BAD)
			continue;
		nr_bad++;
		memset(seen, 0, n);
		seen[b] = 1;
		for (size_t i = b; i < n; i++) {
			if (!seen[i])
				continue;
			reach[i]++;
			for (size_t k = 0; k < g->nodes[i].nr_parents; k++)
				seen[g->nodes[i].parents[k]] = 1;
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (e->marks[i] == BISECT_GOOD)
			good[i] = 1;
		if (good[i])
			for (size_t k = 0; k < g->nodes[i].nr_parents; k++)
				good[g->nodes[i].parents[k]] = 1;
	}
	for (size_t i = 0; i < n; i++) {
		cand[i] = reach[i] == nr_bad && !good[i];
		count += cand[i];
	}
	free(reach);
	free(seen);
	free(good);
	return count;
}

size_t bisect_candidates(const struct bisect_engine *e, size_t **out)
{
	unsigned char *cand = xmalloc(e->graph->nr);
	size_t nr = compute_candidates(e, cand), k = 0;

	*out = xmalloc((nr ? nr : 1) * sizeof(**out));
	for (size_t i = 0; i < e->graph->nr; i++)
		if (cand[i])
			(*out)[k++] = i;
	free(cand);
	return nr;
}

unsigned bisect_steps_left(const struct bisect_engine *e)
{
	unsigned char *cand = xmalloc(e->graph->nr);
	size_t nr = compute_candidates(e, cand);
	unsigned steps = 0;

	free(cand);
	while (nr > 1 && ((size_t)1 << steps) < nr)
		steps++;
	return steps;
}

struct ranked_node {
	size_t node;
	size_t distance;
};

/* Best first: larger distance, then earlier in graph order (git's order). */
static int cmp_ranked_node(const void *a, const void *b)
{
	const struct ranked_node *x = a, *y = b;
	if (x->distance != y->distance)
		return x->distance < y->distance ? 1 : -1;
	return (x->node > y->node) - (x->node < y->node);
}

/* git's get_prn(): "man 3 rand" seeded with the count, deterministic. */
#define PRN_MODULO 32768u
static unsigned get_prn(unsigned count)
{
	count = count * 1103515245u + 12345u;
	return (count / 65536u) % PRN_MODULO;
}

static unsigned sqrti(unsigned val)
{
	unsigned x = 0;
	while ((x + 1) * (x + 1) <= val)
		x++;
	return x;
}

/*
 * git's skip_away(): an index into the best-first list, biased toward the
 * front (r^1.5 of a uniform r), so the next probe still cuts the range well
 * but lands away from the skipped commit and its neighbours, which tend to
 * fail the same way.
 */
static size_t skip_away_index(size_t count)
{
	unsigned prn = get_prn((unsigned)count);
	size_t index = ((size_t)count * prn / PRN_MODULO) * sqrti(prn) /
		       sqrti(PRN_MODULO);
	return index < count ? index : 0;
}

/*
 * Weight of every candidate that may be probed (not the bad tip, not
 * marked bad): how many candidates are its ancestors, itself included,
 * counted with one bitset per candidate built parents first (reverse
 * topological order). A parent that is not a candidate is on the good
 * side, and so are all of its ancestors. Memory is m^2 / 8 bytes: 28 MB
 * for 15000 candidates, 0.04 s; fine for a kernel release's worth of
 * commits, and it halves with every step. Returns how many are in *out
 * (caller frees), their `distance` the weight.
 */
static size_t weigh(const struct bisect_engine *e, const unsigned char *cand,
		    size_t m, struct ranked_node **out)
{
	const struct commit_graph *g = e->graph;
	size_t n = g->nr, words = (m + 63) / 64, nr = 0;
	size_t *compact = xmalloc(n * sizeof(*compact));
	uint64_t *anc = xcalloc(m * words, sizeof(*anc));
	struct ranked_node *ranked = xmalloc((m ? m : 1) * sizeof(*ranked));

	for (size_t i = 0, k = 0; i < n; i++)
		compact[i] = cand[i] ? k++ : SIZE_MAX;
	for (size_t i = n; i-- > 0;) {
		uint64_t *a;
		size_t w = 0;

		if (!cand[i])
			continue;
		a = anc + compact[i] * words;
		a[compact[i] / 64] |= UINT64_C(1) << (compact[i] % 64);
		for (size_t k = 0; k < g->nodes[i].nr_parents; k++) {
			size_t p = g->nodes[i].parents[k];
			if (!cand[p])
				continue;
			for (size_t j = 0; j < words; j++)
				a[j] |= anc[compact[p] * words + j];
		}
		for (size_t j = 0; j < words; j++)
			w += (size_t)__builtin_popcountll(a[j]);
		/* The bad tip is known already; it is never a probe. */
		if (e->marks[i] == BISECT_BAD || i == 0)
			continue;
		ranked[nr++] = (struct ranked_node){ i, w };
	}
	free(compact);
	free(anc);
	*out = ranked;
	return nr;
}

/* Whether a cut this far from either end (of m) is within the bound. */
static int within_split_bound(size_t distance, size_t m)
{
	return (double)distance >= BISECT_SPLIT_MIN_SHARE * (double)m;
}

enum bisect_status bisect_next_split(const struct bisect_engine *e,
				     long (*cost)(size_t node, void *arg),
				     void *arg, struct bisect_split *out)
{
	const struct commit_graph *g = e->graph;
	size_t n = g->nr, m, nr_ranked;
	unsigned char *cand = xmalloc(n);
	struct ranked_node *ranked = NULL;
	enum bisect_status status;
	int skipped_first;
	size_t nr_untested = 0, pick;

	*out = (struct bisect_split){ 0, 0, -1, -1 };
	m = compute_candidates(e, cand);
	if (!m) {
		status = error("the marks contradict each other: no commit can be the first bad one");
		goto out;
	}
	if (m == 1) {
		for (size_t i = 0; i < n; i++)
			if (cand[i])
				out->node = out->middle = i;
		status = BISECT_DONE;
		goto out;
	}
	nr_ranked = weigh(e, cand, m, &ranked);
	/* git's distance: how far from either end the cut falls. */
	for (size_t i = 0; i < nr_ranked; i++) {
		size_t w = ranked[i].distance;
		ranked[i].distance = w < m - w ? w : m - w;
	}
	/*
	 * Rank all of them, skipped ones included, as git does: when the best
	 * place to cut is a skipped commit, move away from it pseudo-randomly
	 * among the untested ones; otherwise take the best untested one.
	 */
	qsort(ranked, nr_ranked, sizeof(*ranked), cmp_ranked_node);
	skipped_first = nr_ranked && e->marks[ranked[0].node] == BISECT_SKIP;
	for (size_t i = 0; i < nr_ranked; i++)
		if (e->marks[ranked[i].node] != BISECT_SKIP)
			ranked[nr_untested++] = ranked[i];
	if (!nr_untested) {
		status = BISECT_INCONCLUSIVE;
		goto out;
	}
	pick = skipped_first ? skip_away_index(nr_untested) : 0;
	out->node = out->middle = ranked[pick].node;
	status = BISECT_NEXT;
	/*
	 * By cost: down the ranking (nearest the middle first) while within
	 * the bound, the cheapest; a tie stays with the one nearer the
	 * middle, so the same marks and costs give the same commit. A cost
	 * not known (below 0) is never cheaper, and one not known for the
	 * middle leaves nothing to compare with.
	 */
	if (!cost || skipped_first)
		goto out;
	size_t within = 1, asked;
	while (within < nr_untested &&
	       within_split_bound(ranked[within].distance, m))
		within++;
	asked = within < BISECT_SPLIT_MAX_ASKED ? within
						: BISECT_SPLIT_MAX_ASKED;
	out->cost = out->middle_cost = cost(ranked[0].node, arg);
	for (size_t j = 1; j < asked && out->cost > 0; j++) {
		/* Evenly spread, nearest the middle first. */
		size_t i = asked == within ? j : j * (within - 1) / (asked - 1);
		long c = cost(ranked[i].node, arg);
		if (c >= 0 && c < out->cost) {
			out->cost = c;
			out->node = ranked[i].node;
		}
	}
out:
	free(cand);
	free(ranked);
	return status;
}

enum bisect_status bisect_next(const struct bisect_engine *e, size_t *node)
{
	struct bisect_split split;
	enum bisect_status s = bisect_next_split(e, NULL, NULL, &split);

	if (s != BISECT_ERROR && s != BISECT_INCONCLUSIVE)
		*node = split.node;
	return s;
}

size_t bisect_next_many(const struct bisect_engine *e, size_t k, size_t *out)
{
	size_t n = e->graph->nr, m, nr, got = 0;
	unsigned char *cand = xmalloc(n), *taken;
	struct ranked_node *ranked = NULL;

	m = compute_candidates(e, cand);
	if (m < 2 || !k) {
		free(cand);
		return 0;
	}
	nr = weigh(e, cand, m, &ranked);
	taken = xcalloc(nr + 1, 1);
	/*
	 * The cut j of k+1 equal parts has weight j * m / (k + 1): the
	 * untested candidate nearest it (ties: earlier in graph order, as
	 * git), each commit once. With k = 1 that is bisect_next's choice
	 * on a range with nothing skipped.
	 */
	for (size_t j = 1; j <= k; j++) {
		double target = (double)j * (double)m / (double)(k + 1);
		size_t best = SIZE_MAX;
		double best_d = 0;
		for (size_t i = 0; i < nr; i++) {
			double d = fabs((double)ranked[i].distance - target);
			if (taken[i] || e->marks[ranked[i].node] == BISECT_SKIP)
				continue;
			if (best == SIZE_MAX || d < best_d ||
			    (d == best_d && ranked[i].node < ranked[best].node)) {
				best = i;
				best_d = d;
			}
		}
		if (best == SIZE_MAX)
			break;
		taken[best] = 1;
		out[got++] = ranked[best].node;
	}
	free(taken);
	free(ranked);
	free(cand);
	return got;
}

enum bisect_mark bisect_classify(enum bisect_type type,
				 enum probe_outcome outcome)
{
	switch (type) {
	case BISECT_BUILD:
		return outcome == PROBE_BUILD_FAILED ? BISECT_BAD : BISECT_GOOD;
	case BISECT_BOOT:
		switch (outcome) {
		case PROBE_BUILD_FAILED:
			return BISECT_SKIP;
		case PROBE_BOOT_FAILED:
		case PROBE_PANIC:
		case PROBE_TIMEOUT:
			return BISECT_BAD;
		default:
			return BISECT_GOOD;
		}
	default:
		switch (outcome) {
		case PROBE_FAST:
			return BISECT_GOOD;
		case PROBE_SLOW:
			return BISECT_BAD;
		default:
			return BISECT_SKIP;
		}
	}
}

int bisect_exit_code(enum bisect_mark mark)
{
	switch (mark) {
	case BISECT_GOOD:
		return 0;
	case BISECT_BAD:
		return 1;
	default:
		return EXIT_SKIP;
	}
}
