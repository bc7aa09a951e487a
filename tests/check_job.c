/*
 * check_job.c: job files (job.c): defaults, presets and overrides, matrix
 * expansion over the workload and over topology settings, the seed jobs,
 * kernel versions, and one clear error naming the key for every malformed
 * job in tests/jobs/bad/.
 */
#include "check_skip.h"
#include "run.h"
#include "cpus.h"
#include "vcpus.h"
#include "clock.h"
#include "initramfs.h"
#include "install_dirs.h"
#include "job.h"
#include "job_datadir.h"
#include "job_keys.h"
#include "job_parse.h"
#include "prebuilt.h"
#include "guest_spec.h"
#include "util.h"

#include <check.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* The source tree: presets and job files are read from it. */
static char *srcdir;

static void setup(void)
{
	const char *f = __FILE__, *t = strstr(f, "tests/check_job.c");
	srcdir = t && t > f ? xstrndup(f, (size_t)(t - f - 1)) : xstrdup(".");
	setenv("IOBISECT_DATA", srcdir, 1);
}

static void teardown(void)
{
	free(srcdir);
}

static int parse(struct job *job, const char *text, struct strbuf *err)
{
	error_capture(err);
	int r = job_parse(job, text, "job.json");
	error_capture(NULL);
	return r;
}

static int load(struct job *job, const char *rel, struct strbuf *err)
{
	char *path = xstrfmt("%s/%s", srcdir, rel);
	error_capture(err);
	int r = job_load(job, path);
	error_capture(NULL);
	free(path);
	return r;
}

static const char *key_of(const struct strvec *sv, const char *key)
{
	return strvec_value(sv, key);
}

START_TEST(defaults_fill_a_minimal_job)
{
	struct job job;
	struct strbuf err = STRBUF_INIT;
	ck_assert_int_eq(parse(&job, "{\"topology\": \"virtio\", "
				     "\"workload\": \"rawread\"}",
			       &err),
			 0);
	ck_assert_str_eq(job.name, "job");
	ck_assert_int_eq(job.machine.cpus, vcpus_default());
	ck_assert_int_eq(job.machine.memory_mb, 512);
	ck_assert_int_eq(job.machine.timeout_s, 300);
	ck_assert_str_eq(job.machine.accel, "auto");
	ck_assert_int_eq(job.machine.pin, 1);
	ck_assert_int_eq(job.runs_min, 1);
	ck_assert_int_eq(job.runs_max, 8);
	ck_assert_int_eq(job.faster, 0);
	ck_assert_double_eq_tol(job.confidence, 0.95, 1e-12);
	ck_assert_int_eq(job.samples, 3);
	ck_assert_int_eq(job.warmup, 1);
	ck_assert_str_eq(job.metric, "read");
	ck_assert_str_eq(job.results, "results");
	ck_assert_int_eq(job.bisect_type, BISECT_PERF);
	ck_assert_int_eq(job.threshold.kind, THRESHOLD_AUTO);
	ck_assert_uint_eq(job.kconfig.fragments.nr, 9);
	ck_assert_str_eq(job.kconfig.fragments.v[0], "base");
	ck_assert_str_eq(job.kconfig.fragments.v[7], "xfs");
	ck_assert_str_eq(job.kconfig.fragments.v[8], "nullb");
	ck_assert_ptr_null(job.repo);
	error_capture(&err);
	ck_assert_int_ne(job_check_bisect(&job), 0);
	error_capture(NULL);
	ck_assert_ptr_nonnull(strstr(err.buf, "missing key 'repo'"));

	ck_assert_uint_eq(job.nr_topologies, 1);
	ck_assert_str_eq(job.topologies[0].name, "virtio");
	ck_assert_uint_eq(job.topologies[0].nr_disks, 1);
	struct disk_spec *d = &job.topologies[0].disks[0];
	ck_assert_int_eq(d->bus, BUS_VIRTIO);
	ck_assert_int_eq(d->backing, BACKING_NULL);
	ck_assert_uint_eq(d->latency_ns, 200000);
	ck_assert_uint_eq(d->size_mb, 1024);

	ck_assert_uint_eq(job.nr_points, 1);
	ck_assert_str_eq(job.points[0].id, "default");
	ck_assert_str_eq(job.points[0].engine, "rawread");
	ck_assert_str_eq(job.points[0].target, "d0");
	job_release(&job);
	strbuf_release(&err);
}
END_TEST

/*
 * machine.clock and its shift: "auto", and the shift the disks call for
 * unless said (4 for QEMU's latency, 0 for null_blk's, a guest timer).
 */
START_TEST(machine_clock_is_read)
{
	struct job job;
	struct strbuf err = STRBUF_INIT;
	ck_assert_int_eq(parse(&job, "{\"topology\": \"virtio\", "
				     "\"workload\": \"rawread\"}",
			       &err),
			 0);
	ck_assert_str_eq(job.machine.clock, "auto");
	ck_assert_int_eq(clock_job_shift(&job), CLOCK_ICOUNT_SHIFT);
	job_release(&job);
	ck_assert_int_eq(parse(&job, "{\"topology\": \"nullb\", "
				     "\"workload\": \"rawread\"}",
			       &err),
			 0);
	ck_assert_int_eq(clock_job_shift(&job),
			 CLOCK_ICOUNT_SHIFT_GUEST_WAITS);
	job_release(&job);
	ck_assert_int_eq(parse(&job, "{\"machine\": {\"clock\": \"wall\", "
				     "\"icount_shift\": 0}, \"topology\": "
				     "\"virtio\", \"workload\": \"rawread\"}",
			       &err),
			 0);
	ck_assert_str_eq(job.machine.clock, "wall");
	ck_assert_int_eq(job.machine.icount_shift, 0);
	job_release(&job);
	strbuf_release(&err);
}
END_TEST

/* write_latency_ns: every disk of a preset, or one; images and tmpfs only. */
START_TEST(write_latency_reaches_image_disks)
{
	struct job job;
	struct strbuf err = STRBUF_INIT;
	ck_assert_int_eq(parse(&job,
			       "{\"topology\": {\"preset\": \"raid5-4\", "
			       "\"disks\": {\"write_latency_ns\": 8000000}, "
			       "\"d2\": {\"write_latency_ns\": 0}}, "
			       "\"workload\": {\"engine\": \"rawread\", "
			       "\"target\": \"d0\"}}",
			       &err),
			 0);
	const struct topology *t = &job.topologies[0];
	ck_assert_uint_eq(t->disks[0].write_latency_ns, 8000000);
	ck_assert_uint_eq(t->disks[3].write_latency_ns, 8000000);
	ck_assert_uint_eq(t->disks[2].write_latency_ns, 0);
	job_release(&job);

	ck_assert_int_eq(parse(&job,
			       "{\"topology\": {\"disks\": [{\"backing\": "
			       "\"tmpfs\", \"size_mb\": 8, "
			       "\"write_latency_ns\": 1000000000}]}, "
			       "\"workload\": \"rawread\"}",
			       &err),
			 0);
	ck_assert_uint_eq(job.topologies[0].disks[0].write_latency_ns,
			  1000000000);
	job_release(&job);

	ck_assert_int_eq(parse(&job,
			       "{\"topology\": {\"disks\": [{\"backing\": "
			       "\"image\", \"size_mb\": 8, "
			       "\"write_latency_ns\": -1}]}, "
			       "\"workload\": \"rawread\"}",
			       &err),
			 -1);
	ck_assert_ptr_nonnull(strstr(err.buf, "topology.disks[0]."
					      "write_latency_ns: -1 is out of "
					      "range (0..1000000000)"));
	strbuf_reset(&err);
	ck_assert_int_eq(parse(&job,
			       "{\"topology\": {\"disks\": [{\"backing\": "
			       "\"host\", \"path\": \"/dev/sdz\", "
			       "\"write_latency_ns\": 1000}]}, "
			       "\"workload\": \"rawread\"}",
			       &err),
			 -1);
	ck_assert_ptr_nonnull(strstr(err.buf, "disk 'd0': write_latency_ns "
					      "needs backing image or tmpfs"));
	strbuf_release(&err);
}
END_TEST

