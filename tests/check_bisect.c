/*
 * check_bisect.c: the bisection engine (bisect.c) driven by a fake oracle
 * over hand-built graphs: linear and merge histories with the culprit at
 * every position, skips next to the culprit, the inconclusive end, resume by
 * replaying marks, and the bisect types' mapping of outcomes.
 */
#include "bisect.h"
#include "util.h"

#include <check.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The engine walked to its end by an oracle, the way the driver's steps
 * walk it (driver.c, tested with measured verdicts in check_driver.c): ask
 * bisect_next, probe, classify by the bisect type, mark, repeat.
 */
/*
 * The oracle probes one commit and says what came of it, or returns a
 * negative number to abort (bisect_run then returns BISECT_ERROR without a
 * message of its own; the oracle said what failed).
 */
typedef int (*bisect_oracle_fn)(size_t node, const struct commit_node *commit,
				void *payload);

struct bisect_result {
	enum bisect_status status; /* DONE, INCONCLUSIVE or ERROR */
	size_t culprit;            /* DONE */
	size_t *candidates;        /* INCONCLUSIVE: possible first bad commits */
	size_t nr_candidates;
	size_t probes; /* oracle calls this run */
};

/*
 * Drive the engine to the end: ask bisect_next, call the oracle, classify
 * its outcome (an int holding an enum probe_outcome) by `type`, mark,
 * repeat. Starts from whatever marks `e` already holds, so a resumed run
 * replays its marks first and then calls this.
 */

static void bisect_result_release(struct bisect_result *r)
{
	free(r->candidates);
	memset(r, 0, sizeof(*r));
}

static enum bisect_status bisect_run(struct bisect_result *res,
			      struct bisect_engine *e, enum bisect_type type,
			      bisect_oracle_fn oracle, void *payload)
{
	memset(res, 0, sizeof(*res));
	for (;;) {
		size_t node = 0;
		enum bisect_status st = bisect_next(e, &node);
		int outcome;

		res->status = st;
		switch (st) {
		case BISECT_DONE:
			res->culprit = node;
			return st;
		case BISECT_INCONCLUSIVE:
			res->nr_candidates =
				bisect_candidates(e, &res->candidates);
			return st;
		case BISECT_ERROR:
			return st;
		default:
			break;
		}
		outcome = oracle(node, &e->graph->nodes[node], payload);
		res->probes++;
		if (outcome < 0)
			return res->status = BISECT_ERROR;
		if (outcome > PROBE_UNDECIDED) {
			error("probe of '%s' gave unknown outcome %d",
			      e->graph->nodes[node].id, outcome);
			return res->status = BISECT_ERROR;
		}
		if (bisect_mark(e, node,
				bisect_classify(type,
						(enum probe_outcome)outcome)) < 0)
			return res->status = BISECT_ERROR;
	}
}

/* parents[i] lists node i's parents, ending at -1; -1 alone: outside. */
static void make_graph(struct commit_graph *g, const int parents[][3],
		       size_t n)
{
	g->nr = n;
	g->nodes = xcalloc(n, sizeof(*g->nodes));
	for (size_t i = 0; i < n; i++) {
		struct commit_node *c = &g->nodes[i];
		snprintf(c->id, sizeof(c->id), "%040zx", i + 1);
		c->parents = xcalloc(3, sizeof(*c->parents));
		for (int k = 0; k < 3 && parents[i][k] >= 0; k++)
			c->parents[c->nr_parents++] = (size_t)parents[i][k];
		c->outside_parents = !c->nr_parents;
	}
}

static void make_linear(struct commit_graph *g, size_t n)
{
	int (*p)[3] = xcalloc(n, sizeof(*p));
	for (size_t i = 0; i < n; i++)
		p[i][0] = i + 1 < n ? (int)i + 1 : -1, p[i][1] = -1;
	make_graph(g, (const int(*)[3])p, n);
	free(p);
}

/*
 *  0 tip            the bad end
 *  1 merge          parents 2 (branch A) and 5 (branch B)
 *  2-3-4 branch A   4's parent is on the good side
 *  5-6-7 branch B   7's parent is on the good side
 */
static const int merge_parents[][3] = {
	{ 1, -1 }, { 2, 5, -1 }, { 3, -1 }, { 4, -1 }, { -1 },
	{ 6, -1 }, { 7, -1 },    { -1 },
};

static int is_ancestor_or_self(const struct commit_graph *g, size_t anc,
			       size_t node)
{
	if (anc == node)
		return 1;
	for (size_t k = 0; k < g->nodes[node].nr_parents; k++)
		if (is_ancestor_or_self(g, anc, g->nodes[node].parents[k]))
			return 1;
	return 0;
}

struct fake {
	const struct commit_graph *g;
	size_t culprit;
	unsigned skip; /* bit per node: does not build */
	enum bisect_type type;
	unsigned probed; /* bit per node */
};

