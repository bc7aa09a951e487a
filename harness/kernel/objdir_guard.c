/*
 * objdir_guard.c: cleaning after a make that was killed (objdir_guard.h).
 */
#include "objdir_guard.h"
#include "util.h"

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* In the folder, so it goes with the folder. */
#define GUARD_MARK ".iobisect-make-running"

/* nftw passes no payload: one walk at a time (the folder's lock is held). */
static struct {
	struct timespec since;
	const char *suffix;
	int remove;
	long n;
} walk;

static int newer(const struct stat *st)
{
	return st->st_mtim.tv_sec > walk.since.tv_sec ||
	       (st->st_mtim.tv_sec == walk.since.tv_sec &&
		st->st_mtim.tv_nsec >= walk.since.tv_nsec);
}

static int visit(const char *path, const struct stat *st, int type,
		 struct FTW *ftw)
{
	const char *name = path + ftw->base;
	size_t n = strlen(name), k = walk.suffix ? strlen(walk.suffix) : 0;

	if (type != FTW_F || !newer(st) || !strcmp(name, GUARD_MARK))
		return 0;
	if (walk.suffix && (n < k || strcmp(name + n - k, walk.suffix)))
		return 0;
	if (walk.remove && unlink(path) && errno != ENOENT)
		return error("cannot remove '%s': %s", path, strerror(errno));
	walk.n++;
	return 0;
}

long objdir_files_since(const char *dir, struct timespec since,
			const char *suffix, int remove)
{
	walk.since = since;
	walk.suffix = suffix;
	walk.remove = remove;
	walk.n = 0;
	if (nftw(dir, visit, 32, FTW_PHYS))
		return -1;
	return walk.n;
}

long objdir_guard_begin(const char *objdir)
{
	char *mark = xstrfmt("%s/" GUARD_MARK, objdir);
	struct stat st;
	long removed = 0;

	if (!stat(mark, &st)) {
		/* Whole seconds: a file the killed make wrote in the mark's
		   second, on a coarse file system, goes too. */
		struct timespec since = { st.st_mtim.tv_sec, 0 };
		removed = objdir_files_since(objdir, since, NULL, 1);
	}
	if (removed >= 0 && write_file_atomic(mark, "", 0))
		removed = -1;
	free(mark);
	return removed;
}

void objdir_guard_end(const char *objdir)
{
	char *mark = xstrfmt("%s/" GUARD_MARK, objdir);

	if (unlink(mark) && errno != ENOENT)
		warning("cannot remove '%s': %s", mark, strerror(errno));
	free(mark);
}