START_TEST(workload_lists_expand_in_key_then_list_order)
{
	struct job job;
	struct strbuf err = STRBUF_INIT;
	const char *want[] = {
		"threads=1,bs_kb=4,ra_kb=0",	"threads=1,bs_kb=4,ra_kb=3584",
		"threads=1,bs_kb=64,ra_kb=0",	"threads=1,bs_kb=64,ra_kb=3584",
		"threads=4,bs_kb=4,ra_kb=0",	"threads=4,bs_kb=4,ra_kb=3584",
		"threads=4,bs_kb=64,ra_kb=0",	"threads=4,bs_kb=64,ra_kb=3584",
	};
	ck_assert_int_eq(
		parse(&job,
		      "{\"topology\": \"raid0-4\", \"workload\": {\"engine\": "
		      "\"seqread\", \"threads\": [1, 4], \"size_mb\": 64, "
		      "\"bs_kb\": [4, 64], \"direct\": true, \"ra_kb\": [0, "
		      "3584]}, \"metric_point\": \"threads=4,bs_kb=4,ra_kb=0\"}",
		      &err),
		0);
	ck_assert_uint_eq(job.nr_points, ARRAY_SIZE(want));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		const struct point *p = &job.points[i];
		ck_assert_str_eq(p->id, want[i]);
		ck_assert_str_eq(p->target, "md0");
		ck_assert_int_eq(p->topo, 0);
		/* Engine keys in file order, fixed ones included. */
		ck_assert_uint_eq(p->keys.nr, 5);
		ck_assert_str_eq(p->keys.v[1], "size_mb=64");
		ck_assert_str_eq(p->keys.v[3], "direct=1");
	}
	ck_assert_str_eq(key_of(&job.points[5].keys, "threads"), "4");
	ck_assert_str_eq(key_of(&job.points[5].keys, "ra_kb"), "3584");
	job_release(&job);
	strbuf_release(&err);
}
END_TEST

START_TEST(topology_lists_expand_into_topologies)
{
	struct job job;
	struct strbuf err = STRBUF_INIT;
	ck_assert_int_eq(
		parse(&job,
		      "{\"topology\": {\"preset\": \"raid5-4\", \"md0\": "
		      "{\"bitmap\": [0, 1], \"chunk_kb\": [64, 512]}}, "
		      "\"workload\": {\"engine\": \"rawread\", \"bs_kb\": "
		      "[128, 2048]}}",
		      &err),
		0);
	ck_assert_uint_eq(job.nr_topologies, 4);
	/* Named in the layer's key order (the preset's), lists nested so. */
	ck_assert_str_eq(job.topologies[0].name,
			 "raid5-4,chunk_kb=64,bitmap=0");
	ck_assert_str_eq(job.topologies[1].name,
			 "raid5-4,chunk_kb=64,bitmap=1");
	ck_assert_str_eq(job.topologies[3].name,
			 "raid5-4,chunk_kb=512,bitmap=1");
	ck_assert_str_eq(job.topologies[2].name,
			 "raid5-4,chunk_kb=512,bitmap=0");
	const struct layer_spec *l = &job.topologies[2].layers[0];
	ck_assert_str_eq(l->kind, "md");
	ck_assert_str_eq(l->keys.v[0], "name=md0");
	ck_assert_str_eq(key_of(&l->keys, "bitmap"), "0");
	ck_assert_str_eq(key_of(&l->keys, "chunk_kb"), "512");
	ck_assert_str_eq(key_of(&l->keys, "members"), "d0,d1,d2,d3");
	ck_assert_str_eq(key_of(&l->keys, "metadata"), "0.90");
	/* Every topology gets every point; ids repeat, topo differs. */
	ck_assert_uint_eq(job.nr_points, 8);
	for (size_t i = 0; i < 8; i++) {
		ck_assert_int_eq(job.points[i].topo, (int)(i / 2));
		ck_assert_str_eq(job.points[i].id,
				 i % 2 ? "bs_kb=2048" : "bs_kb=128");
	}
	job_release(&job);
	strbuf_release(&err);
}
END_TEST

START_TEST(overrides_reach_disks_and_layers)
{
	struct job job;
	struct strbuf err = STRBUF_INIT;
	ck_assert_int_eq(
		parse(&job,
		      "{\"topology\": {\"preset\": \"raid0-4\", \"name\": "
		      "\"fast0\", \"disks\": {\"latency_ns\": 50000}, \"d3\": "
		      "{\"size_mb\": 2048}, \"extra_layers\": [{\"kind\": "
		      "\"dm\", \"name\": \"lin\", \"on\": \"md0\"}]}, "
		      "\"workload\": \"rawread\"}",
		      &err),
		0);
	const struct topology *t = &job.topologies[0];
	ck_assert_str_eq(t->name, "fast0");
	ck_assert_uint_eq(t->disks[0].latency_ns, 50000);
	ck_assert_uint_eq(t->disks[3].latency_ns, 50000);
	ck_assert_uint_eq(t->disks[2].size_mb, 1024);
	ck_assert_uint_eq(t->disks[3].size_mb, 2048);
	ck_assert_uint_eq(t->nr_layers, 2);
	/* The default target is the top of the stack. */
	ck_assert_str_eq(job.points[0].target, "lin");
	job_release(&job);

	const char *ov[] = { "topology=passthrough", "topology.path=/dev/loop7",
			     "workload=rawread", "workload.bs_kb=[128,2048]",
			     "machine.memory_mb=1024", NULL };
	error_capture(&err);
	int r = job_load_overrides(&job, NULL, ov);
	error_capture(NULL);
	ck_assert_msg(r == 0, "%s", err.buf);
	t = &job.topologies[0];
	ck_assert_str_eq(job.name, "run");
	ck_assert_int_eq(t->disks[0].backing, BACKING_HOST);
	ck_assert_str_eq(t->disks[0].path, "/dev/loop7");
	ck_assert_int_eq(t->disks[0].readonly, 1);
	ck_assert_str_eq(t->disks[0].cache, "none");
	ck_assert_int_eq(job.machine.memory_mb, 1024);
	ck_assert_uint_eq(job.nr_points, 2);
	ck_assert_str_eq(job.points[1].id, "bs_kb=2048");
	job_release(&job);
	strbuf_release(&err);
}
END_TEST

/*
 * max_sectors_kb is a guest-side cap as well as a QEMU one, so every bus
 * takes it (virtio-blk and IDE have no QEMU knob); below a page it is an
 * error naming the key.
 */
/*
 * An override that is not UTF-8 cannot be JSON: it is an error naming
 * it, not dropped (--set results=<bytes> used to write to ./results).
 */
static const char *const not_utf8[] = {
	"results=/tmp/r\xff",	     /* a value jansson refused */
	"topology.\xfe=1",	     /* a key it refused */
	"workload.bs_kb=\xc0\x80", /* an overlong NUL */
	"results=\xed\xa0\x80",   /* a surrogate */
};

START_TEST(override_not_utf8_is_an_error)
{
	const char *ov[] = { "topology=virtio", "workload=rawread",
			     not_utf8[_i], NULL };
	struct strbuf err = STRBUF_INIT;
	struct job job;

	error_capture(&err);
	int r = job_load_overrides(&job, NULL, ov);
	error_capture(NULL);
	if (!r)
		job_release(&job);
	ck_assert_msg(r == -1, "'%s' was taken", not_utf8[_i]);
	ck_assert_msg(strstr(err.buf, "is not valid UTF-8") &&
			      strstr(err.buf, "\\x") && !strchr(err.buf, '\n'),
		      "%s", err.buf);
	strbuf_release(&err);
}
END_TEST

START_TEST(max_sectors_kb_on_every_bus)
{
	struct job job;
	struct strbuf err = STRBUF_INIT;
	/* Every bus of QEMU's in the table (nullb's cap is null_blk's). */
	for (size_t b = 0; b < NR_BUSES; b++) {
		if (bus_has(b, BUS_GUEST))
			continue;
		char *text = xstrfmt(
			"{\"topology\": {\"preset\": \"virtio\", \"d0\": "
			"{\"bus\": \"%s\", \"max_sectors_kb\": 8}}, "
			"\"workload\": \"rawread\"}",
			bus_info[b].name);
		strbuf_reset(&err);
		ck_assert_msg(parse(&job, text, &err) == 0, "%s: %s",
			      bus_info[b].name, err.buf);
		ck_assert_int_eq(job.topologies[0].disks[0].bus, (int)b);
		ck_assert_uint_eq(job.topologies[0].disks[0].max_sectors_kb, 8);
		job_release(&job);
		free(text);
	}
	strbuf_reset(&err);
	ck_assert_int_eq(parse(&job,
			       "{\"topology\": {\"preset\": \"virtio\", "
			       "\"disks\": {\"max_sectors_kb\": 2}}, "
			       "\"workload\": \"rawread\"}",
			       &err),
			 -1);
	ck_assert_msg(strstr(err.buf, "max_sectors_kb: 2 is below one 4 KiB "
				      "page"),
		      "%s", err.buf);
	strbuf_release(&err);
}
END_TEST

