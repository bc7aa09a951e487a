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
