/* graph.c: the commit range as data (see graph.h). */
#include "graph.h"

#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void graph_release(struct commit_graph *g)
{
	for (size_t i = 0; i < g->nr; i++) {
		free(g->nodes[i].parents);
		if (g->nodes[i].outside)
			for (int k = 0; k < g->nodes[i].outside_parents; k++)
				free(g->nodes[i].outside[k]);
		free(g->nodes[i].outside);
	}
	free(g->nodes);
	g->nodes = NULL;
	g->nr = 0;
}

long graph_find(const struct commit_graph *g, const char *id)
{
	size_t n = strlen(id);
	if (!n || n > 40)
		return -1;
	for (size_t i = 0; i < g->nr; i++)
		if (!strncmp(g->nodes[i].id, id, n))
			return (long)i;
	return -1;
}

void graph_linear(struct commit_graph *g, size_t n)
{
	g->nr = n;
	g->nodes = xcalloc(n ? n : 1, sizeof(*g->nodes));
	for (size_t i = 0; i < n; i++) {
		struct commit_node *c = &g->nodes[i];
		snprintf(c->id, sizeof(c->id), "%040zx", i + 1);
		c->parents = xcalloc(1, sizeof(*c->parents));
		if (i + 1 < n)
			c->parents[c->nr_parents++] = i + 1;
		else
			c->outside_parents = 1;
	}
}

/* Where a commit left out of the narrowed range stands: a kept one, or
   a parent outside the range (its id; NULL: the good endpoint). */
struct stand_in {
	long node; /* -1: outside */
	const char *outside;
};

static void add_parent(struct commit_node *c, size_t node)
{
	for (size_t k = 0; k < c->nr_parents; k++)
		if (c->parents[k] == node)
			return;
	c->parents[c->nr_parents++] = node;
}

static void add_outside(struct commit_node *c, const char *id, size_t cap)
{
	for (int k = 0; k < c->outside_parents; k++)
		if (!c->outside[k] || !id || !strcmp(c->outside[k], id))
			return;
	if ((size_t)c->outside_parents < cap)
		c->outside[c->outside_parents++] = id ? xstrdup(id) : NULL;
}

/* Mark `from` and every ancestor of it in `in` (children come first). */
static void mark_ancestors(const struct commit_graph *in, size_t from,
			   unsigned char *mark)
{
	mark[from] = 1;
	for (size_t i = from; i < in->nr; i++)
		for (size_t k = 0; mark[i] && k < in->nodes[i].nr_parents; k++)
			mark[in->nodes[i].parents[k]] = 1;
}

size_t graph_between(const struct commit_graph *in, long lo, size_t hi,
		     struct commit_graph *out)
{
	size_t n = in->nr ? in->nr : 1, kept = 0;
	unsigned char *up = xcalloc(n, 1), *below = xcalloc(n, 1);
	size_t *index = xcalloc(n, sizeof(*index));

	if (hi < in->nr)
		mark_ancestors(in, hi, up);
	if (lo >= 0 && (size_t)lo < in->nr)
		mark_ancestors(in, (size_t)lo, below);
	for (size_t i = 0; i < in->nr; i++)
		if (up[i] && !below[i])
			index[i] = kept++;
	out->nr = kept;
	out->nodes = xcalloc(kept ? kept : 1, sizeof(*out->nodes));
	for (size_t i = 0; i < in->nr; i++) {
		const struct commit_node *c = &in->nodes[i];
		size_t cap = c->nr_parents + (size_t)c->outside_parents;
		struct commit_node *o;

		if (!up[i] || below[i])
			continue;
		o = &out->nodes[index[i]];
		memcpy(o->id, c->id, sizeof(o->id));
		o->parents = xcalloc(cap ? cap : 1, sizeof(*o->parents));
		o->outside = xcalloc(cap ? cap : 1, sizeof(*o->outside));
		for (size_t k = 0; k < c->nr_parents; k++) {
			size_t p = c->parents[k];
			if (below[p])
				add_outside(o, in->nodes[p].id, cap);
			else
				add_parent(o, index[p]);
		}
		for (int k = 0; k < c->outside_parents; k++)
			add_outside(o, c->outside ? c->outside[k] : NULL, cap);
		/* A graph built by hand names no outside parent. */
		if (o->outside_parents && !o->outside[0]) {
			free(o->outside);
			o->outside = NULL;
		}
	}
	free(up);
	free(below);
	free(index);
	return kept;
}

size_t graph_narrow(const struct commit_graph *in, const long *same,
		    struct commit_graph *out)
{
	struct stand_in *at = xcalloc(in->nr ? in->nr : 1, sizeof(*at));
	size_t *index = xcalloc(in->nr ? in->nr : 1, sizeof(*index));
	size_t kept = 0;

	/* Parents come after their children: walk from the oldest. */
	for (size_t i = in->nr; i-- > 0;) {
		const struct commit_node *c = &in->nodes[i];
		long s = i ? same[i] : -1;

		if (s < 0) {
			at[i].node = (long)i;
		} else if ((size_t)s < c->nr_parents) {
			at[i] = at[c->parents[s]];
		} else {
			at[i].node = -1;
			at[i].outside = c->outside ? c->outside[s - c->nr_parents]
						   : NULL;
		}
	}
	/*
	 * Kept, and still an ancestor of bad: a merge the same as its
	 * first parent leaves its other side out, as git's simplification
	 * does (nothing of that side reached bad's kernel).
	 */
	unsigned char *reach = xcalloc(in->nr ? in->nr : 1, 1);
	reach[0] = 1;
	for (size_t i = 0; i < in->nr; i++) {
		if (!reach[i] || at[i].node != (long)i)
			continue;
		for (size_t k = 0; k < in->nodes[i].nr_parents; k++) {
			long p = at[in->nodes[i].parents[k]].node;
			if (p >= 0)
				reach[p] = 1;
		}
	}
	for (size_t i = 0; i < in->nr; i++) {
		if (at[i].node == (long)i && !reach[i])
			at[i].node = -2;
		if (at[i].node == (long)i)
			index[i] = kept++;
	}
	free(reach);
	out->nr = kept;
	out->nodes = xcalloc(kept ? kept : 1, sizeof(*out->nodes));
	for (size_t i = 0; i < in->nr; i++) {
		const struct commit_node *c = &in->nodes[i];
		struct commit_node *n;
		size_t cap = c->nr_parents + (size_t)c->outside_parents;

		if (at[i].node != (long)i)
			continue;
		n = &out->nodes[index[i]];
		memcpy(n->id, c->id, sizeof(n->id));
		n->parents = xcalloc(cap ? cap : 1, sizeof(*n->parents));
		n->outside = xcalloc(cap ? cap : 1, sizeof(*n->outside));
		for (size_t k = 0; k < c->nr_parents; k++) {
			const struct stand_in *p = &at[c->parents[k]];
			if (p->node >= 0)
				add_parent(n, index[p->node]);
			else
				add_outside(n, p->outside, cap);
		}
		for (int k = 0; k < c->outside_parents; k++)
			add_outside(n, c->outside ? c->outside[k] : NULL, cap);
		/* A graph built by hand names no outside parent. */
		if (n->outside_parents && !n->outside[0]) {
			free(n->outside);
			n->outside = NULL;
		}
	}
	free(at);
	free(index);
	return kept;
}
