/*
 * safety.c: what keeps a passed-through host disk safe (see safety.h): the
 * signature scan and the decision (pure), the facts from /proc and /sys,
 * and the exclusive hold for the run.
 */
#include "safety.h"
#include "job.h"
#include "run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* ---- the signature scan (pure) ---- */

/* `len` bytes at `off`, or NULL when the view does not hold them all. */
static const unsigned char *view_at(const struct safety_view *v, uint64_t off,
				    size_t len)
{
	if (off + len < off || off + len > v->size)
		return NULL;
	if (v->head && off + len <= v->head_len)
		return v->head + off;
	if (v->tail && off >= v->tail_off &&
	    off + len <= v->tail_off + v->tail_len)
		return v->tail + (off - v->tail_off);
	return NULL;
}

static int magic_at(const struct safety_view *v, uint64_t off,
		    const void *magic, size_t len)
{
	const unsigned char *p = view_at(v, off, len);
	return p && !memcmp(p, magic, len);
}

/* The md superblock magic 0xa92b4efc, little-endian (1.x; 0.90 on x86). */
static const unsigned char md_magic_le[4] = {0xfc, 0x4e, 0x2b, 0xa9};
/* 0.90 superblocks are in the creating host's byte order. */
static const unsigned char md_magic_be[4] = {0xa9, 0x2b, 0x4e, 0xfc};

static int md_at(const struct safety_view *v, uint64_t off)
{
	return magic_at(v, off, md_magic_le, 4) ||
	       magic_at(v, off, md_magic_be, 4);
}

static int mbr_has_partition(const struct safety_view *v)
{
	const unsigned char *p = view_at(v, 446, 64);
	if (!p || !magic_at(v, 510, "\x55\xaa", 2))
		return 0;
	for (int i = 0; i < 4; i++) {
		const unsigned char *e = p + 16 * i;
		/* A used entry has a type; its LBA fields are not zero. */
		if (e[4] != 0)
			return 1;
	}
	return 0;
}

static int found(struct safety_signature *out, const char *name, uint64_t off)
{
	out->name = name;
	out->offset = off;
	return 1;
}

int safety_find_signature(const struct safety_view *v,
			  struct safety_signature *out)
{
	out->name = NULL;
	out->offset = 0;

	if (magic_at(v, 0, "XFSB", 4))
		return found(out, "xfs file system", 0);
	if (magic_at(v, 0, "LUKS\xba\xbe", 6))
		return found(out, "LUKS encrypted volume", 0);
	if (magic_at(v, 1080, "\x53\xef", 2))
		return found(out, "ext2/3/4 file system", 1080);
	if (magic_at(v, 65536 + 64, "_BHRfS_M", 8))
		return found(out, "btrfs file system", 65536 + 64);
	for (unsigned s = 0; s < 4; s++)
		if (magic_at(v, 512 * s, "LABELONE", 8))
			return found(out, "LVM2 physical volume", 512 * s);
	/* The swap magic ends the first page (4 KiB; 64 KiB on some arches). */
	static const uint64_t swap_off[] = {4096 - 10, 65536 - 10};
	for (size_t i = 0; i < ARRAY_SIZE(swap_off); i++)
		if (magic_at(v, swap_off[i], "SWAPSPACE2", 10) ||
		    magic_at(v, swap_off[i], "SWAP-SPACE", 10))
			return found(out, "swap space", swap_off[i]);
	/* md 1.1 at the start, 1.2 at 4 KiB. */
	if (md_at(v, 0))
		return found(out, "md RAID 1.1 member", 0);
	if (md_at(v, 4096))
		return found(out, "md RAID 1.2 member", 4096);
	/* md 1.0: 8 to 12 KiB from the end, 4 KiB aligned (mdadm's rule). */
	if (v->size >= 16 * 512) {
		uint64_t off = (((v->size >> 9) - 16) & ~7ull) << 9;
		if (md_at(v, off))
			return found(out, "md RAID 1.0 member", off);
	}
	/* md 0.90: the last 64 KiB-aligned 64 KiB block. */
	if (v->size >= 2 * 65536) {
		uint64_t off = (v->size & ~65535ull) - 65536;
		if (md_at(v, off))
			return found(out, "md RAID 0.90 member", off);
	}
	if (magic_at(v, 32769, "CD001", 5))
		return found(out, "iso9660 file system", 32769);
	if (magic_at(v, 3, "NTFS    ", 8))
		return found(out, "ntfs file system", 3);
	if (magic_at(v, 512, "EFI PART", 8))
		return found(out, "GPT partition table", 512);
	if (magic_at(v, 4096, "EFI PART", 8))
		return found(out, "GPT partition table", 4096);
	if (mbr_has_partition(v))
		return found(out, "MBR partition table", 510);
	return 0;
}

