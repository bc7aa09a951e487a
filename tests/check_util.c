/*
 * check_util.c: the shared helpers (util.c) and child processes (run.c):
 * strbuf growth, splitting, atomic writes, and that children are killed at
 * their timeout and leave nothing behind.
 */
#include "build_id.h"
#include "install_dirs.h"
#include "run.h"
#include "util.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/check_util.XXXXXX";

static void setup(void)
{
	strcpy(tmpdir, "/tmp/check_util.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	remove_tree(tmpdir);
}

/* Alive and not a zombie waiting for init to reap it. */
static int process_alive(long pid)
{
	char *path = xstrfmt("/proc/%ld/stat", pid);
	struct strbuf sb = STRBUF_INIT;
	int alive = 0;
	error_capture(&sb);
	if (!read_file(path, &sb)) {
		const char *state = strrchr(sb.buf, ')');
		alive = state && state[1] && state[2] != 'Z';
	}
	error_capture(NULL);
	strbuf_release(&sb);
	free(path);
	return alive;
}

/* Two files' bytes: the same, another size, the same size, one missing. */
START_TEST(files_same_compares_bytes)
{
	const char *texts[] = { "image-1\n", "image-1\n", "image-10\n",
				"image-2\n" };
	char *path[4];

	for (int i = 0; i < 4; i++) {
		path[i] = xstrfmt("%s/f%d", tmpdir, i);
		ck_assert_int_eq(write_file_atomic(path[i], texts[i],
						   strlen(texts[i])),
				 0);
	}
	ck_assert_int_eq(files_same(path[0], path[1]), 1);
	ck_assert_int_eq(files_same(path[0], path[2]), 0);
	ck_assert_int_eq(files_same(path[0], path[3]), 0);
	char *gone = xstrfmt("%s/gone", tmpdir);
	ck_assert_int_eq(files_same(path[0], gone), -1);
	free(gone);
	for (int i = 0; i < 4; i++)
		free(path[i]);
}
END_TEST

START_TEST(strbuf_grows_and_formats)
{
	struct strbuf sb = STRBUF_INIT;
	ck_assert_str_eq(sb.buf, "");
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%d,", i);
	ck_assert_uint_eq(sb.len, strlen(sb.buf));
	ck_assert(!strncmp(sb.buf, "0,1,2,", 6));
	ck_assert(strstr(sb.buf, "999,") == sb.buf + sb.len - 4);
	strbuf_reset(&sb);
	ck_assert_str_eq(sb.buf, "");
	strbuf_addstr(&sb, "  padded \n");
	strbuf_trim(&sb);
	ck_assert_str_eq(sb.buf, "padded");
	strbuf_release(&sb);
	ck_assert_ptr_eq(sb.buf, strbuf_empty);
}
END_TEST

static const struct {
	const char *in;
	size_t nr;
	const char *last;
} split_cases[] = {
	{ "base,virtio,md", 3, "md" },
	{ ",,a,,b,", 2, "b" },
	{ "", 0, NULL },
	{ "one", 1, "one" },
};

START_TEST(strvec_split_drops_empty)
{
	struct strvec sv = STRVEC_INIT;
	strvec_split(&sv, split_cases[_i].in, ',');
	ck_assert_uint_eq(sv.nr, split_cases[_i].nr);
	if (sv.nr)
		ck_assert_str_eq(sv.v[sv.nr - 1], split_cases[_i].last);
	strvec_clear(&sv);
}
END_TEST

/* An enum saved by its names, read back; a gap in the table has none. */
START_TEST(names_of_an_enum_both_ways)
{
	static const char *const names[] = {"zero", NULL, "two"};

	ck_assert_str_eq(name_of(names, 3, 0, "?"), "zero");
	ck_assert_str_eq(name_of(names, 3, 1, "?"), "?");
	ck_assert_str_eq(name_of(names, 3, 7, "?"), "?");
	ck_assert_str_eq(name_of(names, 3, (size_t)-1, "?"), "?");
	ck_assert_int_eq(name_index(names, 3, "two"), 2);
	ck_assert_int_eq(name_index(names, 3, "one"), -1);
	ck_assert_int_eq(name_index(names, 3, ""), -1);
}
END_TEST

START_TEST(atomic_write_replaces_whole)
{
	char *path = xstrfmt("%s/state.json", tmpdir);
	ck_assert_int_eq(write_file_atomic(path, "old", 3), 0);
	ck_assert_int_eq(write_file_atomic(path, "new content", 11), 0);
	struct strbuf sb = STRBUF_INIT;
	ck_assert_int_eq(read_file(path, &sb), 0);
	ck_assert_str_eq(sb.buf, "new content");
	/* No temporary file is left beside it. */
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	int files = 0;
	while ((e = readdir(d)))
		files += e->d_name[0] != '.';
	closedir(d);
	ck_assert_int_eq(files, 1);
	strbuf_release(&sb);
	free(path);
}
END_TEST

/*
 * fsync, noted: which folders were made durable, by path. A power cut
 * keeps what was fsynced; a file renamed into a folder whose own name
 * was never synced into its parent may vanish with the folder, while
 * the state naming it (synced) survives.
 */
static struct strvec synced = STRVEC_INIT;
static int note_syncs;

int fsync(int fd)
{
	char link[64], path[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (note_syncs && n > 0) {
		path[n] = '\0';
		strvec_push(&synced, path);
	}
	return (int)syscall(SYS_fsync, fd);
}

START_TEST(made_folders_are_durable_before_what_they_hold)
{
	char *root = xstrfmt("%s/results", tmpdir);
	char *deep = xstrfmt("%s/job/c0ffee/virtio-rawread", root);
	char *deeper = xstrfmt("%s/a/b", tmpdir);
	char *file = xstrfmt("%s/boot-1.json", deep);
	/* Each folder made, named in its parent on the disk. */
	const char *parents[] = {"", "/results", "/results/job",
				 "/results/job/c0ffee"};
	char *real = realpath(tmpdir, NULL);

	ck_assert_int_eq(mkdir_p(root, 0755), 0);
	strvec_clear(&synced);
	note_syncs = 1;
	ck_assert_int_eq(mkdir_below(root, deep, 0755), 0);
	ck_assert_int_eq(write_file_atomic(file, "{}", 2), 0);
	ck_assert_int_eq(mkdir_p(deeper, 0755), 0);
	note_syncs = 0;
	for (size_t i = 1; i < ARRAY_SIZE(parents); i++) {
		char *want = xstrfmt("%s%s", real, parents[i]);
		ck_assert_msg(strvec_index(&synced, want) >= 0,
			      "'%s' was not synced after a folder was made in it",
			      want);
		free(want);
	}
	/* mkdir_p's too: tmpdir got "a", and "a" got "b". */
	char *a = xstrfmt("%s/a", real);
	ck_assert_msg(strvec_index(&synced, real) >= 0 &&
			      strvec_index(&synced, a) >= 0,
		      "mkdir_p left a made folder's name unsynced");
	free(a);
	strvec_clear(&synced);
	free(real);
	free(root);
	free(deep);
	free(deeper);
	free(file);
}
END_TEST

/* A file outside the folders iobisect writes, holding "untouched". */
static char *victim(const char *name)
{
	char *dir = xstrfmt("%s/outside", tmpdir);
	char *path = xstrfmt("%s/%s", dir, name);
	ck_assert_int_eq(mkdir_p(dir, 0755), 0);
	ck_assert_int_eq(write_file_atomic(path, "untouched", 9), 0);
	free(dir);
	return path;
}

static void assert_untouched(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	ck_assert_int_eq(read_file(path, &sb), 0);
	ck_assert_str_eq(sb.buf, "untouched");
	strbuf_release(&sb);
}

/*
 * A link planted at the temporary name an atomic write used to take
 * (<file>.tmp.<pid>) had the file it points to overwritten; a link at the
 * name itself is refused by name, not replaced.
 */
START_TEST(atomic_write_never_follows_a_planted_link)
{
	char *v = victim("v"), *path = xstrfmt("%s/state.json", tmpdir);
	char *tmp = xstrfmt("%s.tmp.%ld", path, (long)getpid());
	char *link = xstrfmt("%s/report.txt", tmpdir);
	struct strbuf sb = STRBUF_INIT, msg = STRBUF_INIT;
	struct stat st;

	ck_assert_int_eq(symlink(v, tmp), 0);
	ck_assert_int_eq(write_file_atomic(path, "state", 5), 0);
	assert_untouched(v);
	ck_assert_int_eq(read_file(path, &sb), 0);
	ck_assert_str_eq(sb.buf, "state");
	ck_assert_int_eq(symlink(v, link), 0);
	error_capture(&msg);
	ck_assert_int_eq(write_file_atomic(link, "x", 1), -1);
	error_capture(NULL);
	ck_assert_msg(strstr(msg.buf, link) && strstr(msg.buf, "symbolic link"),
		      "got '%s'", msg.buf);
	assert_untouched(v);
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	strbuf_release(&sb);
	strbuf_release(&msg);
	free(link);
	free(tmp);
	free(path);
	free(v);
}
END_TEST

/*
 * Below its root, a folder walk makes or finds real folders: a link on
 * the way is named and nothing is made through it. The root is the
 * user's to put where they like, a link included.
 */
START_TEST(mkdir_below_refuses_a_linked_folder)
{
	char *root = xstrfmt("%s/results", tmpdir);
	char *out = xstrfmt("%s/outside", tmpdir);
	char *commit = xstrfmt("%s/job/aaaa", root);
	char *want = xstrfmt("%s/virtio-rawread/p", commit);
	char *alias = xstrfmt("%s/alias", tmpdir);
	char *via = xstrfmt("%s/job/bbbb/c", alias);
	struct strbuf msg = STRBUF_INIT;
	DIR *d;
	struct dirent *e;

	ck_assert_int_eq(mkdir_p(out, 0755), 0);
	ck_assert_int_eq(mkdir_below(root, root, 0755), 0);
	ck_assert_int_eq(mkdir_below(root, commit, 0755), 0);
	ck_assert_int_eq(rmdir(commit), 0);
	ck_assert_int_eq(symlink(out, commit), 0);
	error_capture(&msg);
	ck_assert_int_eq(mkdir_below(root, want, 0755), -1);
	error_capture(NULL);
	ck_assert_msg(strstr(msg.buf, commit) &&
			      strstr(msg.buf, "symbolic link"),
		      "got '%s'", msg.buf);
	d = opendir(out);
	while ((e = readdir(d)))
		ck_assert_msg(e->d_name[0] == '.', "made '%s'", e->d_name);
	closedir(d);
	ck_assert_int_eq(symlink(root, alias), 0);
	ck_assert_int_eq(mkdir_below(alias, via, 0755), 0);
	strbuf_release(&msg);
	free(via);
	free(alias);
	free(want);
	free(commit);
	free(out);
	free(root);
}
END_TEST

/* A lock or a log iobisect opens: a link or a FIFO costs one line. */
START_TEST(open_nofollow_refuses_links_and_fifos)
{
	char *v = victim("v"), *link = xstrfmt("%s/.lock", tmpdir);
	char *fifo = xstrfmt("%s/fifo", tmpdir);
	struct strbuf msg = STRBUF_INIT;

	ck_assert_int_eq(symlink(v, link), 0);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	error_capture(&msg);
	ck_assert_int_eq(open_nofollow(link, O_RDWR | O_CREAT, 0644), -1);
	ck_assert_int_eq(open_nofollow(fifo, O_WRONLY | O_CREAT, 0644), -1);
	error_capture(NULL);
	ck_assert_msg(strstr(msg.buf, link) &&
			      strstr(msg.buf, "symbolic link") &&
			      strstr(msg.buf, "is a FIFO"),
		      "got '%s'", msg.buf);
	assert_untouched(v);
	strbuf_release(&msg);
	free(fifo);
	free(link);
	free(v);
}
END_TEST

START_TEST(atomic_write_reports_unwritable)
{
	struct strbuf msg = STRBUF_INIT;
	error_capture(&msg);
	int rc = write_file_atomic("/nonexistent-dir/x.json", "x", 1);
	error_capture(NULL);
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(strstr(msg.buf, "/nonexistent-dir/x.json"),
		      "message names the file: %s", msg.buf);
	strbuf_release(&msg);
}
END_TEST

/*
 * A FIFO, a device or a folder where a file is expected is refused at
 * once (a FIFO used to wait for a writer, /dev/zero to eat all memory),
 * in one line naming it.
 */
START_TEST(read_file_refuses_what_is_not_a_file)
{
	const char *what[] = { "fifo", "/dev/zero", "/dev/null", "dir" };
	char *fifo = xstrfmt("%s/fifo", tmpdir), *dir = xstrfmt("%s/d", tmpdir);
	struct strbuf sb = STRBUF_INIT, msg = STRBUF_INIT;

#ifndef __SANITIZE_ADDRESS__
	/* Should /dev/zero be read, fail the test, not the machine. */
	struct rlimit lim = { (rlim_t)2 << 30, (rlim_t)2 << 30 };
	setrlimit(RLIMIT_AS, &lim);
#endif
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	for (size_t i = 0; i < ARRAY_SIZE(what); i++) {
		const char *path = !strcmp(what[i], "fifo") ? fifo
				   : !strcmp(what[i], "dir") ? dir
							     : what[i];
		strbuf_reset(&msg);
		strbuf_addstr(&sb, "kept");
		error_capture(&msg);
		int rc = read_file(path, &sb);
		error_capture(NULL);
		ck_assert_int_eq(rc, -1);
		ck_assert_msg(strstr(msg.buf, path) &&
				      strstr(msg.buf, "not a regular file") &&
				      !strchr(msg.buf, '\n'),
			      "%s: %s", path, msg.buf);
		ck_assert_str_eq(sb.buf, "kept");
		strbuf_reset(&sb);
	}
	strbuf_release(&sb);
	strbuf_release(&msg);
	free(fifo);
	free(dir);
}
END_TEST

/* The cap holds whatever the file says its size is, and keeps nothing. */
START_TEST(read_file_max_caps_the_size)
{
	char *path = xstrfmt("%s/big", tmpdir);
	struct strbuf sb = STRBUF_INIT, msg = STRBUF_INIT;

	ck_assert_int_eq(write_file_atomic(path, "0123456789", 10), 0);
	ck_assert_int_eq(read_file_max(path, &sb, 10), 0);
	ck_assert_str_eq(sb.buf, "0123456789");
	strbuf_reset(&sb);
	error_capture(&msg);
	ck_assert_int_eq(read_file_max(path, &sb, 9), -1);
	ck_assert_int_eq(read_file_max("/proc/self/status", &sb, 16), -1);
	error_capture(NULL);
	ck_assert_uint_eq(sb.len, 0);
	ck_assert_msg(strstr(msg.buf, "'/proc/self/status' is larger than 16 "
				      "bytes"),
		      "%s", msg.buf);
	ck_assert_int_eq(read_file_max("/proc/self/status", &sb, 1 << 20), 0);
	ck_assert_ptr_nonnull(strstr(sb.buf, "Pid:"));
	strbuf_release(&sb);
	strbuf_release(&msg);
	free(path);
}
END_TEST

/*
 * An output the user names: replaced atomically when it is a file (also
 * through a link, which stays a link), written in place when it is a
 * device or a FIFO, refused when it is a folder; a short write fails.
 */
START_TEST(output_file_is_replaced_only_when_a_file)
{
	char *file = xstrfmt("%s/target.html", tmpdir);
	char *link = xstrfmt("%s/link.html", tmpdir);
	char *fifo = xstrfmt("%s/fifo", tmpdir);
	char *dev = xstrfmt("%s/null", tmpdir);
	struct strbuf sb = STRBUF_INIT, msg = STRBUF_INIT;
	struct stat st;

	ck_assert_int_eq(write_output_file(file, "old", 3), 0);
	ck_assert_int_eq(symlink("target.html", link), 0);
	ck_assert_int_eq(write_output_file(link, "new", 3), 0);
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert_msg(S_ISLNK(st.st_mode), "the link was replaced");
	ck_assert_int_eq(read_file(file, &sb), 0);
	ck_assert_str_eq(sb.buf, "new");

	/* A copy of /dev/full when root: the machine's own is not a toy. */
	char *full = xstrfmt("%s/full", tmpdir);
	if (mknod(full, S_IFCHR | 0666, makedev(1, 7))) {
		free(full);
		full = xstrdup("/dev/full");
	}
	error_capture(&msg);
	ck_assert_int_eq(write_output_file(full, "x", 1), -1);
	ck_assert_int_eq(write_output_file(tmpdir, "x", 1), -1);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(write_output_file(fifo, "x", 1), -1);
	error_capture(NULL);
	ck_assert_msg(strstr(msg.buf, "cannot write '") &&
			      strstr(msg.buf, "No space left on device"),
		      "%s", msg.buf);
	ck_assert_int_eq(lstat(full, &st), 0);
	ck_assert_msg(S_ISCHR(st.st_mode), "'%s' was replaced", full);
	free(full);
	ck_assert_msg(strstr(msg.buf, "it is a directory"), "%s", msg.buf);
	ck_assert_msg(strstr(msg.buf, "nobody reads"), "%s", msg.buf);
	ck_assert_int_eq(lstat(fifo, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));

	/* With a reader, the FIFO gets the bytes and stays a FIFO. */
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		char buf[8] = "";
		struct timespec late = { 0, 200 * 1000000 };
		nanosleep(&late, NULL);
		int fd = open(fifo, O_RDONLY);
		ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));
		_exit(n == 5 && !memcmp(buf, "hello", 5) ? 0 : 1);
	}
	ck_assert_int_eq(write_output_file(fifo, "hello", 5), 0);
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(lstat(fifo, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));

	/* A device node (a copy of /dev/null: only root may make one). */
	if (mknod(dev, S_IFCHR | 0666, makedev(1, 3)) == 0) {
		ck_assert_int_eq(write_output_file(dev, "x", 1), 0);
		ck_assert_int_eq(lstat(dev, &st), 0);
		ck_assert_msg(S_ISCHR(st.st_mode), "the device was replaced");
	}
	strbuf_release(&sb);
	strbuf_release(&msg);
	free(file);
	free(link);
	free(fifo);
	free(dev);
}
END_TEST