START_TEST(file_targets_and_fs_layers)
{
	struct job job;
	struct strbuf err = STRBUF_INIT;
	ck_assert_int_eq(
		parse(&job,
		      "{\"topology\": {\"preset\": \"raid5-4\", "
		      "\"extra_layers\": [{\"kind\": \"fs\", \"name\": \"fs0\", "
		      "\"on\": \"md0\", \"type\": \"ext4\", \"mount\": \"/mnt\", "
		      "\"mkfs_args\": [\"-E\", \"stride=16\"]}]}, \"workload\": "
		      "{\"engine\": \"seqwrite\", \"target\": [\"/mnt/a\", "
		      "\"/mnt/b\"]}, \"metric\": \"write\"}",
		      &err),
		0);
	ck_assert_str_eq(key_of(&job.topologies[0].layers[1].keys,
				"mkfs_args"),
			 "-E,stride=16");
	ck_assert_str_eq(job.points[1].target, "/mnt/b");
	ck_assert_str_eq(key_of(&job.topologies[0].layers[1].keys, "mount"),
			 "/mnt");
	/* The id is a folder name: no slashes. */
	ck_assert_str_eq(job.points[1].id, "target=_mnt_b");
	job_release(&job);
	strbuf_release(&err);
}
END_TEST

/* Each seed job parses into the matrix its README describes. */
START_TEST(seed_jobs_load)
{
	struct job job;
	struct strbuf err = STRBUF_INIT;

	ck_assert_msg(!load(&job, "tests/jobs/seeds/raid0-readahead.json", &err),
		      "%s", err.buf);
	ck_assert_uint_eq(job.nr_topologies, 1);
	ck_assert_uint_eq(job.nr_points, 8);
	ck_assert_str_eq(job.points[6].id, "threads=2,bs_kb=239,ra_kb=1792");
	ck_assert_int_eq(job.threshold.kind, THRESHOLD_PERCENT);
	ck_assert(job.threshold.value == 10.0);
	/*
	 * As shipped, the fixture's kernel with Debian's compiler: no
	 * toolchain this machine lacks (docs/old-kernels.md, for 2.6).
	 */
	ck_assert_uint_eq(job.nr_toolchains, 0);
	ck_assert_str_eq(job.bad, "v6.1");
	ck_assert_ptr_nonnull(strstr(job.repo, "/iobisect/fixture/linux"));
	ck_assert_int_ne(job.repo[0], '~');
	job_release(&job);

	ck_assert_msg(!load(&job, "tests/jobs/seeds/raid5-bitmap.json", &err),
		      "%s", err.buf);
	ck_assert_uint_eq(job.nr_topologies, 2);
	ck_assert_str_eq(job.topologies[0].name, "raid5-4,bitmap=0");
	ck_assert_str_eq(job.topologies[1].name, "raid5-4,bitmap=1");
	ck_assert_str_eq(key_of(&job.topologies[1].layers[0].keys, "metadata"),
			 "1.0");
	ck_assert_str_eq(job.topologies[1].layers[1].kind, "fs");
	/* The preset's disks make the bitmap's flushed writes cost time. */
	for (size_t i = 0; i < job.topologies[1].nr_disks; i++)
		ck_assert_uint_eq(job.topologies[1].disks[i].write_latency_ns,
				  10000000);
	ck_assert_uint_eq(job.nr_points, 2);
	ck_assert_str_eq(job.points[1].engine, "bonnie");
	ck_assert_int_eq(job.points[1].topo, 1);
	ck_assert_str_eq(job.metric, "write");
	job_release(&job);

	ck_assert_msg(!load(&job, "tests/jobs/seeds/dd-partition-loop-dm.json",
			    &err),
		      "%s", err.buf);
	ck_assert_uint_eq(job.nr_points, 8);
	ck_assert_str_eq(job.points[0].id, "target=d0,bs_kb=128");
	ck_assert_str_eq(job.points[7].id, "target=lin,bs_kb=2048");
	ck_assert_str_eq(job.points[7].target, "lin");
	ck_assert_str_eq(job.metric_point, "target=lin,bs_kb=128");
	/* "max": "3.2" covers every 3.2.x. */
	ck_assert(kver_in_range(KVER(3, 2, 9), &job.kconfig.rules[0].range));
	ck_assert(!kver_in_range(KVER(3, 3, 0), &job.kconfig.rules[0].range));
	job_release(&job);
	strbuf_release(&err);
}
END_TEST

/*
 * A toolchain's environment and a prebuilt source, as jobs write them: a
 * prefix string is split at blanks, braces that are not placeholders (a
 * podman format) are kept, a chroot is a folder with ~ expanded, and a
 * folder without names looks for "{commit}/bzImage".
 */
START_TEST(toolchain_environments_and_prebuilt_sources)
{
	struct job job;
	struct strbuf err = STRBUF_INIT;
	const char *text =
		"{\"topology\": \"virtio\", \"workload\": {\"engine\": "
		"\"rawread\"}, \"toolchain\": ["
		"{\"max\": \"3.2\", \"cc\": \"gcc-4.9\", \"prefix\": "
		"\"podman run --rm -v {src}:{src} -v {out}:{out} gcc:4.9\", "
		"\"identity\": \"podman image inspect --format {{.Digest}} "
		"gcc:4.9\"},"
		"{\"cc\": \"gcc-11\", \"chroot\": \"~/\"},"
		"{\"cc\": \"gcc-12\"}], "
		"\"prebuilt\": {\"folder\": \"/tmp\"}}";

	setenv("HOME", "/tmp", 1);
	ck_assert_msg(!parse(&job, text, &err), "%s", err.buf);
	ck_assert_uint_eq(job.nr_toolchains, 3);
	ck_assert_int_eq(job.toolchains[0].env.kind, TOOLENV_PREFIX);
	ck_assert_uint_eq(job.toolchains[0].env.prefix.nr, 8);
	ck_assert_str_eq(job.toolchains[0].env.prefix.v[4], "{src}:{src}");
	ck_assert_uint_eq(job.toolchains[0].env.identity.nr, 6);
	ck_assert_str_eq(job.toolchains[0].env.identity.v[4], "{{.Digest}}");
	ck_assert_int_eq(job.toolchains[1].env.kind, TOOLENV_CHROOT);
	ck_assert_str_eq(job.toolchains[1].env.root, "/tmp/");
	ck_assert_int_eq(job.toolchains[2].env.kind, TOOLENV_HOST);
	ck_assert_ptr_nonnull(job.prebuilt);
	ck_assert_str_eq(job.prebuilt->folder, "/tmp");
	ck_assert_uint_eq(job.prebuilt->names.nr, 1);
	ck_assert_str_eq(job.prebuilt->names.v[0], PREBUILT_DEFAULT_NAME);
	job_release(&job);

	ck_assert_msg(!parse(&job,
			     "{\"topology\": \"virtio\", \"workload\": "
			     "{\"engine\": \"rawread\"}, \"prebuilt\": "
			     "{\"command\": [\"sh\", \"-c\", \"cp "
			     "/srv/$1 $2\", \"-\", \"{tag}\", "
			     "\"{out}\"]}}",
			     &err),
		      "%s", err.buf);
	ck_assert_uint_eq(job.prebuilt->command.nr, 6);
	ck_assert_str_eq(job.prebuilt->command.v[2], "cp /srv/$1 $2");
	ck_assert_ptr_null(job.prebuilt->folder);
	job_release(&job);
	strbuf_release(&err);
}
END_TEST

/* The point line the guest gets for point i, as text: its boot's spec's. */
static char *point_line(const struct job *job, size_t i)
{
	const struct point *pt = &job->points[i];
	struct strbuf sb = STRBUF_INIT;
	char *head = xstrfmt("\npoint id=%s ", pt->id), *line;
	const char *at;

	ck_assert_int_eq(guest_spec_render(job, pt->topo, "x", 1, &sb), 0);
	at = strstr(sb.buf, head);
	ck_assert_msg(at, "no line of point '%s' in:\n%s", pt->id, sb.buf);
	line = xstrndup(at + 1, strcspn(at + 1, "\n") + 1);
	free(head);
	strbuf_release(&sb);
	return line;
}

/*
 * runtime_ms on the engines that take it: as a value it is a point key and
 * goes to the guest; as a list it names the points; 0 is "no time bound",
 * the same as leaving it out, down to the spec line (so the spec hash of
 * a job that spells out 0 is the one it had before the key existed).
 */
