/*
 * safety_facts.c: what the host says of a disk before it is passed
 * through (safety_facts.h): its mounts, holders, partitions, the
 * disks under it (md, dm, loop backing files) and whether it holds the
 * root file system, from /proc and /sys. safety_decide judges them.
 */
#include "safety_facts.h"
#include "run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

struct mount_entry {
	unsigned major, minor;
	char *point, *source;
};

struct mounts {
	struct mount_entry *e;
	size_t nr, alloc;
};

static void mounts_release(struct mounts *m)
{
	for (size_t i = 0; i < m->nr; i++) {
		free(m->e[i].point);
		free(m->e[i].source);
	}
	free(m->e);
	memset(m, 0, sizeof(*m));
}

/*
 * /proc/self/mountinfo: "id parent MAJ:MIN root point opts [tags] - fstype
 * source superopts". Sources are kept resolved so /dev/disk/by-id links
 * compare equal to the device.
 */
static int mounts_read(struct mounts *m)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL;

	if (read_file("/proc/self/mountinfo", &sb))
		return -1;
	for (line = strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct strvec f = STRVEC_INIT;
		unsigned maj, min;
		strvec_split(&f, line, ' ');
		size_t dash = 0;
		for (size_t i = 6; i < f.nr; i++)
			if (!strcmp(f.v[i], "-")) {
				dash = i;
				break;
			}
		if (f.nr >= 5 && sscanf(f.v[2], "%u:%u", &maj, &min) == 2) {
			ALLOC_GROW(m->e, m->nr + 1, m->alloc);
			struct mount_entry *e = &m->e[m->nr++];
			e->major = maj;
			e->minor = min;
			e->point = xstrdup(f.v[4]);
			e->source = NULL;
			/*
			 * Only device paths are resolved: "proc" or "tmpfs"
			 * are not paths, and a network source could hang.
			 */
			if (dash && dash + 2 < f.nr) {
				const char *src = f.v[dash + 2];
				char *rp = !strncmp(src, "/dev/", 5)
						   ? realpath(src, NULL)
						   : NULL;
				e->source = rp ? rp : xstrdup(src);
			}
		}
		strvec_clear(&f);
	}
	strbuf_release(&sb);
	return 0;
}

static int read_devno(const char *sysdir, unsigned *maj, unsigned *min)
{
	char *file = xstrfmt("%s/dev", sysdir);
	int ok = 0;
	FILE *fp = fopen(file, "r");
	if (fp) {
		ok = fscanf(fp, "%u:%u", maj, min) == 2;
		fclose(fp);
	}
	free(file);
	return ok ? 0 : -1;
}

static int is_partition_dir(const char *sysdir)
{
	char *f = xstrfmt("%s/partition", sysdir);
	int r = file_exists(f);
	free(f);
	return r;
}

/* The sysfs folder of a block device number, resolved; NULL when none. */
static char *sysdir_of(unsigned maj, unsigned min)
{
	char *link = xstrfmt("/sys/dev/block/%u:%u", maj, min);
	char *dir = realpath(link, NULL);
	free(link);
	return dir;
}

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* The names under <sysdir>/<sub> (holders, slaves), into `out`. */
static void list_dir(const char *sysdir, const char *sub, struct strvec *out)
{
	char *dir = xstrfmt("%s/%s", sysdir, sub);
	DIR *d = opendir(dir);
	struct dirent *de;
	if (d) {
		while ((de = readdir(d)))
			if (de->d_name[0] != '.')
				strvec_push(out, de->d_name);
		closedir(d);
	}
	free(dir);
}

/* The whole disk of a sysfs folder: itself, or its parent for a partition. */
static char *whole_disk_name(const char *sysdir)
{
	if (is_partition_dir(sysdir)) {
		char *copy = xstrdup(sysdir);
		char *parent = xstrdup(base_of(dirname(copy)));
		free(copy);
		return parent;
	}
	return xstrdup(base_of(sysdir));
}

/*
 * The whole disks under a block device, through md/dm/loop slaves: "sda"
 * for / on sda2, or on a dm on sda2. Depth-limited against sysfs loops.
 */
static void underlying_disks(const char *sysdir, struct strvec *out, int depth)
{
	struct strvec slaves = STRVEC_INIT;
	if (depth > 16)
		return;
	list_dir(sysdir, "slaves", &slaves);
	if (!slaves.nr) {
		char *name = whole_disk_name(sysdir);
		strvec_push(out, name);
		free(name);
	}
	for (size_t i = 0; i < slaves.nr; i++) {
		char *link = xstrfmt("/sys/class/block/%s", slaves.v[i]);
		char *dir = realpath(link, NULL);
		if (dir)
			underlying_disks(dir, out, depth + 1);
		free(dir);
		free(link);
	}
	strvec_clear(&slaves);
}

static int strvec_has(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return 1;
	return 0;
}

/* The whole disks holding /: from its device number, else its source. */
static void root_disks(const struct mounts *m, struct strvec *out,
		       struct strbuf *root_dev)
{
	struct stat st;
	char *dir = NULL;

