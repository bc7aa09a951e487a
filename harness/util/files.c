/*
 * files.c: the file helpers every module shares (see util.h): folders
 * made, files read with a limit and without following links, written
 * atomically or in place, copied and removed, paths compared, and the
 * cache folder.
 */
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void fsync_parent(const char *path)
{
	char *copy = xstrdup(path);
	int dfd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	free(copy);
}

/*
 * mkdir, and a folder it made named durably in its parent: a file
 * renamed into the folder and synced (write_file_atomic) is only as
 * durable as the folder's name. Without this a power cut could keep a
 * bisect state naming boots whose new commit folder was lost.
 */
static int make_dir(const char *path, mode_t mode)
{
	if (mkdir(path, mode))
		return -1;
	fsync_parent(path);
	return 0;
}

int mkdir_p(const char *path, mode_t mode)
{
	char *p = xstrdup(path);
	for (char *c = p + 1; *c; c++) {
		if (*c != '/')
			continue;
		*c = '\0';
		if (make_dir(p, mode) && errno != EEXIST) {
			int e = errno;
			*c = '/';
			free(p);
			return error("cannot create '%s': %s", path,
				     strerror(e));
		}
		*c = '/';
	}
	int rc = 0;
	if (make_dir(p, mode) && errno != EEXIST)
		rc = error("cannot create '%s': %s", path, strerror(errno));
	free(p);
	return rc;
}

/* "a directory", "a FIFO"...: what a path is when it is not a file. */
static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	return NULL;
}

static int refuse_kind(const char *path, mode_t mode)
{
	const char *kind = file_kind(mode);
	if (kind)
		return error("'%s' is %s, not a regular file", path, kind);
	return error("'%s' is not a regular file", path);
}

static int read_capped(const char *path, struct strbuf *out, size_t max,
		       int nofollow)
{
	struct stat st;
	size_t start = out->len, got = 0;
	int fd, ret = -1;

	/*
	 * Look before opening: opening a device can have effects of its own,
	 * and opening a FIFO waits for a writer.
	 */
	if ((nofollow ? lstat : stat)(path, &st))
		return error("cannot open '%s': %s", path, strerror(errno));
	if (S_ISLNK(st.st_mode))
		return error("not reading '%s': it is a symbolic link", path);
	if (!S_ISREG(st.st_mode))
		return refuse_kind(path, st.st_mode);
	/* O_NONBLOCK: should it have become a FIFO since, do not wait. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK |
				(nofollow ? O_NOFOLLOW : 0));
	if (fd < 0)
		return error("cannot open '%s': %s", path, strerror(errno));
	if (fstat(fd, &st)) {
		error("cannot stat '%s': %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		refuse_kind(path, st.st_mode);
		goto out;
	}
	if ((uint64_t)st.st_size > max)
		goto too_big;
	/* /proc files say 0 and have more: the cap holds while reading. */
	for (;;) {
		char buf[65536];
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			error("cannot read '%s': %s", path, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		if ((size_t)n > max - got)
			goto too_big;
		strbuf_add(out, buf, (size_t)n);
		got += (size_t)n;
	}
	ret = 0;
	goto out;
too_big:
	if (max >= 1 << 20)
		error("'%s' is larger than %zu MiB", path, max >> 20);
	else
		error("'%s' is larger than %zu bytes", path, max);
out:
	close(fd);
	if (ret) {
		/* Nothing half-read is left for the caller to trust. */
		out->len = start;
		if (out->alloc)
			out->buf[start] = '\0';
	}
	return ret;
}

int read_file_max(const char *path, struct strbuf *out, size_t max)
{
	return read_capped(path, out, max, 0);
}

int read_file_nofollow(const char *path, struct strbuf *out, size_t max)
{
	return read_capped(path, out, max, 1);
}

DIR *opendir_nofollow(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (fd >= 0 && !d)
		close(fd);
	return d;
}

int read_file(const char *path, struct strbuf *out)
{
	return read_file_max(path, out, READ_FILE_MAX);
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * A link where iobisect writes is someone else's plan for the write: it
 * is named and refused, never followed. 0 when `path` is no link (or not
 * there yet).
 */
static int refuse_link(const char *path)
{
	struct stat st;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode))
		return error("not writing '%s': it is a symbolic link", path);
	return 0;
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	/*
	 * The temporary name is new (O_EXCL, as mkstemp opens): a link or a
	 * file planted at a name we could be expected to use is never
	 * opened, so nothing outside is truncated or written.
	 */
	char *tmp = xstrfmt("%s.tmp.%ld.XXXXXX", path, (long)getpid());
	int fd = -1, e;

	if (refuse_link(path))
		goto fail_quiet;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		goto fail;
	if (fchmod(fd, 0644) || write_all(fd, data, len) || fsync(fd))
		goto fail_unlink;
	if (close(fd)) {
		fd = -1;
		goto fail_unlink;
	}
	fd = -1;
	if (rename(tmp, path))
		goto fail_unlink;
	free(tmp);
	fsync_parent(path);
	return 0;
fail_unlink:
	e = errno;
	unlink(tmp);
	errno = e;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	free(tmp);
	return error("cannot write '%s': %s", path, strerror(e));
fail_quiet:
	free(tmp);
	return -1;
}

