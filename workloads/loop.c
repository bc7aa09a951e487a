/*
 * loop.c: a loop device over an earlier layer or over a file on a mounted
 * file system. method=ioctl takes a free device from /dev/loop-control
 * (LOOP_CTL_GET_FREE, 3.1+) or by trying loop0..7, and binds it with
 * LOOP_CONFIGURE (5.8+) or LOOP_SET_FD + LOOP_SET_STATUS64;
 * method=ioctl-setfd skips LOOP_CONFIGURE, so the fallback for kernels
 * before 5.8 can be tested on a new one; method=losetup runs a packed
 * losetup. Over a read-only layer the loop device is read-only too
 * (LO_FLAGS_READ_ONLY, a read-only backing fd, losetup -r).
 */
#include "kinds.h"
#include "report.h"
#include "sys.h"
#include "uapi.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Bind `backing` to /dev/loopN; 0, or -1 with errno (EBUSY: taken). */
static int loop_bind(int n, int backing, const char *file, struct layer *l,
		     int legacy, int ro)
{
	char name[16];
	snprintf(name, sizeof(name), "loop%d", n);
	if (sys_blk_node(name, l->path, sizeof(l->path)) < 0) {
		snprintf(l->path, sizeof(l->path), "/dev/%s", name);
		if (mknod(l->path, S_IFBLK | 0600, makedev(7, n)) < 0 &&
		    errno != EEXIST)
			return -1;
	}
	int fd = open(l->path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct loop_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (uint32_t)backing;
	snprintf((char *)cfg.info.lo_file_name, LO_NAME_SIZE, "%s", file);
	/*
	 * LOOP_CONFIGURE takes the flag; LOOP_SET_FD makes the device
	 * read-only by itself because the backing fd is not writable.
	 */
	if (ro)
		cfg.info.lo_flags |= LO_FLAGS_READ_ONLY;
	int rc = legacy ? -1 : ioctl(fd, LOOP_CONFIGURE, &cfg);
	const char *how = "LOOP_CONFIGURE";
	if (legacy || (rc < 0 && (errno == EINVAL || errno == ENOTTY))) {
		how = "LOOP_SET_FD";
		rc = ioctl(fd, LOOP_SET_FD, backing);
		if (rc == 0 && ioctl(fd, LOOP_SET_STATUS64, &cfg.info) < 0) {
			int saved = errno;
			ioctl(fd, LOOP_CLR_FD, 0);
			errno = saved;
			rc = -1;
		}
	}
	int saved = errno;
	close(fd);
	errno = saved;
	if (rc == 0) {
		snprintf(l->dev, sizeof(l->dev), "%s", name);
		snprintf(l->how, sizeof(l->how), "%s", how);
	}
	return rc;
}

static int loop_by_ioctl(struct layer *l, const char *file, int legacy, int ro)
{
	int backing = open(file, (ro ? O_RDONLY : O_RDWR) | O_CLOEXEC);
	int rc = -1;
	if (backing < 0)
		return report_error("loop", "cannot open '%s': %s", file,
				    strerror(errno));
	if (!sys_exists("/dev/loop-control"))
		mknod("/dev/loop-control", S_IFCHR | 0600, makedev(10, 237));
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl >= 0) {
		/* Another binder may win the race; ask again then. */
		for (int tries = 0; tries < 8 && rc < 0; tries++) {
			int n = ioctl(ctl, LOOP_CTL_GET_FREE);
			if (n < 0)
				break;
			rc = loop_bind(n, backing, file, l, legacy, ro);
			if (rc < 0 && errno != EBUSY)
				break;
		}
		close(ctl);
	} else {
		for (int n = 0; n < 8 && rc < 0; n++) {
			rc = loop_bind(n, backing, file, l, legacy, ro);
			if (rc < 0 && errno != EBUSY && errno != ENXIO)
				break;
		}
	}
	int saved = errno;
	close(backing); /* the loop device holds its own reference */
	if (rc < 0)
		return report_error("loop",
				    "cannot bind a loop device to '%s': "
				    "%s",
				    file, strerror(saved));
	return 0;
}

