/*
 * publish.c: --upload and --notify at the end of a run (publish.h).
 */
#include "publish.h"

#include "store_file.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * notified.txt: a line ("<range> <culprit>", about 90 bytes) per notice
 * a sweep sent; 1 MiB is more than ten thousand.
 */
#define NOTIFIED_MAX ((size_t)1 << 20)

void publish_upload(const char *url, const char *dir)
{
	struct upload_options o = UPLOAD_OPTIONS_INIT;
	struct upload_counts c = {0};

	o.url = url;
	upload_job(&o, dir, &c);
	printf("upload: %zu sent, %zu already there, %zu spooled\n", c.sent,
	       c.already, c.kept);
}

/* Is `key` a line of `path`? */
static int listed(const char *path, const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	struct strvec lines = STRVEC_INIT;
	int found;

	if (!store_file_exists(path) ||
	    store_file_read(path, &sb, NOTIFIED_MAX))
		return 0;
	strvec_split(&lines, sb.buf, '\n');
	found = strvec_index(&lines, key) >= 0;
	strvec_clear(&lines);
	strbuf_release(&sb);
	return found;
}

int publish_notice(const char *url, const struct upload_notice *n,
		   const char *dir, const char *seen_key)
{
	struct upload_options o = UPLOAD_OPTIONS_INIT;
	char *path = dir ? xstrfmt("%s/notified.txt", dir) : NULL;
	int ret = 0;

	if (seen_key && path && listed(path, seen_key))
		goto out;
	ret = upload_notify(&o, url, n);
	if (ret)
		goto out;
	char *shown = upload_url_shown(url);
	printf("notified %s\n", shown);
	free(shown);
	if (seen_key && path) {
		struct strbuf sb = STRBUF_INIT;
		/* A ledger that does not read is kept, not written over. */
		ret = store_file_exists(path) &&
			      store_file_read(path, &sb, NOTIFIED_MAX)
			      ? -1
			      : 0;
		strbuf_addf(&sb, "%s\n", seen_key);
		if (!ret)
			ret = write_file_atomic(path, sb.buf, sb.len);
		strbuf_release(&sb);
	}
out:
	free(path);
	return ret;
}
