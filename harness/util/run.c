/*
 * run.c: child processes that never outlive the harness (see run.h).
 */
#include "run.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CHILDREN 64
#define MAX_CLAIMS 16

static volatile sig_atomic_t interrupted;
static volatile pid_t children[MAX_CHILDREN];
/* The harness's claims (run_claim_fd), -1 when free; 0 is a valid fd. */
static int claims[MAX_CLAIMS] = { [0 ... MAX_CLAIMS - 1] = -1 };
/* Forked harnesses (run_fork): SIGTERM, so they kill what they started. */
static volatile sig_atomic_t gentle[MAX_CHILDREN];
/* The keeper of each child's group (keep_group), 0 for none. */
static pid_t keepers[MAX_CHILDREN];

/*
 * The signals that end the harness by default and that it catches to
 * stop as an interrupt: its children's groups killed, what was measured
 * kept. SIGQUIT too: a shell starts background jobs with it ignored, and
 * a harness that ignores it cannot be asked to stop that way. SIGUSR1,
 * SIGUSR2 and SIGALRM end a process at once unless caught: a harness
 * ended by one of them would stop as no other signal stops it.
 */
static const int stop_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
};

static void remember_as(pid_t pid, int soft, pid_t keeper)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (!children[i]) {
			gentle[i] = soft;
			keepers[i] = keeper;
			children[i] = pid;
			return;
		}
	/*
	 * Not in the table: the group is not killed on a signal, and its
	 * keeper, still watching, ends as a zombie nobody reaps.
	 */
}

/*
 * `pid` has ended, or is killed: kill what its group still holds and
 * reap its keeper, which that kill ended.
 */
static void forget(pid_t pid)
{
	kill(-pid, SIGKILL);
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i] == pid) {
			children[i] = 0;
			if (keepers[i] > 0) {
				kill(keepers[i], SIGKILL);
				waitpid(keepers[i], NULL, 0);
			}
			keepers[i] = 0;
		}
}

static void on_signal(int sig)
{
	interrupted = sig;
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i] > 0)
			kill(-children[i], gentle[i] ? SIGTERM : SIGKILL);
}

void run_install_signal_handlers(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		sigaction(stop_signals[i], &sa, NULL);
}

void run_sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) && errno == EINTR && !run_interrupted())
		;
}

int run_interrupted(void)
{
	return interrupted;
}

char *run_which(const char *prog)
{
	if (strchr(prog, '/'))
		return access(prog, X_OK) ? NULL : xstrdup(prog);
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	struct strvec dirs = STRVEC_INIT;
	strvec_split(&dirs, path, ':');
	char *found = NULL;
	for (size_t i = 0; i < dirs.nr && !found; i++) {
		char *cand = xstrfmt("%s/%s", dirs.v[i], prog);
		struct stat st;
		if (!stat(cand, &st) && S_ISREG(st.st_mode) &&
		    !access(cand, X_OK))
			found = cand;
		else
			free(cand);
	}
	strvec_clear(&dirs);
	return found;
}

/* Where host tools are looked up, whatever the harness's own PATH is. */
static const char *const tool_dirs[] = {
	"/usr/sbin", "/sbin",		"/usr/bin",
	"/bin",	     "/usr/local/sbin", "/usr/local/bin",
};

char *run_find_tool(const char *tool)
{
	for (size_t i = 0; i < ARRAY_SIZE(tool_dirs); i++) {
		char *cand = xstrfmt("%s/%s", tool_dirs[i], tool);
		if (!access(cand, X_OK))
			return cand;
		free(cand);
	}
	return NULL;
}

static char *pidfile_tag(const char *pidfile);

