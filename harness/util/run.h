/*
 * run.h: starting and reaping the programs iobisect drives (make, QEMU,
 * the compiler). Every child runs in its own process group with
 * PR_SET_PDEATHSIG, and beside it in that group a keeper, a fork of the
 * harness that kills the whole group when the harness ends, however it
 * ends: what the child starts in turn dies with the harness too. The
 * harness remembers the groups it started and kills them on the signals
 * it catches (run_install_signal_handlers). A group's pid is
 * written to a pid file when asked, so a resumed run can reap what a
 * SIGKILLed one left behind.
 */
#ifndef IOBISECT_RUN_H
#define IOBISECT_RUN_H

#include <sys/types.h>

struct run_opts {
	const char *const *argv; /* argv[0] is looked up in PATH */
	const char *const *env;  /* extra "NAME=value" entries, or NULL */
	const char *cwd;         /* NULL: the harness's own */
	const char *stdin_path;  /* NULL: /dev/null */
	const char *stdout_path; /* NULL: inherit; output is appended */
	int stderr_to_stdout;    /* send stderr where stdout goes */
	const char *pidfile;     /* when set, holds the child's pid and start
				    time while alive (run_reap_stale) */
	int timeout_ms;          /* 0: none; past it the group is killed */
	/*
	 * Called in the child just before exec (a chroot's mounts, see
	 * toolenv.c): 0, or -1 with errno set, and the child does not run.
	 */
	int (*setup)(void *payload);
	void *payload;
};
#define RUN_OPTS_INIT { 0 }

/* Exit status of run_command beyond the child's own. */
enum run_status {
	RUN_TIMEOUT = -2,  /* killed at the timeout */
	RUN_SPAWN = -3,    /* could not be started (not found, not executable) */
	RUN_SIGNALED = -4, /* died of a signal */
};

/*
 * Run to completion. Returns the child's exit code (0..255), or one of
 * enum run_status; an interrupt of the harness kills the child and makes
 * the harness exit (see run_interrupted).
 */
int run_command(const struct run_opts *opts);

/* Start without waiting; returns the pid (also the process group) or -1. */
pid_t run_start(const struct run_opts *opts);
/*
 * Wait for `pid`, killing its group after timeout_ms (0: no timeout).
 * Returns as run_command does.
 */
int run_wait(pid_t pid, int timeout_ms);
/*
 * Fork the harness itself, for work done in a child (a build beside a
 * boot): the child gets its own process group, gets SIGTERM when the
 * harness dies (its handler then kills what it started, whole groups),
 * and kills only what it starts; the parent's signal handler kills its
 * group like any child's. Returns the pid in the parent, 0 in the child
 * (which must end with _exit), -1 after error().
 */
pid_t run_fork(void);
/*
 * `fd` is a claim of this harness's own: the results folder's lock, a
 * disk passed through. A flock and an exclusive open belong to the open
 * file, which fork shares, so a build forked beside a boot would keep the
 * claim alive after a SIGKILLed harness and turn its rerun away. A child
 * of run_fork closes every fd named here before anything else;
 * run_disclaim_fd forgets one again (call it before closing the fd).
 */
void run_claim_fd(int fd);
void run_disclaim_fd(int fd);
/*
 * Has `pid` ended? 1 with *code as run_wait gives it (the child reaped,
 * what its group still holds killed), 0 while it runs. Never blocks.
 */
int run_poll(pid_t pid, int *code);
/* SIGTERM then SIGKILL the group of `pid`, and reap it. */
void run_kill(pid_t pid);

/*
 * Install SIGINT/SIGTERM/SIGHUP/SIGQUIT/SIGUSR1/SIGUSR2/SIGALRM handlers
 * that kill every running child group and set a flag the long loops poll.
 * Safe to call more than once.
 */
void run_install_signal_handlers(void);
/* Nonzero after one of those signals: stop at the next safe point. */
int run_interrupted(void);
/* Wait `ms` (a backoff, a poll), cut short by SIGINT or SIGTERM. */
void run_sleep_ms(long ms);

/*
 * Kill a process left by an earlier, killed harness whose pid and start
 * time run_start wrote to `pidfile`: only if a process of that pid runs,
 * started at that time, with this pid file's mark in its environment
 * (never by its name). Removes the pid file. Returns 1 when something
 * was reaped.
 */
int run_reap_stale(const char *pidfile);
/* The start time of `pid` (clock ticks since boot, /proc/PID/stat). */
int run_start_time(pid_t pid, unsigned long long *ticks);

/* Full path of `prog` if found in PATH (or as given, if it has a '/'). */
char *run_which(const char *prog);
/*
 * A host tool by name, looked for in the system's folders whatever the
 * harness's PATH is; NULL when none is executable. Caller frees.
 */
char *run_find_tool(const char *tool);

#endif