int safety_read_view(int fd, const char *path, struct safety_view *v)
{
	struct stat st;
	unsigned char *head = NULL, *tail = NULL;
	ssize_t n;

	memset(v, 0, sizeof(*v));
	if (fstat(fd, &st))
		return error("cannot stat '%s': %s", path, strerror(errno));
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &v->size))
			return error("cannot get the size of '%s': %s", path,
				     strerror(errno));
	} else {
		v->size = (uint64_t)st.st_size;
	}

	size_t hlen = v->size < SAFETY_HEAD_BYTES ? (size_t)v->size
						  : SAFETY_HEAD_BYTES;
	size_t tlen = v->size < SAFETY_TAIL_BYTES ? (size_t)v->size
						  : SAFETY_TAIL_BYTES;
	head = xmalloc(hlen + 1);
	tail = xmalloc(tlen + 1);
	n = pread(fd, head, hlen, 0);
	if (n < 0)
		goto fail;
	v->head_len = (size_t)n;
	v->tail_off = v->size - tlen;
	n = pread(fd, tail, tlen, (off_t)v->tail_off);
	if (n < 0)
		goto fail;
	v->tail_len = (size_t)n;
	v->head = head;
	v->tail = tail;
	return 0;
fail:
	free(head);
	free(tail);
	memset(v, 0, sizeof(*v));
	return error("cannot read '%s': %s", path, strerror(errno));
}

void safety_view_release(struct safety_view *v)
{
	free((void *)v->head);
	free((void *)v->tail);
	memset(v, 0, sizeof(*v));
}

/* ---- the decision (pure) ---- */

void safety_facts_release(struct safety_facts *f)
{
	free(f->path);
	strvec_clear(&f->mounts);
	strvec_clear(&f->holders);
	free(f->root_why);
	memset(f, 0, sizeof(*f));
}

static void join(struct strbuf *sb, const struct strvec *sv)
{
	for (size_t i = 0; i < sv->nr; i++) {
		if (i)
			strbuf_addstr(sb, ", ");
		strbuf_addstr(sb, sv->v[i]);
	}
}

int safety_decide(const struct safety_facts *f, int want_write,
		  const char *destroy_data_on, int force, struct strbuf *why)
{
	const char *p = f->path;

	strbuf_reset(why);
	if (f->mounts.nr) {
		strbuf_addf(why,
			    "refusing to pass through '%s': it is mounted (",
			    p);
		join(why, &f->mounts);
		strbuf_addstr(why, "); unmount it first");
		return -1;
	}
	if (f->holders.nr) {
		strbuf_addf(why,
			    "refusing to pass through '%s': it is in use by ",
			    p);
		join(why, &f->holders);
		strbuf_addstr(why, "; stop those first");
		return -1;
	}
	if (f->root_disk && !force) {
		strbuf_addf(why,
			    "refusing to pass through '%s': it is on the disk "
			    "that holds / (%s); pass --force to override",
			    p, f->root_why ? f->root_why : "root disk");
		return -1;
	}
	if (f->have_signature && !force) {
		strbuf_addf(why,
			    "refusing to pass through '%s': it carries a "
			    "signature: %s at byte %llu; wipe it or pass "
			    "--force to override",
			    p, f->signature.name,
			    (unsigned long long)f->signature.offset);
		return -1;
	}
	if (want_write && (!destroy_data_on || strcmp(destroy_data_on, p))) {
		strbuf_addf(
			why,
			"refusing to write to %s: pass --destroy-data-on=%s "
			"to allow it",
			p, p);
		if (destroy_data_on)
			strbuf_addf(why, " (--destroy-data-on names %s)",
				    destroy_data_on);
		return -1;
	}
	return 0;
}

