/*
 * job_fio.c: the fio engine's part of a job's workload. "job" names a fio
 * job file (relative to the job file's folder) or holds its text inline;
 * the text is checked, hashed and kept for the initramfs, and the spec gets
 * job=<its SHA-1>, build=<fio's SHA-1> and kernel_min=<its C library's
 * floor>, so the spec hash changes with either and the guest can refuse a
 * kernel fio cannot run on. The host must have fio: a job that asks for it
 * on a host without is refused at once, with how to install it.
 */
#include "job_parse.h"
#include "fio_build.h"

#include <libgen.h>
#include <string.h>

/* A fio job file is a few hundred bytes; the guest takes up to 256 KiB. */
#define FIO_JOB_MAX ((size_t)256 << 10)

/* Options that choose fio's file themselves: the target is the topology's. */
static const char *const own_file_options[] = {
	"filename", "directory", "filename_format", "opendir", NULL};

/* Inline text has a newline or a section; anything else is a path. */
static int is_inline(const char *s)
{
	return strchr(s, '\n') || strchr(s, '[');
}

static int read_job_text(struct keypath *c, const char *value,
			 struct strbuf *out)
{
	if (is_inline(value)) {
		strbuf_addstr(out, value);
		if (out->len && out->buf[out->len - 1] != '\n')
			strbuf_addch(out, '\n');
		return 0;
	}
	char *path = NULL;
	if (value[0] == '/' || value[0] == '~') {
		path = job_expand_home(value);
	} else {
		char *copy = xstrdup(c->origin);
		path = xstrfmt("%s/%s", dirname(copy), value);
		free(copy);
	}
	struct strbuf why = STRBUF_INIT;
	struct strbuf *prev = error_capture(&why);
	int rc = read_file_max(path, out, FIO_JOB_MAX);
	error_capture(prev);
	if (rc)
		kp_fail(c, "%s", why.buf);
	strbuf_release(&why);
	free(path);
	return rc;
}

/* The option a job file line sets ("filename" of "filename = /dev/x"). */
static char *line_option(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	size_t n = strcspn(line, "= \t");
	return xstrndup(line, n);
}

static int check_job_text(struct keypath *c, const char *text)
{
	struct strvec lines = STRVEC_INIT;
	int rc = 0;
	if (!utf8_valid(text) || strlen(text) == 0)
		rc = kp_fail(c, "the fio job is empty or not text");
	strvec_split(&lines, text, '\n');
	for (size_t i = 0; !rc && i < lines.nr; i++) {
		char *opt = line_option(lines.v[i]);
		if (list_index(opt, own_file_options) >= 0 &&
		    !strstr(lines.v[i], "{dev}"))
			rc = kp_fail(c,
				     "line %zu: '%s' chooses fio's file; the "
				     "target is the topology's: write "
				     "%s={dev} or leave it out",
				     i + 1, opt, opt);
		free(opt);
	}
	strvec_clear(&lines);
	return rc;
}

int job_fio_workload(struct keypath *c, json_t *w, char **text,
		     struct strvec *keys)
{
	json_t *v = json_object_get(w, "job");
	struct strbuf sb = STRBUF_INIT;
	struct fio_build b;
	const char *value;
	char sha[41];
	size_t old = kp_push(c, "job");
	int rc = -1;

	if (!v) {
		kp_fail(c, "engine 'fio' needs a job: a fio job file's path "
			   "or its text");
		goto out;
	}
	if (kp_str(c, v, &value) || read_job_text(c, value, &sb) ||
	    check_job_text(c, sb.buf))
		goto out;
	kp_pop(c, old);
	old = kp_push(c, "engine");
	struct strbuf why = STRBUF_INIT;
	struct strbuf *prev = error_capture(&why);
	int found = fio_build_find(&b);
	error_capture(prev);
	if (found)
		kp_fail(c, "%s", why.buf);
	strbuf_release(&why);
	if (found)
		goto out;
	hash_hex(sb.buf, sb.len, sha);
	strvec_pushf(keys, "job=%s", sha);
	strvec_pushf(keys, "build=%s", b.hash);
	if (b.kernel_min[0])
		strvec_pushf(keys, "kernel_min=%s", b.kernel_min);
	fio_build_release(&b);
	*text = strbuf_detach(&sb);
	rc = 0;
out:
	kp_pop(c, old);
	strbuf_release(&sb);
	return rc;
}

void job_fio_kconfig(struct job *job)
{
	if (strvec_index(&job->kconfig.fragments, "fio") < 0)
		strvec_push(&job->kconfig.fragments, "fio");
}
