/*
 * layer.c: the table of layers and the helpers every kind's maker shares;
 * kept apart from the builder so that the makers depend on this alone.
 */
#include "layer.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct layer layers[LAYERS_MAX];
int nr_layers;

struct layer *layer_find(const char *name)
{
	for (int i = 0; i < nr_layers; i++)
		if (!strcmp(layers[i].name, name))
			return &layers[i];
	return NULL;
}

void layer_mark_busy(struct layer *l)
{
	l->busy = 1;
	layers[l->root].busy = 1;
}

void layer_over(struct layer *l, const struct layer *below, uint64_t offset)
{
	l->root = below->root;
	l->base = below->base + offset;
	l->null = below->null;
	l->nodata = below->nodata;
	l->ro = below->ro;
}

static const char *find_tool(const char *name, char *buf, size_t size)
{
	static const char *const dirs[] = {"/sbin", "/usr/sbin", "/bin",
					   "/usr/bin"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		snprintf(buf, size, "%s/%s", dirs[i], name);
		if (access(buf, X_OK) == 0)
			return buf;
	}
	return NULL;
}

const char *layer_tool(const char *name)
{
	/* Rotating buffers: a caller may hold one answer while asking again. */
	static char buf[4][128];
	static int k;
	k = (k + 1) % 4;
	return find_tool(name, buf[k], sizeof(buf[k]));
}
