/*
 * prebuilt.h: kernels that are not built here. A build farm's artefacts or
 * a distribution's packages give a bzImage per commit (or per version
 * tag): a job may name a folder holding them, or a command that fetches
 * one, and then bisects without building. Builds are requested in one
 * place (kbuild_image), and a request that carries a prebuilt source is
 * answered from it: the driver, the lanes and the results are the same,
 * the build key is the image's hash, and a commit with no image is one
 * that did not build (skipped; an endpoint without one ends the run).
 */
#ifndef IOBISECT_PREBUILT_H
#define IOBISECT_PREBUILT_H

#include "util.h"

struct build_result;

struct prebuilt_source {
	/*
	 * A folder and the names to look for in it, in order, with
	 * {commit}, {short} (12 hex) and {tag} (each tag at the commit);
	 * default "{commit}/bzImage".
	 */
	char *folder;
	struct strvec names;
	/*
	 * Or a command that writes the commit's image to {out} (and may use
	 * the others): exit 0 and an image, or no image for that commit.
	 */
	struct strvec command;
};

/* The placeholders of a name, and of a command. */
extern const char *const prebuilt_name_placeholders[];
extern const char *const prebuilt_command_placeholders[];
#define PREBUILT_DEFAULT_NAME "{commit}/bzImage"
/* A bzImage is a few MiB; this is far beyond any. */
#define PREBUILT_IMAGE_MAX ((size_t)256 << 20)

void prebuilt_source_free(struct prebuilt_source *src);

/* Pure parts. */

/*
 * The names `commit` (full id) may have in the folder, in the order they
 * are looked for: each template of `names` expanded, one per tag of
 * `tags` when it uses {tag} (none when the commit has no tag).
 */
void prebuilt_candidates(struct strvec *out, const struct strvec *names,
			 const char *commit, const struct strvec *tags);

/* 1 when data looks like an x86 bzImage (the boot header's "HdrS"). */
int prebuilt_is_bzimage(const void *data, size_t len);

/* The World. */

/*
 * The image of `path` as a build key: the hash of its bytes; *bzimage
 * (when not NULL) says whether it looks like one. 0, or -1 after error()
 * (missing, unreadable, too large).
 */
int prebuilt_image_key(const char *path, char key[41], int *bzimage);

/*
 * Answer a build request of `rev` in repository `repo` from `src`: out as
 * kbuild_image fills it, cached (make never runs), status BUILD_FAILED
 * with a message when the commit has no image, BUILD_SETUP_ERROR when the
 * repository or revision is wrong. Returns 0 on BUILD_OK, else -1.
 */
int prebuilt_image(struct build_result *out, const struct prebuilt_source *src,
		   const char *repo, const char *rev);

#endif
