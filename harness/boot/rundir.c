/*
 * rundir.c: one run folder per harness process, and the reaping of those
 * whose harness is gone (see rundir.h).
 */
#include "rundir.h"
#include "run.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOCK_NAME "lock"

char *rundir_pidfile(const char *run_dir)
{
	return xstrfmt("%s/qemu.pid", run_dir);
}

/*
 * Lock `dir`'s lock file without waiting: the fd, -1 when another process
 * holds it (its harness lives), -2 when there is none to take (the folder
 * is not a run folder, or a symlink: left alone).
 */
static int lock_dir(const char *dir, int create)
{
	char *path = xstrfmt("%s/" LOCK_NAME, dir);
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW |
				    (create ? O_CREAT : 0),
		      0600);
	free(path);
	if (fd < 0)
		return -2;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * A run folder of this host whose harness is gone: its QEMU (if the pid
 * file still names it) is killed, and the folder removed. Folders of other
 * hosts are theirs to reap: a flock may not cross hosts.
 */
static void reap_one(const char *job_dir, const char *name)
{
	char *dir = xstrfmt("%s/%s", job_dir, name);
	struct stat st;
	int fd;

	if (lstat(dir, &st) || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid()) {
		free(dir);
		return;
	}
	fd = lock_dir(dir, 0);
	if (fd >= 0) {
		char *pidfile = rundir_pidfile(dir);
		if (run_reap_stale(pidfile))
			warning("killed a QEMU left running in '%s'", dir);
		free(pidfile);
		remove_tree(dir);
		close(fd);
	}
	free(dir);
}

static void reap_gone(const char *job_dir, const char *mine)
{
	char *prefix = xstrfmt(".run-%s-", host_name());
	DIR *d = opendir(job_dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, prefix, strlen(prefix)) &&
		    strcmp(e->d_name, mine))
			reap_one(job_dir, e->d_name);
	if (d)
		closedir(d);
	free(prefix);
}

int rundir_open(struct rundir *rd, const char *root, const char *job_dir)
{
	char *name = xstrfmt(".run-%s-%ld", host_name(), (long)getpid());
	struct stat st;
	int ret = -1, made;

	rd->lock_fd = -1;
	rd->path = NULL;
	rd->made_root = rd->made_job_dir = NULL;
	if (lstat(root, &st))
		rd->made_root = xstrdup(root);
	if (lstat(job_dir, &st))
		rd->made_job_dir = xstrdup(job_dir);
	if (mkdir_below(root, job_dir, 0755))
		goto out;
	reap_gone(job_dir, name);
	rd->path = xstrfmt("%s/%s", job_dir, name);
	/*
	 * A folder of this name is a gone harness's that had this pid
	 * (the host rebooted): its lock is free, and it is reaped as any.
	 */
	made = mkdir(rd->path, 0700) ? errno : 0;
	/* Another harness that made the job folder removed it, empty, on
	 * its way out (rundir_close): made again, once. */
	if (made == ENOENT && !mkdir_below(root, job_dir, 0755))
		made = mkdir(rd->path, 0700) ? errno : 0;
	if (made == EEXIST) {
		reap_one(job_dir, name);
		made = mkdir(rd->path, 0700) ? errno : 0;
	}
	/* A read-only results folder is said as such, not as a lost lock. */
	if (made && made != EEXIST) {
		error("cannot create the run folder '%s': %s", rd->path,
		      strerror(made));
		goto out;
	}
	/*
	 * A link planted at this name (the pid is easy to guess) would take
	 * the run's lock, logs and console to its target: refused.
	 */
	if (lstat(rd->path, &st)) {
		error("cannot create the run folder '%s': %s", rd->path,
		      strerror(errno));
		goto out;
	}
	if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid()) {
		error("not using the run folder '%s': it is %s", rd->path,
		      S_ISLNK(st.st_mode)	? "a symbolic link"
		      : !S_ISDIR(st.st_mode) ? "not a folder"
					     : "another user's");
		goto out;
	}
	rd->lock_fd = lock_dir(rd->path, 1);
	if (rd->lock_fd < 0) {
		error("cannot lock the run folder '%s': %s", rd->path,
		      strerror(errno));
		goto out;
	}
	run_claim_fd(rd->lock_fd);
	ret = 0;
out:
	free(name);
	if (ret) {
		free(rd->path);
		rd->path = NULL;
		rundir_close(rd);
	}
	return ret;
}

void rundir_close(struct rundir *rd)
{
	if (rd->path)
		remove_tree(rd->path);
	if (rd->lock_fd >= 0) {
		run_disclaim_fd(rd->lock_fd);
		close(rd->lock_fd);
	}
	free(rd->path);
	rd->path = NULL;
	rd->lock_fd = -1;
	/* rmdir: a folder another harness, or a boot, put anything in stays. */
	if (rd->made_job_dir && !rmdir(rd->made_job_dir) && rd->made_root)
		rmdir(rd->made_root);
	free(rd->made_job_dir);
	free(rd->made_root);
	rd->made_job_dir = rd->made_root = NULL;
}
