/*
 * md.c: md RAID0/RAID5 arrays. method=ioctl creates a 0.90 array with
 * SET_ARRAY_INFO / ADD_NEW_DISK / RUN_ARRAY, marked clean and with every
 * member in sync, so no initial resync runs (as mdadm --assume-clean);
 * method=mdadm runs a packed /sbin/mdadm for other metadata versions and
 * the internal bitmap. Either way the guest then waits for sync_action to
 * read "idle", so no sample is taken while the array resyncs.
 */
#include "kinds.h"
#include "layers.h"
#include "report.h"
#include "sys.h"
#include "uapi.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define MD_MAX_MEMBERS 27 /* what a 0.90 superblock can describe */

static int layout_code(const char *name)
{
	static const char *const names[] = {
		"left-asymmetric", "right-asymmetric", "left-symmetric",
		"right-symmetric"};
	for (int i = 0; i < 4; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

/* Make /dev/mdN exist: new_array on kernels that have it, else mknod. */
static int md_node(struct layer *l, int minor)
{
	char name[16];
	snprintf(name, sizeof(name), "md%d", minor);
	snprintf(l->dev, sizeof(l->dev), "%s", name);
	if (sys_exists("/sys/module/md_mod/parameters/new_array") &&
	    sys_write("/sys/module/md_mod/parameters/new_array", name) < 0 &&
	    errno != EEXIST)
		say("new_array '%s': %s", name, strerror(errno));
	if (sys_blk_node(name, l->path, sizeof(l->path)) == 0)
		return 0;
	/* Opening 9:N creates the array on kernels without new_array. */
	snprintf(l->path, sizeof(l->path), "/dev/%s", name);
	if (mknod(l->path, S_IFBLK | 0600, makedev(MD_MAJOR, minor)) < 0 &&
	    errno != EEXIST)
		return report_error("md", "cannot create '%s': %s", l->path,
				    strerror(errno));
	return 0;
}

static int md_by_ioctl(struct layer *l, int level, int chunk_kb, int layout,
		       struct layer **members, int n, int minor)
{
	struct mdu_array_info info;
	uint64_t min_bytes = UINT64_MAX;
	int fd, rc = -1;

	for (int i = 0; i < n; i++) {
		uint64_t b;
		if (sys_blk_size(members[i]->path, &b) < 0)
			return report_error("md",
					    "cannot get the size of '%s': "
					    "%s",
					    members[i]->path, strerror(errno));
		if (b < min_bytes)
			min_bytes = b;
	}
	/* As MD_NEW_SIZE_SECTORS: the superblock takes the last 64 KiB. */
	uint64_t sectors =
		((min_bytes >> 9) & ~(uint64_t)(MD_RESERVED_SECTORS - 1)) -
		MD_RESERVED_SECTORS;
	uint64_t kb = sectors / 2;
	kb -= kb % (uint64_t)chunk_kb;
	if (kb == 0 || kb > 0x7fffffff)
		return report_error("md",
				    "members of '%s' are too %s for 0.90 "
				    "metadata",
				    l->name, kb ? "large" : "small");

	fd = open(l->path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return report_error("md", "cannot open '%s': %s", l->path,
				    strerror(errno));
	memset(&info, 0, sizeof(info));
	info.major_version = 0;
	info.minor_version = 90;
	info.level = level;
	info.size = (int)kb;
	info.nr_disks = n;
	info.raid_disks = n;
	info.md_minor = minor;
	info.state = 1 << MD_SB_CLEAN;
	info.active_disks = n;
	info.working_disks = n;
	info.layout = level == 5 ? layout : 0;
	info.chunk_size = chunk_kb * 1024;
	if (ioctl(fd, SET_ARRAY_INFO, &info) < 0) {
		report_error("md", "SET_ARRAY_INFO on '%s': %s", l->path,
			     strerror(errno));
		goto out;
	}
	for (int i = 0; i < n; i++) {
		struct mdu_disk_info d;
		unsigned ma, mi;
		if (sys_blk_devt(members[i]->path, &ma, &mi) < 0) {
			report_error("md", "'%s' is not a block device: %s",
				     members[i]->path, strerror(errno));
			goto stop;
		}
		memset(&d, 0, sizeof(d));
		d.number = i;
		d.major = (int)ma;
		d.minor = (int)mi;
		d.raid_disk = i;
		d.state = (1 << MD_DISK_ACTIVE) | (1 << MD_DISK_SYNC);
		if (ioctl(fd, ADD_NEW_DISK, &d) < 0) {
			report_error("md", "ADD_NEW_DISK '%s' to '%s': %s",
				     members[i]->path, l->path,
				     strerror(errno));
			goto stop;
		}
	}
	struct mdu_param param;
	memset(&param, 0, sizeof(param));
	if (ioctl(fd, RUN_ARRAY, &param) < 0) {
		report_error("md", "RUN_ARRAY on '%s': %s", l->path,
			     strerror(errno));
		goto stop;
	}
	rc = 0;
	goto out;
stop:
	ioctl(fd, STOP_ARRAY, 0);
out:
	close(fd);
	return rc;
}

static int md_by_mdadm(struct layer *l, const char *level, int chunk_kb,
		       const char *layout, struct layer **members, int n)
{
	const char *tool = layer_tool("mdadm");
	const char *metadata = spec_get(l->line, "metadata");
	const char *bitmap = spec_get(l->line, "bitmap");
	const char *bchunk = spec_get(l->line, "bitmap_chunk_kb");
	char a_level[32], a_chunk[32], a_n[32], a_meta[32], a_layout[64],
		a_bchunk[48];
	char *argv[16 + MD_MAX_MEMBERS];
	int argc = 0;

	if (!tool)
		return report_error("md",
				    "method=mdadm but mdadm is not in the "
				    "initramfs");
	snprintf(a_level, sizeof(a_level), "--level=%s", level);
	snprintf(a_chunk, sizeof(a_chunk), "--chunk=%d", chunk_kb);
	snprintf(a_n, sizeof(a_n), "--raid-devices=%d", n);
	snprintf(a_meta, sizeof(a_meta), "--metadata=%s",
		 metadata ? metadata : "0.90");
	argv[argc++] = (char *)tool;
	argv[argc++] = "--create";
	argv[argc++] = l->path;
	argv[argc++] = "--run";
	argv[argc++] = "--assume-clean";
	argv[argc++] = a_meta;
	argv[argc++] = a_level;
	argv[argc++] = a_chunk;
	argv[argc++] = a_n;
	if (layout && !strcmp(level, "5")) {
		snprintf(a_layout, sizeof(a_layout), "--layout=%s", layout);
		argv[argc++] = a_layout;
	}
	if (bitmap && !strcmp(bitmap, "1")) {
		argv[argc++] = "--bitmap=internal";
		if (bchunk) {
			snprintf(a_bchunk, sizeof(a_bchunk),
				 "--bitmap-chunk=%sK", bchunk);
			argv[argc++] = a_bchunk;
		}
	} else if (strcmp(level, "0")) {
		/* mdadm refuses any --bitmap on RAID0, even "none". */
		argv[argc++] = "--bitmap=none";
	}
	for (int i = 0; i < n; i++)
		argv[argc++] = members[i]->path;
	argv[argc] = NULL;
	int rc = sys_run(argv, 300);
	if (rc != 0)
		return report_error("md", "mdadm --create '%s' failed: %s",
				    l->path,
				    rc < 0 ? strerror(errno) : "non-zero exit");
	return 0;
}

/* Wait for any resync to end: no sample may run while one does. */
static int md_wait_idle(struct layer *l)
{
	char path[128], action[64];
	uint64_t start = sys_now_ns();
	snprintf(path, sizeof(path), "/sys/block/%s/md/sync_action", l->dev);
	for (;;) {
		if (sys_read(path, action, sizeof(action)) < 0)
			return 0; /* RAID0 and old kernels have none */
		if (!strcmp(action, "idle"))
			return 0;
		if (sys_now_ns() - start > 1800ull * 1000000000ull)
			return report_error("md",
					    "'%s' still in '%s' after "
					    "30 minutes",
					    l->dev, action);
		if ((sys_now_ns() - start) / 1000000000ull % 30 == 0)
			say("%s: waiting for %s to finish", l->dev, action);
		struct timespec ts = {1, 0};
		nanosleep(&ts, NULL);
	}
}

/* Arrays are numbered md0, md1, ... in spec order. */
static int md_minor(const struct layer *l)
{
	int n = 0;
	for (const struct layer *p = layers; p < l; p++)
		n += !strcmp(p->kind, "md");
	return n;
}

static int md_create(struct layer *l, struct layer *on)
{
	const struct spec_line *line = l->line;
	int nr_md = md_minor(l);
	const char *level = spec_get(line, "level");
	const char *members = spec_get(line, "members");
	const char *method = spec_get(line, "method");
	const char *metadata = spec_get(line, "metadata");
	const char *layout = spec_get(line, "layout");
	const char *bitmap = spec_get(line, "bitmap");
	struct layer *m[MD_MAX_MEMBERS];
	uint64_t chunk_kb, stripe_cache;
	int n = 0, lcode = 2;
	char list[224];

	(void)on; /* members= names what an array sits on */
	if (!level || (strcmp(level, "0") && strcmp(level, "5")))
		return report_error("md", "'%s': level must be 0 or 5",
				    l->name);
	if (!members)
		return report_error("md", "'%s' has no members", l->name);
	if (spec_u64(line, "chunk_kb", 64, &chunk_kb) ||
	    spec_u64(line, "stripe_cache", 0, &stripe_cache))
		return -1;
	if (chunk_kb < 4 || (chunk_kb & (chunk_kb - 1)))
		return report_error("md",
				    "'%s': chunk_kb=%llu is not a power "
				    "of two >= 4",
				    l->name, (unsigned long long)chunk_kb);
	if (layout && (lcode = layout_code(layout)) < 0)
		return report_error("md", "'%s': unknown layout '%s'", l->name,
				    layout);
	snprintf(list, sizeof(list), "%s", members);
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		if (n == MD_MAX_MEMBERS)
			return report_error("md", "'%s': too many members",
					    l->name);
		if (!(m[n] = layer_find(tok)))
			return report_error("md",
					    "'%s': member '%s' is not an "
					    "earlier layer",
					    l->name, tok);
		if (m[n]->busy || !strcmp(m[n]->kind, "fs"))
			return report_error("md",
					    "'%s': member '%s' is already "
					    "in use",
					    l->name, tok);
		/* Creating an array writes a superblock on every member. */
		if (m[n]->ro)
			return report_error("md",
					    "'%s': member '%s' is read-only "
					    "and creating an array writes its "
					    "superblock",
					    l->name, tok);
		n++;
	}
	if (n < (level[0] == '5' ? 3 : 2))
		return report_error("md", "'%s': too few members", l->name);
	if (!method || !strcmp(method, "ioctl")) {
		if (md_node(l, nr_md))
			return -1;
		if (metadata && strcmp(metadata, "0.90"))
			return report_error("md",
					    "'%s': metadata %s needs "
					    "method=mdadm (ioctls create 0.90 "
					    "only)",
					    l->name, metadata);
		if (bitmap && strcmp(bitmap, "0"))
			return report_error("md",
					    "'%s': an internal bitmap needs "
					    "method=mdadm",
					    l->name);
		if (md_by_ioctl(l, level[0] - '0', (int)chunk_kb, lcode, m, n,
				nr_md))
			return -1;
		snprintf(l->how, sizeof(l->how), "ioctl");
	} else if (!strcmp(method, "mdadm")) {
		/* mdadm makes the array and its node itself. */
		snprintf(l->dev, sizeof(l->dev), "md%d", nr_md);
		snprintf(l->path, sizeof(l->path), "/dev/md%d", nr_md);
		if (md_by_mdadm(l, level, (int)chunk_kb, layout, m, n))
			return -1;
		snprintf(l->how, sizeof(l->how), "mdadm");
	} else {
		return report_error("md", "'%s': unknown method '%s'", l->name,
				    method);
	}
	int all_null = 1;
	for (int i = 0; i < n; i++) {
		layer_mark_busy(m[i]);
		all_null &= m[i]->null;
		l->nodata |= m[i]->nodata;
	}
	l->null = all_null;
	if (sys_blk_node(l->dev, l->path, sizeof(l->path)) < 0 &&
	    !sys_exists(l->path))
		return report_error("md", "no node for '%s': %s", l->dev,
				    strerror(errno));
	if (stripe_cache && level[0] == '5') {
		char path[128], val[32];
		snprintf(path, sizeof(path),
			 "/sys/block/%s/md/stripe_cache_size", l->dev);
		snprintf(val, sizeof(val), "%llu",
			 (unsigned long long)stripe_cache);
		if (sys_write(path, val) < 0)
			return report_error("md", "cannot set '%s' to %s: %s",
					    path, val, strerror(errno));
	}
	return md_wait_idle(l);
}

long md_bitmap_pages(const char *mdstat, const char *dev)
{
	char want[40];
	const char *p;
	snprintf(want, sizeof(want), "\n%s : ", dev);
	if (!(p = strstr(mdstat, want)))
		return -1;
	p += strlen(want);
	/* Its lines run to the blank line before the next array. */
	const char *end = strstr(p, "\n\n");
	const char *b = strstr(p, "bitmap: ");
	if (!b || (end && b > end))
		return -1;
	return strtol(b + 8, NULL, 10);
}

/*
 * mdadm writes a new bitmap with every chunk dirty, and the kernel clears
 * the bits of idle chunks only every daemon_sleep (5 s), two passes a bit;
 * writes to a file system made just before also dirty what they touch. A
 * write to a dirty chunk costs nothing extra, so a sample taken a few
 * seconds after the array was made never waits for a bitmap update, while
 * an array that lived for a while (the seed's) waits on every new chunk.
 * A page of counters is freed when its last bit is cleared, so "0/N
 * pages" means clean. Bounded: a bitmap that never settles (writes going
 * on) is measured as it is, and said so on the console.
 */
void md_wait_bitmaps_clean(void)
{
	for (int i = 0; i < nr_layers; i++) {
		struct layer *l = &layers[i];
		const char *bitmap;
		if (strcmp(l->kind, "md"))
			continue;
		bitmap = spec_get(l->line, "bitmap");
		if (!bitmap || strcmp(bitmap, "1"))
			continue;
		static char buf[16384];
		uint64_t start = sys_now_ns();
		long pages = -1;
		while (sys_read("/proc/mdstat", buf, sizeof(buf)) >= 0 &&
		       (pages = md_bitmap_pages(buf, l->dev)) > 0 &&
		       sys_now_ns() - start < 60ull * 1000000000ull) {
			struct timespec ts = {0, 250000000};
			nanosleep(&ts, NULL);
		}
		if (pages > 0)
			say("%s: bitmap still holds %ld page(s) of dirty "
			    "chunks after 60 s",
			    l->dev, pages);
		else
			say("%s: bitmap clean after %.1f s", l->dev,
			    (sys_now_ns() - start) / 1e9);
	}
}

/*
 * The algorithms the kernel chose, from its log: "raid6: using algorithm
 * avx2x4 gen() ..." (or "raid6: skipped pq benchmark and selected sse2x4"
 * without CONFIG_RAID6_PQ_BENCHMARK), and "xor: using function: ..." or
 * "xor: automatically using best checksumming function   avx".
 */
static void log_algo(char * xor, char *raid6, size_t size)
{
	static char buf[1 << 17];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, sizeof(buf) - 1);
	xor[0] = raid6[0] = '\0';
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		char *p;
		const char *keys[] = {
			"raid6: using algorithm ",
			"raid6: skipped pq benchmark and selected ",
			"xor: using function: ",
			"xor: automatically using best checksumming function",
		};
		for (int k = 0; k < 4; k++) {
			if (!(p = strstr(line, keys[k])))
				continue;
			p += strlen(keys[k]);
			while (*p == ' ' || *p == ':')
				p++;
			size_t len = strcspn(p, " ");
			if (len >= size)
				len = size - 1;
			char *dst = k < 2 ? raid6 : xor;
			memcpy(dst, p, len);
			dst[len] = '\0';
		}
	}
}