/* Slow from the culprit on; nodes in `skip` fail to build. */
static int fake_oracle(size_t node, const struct commit_node *c, void *payload)
{
	struct fake *f = payload;
	int bad = is_ancestor_or_self(f->g, f->culprit, node);

	ck_assert_ptr_eq(c, &f->g->nodes[node]);
	ck_assert_msg(!(f->probed >> node & 1), "node %zu probed twice", node);
	f->probed |= 1u << node;
	if (f->skip >> node & 1)
		return PROBE_BUILD_FAILED;
	switch (f->type) {
	case BISECT_BUILD:
		return bad ? PROBE_BUILD_FAILED : PROBE_FAST;
	case BISECT_BOOT:
		return bad ? PROBE_PANIC : PROBE_SLOW;
	default:
		return bad ? PROBE_SLOW : PROBE_FAST;
	}
}

static unsigned ceil_log2(size_t n)
{
	unsigned k = 0;
	while (((size_t)1 << k) < n)
		k++;
	return k;
}

START_TEST(linear_every_culprit)
{
	struct commit_graph g;
	struct bisect_engine e;
	struct bisect_result r;
	struct fake f = { 0 };

	make_linear(&g, 10);
	f.g = &g;
	f.culprit = (size_t)_i;
	ck_assert_int_eq(bisect_init(&e, &g), 0);
	ck_assert_uint_eq(bisect_steps_left(&e), 4);
	ck_assert_int_eq(bisect_run(&r, &e, BISECT_PERF, fake_oracle, &f),
			 BISECT_DONE);
	ck_assert_uint_eq(r.culprit, f.culprit);
	ck_assert_uint_le(r.probes, ceil_log2(10) + 1);
	ck_assert_uint_eq(bisect_steps_left(&e), 0);
	bisect_result_release(&r);
	bisect_release(&e);
	graph_release(&g);
}
END_TEST

START_TEST(merge_every_culprit)
{
	/* Culprit on branch A (2-4), branch B (5-7), the merge (1), the tip. */
	struct commit_graph g;
	struct bisect_engine e;
	struct bisect_result r;
	struct fake f = { 0 };

	make_graph(&g, merge_parents, ARRAY_SIZE(merge_parents));
	f.g = &g;
	f.culprit = (size_t)_i;
	ck_assert_int_eq(bisect_init(&e, &g), 0);
	ck_assert_int_eq(bisect_run(&r, &e, BISECT_PERF, fake_oracle, &f),
			 BISECT_DONE);
	ck_assert_uint_eq(r.culprit, f.culprit);
	ck_assert_uint_le(r.probes, ceil_log2(8) + 1);
	bisect_result_release(&r);
	bisect_release(&e);
	graph_release(&g);
}
END_TEST

/*
 * A path limit's simplification: a commit the same as a parent leaves the
 * range, its children take that parent; a merge the same as one side
 * leaves the other side out; bad always stays.
 */
START_TEST(narrow_drops_the_same_and_the_side_they_hide)
{
	struct commit_graph g, n = { 0 };
	/* The merge is the same as branch A (parents[0]); 3 as 4. */
	const long same[] = { -1, 0, -1, 0, -1, -1, -1, -1 };

	make_graph(&g, merge_parents, ARRAY_SIZE(merge_parents));
	ck_assert_uint_eq(graph_narrow(&g, same, &n), 3);
	ck_assert_str_eq(n.nodes[0].id, g.nodes[0].id);
	ck_assert_str_eq(n.nodes[1].id, g.nodes[2].id);
	ck_assert_str_eq(n.nodes[2].id, g.nodes[4].id);
	ck_assert_uint_eq(n.nodes[0].nr_parents, 1);
	ck_assert_uint_eq(n.nodes[0].parents[0], 1);
	ck_assert_uint_eq(n.nodes[1].nr_parents, 1);
	ck_assert_uint_eq(n.nodes[1].parents[0], 2);
	ck_assert_uint_eq(n.nodes[2].nr_parents, 0);
	ck_assert_int_eq(n.nodes[2].outside_parents, 1);
	graph_release(&n);
	graph_release(&g);
}
END_TEST

/*
 * Linear: the oldest the same as the good side leaves its child with an
 * outside parent; bad the same as its parent stays, the range's top.
 */
START_TEST(narrow_linear_keeps_bad_and_bisects_the_rest)
{
	struct commit_graph g, n = { 0 };
	const long same[] = { 0, -1, 0, -1, -1, 0 };
	struct bisect_engine e;
	struct bisect_result r;
	struct fake f = { 0 };

	make_linear(&g, 6);
	ck_assert_uint_eq(graph_narrow(&g, same, &n), 4);
	ck_assert_str_eq(n.nodes[0].id, g.nodes[0].id);
	ck_assert_str_eq(n.nodes[1].id, g.nodes[1].id);
	ck_assert_str_eq(n.nodes[2].id, g.nodes[3].id);
	ck_assert_str_eq(n.nodes[3].id, g.nodes[4].id);
	ck_assert_uint_eq(n.nodes[1].parents[0], 2);
	ck_assert_int_eq(n.nodes[3].outside_parents, 1);
	ck_assert_ptr_null(n.nodes[3].outside);
	f.g = &n;
	f.culprit = 2;
	ck_assert_int_eq(bisect_init(&e, &n), 0);
	ck_assert_int_eq(bisect_run(&r, &e, BISECT_PERF, fake_oracle, &f),
			 BISECT_DONE);
	ck_assert_uint_eq(r.culprit, 2);
	bisect_result_release(&r);
	bisect_release(&e);
	graph_release(&n);
	graph_release(&g);
}
END_TEST

