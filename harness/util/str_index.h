/*
 * str_index.h: strings to their index, in a hash table: a store of 40,000
 * commits has as many build keys, and a scan of a list for each record
 * made reading it quadratic (store_scan.c). The table borrows its keys;
 * a key is its first `len` bytes, the same `len` at every call on one
 * table. Set up with { 0 }, freed with str_index_release.
 */
#ifndef IOBISECT_STR_INDEX_H
#define IOBISECT_STR_INDEX_H

#include <stddef.h>
#include <stdint.h>

struct str_index {
	const char **keys; /* borrowed */
	size_t *vals;
	size_t nr, alloc; /* alloc: a power of two, or 0 */
};
/* A key length meaning the whole string (strncmp takes no more). */
#define STR_INDEX_WHOLE ((size_t)PTRDIFF_MAX)

/* The value of `key`, or -1 when it is not there. */
long str_index_get(const struct str_index *x, const char *key, size_t len);
/* `key` (borrowed: it must outlive the table) now maps to `val`. */
void str_index_put(struct str_index *x, const char *key, size_t len,
		   size_t val);
void str_index_release(struct str_index *x);

#endif
