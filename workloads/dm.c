/*
 * dm.c: a dm-linear device over an earlier layer. method=ioctl speaks to
 * /dev/mapper/control (DM_DEV_CREATE, DM_TABLE_LOAD with one "linear"
 * target, DM_DEV_SUSPEND without the suspend flag to resume);
 * method=dmsetup runs a packed dmsetup. Over a read-only layer the table
 * is loaded read-only (DM_READONLY_FLAG, dmsetup --readonly).
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

static int control_open(void)
{
	/* devtmpfs makes mapper/control; old kernels may need the node. */
	if (!sys_exists("/dev/mapper/control")) {
		char dev[32];
		unsigned ma = 10, mi = 236;
		if (sys_read("/sys/class/misc/device-mapper/dev", dev,
			     sizeof(dev)) == 0)
			sscanf(dev, "%u:%u", &ma, &mi);
		sys_mkdir_p("/dev/mapper");
		mknod("/dev/mapper/control", S_IFCHR | 0600, makedev(ma, mi));
	}
	return open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
}

static void dm_init(struct dm_ioctl *io, size_t size, const char *name)
{
	memset(io, 0, size);
	io->version[0] = DM_VERSION_MAJOR;
	io->data_size = (uint32_t)size;
	io->data_start = sizeof(*io);
	snprintf(io->name, sizeof(io->name), "%s", name);
}

static int dm_by_ioctl(struct layer *l, unsigned ma, unsigned mi,
		       uint64_t sectors, int ro)
{
	static union {
		struct dm_ioctl io;
		char buf[sizeof(struct dm_ioctl) +
			 sizeof(struct dm_target_spec) + 64];
	} u;
	struct dm_ioctl *io = &u.io;
	int fd = control_open(), rc = -1;
	if (fd < 0)
		return report_error("dm",
				    "cannot open '/dev/mapper/control': "
				    "%s",
				    strerror(errno));
	dm_init(io, sizeof(*io), l->name);
	if (ioctl(fd, DM_DEV_CREATE, io) < 0) {
		report_error("dm", "DM_DEV_CREATE '%s': %s", l->name,
			     strerror(errno));
		goto out;
	}
	uint64_t dev = io->dev;

	dm_init(io, sizeof(u.buf), l->name);
	io->target_count = 1;
	/*
	 * A read-only table opens the device below for reading only, and
	 * the resume marks the mapped device read-only.
	 */
	if (ro)
		io->flags |= DM_READONLY_FLAG;
	struct dm_target_spec *t =
		(struct dm_target_spec *)(u.buf + sizeof(*io));
	char *params = (char *)(t + 1);
	t->sector_start = 0;
	t->length = sectors;
	snprintf(t->target_type, sizeof(t->target_type), "linear");
	snprintf(params, 64, "%u:%u 0", ma, mi);
	t->next = (uint32_t)(sizeof(*t) + ((strlen(params) + 8) & ~7u));
	if (ioctl(fd, DM_TABLE_LOAD, io) < 0) {
		report_error("dm", "DM_TABLE_LOAD '%s' (linear %s): %s",
			     l->name, params, strerror(errno));
		goto out;
	}
	dm_init(io, sizeof(*io), l->name);
	if (ioctl(fd, DM_DEV_SUSPEND, io) < 0) {
		report_error("dm", "resuming '%s': %s", l->name,
			     strerror(errno));
		goto out;
	}
	/* io->dev is huge_encode_dev(): major in bits 8-19, minor split. */
	unsigned dma = (unsigned)((dev & 0xfff00) >> 8);
	unsigned dmi = (unsigned)((dev & 0xff) | ((dev >> 12) & 0xfff00));
	char link[64], target[256];
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", dma, dmi);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	if (n < 0) {
		report_error("dm", "no sysfs entry '%s' for '%s': %s", link,
			     l->name, strerror(errno));
		goto out;
	}
	target[n] = '\0';
	if (sys_copy(l->dev, sizeof(l->dev), strrchr(target, '/') + 1) < 0) {
		report_error("dm", "device name of '%s' too long", l->name);
		goto out;
	}
	rc = 0;
out:
	close(fd);
	return rc;
}

static int dm_by_dmsetup(struct layer *l, unsigned ma, unsigned mi,
			 uint64_t sectors, int ro)
{
	const char *tool = layer_tool("dmsetup");
	char table[128];
	if (!tool)
		return report_error("dm",
				    "method=dmsetup but dmsetup is not in "
				    "the initramfs");
	snprintf(table, sizeof(table), "0 %llu linear %u:%u 0",
		 (unsigned long long)sectors, ma, mi);
	/* No udev here: do not wait for its cookie. */
	char *argv[8];
	int argc = 0;
	argv[argc++] = (char *)tool;
	argv[argc++] = "--noudevsync";
	if (ro)
		argv[argc++] = "--readonly";
	argv[argc++] = "create";
	argv[argc++] = l->name;
	argv[argc++] = "--table";
	argv[argc++] = table;
	argv[argc] = NULL;
	int rc = sys_run(argv, 120);
	if (rc != 0)
		return report_error("dm", "dmsetup create '%s' failed: %s",
				    l->name,
				    rc < 0 ? strerror(errno) : "non-zero exit");
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char path[300], name[DM_NAME_LEN];
		if (strncmp(e->d_name, "dm-", 3))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/dm/name",
			 e->d_name);
		if (sys_read(path, name, sizeof(name)) == 0 &&
		    !strcmp(name, l->name))
			sys_copy(l->dev, sizeof(l->dev), e->d_name);
	}
	if (d)
		closedir(d);
	if (!l->dev[0])
		return report_error("dm", "dmsetup made no device named '%s'",
				    l->name);
	return 0;
}

static int dm_create(struct layer *l, struct layer *on)
{
	const char *method = spec_get(l->line, "method");
	unsigned ma, mi;
	uint64_t bytes;
	int rc;

	if (on->busy || !strcmp(on->kind, "fs"))
		return report_error("dm",
				    "'%s' cannot sit on '%s': it is in use",
				    l->name, on->name);
	if (sys_blk_devt(on->path, &ma, &mi) < 0 ||
	    sys_blk_size(on->path, &bytes) < 0)
		return report_error("dm", "cannot query '%s': %s", on->path,
				    strerror(errno));
	if (!method || !strcmp(method, "ioctl"))
		rc = dm_by_ioctl(l, ma, mi, bytes >> 9, on->ro);
	else if (!strcmp(method, "dmsetup"))
		rc = dm_by_dmsetup(l, ma, mi, bytes >> 9, on->ro);
	else
		return report_error("dm", "'%s': unknown method '%s'", l->name,
				    method);
	if (rc)
		return -1;
	snprintf(l->how, sizeof(l->how), "%s",
		 !method || !strcmp(method, "ioctl") ? "ioctl" : "dmsetup");
	if (sys_blk_node(l->dev, l->path, sizeof(l->path)) < 0)
		return report_error("dm", "no node for '%s': %s", l->dev,
				    strerror(errno));
	layer_over(l, on, 0);
	return 0;
}

const struct layer_ops dm_ops = {
	.kind = "dm",
	.whole = 1,
	.create = dm_create,
};