static void child_setup(const struct run_opts *o, pid_t parent)
{
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* A harness that died before the prctl sends no signal. */
	if (getppid() != parent)
		_exit(127);
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		signal(stop_signals[i], SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	int in = open(o->stdin_path ? o->stdin_path : "/dev/null", O_RDONLY);
	if (in >= 0) {
		dup2(in, 0);
		close(in);
	}
	if (o->stdout_path) {
		int out = open(o->stdout_path,
			       O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW,
			       0644);
		if (out < 0)
			_exit(127);
		dup2(out, 1);
		close(out);
	}
	if (o->stderr_to_stdout)
		dup2(1, 2);
	if (o->cwd && chdir(o->cwd))
		_exit(127);
	if (o->env)
		for (const char *const *e = o->env; *e; e++)
			putenv((char *)*e);
	if (o->pidfile)
		putenv(pidfile_tag(o->pidfile));
}

/*
 * The keeper of the group of `pid`, a child started just before: a fork
 * of the harness that joins that group and waits for the harness to end,
 * however it ends (SIGKILL included), to kill the whole group, itself
 * with it. PR_SET_PDEATHSIG kills the child alone; what the child starts
 * in turn (the compilers under make, a QEMU behind a wrapper script)
 * would run on. The keeper dies with its group whenever the harness
 * kills that group, and forget() reaps it. Returns its pid, or 0 if
 * none could be started (the child then has its PR_SET_PDEATHSIG alone).
 */
static pid_t keep_group(pid_t pid)
{
	pid_t parent = getpid(), keeper;
	sigset_t all, old;
	int sig;

	/* No handler of the harness's may run in the keeper. */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	keeper = fork();
	if (keeper) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (keeper < 0)
			return 0;
		setpgid(keeper, pid);
		return keeper;
	}
	/* The harness's claims (a lock, a disk) are not the keeper's. */
	if (close_range(0, ~0U, 0))
		for (int fd = 0; fd < 1024; fd++)
			close(fd);
	/*
	 * Forked by the harness's only thread, so the signal comes when the
	 * harness ends; every other signal waits, blocked, for SIGKILL.
	 */
	if (setpgid(0, pid) || prctl(PR_SET_PDEATHSIG, SIGHUP))
		_exit(1);
	sigemptyset(&all);
	sigaddset(&all, SIGHUP);
	while (getppid() == parent)
		sigwait(&all, &sig);
	kill(0, SIGKILL);
	_exit(0);
}

