/*
 * counters.c: the block layer's accounting around each sample (see
 * counters.h). Readings are a few small sysfs files per device, taken
 * outside the sample's timed window; the frame carries differences of the
 * counters that grow and the values of the ones that do not, and names
 * every file that could not be read, so an old kernel's missing file is
 * never taken for a zero.
 */
#include "counters.h"
#include "proto/frame.h"
#include "layers.h"
#include "report.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COUNTERS_NAME(name) #name,
static const char *const stat_names[] = {COUNTERS_STAT_FIELDS(COUNTERS_NAME)};
static const char *const queue_names[] = {COUNTERS_QUEUE_FILES(COUNTERS_NAME)};
#undef COUNTERS_NAME

int counters_parse_stat(const char *text, uint64_t out[COUNTERS_NR_STAT])
{
	const char *p = text;
	for (int i = 0; i < COUNTERS_NR_STAT; i++) {
		char *end;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		out[i] = strtoull(p, &end, 10);
		if (errno)
			return -1;
		p = end;
	}
	return 0;
}

int counters_parse_diskstats(const char *text, const char *dev,
			     uint64_t out[COUNTERS_NR_STAT])
{
	size_t len = strlen(dev);
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n'), *p = line;
		unsigned major, minor;
		int n = 0;
		/* "   8       0 sda 1 2 3 ...": the name is the third word. */
		if (sscanf(p, "%u %u %n", &major, &minor, &n) == 2 && n > 0 &&
		    !strncmp(p + n, dev, len) &&
		    (p[n + len] == ' ' || p[n + len] == '\t')) {
			char fields[512];
			size_t flen = nl ? (size_t)(nl - (p + n + len))
					 : strlen(p + n + len);
			if (flen >= sizeof(fields))
				flen = sizeof(fields) - 1;
			memcpy(fields, p + n + len, flen);
			fields[flen] = '\0';
			return counters_parse_stat(fields, out);
		}
		line = nl ? nl + 1 : NULL;
	}
	return -1;
}

int counters_parse_scheduler(const char *text, char *out, size_t size)
{
	const char *open = strchr(text, '['), *close;
	size_t n;
	if (open && (close = strchr(open, ']'))) {
		n = (size_t)(close - open - 1);
		open++;
	} else {
		/* One scheduler only ("none") is written without brackets. */
		open = text;
		n = strcspn(text, " \t\n");
	}
	if (n == 0 || n >= size)
		return -1;
	memcpy(out, open, n);
	out[n] = '\0';
	return 0;
}

uint64_t counters_delta(uint64_t before, uint64_t after)
{
	if (after >= before)
		return after - before;
	if (before <= UINT32_MAX)
		return after + (1ull << 32) - before;
	return 0; /* a 64-bit counter never wraps: a reset, not I/O */
}

/*
 * The files of every device are opened at the first reading of a boot
 * and read again from offset 0 after that: under TCG an open of a sysfs
 * path (a path walk, then a close) costs three times the read itself, and
 * every sample takes two readings. A file that cannot be opened stays
 * missing for the boot: the topology does not change under the samples.
 */
enum {
	F_STAT,
	F_QUEUE,
	F_SCHEDULER = F_QUEUE + COUNTERS_NR_QUEUE,
	F_SYNC_ACTION,
	F_STRIPE_CACHE,
	NR_FILES
};
static struct dev_files {
	int opened;
	int fd[NR_FILES]; /* -1: missing */
	char dir[96];	  /* the device's sysfs folder */
} files[LAYERS_MAX];

static void files_init(struct dev_files *df)
{
	for (int i = 0; i < NR_FILES; i++)
		df->fd[i] = -2; /* not tried yet */
	df->dir[0] = '\0';
	df->opened = 1;
}

