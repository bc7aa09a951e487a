/* graph.c: the commit range as data (see graph.h). */
#include "graph.h"

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
