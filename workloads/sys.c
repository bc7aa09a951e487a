/*
 * sys.c: system helpers for the guest (see sys.h). Nothing here sends
 * frames: callers know the stage and report.
 */
#include "sys.h"
#include "uapi.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int sys_read(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	int saved = errno;
	close(fd);
	if (n < 0) {
		errno = saved;
		return -1;
	}
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' ||
			 buf[n - 1] == '\t' || buf[n - 1] == '\0'))
		n--;
	buf[n] = '\0';
	return 0;
}

int sys_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(text);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, text, len);
	int saved = errno;
	close(fd);
	if (n != (ssize_t)len) {
		errno = n < 0 ? saved : EIO;
		return -1;
	}
	return 0;
}

int sys_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

int sys_mkdir_p(const char *path)
{
	char buf[256];
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

int sys_blk_node(const char *name, char *path, size_t size)
{
	char sys[256], dev[32];
	unsigned ma, mi;
	if (snprintf(path, size, "/dev/%s", name) >= (int)size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (sys_exists(path))
		return 0;
	snprintf(sys, sizeof(sys), "/sys/class/block/%s/dev", name);
	if (sys_read(sys, dev, sizeof(dev)) < 0)
		return -1;
	if (sscanf(dev, "%u:%u", &ma, &mi) != 2) {
		errno = EINVAL;
		return -1;
	}
	if (mknod(path, S_IFBLK | 0600, makedev(ma, mi)) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

int sys_blk_devt(const char *path, unsigned *major, unsigned *minor)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -1;
	if (!S_ISBLK(st.st_mode)) {
		errno = ENOTBLK;
		return -1;
	}
	*major = major(st.st_rdev);
	*minor = minor(st.st_rdev);
	return 0;
}

int sys_blk_name(const char *path, char *name, size_t size)
{
	struct stat st;
	char link[256], target[256];
	dev_t d;
	if (stat(path, &st) < 0)
		return -1;
	d = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(d),
		 minor(d));
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -1;
	target[n] = '\0';
	const char *base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (snprintf(name, size, "%s", base) >= (int)size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int sys_blk_in_flight(const char *path, unsigned long *n)
{
	struct stat st;
	char sysfs[64], buf[512];
	unsigned long f[9];
	dev_t d;
	if (stat(path, &st) < 0)
		return -1;
	d = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	snprintf(sysfs, sizeof(sysfs), "/sys/dev/block/%u:%u/stat", major(d),
		 minor(d));
	if (sys_read(sysfs, buf, sizeof(buf)) < 0)
		return -1;
	if (sscanf(buf, "%lu %lu %lu %lu %lu %lu %lu %lu %lu", &f[0], &f[1],
		   &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8]) != 9) {
		errno = EINVAL;
		return -1;
	}
	*n = f[8];
	return 0;
}

static int blk_ioctl(const char *path, unsigned long req, void *arg,
		     unsigned long val, int use_val)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc;
	if (fd < 0)
		return -1;
	rc = use_val ? ioctl(fd, req, val) : ioctl(fd, req, arg);
	int saved = errno;
	close(fd);
	errno = saved;
	return rc < 0 ? -1 : 0;
}

int sys_blk_size(const char *path, uint64_t *bytes)
{
	return blk_ioctl(path, BLKGETSIZE64, bytes, 0, 0);
}

int sys_blk_ro(const char *path, int *ro)
{
	int v = 0;
	if (blk_ioctl(path, BLKROGET, &v, 0, 0) < 0)
		return -1;
	*ro = v != 0;
	return 0;
}

int sys_max_sectors_get(const char *name, unsigned long *kb)
{
	char path[128], buf[32], *end;
	snprintf(path, sizeof(path), "/sys/block/%s/queue/max_sectors_kb",
		 name);
	if (sys_read(path, buf, sizeof(buf)) < 0)
		return -1;
	errno = 0;
	*kb = strtoul(buf, &end, 10);
	if (errno || end == buf || *end) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int sys_max_sectors_set(const char *name, unsigned long kb)
{
	char path[128], buf[32];
	snprintf(path, sizeof(path), "/sys/block/%s/queue/max_sectors_kb",
		 name);
	snprintf(buf, sizeof(buf), "%lu", kb);
	return sys_write(path, buf);
}

int sys_ra_get(const char *path, unsigned long *ra_kb)
{
	long sectors = 0;
	if (blk_ioctl(path, BLKRAGET, &sectors, 0, 0) < 0)
		return -1;
	*ra_kb = (unsigned long)sectors / 2;
	return 0;
}

int sys_ra_set(const char *path, unsigned long ra_kb)
{
	/* BLKRASET takes 512-byte sectors, by value. */
	return blk_ioctl(path, BLKRASET, NULL, ra_kb * 2, 1);
}

int sys_run(char *const argv[], int timeout_s)
{
	pid_t pid = fork();
	int status;
	if (pid < 0)
		return -1;
	if (pid == 0) {
		static char *const envp[] = {
			"PATH=/sbin:/bin:/usr/sbin:/usr/bin",
			"LD_LIBRARY_PATH=/lib:/usr/lib", NULL};
		execve(argv[0], argv, envp);
		dprintf(2, "iobisect-guest: cannot run '%s': %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	uint64_t deadline = sys_now_ns() + (uint64_t)timeout_s * 1000000000ull;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -1;
		if (sys_now_ns() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			errno = ETIMEDOUT;
			return -1;
		}
		struct timespec ts = {0, 20 * 1000000};
		nanosleep(&ts, NULL);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int sys_copy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);
	if (n >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(dst, src, n + 1);
	return 0;
}

uint64_t sys_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t sys_mem_total_kb(void)
{
	char buf[4096];
	unsigned long long kb = 0;
	if (sys_read("/proc/meminfo", buf, sizeof(buf)) < 0)
		return 0;
	const char *p = strstr(buf, "MemTotal:");
	if (p)
		sscanf(p + 9, "%llu", &kb);
	return kb;
}

int sys_drop_caches(const char *blkdev)
{
	sync();
	/* By hand on a host, leave the host's page cache alone. */
	if (getpid() != 1)
		return 0;
	if (sys_write("/proc/sys/vm/drop_caches", "3") == 0)
		return 0;
	if (errno != ENOENT || !blkdev)
		return -1;
	return blk_ioctl(blkdev, BLKFLSBUF, NULL, 0, 0);
}

int sys_kernel_older(const char *release, const char *floor)
{
	for (int i = 0; i < 3; i++) {
		char *a_end, *b_end;
		unsigned long a = strtoul(release, &a_end, 10);
		unsigned long b = strtoul(floor, &b_end, 10);
		if (a != b)
			return a < b;
		if (*b_end != '.')
			return 0;
		release = *a_end == '.' ? a_end + 1 : "0";
		floor = b_end + 1;
	}
	return 0;
}
