/*
 * layers.c: builds the spec's layers in order (partitions and file systems
 * here; md, dm and loop in their own files) and reads the result back from
 * the kernel for the `topology` frame.
 */
#include "layers.h"
#include "report.h"
#include "sys.h"
#include "uapi.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

struct layer layers[LAYERS_MAX];
int nr_layers;

struct layer *layer_find(const char *name)
{
	for (int i = 0; i < nr_layers; i++)
		if (!strcmp(layers[i].name, name))
			return &layers[i];
	return NULL;
}

/* A layer under md metadata or a file system: its root is no scratch space. */
void layer_mark_busy(struct layer *l)
{
	l->busy = 1;
	layers[l->root].busy = 1;
}

static void put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/*
 * A partition: an MBR entry written to the disk (so the image describes
 * itself) and BLKPG_ADD_PARTITION (so no rescan of a disk in use is
 * needed, and null disks, which drop the write, work too).
 */
static int part_create(struct layer *l, struct layer *disk)
{
	uint64_t start_mb, size_mb, disk_bytes;
	int pno = disk->nr_parts + 1;
	struct blkpg_partition part;
	struct blkpg_ioctl_arg arg;
	int fd, rc = -1;

	if (strcmp(disk->kind, "disk"))
		return report_error("disk",
				    "partition '%s' must sit on a disk, "
				    "not on '%s'",
				    l->name, disk->name);
	if (pno > 4)
		return report_error("disk",
				    "disk '%s' has no room for a fifth "
				    "primary partition",
				    disk->name);
	if (spec_u64(l->line, "start_mb", 1, &start_mb) ||
	    spec_u64(l->line, "size_mb", 0, &size_mb))
		return -1;
	if (sys_blk_size(disk->path, &disk_bytes) < 0)
		return report_error("disk", "cannot get the size of '%s': %s",
				    disk->path, strerror(errno));
	uint64_t start = start_mb << 20;
	uint64_t len = size_mb ? size_mb << 20 : disk_bytes - start;
	if (start < 512 || start + len > disk_bytes || len == 0)
		return report_error("disk",
				    "partition '%s' (%llu MiB at %llu "
				    "MiB) does not fit disk '%s' (%llu bytes)",
				    l->name, (unsigned long long)(len >> 20),
				    (unsigned long long)start_mb, disk->name,
				    (unsigned long long)disk_bytes);

	/*
	 * A read-only disk keeps whatever sector 0 holds: the partition
	 * exists in the kernel only (BLKPG needs no write access).
	 */
	unsigned char *e = disk->mbr + 446 + 16 * (pno - 1);
	e[0] = 0;
	e[1] = 0xfe, e[2] = 0xff, e[3] = 0xff; /* CHS: use LBA */
	e[4] = 0x83;
	e[5] = 0xfe, e[6] = 0xff, e[7] = 0xff;
	put_le32(e + 8, (uint32_t)(start >> 9));
	put_le32(e + 12, (uint32_t)(len >> 9));
	disk->mbr[510] = 0x55;
	disk->mbr[511] = 0xaa;
	disk->has_mbr = !disk->ro;

	fd = open(disk->path, (disk->ro ? O_RDONLY : O_RDWR) | O_CLOEXEC);
	if (fd < 0)
		return report_error("disk", "cannot open '%s': %s", disk->path,
				    strerror(errno));
	if (!disk->null && !disk->ro) {
		/* Keep any boot code; only the table and signature are ours. */
		unsigned char old[512];
		if (pread(fd, old, 512, 0) == 512 && pno == 1)
			memcpy(disk->mbr, old, 446);
		if (pwrite(fd, disk->mbr, 512, 0) != 512 || fsync(fd) < 0) {
			report_error("disk",
				     "cannot write the partition table "
				     "of '%s': %s",
				     disk->path, strerror(errno));
			goto out;
		}
	}
	memset(&part, 0, sizeof(part));
	part.start = (long long)start;
	part.length = (long long)len;
	part.pno = pno;
	arg.op = BLKPG_DEL_PARTITION;
	arg.flags = 0;
	arg.datalen = sizeof(part);
	arg.data = &part;
	ioctl(fd, BLKPG,
	      &arg); /* a stale one from an earlier boot; ENXIO is fine */
	arg.op = BLKPG_ADD_PARTITION;
	if (ioctl(fd, BLKPG, &arg) < 0) {
		report_error("disk", "cannot add partition %d to '%s': %s", pno,
			     disk->path, strerror(errno));
		goto out;
	}
	disk->nr_parts = pno;
	if (snprintf(l->dev, sizeof(l->dev), "%s%s%d", disk->dev,
		     isdigit((unsigned char)disk->dev[strlen(disk->dev) - 1])
			     ? "p"
			     : "",
		     pno) >= (int)sizeof(l->dev)) {
		report_error("disk", "name of partition %d of '%s' too long",
			     pno, disk->dev);
		goto out;
	}
	if (sys_blk_node(l->dev, l->path, sizeof(l->path)) < 0) {
		report_error("disk", "cannot find partition '%s': %s", l->dev,
			     strerror(errno));
		goto out;
	}
	snprintf(l->how, sizeof(l->how), "BLKPG");
	l->root = disk->root;
	l->base = disk->base + start;
	l->null = disk->null;
	l->ro = disk->ro;
	rc = 0;
out:
	close(fd);
	return rc;
}

