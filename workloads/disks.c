/*
 * disks.c: finds the spec's disks among the kernel's block devices by the
 * serial QEMU gave them, or by position on their bus when the kernel shows
 * no serial (old kernels, IDE).
 */
#include "kinds.h"
#include "report.h"
#include "sys.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct blk {
	char name[32];
	char bus[8];
	char serial[64];
};

static void trim(char *s)
{
	char *p = s;
	while (*p == ' ')
		p++;
	memmove(s, p, strlen(p) + 1);
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\n'))
		s[--n] = '\0';
}

static void blk_serial(struct blk *b)
{
	char path[128], buf[256];
	b->serial[0] = '\0';
	snprintf(path, sizeof(path), "/sys/block/%s/serial", b->name);
	if (sys_read(path, buf, sizeof(buf)) == 0 && buf[0])
		goto found;
	snprintf(path, sizeof(path), "/sys/block/%s/device/serial", b->name);
	if (sys_read(path, buf, sizeof(buf)) == 0 && buf[0])
		goto found;
	/* SCSI (and libata) VPD page 0x80: a 4-byte header, then the text. */
	snprintf(path, sizeof(path), "/sys/block/%s/device/vpd_pg80", b->name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		unsigned char raw[256];
		ssize_t n = read(fd, raw, sizeof(raw));
		close(fd);
		/* Byte 3 is the page length; the serial follows the header. */
		if (n > 4) {
			size_t len = raw[3];
			if (len > (size_t)n - 4)
				len = (size_t)n - 4;
			memcpy(buf, raw + 4, len);
			buf[len] = '\0';
			goto found;
		}
	}
	return;
found:
	trim(buf);
	snprintf(b->serial, sizeof(b->serial), "%s", buf);
}

static void blk_bus(struct blk *b)
{
	char link[128], target[256];
	snprintf(link, sizeof(link), "/sys/block/%s", b->name);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	if (!strncmp(b->name, "vd", 2))
		strcpy(b->bus, "virtio");
	else if (!strncmp(b->name, "nvme", 4))
		strcpy(b->bus, "nvme");
	else if (strstr(target, "/ata") || !strncmp(b->name, "hd", 2))
		strcpy(b->bus, "ide");
	else if (!strncmp(b->name, "sd", 2))
		strcpy(b->bus, "scsi");
	else if (!strncmp(b->name, "nullb", 5))
		strcpy(b->bus, "nullb"); /* the kernel's null_blk: no serial */
	else
		b->bus[0] = '\0';
}

static int blk_cmp(const void *a, const void *b)
{
	const struct blk *x = a, *y = b;
	/* vdb before vdaa: shorter names first, as the kernel numbers them. */
	size_t lx = strlen(x->name), ly = strlen(y->name);
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int scan(struct blk *out, int max)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	int n = 0;
	if (!d)
		return -1;
	while ((e = readdir(d)) && n < max) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= 32)
			continue;
		struct blk *b = &out[n];
		snprintf(b->name, sizeof(b->name), "%s", e->d_name);
		blk_bus(b);
		if (!b->bus[0])
			continue; /* loop, md, dm, ram: not disks */
		blk_serial(b);
		n++;
	}
	closedir(d);
	qsort(out, (size_t)n, sizeof(*out), blk_cmp);
	return n;
}

static int match(const struct spec *s, struct blk *blks, int nr, int final)
{
	int found = 0;
	for (int i = 0; i < s->nr_disks; i++) {
		const struct spec_line *l = &s->disks[i];
		const char *serial = spec_get(l, "serial");
		const char *bus = spec_get(l, "bus");
		int hit = -1;
		for (int k = 0; serial && k < nr; k++)
			if (!strcmp(blks[k].serial, serial))
				hit = k;
		if (hit < 0 && final && bus) {
			/* The n-th spec disk on a bus is the n-th such device.
			 */
			int nth = 0, seen = 0;
			for (int k = 0; k < i; k++) {
				const char *b2 = spec_get(&s->disks[k], "bus");
				nth += b2 && !strcmp(b2, bus);
			}
			for (int k = 0; k < nr; k++)
				if (!strcmp(blks[k].bus, bus) &&
				    !blks[k].serial[0] && seen++ == nth)
					hit = k;
			if (hit >= 0)
				say("disk '%s': no serial, took '%s' by "
				    "position",
				    spec_name(l), blks[hit].name);
		}
		if (hit < 0)
			continue;
		found++;
		if (!final)
			continue;
		struct layer *ly = &layers[i];
		memset(ly, 0, sizeof(*ly));
		snprintf(ly->name, sizeof(ly->name), "%s", spec_name(l));
		strcpy(ly->kind, "disk");
		snprintf(ly->dev, sizeof(ly->dev), "%s", blks[hit].name);
		snprintf(ly->bus, sizeof(ly->bus), "%s", blks[hit].bus);
		ly->line = l;
		ly->root = i;
		const char *null = spec_get(l, "null");
		ly->null = null && !strcmp(null, "1");
		ly->nodata = !strcmp(ly->bus, "nullb");
		if (sys_blk_node(ly->dev, ly->path, sizeof(ly->path)) < 0)
			return report_error("disk",
					    "cannot make a node for "
					    "'%s': %s",
					    ly->dev, strerror(errno));
		/*
		 * The spec says ro=1 for a disk QEMU opened read-only; the
		 * kernel may know it too (virtio-blk, SCSI), but QEMU's
		 * NVMe has no way to say so.
		 */
		const char *ro = spec_get(l, "ro");
		int kro = 0;
		ly->ro = (ro && !strcmp(ro, "1")) ||
			 (sys_blk_ro(ly->path, &kro) == 0 && kro);
	}
	return found;
}

