/*
 * check_guest.c: the guest's own modules (workloads/), built for the host:
 * /spec parsing and its refusals (each an `error` frame naming the line
 * and the key), the data pattern (misplaced, stale and zeroed sectors are
 * caught), and the engines run over a matrix of their options on plain
 * files, every sample framed, counted and verified. Run by hand the guest
 * writes its frames to stdout, so each test sends them to a file and reads
 * them back through the framing of proto/frame.h.
 */
#include "../workloads/engine.h"
#include "../workloads/layers.h"
#include "../workloads/pattern.h"
#include "../workloads/report.h"
#include "../workloads/spec.h"
#include "check_skip.h"
#include "proto/spec_keys.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static char tmpdir[] = "/tmp/check_guest.XXXXXX";
static char frames[sizeof(tmpdir) + 16];

/* Each test is forked: its frames go to its own file, read back below. */
static void setup(void)
{
	strcpy(tmpdir, "/tmp/check_guest.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	snprintf(frames, sizeof(frames), "%s/frames", tmpdir);
	int fd = open(frames, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(dup2(fd, 1), 1);
	close(fd);
}

static void teardown(void)
{
	char cmd[64];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", tmpdir);
}

/* The payloads framed so far, one per line; every frame must be whole. */
struct sent {
	char *text; /* payloads joined by '\n' */
	int nr, samples, errors, points;
};

static void sent_read(struct sent *s)
{
	FILE *f = fopen(frames, "r");
	char *line = NULL;
	size_t cap = 0, len = 0;
	ssize_t n;
	unsigned long seq = 0;

	memset(s, 0, sizeof(*s));
	s->text = calloc(1, 1);
	ck_assert_ptr_nonnull(f);
	while ((n = getline(&line, &cap, f)) > 0) {
		unsigned long q;
		unsigned plen, crc;
		int off = 0;
		ck_assert_msg(sscanf(line, PROTO_MAGIC " %lu %u %x %n", &q, &plen,
				     &crc, &off) == 3 && off > 0,
			      "not a frame: %s", line);
		ck_assert_uint_eq(q, seq++);
		ck_assert_uint_eq((size_t)n, (size_t)off + plen + 1);
		ck_assert_uint_eq(proto_crc32(line + off, plen), crc);
		s->text = realloc(s->text, len + plen + 2);
		memcpy(s->text + len, line + off, plen);
		len += plen;
		s->text[len++] = '\n';
		s->text[len] = '\0';
		s->nr++;
		s->samples += !strncmp(line + off, "{\"type\":\"sample\"", 16);
		s->errors += !strncmp(line + off, "{\"type\":\"error\"", 15);
		s->points += !strncmp(line + off, "{\"type\":\"point\"", 15);
	}
	free(line);
	fclose(f);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* ------------------------------------------------------------------ */
/* /spec */

static struct spec spec;

START_TEST(spec_reads_every_directive)
{
	const char *text =
		"version 1\n"
		"# a comment, then a blank line\n"
		"\n"
		"boot id=7 commit=0123456789ab reboot=0\r\n"
		"disk name=d0 bus=virtio serial=iob0 size_mb=512 null=0\n"
		"disk name=d1 bus=nvme serial=iob1 size_mb=0 ro=1\n"
		"md name=md0 level=0 chunk_kb=64 members=d0,d1 metadata=0.90\n"
		"fs name=f on=md0 type=ext4 mount=/mnt\n"
		"point id=a engine=seqread target=/mnt/f size_mb=16 "
		"threads=2 fadvise=noreuse samples=3 warmup=1\n";
	uint64_t v;

	ck_assert_int_eq(spec_parse(&spec, text), 0);
	ck_assert_uint_eq(spec.boot_id, 7);
	ck_assert_str_eq(spec.commit, "0123456789ab");
	ck_assert_int_eq(spec.reboot, 0);
	ck_assert_int_eq(spec.nr_disks, 2);
	ck_assert_int_eq(spec.nr_layers, 2);
	ck_assert_int_eq(spec.nr_points, 1);
	ck_assert_str_eq(spec.layers[0].word, "md");
	ck_assert_str_eq(spec_get(&spec.layers[0], "members"), "d0,d1");
	ck_assert_str_eq(spec_name(&spec.points[0]), "a");
	ck_assert_int_eq(spec_u64(&spec.points[0], "threads", 1, &v), 0);
	ck_assert_uint_eq(v, 2);
	ck_assert_int_eq(spec_u64(&spec.points[0], "bs_kb", 1024, &v), 0);
	ck_assert_uint_eq(v, 1024);
	ck_assert_ptr_null(spec_get(&spec.disks[0], "ro"));
	struct sent s;
	sent_read(&s);
	ck_assert_int_eq(s.nr, 0);
	free(s.text);
}
END_TEST

/*
 * The guest takes exactly the keys of proto/spec_keys.h for each
 * directive and engine, the lists the host checks jobs against
 * (check_job.c holds the host's half).
 */
static size_t words(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += s[0] != ' ' && (s[1] == ' ' || !s[1]);
	return n;
}

#define ROW_COUNT(...) +1
#define HAS_KEY(key, ...)                                                      \
	ck_assert_msg(strstr(keys, " " #key " "), "%s: no key '%s' in '%s'",  \
		      what, #key, keys);
#define CHECK_KEYS(word, KEYS)                                                 \
	{                                                                      \
		const char *what = word, *keys = spec_keys(word);              \
		ck_assert_ptr_nonnull(keys);                                   \
		KEYS(HAS_KEY)                                                  \
		ck_assert_uint_eq(words(keys), 0 KEYS(ROW_COUNT));             \
	}
#define LAYER(kind, KEYS) CHECK_KEYS(#kind, KEYS)
#define ENGINE(engine, KEYS, metrics) CHECK_KEYS(#engine, KEYS)
START_TEST(guest_keys_are_the_shared_lists)
{
	CHECK_KEYS("boot", PROTO_BOOT_KEYS)
	CHECK_KEYS("disk", PROTO_DISK_KEYS)
	CHECK_KEYS("point", PROTO_POINT_KEYS)
	PROTO_LAYERS(LAYER)
	PROTO_ENGINES(ENGINE)
	ck_assert_ptr_null(spec_keys("raid"));
}
END_TEST
#undef LAYER
#undef ENGINE

/* A spec the guest cannot follow: one `spec` error naming what is wrong. */
static const struct {
	const char *text, *want;
} bad_specs[] = {
	{ "", "no 'version 1' line" },
	{ "version 2\n", "unknown spec version '2'" },
	{ "version 1\nraid name=x\n", "line 2: unknown directive 'raid'" },
	{ "version 1\ndisk name=d0 colour=red\n",
	  "line 2: unknown key 'colour' for 'disk'" },
	{ "version 1\ndisk name=d0 name=d1\n", "line 2: key 'name' given twice" },
	{ "version 1\ndisk name\n", "line 2: 'name' is not key=value" },
	/* An empty key read before the key list (found by fuzz_guest_spec). */
	{ "version 1\ndisk =emad0n\n", "line 2: '=emad0n' is not key=value" },
	{ "version 1\ndisk bus=virtio\n", "line 2: 'disk' has no name" },
	{ "version 1\npoint id=p target=d0\n", "line 2: point has no 'engine'" },
	{ "version 1\npoint id=p engine=iometer target=d0\n",
	  "line 2: unknown engine 'iometer'" },
	{ "version 1\npoint id=p engine=rawread\n",
	  "line 2: point has no 'target'" },
	{ "version 1\npoint id=p engine=rawread target=d0 fsync=1\n",
	  "line 2: unknown key 'fsync' for 'point'" },
	{ "version 1\nboot id=-1\n", "line 2: 'id=-1' is not a number" },
	{ "version 1\nboot id=99999999999999999999\n", "is not a number" },
	{ "version 1\nboot id=3x\n", "'id=3x' is not a number" },
	{ "version 1\ndirective=1\n", "is too long" },
	{ "version 1\ndisk name=" /* 224 bytes: one past the room */
	  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
	  "is too long" },
	{ "version 1\ndisk name=d a=1 b=1 c=1 d=1 e=1 f=1 g=1 h=1 i=1 j=1 k=1 "
	  "l=1 m=1 n=1 o=1 p=1 q=1 r=1 s=1 t=1 u=1 v=1 w=1 x=1\n",
	  "line 2: too many keys" },
};

START_TEST(spec_refusal_names_the_line_and_key)
{
	struct sent s;
	ck_assert_int_eq(spec_parse(&spec, bad_specs[_i].text), -1);
	sent_read(&s);
	ck_assert_int_eq(s.errors, 1);
	ck_assert_msg(strstr(s.text, "\"stage\":\"spec\""), "%s", s.text);
	ck_assert_msg(strstr(s.text, bad_specs[_i].want), "want '%s' in %s",
		      bad_specs[_i].want, s.text);
	free(s.text);
}
END_TEST

/*
 * A last line of "\r" with no newline after it: PID 1 looped on it for
 * ever, and the host waited for the boot's timeout (found by
 * fuzz_guest_spec).
 */
START_TEST(spec_last_line_without_newline)
{
	ck_assert_int_eq(spec_parse(&spec, "version 1\r"), 0);
	ck_assert_int_eq(spec_parse(&spec, "\r"), -1);
	ck_assert_int_eq(spec_parse(&spec, "version 1\ndisk name=d0\r"), 0);
	ck_assert_int_eq(spec.nr_disks, 1);
	ck_assert_str_eq(spec.disks[0].kv[0].val, "d0");
}
END_TEST

/* Past the room of the fixed tables: refused, never written past them. */
START_TEST(spec_limits_hold)
{
	static char text[64 * 1024];
	struct {
		const char *line, *want;
		int nr;
	} over[] = {
		{ "disk name=d%d\n", "too many disks", SPEC_MAX_DISKS + 1 },
		{ "dm name=l%d on=d0\n", "too many layers", SPEC_MAX_LAYERS + 1 },
		{ "point id=p%d engine=rawread target=d0\n", "too many points",
		  SPEC_MAX_POINTS + 1 },
	};
	for (size_t k = 0; k < ARRAY_SIZE(over); k++) {
		size_t len = (size_t)snprintf(text, sizeof(text), "version 1\n");
		for (int i = 0; i < over[k].nr; i++)
			len += (size_t)snprintf(text + len, sizeof(text) - len,
						over[k].line, i);
		ck_assert_uint_lt(len, sizeof(text) - 1);
		ck_assert_int_eq(spec_parse(&spec, text), -1);
	}
	struct sent s;
	sent_read(&s);
	ck_assert_int_eq(s.errors, 3);
	for (size_t k = 0; k < ARRAY_SIZE(over); k++)
		ck_assert_msg(strstr(s.text, over[k].want), "%s", s.text);
	free(s.text);
}
END_TEST

/* A value with bytes that are not JSON text still frames valid JSON. */
START_TEST(spec_error_frames_stay_json)
{
	struct sent s;
	ck_assert_int_eq(spec_parse(&spec, "version 1\nx\"\\\x01\xff=1\n"), -1);
	sent_read(&s);
	ck_assert_int_eq(s.errors, 1);
	ck_assert_msg(strstr(s.text, "x\\\"\\\\\\u0001?"), "%s", s.text);
	free(s.text);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The layer builder */

/*
 * What the builder refuses before any maker runs, so on the host: a line
 * that the spec's parser lets through (or one it never makes) names the
 * line and what is wrong with it.
 */
static const struct {
	const char *line, *kind, *want;
} bad_layers[] = {
	{ "dm name=x on=nope", NULL, "line 3: 'nope' is not an earlier layer" },
	{ "dm name=x", NULL, "line 3: 'x' has no on=" },
	{ "part name=p on=file:/f", NULL,
	  "line 3: only loop layers sit on files" },
	{ "dm name=d0 on=d0", NULL, "line 3: layer name 'd0' used twice" },
	{ "dm name=x on=d0", "raid", "line 3: unknown layer kind 'raid'" },
	{ "dm name=x on=d0", "disk", "line 3: unknown layer kind 'disk'" },
};

START_TEST(layers_build_refuses_bad_lines)
{
	char text[128];
	struct sent s;

	snprintf(text, sizeof(text), "version 1\ndisk name=d0\n%s\n",
		 bad_layers[_i].line);
	ck_assert_int_eq(spec_parse(&spec, text), 0);
	ck_assert_int_eq(spec.nr_layers, 1);
	if (bad_layers[_i].kind)
		strcpy(spec.layers[0].word, bad_layers[_i].kind);
	memset(&layers[0], 0, sizeof(layers[0]));
	strcpy(layers[0].name, "d0");
	strcpy(layers[0].kind, "disk");
	nr_layers = 1;
	ck_assert_int_eq(layers_build(&spec), -1);
	ck_assert_int_eq(nr_layers, 1);
	sent_read(&s);
	ck_assert_int_eq(s.errors, 1);
	ck_assert_msg(strstr(s.text, "\"stage\":\"spec\"") &&
			      strstr(s.text, bad_layers[_i].want),
		      "%s", s.text);
	free(s.text);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The data pattern */

START_TEST(pattern_catches_misplaced_stale_and_zeroed_sectors)
{
	enum { LEN = 64 * 1024 };
	static uint64_t buf[LEN / 8], other[LEN / 8];
	const uint64_t off = 1 << 20;

	pattern_fill(buf, LEN, off, 3);
	ck_assert_uint_eq(pattern_check(buf, LEN, off, 3, 0, 0), PATTERN_OK);
	/* Read from the wrong place: the first word says where. */
	ck_assert_uint_eq(pattern_check(buf, LEN, off + 512, 3, 0, 0), off + 512);
	/* Stale: an older generation. */
	ck_assert_uint_eq(pattern_check(buf, LEN, off, 2, 0, 0), off);
	/* One sector from elsewhere in the middle, caught at its head. */
	pattern_fill(other, LEN, 0, 3);
	memcpy((char *)buf + 4096, other, 512);
	ck_assert_uint_eq(pattern_check(buf, LEN, off, 3, 0, 0), off + 4096);
	/* Unless it is below skip_below (a partition table over it). */
	ck_assert_uint_eq(pattern_check(buf, LEN, off, 3, 0, off + 4608),
			  PATTERN_OK);
	/* A lost tail: the last word of a sector is checked too. */
	pattern_fill(buf, LEN, off, 3);
	buf[(8192 + 504) / 8] = 0;
	ck_assert_uint_eq(pattern_check(buf, LEN, off, 3, 0, 0),
			  off + 8192 + 504);
	/* Null disks read zeroes, and only zeroes. */
	memset(buf, 0, sizeof(buf));
	ck_assert_uint_eq(pattern_check(buf, LEN, off, 3, 1, 0), PATTERN_OK);
	buf[100] = 1;
	ck_assert_uint_eq(pattern_check(buf, LEN, off, 3, 1, 0), PATTERN_OK);
	buf[64] = 1; /* sector 1's head */
	ck_assert_uint_eq(pattern_check(buf, LEN, off, 3, 1, 0), off + 512);
	/* touch rewrites exactly what check reads: a new generation passes. */
	pattern_fill(buf, LEN, off, 3);
	pattern_touch(buf, LEN, off, 4);
	ck_assert_uint_eq(pattern_check(buf, LEN, off, 4, 0, 0), PATTERN_OK);
	ck_assert_uint_eq(pattern_check(buf, LEN, off, 3, 0, 0), off);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The engines over a matrix of their options */

static const struct {
	const char *engine, *keys;
	int metrics; /* sample frames per sample */
} matrix[] = {
	{ "seqread", "threads=1 bs_kb=4", 1 },
	{ "seqread", "threads=3 bs_kb=64", 1 },
	{ "seqread", "threads=2 bs_kb=1024 fadvise=sequential", 1 },
	{ "seqread", "threads=1 bs_kb=16 fadvise=noreuse", 1 },
	{ "seqread", "threads=4 bs_kb=4 fadvise=dontneed", 1 },
	{ "seqread", "threads=1 bs_kb=64 fadvise=none ram_x=0", 1 },
	{ "seqwrite", "threads=1 bs_kb=4 fsync=1", 1 },
	{ "seqwrite", "threads=3 bs_kb=64 fsync=0", 1 },
	{ "seqwrite", "threads=2 bs_kb=1024", 1 },
	{ "bonnie", "chunk_kb=8", 3 },
	{ "bonnie", "chunk_kb=64", 3 },
	{ "rawread", "bs_kb=4", 1 },
	{ "rawread", "bs_kb=128", 1 },
	{ "rawread", "bs_kb=64 null=1", 1 },
	{ "seqread", "threads=2 bs_kb=64 direct=1", 1 },
	{ "seqwrite", "threads=2 bs_kb=64 direct=1", 1 },
};

/* rawread reads a block layer: a plain file stands in for the disk. */
static const char *fake_disk(int null)
{
	static char path[sizeof(tmpdir) + 16];
	snprintf(path, sizeof(path), "%s/disk.img", tmpdir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 4 << 20), 0);
	close(fd);
	memset(&layers[0], 0, sizeof(layers[0]));
	strcpy(layers[0].name, "d0");
	strcpy(layers[0].kind, "disk");
	snprintf(layers[0].path, sizeof(layers[0].path), "%s", path);
	layers[0].null = null;
	nr_layers = 1;
	return "d0";
}

/* O_DIRECT is the file system's to allow (tmpfs does not). */
static int direct_works(void)
{
	char path[sizeof(tmpdir) + 16];
	snprintf(path, sizeof(path), "%s/direct", tmpdir);
	int fd = open(path, O_WRONLY | O_CREAT | O_DIRECT, 0644);
	if (fd >= 0)
		close(fd);
	unlink(path);
	return fd >= 0;
}

static int run_point(const char *engine, const char *target,
		     const char *keys)
{
	char text[1024];
	char copy[256];
	const char *null = strstr(keys, "null=1");

	/* null=1 belongs to the fake disk, not to the point line. */
	snprintf(copy, sizeof(copy), "%.*s", null ? (int)(null - keys) : 256,
		 keys);
	snprintf(text, sizeof(text),
		 "version 1\npoint id=p engine=%s target=%s size_mb=2 "
		 "samples=2 warmup=1 %s\n",
		 engine, target, copy);
	ck_assert_int_eq(spec_parse(&spec, text), 0);
	return engine_run_point(&spec.points[0], 4 << 20);
}

START_TEST(engine_matrix_frames_verified_samples)
{
	char target[sizeof(tmpdir) + 16];
	struct sent s;
	char *want;

	if (strstr(matrix[_i].keys, "direct=1") && !direct_works())
		CHECK_SKIP("%s takes no O_DIRECT", tmpdir);
	if (!strcmp(matrix[_i].engine, "rawread"))
		snprintf(target, sizeof(target), "%s",
			 fake_disk(!!strstr(matrix[_i].keys, "null=1")));
	else
		snprintf(target, sizeof(target), "%s/f", tmpdir);
	int rc = run_point(matrix[_i].engine, target, matrix[_i].keys);
	sent_read(&s);
	ck_assert_msg(rc == 0, "%s %s: %s", matrix[_i].engine, matrix[_i].keys,
		      s.text);
	ck_assert_int_eq(s.errors, 0);
	ck_assert_int_eq(s.points, 1);
	/* One warmup and two samples, each with all its metrics. */
	ck_assert_int_eq(s.samples, 3 * matrix[_i].metrics);
	ck_assert_uint_eq(count(s.text, "\"warmup\":true"), matrix[_i].metrics);
	ck_assert_uint_eq(count(s.text, "\"verified\":true"),
			  (size_t)s.samples);
	ck_assert_uint_eq(count(s.text, "\"io_bytes\":2097152,"),
			  (size_t)s.samples);
	want = matrix[_i].metrics == 3 ? "\"metric\":\"rewrite\"" : "\"metric\"";
	ck_assert_ptr_nonnull(strstr(s.text, want));
	free(s.text);
}
END_TEST

/* Options the engines cannot take: a `spec` error, and no sample. */
static const struct {
	const char *engine, *keys, *want;
} bad_options[] = {
	{ "seqread", "threads=0", "threads must be 1..64" },
	{ "seqread", "threads=65", "threads must be 1..64" },
	{ "seqread", "bs_kb=0", "block size must be a multiple of 512" },
	{ "seqread", "bs_kb=65537", "up to 64 MiB" },
	{ "seqread", "fadvise=random", "unknown fadvise 'random'" },
	{ "seqread", "threads=two", "'threads=two' is not a number" },
	{ "seqread", "ram_x=-1", "'ram_x=-1' is not a number" },
	{ "seqwrite", "bs_kb=1x", "'bs_kb=1x' is not a number" },
	{ "bonnie", "chunk_kb=0", "block size must be a multiple of 512" },
	{ "rawread", "bs_kb=64", "rawread reads block devices" },
};

START_TEST(engine_refuses_bad_options)
{
	char target[sizeof(tmpdir) + 16];
	struct sent s;

	snprintf(target, sizeof(target), "%s/f", tmpdir);
	ck_assert_int_eq(run_point(bad_options[_i].engine, target,
				   bad_options[_i].keys),
			 -1);
	sent_read(&s);
	ck_assert_int_eq(s.errors, 1);
	ck_assert_int_eq(s.samples, 0);
	ck_assert_msg(strstr(s.text, bad_options[_i].want), "want '%s' in %s",
		      bad_options[_i].want, s.text);
	free(s.text);
}
END_TEST

/* A point with no size on a file: nothing to measure. */
START_TEST(engine_needs_a_size_on_files)
{
	struct sent s;
	char text[256];
	snprintf(text, sizeof(text),
		 "version 1\npoint id=p engine=seqread target=%s/f\n", tmpdir);
	ck_assert_int_eq(spec_parse(&spec, text), 0);
	ck_assert_int_eq(engine_run_point(&spec.points[0], 1 << 20), -1);
	sent_read(&s);
	ck_assert_msg(strstr(s.text, "needs size_mb or ram_x"), "%s", s.text);
	free(s.text);
}
END_TEST

/* Bytes changed behind the guest's back: a `verify` error, not a sample. */
START_TEST(engine_reports_bad_data)
{
	char target[sizeof(tmpdir) + 16];
	struct sent s;

	snprintf(target, sizeof(target), "%s/f", tmpdir);
	ck_assert_int_eq(run_point("seqread", target, "bs_kb=64"), 0);
	/* The file is kept filled for the next point: spoil one sector. */
	int fd = open(target, O_WRONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, "spoiled!", 8, 1 << 20), 8);
	close(fd);
	ck_assert_int_eq(run_point("seqread", target, "bs_kb=64"), -1);
	sent_read(&s);
	ck_assert_int_eq(s.errors, 1);
	ck_assert_msg(strstr(s.text, "\"stage\":\"verify\"") &&
			      strstr(s.text, "bad data at byte 1048576"),
		      "%s", s.text);
	free(s.text);
}
END_TEST

/*
 * /proc/mdstat as 6.1 writes it: the bitmap line of the array asked for,
 * not of the one after it; none for an array without a bitmap.
 */
START_TEST(md_bitmap_pages_reads_mdstat)
{
	const char *mdstat =
		"Personalities : [raid0] [raid6] [raid5] [raid4]\n"
		"md1 : active raid0 vdf[1] vde[0]\n"
		"      2093056 blocks super 1.2 64k chunks\n"
		"\n"
		"md0 : active raid5 vdd[4] vdc[2] vdb[1] vda[0]\n"
		"      3145536 blocks super 1.0 level 5, 64k chunk, algorithm "
		"2 [4/4] [UUUU]\n"
		"      bitmap: 3/8 pages [12KB], 256KB chunk\n"
		"\n"
		"md2 : active raid5 vdi[3] vdh[2] vdg[1] vdj[0]\n"
		"      bitmap: 0/1 pages [0KB], 65536KB chunk\n"
		"\n"
		"unused devices: <none>";
	ck_assert_int_eq(md_bitmap_pages(mdstat, "md0"), 3);
	ck_assert_int_eq(md_bitmap_pages(mdstat, "md2"), 0);
	ck_assert_int_eq(md_bitmap_pages(mdstat, "md1"), -1);
	ck_assert_int_eq(md_bitmap_pages(mdstat, "md9"), -1);
	/* "md1" must not match the tail of "md11". */
	ck_assert_int_eq(md_bitmap_pages("x\nmd11 : active\n      bitmap: "
					 "4/4 pages\n",
					 "md1"),
			 -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("guest");
	TCase *tc = tcase_create("guest");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, spec_reads_every_directive);
	tcase_add_test(tc, guest_keys_are_the_shared_lists);
	tcase_add_loop_test(tc, spec_refusal_names_the_line_and_key, 0,
			    ARRAY_SIZE(bad_specs));
	tcase_add_test(tc, spec_last_line_without_newline);
	tcase_add_test(tc, spec_limits_hold);
	tcase_add_test(tc, spec_error_frames_stay_json);
	tcase_add_loop_test(tc, layers_build_refuses_bad_lines, 0,
			    ARRAY_SIZE(bad_layers));
	tcase_add_test(tc, pattern_catches_misplaced_stale_and_zeroed_sectors);
	tcase_add_loop_test(tc, engine_matrix_frames_verified_samples, 0,
			    ARRAY_SIZE(matrix));
	tcase_add_loop_test(tc, engine_refuses_bad_options, 0,
			    ARRAY_SIZE(bad_options));
	tcase_add_test(tc, engine_needs_a_size_on_files);
	tcase_add_test(tc, engine_reports_bad_data);
	tcase_add_test(tc, md_bitmap_pages_reads_mdstat);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
