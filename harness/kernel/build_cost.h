/*
 * build_cost.h: what building a commit costs from the build folders at
 * hand, in objects make compiles again. Each folder of the configuration
 * (every slot's, objdir_last.h) last built some commit; from that folder,
 * a commit costs the objects that read a file the two commits' trees
 * differ in (inputs_objects: a header 1,000 objects include costs 1,000,
 * a .c file 1, a Makefile, a Kconfig file or scripts/ every object); a
 * folder a build left half-way (objdir_last.h) what differs from either
 * of its two commits. The cost is the cheapest folder's; an image the
 * cache holds costs nothing.
 * When the build compiles through ccache (`ccache`), what ccache holds
 * costs nothing too: a commit costs the objects that every commit this
 * host has built for the configuration (the images the cache keeps, the
 * folders' marks) differs from it in (build_warm.h).
 * A bisection takes it to choose among split points near the middle
 * (bisect.h, bisect_next_split).
 */
#ifndef IOBISECT_BUILD_COST_H
#define IOBISECT_BUILD_COST_H

#include "build_warm.h"
#include "inputs.h"
#include "repo.h"

struct build_cost {
	struct repo *repo; /* not owned */
	char *objdir;	   /* one folder of the configuration; its siblings */
	char config_hash[41];
	char *toolchain; /* the toolchain's identity in build keys */
	/*
	 * Set by the caller: the build compiles through ccache
	 * (build_result's ccache), so every commit built before is warm.
	 */
	int ccache;
	char ref[41]; /* the image's commit: every diff is taken from it */
	char *imgdir; /* the image's folder: its objects number them all */
	/* Each commit's diff from ref, loaded once (NULL: not a commit here). */
	struct strvec delta_commits;
	struct warm_delta **deltas;
	size_t alloc_deltas;
	struct warm_images images; /* the cache's images, each read once */
	/* The folders' images' inputs, as loaded, by image folder. */
	struct strvec imgdirs;
	struct kernel_inputs *inputs;
	/*
	 * The costs said while the folders' marks read `marks`: a step asks
	 * again for its guesses, and a cost is a tree diff a folder.
	 */
	struct strbuf marks;
	struct strvec said;
	long *costs;
	size_t alloc_costs;
};
#define BUILD_COST_INIT                                                        \
	{                                                                      \
		NULL, NULL, {0}, NULL, 0, {0}, NULL, STRVEC_INIT, NULL, 0,     \
			WARM_IMAGES_INIT, STRVEC_INIT, NULL, STRBUF_INIT,      \
			STRVEC_INIT, NULL, 0                                   \
	}

/*
 * Set up from an image of the configuration (its folder in the cache:
 * build.log names its build folder, key.json its configuration and
 * toolchain, and its commit, which ccache's costs are diffs from). 0, or
 * -1 after error().
 */
int build_cost_init(struct build_cost *bc, struct repo *r, const char *imgdir);
void build_cost_release(struct build_cost *bc);

/*
 * The objects building `commit` compiles in the folder at hand that
 * makes it cheapest, 0 when its image (or its remembered failure) is in
 * the cache; *objdir (may be NULL) gets that folder (caller frees; NULL
 * for a cached image). -1 when no folder says what it last built with
 * the objects of its image counted (not known). With `ccache` set, the
 * objects no commit built before holds (build_warm_cost) where the
 * image's objects say which.
 */
long build_cost_of(struct build_cost *bc, const char *commit, char **objdir);

/*
 * The objects a change from `from` to `to` compiles again in a folder
 * whose image `in` lists: those that read a changed path, each once
 * (the union of inputs_object_bits; 1,064 for a change to sched.h and
 * 1,089 with slab.h and fs.h beside it, where a sum would say every
 * object), or every object for a path that decides what is built. An
 * image kept without which objects: the sum of the counts, at most every
 * object. -1 after error().
 */
long build_cost_diff(struct repo *r, const struct kernel_inputs *in,
		     const char *from, const char *to);

#endif