/* ---- facts from the system ---- */

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

int safety_gather(const char *path, struct safety_facts *f)
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

/* ---- the hold ---- */

static int open_exclusive(const struct safety_facts *f, int writable)
{
	int flags = (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	int fd;

	/* On a block device O_EXCL claims it: mounts and md/dm now fail. */
	if (f->is_blockdev)
		flags |= O_EXCL;
	fd = open(f->path, flags);
	if (fd < 0) {
		if (errno == EBUSY)
			return error(
				"refusing to pass through '%s': it is busy "
				"(mounted or held by md/dm/loop: the "
				"exclusive open failed)",
				f->path);
		return error("cannot open '%s': %s", f->path, strerror(errno));
	}
	/* Files have no O_EXCL claim: a lock keeps a second run out. */
	if (!f->is_blockdev && flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno;
		close(fd);
		if (e == EWOULDBLOCK)
			return error("refusing to pass through '%s': another "
				     "process holds it",
				     f->path);
		return error("cannot lock '%s': %s", f->path, strerror(e));
	}
	return fd;
}

int safety_check_passthrough(const char *path, int want_write,
			     const char *destroy_data_on, int force,
			     struct safety_hold *out)
{
	struct safety_facts f = SAFETY_FACTS_INIT;
	struct safety_view v = {0};
	struct strbuf why = STRBUF_INIT;
	char *dd = NULL;
	int fd = -1, ret = -1;

	out->fd = -1;
	out->path = NULL;
	if (safety_gather(path, &f))
		return -1;
	if (destroy_data_on) {
		dd = realpath(destroy_data_on, NULL);
		if (!dd)
			dd = xstrdup(destroy_data_on);
	}
	/* Everything but the signature first: no read-write open unless
	 * allowed. */
	if (safety_decide(&f, want_write, dd, force, &why)) {
		error("%s", why.buf);
		goto out;
	}
	fd = open_exclusive(&f, want_write);
	if (fd < 0)
		goto out;
	if (safety_read_view(fd, f.path, &v))
		goto out;
	/* An unbound loop device or an empty file: nothing to measure. */
	if (!v.size) {
		error("cannot pass through '%s': it is empty (size 0)", f.path);
		goto out;
	}
	f.have_signature = safety_find_signature(&v, &f.signature);
	if (safety_decide(&f, want_write, dd, force, &why)) {
		error("%s", why.buf);
		goto out;
	}
	out->fd = fd;
	run_claim_fd(fd);
	out->path = xstrdup(f.path);
	out->writable = want_write;
	out->is_blockdev = f.is_blockdev;
	fd = -1;
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	safety_view_release(&v);
	safety_facts_release(&f);
	strbuf_release(&why);
	free(dd);
	return ret;
}

void safety_release(struct safety_hold *h)
{
	if (!h)
		return;
	if (h->fd >= 0) {
		run_disclaim_fd(h->fd);
		close(h->fd);
	}
	free(h->path);
	h->fd = -1;
	h->path = NULL;
	h->writable = 0;
}

void safety_release_all(struct safety_hold *holds, size_t nr)
{
	for (size_t i = 0; holds && i < nr; i++)
		safety_release(&holds[i]);
	free(holds);
}

int safety_tmpfs_fits(const struct topology *t, uint64_t free_bytes,
		      const char *dir, struct strbuf *why)
{
	uint64_t need = 0;

	for (size_t i = 0; i < t->nr_disks; i++)
		if (t->disks[i].backing == BACKING_TMPFS)
			need += t->disks[i].size_mb;
	if (need <= free_bytes >> 20)
		return 0;
	strbuf_addf(why,
		    "topology '%s': its tmpfs disks need %llu MiB and '%s' "
		    "has %llu MiB free (they hold the host's memory)",
		    t->name, (unsigned long long)need, dir,
		    (unsigned long long)(free_bytes >> 20));
	return -1;
}

int safety_check_tmpfs(const struct topology *t, const char *dir)
{
	struct strbuf why = STRBUF_INIT;
	struct statvfs sv;
	int any = 0, ret;

	for (size_t i = 0; i < t->nr_disks; i++)
		any |= t->disks[i].backing == BACKING_TMPFS;
	if (!any)
		return 0;
	if (statvfs(dir, &sv))
		return error("topology '%s' has tmpfs disks, but '%s': %s",
			     t->name, dir, strerror(errno));
	ret = safety_tmpfs_fits(t, (uint64_t)sv.f_bavail * sv.f_frsize, dir,
				&why);
	if (ret)
		error("%s", why.buf);
	strbuf_release(&why);
	return ret;
}

int safety_check_job(const struct job *job, const char *destroy_data_on,
		     int force, struct safety_hold **out, size_t *nr)
{
	struct strvec paths = STRVEC_INIT;
	int *write = NULL;
	size_t alloc = 0;
	struct safety_hold *holds = NULL;
	size_t n = 0;
	int ret = -1;

	*out = NULL;
	*nr = 0;
	/* Topologies boot one at a time: each must fit alone. */
	for (size_t t = 0; t < job->nr_topologies; t++)
		if (safety_check_tmpfs(&job->topologies[t], SAFETY_TMPFS_DIR))
			return -1;
	/*
	 * One device may appear in several topologies (lists expand): check
	 * it once, written if any of them writes, or our own O_EXCL hold
	 * would refuse the second check.
	 */
	for (size_t t = 0; t < job->nr_topologies; t++) {
		const struct topology *tp = &job->topologies[t];
		for (size_t i = 0; i < tp->nr_disks; i++) {
			const struct disk_spec *d = &tp->disks[i];
			if (d->backing != BACKING_HOST)
				continue;
			if (!d->path) {
				error("topology '%s': disk '%s' has no host "
				      "path",
				      tp->name, d->name ? d->name : "?");
				goto out;
			}
			char *rp = realpath(d->path, NULL);
			const char *key = rp ? rp : d->path;
			size_t k;
			for (k = 0; k < paths.nr; k++)
				if (!strcmp(paths.v[k], key))
					break;
			if (k == paths.nr) {
				strvec_push(&paths, key);
				ALLOC_GROW(write, paths.nr, alloc);
				write[k] = 0;
			}
			write[k] |= !d->readonly;
			free(rp);
		}
	}
	holds = xcalloc(paths.nr ? paths.nr : 1, sizeof(*holds));
	for (n = 0; n < paths.nr; n++)
		if (safety_check_passthrough(paths.v[n], write[n],
					     destroy_data_on, force, &holds[n]))
			goto out;
	*out = holds;
	*nr = n;
	holds = NULL;
	ret = 0;
out:
	if (holds)
		safety_release_all(holds, n);
	strvec_clear(&paths);
	free(write);
	return ret;
}

void safety_pin_paths(struct job *job, const struct safety_hold *holds,
		      size_t nr)
{
	for (size_t t = 0; t < job->nr_topologies; t++) {
		struct topology *tp = &job->topologies[t];
		for (size_t i = 0; i < tp->nr_disks; i++) {
			struct disk_spec *d = &tp->disks[i];
			if (d->backing != BACKING_HOST || !d->path)
				continue;
			char *rp = realpath(d->path, NULL);
			for (size_t k = 0; rp && k < nr; k++)
				if (holds[k].path &&
				    !strcmp(holds[k].path, rp)) {
					free(d->path);
					d->path = xstrdup(holds[k].path);
					break;
				}
			free(rp);
		}
	}
}
