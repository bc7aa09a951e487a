/*
 * template.c: placeholders in job templates (see template.h).
 */
#include "template.h"

#include <stdlib.h>
#include <string.h>

/* Length of the placeholder at p ("{name}"), or 0 when p starts none. */
static size_t placeholder_len(const char *p)
{
	size_t n = 1;

	if (*p != '{')
		return 0;
	while (p[n] >= 'a' && p[n] <= 'z')
		n++;
	return n > 1 && p[n] == '}' ? n + 1 : 0;
}

static int placeholder_index(const char *p, size_t len,
			     const char *const *names)
{
	for (size_t i = 0; names && names[i]; i++)
		if (strlen(names[i]) == len - 2 &&
		    !strncmp(p + 1, names[i], len - 2))
			return (int)i;
	return -1;
}

char *template_unknown(const char *tmpl, const char *const *known)
{
	for (const char *p = tmpl; *p; p++) {
		size_t len = placeholder_len(p);
		if (len && placeholder_index(p, len, known) < 0)
			return xstrndup(p, len);
	}
	return NULL;
}

int template_uses(const char *tmpl, const char *name)
{
	const char *const names[] = {name, NULL};

	for (const char *p = tmpl; *p; p++) {
		size_t len = placeholder_len(p);
		if (len && placeholder_index(p, len, names) == 0)
			return 1;
	}
	return 0;
}

void template_expand(struct strbuf *out, const char *tmpl,
		     const char *const *names, const char *const *values)
{
	for (const char *p = tmpl; *p;) {
		size_t len = placeholder_len(p);
		int i = len ? placeholder_index(p, len, names) : -1;

		if (i >= 0 && values[i]) {
			strbuf_addstr(out, values[i]);
			p += len;
		} else {
			strbuf_addch(out, *p++);
		}
	}
}

void template_expand_words(struct strvec *out, const struct strvec *words,
			   const char *const *names, const char *const *values)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < words->nr; i++) {
		strbuf_reset(&sb);
		template_expand(&sb, words->v[i], names, values);
		strvec_push(out, sb.buf);
	}
	strbuf_release(&sb);
}

void template_split_words(struct strvec *out, const char *s)
{
	static const char blanks[] = " \t\n";

	for (;;) {
		s += strspn(s, blanks);
		if (!*s)
			return;
		size_t n = strcspn(s, blanks);
		char *w = xstrndup(s, n);
		strvec_push(out, w);
		free(w);
		s += n;
	}
}
