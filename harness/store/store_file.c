/*
 * store_file.c: a file of the results folder read as store_file.h says:
 * inside the folder, a regular file, under its kind's cap.
 */
#include "store_file.h"

#include <errno.h>
#include <sys/stat.h>

int store_file_exists(const char *path)
{
	struct stat st;
	return !lstat(path, &st) || (errno != ENOENT && errno != ENOTDIR);
}

int store_file_read(const char *path, struct strbuf *out, size_t max)
{
	/*
	 * lstat first, O_NOFOLLOW and O_NONBLOCK then, fstat of what was
	 * opened last: a link or a FIFO swapped in between is refused too.
	 */
	return read_file_nofollow(path, out, max);
}

json_t *store_json_read(const char *path, size_t max, size_t flags)
{
	struct strbuf text = STRBUF_INIT;
	json_error_t jerr;
	json_t *doc = NULL;

	if (!store_file_read(path, &text, max)) {
		doc = json_loadb(text.buf, text.len, flags, &jerr);
		if (!doc)
			error("'%s' is not valid JSON (line %d: %s)", path,
			      jerr.line, jerr.text);
	}
	strbuf_release(&text);
	return doc;
}

json_t *store_json_optional(const char *path, size_t max, size_t flags,
			    const char *what)
{
	struct strbuf why = STRBUF_INIT, *prev;
	json_t *doc;

	if (!store_file_exists(path))
		return NULL;
	prev = error_capture(&why);
	doc = store_json_read(path, max, flags);
	error_capture(prev);
	if (!doc)
		warning("ignoring %s: %s", what, why.buf);
	strbuf_release(&why);
	return doc;
}
