/*
 * build_warm.h: what ccache holds, in commits. kbuild compiles through
 * ccache when the host has it (kbuild_tools.ccache), and ccache keeps the
 * objects of every commit this host has built for a configuration, long
 * after the build folder has moved on: an object costs a build of commit
 * c nothing when, for SOME commit b built before, none of the files it
 * reads differ between b and c (ccache hands it back). So c costs the
 * objects that every built commit differs in: the AND, over built b, of
 * the objects the change from b to c compiles again. Built commits are
 * the images the cache keeps for the configuration and toolchain (the
 * newest BUILD_WARM_MAX_IMAGES) and the build folders' marks (a folder a
 * build left half-way is a mix: what either of its commits differs in).
 *
 * Each commit's diff is taken once, from one reference commit (the bad
 * endpoint, every candidate's descendant): two commits differ in a path
 * where their diffs from it hold it apart (build_warm_differ), so a step
 * asks one tree diff a new commit, not one a built commit. The objects
 * are numbered by one image (the reference's objects file): object k of
 * one image is not object k of another.
 */
#ifndef IOBISECT_BUILD_WARM_H
#define IOBISECT_BUILD_WARM_H

#include "inputs.h"
#include "repo.h"

#include <time.h>

/*
 * Images whose commits count as built, the newest: a diff from the
 * reference each, once a run (2-40 ms on the fixture's kernel for a
 * commit near it, more for one far away; a cache of hundreds of images
 * would cost seconds before a step), and ccache drops the least recently
 * used objects first (max_size, 5 GB by default: a few dozen cold builds
 * of a configuration), so the oldest images are the least likely still
 * warm. A run's own builds are the newest, always counted.
 */
#define BUILD_WARM_MAX_IMAGES 32

/* Where a commit's tree differs from the reference commit's. */
struct warm_delta {
	char commit[41];
	struct strvec paths; /* sorted */
	struct strvec blobs; /* what the commit holds at each (repo_diff_blobs) */
};
#define WARM_DELTA_INIT { {0}, STRVEC_INIT, STRVEC_INIT }

/* A commit built (d[1] NULL), or a folder's mix of two: d[0] and d[1]. */
struct warm_built {
	const struct warm_delta *d[2];
};

/* commit's diff from `ref` into *d: 0, or -1 after error(). */
int warm_delta_load(struct warm_delta *d, struct repo *r, const char *ref,
		    const char *commit);
void warm_delta_release(struct warm_delta *d);

/*
 * Each path where the commits of `a` and `b` differ, to fn: a path in
 * one diff and not the other, or in both holding different blobs. Pure.
 */
void build_warm_differ(const struct warm_delta *a, const struct warm_delta *b,
		       void (*fn)(const char *path, void *arg), void *arg);

/*
 * The objects of `in` that every built state in built[nr] differs from
 * `c` in some input of (above), each once: what a build of c compiles
 * that ccache does not hold. -1 when `in` does not say which objects
 * read each input, or nr is 0. Pure.
 */
long build_warm_cost(const struct kernel_inputs *in, const struct warm_delta *c,
		     const struct warm_built *built, size_t nr);

/*
 * What an image's key.json says (kbuild writes it): its configuration,
 * its toolchain, its commit ("" when it names none), and when it was
 * written.
 */
struct image_key {
	char config_hash[41]; /* "" when not said */
	char *toolchain;      /* NULL when not said */
	char commit[41];
	time_t when;
};
#define IMAGE_KEY_INIT { {0}, NULL, {0}, 0 }
/* `dir`/key.json into *k: 0, or -1 (quietly) when it cannot be read. */
int image_key_read(const char *dir, struct image_key *k);
void image_key_release(struct image_key *k);

/* The image folders read so far: key.json is written last, then kept. */
struct warm_image {
	char commit[41]; /* "" for another configuration or toolchain */
	time_t when;	 /* key.json's time */
};
struct warm_images {
	struct strvec dirs; /* by name under images/ */
	struct warm_image *v;
	size_t alloc;
};
#define WARM_IMAGES_INIT { STRVEC_INIT, NULL, 0 }
void warm_images_release(struct warm_images *w);

/*
 * The commits of the images cache_dir() keeps for `config_hash` and
 * `toolchain` (key.json; a bzImage, not a remembered failure), newest
 * first (then by commit: the same cache, the same commits), at most
 * BUILD_WARM_MAX_IMAGES, into *out. Each folder's key.json is read once
 * (`seen`). Returns how many.
 */
size_t build_warm_images(struct warm_images *seen, const char *config_hash,
			 const char *toolchain, struct strvec *out);

#endif
