/*
 * build_cost.c: a commit's build from the folders at hand, in objects
 * (build_cost.h).
 */
#include "build_cost.h"
#include "build_log.h"
#include "kbuild.h"
#include "objdir_last.h"
#include "util.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

int build_cost_init(struct build_cost *bc, struct repo *r, const char *imgdir)
{
	char *key = xstrfmt("%s/key.json", imgdir);
	json_error_t err;
	json_t *j = json_load_file(key, 0, &err);
	const char *config =
		j ? json_string_value(json_object_get(j, "config_hash")) : NULL;
	const char *toolchain =
		j ? json_string_value(json_object_get(j, "toolchain")) : NULL;
	int rc = 0;

	*bc = (struct build_cost)BUILD_COST_INIT;
	bc->repo = r;
	if (!config || strlen(config) != 40 || !toolchain)
		rc = error("'%s' names no configuration and toolchain", key);
	else if (!(bc->objdir = build_log_value(imgdir, "objdir")))
		rc = error("the build log of '%s' names no build folder",
			   imgdir);
	if (!rc) {
		memcpy(bc->config_hash, config, 41);
		bc->toolchain = xstrdup(toolchain);
	}
	json_decref(j);
	free(key);
	return rc;
}

void build_cost_release(struct build_cost *bc)
{
	for (size_t i = 0; i < bc->imgdirs.nr; i++)
		inputs_release(&bc->inputs[i]);
	free(bc->inputs);
	strvec_clear(&bc->imgdirs);
	free(bc->objdir);
	free(bc->toolchain);
	*bc = (struct build_cost)BUILD_COST_INIT;
}

struct tally {
	const struct kernel_inputs *in;
	long sum;
};

static int add_path(const char *path, void *arg)
{
	struct tally *t = arg;
	long n = inputs_objects(t->in, path);

	t->sum += n > 0 ? n : 0;
	/* Every object already: no path can add more. */
	return t->sum >= t->in->nr_objects;
}

long build_cost_diff(struct repo *r, const struct kernel_inputs *in,
		     const char *from, const char *to)
{
	struct tally t = {in, 0};

	if (in->nr_objects <= 0 ||
	    repo_diff_paths(r, from, to, add_path, &t) < 0)
		return -1;
	return t.sum < in->nr_objects ? t.sum : in->nr_objects;
}

/* The inputs of the image in `imgdir`, loaded once; NULL without counts. */
static const struct kernel_inputs *image_inputs(struct build_cost *bc,
						const char *imgdir)
{
	int at = strvec_index(&bc->imgdirs, imgdir);

	if (at < 0) {
		bc->inputs = xrealloc(bc->inputs, (bc->imgdirs.nr + 1) *
							  sizeof(*bc->inputs));
		bc->inputs[bc->imgdirs.nr] =
			(struct kernel_inputs)KERNEL_INPUTS_INIT;
		/* Not there, or not read: the folder is not counted. */
		if (inputs_load(&bc->inputs[bc->imgdirs.nr], imgdir))
			inputs_release(&bc->inputs[bc->imgdirs.nr]);
		strvec_push(&bc->imgdirs, imgdir);
		at = (int)bc->imgdirs.nr - 1;
	}
	return bc->inputs[at].nr_objects > 0 ? &bc->inputs[at] : NULL;
}

/* Whether the cache holds `commit`'s image, or its failure, already. */
static int cached(struct build_cost *bc, const char *commit)
{
	char tree[41], key[41];
	char *image, *failed;
	int hit;

	if (repo_tree_id(bc->repo, commit, tree))
		return 0;
	kbuild_key(tree, bc->config_hash, bc->toolchain, key);
	image = xstrfmt("%s/images/%s/bzImage", cache_dir(), key);
	failed = xstrfmt("%s/images/%s/failed", cache_dir(), key);
	hit = file_exists(image) || file_exists(failed);
	free(image);
	free(failed);
	return hit;
}

long build_cost_of(struct build_cost *bc, const char *commit, char **objdir)
{
	struct objdir_last *last = NULL;
	size_t nr;
	long best = -1;

	if (objdir)
		*objdir = NULL;
	if (cached(bc, commit))
		return 0;
	nr = objdir_last_siblings(bc->objdir, &last);
	for (size_t i = 0; i < nr; i++) {
		const struct kernel_inputs *in =
			image_inputs(bc, last[i].imgdir);
		long n = in ? build_cost_diff(bc->repo, in, last[i].commit,
					      commit)
			    : -1;
		/*
		 * A mix of two commits: an object is at one or the other,
		 * so what either differs in may be compiled again.
		 */
		if (n >= 0 && last[i].from[0]) {
			long m = build_cost_diff(bc->repo, in, last[i].from,
						 commit);
			n = m < 0		     ? -1
			    : n + m < in->nr_objects ? n + m
						     : in->nr_objects;
		}
		if (n >= 0 && (best < 0 || n < best)) {
			best = n;
			if (objdir) {
				free(*objdir);
				*objdir = xstrdup(last[i].objdir);
			}
		}
	}
	objdir_last_release(last, nr);
	return best;
}
