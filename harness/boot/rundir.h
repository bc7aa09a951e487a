/*
 * rundir.h: the folder a harness boots in. Each harness process has its
 * own, <results>/<job>/.run-<host>-<pid>, holding its disk images, logs
 * and the QEMU pid file, and a lock held for the process's life: boots of
 * two harnesses on one results folder (a `run` beside a `bisect`) never
 * touch each other's files or QEMU. A folder whose lock is free belongs to
 * a harness that is gone; the next harness on this host reaps the QEMU it
 * recorded there (run_reap_stale: by pid and start time, never by name)
 * and removes the folder.
 */
#ifndef IOBISECT_RUNDIR_H
#define IOBISECT_RUNDIR_H

struct rundir {
	char *path; /* <job_dir>/.run-<host>-<pid> */
	int lock_fd;
	/*
	 * The job folder and the results folder when this process made
	 * them (else NULL): removed on close when nothing was stored there,
	 * so a run that stopped before its first boot leaves no folder.
	 */
	char *made_job_dir, *made_root;
};
#define RUNDIR_INIT { NULL, -1, NULL, NULL }

/*
 * Make and lock this process's run folder under `job_dir` (a folder of
 * the results folder `root`, made as mkdir_below makes it), after reaping
 * what harnesses of this host that are gone left there. 0, or -1 after
 * error(); a symbolic link at the run folder's name is refused.
 */
int rundir_open(struct rundir *rd, const char *root, const char *job_dir);
/*
 * Remove the folder and drop the lock, and the job and results folders
 * it made if they are empty; fine on RUNDIR_INIT.
 */
void rundir_close(struct rundir *rd);
/* The folder's QEMU pid file (vm_boot writes it). */
char *rundir_pidfile(const char *run_dir);

#endif
