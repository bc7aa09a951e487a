/*
 * tbcount.c: finding iobisect's QEMU plugin, asking QEMU whether it
 * loads it, and reading the counts it wrote (tbcount.h).
 */
#include "tbcount.h"
#include "proto/profile.h"
#include "install_dirs.h"
#include "json_num.h"
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_QEMU "qemu-system-x86_64"

void tbcount_release(struct tbcount *t)
{
	free(t->counts);
	memset(t, 0, sizeof(*t));
}

static int parse_u64(const char *s, const char *e, int base, uint64_t *out)
{
	uint64_t v = 0;
	if (s == e || e - s > (base == 16 ? 16 : 20))
		return -1;
	for (; s < e; s++) {
		int d = *s >= '0' && *s <= '9'			? *s - '0'
			: base == 16 && *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
							       : -1;
		if (d < 0 || (base == 10 && v > (UINT64_MAX - (uint64_t)d) / 10))
			return -1;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	*out = v;
	return 0;
}

int tbcount_parse(struct tbcount *out, const char *text, size_t len,
		  const char *what)
{
	const char *p = text, *end = text + len;
	size_t line = 0;
	int seen_windows = 0, seen_user = 0;

	tbcount_release(out);
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		const char *sp = memchr(p, ' ', (size_t)(e - p));
		uint64_t a, b;
		line++;
		if (line == 1) {
			if ((size_t)(e - p) != strlen(PROFILE_FILE_MAGIC) ||
			    memcmp(p, PROFILE_FILE_MAGIC, (size_t)(e - p)))
				return error("'%s' is not the plugin's counts "
					     "(first line)",
					     what);
		} else if (!sp) {
			goto bad;
		} else if (sp - p == 7 && !memcmp(p, "windows", 7)) {
			if (parse_u64(sp + 1, e, 10, &b) || b > 1000000)
				goto bad;
			out->windows = (unsigned)b;
			seen_windows = 1;
		} else if (sp - p == 4 && !memcmp(p, "user", 4)) {
			if (parse_u64(sp + 1, e, 10, &out->user_insns))
				goto bad;
			if (out->user_insns > JSON_COUNT_MAX)
				goto big;
			seen_user = 1;
		} else {
			if (parse_u64(p, sp, 16, &a) ||
			    parse_u64(sp + 1, e, 10, &b) || !(a >> 63))
				goto bad;
			/*
			 * Counts and their sum stay what profile.json can
			 * keep: the sum wrapped, and 2^63 was saved as a
			 * negative number. Centuries of TCG make 2^63.
			 */
			if (b > JSON_COUNT_MAX ||
			    out->kernel_insns > JSON_COUNT_MAX - b)
				goto big;
			ALLOC_GROW(out->counts, out->nr + 1, out->alloc);
			out->counts[out->nr++] = (struct addr_count){a, b};
			out->kernel_insns += b;
		}
		p = e + 1;
	}
	if (!line)
		return error("'%s' is empty", what);
	if (!seen_windows || !seen_user)
		return error("'%s' lacks its windows or user line", what);
	return 0;
bad:
	tbcount_release(out);
	return error("'%s' line %zu: not a count", what, line);
big:
	tbcount_release(out);
	return error("'%s' line %zu: the counts pass 2^63-1 instructions, "
		     "more than any boot runs",
		     what, line);
}

char *tbcount_find_plugin(void)
{
	return install_find_part("IOBISECT_PLUGIN", PROFILE_PLUGIN_NAME);
}

/* The line of QEMU's output that says the most: the plugin's, else the last. */
static char *reason_of(const char *out)
{
	const char *best = NULL, *last = NULL;
	for (const char *p = out; *p;) {
		size_t n = strcspn(p, "\n");
		if (n) {
			last = p;
			if (!best && !strncmp(p, "iobisect-tbcount:", 17))
				best = p;
		}
		p += n;
		if (*p)
			p++;
	}
	const char *l = best ? best : last;
	return l ? xstrndup(l, strcspn(l, "\n")) : xstrdup("QEMU said nothing");
}

int tbcount_probe(const char *qemu, const char *plugin, char **why)
{
	const char *tmp = getenv("TMPDIR");
	struct strbuf out = STRBUF_INIT, quiet = STRBUF_INIT, *prev;
	char *path, *arg;
	int fd, ret;

	*why = NULL;
	/* QEMU's option syntax has no escape for a comma in a file name. */
	if (strchr(plugin, ',')) {
		char *raw = xstrfmt("the plugin's path '%s' holds a comma",
				    plugin);
		*why = xstrdup_safe(raw);
		free(raw);
		return 0;
	}
	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	path = xstrfmt("%s/iobisect-plugin-probe.XXXXXX", tmp);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		ret = error("cannot make a temporary file in '%s': %s", tmp,
			    strerror(errno));
		free(path);
		return ret;
	}
	close(fd);
	arg = xstrfmt("%s,probe=on", plugin);
	/* The plugin refuses to stay when probed: QEMU exits at once. */
	const char *argv[] = {qemu ? qemu : DEFAULT_QEMU, "-plugin", arg,
			      "-M", "none", "-nodefaults", "-display", "none",
			      NULL};
	struct run_opts o = RUN_OPTS_INIT;
	o.argv = argv;
	o.stdout_path = path;
	o.stderr_to_stdout = 1;
	o.timeout_ms = 10000;
	prev = error_capture(&quiet);
	int rc = run_command(&o);
	error_capture(prev);
	read_file_max(path, &out, 65536);
	unlink(path);
	if (run_interrupted()) {
		ret = error("interrupted while asking '%s' about plugins",
			    argv[0]);
	} else if (strstr(out.buf, PROFILE_PROBE_WORD)) {
		ret = 1;
	} else {
		*why = rc == RUN_SPAWN ? xstrfmt("'%s' did not run", argv[0])
				       : reason_of(out.buf);
		ret = 0;
	}
	/*
	 * The reason is QEMU's words or a path from a job: it is printed,
	 * and put in report.txt, so it is escaped as error lines are.
	 */
	if (*why) {
		char *raw = *why;
		*why = xstrdup_safe(raw);
		free(raw);
	}
	strbuf_release(&out);
	strbuf_release(&quiet);
	free(arg);
	free(path);
	return ret;
}

int tbcount_available(const char *qemu, char **plugin, char **why)
{
	static int known = -1;
	static char *s_qemu, *s_plugin, *s_why;

	*plugin = *why = NULL;
	if (known < 0 || strcmp(s_qemu, qemu ? qemu : DEFAULT_QEMU)) {
		free(s_qemu);
		free(s_plugin);
		free(s_why);
		s_qemu = xstrdup(qemu ? qemu : DEFAULT_QEMU);
		s_why = NULL;
		s_plugin = tbcount_find_plugin();
		if (!s_plugin) {
			char *looked = install_part_looked("IOBISECT_PLUGIN");
			s_why = xstrfmt("iobisect's QEMU plugin (" PROFILE_PLUGIN_NAME
					") is not built or installed: %s",
					looked);
			free(looked);
			known = 0;
		} else {
			int r = tbcount_probe(s_qemu, s_plugin, &s_why);
			if (r < 0 && !s_why)
				s_why = xstrdup("QEMU could not be asked");
			known = r > 0;
		}
	}
	if (!known) {
		*why = xstrdup(s_why);
		return 0;
	}
	*plugin = xstrdup(s_plugin);
	return 1;
}
