/*
 * objdir_last.h: what each build folder last built. A commit is cheapest
 * to build in the folder whose last build is nearest it (split points by
 * cost, build_cost.h), so kbuild marks a folder with the commit and the
 * image of its build once that image is in the cache. Before make runs
 * there again the mark says the folder is on its way from that commit to
 * the next one: while make runs, and after it failed or was stopped, the
 * folder holds a mix of the two (a guess built beside a boot is often
 * stopped once the run no longer needs it). A folder that was a mix when
 * another build began is not at hand until a build in it ends whole.
 */
#ifndef IOBISECT_OBJDIR_LAST_H
#define IOBISECT_OBJDIR_LAST_H

#include <stddef.h>

struct objdir_last {
	char *objdir;	 /* the build folder */
	char commit[41]; /* what it last built, or is on its way to */
	char *imgdir;	 /* its last whole build's image folder */
	/*
	 * "" when the folder holds commit's build whole; else the commit
	 * of that last whole build, and the folder a mix of the two.
	 */
	char from[41];
};

/* Mark `objdir` as holding the build of `commit` whole (image in imgdir). */
int objdir_last_write(const char *objdir, const char *commit,
		      const char *imgdir);
/*
 * make is about to build `commit` in `objdir`: a folder marked whole is
 * marked on its way from there, any other loses its mark.
 */
int objdir_last_begin(const char *objdir, const char *commit);
/* Take the mark away. */
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
