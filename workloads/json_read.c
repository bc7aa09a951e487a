/*
 * json_read.c: the guest's JSON reader (json_read.h). Recursive descent
 * with a depth limit, over the text in place.
 */
#include "json_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deeper than any report a packed tool writes; bounds the recursion. */
#define JR_MAX_DEPTH 32

struct jr_cursor {
	struct jr_doc *d;
	const char *start, *p, *end;
};

static int fail(struct jr_cursor *c, const char *what)
{
	snprintf(c->d->err, sizeof(c->d->err), "%s at byte %zu", what,
		 (size_t)(c->p - c->start));
	return -1;
}

static void skip_ws(struct jr_cursor *c)
{
	while (c->p < c->end &&
	       (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

static int new_node(struct jr_cursor *c, enum jr_type type)
{
	struct jr_doc *d = c->d;
	if (d->nr == d->alloc) {
		int n = d->alloc ? d->alloc * 2 : 256;
		struct jr_node *v = realloc(d->nodes, (size_t)n * sizeof(*v));
		if (!v)
			return -1;
		d->nodes = v;
		d->alloc = n;
	}
	struct jr_node *x = &d->nodes[d->nr];
	memset(x, 0, sizeof(*x));
	x->type = type;
	x->first = x->next = -1;
	return d->nr++;
}

/* A string's raw text: *c->p is the opening quote. */
static int scan_string(struct jr_cursor *c, const char **s, size_t *n)
{
	const char *q = ++c->p;
	while (q < c->end && *q != '"') {
		if ((unsigned char)*q < 0x20)
			return fail(c, "control character in a string");
		q += *q == '\\' ? 2 : 1;
	}
	if (q >= c->end)
		return fail(c, "unterminated string");
	*s = c->p;
	*n = (size_t)(q - c->p);
	c->p = q + 1;
	return 0;
}

static int parse_value(struct jr_cursor *c, int depth);

/* Members or elements up to `close`, linked as children of `self`. */
static int parse_children(struct jr_cursor *c, int self, char close,
			  int depth)
{
	int last = -1;
	c->p++;
	skip_ws(c);
	if (c->p < c->end && *c->p == close) {
		c->p++;
		return 0;
	}
	for (;;) {
		const char *key = NULL;
		size_t key_len = 0;
		skip_ws(c);
		if (close == '}') {
			if (c->p >= c->end || *c->p != '"')
				return fail(c, "expected a member name");
			if (scan_string(c, &key, &key_len))
				return -1;
			skip_ws(c);
			if (c->p >= c->end || *c->p != ':')
				return fail(c, "expected ':'");
			c->p++;
		}
		int child = parse_value(c, depth + 1);
		if (child < 0)
			return -1;
		c->d->nodes[child].key = key;
		c->d->nodes[child].key_len = key_len;
		if (last < 0)
			c->d->nodes[self].first = child;
		else
			c->d->nodes[last].next = child;
		last = child;
		skip_ws(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == close) {
			c->p++;
			return 0;
		}
		return fail(c, close == '}' ? "expected ',' or '}'"
					    : "expected ',' or ']'");
	}
}

static int literal(struct jr_cursor *c, const char *word, enum jr_type type)
{
	size_t n = strlen(word);
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n))
		return fail(c, "unexpected character");
	int x = new_node(c, type);
	if (x < 0)
		return fail(c, "out of memory");
	c->d->nodes[x].text = c->p;
	c->d->nodes[x].text_len = n;
	c->p += n;
	return x;
}

static int parse_value(struct jr_cursor *c, int depth)
{
	int x;
	if (depth > JR_MAX_DEPTH)
		return fail(c, "nested too deep");
	skip_ws(c);
	if (c->p >= c->end)
		return fail(c, "unexpected end");
	switch (*c->p) {
	case '{':
	case '[':
		x = new_node(c, *c->p == '{' ? JR_OBJ : JR_ARR);
		if (x < 0)
			return fail(c, "out of memory");
		if (parse_children(c, x, *c->p == '{' ? '}' : ']', depth))
			return -1;
		return x;
	case '"':
		x = new_node(c, JR_STR);
		if (x < 0)
			return fail(c, "out of memory");
		if (scan_string(c, &c->d->nodes[x].text,
				&c->d->nodes[x].text_len))
			return -1;
		return x;
	case 't':
		return literal(c, "true", JR_BOOL);
	case 'f':
		return literal(c, "false", JR_BOOL);
	case 'n':
		return literal(c, "null", JR_NULL);
	}
	const char *q = c->p;
	while (q < c->end && strchr("+-0123456789.eE", *q))
		q++;
	if (q == c->p)
		return fail(c, "unexpected character");
	x = new_node(c, JR_NUM);
	if (x < 0)
		return fail(c, "out of memory");
	c->d->nodes[x].text = c->p;
	c->d->nodes[x].text_len = (size_t)(q - c->p);
	c->p = q;
	return x;
}

int jr_parse(struct jr_doc *d, const char *text, size_t len)
{
	struct jr_cursor c = {d, text, text, text + len};
	d->nr = 0;
	d->err[0] = '\0';
	if (parse_value(&c, 0) < 0)
		return -1;
	skip_ws(&c);
	if (c.p != c.end)
		return fail(&c, "text after the value");
	return 0;
}

void jr_release(struct jr_doc *d)
{
	free(d->nodes);
	d->nodes = NULL;
	d->nr = d->alloc = 0;
}

int jr_get(const struct jr_doc *d, int obj, const char *key)
{
	size_t n = strlen(key);
	if (obj < 0 || obj >= d->nr || d->nodes[obj].type != JR_OBJ)
		return -1;
	for (int i = d->nodes[obj].first; i >= 0; i = d->nodes[i].next)
		if (d->nodes[i].key_len == n &&
		    !memcmp(d->nodes[i].key, key, n))
			return i;
	return -1;
}

/* The token of number node `node`, NUL-ended in `buf`; NULL if none. */
static const char *num_token(const struct jr_doc *d, int node, char *buf,
			     size_t size)
{
	if (node < 0 || node >= d->nr || d->nodes[node].type != JR_NUM ||
	    d->nodes[node].text_len >= size)
		return NULL;
	memcpy(buf, d->nodes[node].text, d->nodes[node].text_len);
	buf[d->nodes[node].text_len] = '\0';
	return buf;
}

int jr_double(const struct jr_doc *d, int node, double *out)
{
	char buf[64], *end;
	const char *t = num_token(d, node, buf, sizeof(buf));
	if (!t)
		return -1;
	errno = 0;
	*out = strtod(t, &end);
	return errno || *end ? -1 : 0;
}

int jr_u64(const struct jr_doc *d, int node, uint64_t *out)
{
	char buf[64], *end;
	const char *t = num_token(d, node, buf, sizeof(buf));
	if (!t || t[0] == '-')
		return -1;
	if (!strpbrk(t, ".eE")) {
		errno = 0;
		*out = strtoull(t, &end, 10);
		return errno || *end ? -1 : 0;
	}
	double v;
	if (jr_double(d, node, &v) || v < 0 || v >= 18446744073709551616.0)
		return -1;
	*out = (uint64_t)v;
	return 0;
}