/*
 * A part of a linear range between two of its commits (another change's
 * bisection): the commits after lo up to hi, hi first, the oldest's
 * parent lo named as its outside parent; from the good endpoint (-1),
 * everything up to hi, the oldest's parent the good endpoint as before.
 */
START_TEST(between_two_commits_of_the_range)
{
	struct commit_graph g, n = { 0 };

	make_linear(&g, 8);
	ck_assert_uint_eq(graph_between(&g, 5, 1, &n), 4);
	for (size_t i = 0; i < 4; i++)
		ck_assert_str_eq(n.nodes[i].id, g.nodes[1 + i].id);
	ck_assert_uint_eq(n.nodes[0].parents[0], 1);
	ck_assert_uint_eq(n.nodes[3].nr_parents, 0);
	ck_assert_int_eq(n.nodes[3].outside_parents, 1);
	ck_assert_str_eq(n.nodes[3].outside[0], g.nodes[5].id);
	graph_release(&n);
	ck_assert_uint_eq(graph_between(&g, -1, 6, &n), 2);
	ck_assert_str_eq(n.nodes[0].id, g.nodes[6].id);
	ck_assert_int_eq(n.nodes[1].outside_parents, 1);
	ck_assert_ptr_null(n.nodes[1].outside);
	graph_release(&n);
	/* Nothing between a commit and itself. */
	ck_assert_uint_eq(graph_between(&g, 3, 3, &n), 0);
	graph_release(&n);
	graph_release(&g);
}
END_TEST

START_TEST(first_choice_halves_the_merge_graph)
{
	/*
	 * Ancestors among the 8 candidates: node 2 has 3 (2, 3, 4), node 5 has
	 * 3, node 1 has 7. 3 and 3 are 1 away from half (4); git takes the
	 * first in rev-list order: node 2.
	 */
	struct commit_graph g;
	struct bisect_engine e;
	size_t node = 99;

	make_graph(&g, merge_parents, ARRAY_SIZE(merge_parents));
	ck_assert_int_eq(bisect_init(&e, &g), 0);
	ck_assert_int_eq(bisect_next(&e, &node), BISECT_NEXT);
	ck_assert_uint_eq(node, 2);
	/* Good at 2 removes 2, 3, 4: candidates 0, 1, 5, 6, 7. */
	ck_assert_int_eq(bisect_mark(&e, 2, BISECT_GOOD), 0);
	size_t *c, nr = bisect_candidates(&e, &c);
	size_t want[] = { 0, 1, 5, 6, 7 };
	ck_assert_uint_eq(nr, 5);
	for (size_t i = 0; i < nr; i++)
		ck_assert_uint_eq(c[i], want[i]);
	free(c);
	/* Bad at 6 makes it the tip: candidates 6 and 7. */
	ck_assert_int_eq(bisect_mark(&e, 6, BISECT_BAD), 0);
	nr = bisect_candidates(&e, &c);
	ck_assert_uint_eq(nr, 2);
	ck_assert_uint_eq(c[0], 6);
	ck_assert_uint_eq(c[1], 7);
	free(c);
	ck_assert_int_eq(bisect_next(&e, &node), BISECT_NEXT);
	ck_assert_uint_eq(node, 7);
	bisect_release(&e);
	graph_release(&g);
}
END_TEST

/*
 * Skips on a line of 10 with the culprit at 5 (nodes 0-5 slow, 6-9 fast).
 * A skipped child of the culprit does not matter; a skipped parent or the
 * culprit itself leaves exactly the two commits either of which could be
 * first; with everything skipped, all 10 remain.
 */
static const struct {
	unsigned skip;
	enum bisect_status status;
	size_t want[10];
	size_t nr_want;
} skip_cases[] = {
	{ 1u << 4, BISECT_DONE, { 5 }, 1 },
	{ 1u << 3 | 1u << 4, BISECT_DONE, { 5 }, 1 },
	{ 1u << 7 | 1u << 8, BISECT_DONE, { 5 }, 1 },
	{ 1u << 6, BISECT_INCONCLUSIVE, { 5, 6 }, 2 },
	{ 1u << 5, BISECT_INCONCLUSIVE, { 4, 5 }, 2 },
	{ 1u << 5 | 1u << 6, BISECT_INCONCLUSIVE, { 4, 5, 6 }, 3 },
	{ 0x3fe, BISECT_INCONCLUSIVE, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 }, 10 },
};

