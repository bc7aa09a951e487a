/*
 * json_read.h: a small JSON reader for what tools packed into the guest
 * write (fio's --output-format=json+). The text is parsed once into a flat
 * table of nodes that point back into it; nothing is decoded that is not
 * asked for, so a 100 KiB report with thousands of latency bins costs one
 * pass and one allocation that grows.
 */
#ifndef IOBISECT_GUEST_JSON_READ_H
#define IOBISECT_GUEST_JSON_READ_H

#include <stddef.h>
#include <stdint.h>

enum jr_type { JR_NULL, JR_BOOL, JR_NUM, JR_STR, JR_ARR, JR_OBJ };

struct jr_node {
	enum jr_type type;
	/* Inside an object: the member's name, raw (escapes left as they are). */
	const char *key;
	size_t key_len;
	/* Strings: the raw text between the quotes; numbers: the token. */
	const char *text;
	size_t text_len;
	int first, next; /* child and sibling indices, -1 for none */
};

struct jr_doc {
	struct jr_node *nodes; /* nodes[0] is the top value */
	int nr, alloc;
	char err[96]; /* why jr_parse() failed */
};
#define JR_DOC_INIT { NULL, 0, 0, "" }

/* Parse `len` bytes of `text`, which must outlive `d`. 0, or -1 with d->err. */
int jr_parse(struct jr_doc *d, const char *text, size_t len);
void jr_release(struct jr_doc *d);

/* The member `key` of object node `obj`, or -1 (also when obj is -1). */
int jr_get(const struct jr_doc *d, int obj, const char *key);
/* A number node as an unsigned integer (exact for integer tokens) or a
 * double; -1 when the node is missing, not a number or out of range. */
int jr_u64(const struct jr_doc *d, int node, uint64_t *out);
int jr_double(const struct jr_doc *d, int node, double *out);

#endif