static int file_read(int layer, int f, const char *path, char *buf, size_t size)
{
	struct dev_files *df = &files[layer];
	ssize_t n;
	if (!df->opened)
		files_init(df);
	if (df->fd[f] == -2)
		df->fd[f] = open(path, O_RDONLY | O_CLOEXEC);
	if (df->fd[f] < 0)
		return -1;
	n = pread(df->fd[f], buf, size - 1, 0);
	if (n < 0)
		return -1;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

static int file_u64(int layer, int f, const char *path, uint64_t *out)
{
	char buf[64], *end;
	if (file_read(layer, f, path, buf, sizeof(buf)) < 0)
		return -1;
	errno = 0;
	*out = strtoull(buf, &end, 10);
	return errno || end == buf ? -1 : 0;
}

/*
 * The device's sysfs folder: /sys/class/block/<dev> holds partitions as
 * well as disks; kernels with the old sysfs layout have /sys/block only.
 */
static const char *dev_dir(int layer, const char *dev)
{
	struct dev_files *df = &files[layer];
	if (!df->opened)
		files_init(df);
	if (!df->dir[0]) {
		snprintf(df->dir, sizeof(df->dir), "/sys/class/block/%s", dev);
		if (!sys_exists(df->dir))
			snprintf(df->dir, sizeof(df->dir), "/sys/block/%s",
				 dev);
	}
	return df->dir;
}

static void read_stat(struct counters_dev *d, const char *dir, const char *dev)
{
	static char diskstats[65536];
	char path[160], buf[512];
	snprintf(path, sizeof(path), "%s/stat", dir);
	if (file_read(d->layer, F_STAT, path, buf, sizeof(buf)) == 0 &&
	    counters_parse_stat(buf, d->stat) == 0) {
		d->have |= COUNTERS_HAVE_STAT;
		return;
	}
	if (sys_read("/proc/diskstats", diskstats, sizeof(diskstats)) == 0 &&
	    counters_parse_diskstats(diskstats, dev, d->stat) == 0) {
		d->have |= COUNTERS_HAVE_STAT;
		d->from_diskstats = 1;
	}
}

static void read_queue(struct counters_dev *d, const char *dir)
{
	char path[192], buf[128];
	for (int q = 0; q < COUNTERS_NR_QUEUE; q++) {
		snprintf(path, sizeof(path), "%s/queue/%s", dir,
			 queue_names[q]);
		if (file_u64(d->layer, F_QUEUE + q, path, &d->queue[q]) == 0)
			d->have |= COUNTERS_HAVE_QUEUE << q;
	}
	snprintf(path, sizeof(path), "%s/queue/scheduler", dir);
	if (file_read(d->layer, F_SCHEDULER, path, buf, sizeof(buf)) == 0 &&
	    counters_parse_scheduler(buf, d->scheduler, sizeof(d->scheduler)) ==
		    0)
		d->have |= COUNTERS_HAVE_SCHEDULER;
}

/* md's state: what a resync, the bitmap or the stripe cache is doing. */
static void read_md(struct counters_dev *d, const struct layer *l,
		    const char *dir, const char *mdstat)
{
	char path[192];
	const char *bitmap = spec_get(l->line, "bitmap");
	const char *level = spec_get(l->line, "level");
	snprintf(path, sizeof(path), "%s/md/sync_action", dir);
	if (file_read(d->layer, F_SYNC_ACTION, path, d->sync_action,
		      sizeof(d->sync_action)) == 0)
		d->have |= COUNTERS_HAVE_SYNC_ACTION;
	if (bitmap && !strcmp(bitmap, "1") && mdstat) {
		long pages = md_bitmap_pages(mdstat, l->dev);
		if (pages >= 0) {
			d->bitmap_pages = (uint64_t)pages;
			d->have |= COUNTERS_HAVE_BITMAP;
		}
	}
	snprintf(path, sizeof(path), "%s/md/stripe_cache_active", dir);
	if (level && !strcmp(level, "5") &&
	    file_u64(d->layer, F_STRIPE_CACHE, path, &d->stripe_cache_active) ==
		    0)
		d->have |= COUNTERS_HAVE_STRIPE_CACHE;
}

void counters_take(struct counters_snap *s)
{
	static char mdstat[16384];
	int have_mdstat = -1;
	uint64_t t0 = sys_now_ns();

	s->nr = 0;
	for (int i = 0; i < nr_layers; i++) {
		const struct layer *l = &layers[i];
		struct counters_dev *d = &s->dev[s->nr];
		const char *dir;
		/* A file system is no device: its I/O is its device's. */
		if (!strcmp(l->kind, "fs") || !l->dev[0])
			continue;
		memset(d, 0, sizeof(*d));
		d->layer = i;
		dir = dev_dir(i, l->dev);
		read_stat(d, dir, l->dev);
		/* A partition has no queue of its own: its disk's is read. */
		if (strcmp(l->kind, "part"))
			read_queue(d, dir);
		if (!strcmp(l->kind, "md")) {
			if (have_mdstat < 0)
				have_mdstat = sys_read("/proc/mdstat", mdstat,
						       sizeof(mdstat)) == 0;
			read_md(d, l, dir, have_mdstat ? mdstat : NULL);
		}
		s->nr++;
	}
	s->at_ns = sys_now_ns();
	s->took_ns = s->at_ns - t0;
}

static const struct counters_dev *find_dev(const struct counters_snap *s,
					   int layer)
{
	for (int i = 0; i < s->nr; i++)
		if (s->dev[i].layer == layer)
			return &s->dev[i];
	return NULL;
}

/* Names what either reading lacked, so the host never sees a zero. */
static void missing_json(struct json *j, const struct layer *l, unsigned have)
{
	int part = !strcmp(l->kind, "part"), md = !strcmp(l->kind, "md");
	const char *bitmap = md ? spec_get(l->line, "bitmap") : NULL;
	const char *level = md ? spec_get(l->line, "level") : NULL;
	json_arr_begin(j, "missing");
	if (!(have & COUNTERS_HAVE_STAT))
		json_str(j, NULL, "stat");
	for (int q = 0; q < COUNTERS_NR_QUEUE && !part; q++)
		if (!(have & (COUNTERS_HAVE_QUEUE << q)))
			json_str(j, NULL, queue_names[q]);
	if (!part && !(have & COUNTERS_HAVE_SCHEDULER))
		json_str(j, NULL, "scheduler");
	if (md && !(have & COUNTERS_HAVE_SYNC_ACTION))
		json_str(j, NULL, "sync_action");
	if (md && bitmap && !strcmp(bitmap, "1") &&
	    !(have & COUNTERS_HAVE_BITMAP))
		json_str(j, NULL, "bitmap_pages");
	if (md && level && !strcmp(level, "5") &&
	    !(have & COUNTERS_HAVE_STRIPE_CACHE))
		json_str(j, NULL, "stripe_cache_active");
	json_end(j);
}

static void dev_json(struct json *j, const struct counters_dev *a,
		     const struct counters_dev *b)
{
	const struct layer *l = &layers[b->layer];
	unsigned have = a->have & b->have;
	int changed = 0;

	json_obj_begin(j, NULL);
	json_str(j, "dev", l->dev);
	json_str(j, "layer", l->name);
	json_str(j, "kind", l->kind);
	if (have & COUNTERS_HAVE_STAT) {
		json_str(j, "stat_from",
			 b->from_diskstats ? "diskstats" : "sysfs");
		json_obj_begin(j, "stat");
		for (int f = 0; f < COUNTERS_NR_STAT; f++)
			json_u64(j, stat_names[f],
				 f == COUNTERS_in_flight
					 ? b->stat[f]
					 : counters_delta(a->stat[f],
							  b->stat[f]));
		json_end(j);
	}
	/* Limits as the sample ended; one that moved is said twice. */
	json_obj_begin(j, "queue");
	for (int q = 0; q < COUNTERS_NR_QUEUE; q++) {
		if (!(have & (COUNTERS_HAVE_QUEUE << q)))
			continue;
		json_u64(j, queue_names[q], b->queue[q]);
		changed |= a->queue[q] != b->queue[q];
	}
	if (have & COUNTERS_HAVE_SCHEDULER)
		json_str(j, "scheduler", b->scheduler);
	json_end(j);
	if (changed) {
		json_obj_begin(j, "queue_before");
		for (int q = 0; q < COUNTERS_NR_QUEUE; q++)
			if ((have & (COUNTERS_HAVE_QUEUE << q)) &&
			    a->queue[q] != b->queue[q])
				json_u64(j, queue_names[q], a->queue[q]);
		json_end(j);
	}
	if (!strcmp(l->kind, "md")) {
		json_obj_begin(j, "md");
		if (have & COUNTERS_HAVE_SYNC_ACTION) {
			json_str(j, "sync_action", b->sync_action);
			if (strcmp(a->sync_action, b->sync_action))
				json_str(j, "sync_action_before",
					 a->sync_action);
		}
		if (have & COUNTERS_HAVE_BITMAP) {
			json_u64(j, "bitmap_pages", b->bitmap_pages);
			json_u64(j, "bitmap_pages_before", a->bitmap_pages);
		}
		if (have & COUNTERS_HAVE_STRIPE_CACHE) {
			json_u64(j, "stripe_cache_active",
				 b->stripe_cache_active);
			json_u64(j, "stripe_cache_active_before",
				 a->stripe_cache_active);
		}
		json_end(j);
	}
	missing_json(j, l, have);
	json_end(j);
}

void counters_json(struct json *j, const struct counters_snap *a,
		   const struct counters_snap *b)
{
	json_obj_begin(j, PROTO_COUNTERS_KEY);
	/* From the end of the first reading to the start of the second. */
	json_u64(j, "interval_ns", b->at_ns - b->took_ns - a->at_ns);
	/* What one reading cost: the overhead a sample pays, twice. */
	json_u64(j, "read_ns", b->took_ns);
	json_arr_begin(j, "devices");
	for (int i = 0; i < b->nr; i++) {
		const struct counters_dev *before =
			find_dev(a, b->dev[i].layer);
		if (before)
			dev_json(j, before, &b->dev[i]);
	}
	json_end(j);
	json_end(j);
}