START_TEST(skips_near_the_culprit)
{
	struct commit_graph g;
	struct bisect_engine e;
	struct bisect_result r;
	struct fake f = { 0 };

	make_linear(&g, 10);
	f.g = &g;
	f.culprit = 5;
	f.skip = skip_cases[_i].skip;
	ck_assert_int_eq(bisect_init(&e, &g), 0);
	ck_assert_int_eq(bisect_run(&r, &e, BISECT_PERF, fake_oracle, &f),
			 skip_cases[_i].status);
	if (r.status == BISECT_DONE) {
		ck_assert_uint_eq(r.culprit, skip_cases[_i].want[0]);
	} else {
		ck_assert_uint_eq(r.nr_candidates, skip_cases[_i].nr_want);
		for (size_t i = 0; i < r.nr_candidates; i++)
			ck_assert_uint_eq(r.candidates[i],
					  skip_cases[_i].want[i]);
	}
	/* Skipped commits are never probed twice (the oracle asserts it). */
	bisect_result_release(&r);
	bisect_release(&e);
	graph_release(&g);
}
END_TEST

START_TEST(skip_moves_away)
{
	/*
	 * On a line of 32 the best cut is node 16; once it is skipped the
	 * engine moves away as git's skip_away() does. By hand: the 30
	 * untested commits best first are 15, 17, 14, 18, 13, 19, 12, 20, ...;
	 * get_prn(30) = ((30 * 1103515245 + 12345) mod 2^32 / 65536) mod 32768
	 * = 13629; index = (30 * 13629 / 32768) * sqrti(13629) / sqrti(32768)
	 * = 12 * 116 / 181 = 7 (integer division): node 20.
	 */
	struct commit_graph g;
	struct bisect_engine e;
	size_t first, second, again;

	make_linear(&g, 32);
	ck_assert_int_eq(bisect_init(&e, &g), 0);
	ck_assert_int_eq(bisect_next(&e, &first), BISECT_NEXT);
	ck_assert_uint_eq(first, 16);
	ck_assert_int_eq(bisect_mark(&e, first, BISECT_SKIP), 0);
	ck_assert_int_eq(bisect_next(&e, &second), BISECT_NEXT);
	ck_assert_uint_eq(second, 20);
	ck_assert_int_eq(bisect_next(&e, &again), BISECT_NEXT);
	ck_assert_uint_eq(again, second);
	bisect_release(&e);
	graph_release(&g);
}
END_TEST

/* A cost per node; `asked` counts the calls. */
struct fake_cost {
	long cost[64];
	unsigned asked;
};

static long fake_cost(size_t node, void *arg)
{
	struct fake_cost *c = arg;
	c->asked++;
	return c->cost[node];
}

/* The same for a range of 200. */
struct fake_cost_200 {
	long cost[200];
	unsigned asked;
};

static long fake_cost_200(size_t node, void *arg)
{
	struct fake_cost_200 *c = arg;
	c->asked++;
	return c->cost[node];
}

/*
 * Split points by cost on a line of 32: the middle is node 16 (16
 * candidates either side); within 60/40 the smaller side keeps at
 * least 12.8 of 32, nodes 13 to 19. The cheapest of those is taken,
 * not a cheaper one past the bound; ties go to the middle, then to
 * the nearer; a middle that costs nothing ends the asking; a cost not
 * known is never cheaper, and one not known for the middle keeps it.
 */
static const struct {
	long base;	/* every node's cost but those below */
	int cheap[3];	/* node, cost pairs: -1 ends */
	int cheap_cost[3];
	size_t want;
	long want_cost;
} split_cases[] = {
	{ 100, { 19, 12, -1 }, { 5, 1 }, 19, 5 },	/* 12 is past 60/40 */
	{ 100, { 13, 20, -1 }, { 7, 0 }, 13, 7 },	/* 20 is past it too */
	{ 100, { -1 }, { 0 }, 16, 100 },		/* all alike: the middle */
	{ 100, { 14, 18, -1 }, { 5, 5 }, 14, 5 },	/* a tie: the nearer, then git's order */
	{ 100, { 16, 17, -1 }, { 5, 5 }, 16, 5 },	/* a tie with the middle: the middle */
	{ 100, { 15, 17, -1 }, { -1, 3 }, 17, 3 },	/* not known: never cheaper */
	{ -1, { 17, -1 }, { 3 }, 16, -1 },		/* the middle not known */
};

START_TEST(split_by_cost_within_the_bound)
{
	struct commit_graph g;
	struct bisect_engine e;
	struct bisect_split split;
	struct fake_cost c = { { 0 }, 0 };

	make_linear(&g, 32);
	for (size_t i = 0; i < 32; i++)
		c.cost[i] = split_cases[_i].base;
	for (size_t k = 0; k < 3 && split_cases[_i].cheap[k] >= 0; k++)
		c.cost[split_cases[_i].cheap[k]] = split_cases[_i].cheap_cost[k];
	ck_assert_int_eq(bisect_init(&e, &g), 0);
	ck_assert_int_eq(bisect_next_split(&e, fake_cost, &c, &split),
			 BISECT_NEXT);
	ck_assert_uint_eq(split.node, split_cases[_i].want);
	ck_assert_uint_eq(split.middle, 16);
	ck_assert_int_eq(split.cost, split_cases[_i].want_cost);
	ck_assert_int_eq(split.middle_cost, c.cost[16]);
	/* The same marks and costs: the same commit. */
	ck_assert_int_eq(bisect_next_split(&e, fake_cost, &c, &split),
			 BISECT_NEXT);
	ck_assert_uint_eq(split.node, split_cases[_i].want);
	bisect_release(&e);
	graph_release(&g);
}
END_TEST

