/*
 * graph.h: the commits of a bisection range as plain data, filled by
 * repo_range() (libgit2) and read by the pure bisect engine, so the engine
 * is tested on graphs built by hand.
 */
#ifndef IOBISECT_GRAPH_H
#define IOBISECT_GRAPH_H

#include <stddef.h>

struct commit_node {
	char id[41];      /* full hex object id */
	size_t *parents;  /* indexes into graph.nodes of parents in the range */
	size_t nr_parents;
	int outside_parents; /* parents not in the range (the good side) */
	/*
	 * Their full ids, outside_parents of them (owned); NULL in graphs
	 * built by hand, where an outside parent is the good endpoint.
	 */
	char **outside;
};

/*
 * The candidates: commits that are ancestors of bad (bad included) and not
 * of any good commit. nodes[0] is bad; the order is topological, every
 * commit before its parents, as `git rev-list --topo-order` prints them.
 */
struct commit_graph {
	struct commit_node *nodes;
	size_t nr;
};

void graph_release(struct commit_graph *g);
/* Index of the commit with this full or abbreviated id, or -1. */
long graph_find(const struct commit_graph *g, const char *id);

/*
 * A made-up linear range of n commits for tests and simulations: node i
 * has the id "%040zx" of i + 1 and node i + 1 as its parent; the last
 * node's parent is outside (the good side).
 */
void graph_linear(struct commit_graph *g, size_t n);

/*
 * The range as a path limit leaves it (git's history simplification): a
 * commit the same as one of its parents where it matters is left out,
 * and its children take that parent's place. same[i] says which parent
 * node i is the same as: k < nr_parents for parents[k], nr_parents + j
 * for the outside parent j, or -1 when it differs from every parent.
 * nodes[0] (bad) always stays. Fills *out (graph_release) in the same
 * order; returns its number of nodes.
 */
size_t graph_narrow(const struct commit_graph *in, const long *same,
		    struct commit_graph *out);

/*
 * A part of the range: the commits that are ancestors of node `hi` (it
 * included) and not of node `lo` (it included; -1: none left out, lo is
 * the good endpoint), as a range of its own with `hi` its nodes[0], for
 * another change's bisection between two of its commits. A parent left
 * out becomes an outside parent named by its id. Fills *out
 * (graph_release) in the same order; returns its number of nodes.
 */
size_t graph_between(const struct commit_graph *in, long lo, size_t hi,
		     struct commit_graph *out);

#endif