static int loop_by_losetup(struct layer *l, const char *file, int ro)
{
	const char *tool = layer_tool("losetup");
	if (!tool)
		return report_error("loop", "method=losetup but losetup is not "
					    "in the initramfs");
	char *argv[] = {(char *)tool, "-f", (char *)file, NULL, NULL};
	if (ro) {
		argv[1] = "-r";
		argv[2] = "-f";
		argv[3] = (char *)file;
	}
	int rc = sys_run(argv, 60);
	if (rc != 0)
		return report_error("loop", "losetup -f '%s' failed: %s", file,
				    rc < 0 ? strerror(errno) : "non-zero exit");
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char path[300], backing[256];
		if (strncmp(e->d_name, "loop", 4))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file",
			 e->d_name);
		if (sys_read(path, backing, sizeof(backing)) == 0 &&
		    !strcmp(backing, file))
			sys_copy(l->dev, sizeof(l->dev), e->d_name);
	}
	if (d)
		closedir(d);
	if (!l->dev[0] || sys_blk_node(l->dev, l->path, sizeof(l->path)) < 0)
		return report_error("loop", "losetup bound no device to '%s'",
				    file);
	snprintf(l->how, sizeof(l->how), "losetup");
	return 0;
}

/*
 * A backing file that does not exist yet is made size_mb long, allocated
 * (not sparse, so reads go to the disk), and holds zeroes until a point
 * fills it through the loop device.
 */
static int loop_make_file(struct layer *l, const char *file)
{
	uint64_t size_mb;
	if (sys_exists(file))
		return 0;
	if (spec_u64(l->line, "size_mb", 0, &size_mb))
		return -1;
	if (!size_mb)
		return report_error("loop",
				    "'%s' does not exist and '%s' has no "
				    "size_mb to create it",
				    file, l->name);
	int fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return report_error("loop", "cannot create '%s': %s", file,
				    strerror(errno));
	int err = posix_fallocate(fd, 0, (off_t)(size_mb << 20));
	if (err == EOPNOTSUPP || err == ENOSYS)
		err = ftruncate(fd, (off_t)(size_mb << 20)) < 0 ? errno : 0;
	if (!err && fsync(fd) < 0)
		err = errno;
	close(fd);
	if (err)
		return report_error("loop",
				    "cannot make '%s' %llu MiB long: %s", file,
				    (unsigned long long)size_mb, strerror(err));
	return 0;
}

/* `under` is NULL over file:<path>. */
static int loop_create(struct layer *l, struct layer *under)
{
	const char *method = spec_get(l->line, "method");
	const char *file;
	int rc, ro = 0;

	if (!under) {
		file = spec_get(l->line, "on") + 5;
		if (loop_make_file(l, file))
			return -1;
	} else {
		if (under->busy || !strcmp(under->kind, "fs"))
			return report_error("loop",
					    "'%s' cannot sit on '%s': "
					    "it is in use",
					    l->name, under->name);
		file = under->path;
		ro = under->ro;
	}
	if (!method || !strcmp(method, "ioctl"))
		rc = loop_by_ioctl(l, file, 0, ro);
	else if (!strcmp(method, "ioctl-setfd"))
		rc = loop_by_ioctl(l, file, 1, ro);
	else if (!strcmp(method, "losetup"))
		rc = loop_by_losetup(l, file, ro);
	else
		return report_error("loop", "'%s': unknown method '%s'",
				    l->name, method);
	if (rc)
		return -1;
	if (under)
		layer_over(l, under, 0);
	return 0;
}

const struct layer_ops loop_ops = {
	.kind = "loop",
	.on = LAYER_ON_FILE,
	.whole = 1,
	.create = loop_create,
};