/*
 * max_sectors_kb=N: cap the size of the requests the kernel sends the
 * disk, before any layer is built on it (md and dm take their limits from
 * their members when they are made). QEMU 7.2 has no such knob for
 * virtio-blk, so this is how a job slows a disk down without a rebuild.
 * The kernel refuses a value above max_hw_sectors_kb: that is an error,
 * not a silent smaller cap.
 */
static int disk_cap_requests(struct layer *l)
{
	uint64_t want;
	unsigned long got = 0;
	if (!spec_get(l->line, "max_sectors_kb"))
		return 0;
	if (spec_u64(l->line, "max_sectors_kb", 0, &want))
		return -1;
	if (want == 0)
		return 0;
	if (sys_max_sectors_set(l->dev, (unsigned long)want) < 0) {
		int saved = errno;
		char hwpath[128], hwbuf[32] = "?";
		snprintf(hwpath, sizeof(hwpath),
			 "/sys/block/%s/queue/max_hw_sectors_kb", l->dev);
		sys_read(hwpath, hwbuf, sizeof(hwbuf));
		return report_error("disk",
				    "cannot set max_sectors_kb of '%s' (%s) "
				    "to %llu: %s (max_hw_sectors_kb is %s)",
				    l->name, l->dev, (unsigned long long)want,
				    strerror(saved), hwbuf);
	}
	if (sys_max_sectors_get(l->dev, &got) < 0 || got != want)
		return report_error("disk",
				    "max_sectors_kb of '%s' (%s) reads back "
				    "%lu, not %llu",
				    l->name, l->dev, got,
				    (unsigned long long)want);
	say("disk %s: requests capped at %lu KiB", l->name, got);
	return 0;
}

int disks_find(const struct spec *s)
{
	static struct blk blks[128];
	int nr = 0;
	/* Probing is asynchronous for some drivers (NVMe): wait up to 20 s. */
	for (int tries = 0; tries < 200; tries++) {
		nr = scan(blks, 128);
		if (nr < 0)
			return report_error("disk",
					    "cannot read '/sys/block': "
					    "%s",
					    strerror(errno));
		if (match(s, blks, nr, 0) == s->nr_disks)
			break;
		struct timespec ts = {0, 100 * 1000000};
		nanosleep(&ts, NULL);
	}
	int found = match(s, blks, nr, 1);
	if (found < 0)
		return -1;
	nr_layers = s->nr_disks;
	if (found != s->nr_disks) {
		char seen[1024] = "";
		for (int k = 0; k < nr; k++) {
			size_t len = strlen(seen);
			snprintf(seen + len, sizeof(seen) - len, " %s(%s,%s)",
				 blks[k].name, blks[k].bus,
				 blks[k].serial[0] ? blks[k].serial : "-");
		}
		for (int i = 0; i < s->nr_disks; i++)
			if (!layers[i].dev[0])
				return report_error(
					"disk",
					"disk '%s' (serial "
					"'%s') not found; the "
					"kernel has:%s",
					spec_name(&s->disks[i]),
					spec_get(&s->disks[i], "serial"), seen);
	}
	for (int i = 0; i < s->nr_disks; i++) {
		say("disk %s is %s (%s%s)", layers[i].name, layers[i].dev,
		    layers[i].bus, layers[i].ro ? ", read-only" : "");
		if (disk_cap_requests(&layers[i]))
			return -1;
	}
	return 0;
}

static void disk_describe(struct json *j, const struct layer *l)
{
	json_str(j, "bus", l->bus);
	json_bool(j, "null", l->null);
}

/* Found, not made: no create, and no spec line in the builder's list. */
const struct layer_ops disk_ops = {
	.kind = "disk",
	.whole = 1,
	.describe = disk_describe,
};
