/*
 * prebuilt.c: images from a folder or a command instead of builds (see
 * prebuilt.h). A command's image is kept as cache_dir()/prebuilt/<key>/
 * bzImage, named by its own hash, so results point at bytes that stay.
 */
#include "prebuilt.h"

#include "build_result.h"
#include "repo.h"
#include "run.h"
#include "template.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const prebuilt_name_placeholders[] = {"commit", "short", "tag",
						  NULL};
const char *const prebuilt_command_placeholders[] = {"commit", "short", "tag",
						     "out", NULL};

void prebuilt_source_free(struct prebuilt_source *src)
{
	if (!src)
		return;
	free(src->folder);
	strvec_clear(&src->names);
	strvec_clear(&src->command);
	free(src);
}

void prebuilt_candidates(struct strvec *out, const struct strvec *names,
			 const char *commit, const struct strvec *tags)
{
	struct strbuf sb = STRBUF_INIT;
	char short_id[13];

	snprintf(short_id, sizeof(short_id), "%.12s", commit);
	for (size_t i = 0; i < names->nr; i++) {
		const char *tmpl = names->v[i];
		size_t n = template_uses(tmpl, "tag") ? tags->nr : 1;
		for (size_t t = 0; t < n; t++) {
			const char *values[] = {
				commit, short_id,
				template_uses(tmpl, "tag") ? tags->v[t] : NULL,
				NULL};
			strbuf_reset(&sb);
			template_expand(&sb, tmpl, prebuilt_name_placeholders,
					values);
			if (strvec_index(out, sb.buf) < 0)
				strvec_push(out, sb.buf);
		}
	}
	strbuf_release(&sb);
}

int prebuilt_is_bzimage(const void *data, size_t len)
{
	/* The real-mode header's signature, at 0x202 since boot protocol 2.0.
	 */
	return len > 0x206 && !memcmp((const char *)data + 0x202, "HdrS", 4);
}

int prebuilt_image_key(const char *path, char key[41], int *bzimage)
{
	struct strbuf sb = STRBUF_INIT;

	if (read_file_max(path, &sb, PREBUILT_IMAGE_MAX)) {
		strbuf_release(&sb);
		return -1;
	}
	hash_hex(sb.buf, sb.len, key);
	if (bzimage)
		*bzimage = prebuilt_is_bzimage(sb.buf, sb.len);
	strbuf_release(&sb);
	return 0;
}

/* The key of an image that must be a bzImage. */
static int bzimage_key(const char *path, char key[41])
{
	int ok;

	if (prebuilt_image_key(path, key, &ok))
		return -1;
	return ok ? 0 : error("'%s' is not a bzImage (no boot header)", path);
}

/* The first candidate present in the folder, or NULL. */
static char *find_in_folder(const struct prebuilt_source *src,
			    const char *commit, const struct strvec *tags,
			    struct strbuf *looked)
{
	struct strvec names = STRVEC_INIT;
	char *found = NULL;

	prebuilt_candidates(&names, &src->names, commit, tags);
	for (size_t i = 0; i < names.nr && !found; i++) {
		char *path = xstrfmt("%s/%s", src->folder, names.v[i]);
		if (file_exists(path))
			found = path;
		else
			free(path);
		strbuf_addf(looked, "%s%s", i ? ", " : "", names.v[i]);
	}
	strvec_clear(&names);
	return found;
}

/*
 * Run the source's command for `commit`; its image, kept under the cache
 * by its hash, in *image. 0, 1 when the command gave none (said in
 * `why`), -1 after error().
 */
