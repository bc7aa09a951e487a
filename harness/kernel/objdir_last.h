/*
 * objdir_last.h: what each build folder last built. A commit is cheapest
 * to build in the folder whose last build is nearest it (split points by
 * cost, build_cost.h), so kbuild marks a folder with the commit and the
 * image of its build once that image is in the cache, and takes the mark
 * away before make runs there again: a folder whose make failed or was
 * stopped holds a mix of two commits, and is not at hand.
 */
#ifndef IOBISECT_OBJDIR_LAST_H
#define IOBISECT_OBJDIR_LAST_H

#include <stddef.h>

struct objdir_last {
	char *objdir;	 /* the build folder */
	char commit[41]; /* what it last built */
	char *imgdir;	 /* that build's image folder in the cache */
};

/* Mark `objdir` as holding the build of `commit` (image in imgdir). */
int objdir_last_write(const char *objdir, const char *commit,
		      const char *imgdir);
/* Take the mark away (make is about to change the folder). */
int objdir_last_forget(const char *objdir);
/* The mark of `objdir` into *out: 1, 0 when it has none, -1 on error. */
int objdir_last_read(const char *objdir, struct objdir_last *out);

/*
 * The build folders beside `objdir` with a mark: the same configuration
 * in every slot of its tree (trees/<repo>/<slot>/obj/<config>, kbuild.c),
 * `objdir` itself included, in slot order. Returns how many are in *out
 * (objdir_last_release).
 */
size_t objdir_last_siblings(const char *objdir, struct objdir_last **out);
void objdir_last_release(struct objdir_last *l, size_t nr);

#endif
