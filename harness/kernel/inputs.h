/*
 * inputs.h: the source files a kernel image of one configuration was
 * made from. Kbuild names them itself: every target in a build folder has
 * a `.<target>.cmd` file with the command that made it and, for objects,
 * every file the compiler read (fixdep's deps_ list), and Kconfig lists
 * the Kconfig files it read (include/config/auto.conf.cmd). A commit
 * that changes none of these, no Makefile or Kbuild of a folder make went
 * into, and nothing under scripts/ or the base configurations, builds the
 * same kernel as its parent: a bisection never needs to build it. Git
 * does this with the paths a person names (`git bisect start -- paths`);
 * here the build names them.
 *
 * Kept beside each image in the cache (kbuild.c writes them after a
 * build): a file `inputs`, one line each, relative to the tree's top: a
 * file; a folder make went into ("block/"); a tree whose every file
 * counts ("tools/objtool/" and "**": objtool is made by tools/'s own
 * build, whose .cmd files name no dependencies).
 *
 * And a file `objects` beside it, for what a change costs to build: the
 * number of objects (`.*.o.cmd` files that name a file of the tree) on
 * its first line, then "<objects>\t<path>\t<which>" for each input some
 * object read, <which> a bitset in hex (object k in bit k % 4 of digit
 * k / 4, trailing zeros left out): 0.7 MB for the virtio kernel's 1,207
 * objects and 3,257 such inputs. A header most objects include costs
 * most of a build, a .c file one object, two headers what either feeds.
 */
#ifndef IOBISECT_INPUTS_H
#define IOBISECT_INPUTS_H

#include "str_index.h"
#include "util.h"

#include <stdint.h>

#define INPUTS_FILE "inputs"
#define INPUTS_OBJECTS_FILE "objects"

struct kernel_inputs {
	struct strvec paths;   /* relative to the tree's top, each once */
	struct str_index index; /* into paths */
	/*
	 * Per path: how many objects read it (0: none, or not known);
	 * nr_objects: how many the folder compiled (0: not known).
	 */
	long *objects;
	size_t alloc_objects;
	long nr_objects;
	/*
	 * Which objects read each path: `words` words a path (bit k: object
	 * k), rows for `rows` paths; NULL when not known (a list of two
	 * images, or one kept without them).
	 */
	uint64_t *bits;
	size_t words, rows;
};
#define KERNEL_INPUTS_INIT                                                     \
	{ STRVEC_INIT, { NULL, NULL, 0, 0 }, NULL, 0, 0, NULL, 0, 0 }

void inputs_release(struct kernel_inputs *in);
/* Add one path (relative to the tree's top) unless it is there. */
void inputs_add(struct kernel_inputs *in, const char *path);

/*
 * The files under `srcdir` named by the `.*.cmd` files of the build
 * folder `objdir` (added to *in). Names that are not files of the tree
 * (folders, generated files in objdir, config symbols) are left out.
 * Returns how many .cmd files were read, or -1 after error().
 */
long inputs_collect(struct kernel_inputs *in, const char *objdir,
		    const char *srcdir);

/*
 * The same from the text of one .cmd file, where the tree is named by
 * `srcdir` or, relative to the build folder, by `from_objdir`
 * ("../../src"; NULL: never). Pure but for lstat.
 */
void inputs_scan_cmd(struct kernel_inputs *in, const char *text,
		     const char *srcdir, const char *from_objdir);
/*
 * The same for an object's .cmd file (".bio.o.cmd"): each file it names
 * counts one more object, and the object counts in nr_objects.
 */
void inputs_scan_object(struct kernel_inputs *in, const char *text,
			const char *srcdir, const char *from_objdir);

/* Collect objdir's inputs and write them into imgdir: 0, or -1. */
int inputs_keep(const char *objdir, const char *srcdir, const char *imgdir);

/*
 * Give a cached image made before inputs were kept its list, from the
 * build folder its build.log names while that folder still holds the
 * image (build_log.h). 1 when the list is there now, 0 when the folder
 * has built something else since, -1 after error().
 */
int inputs_adopt(const char *imgdir);

/*
 * Write `dir`/inputs, sorted, and `dir`/objects when the objects are
 * known. 0, or -1 after error().
 */
int inputs_write(const struct kernel_inputs *in, const char *dir);
/*
 * Read `dir`/inputs into *in: 0, 1 when there is none, -1 after error().
 * `dir`/objects too, when there is one; a second image's counts add as
 * the larger of the two. One that cannot be read leaves every count not
 * known (a warning), and the list as it is.
 */
int inputs_load(struct kernel_inputs *in, const char *dir);

/*
 * Whether a change to `path` (relative to the tree's top) can change the
 * image: a file in the set or under a whole tree of it, or one that
 * decides what is built and how (Makefile* and Kbuild* of a folder make
 * went into, scripts/ but those run by hand, the base configurations
 * under arch/<arch>/configs/ and kernel/configs/).
 */
int inputs_can_change(const struct kernel_inputs *in, const char *path);

/*
 * How many objects a change to `path` makes make compile again: 0 when
 * it cannot change the image, the objects that read it, or every object
 * (nr_objects) for what decides what is built and how (a Makefile, a
 * Kconfig file, scripts/, objtool) and for an input no object reads
 * itself (a script's table, whose generated header may feed any). -1
 * when the objects are not known (no `objects` file). A set of changed
 * paths costs at most the sum, capped at nr_objects: an upper bound, as
 * two headers often feed the same objects, but a cheap one (a lookup a
 * path) and exact for the commits that matter most, those that change
 * one header or a few .c files.
 */
long inputs_objects(const struct kernel_inputs *in, const char *path);

/*
 * The objects that read `path` (words `in->words`), NULL when they are
 * not known or no object reads it: inputs_objects says what it costs.
 * The union over a set of changed paths is what the set costs, exactly.
 */
const uint64_t *inputs_object_bits(const struct kernel_inputs *in,
				   const char *path);

/*
 * The objects a change to `path` compiles join which (in->words words):
 * 0, or 1 when that is every object (what decides what is built, or
 * objects the image does not say), which is then left as it was. A set
 * of changed paths, each joined, costs the popcount of which.
 */
int inputs_objects_join(const struct kernel_inputs *in, const char *path,
			uint64_t *which);

#endif