static int fetch_by_command(const struct prebuilt_source *src,
			    const char *commit, const struct strvec *tags,
			    char **image, struct strbuf *why)
{
	struct strvec argv = STRVEC_INIT;
	struct run_opts o = RUN_OPTS_INIT;
	char short_id[13], key[41];
	char *dir = xstrfmt("%s/prebuilt", cache_dir());
	char *tmp = xstrfmt("%s/fetch-%ld.bzImage", dir, (long)getpid());
	char *keep = NULL;
	int rc = -1, code;

	snprintf(short_id, sizeof(short_id), "%.12s", commit);
	const char *values[] = {commit, short_id, tags->nr ? tags->v[0] : NULL,
				tmp, NULL};
	if (mkdir_below(cache_dir(), dir, 0755))
		goto out;
	unlink(tmp);
	template_expand_words(&argv, &src->command,
			      prebuilt_command_placeholders, values);
	o.argv = (const char *const *)argv.v;
	code = run_command(&o);
	if (code || !file_exists(tmp)) {
		strbuf_addf(why, "'%s' gave no image for %.12s (exit %d)",
			    argv.v[0], commit, code);
		rc = 1;
		goto out;
	}
	if (bzimage_key(tmp, key)) {
		rc = 1;
		strbuf_addf(why, "'%s' gave no bzImage for %.12s", argv.v[0],
			    commit);
		goto out;
	}
	keep = xstrfmt("%s/%s", dir, key);
	free(dir);
	dir = keep;
	keep = xstrfmt("%s/bzImage", dir);
	if (mkdir_below(cache_dir(), dir, 0755))
		goto out;
	if (rename(tmp, keep)) {
		error("cannot keep '%s' as '%s': %s", tmp, keep,
		      strerror(errno));
		goto out;
	}
	*image = keep;
	keep = NULL;
	rc = 0;
out:
	unlink(tmp);
	strvec_clear(&argv);
	free(keep);
	free(tmp);
	free(dir);
	return rc;
}

int prebuilt_image(struct build_result *out, const struct prebuilt_source *src,
		   const char *repo_path, const char *rev)
{
	struct strbuf msg = STRBUF_INIT, why = STRBUF_INIT;
	struct strvec tags = STRVEC_INIT;
	struct repo *repo = NULL;
	char *image = NULL;
	uint64_t start = now_ns();

	memset(out, 0, sizeof(*out));
	out->status = BUILD_SETUP_ERROR;
	/* Make never runs: every answer is the source's, as a cache's is. */
	out->cached = 1;
	error_capture(&msg);
	if (repo_open(&repo, repo_path) ||
	    repo_resolve(repo, rev, out->commit) ||
	    repo_tags_at(repo, out->commit, &tags))
		goto out;
	if (src->folder) {
		struct strbuf looked = STRBUF_INIT;
		image = find_in_folder(src, out->commit, &tags, &looked);
		if (!image)
			strbuf_addf(&why,
				    "no image for %.12s in '%s' (looked "
				    "for %s)",
				    out->commit, src->folder, looked.buf);
		strbuf_release(&looked);
	} else {
		int rc =
			fetch_by_command(src, out->commit, &tags, &image, &why);
		if (rc < 0)
			goto out;
	}
	if (image && bzimage_key(image, out->key)) {
		/* Not an image: as if there were none. */
		strbuf_addstr(&why, msg.buf);
		strbuf_trim(&why);
		free(image);
		image = NULL;
	}
	if (!image) {
		out->status = BUILD_FAILED;
		out->first_error = strbuf_detach(&why);
		goto out;
	}
	out->image = absolute_path(image);
	out->status = BUILD_OK;
out:
	error_capture(NULL);
	out->seconds = (double)(now_ns() - start) / 1e9;
	if (out->status != BUILD_OK)
		out->message = xstrdup(out->first_error ? out->first_error
				       : msg.len	? msg.buf
							: "no image");
	if (out->message) {
		/* One line, as kbuild gives it. */
		for (char *p = out->message; *p; p++)
			if (*p == '\n')
				*p = ' ';
		size_t n = strlen(out->message);
		while (n && out->message[n - 1] == ' ')
			out->message[--n] = '\0';
	}
	free(image);
	strvec_clear(&tags);
	repo_free(repo);
	strbuf_release(&msg);
	strbuf_release(&why);
	return out->status == BUILD_OK ? 0 : -1;
}
