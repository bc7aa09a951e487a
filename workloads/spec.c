/*
 * spec.c: parses and checks /spec. The keys each directive and engine
 * takes are proto/spec_keys.h's, the lists the host checks jobs against.
 */
#include "spec.h"
#include "proto/spec_keys.h"
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct keyset {
	const char *word;
	const char *keys; /* space-separated, with leading and trailing space */
};

#define DIRECTIVE(word, KEYS) { #word, PROTO_KEY_WORDS(KEYS) },
#define ENGINE(word, KEYS, metrics) { #word, PROTO_KEY_WORDS(KEYS) },
static const struct keyset directives[] = {
	{ "boot", PROTO_KEY_WORDS(PROTO_BOOT_KEYS) },
	{ "disk", PROTO_KEY_WORDS(PROTO_DISK_KEYS) },
	PROTO_LAYERS(DIRECTIVE)
	{ "point", PROTO_KEY_WORDS(PROTO_POINT_KEYS) },
};

static const struct keyset engines[] = { PROTO_ENGINES(ENGINE) };
#undef DIRECTIVE
#undef ENGINE

static int in_set(const char *keys, const char *key)
{
	size_t n = strlen(key);
	/* An empty key would match at keys[0], and p[-1] read before it. */
	if (!n)
		return 0;
	for (const char *p = strstr(keys, key); p; p = strstr(p + 1, key))
		if (p[-1] == ' ' && p[n] == ' ')
			return 1;
	return 0;
}

static const char *find_set(const struct keyset *sets, size_t nr,
			    const char *word)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(sets[i].word, word))
			return sets[i].keys;
	return NULL;
}

const char *spec_keys(const char *word)
{
	const char *keys = find_set(
		directives, sizeof(directives) / sizeof(*directives), word);
	return keys ? keys
		    : find_set(engines, sizeof(engines) / sizeof(*engines),
			       word);
}

const char *spec_get(const struct spec_line *l, const char *key)
{
	for (int i = 0; i < l->nr; i++)
		if (!strcmp(l->kv[i].key, key))
			return l->kv[i].val;
	return NULL;
}

const char *spec_name(const struct spec_line *l)
{
	const char *n = spec_get(l, strcmp(l->word, "point") ? "name" : "id");
	return n ? n : "?";
}

int spec_u64(const struct spec_line *l, const char *key, uint64_t def,
	     uint64_t *out)
{
	const char *v = spec_get(l, key);
	char *end;
	if (!v) {
		*out = def;
		return 0;
	}
	errno = 0;
	*out = strtoull(v, &end, 10);
	if (errno || end == v || *end || *v == '-')
		return report_error("spec", "line %d: '%s=%s' is not a number",
				    l->lineno, key, v);
	return 0;
}

int spec_double(const struct spec_line *l, const char *key, double def,
		double *out)
{
	const char *v = spec_get(l, key);
	char *end;
	if (!v) {
		*out = def;
		return 0;
	}
	errno = 0;
	*out = strtod(v, &end);
	if (errno || end == v || *end || *out < 0)
		return report_error("spec", "line %d: '%s=%s' is not a number",
				    l->lineno, key, v);
	return 0;
}

static int copy_word(char *dst, size_t size, const char *src, size_t n,
		     int lineno)
{
	if (n >= size)
		return report_error("spec", "line %d: '%.*s' is too long",
				    lineno, (int)n, src);
	memcpy(dst, src, n);
	dst[n] = '\0';
	return 0;
}

/* Split one line into `l`: the directive word, then key=value words. */
static int parse_line(struct spec_line *l, const char *line, size_t len,
		      int lineno)
{
	const char *p = line, *end = line + len;
	memset(l, 0, sizeof(*l));
	l->lineno = lineno;
	const char *sp = memchr(p, ' ', (size_t)(end - p));
	size_t n = sp ? (size_t)(sp - p) : (size_t)(end - p);
	if (copy_word(l->word, sizeof(l->word), p, n, lineno))
		return -1;
	p += n;
	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		if (p == end)
			break;
		sp = memchr(p, ' ', (size_t)(end - p));
		n = sp ? (size_t)(sp - p) : (size_t)(end - p);
		const char *eq = memchr(p, '=', n);
		if (!eq || eq == p)
			return report_error("spec",
					    "line %d: '%.*s' is not "
					    "key=value",
					    lineno, (int)n, p);
		if (l->nr == SPEC_MAX_KV)
			return report_error("spec", "line %d: too many keys",
					    lineno);
		struct spec_kv *kv = &l->kv[l->nr];
		if (copy_word(kv->key, sizeof(kv->key), p, (size_t)(eq - p),
			      lineno) ||
		    copy_word(kv->val, sizeof(kv->val), eq + 1,
			      n - (size_t)(eq - p) - 1, lineno))
			return -1;
		for (int i = 0; i < l->nr; i++)
			if (!strcmp(l->kv[i].key, kv->key))
				return report_error("spec",
						    "line %d: key '%s' "
						    "given twice",
						    lineno, kv->key);
		l->nr++;
		p += n;
	}
	return 0;
}