static const char *find_tool(const char *name, char *buf, size_t size)
{
	static const char *const dirs[] = {"/sbin", "/usr/sbin", "/bin",
					   "/usr/bin"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		snprintf(buf, size, "%s/%s", dirs[i], name);
		if (access(buf, X_OK) == 0)
			return buf;
	}
	return NULL;
}

const char *layers_tool(const char *name)
{
	static char buf[4][128];
	static int k;
	k = (k + 1) % 4;
	return find_tool(name, buf[k], sizeof(buf[k]));
}

static int fs_create(struct layer *l, struct layer *on)
{
	const char *type = spec_get(l->line, "type");
	const char *mnt = spec_get(l->line, "mount");
	const char *extra = spec_get(l->line, "mkfs_args");
	char *argv[40];
	int argc = 0;
	static char args[256];
	const char *tool;

	if (!type || !mnt)
		return report_error("fs",
				    "fs '%s' needs type= and mount=", l->name);
	if (!strcmp(on->kind, "fs"))
		return report_error("fs", "fs '%s' cannot sit on fs '%s'",
				    l->name, on->name);
	if (on->ro)
		return report_error("fs",
				    "fs '%s': '%s' is read-only and mkfs "
				    "writes",
				    l->name, on->name);
	if (!strcmp(type, "xfs")) {
		if (!(tool = layers_tool("mkfs.xfs")))
			return report_error("fs",
					    "fs '%s': mkfs.xfs is not in "
					    "the initramfs",
					    l->name);
		argv[argc++] = (char *)tool;
		argv[argc++] = "-f";
		argv[argc++] = "-q";
	} else if (!strcmp(type, "ext4") || !strcmp(type, "ext3")) {
		if (!(tool = layers_tool("mke2fs")) &&
		    !(tool = layers_tool("mkfs.ext4")))
			return report_error("fs",
					    "fs '%s': mke2fs is not in "
					    "the initramfs",
					    l->name);
		argv[argc++] = (char *)tool;
		argv[argc++] = "-F";
		argv[argc++] = "-q";
		argv[argc++] = "-t";
		argv[argc++] = (char *)type;
		/*
		 * Initialise inode tables now: the lazy-init thread would
		 * otherwise write in the background during the samples.
		 */
		argv[argc++] = "-E";
		argv[argc++] = "lazy_itable_init=0,lazy_journal_init=0";
	} else {
		return report_error("fs", "fs '%s': unknown type '%s'", l->name,
				    type);
	}
	if (extra) {
		snprintf(args, sizeof(args), "%s", extra);
		for (char *tok = strtok(args, ","); tok && argc < 36;
		     tok = strtok(NULL, ","))
			argv[argc++] = tok;
	}
	argv[argc++] = on->path;
	argv[argc] = NULL;
	say("mkfs: %s on %s", tool, on->path);
	int rc = sys_run(argv, 600);
	if (rc != 0)
		return report_error("fs", "'%s' on '%s' failed: %s", tool,
				    on->path,
				    rc < 0 ? strerror(errno) : "non-zero exit");
	if (sys_mkdir_p(mnt) < 0)
		return report_error("fs", "cannot create '%s': %s", mnt,
				    strerror(errno));
	if (mount(on->path, mnt, type, 0, "") < 0)
		return report_error("fs", "cannot mount '%s' (%s) on '%s': %s",
				    on->path, type, mnt, strerror(errno));
	snprintf(l->dev, sizeof(l->dev), "%s", on->dev);
	snprintf(l->path, sizeof(l->path), "%s", on->path);
	snprintf(l->mount, sizeof(l->mount), "%s", mnt);
	snprintf(l->how, sizeof(l->how), "%s", strrchr(tool, '/') + 1);
	l->root = (int)(l - layers);
	layer_mark_busy(on);
	return 0;
}

