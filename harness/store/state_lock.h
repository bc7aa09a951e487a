/*
 * state_lock.h: the lock that keeps two runs (a bisection, a sweep, a
 * `run`) out of one results folder's state.
 */
#ifndef IOBISECT_STATE_LOCK_H
#define IOBISECT_STATE_LOCK_H

/*
 * The results folder lock: flock() on <dir>/.lock (`dir` a folder under
 * the results folder `root`, made as mkdir_below makes it; a link at
 * .lock or on the way is refused), held until
 * state_unlock or exit, with the holder's pid written into the file.
 * Returns 0 when taken, -1 after an error. When another process holds it:
 * -2 after "'<dir>' is in use by pid N".
 */
struct state_lock {
	int fd;
};
#define STATE_LOCK_INIT { -1 }
int state_lock(struct state_lock *l, const char *root, const char *dir);
void state_unlock(struct state_lock *l);

#endif