START_TEST(runtime_ms_is_a_point_key)
{
	static const char *const engines[] = { "rawread", "seqread",
					       "seqwrite" };
	struct job job, none;
	struct strbuf err = STRBUF_INIT;
	for (size_t e = 0; e < ARRAY_SIZE(engines); e++) {
		char *text = xstrfmt("{\"topology\": \"virtio\", \"workload\": "
				     "{\"engine\": \"%s\", \"runtime_ms\": "
				     "250}, \"metric\": \"%s\"}",
				     engines[e],
				     e == 2 ? "write" : "read");
		ck_assert_msg(parse(&job, text, &err) == 0, "%s: %s",
			      engines[e], err.buf);
		ck_assert_str_eq(job.points[0].id, "default");
		ck_assert_str_eq(key_of(&job.points[0].keys, "runtime_ms"),
				 "250");
		char *line = point_line(&job, 0);
		ck_assert_ptr_nonnull(strstr(line, " runtime_ms=250"));
		free(line);
		job_release(&job);
		free(text);
	}

	ck_assert_int_eq(parse(&job,
			       "{\"topology\": \"virtio\", \"workload\": "
			       "{\"engine\": \"rawread\", \"runtime_ms\": [0, "
			       "500]}}",
			       &err),
			 0);
	ck_assert_uint_eq(job.nr_points, 2);
	ck_assert_str_eq(job.points[0].id, "runtime_ms=0");
	ck_assert_str_eq(job.points[1].id, "runtime_ms=500");
	ck_assert_ptr_null(key_of(&job.points[0].keys, "runtime_ms"));
	ck_assert_str_eq(key_of(&job.points[1].keys, "runtime_ms"), "500");
	job_release(&job);

	ck_assert_int_eq(parse(&job,
			       "{\"topology\": \"virtio\", \"workload\": "
			       "{\"engine\": \"rawread\", \"runtime_ms\": 0}}",
			       &err),
			 0);
	ck_assert_int_eq(parse(&none,
			       "{\"topology\": \"virtio\", \"workload\": "
			       "{\"engine\": \"rawread\"}}",
			       &err),
			 0);
	char *a = point_line(&job, 0), *b = point_line(&none, 0);
	ck_assert_str_eq(a, b);
	ck_assert_ptr_null(strstr(a, "runtime_ms"));
	free(a);
	free(b);
	job_release(&job);
	job_release(&none);
	strbuf_release(&err);
}
END_TEST

/*
 * A job with both good and bad is meant for bisection: when its workload
 * gives no runtime_ms, every point gets the default, without a new point
 * id. Without both ends (a run, a comparison), with runtime_ms given, or
 * with bonnie (no such key), nothing is added.
 */
START_TEST(bisection_jobs_default_to_a_time_bound)
{
	static const struct {
		const char *ends;     /* JSON members for repo/good/bad */
		const char *workload; /* the workload object */
		const char *want;     /* runtime_ms of every point, or NULL */
	} t[] = {
		{ "\"good\": \"v1\", \"bad\": \"v2\"",
		  "{\"engine\": \"rawread\", \"bs_kb\": [4, 128]}", "1500" },
		{ "\"good\": \"v1\", \"bad\": \"v2\"",
		  "{\"engine\": \"seqread\", \"target\": \"d0\"}", "1500" },
		{ "\"good\": \"v1\", \"bad\": \"v2\"",
		  "{\"engine\": \"rawread\", \"bs_kb\": [4, 128], "
		  "\"runtime_ms\": 0}",
		  NULL },
		{ "\"good\": \"v1\", \"bad\": \"v2\"",
		  "{\"engine\": \"rawread\", \"runtime_ms\": 300}", "300" },
		{ "\"good\": \"v1\"",
		  "{\"engine\": \"rawread\", \"bs_kb\": [4, 128]}", NULL },
		{ "\"repo\": \"/r\"",
		  "{\"engine\": \"rawread\", \"bs_kb\": [4, 128]}", NULL },
	};
	struct strbuf err = STRBUF_INIT;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct job job;
		char *text = xstrfmt("{%s, \"topology\": \"virtio\", "
				     "\"workload\": %s}",
				     t[i].ends, t[i].workload);
		ck_assert_msg(parse(&job, text, &err) == 0, "%s: %s", text,
			      err.buf);
		for (size_t p = 0; p < job.nr_points; p++) {
			const char *got = key_of(&job.points[p].keys,
						 "runtime_ms");
			ck_assert_msg(t[i].want ? got && !strcmp(got, t[i].want)
						: !got,
				      "%s: point %zu has runtime_ms %s", text,
				      p, got ? got : "(none)");
			ck_assert_ptr_null(strstr(job.points[p].id, "runtime"));
		}
		if (job.nr_points == 2)
			ck_assert_str_eq(job.points[1].id, "bs_kb=128");
		job_release(&job);
		free(text);
	}
	ck_assert_int_eq(JOB_BISECT_RUNTIME_MS, 1500);

	/* good and bad given as overrides count as well. */
	struct job job;
	const char *ov[] = { "topology=virtio", "workload=rawread",
			     "good=v1", "bad=v2", NULL };
	error_capture(&err);
	int r = job_load_overrides(&job, NULL, ov);
	error_capture(NULL);
	ck_assert_msg(r == 0, "%s", err.buf);
	ck_assert_str_eq(key_of(&job.points[0].keys, "runtime_ms"), "1500");
	job_release(&job);

	/* bonnie has no time bound: a bisection job with it still loads. */
	ck_assert_int_eq(
		parse(&job,
		      "{\"good\": \"v1\", \"bad\": \"v2\", \"topology\": "
		      "{\"preset\": \"virtio\", \"d0\": {\"backing\": "
		      "\"image\", \"latency_ns\": 0}, \"extra_layers\": "
		      "[{\"kind\": \"fs\", \"name\": \"fs0\", \"on\": \"d0\", "
		      "\"type\": \"ext4\", \"mount\": \"/mnt\"}]}, "
		      "\"workload\": {\"engine\": \"bonnie\", \"target\": "
		      "\"/mnt/b\"}, \"metric\": \"write\"}",
		      &err),
		0);
	ck_assert_ptr_null(key_of(&job.points[0].keys, "runtime_ms"));
	job_release(&job);
	strbuf_release(&err);
}
END_TEST

/* The demo bisects with the default time bound; the seeds keep the byte
 * counts of their reports (runtime_ms 0 spelled out). */
START_TEST(demo_is_time_bound_seeds_are_not)
{
	static const char *const seeds[] = {
		"tests/jobs/seeds/raid0-readahead.json",
		"tests/jobs/seeds/dd-partition-loop-dm.json",
	};
	struct job job;
	struct strbuf err = STRBUF_INIT;

	ck_assert_msg(!load(&job, "tests/jobs/demo.json", &err), "%s", err.buf);
	ck_assert_uint_eq(job.nr_points, 1);
	ck_assert_str_eq(job.points[0].id, "default");
	ck_assert_str_eq(key_of(&job.points[0].keys, "runtime_ms"), "1500");
	ck_assert_str_eq(key_of(&job.points[0].keys, "size_mb"), "128");
	job_release(&job);

	/*
	 * Shipped with the fixture's one kernel; bisecting the report's range
	 * adds a good revision (docs/old-kernels.md), and still no time bound.
	 */
	static const char *const with_good[] = {"good=v2.6.38", NULL};
	for (size_t i = 0; i < ARRAY_SIZE(seeds); i++) {
		char *path = xstrfmt("%s/%s", srcdir, seeds[i]);
		error_capture(&err);
		ck_assert_msg(!job_load_overrides(&job, path, with_good), "%s",
			      err.buf);
		error_capture(NULL);
		free(path);
		ck_assert_ptr_nonnull(job.good);
		ck_assert_ptr_nonnull(job.bad);
		for (size_t p = 0; p < job.nr_points; p++) {
			ck_assert_ptr_null(
				key_of(&job.points[p].keys, "runtime_ms"));
			char *line = point_line(&job, p);
			ck_assert_ptr_null(strstr(line, "runtime_ms"));
			ck_assert_ptr_nonnull(strstr(line, " size_mb=256"));
			free(line);
		}
		job_release(&job);
	}
	strbuf_release(&err);
}
END_TEST

/* Every preset loads, describes itself, and is a disk-like TCG setup. */
START_TEST(presets_load)
{
	const char *presets[] = { "virtio", "nvme", "raid0-4", "raid5-4",
				  "loop", "dm-linear", "passthrough" };
	for (size_t i = 0; i < ARRAY_SIZE(presets); i++) {
		struct job job;
		struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
		char *json = xstrfmt("{\"topology\": \"%s\", \"workload\": "
				     "\"rawread\"}",
				     presets[i]);
		ck_assert_msg(!parse(&job, json, &err), "%s: %s", presets[i],
			      err.buf);
		const struct topology *t = &job.topologies[0];
		ck_assert_str_eq(t->name, presets[i]);
		for (size_t d = 0; d < t->nr_disks; d++) {
			if (t->disks[d].backing == BACKING_HOST) {
				ck_assert(t->disks[d].readonly);
				continue;
			}
			ck_assert_uint_gt(t->disks[d].size_mb, 0);
			if (t->disks[d].backing == BACKING_NULL)
				ck_assert_uint_eq(t->disks[d].latency_ns,
						  200000);
		}
		char *path = xstrfmt("%s/qemu/%s.json", srcdir, presets[i]);
		ck_assert_int_eq(read_file(path, &text), 0);
		ck_assert_ptr_nonnull(strstr(text.buf, "\"description\""));
		ck_assert_ptr_nonnull(strstr(text.buf, "eed"));
		free(path);
		free(json);
		job_release(&job);
		strbuf_release(&err);
		strbuf_release(&text);
	}
}
END_TEST