pid_t run_start(const struct run_opts *o)
{
	char *prog = run_which(o->argv[0]);
	if (!prog) {
		error("cannot run '%s': not found in PATH", o->argv[0]);
		return -1;
	}
	/* The exec failure pipe tells the parent the child never started. */
	int fds[2];
	if (pipe2(fds, O_CLOEXEC)) {
		free(prog);
		error("pipe: %s", strerror(errno));
		return -1;
	}
	pid_t parent = getpid(), pid = fork();
	if (pid < 0) {
		free(prog);
		close(fds[0]);
		close(fds[1]);
		error("fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		child_setup(o, parent);
		int e = 0;
		if (o->setup && o->setup(o->payload))
			e = errno ? errno : EPERM;
		else
			execv(prog, (char *const *)o->argv);
		e = e ? e : errno;
		if (write(fds[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	/* Set the group from both sides so a kill right away finds it. */
	setpgid(pid, pid);
	/* Kept from here: the child's setup (a chroot's mounts) included. */
	remember_as(pid, 0, keep_group(pid));
	close(fds[1]);
	int e = 0;
	ssize_t n;
	do
		n = read(fds[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	if (n == (ssize_t)sizeof(e)) {
		waitpid(pid, NULL, 0);
		forget(pid);
		error("cannot run '%s': %s", prog, strerror(e));
		free(prog);
		return -1;
	}
	free(prog);
	if (o->pidfile) {
		/* The start time tells this child from a later holder of
		 * its pid (run_reap_stale). */
		unsigned long long start = 0;
		char buf[64];
		run_start_time(pid, &start);
		int len = snprintf(buf, sizeof(buf), "%ld %llu\n", (long)pid,
				   start);
		write_file_atomic(o->pidfile, buf, (size_t)len);
	}
	return pid;
}

static int decode(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return RUN_SIGNALED;
}

int run_wait(pid_t pid, int timeout_ms)
{
	uint64_t deadline = timeout_ms ? now_ns() +
					(uint64_t)timeout_ms * 1000000ull
				       : 0;
	int status;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			forget(pid);
			return RUN_SIGNALED;
		}
		if (interrupted || (deadline && now_ns() > deadline)) {
			run_kill(pid);
			return interrupted ? RUN_SIGNALED : RUN_TIMEOUT;
		}
		struct timespec ts = { 0, 20 * 1000000 };
		nanosleep(&ts, NULL);
	}
	/* Anything the child left in its group goes with it. */
	forget(pid);
	return decode(status);
}

void run_kill(pid_t pid)
{
	kill(-pid, SIGTERM);
	for (int i = 0; i < 50; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid) {
			forget(pid);
			return;
		}
		struct timespec ts = { 0, 20 * 1000000 };
		nanosleep(&ts, NULL);
	}
	kill(-pid, SIGKILL);
	waitpid(pid, NULL, 0);
	forget(pid);
}

pid_t run_fork(void)
{
	pid_t pid, parent = getpid();

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		error("fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		/*
		 * The parent's other children are not this one's to kill: on
		 * a signal it kills only what it started itself, then exits.
		 */
		for (int i = 0; i < MAX_CHILDREN; i++) {
			children[i] = 0;
			keepers[i] = 0;
		}
		for (int i = 0; i < MAX_CLAIMS; i++)
			if (claims[i] >= 0) {
				close(claims[i]);
				claims[i] = -1;
			}
		setpgid(0, 0);
		/*
		 * SIGTERM, not SIGKILL, when the harness dies: the handler
		 * kills the groups this child started (a make and all its
		 * sub-makes), which a SIGKILL would leave running.
		 */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			raise(SIGTERM);
		return 0;
	}
	setpgid(pid, pid);
	remember_as(pid, 1, 0);
	return pid;
}

void run_claim_fd(int fd)
{
	for (int i = 0; i < MAX_CLAIMS; i++)
		if (claims[i] < 0) {
			claims[i] = fd;
			return;
		}
	die("more than %d claims held at once", MAX_CLAIMS);
}

void run_disclaim_fd(int fd)
{
	for (int i = 0; i < MAX_CLAIMS; i++)
		if (claims[i] == fd)
			claims[i] = -1;
}

int run_poll(pid_t pid, int *code)
{
	int status;
	pid_t r = waitpid(pid, &status, WNOHANG);

	if (r == 0)
		return 0;
	forget(pid);
	*code = r == pid ? decode(status) : RUN_SIGNALED;
	return 1;
}

int run_command(const struct run_opts *o)
{
	pid_t pid = run_start(o);
	if (pid < 0)
		return RUN_SPAWN;
	int rc = run_wait(pid, o->timeout_ms);
	if (o->pidfile)
		unlink(o->pidfile);
	return rc;
}

/*
 * Read a file that may well be gone (a /proc entry, a pid file): its
 * absence is an answer, not an error to print.
 */
static int read_quietly(const char *path, struct strbuf *out, size_t max)
{
	struct strbuf why = STRBUF_INIT;
	struct strbuf *prev = error_capture(&why);
	int rc = read_file_max(path, out, max);
	error_capture(prev);
	strbuf_release(&why);
	return rc;
}

int run_start_time(pid_t pid, unsigned long long *ticks)
{
	char *path = xstrfmt("/proc/%ld/stat", (long)pid);
	struct strbuf sb = STRBUF_INIT;
	int ret = -1;

	if (!read_quietly(path, &sb, 4096)) {
		/* The name may hold spaces and parentheses: count after the
		 * last ')'. starttime is field 22; the text there starts at
		 * field 3. */
		const char *p = strrchr(sb.buf, ')');
		for (int field = 2; p && field < 22; field++)
			p = strchr(p + 1, ' ');
		if (p && sscanf(p + 1, "%llu", ticks) == 1)
			ret = 0;
	}
	strbuf_release(&sb);
	free(path);
	return ret;
}

/* The environment entry that marks a child as started with `pidfile`. */
static char *pidfile_tag(const char *pidfile)
{
	char *abs = absolute_path(pidfile);
	char *tag = xstrfmt("IOBISECT_PIDFILE=%s", abs);
	free(abs);
	return tag;
}

/* Does the environment `pid` was started with hold `tag`? */
static int environ_has(pid_t pid, const char *tag)
{
	char *path = xstrfmt("/proc/%ld/environ", (long)pid);
	struct strbuf sb = STRBUF_INIT;
	int found = 0;

	if (!read_quietly(path, &sb, 1 << 20))
		for (size_t i = 0; i < sb.len; i += strlen(sb.buf + i) + 1)
			if (!strcmp(sb.buf + i, tag)) {
				found = 1;
				break;
			}
	strbuf_release(&sb);
	free(path);
	return found;
}

int run_reap_stale(const char *pidfile)
{
	struct strbuf sb = STRBUF_INIT;
	long pid;
	unsigned long long recorded, now;
	int reaped = 0;
	char *tag = pidfile_tag(pidfile);

	/*
	 * A pid alone names whatever runs under that number now: after a
	 * reboot, or planted, it is someone else's program. Only the process
	 * with the recorded start time, and the mark of this pid file in its
	 * environment, is the QEMU a harness started here.
	 */
	if (!read_quietly(pidfile, &sb, 256) &&
	    sscanf(sb.buf, "%ld %llu", &pid, &recorded) == 2 && pid > 1 &&
	    !run_start_time((pid_t)pid, &now) && now == recorded &&
	    environ_has((pid_t)pid, tag)) {
		kill(-(pid_t)pid, SIGKILL);
		kill((pid_t)pid, SIGKILL);
		reaped = 1;
	}
	strbuf_release(&sb);
	free(tag);
	unlink(pidfile);
	return reaped;
}