/*
 * What the cost is asked of: nothing past the bound, nothing after a
 * commit that costs nothing, nothing when the middle is skipped (git's
 * skip_away), and without a cost the choice is bisect_next's.
 */
START_TEST(split_by_cost_asks_only_near_the_middle)
{
	struct commit_graph g;
	struct bisect_engine e;
	struct bisect_split split;
	struct fake_cost c = { { 0 }, 0 };
	size_t node;

	make_linear(&g, 32);
	for (size_t i = 0; i < 32; i++)
		c.cost[i] = 50;
	ck_assert_int_eq(bisect_init(&e, &g), 0);
	ck_assert_int_eq(bisect_next_split(&e, fake_cost, &c, &split),
			 BISECT_NEXT);
	ck_assert_uint_eq(c.asked, 7); /* nodes 13 to 19 */
	c.asked = 0;
	c.cost[15] = 0;
	ck_assert_int_eq(bisect_next_split(&e, fake_cost, &c, &split),
			 BISECT_NEXT);
	ck_assert_uint_eq(split.node, 15);
	ck_assert_uint_eq(c.asked, 2); /* 16, then 15: nothing is cheaper */
	c.asked = 0;
	ck_assert_int_eq(bisect_next_split(&e, NULL, NULL, &split),
			 BISECT_NEXT);
	ck_assert_uint_eq(split.node, 16);
	ck_assert_int_eq(split.cost, -1);
	bisect_release(&e);
	graph_release(&g);

	/*
	 * A line of 64: nodes 26 to 38 are within 60/40 (13), all asked; a
	 * line of 200 has 41 within (nodes 80 to 120), BISECT_SPLIT_MAX_ASKED
	 * asked, from the middle to the bound's edge.
	 */
	make_linear(&g, 64);
	for (size_t i = 0; i < 64; i++)
		c.cost[i] = 50;
	ck_assert_int_eq(bisect_init(&e, &g), 0);
	c.asked = 0;
	ck_assert_int_eq(bisect_next_split(&e, fake_cost, &c, &split),
			 BISECT_NEXT);
	ck_assert_uint_eq(c.asked, 13);
	bisect_release(&e);
	graph_release(&g);
	{
		struct fake_cost_200 big = { { 0 }, 0 };
		make_linear(&g, 200);
		for (size_t i = 0; i < 200; i++)
			big.cost[i] = 50;
		big.cost[120] = 3; /* the bound's edge, last: always asked */
		ck_assert_int_eq(bisect_init(&e, &g), 0);
		ck_assert_int_eq(bisect_next_split(&e, fake_cost_200, &big,
						   &split),
				 BISECT_NEXT);
		ck_assert_uint_eq(big.asked, BISECT_SPLIT_MAX_ASKED);
		ck_assert_uint_eq(split.node, 120);
		bisect_release(&e);
		graph_release(&g);
	}

	make_linear(&g, 32);
	ck_assert_int_eq(bisect_init(&e, &g), 0);
	c.asked = 0;
	ck_assert_int_eq(bisect_mark(&e, 16, BISECT_SKIP), 0);
	ck_assert_int_eq(bisect_next(&e, &node), BISECT_NEXT);
	ck_assert_int_eq(bisect_next_split(&e, fake_cost, &c, &split),
			 BISECT_NEXT);
	ck_assert_uint_eq(split.node, node);
	ck_assert_uint_eq(c.asked, 0);
	bisect_release(&e);
	graph_release(&g);
}
END_TEST

/*
 * Steps by cost find every culprit of a line of 32, in no more than
 * ceil(log2(32)) + 2 probes: a commit every third one costs little,
 * pulling the splits off the middle every step it can.
 */
START_TEST(split_by_cost_finds_every_culprit)
{
	struct commit_graph g;
	struct bisect_engine e;
	struct fake f = { 0 };
	struct fake_cost c = { { 0 }, 0 };
	size_t probes = 0;

	make_linear(&g, 32);
	for (size_t i = 0; i < 32; i++)
		c.cost[i] = i % 3 ? 100 : 1;
	f.g = &g;
	f.culprit = (size_t)_i;
	ck_assert_int_eq(bisect_init(&e, &g), 0);
	for (;;) {
		struct bisect_split split;
		enum bisect_status s = bisect_next_split(&e, fake_cost, &c,
							 &split);
		if (s == BISECT_DONE) {
			ck_assert_uint_eq(split.node, f.culprit);
			break;
		}
		ck_assert_int_eq(s, BISECT_NEXT);
		probes++;
		ck_assert_int_eq(
			bisect_mark(&e, split.node,
				    bisect_classify(BISECT_PERF,
						    fake_oracle(split.node,
								&g.nodes[split.node],
								&f))),
			0);
	}
	ck_assert_uint_le(probes, ceil_log2(32) + 2);
	bisect_release(&e);
	graph_release(&g);
}
END_TEST