static int check_keys(const struct spec_line *l)
{
	const char *keys = find_set(
		directives, sizeof(directives) / sizeof(*directives), l->word);
	const char *ekeys = NULL;
	if (!keys)
		return report_error("spec", "line %d: unknown directive '%s'",
				    l->lineno, l->word);
	if (!strcmp(l->word, "point")) {
		const char *engine = spec_get(l, "engine");
		if (!engine)
			return report_error("spec",
					    "line %d: point has no "
					    "'engine'",
					    l->lineno);
		ekeys = find_set(engines, sizeof(engines) / sizeof(*engines),
				 engine);
		if (!ekeys)
			return report_error("spec",
					    "line %d: unknown engine "
					    "'%s'",
					    l->lineno, engine);
		if (!spec_get(l, "target"))
			return report_error("spec",
					    "line %d: point has no "
					    "'target'",
					    l->lineno);
	}
	for (int i = 0; i < l->nr; i++)
		if (!in_set(keys, l->kv[i].key) &&
		    !(ekeys && in_set(ekeys, l->kv[i].key)))
			return report_error("spec",
					    "line %d: unknown key '%s' "
					    "for '%s'",
					    l->lineno, l->kv[i].key, l->word);
	if (strcmp(l->word, "boot") &&
	    !spec_get(l, !strcmp(l->word, "point") ? "id" : "name"))
		return report_error("spec", "line %d: '%s' has no name",
				    l->lineno, l->word);
	return 0;
}

int spec_parse(struct spec *s, const char *text)
{
	int lineno = 0, have_version = 0;
	memset(s, 0, sizeof(*s));
	s->reboot = 1;
	snprintf(s->commit, sizeof(s->commit), "none");
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		/* Past the whole line: a last line "\r" must not stall here. */
		const char *after = nl ? nl + 1 : p + len;
		static struct spec_line l;
		lineno++;
		if (len && p[len - 1] == '\r')
			len--;
		if (len == 0 || *p == '#')
			goto next;
		if (len >= 8 && !strncmp(p, "version ", 8)) {
			if (len != 9 || p[8] != '1')
				return report_error("spec",
						    "line %d: unknown "
						    "spec version '%.*s'",
						    lineno, (int)len - 8,
						    p + 8);
			have_version = 1;
			goto next;
		}
		if (parse_line(&l, p, len, lineno) || check_keys(&l))
			return -1;
		if (!strcmp(l.word, "boot")) {
			uint64_t v;
			const char *c = spec_get(&l, "commit");
			if (spec_u64(&l, "id", 0, &v))
				return -1;
			s->boot_id = (unsigned)v;
			if (spec_u64(&l, "reboot", 1, &v))
				return -1;
			s->reboot = v != 0;
			if (c)
				snprintf(s->commit, sizeof(s->commit), "%s", c);
		} else if (!strcmp(l.word, "disk")) {
			if (s->nr_disks == SPEC_MAX_DISKS)
				return report_error("spec", "too many disks");
			s->disks[s->nr_disks++] = l;
		} else if (!strcmp(l.word, "point")) {
			if (s->nr_points == SPEC_MAX_POINTS)
				return report_error("spec", "too many points");
			s->points[s->nr_points++] = l;
		} else {
			if (s->nr_layers == SPEC_MAX_LAYERS)
				return report_error("spec", "too many layers");
			s->layers[s->nr_layers++] = l;
		}
	next:
		p = after;
	}
	if (!have_version)
		return report_error("spec", "no 'version 1' line");
	return 0;
}

int spec_load(struct spec *s, const char *path)
{
	static char text[1 << 18];
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return report_error("spec", "cannot open '%s': %s", path,
				    strerror(errno));
	for (;;) {
		ssize_t n = read(fd, text + len, sizeof(text) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return report_error("spec", "cannot read '%s': %s",
					    path, strerror(errno));
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == sizeof(text) - 1) {
			close(fd);
			return report_error("spec", "'%s' is too long", path);
		}
	}
	close(fd);
	text[len] = '\0';
	return spec_parse(s, text);
}