static void md_describe(struct json *j, const struct layer *l)
{
	struct mdu_array_info info;
	char path[160], val[128], xor[64], raid6[64];
	int fd = open(l->path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && ioctl(fd, GET_ARRAY_INFO, &info) == 0) {
		json_i64(j, "level", info.level);
		json_u64(j, "chunk_kb", (uint64_t)info.chunk_size / 1024);
		json_i64(j, "raid_disks", info.raid_disks);
		json_i64(j, "layout", info.layout);
	}
	if (fd >= 0)
		close(fd);
	json_arr_begin(j, "members");
	for (int k = 0; k < MD_MAX_MEMBERS; k++) {
		char link[128], target[128];
		snprintf(path, sizeof(path), "/sys/block/%s/md/rd%d", l->dev,
			 k);
		ssize_t n = readlink(path, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = '\0';
		/* rdN -> dev-vda: the member's kernel name. */
		const char *dev = strstr(target, "dev-");
		snprintf(link, sizeof(link), "%s", dev ? dev + 4 : target);
		json_str(j, NULL, link);
	}
	json_end(j);
	static const char *const attrs[][2] = {
		{"metadata_version", "metadata"},
		{"bitmap/location", "bitmap"},
		{"stripe_cache_size", "stripe_cache"},
		{"sync_action", "sync_action"},
		{"array_state", "array_state"},
	};
	for (size_t k = 0; k < sizeof(attrs) / sizeof(*attrs); k++) {
		snprintf(path, sizeof(path), "/sys/block/%s/md/%s", l->dev,
			 attrs[k][0]);
		if (sys_read(path, val, sizeof(val)) < 0)
			continue;
		if (!strcmp(attrs[k][1], "stripe_cache"))
			json_u64(j, "stripe_cache", strtoull(val, NULL, 10));
		else
			json_str(j, attrs[k][1], val);
	}
	log_algo(xor, raid6, sizeof(xor));
	json_str(j, "xor_algo", xor);
	json_str(j, "raid6_algo", raid6);
}

const struct layer_ops md_ops = {
	.kind = "md",
	.on = LAYER_ON_NONE,
	.whole = 1,
	.create = md_create,
	.describe = md_describe,
};