int layers_build(const struct spec *s)
{
	int nr_md = 0;
	for (int i = 0; i < s->nr_layers; i++) {
		const struct spec_line *line = &s->layers[i];
		struct layer *l = &layers[nr_layers];
		const char *on_name = spec_get(line, "on");
		struct layer *on = NULL;
		int rc;

		if (layer_find(spec_name(line)))
			return report_error("spec",
					    "line %d: layer name '%s' "
					    "used twice",
					    line->lineno, spec_name(line));
		memset(l, 0, sizeof(*l));
		snprintf(l->name, sizeof(l->name), "%s", spec_name(line));
		snprintf(l->kind, sizeof(l->kind), "%s", line->word);
		l->line = line;
		l->root = nr_layers;
		if (on_name && strncmp(on_name, "file:", 5)) {
			on = layer_find(on_name);
			if (!on)
				return report_error("spec",
						    "line %d: '%s' is "
						    "not an earlier layer",
						    line->lineno, on_name);
		} else if (!on_name && strcmp(line->word, "md")) {
			return report_error("spec", "line %d: '%s' has no on=",
					    line->lineno, l->name);
		} else if (on_name && strcmp(line->word, "loop")) {
			return report_error("spec",
					    "line %d: only loop layers "
					    "sit on files",
					    line->lineno);
		}
		say("building %s %s", l->kind, l->name);
		if (!strcmp(l->kind, "part"))
			rc = part_create(l, on);
		else if (!strcmp(l->kind, "md"))
			rc = md_create(l, nr_md++);
		else if (!strcmp(l->kind, "dm"))
			rc = dm_create(l, on);
		else if (!strcmp(l->kind, "loop"))
			rc = loop_create(l, on_name);
		else
			rc = fs_create(l, on);
		if (rc)
			return -1;
		nr_layers++;
	}
	return 0;
}

int layers_report(void)
{
	static struct json j;
	json_begin(&j, "topology");
	json_arr_begin(&j, "layers");
	for (int i = 0; i < nr_layers; i++) {
		const struct layer *l = &layers[i];
		uint64_t size = 0;
		unsigned long ra = 0;
		json_obj_begin(&j, NULL);
		json_str(&j, "name", l->name);
		json_str(&j, "kind", l->kind);
		json_str(&j, "dev", l->dev);
		if (sys_blk_size(l->path, &size) == 0)
			json_u64(&j, "size_bytes", size);
		if (sys_ra_get(l->path, &ra) == 0)
			json_u64(&j, "ra_kb", ra);
		/* What the kernel says, next to what the guest decided. */
		int kro = 0;
		if (sys_blk_ro(l->path, &kro) == 0)
			json_bool(&j, "ro", kro || l->ro);
		else
			json_bool(&j, "ro", l->ro);
		/* Whole devices only: partitions have no queue of their own. */
		unsigned long msk;
		if (strcmp(l->kind, "part") && strcmp(l->kind, "fs") &&
		    sys_max_sectors_get(l->dev, &msk) == 0)
			json_u64(&j, "max_sectors_kb", msk);
		if (!strcmp(l->kind, "disk")) {
			json_str(&j, "bus", l->bus);
			json_bool(&j, "null", l->null);
		}
		if (l->how[0])
			json_str(&j, "setup", l->how);
		if (!strcmp(l->kind, "md"))
			md_report(&j, l);
		if (!strcmp(l->kind, "fs")) {
			json_str(&j, "type", spec_get(l->line, "type"));
			json_str(&j, "mount", l->mount);
		}
		json_end(&j);
	}
	json_end(&j);
	json_end(&j);
	return report_frame(&j);
}