START_TEST(resume_replays_marks_in_any_order)
{
	struct commit_graph g;
	struct bisect_engine a, b;
	size_t node, na, nb;
	size_t *ca, *cb, nra, nrb;
	struct fake f = { 0 };

	make_linear(&g, 20);
	f.g = &g;
	f.culprit = 13;
	f.skip = 1u << 9;
	ck_assert_int_eq(bisect_init(&a, &g), 0);
	/* Three probes, then "killed". */
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(bisect_next(&a, &node), BISECT_NEXT);
		enum probe_outcome o = fake_oracle(node, &g.nodes[node], &f);
		ck_assert_int_eq(bisect_mark(&a, node,
					     bisect_classify(BISECT_PERF, o)),
				 0);
	}
	ck_assert_uint_eq(a.nr_log, 3);
	/* A new engine fed the logged marks backwards. */
	ck_assert_int_eq(bisect_init(&b, &g), 0);
	for (size_t i = a.nr_log; i-- > 0;)
		ck_assert_int_eq(bisect_mark(&b, a.log[i].node, a.log[i].mark),
				 0);
	ck_assert_int_eq(bisect_next(&a, &na), BISECT_NEXT);
	ck_assert_int_eq(bisect_next(&b, &nb), BISECT_NEXT);
	ck_assert_uint_eq(na, nb);
	nra = bisect_candidates(&a, &ca);
	nrb = bisect_candidates(&b, &cb);
	ck_assert_uint_eq(nra, nrb);
	ck_assert(!memcmp(ca, cb, nra * sizeof(*ca)));
	free(ca);
	free(cb);
	/* And the resumed run finishes on the right commit. */
	struct bisect_result r;
	ck_assert_int_eq(bisect_run(&r, &b, BISECT_PERF, fake_oracle, &f),
			 BISECT_DONE);
	ck_assert_uint_eq(r.culprit, 13);
	bisect_result_release(&r);
	bisect_release(&a);
	bisect_release(&b);
	graph_release(&g);
}
END_TEST

static const struct {
	enum bisect_type type;
	enum probe_outcome outcome;
	enum bisect_mark mark;
} classify_cases[] = {
	{ BISECT_PERF, PROBE_BUILD_FAILED, BISECT_SKIP },
	{ BISECT_PERF, PROBE_BOOT_FAILED, BISECT_SKIP },
	{ BISECT_PERF, PROBE_PANIC, BISECT_SKIP },
	{ BISECT_PERF, PROBE_TIMEOUT, BISECT_SKIP },
	{ BISECT_PERF, PROBE_WORKLOAD_ERROR, BISECT_SKIP },
	{ BISECT_PERF, PROBE_FAST, BISECT_GOOD },
	{ BISECT_PERF, PROBE_SLOW, BISECT_BAD },
	{ BISECT_PERF, PROBE_UNDECIDED, BISECT_SKIP },
	{ BISECT_BUILD, PROBE_BUILD_FAILED, BISECT_BAD },
	{ BISECT_BUILD, PROBE_BOOT_FAILED, BISECT_GOOD },
	{ BISECT_BUILD, PROBE_PANIC, BISECT_GOOD },
	{ BISECT_BUILD, PROBE_TIMEOUT, BISECT_GOOD },
	{ BISECT_BUILD, PROBE_WORKLOAD_ERROR, BISECT_GOOD },
	{ BISECT_BUILD, PROBE_FAST, BISECT_GOOD },
	{ BISECT_BUILD, PROBE_SLOW, BISECT_GOOD },
	{ BISECT_BUILD, PROBE_UNDECIDED, BISECT_GOOD },
	{ BISECT_BOOT, PROBE_BUILD_FAILED, BISECT_SKIP },
	{ BISECT_BOOT, PROBE_BOOT_FAILED, BISECT_BAD },
	{ BISECT_BOOT, PROBE_PANIC, BISECT_BAD },
	{ BISECT_BOOT, PROBE_TIMEOUT, BISECT_BAD },
	{ BISECT_BOOT, PROBE_WORKLOAD_ERROR, BISECT_GOOD },
	{ BISECT_BOOT, PROBE_FAST, BISECT_GOOD },
	{ BISECT_BOOT, PROBE_SLOW, BISECT_GOOD },
	{ BISECT_BOOT, PROBE_UNDECIDED, BISECT_GOOD },
};

START_TEST(classify_per_type)
{
	ck_assert_int_eq(bisect_classify(classify_cases[_i].type,
					 classify_cases[_i].outcome),
			 classify_cases[_i].mark);
}
END_TEST

