/*
 * state_lock.c: the results folder lock (state_lock.h): flock() on
 * <dir>/.lock, with the holder's pid and host written into the file so a
 * refusal can say who holds it.
 */
#include "state_lock.h"
#include "run.h"
#include "store_file.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/*
 * The owner a lock file names ("pid host"; older runs wrote the pid
 * alone): *holder 0 and host "" when it names none.
 */
static void lock_owner(const char *path, long *holder, struct strbuf *host)
{
	struct strbuf sb = STRBUF_INIT;

	*holder = 0;
	strbuf_reset(host);
	if (store_file_read(path, &sb, 4096))
		return;
	strbuf_trim(&sb);
	char *sp = strchr(sb.buf, ' ');
	if (sp) {
		*sp++ = '\0';
		strbuf_addstr(host, sp);
	}
	if (parse_long(sb.buf, holder) || *holder < 0)
		*holder = 0;
	strbuf_release(&sb);
}

/*
 * After the flock is ours: does the lock file still name a run of
 * another host, whose flock we may not see? A run that ends clears it;
 * one killed on this host left its flock with its life, so the name is
 * stale and taken over; one killed on another host needs the file
 * removed by hand, which the message says.
 */
static int held_elsewhere(const char *path, const char *dir, const char *me)
{
	struct strbuf host = STRBUF_INIT;
	long holder;
	int held = 0;

	lock_owner(path, &holder, &host);
	if (holder > 0 && host.len && strcmp(host.buf, me)) {
		held = 1;
		error("%s is in use by pid %ld on %s (if that run is gone, "
		      "remove '%s')",
		      dir, holder, host.buf, path);
	}
	strbuf_release(&host);
	return held;
}

/*
 * flock(LOCK_EX | LOCK_NB), but when the run the lock file names is a
 * process of this host that is gone, wait a little: a run killed with
 * SIGKILL leaves its flock to whatever shares the open file until that
 * ends too, a child caught between fork and exec, which dies with it a
 * moment later. Run again at once, the same command must resume, not
 * be refused in that moment. 0 with the lock, -1 with errno.
 */
static int flock_or_wait_for_the_dead(int fd, const char *path)
{
	struct strbuf host = STRBUF_INIT;
	long holder;
	int r;

	for (int tries = 0;; tries++) {
		r = flock(fd, LOCK_EX | LOCK_NB);
		if (!r || errno != EWOULDBLOCK || tries == 100)
			break;
		lock_owner(path, &holder, &host);
		if (holder <= 0 || strcmp(host.buf, host_name()) ||
		    !kill((pid_t)holder, 0) || errno != ESRCH) {
			errno = EWOULDBLOCK;
			break;
		}
		run_sleep_ms(50);
	}
	int e = errno;
	strbuf_release(&host);
	errno = e;
	return r;
}

int state_lock(struct state_lock *l, const char *root, const char *dir)
{
	struct strbuf path = STRBUF_INIT, pid = STRBUF_INIT;
	int fd, ret = -1;

	if (mkdir_below(root, dir, 0777))
		return -1;
	strbuf_addf(&path, "%s/.lock", dir);
	/* A link at .lock would have "pid host" written into its target. */
	fd = open_nofollow(path.buf, O_RDWR | O_CREAT, 0666);
	if (fd < 0)
		goto out;
	if (flock_or_wait_for_the_dead(fd, path.buf)) {
		long holder = 0;
		const char *host = NULL;
		if (errno != EWOULDBLOCK) {
			error("cannot lock '%s': %s", path.buf,
			      strerror(errno));
			close(fd);
			goto out;
		}
		lock_owner(path.buf, &holder, &pid);
		host = pid.len ? pid.buf : NULL;
		close(fd);
		if (holder > 0 && host)
			error("%s is in use by pid %ld on %s", dir, holder,
			      host);
		else if (holder > 0)
			error("%s is in use by pid %ld", dir, holder);
		else
			error("%s is in use by another iobisect", dir);
		ret = -2;
		goto out;
	}
	/*
	 * The flock keeps out every run of this host, and of others where
	 * the folder is on NFSv4, which carries it across hosts. Where it
	 * does not (NFSv3 without lockd, other shared file systems) the
	 * owner written below does: a run of another host that has not
	 * cleared it is taken to hold the folder still.
	 */
	if (held_elsewhere(path.buf, dir, host_name())) {
		close(fd);
		ret = -2;
		goto out;
	}
	strbuf_addf(&pid, "%ld %s\n", (long)getpid(), host_name());
	if (ftruncate(fd, 0) || pwrite(fd, pid.buf, pid.len, 0) < 0) {
		error("cannot write '%s': %s", path.buf, strerror(errno));
		close(fd);
		goto out;
	}
	l->fd = fd;
	run_claim_fd(fd);
	ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&pid);
	return ret;
}

void state_unlock(struct state_lock *l)
{
	if (l->fd >= 0) {
		/* No owner left behind: another host may take it now. */
		if (ftruncate(l->fd, 0))
			warning("cannot clear the results lock: %s",
				strerror(errno));
		run_disclaim_fd(l->fd);
		close(l->fd);
	}
	l->fd = -1;
}
