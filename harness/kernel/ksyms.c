/*
 * ksyms.c: System.map read into a sorted table of text symbols, and
 * counts folded into functions (ksyms.h).
 */
#include "ksyms.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void ksyms_release(struct ksyms *k)
{
	for (size_t i = 0; i < k->nr; i++)
		free(k->syms[i].name);
	free(k->syms);
	memset(k, 0, sizeof(*k));
}

static int is_text_type(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

/* Global (upper case) names first at one address: they are the API's. */
struct parsed {
	uint64_t addr;
	size_t line;
	int local;
	char *name;
};

static int parsed_cmp(const void *a, const void *b)
{
	const struct parsed *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->local != y->local)
		return x->local - y->local;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* One line "ADDR TYPE NAME": 0 and the fields, or -1 for any other. */
static int parse_line(const char *p, const char *e, uint64_t *addr,
		      char *type, const char **name, size_t *name_len)
{
	uint64_t a = 0;
	const char *s = p;
	for (; p < e && p - s < 16; p++) {
		int d = *p >= '0' && *p <= '9'	 ? *p - '0'
			: *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
			: *p >= 'A' && *p <= 'F' ? *p - 'A' + 10
						 : -1;
		if (d < 0)
			break;
		a = a << 4 | (uint64_t)d;
	}
	if (p == s || p + 3 > e || *p != ' ' || p[2] != ' ')
		return -1;
	*type = p[1];
	p += 3;
	const char *n = p;
	while (p < e && *p != ' ' && *p != '\t' && *p != '\r')
		p++;
	if (p == n)
		return -1;
	*addr = a;
	*name = n;
	*name_len = (size_t)(p - n);
	return 0;
}

int ksyms_parse(struct ksyms *out, const char *text, size_t len,
		const char *what)
{
	struct parsed *v = NULL;
	size_t nr = 0, alloc = 0, line = 0;
	uint64_t etext = 0;
	int have_etext = 0;
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		uint64_t addr;
		char type;
		const char *name;
		size_t nlen;
		line++;
		if (!parse_line(p, e, &addr, &type, &name, &nlen)) {
			if (nlen == 6 && !memcmp(name, "_etext", 6)) {
				etext = addr;
				have_etext = 1;
			}
			/*
			 * __pfx_ symbols (6.2 on) name the padding before a
			 * function, which never runs: its function is next.
			 */
			if (is_text_type(type) &&
			    !(nlen > 6 && !memcmp(name, "__pfx_", 6))) {
				ALLOC_GROW(v, nr + 1, alloc);
				v[nr++] = (struct parsed){
					addr, line, type == 't' || type == 'w',
					xstrndup(name, nlen)};
			}
		}
		p = e + 1;
	}
	ksyms_release(out);
	if (!nr) {
		free(v);
		return error("'%s' holds no text symbol", what);
	}
	qsort(v, nr, sizeof(*v), parsed_cmp);
	out->syms = xcalloc(nr, sizeof(*out->syms));
	out->alloc = nr;
	for (size_t i = 0; i < nr; i++) {
		if (out->nr && out->syms[out->nr - 1].addr == v[i].addr) {
			free(v[i].name);
			continue;
		}
		out->syms[out->nr++] = (struct ksym){v[i].addr, v[i].name};
	}
	free(v);
	uint64_t last = out->syms[out->nr - 1].addr;
	/* _etext is a text symbol too: the text ends just before it. */
	out->last = last;
	if (have_etext && etext > last)
		out->last = etext - 1;
	else if (have_etext && etext == last && last)
		out->last = last - 1;
	return 0;
}

const struct ksym *ksyms_lookup(const struct ksyms *k, uint64_t addr)
{
	if (!k->nr || addr < k->syms[0].addr || addr > k->last)
		return NULL;
	size_t lo = 0, hi = k->nr;
	/* The last symbol at or below addr. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (k->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return &k->syms[lo];
}

static int func_cmp(const void *a, const void *b)
{
	const struct func_count *x = a, *y = b;
	if (x->insns != y->insns)
		return x->insns > y->insns ? -1 : 1;
	return strcmp(x->name, y->name);
}

void ksyms_fold(const struct ksyms *k, const struct addr_count *counts,
		size_t nr, struct func_count **out, size_t *nr_out,
		uint64_t *unknown)
{
	/* One slot per symbol, then the ones with counts, packed. */
	uint64_t *per = xcalloc(k->nr ? k->nr : 1, sizeof(*per));
	size_t n = 0;

	*unknown = 0;
	for (size_t i = 0; i < nr; i++) {
		const struct ksym *s = ksyms_lookup(k, counts[i].addr);
		if (s)
			per[s - k->syms] =
				u64_add_sat(per[s - k->syms], counts[i].insns);
		else
			*unknown = u64_add_sat(*unknown, counts[i].insns);
	}
	for (size_t i = 0; i < k->nr; i++)
		n += per[i] != 0;
	*out = xcalloc(n ? n : 1, sizeof(**out));
	*nr_out = 0;
	for (size_t i = 0; i < k->nr; i++)
		if (per[i])
			(*out)[(*nr_out)++] =
				(struct func_count){k->syms[i].name, per[i]};
	qsort(*out, *nr_out, sizeof(**out), func_cmp);
	free(per);
}