/*
 * The host checks a job's layer and engine keys against rules made from
 * proto/spec_keys.h, the lists the guest checks the spec against
 * (check_guest.c holds the guest's half): a key on one side only fails
 * here or there.
 */
#define ROW_COUNT(...) +1
#define HAS_RULE(key, how, ...)                                                \
	do {                                                                   \
		const struct key_rule *r_ = key_rule_find(rules, #key);        \
		ck_assert_msg(r_, "%s: no rule for '%s'", what, #key);         \
		ck_assert_int_eq(r_->check, K_##how);                          \
	} while (0);
#define CHECK_RULES(name, KEYS)                                                \
	do {                                                                   \
		size_t n_ = 0;                                                 \
		ck_assert_ptr_nonnull(rules);                                  \
		KEYS(HAS_RULE)                                                 \
		while (rules[n_].key)                                          \
			n_++;                                                  \
		ck_assert_msg(n_ == 0 KEYS(ROW_COUNT), "%s: %zu rules", what,  \
			      n_);                                             \
	} while (0);
#define LAYER(kind, KEYS)                                                      \
	{                                                                      \
		const char *what = #kind;                                      \
		const struct key_rule *rules = job_layer_rules(#kind);         \
		CHECK_RULES(kind, KEYS)                                        \
	}
#define ENGINE(engine, KEYS, metrics)                                          \
	{                                                                      \
		const char *what = #engine;                                    \
		const struct key_rule *rules = job_engine_rules(#engine);      \
		CHECK_RULES(engine, KEYS)                                      \
	}
/*
 * A fio job file reaches the spec as its hash, beside the host's fio
 * build and its C library's floor; the job keeps the text for the
 * initramfs and builds its kernels with the fio fragment.
 */
START_TEST(fio_jobs_carry_the_job_file_and_the_build)
{
	struct job job, dd;
	struct strbuf err = STRBUF_INIT, spec = STRBUF_INIT;
	char sha[41];
	char *fio = run_find_tool("fio");

	if (!fio)
		CHECK_SKIP("no fio on this host (apt-get install fio)");
	free(fio);
	ck_assert_msg(!load(&job, "tests/jobs/demo-fio.json", &err), "%s",
		      err.buf);
	ck_assert_str_eq(job.points[0].engine, "fio");
	ck_assert_ptr_nonnull(strstr(job.points[0].fio_job, "[demo]\n"));
	hash_hex(job.points[0].fio_job, strlen(job.points[0].fio_job), sha);
	ck_assert_str_eq(key_of(&job.points[0].keys, "job"), sha);
	ck_assert_uint_eq(strlen(key_of(&job.points[0].keys, "build")), 40);
	/* Debian 12's glibc: the floor its dynamic linker was built for. */
	ck_assert_str_eq(key_of(&job.points[0].keys, "kernel_min"), "3.2.0");
	/* A bisection job: the same time bound as the built-in engines. */
	ck_assert_str_eq(key_of(&job.points[0].keys, "runtime_ms"), "1500");
	ck_assert_int_ge(strvec_index(&job.kconfig.fragments, "fio"), 0);
	ck_assert_int_eq(guest_spec_render(&job, 0, "x", 1, &spec), 0);
	ck_assert_ptr_nonnull(strstr(spec.buf, " engine=fio target=d0 "));
	job_release(&job);

	/* The seed's fio version has the dd version's points. */
	ck_assert_msg(!load(&dd, "tests/jobs/seeds/dd-partition-loop-dm-fio.json",
			    &err),
		      "%s", err.buf);
	ck_assert_msg(!load(&job, "tests/jobs/seeds/dd-partition-loop-dm.json",
			    &err),
		      "%s", err.buf);
	ck_assert_uint_eq(dd.nr_points, job.nr_points);
	for (size_t i = 0; i < job.nr_points; i++)
		ck_assert_str_eq(dd.points[i].id, job.points[i].id);
	ck_assert_str_eq(key_of(&dd.points[7].keys, "bs_kb"), "2048");
	ck_assert_ptr_null(key_of(&dd.points[7].keys, "runtime_ms"));
	job_release(&dd);
	job_release(&job);

	/* A percentile as people write it becomes fio's own name. */
	ck_assert_msg(!parse(&job,
			     "{\"topology\": \"virtio\", \"workload\": "
			     "{\"engine\": \"fio\", \"job\": "
			     "\"[r]\\nrw=randread\\n\"}, \"metric\": "
			     "\"read.clat_ns.percentile.99.9\"}",
			     &err),
		      "%s", err.buf);
	ck_assert_str_eq(job.metric, "read.clat_ns.percentile.99.900000");
	job_release(&job);
	strbuf_release(&spec);
	strbuf_release(&err);
}
END_TEST

START_TEST(host_key_rules_are_the_shared_lists)
{
	PROTO_LAYERS(LAYER)
	PROTO_ENGINES(ENGINE)
	ck_assert_ptr_null(job_layer_rules("raid"));
	ck_assert_ptr_null(job_engine_rules("iozone"));
}
END_TEST
#undef LAYER
#undef ENGINE

/*
 * A loop layer over a file on a fresh file system says how big to make
 * the file (workloads/PROTOCOL.md): the host took the guest's size_mb for
 * an unknown key before both read one list.
 */
START_TEST(loop_on_a_new_file_takes_its_size)
{
	struct job job;
	struct strbuf err = STRBUF_INIT, spec = STRBUF_INIT;
	const char *text =
		"{\"topology\": {\"disks\": [{\"name\": \"d0\", "
		"\"size_mb\": 256}], \"layers\": ["
		"{\"kind\": \"fs\", \"name\": \"f\", \"on\": \"d0\", "
		"\"type\": \"ext4\"},"
		"{\"kind\": \"loop\", \"name\": \"l0\", "
		"\"on\": \"file:/mnt/loop.img\", \"size_mb\": 64}]},"
		"\"workload\": {\"engine\": \"rawread\", \"size_mb\": 32}}";

	ck_assert_msg(!parse(&job, text, &err), "%s", err.buf);
	ck_assert_str_eq(key_of(&job.topologies[0].layers[1].keys, "size_mb"),
			 "64");
	ck_assert_str_eq(job.points[0].target, "l0");
	ck_assert_int_eq(guest_spec_render_topology(&job, 0, &spec), 0);
	ck_assert_msg(strstr(spec.buf, "loop name=l0 on=file:/mnt/loop.img "
				       "size_mb=64"),
		      "%s", spec.buf);
	job_release(&job);
	strbuf_release(&spec);
	strbuf_release(&err);
}
END_TEST

/*
 * A memory-backed nullb disk keeps what is written: the guest may write
 * and check it (null=0), where a plain nullb disk drops it (null=1).
 */
START_TEST(nullb_memory_backed_keeps_data)
{
	struct job job;
	struct strbuf err = STRBUF_INIT, spec = STRBUF_INIT;

	ck_assert_msg(!parse(&job,
			     "{\"topology\": {\"disks\": [{\"bus\": \"nullb\", "
			     "\"size_mb\": 256, \"latency_ns\": 200000, "
			     "\"memory_backed\": true}]}, \"workload\": "
			     "{\"engine\": \"seqwrite\", \"size_mb\": 32}}",
			     &err),
		      "%s", err.buf);
	ck_assert_int_eq(job.topologies[0].disks[0].memory_backed, 1);
	ck_assert_int_eq(guest_spec_render_topology(&job, 0, &spec), 0);
	ck_assert_msg(strstr(spec.buf, "bus=nullb serial=iob0 size_mb=256 "
				       "null=0\n"),
		      "%s", spec.buf);
	job_release(&job);
	strbuf_reset(&spec);
	ck_assert_msg(!parse(&job,
			     "{\"topology\": \"nullb\", \"workload\": "
			     "\"rawread\"}",
			     &err),
		      "%s", err.buf);
	ck_assert_int_eq(guest_spec_render_topology(&job, 0, &spec), 0);
	ck_assert_msg(strstr(spec.buf, "null=1\n"), "%s", spec.buf);
	job_release(&job);
	strbuf_release(&spec);
	strbuf_release(&err);
}
END_TEST

START_TEST(kernel_versions)
{
	static const struct {
		const char *s;
		unsigned v;
	} t[] = {
		{ "6.1", KVER(6, 1, 0) },	   { "v6.1", KVER(6, 1, 0) },
		{ "v6.1-rc3", KVER(6, 1, 0) },	   { "2.6.38", KVER(2, 6, 38) },
		{ "2.6.38.8", KVER(2, 6, 38) },    { "3.2.0-4-amd64", KVER(3, 2, 0) },
		{ "6.1.0+", KVER(6, 1, 0) },	   { "", 0 },
		{ "six", 0 },			   { "6", 0 },
		{ "6.x", 0 },			   { "300.1", 0 },
		{ "6.1abc", 0 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		ck_assert_msg(kver_parse(t[i].s) == t[i].v, "'%s': %#x != %#x",
			      t[i].s, kver_parse(t[i].s), t[i].v);
	ck_assert(KVER(2, 6, 38) < KVER(3, 2, 0));
	ck_assert(KVER(3, 2, 0) < KVER(6, 1, 0));
	struct kver_range r = { KVER(2, 6, 0), KVER(3, 2, 255) };
	ck_assert(kver_in_range(KVER(2, 6, 38), &r));
	ck_assert(!kver_in_range(KVER(2, 5, 9), &r));
	struct kver_range open = { 0, 0 };
	ck_assert(kver_in_range(KVER(6, 1, 0), &open));
}
END_TEST

START_TEST(data_dir_from_environment)
{
	setenv("IOBISECT_DATA", "/opt/iob", 1);
	ck_assert_str_eq(job_data_dir(), "/opt/iob");
	unsetenv("IOBISECT_DATA");
	/*
	 * The test binary (build/tests/) is in its build tree: the data is
	 * that tree's source folder, by its absolute path, never the
	 * working folder (the test runs in the source folder: "." would
	 * hold the data too).
	 */
	const char *dir = job_data_dir();
	ck_assert_ptr_nonnull(dir);
	ck_assert_msg(dir[0] == '/', "data folder '%s' is not absolute", dir);
	char *preset = xstrfmt("%s/qemu/virtio.json", dir);
	ck_assert(file_exists(preset));
	free(preset);
}
END_TEST

/*
 * Where no folder holds the data, there is none (never "."), and the
 * line that says so names each folder looked in.
 */
START_TEST(data_dir_none_names_where_it_looked)
{
	struct strvec dirs = STRVEC_INIT;
	strvec_push(&dirs, "/nonexistent/usr/share/iobisect");
	strvec_push(&dirs, "/nonexistent/src");
	ck_assert_ptr_null(job_data_pick(&dirs));
	strvec_push(&dirs, srcdir);
	ck_assert_str_eq(job_data_pick(&dirs), srcdir);
	strvec_clear(&dirs);

	unsetenv("IOBISECT_DATA");
	char *looked = job_data_looked();
	struct strvec cands = STRVEC_INIT;
	install_dir_candidates(INSTALL_DATA, &cands);
	ck_assert(cands.nr >= 3);
	for (size_t i = 0; i < cands.nr; i++) {
		ck_assert_msg(cands.v[i][0] == '/', "'%s' is relative",
			      cands.v[i]);
		char *q = xstrfmt("'%s'", cands.v[i]);
		ck_assert_msg(strstr(looked, q), "'%s' does not name %s",
			      looked, q);
		free(q);
	}
	ck_assert_msg(strstr(looked, "IOBISECT_DATA"), "%s", looked);
	free(looked);
	strvec_clear(&cands);
}
END_TEST

/*
 * Malformed jobs: each must fail with one message that starts with the
 * file name and names the offending key (path) as the user wrote it.
 */
static const struct {
	const char *file;
	const char *want;
} bad[] = {
	{ "not-json", "not valid JSON: " },
	{ "table-key", "table.rows[0]: 'bs_k' is not the metric, the "
		       "topology, or a workload or topology key given as a list" },
	{ "table-divide", "table.divide.ra_kb: expected a number above 0" },
	{ "not-object", "expected a JSON object" },
	{ "duplicate-key", "not valid JSON: duplicate object key" },
	{ "unknown-key", "unknown key 'topolgy' (did you mean 'topology'?)" },
	{ "missing-topology", "missing key 'topology'" },
	{ "missing-workload", "missing key 'workload'" },
	{ "bad-name", "name: '../etc' is not a valid name" },
	{ "memory-range",
	  "machine.memory_mb: 99999999 is out of range (64..65536)" },
	{ "cpus-type", "machine.cpus: expected a positive integer" },
	{ "accel-unknown", "machine.accel: unknown accelerator 'hvf'" },
	{ "pin-type", "machine.pin: expected true or false" },
	{ "clock-unknown", "machine.clock: unknown clock 'sundial'" },
	{ "clock-smp", "machine.clock: 'virtual' needs one vCPU (QEMU's "
		       "instruction count hangs an SMP guest" },
	{ "icount-shift-range",
	  "machine.icount_shift: 11 is out of range (0..10)" },
	{ "machine-unknown-key", "machine: unknown key 'memory' (did you mean "
				 "'memory_mb'?)" },
	{ "unknown-preset", "topology: unknown preset 'raid9'" },
	{ "preset-path", "topology: unknown preset '../qemu/virtio'" },
	{ "unknown-engine", "workload.engine: unknown engine 'iozone'" },
	{ "fio-own-file", "workload.job: line 3: 'filename' chooses fio's "
			  "file; the target is the topology's" },
	{ "fio-harness-key",
	  "workload: 'kernel_min' is set by iobisect, from the host's fio" },
	{ "fio-no-job", "workload.job: engine 'fio' needs a job" },
	{ "fio-job-missing", "workload.job: cannot open" },
	{ "metric-fio-figure",
	  "metric: engine 'fio' reports no 'read.clat_ns.p99'" },
	{ "metric-detail-builtin", "metric: engine 'rawread' keeps a "
				   "direction's bandwidth alone" },
	{ "threshold-mbps-latency", "threshold: an absolute threshold is in "
				    "MB/s; metric 'read.clat_ns.mean'" },
	{ "missing-engine", "workload: missing 'engine'" },
	{ "threads-string", "workload.threads[1]: expected a positive integer" },
	{ "threads-negative", "workload.threads[1]: -2 is out of range (1..256)" },
	{ "empty-list", "workload.bs_kb: empty list" },
	{ "duplicate-value", "workload.bs_kb[1]: '128' is listed twice" },
	{ "engine-key", "workload: unknown key 'fsync' for engine 'rawread'" },
	{ "size-and-ram", "workload: size_mb and ram_x exclude each other" },
	{ "ram-x-range", "workload.ram_x: 0 is out of range (above 0" },
	{ "target-missing",
	  "workload.target: 'md0' is not a disk or layer of topology 'virtio'" },
	{ "bonnie-block", "workload.target: engine 'bonnie' needs a file" },
	{ "matrix-too-big", "workload: the matrix has more than 4096 points" },
	{ "samples-twice", "workload: samples and warmup are given in 'runs'" },
	{ "disk-size-negative",
	  "topology.disks[0].size_mb: -5 is out of range (1..1048576)" },
	{ "disk-no-size", "topology: disk 'd0' needs size_mb" },
	{ "disk-bus", "topology.disks[0].bus: unknown bus 'usb'" },
	{ "latency-image", "topology: disk 'd0': latency_ns needs backing null" },
	{ "nullb-backing", "topology: disk 'd0': a nullb disk is the guest's "
			   "null_blk; its backing is null" },
	{ "nullb-qemu-key", "topology: disk 'd0': bps_max, iops_max, "
			    "write_latency_ns, cache and readonly are QEMU's" },
	{ "nullb-latencies", "topology: disks 'd0' and 'd1': nullb disks share "
			     "one latency_ns" },
	{ "nullb-memory-mixed", "topology: disks 'd0' and 'd1': nullb disks "
				"share one latency_ns and one memory_backed" },
	{ "memory-backed-qemu", "topology: disk 'd0': memory_backed is "
				"null_blk's (bus nullb)" },
	{ "memory-backed-type", "topology.disks[0].memory_backed: expected "
				"true or false" },
	{ "topology-description", "topology.description: expected a string" },
	{ "preset-description", "topology.description: expected a string" },
	{ "executor-kind", "executor.kind: unknown executor 'pbs' (expected local, slurm)" },
	{ "executor-sbatch-arg",
	  "executor.sbatch_args[0]: 'exclusive' is not an sbatch option" },
	{ "write-latency-null", "topology: disk 'd0': write_latency_ns needs "
				"backing image or tmpfs" },
	{ "write-latency-range",
	  "topology.disks.write_latency_ns: 2000000000 is out of range "
	  "(0..1000000000)" },
	{ "no-disks", "topology.disks: expected a non-empty list of disks" },
	{ "layer-kind", "topology.layers[0].kind: unknown layer kind 'lvm'" },
	{ "layer-key",
	  "topology.layers[0]: unknown key 'chunk' for layer kind 'md'" },
	{ "layer-member", "topology: layer 'md0': member 'd9' is not an "
			  "earlier disk or layer" },
	{ "layer-chunk-pow2", "topology.md0.chunk_kb: 48 is not a power of two" },
	{ "layer-level", "topology.md0.level: '6' is not one of 0, 5" },
	{ "override-bitmap", "topology.md0.bitmap[1]: '2' is not one of 0, 1" },
	{ "override-unknown", "topology: unknown key 'md9' (not a disk or "
			      "layer of preset 'raid5-4')" },
	{ "layer-on-later", "topology: layer 'lin': on='p1' is not an earlier "
			    "disk or layer" },
	{ "threshold", "threshold: '10 percent' is not a threshold" },
	{ "direction", "direction: unknown direction 'sideways' (expected "
		       "slower, faster)" },
	{ "confidence", "confidence: 1.5 is not a confidence between 0.5 and "
			"0.9999" },
	{ "confidence-string", "confidence: '95' is not a confidence" },
	{ "metric-engine", "metric: engine 'rawread' reports no 'write'" },
	{ "metric-point", "metric_point: no matrix point 'bs_kb=4'" },
	{ "runs-order", "runs: max (2) is below min (3)" },
	{ "bisect-type", "bisect_type: unknown bisect type 'speed'" },
	{ "kver", "kconfig.by_version[0].min: 'two' is not a kernel version" },
	{ "fragments-empty",
	  "kconfig.fragments: expected a non-empty list of strings" },
	{ "toolchain-cc", "toolchain[0]: missing 'cc'" },
	{ "toolchain-env-both",
	  "toolchain[0]: give 'prefix' or 'chroot', not both" },
	{ "toolchain-placeholder", "toolchain[0].prefix: unknown placeholder "
				   "'{sr}' (known: {src}, {out})" },
	{ "toolchain-chroot-missing",
	  "toolchain[0].chroot: '/nonexistent/jessie' is not a folder" },
	{ "toolchain-identity-alone",
	  "toolchain[0]: 'identity' names an environment: give 'prefix' or "
	  "'chroot' too" },
	{ "toolchain-prefix-empty", "toolchain[0].prefix: empty" },
	{ "prebuilt-both", "prebuilt: give 'folder' or 'command' (one of them)" },
	{ "prebuilt-no-out", "prebuilt.command: no '{out}': where is the image "
			     "to go?" },
	{ "prebuilt-name-fixed", "prebuilt.name: 'bzImage' names no {commit}, "
				 "{short} or {tag}" },
	{ "prebuilt-name-escape", "prebuilt.name: '../{commit}/bzImage' is not "
				  "a name inside the folder" },
	{ "prebuilt-placeholder", "prebuilt.name: unknown placeholder "
				  "'{commitid}' (known: {commit}, {short}, "
				  "{tag})" },
	{ "prebuilt-folder-missing",
	  "prebuilt.folder: '/nonexistent/kernels' is not a folder" },
	{ "prebuilt-and-kernel",
	  "prebuilt: give 'kernel' or 'prebuilt', not both" },
	{ "prebuilt-name-in-command",
	  "prebuilt: 'name' is for a folder; a command names its own" },
	{ "fs-type", "topology.extra_layers[0].type: 'btrfs' is not one of "
		     "ext4, ext3, xfs" },
	{ "runtime-range",
	  "workload.runtime_ms: 3600001 is out of range (0..3600000)" },
	{ "runtime-negative",
	  "workload.runtime_ms[1]: -1 is out of range (0..3600000)" },
	{ "runtime-string",
	  "workload.runtime_ms: expected a non-negative integer" },
	{ "runtime-bonnie",
	  "workload: unknown key 'runtime_ms' for engine 'bonnie'" },
	{ "disks-too-many", "topology.disks: 40 disks: a boot takes at most 32" },
	{ "layers-too-many",
	  "topology.extra_layers: 40 layers: a boot builds at most 32" },
	{ "points-per-boot", "workload: the matrix has 272 points per topology; "
			     "a boot runs at most 256" },
	{ "value-too-long", "topology.layers[0].mount: '/mnt/xxxxxxxxxxxxxxxxxx"
			    "xxxxxxxxx...' is longer than the guest takes "
			    "(223 bytes)" },
};

START_TEST(malformed_job_names_the_key)
{
	struct job job;
	struct strbuf err = STRBUF_INIT;
	char *rel = xstrfmt("tests/jobs/bad/%s.json", bad[_i].file);
	char *prefix = xstrfmt("%s/%s: ", srcdir, rel);

	ck_assert_int_eq(load(&job, rel, &err), -1);
	ck_assert_msg(!strncmp(err.buf, prefix, strlen(prefix)),
		      "%s: message does not start with the file: %s",
		      bad[_i].file, err.buf);
	ck_assert_msg(strstr(err.buf, bad[_i].want), "%s: want '%s', got '%s'",
		      bad[_i].file, bad[_i].want, err.buf);
	/* One line: one error, said once. */
	ck_assert_msg(!strchr(err.buf, '\n'), "%s: several messages: %s",
		      bad[_i].file, err.buf);
	free(rel);
	free(prefix);
	strbuf_release(&err);
}
END_TEST

/* A bad job file without an expectation above would test nothing. */
START_TEST(every_bad_job_has_an_expectation)
{
	char *dir = xstrfmt("%s/tests/jobs/bad", srcdir);
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t files = 0;
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name), found = 0;
		if (n < 6 || strcmp(e->d_name + n - 5, ".json"))
			continue;
		files++;
		for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
			found |= strlen(bad[i].file) == n - 5 &&
				 !strncmp(bad[i].file, e->d_name, n - 5);
		ck_assert_msg(found, "%s has no entry in check_job.c", e->d_name);
	}
	closedir(d);
	free(dir);
	ck_assert_uint_eq(files, ARRAY_SIZE(bad));
}
END_TEST

START_TEST(direction_and_confidence)
{
	struct job job;
	struct strbuf err = STRBUF_INIT;
	ck_assert_int_eq(parse(&job, "{\"topology\": \"virtio\", "
				     "\"workload\": \"rawread\", "
				     "\"direction\": \"faster\", "
				     "\"confidence\": \"99%\"}",
			       &err),
			 0);
	ck_assert_int_eq(job.faster, 1);
	ck_assert_double_eq_tol(job.confidence, 0.99, 1e-12);
	job_release(&job);
	ck_assert_int_eq(parse(&job, "{\"topology\": \"virtio\", "
				     "\"workload\": \"rawread\", "
				     "\"confidence\": 0.9}",
			       &err),
			 0);
	ck_assert_double_eq_tol(job.confidence, 0.9, 1e-12);
	job_release(&job);
	/* A percentage is written as a person writes one. */
	const char *odd[] = { "0x5f%", "9.5e1%", " 95%", "+95%", "inf%", "%" };
	for (size_t i = 0; i < ARRAY_SIZE(odd); i++) {
		char *text = xstrfmt("{\"topology\": \"virtio\", \"workload\": "
				     "\"rawread\", \"confidence\": \"%s\"}",
				     odd[i]);
		strbuf_reset(&err);
		ck_assert_msg(parse(&job, text, &err) == -1, "'%s' taken",
			      odd[i]);
		ck_assert_msg(strstr(err.buf, "is not a confidence"), "%s",
			      err.buf);
		free(text);
	}
	strbuf_release(&err);
}
END_TEST

/*
 * A list far past the caps is refused before its values are checked
 * one against another: 100,000 distinct targets took 31 s to refuse.
 */
static const struct {
	const char *head, *item, *tail, *want;
} long_lists[] = {
	{ "{\"topology\": {\"preset\": \"virtio\", \"layers\": [{\"kind\":"
	  " \"fs\", \"name\": \"f\", \"on\": \"d0\", \"type\": \"ext4\"}]}, "
	  "\"workload\": {\"engine\": \"seqread\", \"target\": [",
	  "\"/mnt/t%d\"", "]}}", "workload: the matrix has more than 4096" },
	{ "{\"workload\": \"rawread\", \"topology\": {\"preset\": "
	  "\"raid0-4\", \"md0\": {\"stripe_cache\": [",
	  "%d", "]}}}", "more than 64 topologies" },
};

START_TEST(long_lists_are_refused_before_they_are_checked)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct job job;

	strbuf_addstr(&text, long_lists[_i].head);
	for (int i = 0; i < 100000; i++) {
		strbuf_addstr(&text, i ? ", " : "");
		strbuf_addf(&text, long_lists[_i].item, 17 + i);
	}
	strbuf_addstr(&text, long_lists[_i].tail);
	uint64_t t0 = now_ns();
	ck_assert_int_eq(parse(&job, text.buf, &err), -1);
	double s = (now_ns() - t0) / 1e9;
	ck_assert_msg(strstr(err.buf, long_lists[_i].want), "%s", err.buf);
	ck_assert_msg(s < 1.5, "took %.1f s to refuse", s);
	strbuf_release(&text);
	strbuf_release(&err);
}
END_TEST

/* What a person writes is a threshold; what strtod also takes is not. */
static const struct {
	const char *text;
	int ok;
	double value;
} thresholds[] = {
	{ "10%", 1, 10 },	   { "2.5%", 1, 2.5 },
	{ "25MB/s", 1, 25 },	   { "0.5MB/s", 1, 0.5 },
	{ "infMB/s", 0, 0 },	   { "nan%", 0, 0 },
	{ "1e308MB/s", 0, 0 },	   { "1e-300%", 0, 0 },
	{ "0x10%", 0, 0 },	   { " 10%", 0, 0 },
	{ "10 %", 0, 0 },	   { "+10%", 0, 0 },
	{ "-10%", 0, 0 },	   { "100%", 0, 0 },
	{ "0%", 0, 0 },		   { "0.001%", 0, 0 },
	{ "2000000MB/s", 0, 0 },   { "%", 0, 0 },
	{ ".%", 0, 0 },		   { "1.2.3%", 0, 0 },
	{ "99999999999999999999MB/s", 0, 0 },
};

START_TEST(threshold_is_a_plain_number)
{
	struct job job;
	struct strbuf err = STRBUF_INIT;
	char *text = xstrfmt("{\"topology\": \"virtio\", \"workload\": "
			     "\"rawread\", \"threshold\": \"%s\"}",
			     thresholds[_i].text);
	int r = parse(&job, text, &err);

	if (thresholds[_i].ok) {
		ck_assert_msg(r == 0, "%s: %s", thresholds[_i].text, err.buf);
		ck_assert(job.threshold.value == thresholds[_i].value);
		job_release(&job);
	} else {
		ck_assert_msg(r == -1, "'%s' was taken", thresholds[_i].text);
		ck_assert_msg(strstr(err.buf, "threshold: '") &&
				      !strchr(err.buf, '\n'),
			      "%s", err.buf);
	}
	free(text);
	strbuf_release(&err);
}
END_TEST

START_TEST(json_errors_give_the_line)
{
	struct job job;
	struct strbuf err = STRBUF_INIT;
	ck_assert_int_eq(parse(&job, "{\n\"topology\": \"virtio\",\n}", &err),
			 -1);
	ck_assert_ptr_nonnull(strstr(err.buf, "job.json: not valid JSON: "));
	ck_assert_ptr_nonnull(strstr(err.buf, " at line 3"));
	strbuf_release(&err);
}
END_TEST

/*
 * Every key the table places is read into its own member of struct job:
 * each set alone to a value unlike its default (through the override,
 * as `run --set` does) comes out there, and a path's "~/" is the home
 * folder. Two keys kept in one place fail here (a wrong type fails to
 * compile).
 */
START_TEST(each_key_reaches_its_place)
{
	struct strbuf err = STRBUF_INIT;

	/* No two keys kept in one place: each writes a member of its own. */
	for (const struct job_key *k = job_keys; k->key; k++)
		for (const struct job_key *j = job_keys; k->at && j < k; j++)
			ck_assert_msg(j->at != k->at, "%s and %s share a place",
				      j->key, k->key);
	setenv("HOME", "/tmp/home", 1);
	for (const struct job_key *k = job_keys; k->key; k++) {
		const char *ov[] = { "topology=virtio", "workload=rawread", NULL,
				     NULL };
		int want = 0, r;
		char *set = NULL;
		const char *str = "default";
		struct job job;

		if (!k->at || k->type == JK_SPECIAL ||
		    (k->flags & JKF_READ_ELSEWHERE))
			continue;
		switch (k->type) {
		case JK_INT:
			want = k->min + 1;
			if (k->def && want == atoi(k->def))
				want = k->min;
			set = xstrfmt("%s=%d", k->key, want);
			break;
		case JK_BOOL:
			want = !(k->def && !strcmp(k->def, "true"));
			set = xstrfmt("%s=%s", k->key, want ? "true" : "false");
			break;
		case JK_ENUM:
		case JK_CHOICE:
			while (k->choices[want + 1])
				want++;
			str = k->choices[want];
			set = xstrfmt("%s=%s", k->key, str);
			break;
		case JK_PATH:
			set = xstrfmt("%s=~/default", k->key);
			str = "/tmp/home/default";
			break;
		default:
			set = xstrfmt("%s=default", k->key);
		}
		ov[2] = set;
		strbuf_reset(&err);
		error_capture(&err);
		r = job_load_overrides(&job, NULL, ov);
		error_capture(NULL);
		ck_assert_msg(!r, "%s: %s", set, err.buf);
		void *field = (char *)&job + k->at;
		if (k->type == JK_INT || k->type == JK_BOOL ||
		    k->type == JK_ENUM)
			ck_assert_msg(*(int *)field == want, "%s: %d", set,
				      *(int *)field);
		else
			ck_assert_msg(!strcmp(*(char **)field, str), "%s: %s",
				      set, *(char **)field);
		job_release(&job);
		free(set);
	}
	strbuf_release(&err);
}
END_TEST

/*
 * The docs' job reference is the table's: docs/job.md holds, between its
 * markers, what `iobisect help job --markdown` prints, so a key added,
 * renamed or given a new default without the docs fails here.
 */
START_TEST(job_reference_is_the_table)
{
	struct strbuf doc = STRBUF_INIT;
	char *table = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&table, &len);

	ck_assert_ptr_nonnull(f);
	job_keys_print(f, 1);
	fclose(f);
	ck_assert_int_eq(read_file("docs/job.md", &doc), 0);
	ck_assert_msg(strstr(doc.buf, table),
		      "docs/job.md is not `iobisect help job --markdown`: "
		      "regenerate its reference");
	/* Every key has a line of help. */
	for (const struct job_key *k = job_keys; k->key; k++)
		ck_assert_msg(k->help && *k->help, "%s has no help", k->key);
	free(table);
	strbuf_release(&doc);
}
END_TEST

static Suite *job_suite(void)
{
	Suite *s = suite_create("job");
	TCase *tc = tcase_create("job");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, defaults_fill_a_minimal_job);
	tcase_add_test(tc, machine_clock_is_read);
	tcase_add_test(tc, direction_and_confidence);
	tcase_add_test(tc, toolchain_environments_and_prebuilt_sources);
	tcase_add_test(tc, workload_lists_expand_in_key_then_list_order);
	tcase_add_test(tc, topology_lists_expand_into_topologies);
	tcase_add_test(tc, overrides_reach_disks_and_layers);
	tcase_add_test(tc, write_latency_reaches_image_disks);
	tcase_add_test(tc, max_sectors_kb_on_every_bus);
	tcase_add_loop_test(tc, override_not_utf8_is_an_error, 0,
			    ARRAY_SIZE(not_utf8));
	tcase_add_test(tc, file_targets_and_fs_layers);
	tcase_add_test(tc, seed_jobs_load);
	tcase_add_test(tc, runtime_ms_is_a_point_key);
	tcase_add_test(tc, bisection_jobs_default_to_a_time_bound);
	tcase_add_test(tc, demo_is_time_bound_seeds_are_not);
	tcase_add_test(tc, presets_load);
	tcase_add_test(tc, nullb_memory_backed_keeps_data);
	tcase_add_test(tc, kernel_versions);
	tcase_add_test(tc, data_dir_from_environment);
	tcase_add_test(tc, data_dir_none_names_where_it_looked);
	tcase_add_test(tc, host_key_rules_are_the_shared_lists);
	tcase_add_test(tc, fio_jobs_carry_the_job_file_and_the_build);
	tcase_add_test(tc, loop_on_a_new_file_takes_its_size);
	tcase_add_loop_test(tc, malformed_job_names_the_key, 0,
			    (int)ARRAY_SIZE(bad));
	tcase_add_test(tc, every_bad_job_has_an_expectation);
	tcase_add_test(tc, json_errors_give_the_line);
	tcase_add_test(tc, job_reference_is_the_table);
	tcase_add_test(tc, each_key_reaches_its_place);
	tcase_add_loop_test(tc, threshold_is_a_plain_number, 0,
			    ARRAY_SIZE(thresholds));
	tcase_add_loop_test(tc, long_lists_are_refused_before_they_are_checked,
			    0, ARRAY_SIZE(long_lists));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(job_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