START_TEST(types_end_to_end)
{
	/*
	 * build: the culprit breaks the build; boot: it panics, while the
	 * good commits are slow (perf does not matter) and node 2 does not
	 * build, which boot bisection skips.
	 */
	struct commit_graph g;
	struct bisect_engine e;
	struct bisect_result r;
	struct fake f = { 0 };

	make_linear(&g, 12);
	f.g = &g;
	f.culprit = 7;
	f.type = BISECT_BUILD;
	ck_assert_int_eq(bisect_init(&e, &g), 0);
	ck_assert_int_eq(bisect_run(&r, &e, BISECT_BUILD, fake_oracle, &f),
			 BISECT_DONE);
	ck_assert_uint_eq(r.culprit, 7);
	bisect_result_release(&r);
	bisect_release(&e);

	memset(&f, 0, sizeof(f));
	f.g = &g;
	f.culprit = 7;
	f.type = BISECT_BOOT;
	f.skip = 1u << 2;
	ck_assert_int_eq(bisect_init(&e, &g), 0);
	ck_assert_int_eq(bisect_run(&r, &e, BISECT_BOOT, fake_oracle, &f),
			 BISECT_DONE);
	ck_assert_uint_eq(r.culprit, 7);
	bisect_result_release(&r);
	bisect_release(&e);
	graph_release(&g);
}
END_TEST

START_TEST(exit_codes_and_names)
{
	ck_assert_int_eq(bisect_exit_code(BISECT_GOOD), 0);
	ck_assert_int_eq(bisect_exit_code(BISECT_BAD), 1);
	ck_assert_int_eq(bisect_exit_code(BISECT_SKIP), 125);
	ck_assert_str_eq(bisect_mark_name(BISECT_SKIP), "skip");
}
END_TEST

/* The names the state file and the task documents are read back by. */
START_TEST(marks_and_outcomes_read_back_by_name)
{
	enum bisect_mark m;
	enum probe_outcome o;

	for (int k = BISECT_GOOD; k <= BISECT_SKIP; k++) {
		ck_assert_int_eq(bisect_mark_parse(bisect_mark_name(k), &m), 0);
		ck_assert_int_eq(m, k);
	}
	/* No commit can be marked "untested", nor anything else. */
	ck_assert_int_eq(bisect_mark_parse("untested", &m), -1);
	ck_assert_int_eq(bisect_mark_parse("maybe", &m), -1);
	for (int k = PROBE_BUILD_FAILED; k <= PROBE_UNDECIDED; k++) {
		const char *name = probe_outcome_name(k);
		int measured = k >= PROBE_FAST;
		ck_assert_int_eq(probe_outcome_measured(k), measured);
		ck_assert_int_eq(probe_outcome_parse(name, &o), measured);
		if (!measured)
			ck_assert_int_eq(o, k);
	}
	ck_assert_str_eq(probe_outcome_name(PROBE_SLOW), "ok");
	ck_assert_int_eq(probe_outcome_parse("melted", &o), -1);
}
END_TEST

static int abort_oracle(size_t node, const struct commit_node *c,
			void *payload)
{
	(void)node, (void)c;
	++*(int *)payload;
	return -1;
}

START_TEST(errors_and_contradictions)
{
	struct commit_graph g;
	struct bisect_engine e;
	struct bisect_result r;
	struct strbuf err = STRBUF_INIT;
	size_t node;
	int calls = 0;

	make_linear(&g, 6);
	error_capture(&err);
	ck_assert_int_eq(bisect_init(&e, &g), 0);
	ck_assert_int_eq(bisect_mark(&e, 0, BISECT_GOOD), -1);
	ck_assert_int_eq(bisect_mark(&e, 6, BISECT_BAD), -1);
	/* 3 bad but its descendant 1 good: nothing can be first bad. */
	ck_assert_int_eq(bisect_mark(&e, 3, BISECT_BAD), 0);
	ck_assert_int_eq(bisect_mark(&e, 1, BISECT_GOOD), 0);
	ck_assert_int_eq(bisect_next(&e, &node), BISECT_ERROR);
	ck_assert_ptr_nonnull(strstr(err.buf, "contradict"));
	/* Re-marking replaces: 1 untested again, and the run can go on. */
	ck_assert_int_eq(bisect_mark(&e, 1, BISECT_UNTESTED), 0);
	ck_assert_int_eq(bisect_next(&e, &node), BISECT_NEXT);
	/* An oracle that aborts stops the run at once. */
	ck_assert_int_eq(bisect_run(&r, &e, BISECT_PERF, abort_oracle, &calls),
			 BISECT_ERROR);
	ck_assert_int_eq(calls, 1);
	bisect_result_release(&r);
	bisect_release(&e);
	/* A graph out of topological order is refused. */
	g.nodes[2].parents[0] = 1;
	ck_assert_int_eq(bisect_init(&e, &g), -1);
	error_capture(NULL);
	strbuf_release(&err);
	graph_release(&g);
}
END_TEST

START_TEST(single_commit_range)
{
	/* Good is the bad commit's parent: the bad commit is the culprit. */
	struct commit_graph g;
	struct bisect_engine e;
	size_t node = 9;

	make_linear(&g, 1);
	ck_assert_int_eq(bisect_init(&e, &g), 0);
	ck_assert_uint_eq(bisect_steps_left(&e), 0);
	ck_assert_int_eq(bisect_next(&e, &node), BISECT_DONE);
	ck_assert_uint_eq(node, 0);
	bisect_release(&e);
	graph_release(&g);
}
END_TEST

