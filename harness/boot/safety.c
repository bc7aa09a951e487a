/*
 * safety.c: what keeps a passed-through host disk safe (see safety.h): the
 * signature scan and the decision (pure), and the exclusive hold for the
 * run. The facts from /proc and /sys are safety_facts.c's.
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
	if (safety_facts_gather(path, &f))
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