	if (!stat("/", &st))
		dir = sysdir_of(major(st.st_dev), minor(st.st_dev));
	/* An overlay or btrfs root has an anonymous device: use the source. */
	for (size_t i = 0; !dir && i < m->nr; i++) {
		struct stat sst;
		if (strcmp(m->e[i].point, "/") || !m->e[i].source ||
		    stat(m->e[i].source, &sst) || !S_ISBLK(sst.st_mode))
			continue;
		dir = sysdir_of(major(sst.st_rdev), minor(sst.st_rdev));
	}
	if (!dir)
		return;
	strbuf_addstr(root_dev, base_of(dir));
	underlying_disks(dir, out, 0);
	free(dir);
}

/* Mounts of one device (by number or by source path) into `out`. */
static void note_mounts(const struct mounts *m, const char *name, unsigned maj,
			unsigned min, struct strvec *out)
{
	char *dev = xstrfmt("/dev/%s", name);
	for (size_t i = 0; i < m->nr; i++) {
		const struct mount_entry *e = &m->e[i];
		if ((e->major == maj && e->minor == min) ||
		    (e->source && !strcmp(e->source, dev)))
			strvec_pushf(out, "%s on %s", dev, e->point);
	}
	free(dev);
}

static void note_holders(const char *sysdir, const char *name,
			 struct strvec *out)
{
	struct strvec h = STRVEC_INIT;
	list_dir(sysdir, "holders", &h);
	for (size_t i = 0; i < h.nr; i++)
		strvec_pushf(out, "%s (holds %s)", h.v[i], name);
	strvec_clear(&h);
}

/* A regular file attached to a loop device is in use by it. */
static void note_loop_backing(const char *path, struct strvec *out)
{
	DIR *d = opendir("/sys/block");
	struct dirent *de;
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "loop", 4))
			continue;
		struct strbuf sb = STRBUF_INIT;
		char *f =
			xstrfmt("/sys/block/%s/loop/backing_file", de->d_name);
		if (file_exists(f)) {
			FILE *fp = fopen(f, "r");
			if (fp) {
				char buf[PATH_MAX + 32];
				if (fgets(buf, sizeof(buf), fp)) {
					strbuf_addstr(&sb, buf);
					strbuf_trim(&sb);
				}
				fclose(fp);
			}
		}
		if (sb.len && !strcmp(sb.buf, path))
			strvec_pushf(out, "%s (backed by it)", de->d_name);
		strbuf_release(&sb);
		free(f);
	}
	closedir(d);
}

void safety_facts_release(struct safety_facts *f)
{
	free(f->path);
	strvec_clear(&f->mounts);
	strvec_clear(&f->holders);
	free(f->root_why);
	memset(f, 0, sizeof(*f));
}

int safety_facts_gather(const char *path, struct safety_facts *f)
{
	struct mounts m = {0};
	struct stat st;
	char *sysdir = NULL;
	int ret = -1;

	memset(f, 0, sizeof(*f));
	f->path = realpath(path, NULL);
	if (!f->path)
		return error("cannot pass through '%s': %s", path,
			     strerror(errno));
	if (stat(f->path, &st)) {
		error("cannot stat '%s': %s", f->path, strerror(errno));
		goto out;
	}
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
		error("cannot pass through '%s': not a block device or a "
		      "regular file",
		      f->path);
		goto out;
	}
	if (mounts_read(&m))
		goto out;
	if (S_ISREG(st.st_mode)) {
		note_loop_backing(f->path, &f->holders);
		ret = 0;
		goto out;
	}

	f->is_blockdev = 1;
	f->major = major(st.st_rdev);
	f->minor = minor(st.st_rdev);
	sysdir = sysdir_of(f->major, f->minor);
	if (!sysdir) {
		error("cannot find '%s' (%u:%u) in /sys/dev/block", f->path,
		      f->major, f->minor);
		goto out;
	}
	const char *name = base_of(sysdir);
	note_mounts(&m, name, f->major, f->minor, &f->mounts);
	note_holders(sysdir, name, &f->holders);

	/* A whole disk is busy when any of its partitions is. */
	if (!is_partition_dir(sysdir)) {
		DIR *d = opendir(sysdir);
		struct dirent *de;
		while (d && (de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			char *pdir = xstrfmt("%s/%s", sysdir, de->d_name);
			unsigned pmaj, pmin;
			if (is_partition_dir(pdir) &&
			    !read_devno(pdir, &pmaj, &pmin)) {
				note_mounts(&m, de->d_name, pmaj, pmin,
					    &f->mounts);
				note_holders(pdir, de->d_name, &f->holders);
			}
			free(pdir);
		}
		if (d)
			closedir(d);
	}

	/* Does it share a disk with /? */
	{
		struct strvec rootd = STRVEC_INIT, mine = STRVEC_INIT;
		struct strbuf rdev = STRBUF_INIT;
		root_disks(&m, &rootd, &rdev);
		underlying_disks(sysdir, &mine, 0);
		for (size_t i = 0; i < mine.nr && !f->root_disk; i++)
			if (strvec_has(&rootd, mine.v[i])) {
				f->root_disk = 1;
				f->root_why = xstrfmt("/ is on %s, on disk %s",
						      rdev.buf, mine.v[i]);
			}
		strvec_clear(&rootd);
		strvec_clear(&mine);
		strbuf_release(&rdev);
	}
	ret = 0;
out:
	free(sysdir);
	mounts_release(&m);
	if (ret)
		safety_facts_release(f);
	return ret;
}

