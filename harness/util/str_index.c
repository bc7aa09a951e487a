/*
 * str_index.c: strings to their index in an open-addressing hash table
 * (str_index.h), probed linearly, kept at most half full.
 */
#include "str_index.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The slot of `key` (its first `len` bytes): where it is, or would go. */
static size_t str_index_slot(const struct str_index *x, const char *key,
			     size_t len)
{
	size_t i = (size_t)fnv1a(FNV1A_INIT, key, len) & (x->alloc - 1);
	while (x->keys[i] && strncmp(x->keys[i], key, len))
		i = (i + 1) & (x->alloc - 1);
	return i;
}

long str_index_get(const struct str_index *x, const char *key, size_t len)
{
	if (!x->alloc)
		return -1;
	size_t i = str_index_slot(x, key, len);
	return x->keys[i] ? (long)x->vals[i] : -1;
}

static void str_index_grow(struct str_index *x, size_t len)
{
	struct str_index old = *x;
	x->alloc = old.alloc ? old.alloc * 2 : 64;
	x->keys = xcalloc(x->alloc, sizeof(*x->keys));
	x->vals = xcalloc(x->alloc, sizeof(*x->vals));
	x->nr = 0;
	for (size_t i = 0; i < old.alloc; i++)
		if (old.keys[i])
			str_index_put(x, old.keys[i], len, old.vals[i]);
	free(old.keys);
	free(old.vals);
}

void str_index_put(struct str_index *x, const char *key, size_t len, size_t val)
{
	if ((x->nr + 1) * 2 > x->alloc)
		str_index_grow(x, len);
	size_t i = str_index_slot(x, key, len);
	if (!x->keys[i])
		x->nr++;
	x->keys[i] = key;
	x->vals[i] = val;
}

void str_index_release(struct str_index *x)
{
	free(x->keys);
	free(x->vals);
	memset(x, 0, sizeof(*x));
}