int open_nofollow(const char *path, int flags, mode_t mode)
{
	struct stat st;
	int fd;

	/* Looked at first: a FIFO or a device is refused, never opened. */
	if (!lstat(path, &st) && !S_ISREG(st.st_mode))
		return S_ISLNK(st.st_mode)
			       ? error("not writing '%s': it is a symbolic "
				       "link",
				       path)
			       : refuse_kind(path, st.st_mode);
	fd = open(path, flags | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC | O_NONBLOCK,
		  mode);
	if (fd < 0 && errno == ELOOP)
		return error("not writing '%s': it is a symbolic link", path);
	if (fd < 0)
		return error("cannot open '%s': %s", path, strerror(errno));
	/* Non-blocking was for a FIFO's open only; a FIFO is refused. */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    fcntl(fd, F_SETFL, flags & O_APPEND)) {
		int e = errno;
		if (!fstat(fd, &st) && !S_ISREG(st.st_mode))
			refuse_kind(path, st.st_mode);
		else
			error("cannot open '%s': %s", path, strerror(e));
		close(fd);
		return -1;
	}
	return fd;
}

int mkdir_below(const char *root, const char *path, mode_t mode)
{
	size_t n = strlen(root);
	struct stat st;
	char *p;
	int ret = 0;

	while (n > 0 && root[n - 1] == '/')
		n--;
	if (strncmp(path, root, n) || (path[n] && path[n] != '/'))
		return error("'%s' is not inside '%s'", path, root);
	if (mkdir_p(root, mode))
		return -1;
	p = xstrdup(path);
	/* Below the root, each folder is made or found, never followed. */
	for (char *c = p + n; *c && !ret;) {
		while (*c == '/')
			c++;
		if (!*c)
			break;
		c += strcspn(c, "/");
		char save = *c;
		*c = '\0';
		if (make_dir(p, mode) && errno != EEXIST)
			ret = error("cannot create '%s': %s", p,
				    strerror(errno));
		else if (lstat(p, &st))
			ret = error("cannot create '%s': %s", p,
				    strerror(errno));
		else if (S_ISLNK(st.st_mode))
			ret = error("not writing through '%s': it is a "
				    "symbolic link",
				    p);
		else if (!S_ISDIR(st.st_mode))
			ret = error("cannot create '%s': '%s' is not a folder",
				    path, p);
		*c = save;
	}
	free(p);
	return ret;
}