START_TEST(mkdir_p_nested)
{
	char *p = xstrfmt("%s/a/b/c", tmpdir);
	ck_assert_int_eq(mkdir_p(p, 0755), 0);
	struct stat st;
	ck_assert_int_eq(stat(p, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	ck_assert_int_eq(mkdir_p(p, 0755), 0);
	free(p);
}
END_TEST

START_TEST(hash_is_git_blob_id)
{
	char hex[41];
	/* `printf hello | git hash-object --stdin` */
	hash_hex("hello", 5, hex);
	ck_assert_str_eq(hex, "b6fc4c620b67d95f953a5c1c1230aaab5db5a1b0");
}
END_TEST

START_TEST(run_captures_exit_and_output)
{
	char *out = xstrfmt("%s/out.log", tmpdir);
	const char *argv[] = { "sh", "-c", "echo hi; echo err >&2; exit 3",
			       NULL };
	struct run_opts o = RUN_OPTS_INIT;
	o.argv = argv;
	o.stdout_path = out;
	o.stderr_to_stdout = 1;
	ck_assert_int_eq(run_command(&o), 3);
	struct strbuf sb = STRBUF_INIT;
	read_file(out, &sb);
	ck_assert_str_eq(sb.buf, "hi\nerr\n");
	strbuf_release(&sb);
	free(out);
}
END_TEST

START_TEST(run_timeout_kills_whole_group)
{
	char *pidf = xstrfmt("%s/child.pid", tmpdir);
	/* The grandchild must die with the group, not be orphaned. */
	char *script = xstrfmt("sleep 30 & echo $! > %s; wait", pidf);
	const char *argv[] = { "sh", "-c", script, NULL };
	struct run_opts o = RUN_OPTS_INIT;
	o.argv = argv;
	o.timeout_ms = 300;
	uint64_t t0 = now_ns();
	ck_assert_int_eq(run_command(&o), RUN_TIMEOUT);
	ck_assert(now_ns() - t0 < 5000000000ull);
	struct strbuf sb = STRBUF_INIT;
	ck_assert_int_eq(read_file(pidf, &sb), 0);
	long pid = atol(sb.buf);
	ck_assert(pid > 1);
	usleep(100000);
	ck_assert_msg(!process_alive(pid), "grandchild %ld still alive", pid);
	strbuf_release(&sb);
	free(script);
	free(pidf);
}
END_TEST

/*
 * A harness killed by SIGKILL runs no handler: what its child started
 * (make's compilers, what a QEMU wrapper script runs) dies with it all
 * the same. The harness here is a fork of the test.
 */
START_TEST(run_group_dies_with_harness)
{
	char *pidf = xstrfmt("%s/grandchild.pid", tmpdir);
	char *script = xstrfmt("sleep 30 & echo $! > %s; wait", pidf);
	const char *argv[] = { "sh", "-c", script, NULL };
	struct strbuf sb = STRBUF_INIT;
	pid_t harness = fork();

	ck_assert(harness >= 0);
	if (harness == 0) {
		struct run_opts o = RUN_OPTS_INIT;
		o.argv = argv;
		if (run_start(&o) < 0)
			_exit(1);
		for (int i = 0; i < 250 && !file_exists(pidf); i++)
			usleep(20000);
		usleep(50000);
		raise(SIGKILL);
	}
	waitpid(harness, NULL, 0);
	ck_assert_int_eq(read_file(pidf, &sb), 0);
	long pid = atol(sb.buf);
	ck_assert(pid > 1);
	for (int i = 0; i < 100 && process_alive(pid); i++)
		usleep(20000);
	ck_assert_msg(!process_alive(pid), "grandchild %ld still alive", pid);
	strbuf_release(&sb);
	free(script);
	free(pidf);
}
END_TEST

/* The keeper of a child's group is reaped with it: no zombie is left. */
START_TEST(run_leaves_no_zombie)
{
	const char *argv[] = { "sh", "-c", "sleep 0.05", NULL };
	struct run_opts o = RUN_OPTS_INIT;
	int code = 0;
	o.argv = argv;

	ck_assert_int_eq(run_command(&o), 0);
	pid_t pid = run_start(&o);
	ck_assert(pid > 0);
	while (!run_poll(pid, &code))
		usleep(10000);
	ck_assert_int_eq(code, 0);
	pid = run_start(&o);
	ck_assert(pid > 0);
	run_kill(pid);
	errno = 0;
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
}
END_TEST

START_TEST(run_missing_program)
{
	const char *argv[] = { "no-such-program-iobisect", NULL };
	struct run_opts o = RUN_OPTS_INIT;
	o.argv = argv;
	struct strbuf msg = STRBUF_INIT;
	error_capture(&msg);
	int rc = run_command(&o);
	error_capture(NULL);
	ck_assert_int_eq(rc, RUN_SPAWN);
	ck_assert(strstr(msg.buf, "no-such-program-iobisect"));
	strbuf_release(&msg);
}
END_TEST

/* Write `pid` and `start` to `path` as run_start does. */
static void plant(const char *path, pid_t pid, unsigned long long start)
{
	char *text = xstrfmt("%ld %llu\n", (long)pid, start);
	ck_assert_int_eq(write_file_atomic(path, text, strlen(text)), 0);
	free(text);
}

START_TEST(reap_stale_kills_its_own_only)
{
	char *pidf = xstrfmt("%s/qemu.pid", tmpdir);
	char *other = xstrfmt("%s/other.pid", tmpdir);
	const char *argv[] = { "sleep", "37", NULL };
	unsigned long long start;
	struct run_opts o = RUN_OPTS_INIT;
	o.argv = argv;

	/* A process this pid file did not start: a name alike is nothing. */
	pid_t stranger = run_start(&o);
	ck_assert(stranger > 0);
	ck_assert_int_eq(run_start_time(stranger, &start), 0);
	plant(pidf, stranger, start);
	ck_assert_int_eq(run_reap_stale(pidf), 0);
	ck_assert_int_eq(kill(stranger, 0), 0);
	/* Nor one started with another pid file. */
	o.pidfile = other;
	pid_t pid = run_start(&o);
	ck_assert_int_eq(run_start_time(pid, &start), 0);
	plant(pidf, pid, start);
	ck_assert_int_eq(run_reap_stale(pidf), 0);
	ck_assert_int_eq(kill(pid, 0), 0);
	run_kill(pid);
	run_kill(stranger);

	/* Its own child, but the pid file says it started at another time
	 * (the pid was reused), or gives a pid alone (an older harness's). */
	o.pidfile = pidf;
	pid = run_start(&o);
	ck_assert_int_eq(run_start_time(pid, &start), 0);
	plant(pidf, pid, start + 1);
	ck_assert_int_eq(run_reap_stale(pidf), 0);
	char *bare = xstrfmt("%ld\n", (long)pid);
	ck_assert_int_eq(write_file_atomic(pidf, bare, strlen(bare)), 0);
	free(bare);
	ck_assert_int_eq(run_reap_stale(pidf), 0);
	ck_assert_int_eq(kill(pid, 0), 0);
	/* As run_start wrote it: killed, and the file gone. */
	plant(pidf, pid, start);
	ck_assert_int_eq(run_reap_stale(pidf), 1);
	ck_assert_int_eq(run_wait(pid, 2000), RUN_SIGNALED);
	ck_assert(!file_exists(pidf));
	free(pidf);
	free(other);
}
END_TEST

/* Bytes from elsewhere reach a terminal as text, on one line. */
START_TEST(safe_text_and_utf8)
{
	struct strbuf sb = STRBUF_INIT;
	const char raw[] = "ok \xc3\xa9 \x1b[31mred\n\xff\xc2\x9b.";

	strbuf_addsafe(&sb, raw, sizeof(raw) - 1);
	ck_assert_str_eq(sb.buf,
			 "ok \xc3\xa9 \\x1b[31mred\\x0a\\xff\\xc2\\x9b.");
	ck_assert(utf8_valid("plain \xc3\xa9 \xf0\x9f\x98\x80"));
	ck_assert(!utf8_valid("\xff"));
	ck_assert(!utf8_valid("\xc0\x80"));	  /* overlong */
	ck_assert(!utf8_valid("\xed\xa0\x80")); /* surrogate */
	ck_assert(!utf8_valid("\xf4\x90\x80\x80")); /* past U+10FFFF */
	ck_assert(!utf8_valid("\xe2\x82"));	  /* cut short */
	strbuf_release(&sb);
}
END_TEST

START_TEST(parse_decimal_takes_what_a_person_writes)
{
	const char *bad[] = { "", ".", "inf", "nan", "1e3", "0x10", " 1",
			      "1 ", "+1", "-1", "1.2.3", "1,5",
			      "1234567890123456" };
	double v;
	ck_assert_int_eq(parse_decimal("10", &v), 0);
	ck_assert(v == 10);
	ck_assert_int_eq(parse_decimal("2.5", &v), 0);
	ck_assert(v == 2.5);
	ck_assert_int_eq(parse_decimal(".5", &v), 0);
	ck_assert(v == 0.5);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		ck_assert_msg(parse_decimal(bad[i], &v) == -1, "'%s' taken",
			      bad[i]);
}
END_TEST

START_TEST(parse_long_strict)
{
	long v;
	ck_assert_int_eq(parse_long("42", &v), 0);
	ck_assert_int_eq(v, 42);
	ck_assert_int_eq(parse_long("4x", &v), -1);
	ck_assert_int_eq(parse_long("", &v), -1);
}
END_TEST

START_TEST(strvec_index_and_value)
{
	struct strvec sv = STRVEC_INIT;
	strvec_push(&sv, "size_mb=64");
	strvec_push(&sv, "size=1");
	strvec_push(&sv, "on");
	ck_assert_int_eq(strvec_index(&sv, "on"), 2);
	ck_assert_int_eq(strvec_index(&sv, "o"), -1);
	ck_assert_str_eq(strvec_value(&sv, "size_mb"), "64");
	ck_assert_str_eq(strvec_value(&sv, "size"), "1");
	ck_assert_ptr_null(strvec_value(&sv, "on"));
	ck_assert_ptr_null(strvec_value(&sv, "size_m"));
	strvec_clear(&sv);
}
END_TEST

/*
 * An installed program finds its data by the path from its bindir to its
 * datadir: one wrong ".." and `make install` ships a program that finds
 * nothing outside its build folder.
 */
START_TEST(relpath_between_install_folders)
{
	static const char *const cases[][3] = {
		{ "/usr/local/bin", "/usr/local/share/iobisect",
		  "../share/iobisect" },
		{ "/usr/bin", "/usr/libexec/iobisect", "../libexec/iobisect" },
		{ "/opt/x/bin", "/usr/share/iobisect",
		  "../../../usr/share/iobisect" },
		{ "/usr/bin/", "/usr/share/iobisect/", "../share/iobisect" },
		{ "/usr/bin", "/usr/bin", "." },
		{ "/usr/bin", "/usr/bin/sub", "sub" },
		{ "/usr/binx", "/usr/bin/y", "../bin/y" },
		{ "/", "/usr/share", "usr/share" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *rel = install_relpath(cases[i][0], cases[i][1]);
		ck_assert_msg(!strcmp(rel, cases[i][2]), "%s to %s: %s, not %s",
			      cases[i][0], cases[i][1], rel, cases[i][2]);
		free(rel);
	}
}
END_TEST

/*
 * `iobisect --version` names the guest by its build id: this test's own
 * binary has one (gcc asks the linker for it), and what is not an ELF
 * image, or is cut short, has none rather than a wrong one.
 */
START_TEST(build_id_read_from_elf_notes)
{
	struct strbuf id = STRBUF_INIT, exe = STRBUF_INIT;

	ck_assert_int_eq(read_file("/proc/self/exe", &exe), 0);
	ck_assert_int_eq(build_id_of_elf((unsigned char *)exe.buf, exe.len,
					 &id),
			 0);
	ck_assert_uint_ge(id.len, 16);
	ck_assert_uint_eq(strspn(id.buf, "0123456789abcdef"), id.len);
	strbuf_reset(&id);
	ck_assert_int_eq(build_id_of_elf((unsigned char *)exe.buf, 100, &id),
			 -1);
	ck_assert_int_eq(build_id_of_elf((const unsigned char *)"#!/bin/sh\n",
					 10, &id),
			 -1);
	ck_assert_uint_eq(id.len, 0);
	strbuf_release(&id);
	strbuf_release(&exe);
}
END_TEST

/*
 * FNV-1a's published values from its published basis, and a hash that
 * goes on is one hash.
 */
START_TEST(fnv1a_is_fnv1a)
{
	const uint64_t basis = 0xcbf29ce484222325ull;

	ck_assert_uint_eq(fnv1a(basis, "a", SIZE_MAX), 0xaf63dc4c8601ec8cull);
	ck_assert_uint_eq(fnv1a(basis, "foobar", SIZE_MAX),
			  0x85944171f73967e8ull);
	ck_assert_uint_eq(fnv1a(FNV1A_INIT, "", SIZE_MAX), FNV1A_INIT);
	ck_assert_uint_eq(fnv1a(fnv1a(FNV1A_INIT, "foo", SIZE_MAX), "bar", 3),
			  fnv1a(FNV1A_INIT, "foobarbaz", 6));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("util");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, strbuf_grows_and_formats);
	tcase_add_test(tc, files_same_compares_bytes);
	tcase_add_test(tc, relpath_between_install_folders);
	tcase_add_test(tc, build_id_read_from_elf_notes);
	tcase_add_test(tc, strvec_index_and_value);
	tcase_add_loop_test(tc, strvec_split_drops_empty, 0,
			    ARRAY_SIZE(split_cases));
	tcase_add_test(tc, names_of_an_enum_both_ways);
	tcase_add_test(tc, atomic_write_replaces_whole);
	tcase_add_test(tc, atomic_write_reports_unwritable);
	tcase_add_test(tc, atomic_write_never_follows_a_planted_link);
	tcase_add_test(tc, mkdir_below_refuses_a_linked_folder);
	tcase_add_test(tc, made_folders_are_durable_before_what_they_hold);
	tcase_add_test(tc, open_nofollow_refuses_links_and_fifos);
	tcase_add_test(tc, read_file_refuses_what_is_not_a_file);
	tcase_add_test(tc, read_file_max_caps_the_size);
	tcase_add_test(tc, output_file_is_replaced_only_when_a_file);
	tcase_add_test(tc, mkdir_p_nested);
	tcase_add_test(tc, hash_is_git_blob_id);
	tcase_add_test(tc, run_captures_exit_and_output);
	tcase_add_test(tc, run_timeout_kills_whole_group);
	tcase_add_test(tc, run_group_dies_with_harness);
	tcase_add_test(tc, run_leaves_no_zombie);
	tcase_add_test(tc, run_missing_program);
	tcase_add_test(tc, reap_stale_kills_its_own_only);
	tcase_add_test(tc, safe_text_and_utf8);
	tcase_add_test(tc, parse_decimal_takes_what_a_person_writes);
	tcase_add_test(tc, parse_long_strict);
	tcase_add_test(tc, fnv1a_is_fnv1a);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
