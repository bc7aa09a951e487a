/*
 * template.h: command and file-name templates of a job, with placeholders
 * in braces: "{src}" and "{out}" in a toolchain's environment prefix,
 * "{commit}", "{short}", "{tag}" and "{out}" in a prebuilt image's name or
 * command. A placeholder is a brace, lowercase letters, a brace; anything
 * else in braces ("{{.Digest}}" of a podman format) is plain text, so a
 * command that wants braces of its own still can. Pure.
 */
#ifndef IOBISECT_TEMPLATE_H
#define IOBISECT_TEMPLATE_H

#include "util.h"

/*
 * The first placeholder of `tmpl` not in `known` (NULL-terminated), as an
 * owned "{name}", or NULL when every one is known.
 */
char *template_unknown(const char *tmpl, const char *const *known);

/* 1 when `tmpl` holds "{name}". */
int template_uses(const char *tmpl, const char *name);

/*
 * `tmpl` with each "{names[i]}" replaced by values[i] (NULL-terminated,
 * side by side); a placeholder whose value is NULL, or that is not named,
 * is kept as written.
 */
void template_expand(struct strbuf *out, const char *tmpl,
		     const char *const *names, const char *const *values);

/* Each word of `words` expanded, pushed onto `out`. */
void template_expand_words(struct strvec *out, const struct strvec *words,
			   const char *const *names, const char *const *values);

/*
 * A command as a job gives it: a list of words, or one string split at
 * blanks (no quoting: a word with a blank in it needs the list form).
 */
void template_split_words(struct strvec *out, const char *s);

#endif
