/*
 * objdir_guard.h: a build folder a killed make left behind. make writes
 * objects and their .cmd files in place (fixdep's output is not atomic),
 * so a make killed outright (the harness killed, a lane's group killed)
 * can leave a truncated kernel/.exit.o.cmd that fails every later build
 * in that folder ("unterminated call to function 'wildcard'", taken for
 * the commit's own error), or a truncated object newer than its source,
 * which make would link. A mark in the folder says a make is running;
 * found by the next build, every file written since it goes, so make
 * rebuilds those (from ccache, cheaply).
 */
#ifndef IOBISECT_OBJDIR_GUARD_H
#define IOBISECT_OBJDIR_GUARD_H

#include <time.h>

/*
 * Before make in `objdir` (its lock held): when a killed make's mark is
 * there, remove every file written since it; then mark. Returns how many
 * files were removed, or -1 after error().
 */
long objdir_guard_begin(const char *objdir);
/* After make returned, whatever it returned: the mark goes. */
void objdir_guard_end(const char *objdir);

/*
 * Regular files under `dir` written at or after `since` whose names end in
 * `suffix` (NULL: any): counted, and removed when `remove`.
 */
long objdir_files_since(const char *dir, struct timespec since,
			const char *suffix, int remove);

#endif
