/*
 * util.c: error reporting, allocation, strbuf/strvec and the small
 * helpers shared by every module (see util.h); the file helpers are in
 * files.c.
 */
#include "util.h"
#include "exit_code.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

char strbuf_empty[1];
static struct strbuf *captured;

struct strbuf *error_capture(struct strbuf *sb)
{
	struct strbuf *prev = captured;
	captured = sb;
	return prev;
}

/* The last error said on stderr, for a report that says why it stopped. */
static char last_error[512];

const char *error_last(void)
{
	return last_error[0] ? last_error : NULL;
}

static void say(const char *prefix, const char *fmt, va_list ap)
{
	if (captured) {
		if (captured->len)
			strbuf_addch(captured, '\n');
		strbuf_vaddf(captured, fmt, ap);
		return;
	}
	char msg[4096];
	struct strbuf safe = STRBUF_INIT;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	/*
	 * Messages quote values from job files, options and servers: a
	 * newline or a terminal escape among them would forge lines or
	 * work the terminal. One message is one line of text.
	 */
	strbuf_addsafe(&safe, msg, strlen(msg));
	fprintf(stderr, "%s%s\n", prefix, safe.buf);
	if (!strcmp(prefix, "error: "))
		snprintf(last_error, sizeof(last_error), "%s", safe.buf);
	strbuf_release(&safe);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say("warning: ", fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;
	char msg[4096];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	struct strbuf safe = STRBUF_INIT;
	strbuf_addsafe(&safe, msg, strlen(msg));
	fprintf(stderr, "fatal: %s\n", safe.buf);
	exit(EXIT_ABORT);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die("out of memory allocating %zu bytes", n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		die("out of memory allocating %zu bytes", nmemb * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		die("out of memory allocating %zu bytes", n);
	return q;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d)
		die("out of memory");
	return d;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);
	if (!d)
		die("out of memory");
	return d;
}

char *xstrfmt(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb);
}

void strbuf_init(struct strbuf *sb)
{
	sb->buf = strbuf_empty;
	sb->len = sb->alloc = 0;
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

char *strbuf_detach(struct strbuf *sb)
{
	char *r = sb->alloc ? sb->buf : xstrdup("");
	strbuf_init(sb);
	return r;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return;
	size_t n = sb->alloc ? sb->alloc : 64;
	while (n < want)
		n *= 2;
	char *nb = sb->alloc ? xrealloc(sb->buf, n) : xmalloc(n);
	if (!sb->alloc)
		nb[0] = '\0';
	sb->buf = nb;
	sb->alloc = n;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_trim(struct strbuf *sb)
{
	size_t start = 0;
	while (sb->len && (sb->buf[sb->len - 1] == ' ' ||
			   sb->buf[sb->len - 1] == '\n' ||
			   sb->buf[sb->len - 1] == '\t' ||
			   sb->buf[sb->len - 1] == '\r'))
		sb->buf[--sb->len] = '\0';
	while (start < sb->len &&
	       (sb->buf[start] == ' ' || sb->buf[start] == '\t' ||
		sb->buf[start] == '\n'))
		start++;
	if (start) {
		memmove(sb->buf, sb->buf + start, sb->len - start + 1);
		sb->len -= start;
	}
}

/* Length of the UTF-8 sequence at p (at most n bytes), 0 when invalid. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t len;
	uint32_t cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* Overlong forms, surrogates and code points past U+10FFFF. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

int utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	while (n) {
		size_t len = utf8_len(p, n);
		if (!len)
			return 0;
		p += len;
		n -= len;
	}
	return 1;
}

void strbuf_addsafe(struct strbuf *sb, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len) {
		size_t n = utf8_len(p, len);
		/* C1 controls (U+0080..U+009F) act on terminals too. */
		int c1 = n == 2 && p[0] == 0xc2 && p[1] < 0xa0;
		if (n > 1 && !c1) {
			strbuf_add(sb, p, n);
		} else if (n == 1 && p[0] >= 0x20 && p[0] < 0x7f) {
			strbuf_addch(sb, (char)p[0]);
		} else {
			n = 1;
			strbuf_addf(sb, "\\x%02x", p[0]);
		}
		p += n;
		len -= n;
	}
}

char *xstrdup_safe(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addsafe(&sb, s, strlen(s));
	return strbuf_detach(&sb);
}

void strvec_push(struct strvec *sv, const char *s)
{
	ALLOC_GROW(sv->v, sv->nr + 2, sv->alloc);
	sv->v[sv->nr++] = xstrdup(s);
	sv->v[sv->nr] = NULL;
}

void strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strvec_push(sv, sb.buf);
	strbuf_release(&sb);
}

void strvec_clear(struct strvec *sv)
{
	for (size_t i = 0; i < sv->nr; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->nr = sv->alloc = 0;
}

void strvec_split(struct strvec *sv, const char *s, char sep)
{
	while (*s) {
		const char *e = strchr(s, sep);
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n) {
			char *piece = xstrndup(s, n);
			strvec_push(sv, piece);
			free(piece);
		}
		s += n;
		if (*s)
			s++;
	}
}

int strvec_index(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return (int)i;
	return -1;
}

const char *name_of(const char *const *names, size_t nr, size_t v,
		    const char *other)
{
	return v < nr && names[v] ? names[v] : other;
}

int name_index(const char *const *names, size_t nr, const char *name)
{
	for (size_t i = 0; i < nr; i++)
		if (names[i] && !strcmp(names[i], name))
			return (int)i;
	return -1;
}

const char *strvec_value(const struct strvec *sv, const char *key)
{
	size_t n = strlen(key);
	for (size_t i = 0; i < sv->nr; i++)
		if (!strncmp(sv->v[i], key, n) && sv->v[i][n] == '=')
			return sv->v[i] + n + 1;
	return NULL;
}

const char *host_name(void)
{
	static char host[256];
	if (!host[0])
		gethostname(host, sizeof(host) - 1);
	return host;
}

uint64_t fnv1a(uint64_t h, const char *s, size_t len)
{
	for (size_t i = 0; i < len && s[i]; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

uint64_t u64_add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void hash_hex(const void *data, size_t len, char out[41])
{
	git_oid oid;
	git_odb_hash(&oid, data, len, GIT_OBJECT_BLOB);
	git_oid_tostr(out, 41, &oid);
}

uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void utc_timestamp(char *out, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void format_duration(char *out, size_t size, double s)
{
	if (s < 60)
		snprintf(out, size, "%.1fs", s);
	else if (s < 3600)
		snprintf(out, size, "%dm%02ds", (int)s / 60, (int)s % 60);
	else
		snprintf(out, size, "%dh%02dm", (int)s / 3600,
			 ((int)s % 3600) / 60);
}

int parse_long(const char *s, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!*s || *end || errno)
		return -1;
	*out = v;
	return 0;
}

int parse_decimal(const char *s, double *out)
{
	size_t digits = 0, points = 0;
	char *end;

	for (const char *p = s; *p; p++) {
		if (*p >= '0' && *p <= '9')
			digits++;
		else if (*p == '.' && !points++)
			continue;
		else
			return -1;
	}
	/* A lone point, and numbers past any sane threshold's precision. */
	if (!digits || digits > 15)
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	return *end || errno ? -1 : 0;
}