/*
 * Multisection: k commits cut a linear range into k + 1 parts of about
 * equal size; every culprit is found in about log_{k+1}(n) rounds when
 * all k are marked each round; k = 1 is bisect_next's choice.
 */
START_TEST(multisection_cuts_into_equal_parts)
{
	struct commit_graph g;
	struct bisect_engine e;
	size_t pick[8], one;

	make_linear(&g, 30);
	ck_assert_int_eq(bisect_init(&e, &g), 0);
	ck_assert_uint_eq(bisect_next_many(&e, 1, pick), 1);
	ck_assert_int_eq(bisect_next(&e, &one), BISECT_NEXT);
	ck_assert_uint_eq(pick[0], one);
	/* 30 candidates; node i has weight 30 - i. */
	ck_assert_uint_eq(bisect_next_many(&e, 2, pick), 2);
	ck_assert_uint_eq(30 - pick[0], 10);
	ck_assert_uint_eq(30 - pick[1], 20);
	ck_assert_uint_eq(bisect_next_many(&e, 3, pick), 3);
	ck_assert_uint_eq(30 - pick[0], 8); /* 7.5: the earlier in graph order */
	ck_assert_uint_eq(30 - pick[1], 15);
	ck_assert_uint_eq(30 - pick[2], 23); /* 22.5 */
	bisect_release(&e);
	graph_release(&g);

	/* Never more than the untested commits; skipped ones never. */
	make_linear(&g, 4);
	ck_assert_int_eq(bisect_init(&e, &g), 0);
	ck_assert_int_eq(bisect_mark(&e, 2, BISECT_SKIP), 0);
	ck_assert_uint_eq(bisect_next_many(&e, 8, pick), 2);
	ck_assert(pick[0] != 2 && pick[1] != 2 && pick[0] != pick[1]);
	ck_assert_int_eq(bisect_mark(&e, 1, BISECT_GOOD), 0);
	ck_assert_uint_eq(bisect_next_many(&e, 3, pick), 0); /* decided */
	bisect_release(&e);
	graph_release(&g);
}
END_TEST

START_TEST(multisection_rounds_find_every_culprit)
{
	struct commit_graph g;
	size_t pick[3];

	make_linear(&g, 64);
	for (size_t culprit = 0; culprit < 63; culprit++) {
		struct bisect_engine e;
		size_t found = SIZE_MAX;
		unsigned rounds = 0;
		ck_assert_int_eq(bisect_init(&e, &g), 0);
		for (;;) {
			size_t n = bisect_next_many(&e, 3, pick);
			if (!n) {
				ck_assert_int_eq(bisect_next(&e, &found),
						 BISECT_DONE);
				break;
			}
			rounds++;
			for (size_t i = 0; i < n; i++)
				ck_assert_int_eq(
					bisect_mark(&e, pick[i],
						    pick[i] <= culprit
							    ? BISECT_BAD
							    : BISECT_GOOD),
					0);
		}
		ck_assert_uint_eq(found, culprit);
		/* 64 candidates, 4 parts a round: log4(64) = 3 rounds. */
		ck_assert_uint_le(rounds, 3);
		bisect_release(&e);
	}
	graph_release(&g);
}
END_TEST


int main(void)
{
	Suite *s = suite_create("bisect");
	TCase *tc = tcase_create("bisect");
	tcase_add_loop_test(tc, linear_every_culprit, 0, 10);
	tcase_add_loop_test(tc, merge_every_culprit, 0,
			    ARRAY_SIZE(merge_parents));
	tcase_add_test(tc, first_choice_halves_the_merge_graph);
	tcase_add_test(tc, narrow_drops_the_same_and_the_side_they_hide);
	tcase_add_test(tc, narrow_linear_keeps_bad_and_bisects_the_rest);
	tcase_add_test(tc, between_two_commits_of_the_range);
	tcase_add_loop_test(tc, skips_near_the_culprit, 0,
			    ARRAY_SIZE(skip_cases));
	tcase_add_test(tc, skip_moves_away);
	tcase_add_loop_test(tc, split_by_cost_within_the_bound, 0,
			    ARRAY_SIZE(split_cases));
	tcase_add_test(tc, split_by_cost_asks_only_near_the_middle);
	tcase_add_loop_test(tc, split_by_cost_finds_every_culprit, 0, 32);
	tcase_add_test(tc, resume_replays_marks_in_any_order);
	tcase_add_loop_test(tc, classify_per_type, 0,
			    ARRAY_SIZE(classify_cases));
	tcase_add_test(tc, types_end_to_end);
	tcase_add_test(tc, exit_codes_and_names);
	tcase_add_test(tc, marks_and_outcomes_read_back_by_name);
	tcase_add_test(tc, errors_and_contradictions);
	tcase_add_test(tc, single_commit_range);
	tcase_add_test(tc, multisection_cuts_into_equal_parts);
	tcase_add_test(tc, multisection_rounds_find_every_culprit);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