/* Write into what is at `path` (a device, a FIFO), without replacing it. */
static int write_in_place(const char *path, const void *data, size_t len,
			  int create)
{
	struct stat st;
	int flags = O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK;
	int fd = open(path, flags | (create ? O_CREAT | O_TRUNC : 0), 0644);

	/* A reader started along with us gets two seconds to open its end. */
	for (int i = 0; i < 40 && fd < 0 && errno == ENXIO; i++) {
		struct timespec ts = { 0, 50 * 1000000 };
		nanosleep(&ts, NULL);
		fd = open(path, flags, 0644);
	}
	if (fd < 0 && errno == ENXIO)
		return error("cannot write '%s': it is a FIFO nobody reads",
			     path);
	if (fd < 0)
		return error("cannot write '%s': %s", path, strerror(errno));
	/* Non-blocking was for the open only: a slow reader is waited for. */
	if (fstat(fd, &st) || fcntl(fd, F_SETFL, O_WRONLY) ||
	    (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode) &&
	     !S_ISFIFO(st.st_mode))) {
		close(fd);
		return error("not writing '%s': it changed while being opened",
			     path);
	}
	if (write_all(fd, data, len)) {
		int e = errno;
		close(fd);
		return error("cannot write '%s': %s", path, strerror(e));
	}
	if (close(fd))
		return error("cannot write '%s': %s", path, strerror(errno));
	return 0;
}

int write_output_file(const char *path, const void *data, size_t len)
{
	struct stat st;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return write_file_atomic(path, data, len);
		return error("cannot write '%s': %s", path, strerror(errno));
	}
	if (S_ISLNK(st.st_mode)) {
		char *target = realpath(path, NULL);
		int ret;
		/* A link to nothing yet: creating its target is what '>' does. */
		if (!target && errno == ENOENT)
			return write_in_place(path, data, len, 1);
		if (!target || stat(target, &st)) {
			free(target);
			return error("cannot write '%s': %s", path,
				     strerror(errno));
		}
		if (S_ISREG(st.st_mode)) {
			ret = access(target, W_OK)
				      ? error("cannot write '%s': %s", path,
					      strerror(errno))
				      : write_file_atomic(target, data, len);
			free(target);
			return ret;
		}
		free(target);
	} else if (S_ISREG(st.st_mode)) {
		/* The rename would replace a file its mode says not to touch. */
		if (access(path, W_OK))
			return error("cannot write '%s': %s", path,
				     strerror(errno));
		return write_file_atomic(path, data, len);
	}
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		return write_in_place(path, data, len, 0);
	return error("not writing '%s': it is %s", path,
		     file_kind(st.st_mode) ? file_kind(st.st_mode)
					   : "not a regular file");
}

int copy_file(const char *from, const char *to, mode_t mode)
{
	struct strbuf sb = STRBUF_INIT;
	if (read_file(from, &sb))
		return -1;
	int rc = write_file_atomic(to, sb.buf, sb.len);
	if (!rc)
		chmod(to, mode);
	strbuf_release(&sb);
	return rc;
}

int link_tree(const char *from, const char *to)
{
	DIR *d = opendir(from);
	struct dirent *e;
	int ret = 0;

	if (!d)
		return errno == ENOENT ? 0
				       : error("cannot open '%s': %s", from,
					       strerror(errno));
	if (mkdir_p(to, 0755)) {
		closedir(d);
		return -1;
	}
	while (!ret && (e = readdir(d))) {
		char *f, *t;
		struct stat st;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		f = xstrfmt("%s/%s", from, e->d_name);
		t = xstrfmt("%s/%s", to, e->d_name);
		if (stat(f, &st))
			ret = error("cannot stat '%s': %s", f, strerror(errno));
		else if (S_ISDIR(st.st_mode))
			ret = link_tree(f, t);
		else if (S_ISREG(st.st_mode) && !file_exists(t) && link(f, t) &&
			 copy_file(f, t, st.st_mode & 07777))
			ret = -1;
		free(f);
		free(t);
	}
	closedir(d);
	return ret;
}

int files_same(const char *a, const char *b)
{
	struct stat sa, sb;
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	int same = -1;

	if (stat(a, &sa) || stat(b, &sb))
		return -1;
	/* Most images that differ differ in size: no read at all. */
	if (sa.st_size != sb.st_size)
		return 0;
	if (!read_file(a, &x) && !read_file(b, &y))
		same = x.len == y.len && !memcmp(x.buf, y.buf, x.len);
	strbuf_release(&x);
	strbuf_release(&y);
	return same;
}

int file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

int remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *de;
	int rc = 0;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *child = xstrfmt("%s/%s", path, de->d_name);
		rc |= remove_tree(child);
		free(child);
	}
	closedir(d);
	return rc | rmdir(path);
}

/*
 * Where `path` lands once every symbolic link is followed: its own real
 * path when it exists, else its folder's with its name appended. NULL
 * when the folder does not exist either.
 */
static char *landing_path(const char *path)
{
	char *real = realpath(path, NULL), *copy, *dir;
	const char *slash;

	if (real)
		return real;
	slash = strrchr(path, '/');
	copy = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
	dir = realpath(*copy ? copy : "/", NULL);
	free(copy);
	if (!dir)
		return NULL;
	real = xstrfmt("%s/%s", strcmp(dir, "/") ? dir : "",
		       slash ? slash + 1 : path);
	free(dir);
	return real;
}

int path_inside(const char *path, const char *dir)
{
	char *p = landing_path(path), *d = realpath(dir, NULL);
	size_t n = d ? strlen(d) : 0;
	int inside = p && d &&
		     (!strcmp(d, "/") ||
		      (!strncmp(p, d, n) && (p[n] == '/' || !p[n])));
	free(p);
	free(d);
	return inside;
}

int same_file_path(const char *a, const char *b)
{
	char *pa = landing_path(a), *pb = landing_path(b);
	int same = pa && pb ? !strcmp(pa, pb) : !strcmp(a, b);
	free(pa);
	free(pb);
	return same;
}

char *absolute_path(const char *path)
{
	if (path[0] == '/')
		return xstrdup(path);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	return xstrfmt("%s/%s", cwd, path);
}

static char *cache_path;
static int cache_checked; /* 1 checked and fine, -1 refused */

/*
 * The folder the caches go under. XDG_CACHE_HOME counts only when it is
 * an absolute path, as the XDG spec says (a relative one would put the
 * cache in whatever folder the run starts in: a kernel tree under `git
 * bisect run`). Without it or HOME there is no folder that is the user's
 * own, and a shared one (/tmp) could be anyone's: refused.
 */
int cache_dir_check(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	struct stat st;

	if (cache_checked)
		return cache_checked > 0 ? 0 : -1;
	cache_checked = -1;
	free(cache_path);
	if (xdg && xdg[0] == '/')
		cache_path = xstrfmt("%s/iobisect", xdg);
	else if (home && home[0] == '/')
		cache_path = xstrfmt("%s/.cache/iobisect", home);
	else
		return error("no folder for the cache: set HOME or "
			     "XDG_CACHE_HOME (an absolute path)");
	if (mkdir_p(cache_path, 0755))
		return -1;
	/*
	 * A link there is followed only when this user made it: one that
	 * another user planted in a shared XDG_CACHE_HOME would take the
	 * spool and the images wherever they chose.
	 */
	if (lstat(cache_path, &st))
		return error("cannot use the cache folder '%s': %s",
			     cache_path, strerror(errno));
	if (S_ISLNK(st.st_mode) && st.st_uid != geteuid())
		return error("not using the cache folder '%s': it is a "
			     "symbolic link of uid %ld, not of this user",
			     cache_path, (long)st.st_uid);
	if (stat(cache_path, &st))
		return error("cannot use the cache folder '%s': %s",
			     cache_path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return error("cannot use the cache folder '%s': not a folder",
			     cache_path);
	/* Its pid files and images are trusted: no one else may write. */
	if (st.st_uid != geteuid())
		return error("not using the cache folder '%s': it belongs to "
			     "uid %ld, not to this user",
			     cache_path, (long)st.st_uid);
	if (st.st_mode & (S_IWOTH | S_IWGRP))
		return error("not using the cache folder '%s': %s may "
			     "write to it (mode %04o)",
			     cache_path,
			     st.st_mode & S_IWOTH ? "anyone" : "its group",
			     (unsigned)(st.st_mode & 07777));
	cache_checked = 1;
	return 0;
}

const char *cache_dir(void)
{
	/* The commands check first and stop with the reason; a path that
	 * comes here unchecked must not fall back to a shared folder. */
	if (cache_dir_check())
		die("no usable cache folder");
	return cache_path;
}
