/*
 * check_results.c: the results store (results.h: results.c stores,
 * results_load.c loads, results_machine.c names the machine). A boot's
 * samples are written where the layout says, with fio-style keys, and read
 * back as one median per boot; documents that differ in build key, spec
 * hash or machine, or come from an incomplete boot, are never pooled.
 */
#include "job.h"
#include "proto.h"
#include "results.h"
#include "version.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *srcdir;
static char tmpdir[] = "/tmp/check_results.XXXXXX";
static struct job job;

static const char *commit = "0123456789abcdef0123456789abcdef01234567";

static void setup(void)
{
	const char *f = __FILE__, *t = strstr(f, "tests/check_results.c");
	srcdir = t && t > f ? xstrndup(f, (size_t)(t - f - 1)) : xstrdup(".");
	setenv("IOBISECT_DATA", srcdir, 1);
	strcpy(tmpdir, "/tmp/check_results.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	ck_assert_int_eq(job_parse(&job,
				   "{\"name\": \"dd\", \"topology\": \"virtio\", "
				   "\"workload\": {\"engine\": \"rawread\", "
				   "\"bs_kb\": [128, 2048]}}",
				   "job.json"),
			 0);
	free(job.results);
	job.results = xstrdup(tmpdir);
}

static void teardown(void)
{
	job_release(&job);
	remove_tree(tmpdir);
	free(srcdir);
}

static void add_frame(struct strbuf *sb, unsigned *seq, const char *payload)
{
	strbuf_addf(sb, "%s %u %zu %08x %s\n", PROTO_MAGIC, (*seq)++,
		    strlen(payload), proto_crc32(payload, strlen(payload)),
		    payload);
}

/*
 * A boot that measured point bs_kb=128 with these bw_bytes (plus one
 * warmup at 1 byte/s, which must never count), and bs_kb=2048 at 9e8.
 */
static void make_report(struct proto_report *r, const unsigned long *bw,
			size_t n, int done, int verified)
{
	struct strbuf s = STRBUF_INIT;
	unsigned seq = 0;
	add_frame(&s, &seq, "{\"type\":\"hello\",\"kernel\":\"6.1.0\"}");
	for (size_t i = 0; i <= n; i++) {
		char *p = xstrfmt(
			"{\"type\":\"sample\",\"point\":\"bs_kb=128\","
			"\"index\":%zu,\"warmup\":%s,\"metric\":\"read\","
			"\"io_bytes\":%lu,\"runtime_ns\":1000000000,"
			"\"bw_bytes\":%lu,\"usr_ns\":1,\"sys_ns\":2,"
			"\"cpu_pct\":%zu.5,\"verified\":%s}",
			i ? i - 1 : 0, i ? "false" : "true", i ? bw[i - 1] : 1,
			i ? bw[i - 1] : 1, i * 10, verified ? "true" : "false");
		add_frame(&s, &seq, p);
		free(p);
	}
	add_frame(&s, &seq,
		  "{\"type\":\"sample\",\"point\":\"bs_kb=2048\",\"index\":0,"
		  "\"warmup\":false,\"metric\":\"read\",\"io_bytes\":900000000,"
		  "\"runtime_ns\":1000000000,\"bw_bytes\":900000000,\"usr_ns\":1,"
		  "\"sys_ns\":2,\"cpu_pct\":3,\"verified\":true}");
	if (done) {
		char *p = xstrfmt("{\"type\":\"done\",\"samples\":%zu}", n + 1);
		add_frame(&s, &seq, p);
		free(p);
	}
	proto_report_init(r);
	proto_report_feed(r, s.buf, s.len);
	proto_report_finish(r);
	strbuf_release(&s);
}

static void machine(struct machine_id *m, const char *accel)
{
	results_machine_fill(m, &job, 0, accel, "7.2.0", NULL);
}

static int store_rc(unsigned boot, const char *build_key,
		    const struct machine_id *m, const unsigned long *bw,
		    size_t n, int done, int verified)
{
	struct proto_report r;
	struct results_boot b = RESULTS_BOOT_INIT;
	make_report(&r, bw, n, done, verified);
	b.job = &job;
	b.topo = 0;
	b.commit = commit;
	b.build_key = build_key;
	b.boot_id = boot;
	b.machine = m;
	b.report = &r;
	b.outcome = "ok";
	b.console = "Linux version 6.1.0\n";
	b.console_len = strlen(b.console);
	int rc = results_store_boot(&b);
	proto_report_release(&r);
	return rc;
}

static void store(unsigned boot, const char *build_key,
		  const struct machine_id *m, const unsigned long *bw, size_t n,
		  int done, int verified)
{
	ck_assert_int_eq(store_rc(boot, build_key, m, bw, n, done, verified),
			 0);
}

/* The next boot number, reserved as a boot reserves it. */
static unsigned reserve(void)
{
	unsigned id = 0;
	ck_assert_int_eq(results_reserve_boot_id(&id, tmpdir, "dd", commit,
						 "virtio", "rawread"),
			 0);
	return id;
}

/* Two harnesses that find the same highest number never share it. */
START_TEST(boot_ids_are_reserved_once)
{
	unsigned a = reserve(), b = reserve();
	ck_assert_uint_ne(a, b);
	ck_assert_uint_eq(b, a + 1);
}
END_TEST

START_TEST(stores_in_the_documented_layout)
{
	struct machine_id m;
	struct strbuf sb = STRBUF_INIT;
	const unsigned long bw[] = { 100, 300, 200 };
	machine(&m, "tcg");
	ck_assert_uint_eq(reserve(), 1);
	store(1, "key-a", &m, bw, 3, 1, 1);

	char *dir = xstrfmt("%s/dd/0123456789ab/virtio-rawread", tmpdir);
	char *path = xstrfmt("%s/bs_kb=128/boot-1-sample-2.json", dir);
	ck_assert_int_eq(read_file(path, &sb), 0);
	json_t *doc = json_loads(sb.buf, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	json_t *read = json_object_get(doc, "read");
	ck_assert_int_eq(json_integer_value(json_object_get(read, "bw_bytes")),
			 200);
	ck_assert_int_eq(json_integer_value(json_object_get(read, "io_bytes")),
			 200);
	ck_assert_int_eq(
		json_integer_value(json_object_get(read, "runtime_ns")),
		1000000000);
	ck_assert(json_is_true(json_object_get(read, "verified")));
	ck_assert_str_eq(json_string_value(json_object_get(doc, "build_key")),
			 "key-a");
	ck_assert_str_eq(json_string_value(json_object_get(doc, "commit")),
			 commit);
	ck_assert_str_eq(json_string_value(json_object_get(doc, "kernel")),
			 "6.1.0");
	ck_assert_uint_eq(
		strlen(json_string_value(json_object_get(doc, "spec_hash"))),
		40);
	json_t *mj = json_object_get(doc, "machine");
	ck_assert_str_eq(json_string_value(json_object_get(mj, "accel")), "tcg");
	ck_assert_str_eq(json_string_value(json_object_get(mj, "qemu_version")),
			 "7.2.0");
	ck_assert_str_eq(json_string_value(json_object_get(mj, "cache")),
			 "writeback");
	ck_assert_int_eq(json_integer_value(json_object_get(mj, "memory_mb")),
			 512);
	ck_assert(json_is_true(json_object_get(doc, "complete")));
	/* Every document names the program that measured it. */
	ck_assert_str_eq(json_string_value(json_object_get(doc, "iobisect")),
			 version_string());
	json_decref(doc);
	free(path);

	/* The warmup is not stored; the console log and boot file are. */
	path = xstrfmt("%s/bs_kb=128/boot-1-sample-3.json", dir);
	ck_assert(!file_exists(path));
	free(path);
	path = xstrfmt("%s/bs_kb=2048/boot-1-sample-0.json", dir);
	ck_assert(file_exists(path));
	free(path);
	path = xstrfmt("%s/boot-1.console.log", dir);
	strbuf_reset(&sb);
	ck_assert_int_eq(read_file(path, &sb), 0);
	ck_assert_str_eq(sb.buf, "Linux version 6.1.0\n");
	free(path);
	path = xstrfmt("%s/boot-1.json", dir);
	ck_assert(file_exists(path));
	free(path);
	ck_assert_uint_eq(reserve(), 2);
	free(dir);
	strbuf_release(&sb);
	results_machine_release(&m);
}
END_TEST

START_TEST(loads_one_median_per_boot_and_never_pools)
{
	struct machine_id m, kvm, other_mem;
	struct sample_set set = SAMPLE_SET_INIT;
	const struct point *pt = &job.points[0];
	char hash[41];
	const unsigned long b1[] = { 100, 300, 200 }, b2[] = { 400, 500, 600 },
			    b3[] = { 1, 1, 1 }, b7[] = { 800, 700, 900, 1000 };

	machine(&m, "tcg");
	machine(&kvm, "kvm");
	machine(&other_mem, "tcg");
	other_mem.memory_mb = 1024;
	results_spec_hash(&job, pt, hash);

	store(1, "key-a", &m, b1, 3, 1, 1);
	store(2, "key-a", &m, b2, 3, 1, 1);
	store(3, "key-b", &m, b3, 3, 1, 1);	    /* another build */
	store(4, "key-a", &kvm, b3, 3, 1, 1);	    /* another accelerator */
	store(5, "key-a", &other_mem, b3, 3, 1, 1); /* another guest memory */
	store(6, "key-a", &m, b3, 3, 0, 1);	    /* never said done */
	store(7, "key-a", &m, b7, 4, 1, 1);
	store(8, "key-a", &m, b3, 3, 1, 0);	    /* data did not verify */

	ck_assert_int_eq(results_load_samples(tmpdir, "dd", commit, "key-a",
					      hash, &m, "bs_kb=128", "read",
					      &set),
			 0);
	ck_assert_uint_eq(set.nr, 3);
	ck_assert_uint_eq(set.boots[0], 1);
	ck_assert_uint_eq(set.boots[1], 2);
	ck_assert_uint_eq(set.boots[2], 7);
	ck_assert(set.values[0] == 200);
	ck_assert(set.values[1] == 500);
	ck_assert(set.values[2] == 850);
	ck_assert(set.cpu_pct[0] == 20.5);
	ck_assert_uint_eq(set.nr_samples, 10);
	ck_assert_uint_eq(set.nr_ignored, 15);
	sample_set_release(&set);

	ck_assert_int_eq(results_load_samples(tmpdir, "dd", commit, "key-b",
					      hash, &m, "bs_kb=128", "read",
					      &set),
			 0);
	ck_assert_uint_eq(set.nr, 1);
	ck_assert(set.values[0] == 1);
	sample_set_release(&set);

	/* Another point's hash, another metric: nothing. */
	char other[41];
	results_spec_hash(&job, &job.points[1], other);
	ck_assert_int_eq(results_load_samples(tmpdir, "dd", commit, "key-a",
					      other, &m, "bs_kb=128", "read",
					      &set),
			 0);
	ck_assert_uint_eq(set.nr, 0);
	sample_set_release(&set);
	ck_assert_int_eq(results_load_samples(tmpdir, "dd", commit, "key-a",
					      hash, &m, "bs_kb=128", "write",
					      &set),
			 0);
	ck_assert_uint_eq(set.nr, 0);
	sample_set_release(&set);
	/* A commit never measured is an empty set, not an error. */
	ck_assert_int_eq(results_load_samples(tmpdir, "dd", "fedcba987654",
					      "key-a", hash, &m, "bs_kb=128",
					      "read", &set),
			 0);
	ck_assert_uint_eq(set.nr, 0);
	sample_set_release(&set);
	ck_assert_uint_eq(reserve(), 9);
	results_machine_release(&m);
	results_machine_release(&kvm);
	results_machine_release(&other_mem);
}
END_TEST

/*
 * What is not a sample document under a point folder (a FIFO, a huge
 * file) is passed over with a warning naming it: loading never waits for
 * a writer and never reads more than a document's worth.
 */
START_TEST(loads_past_what_is_not_a_document)
{
	struct machine_id m;
	struct sample_set set = SAMPLE_SET_INIT;
	struct strbuf msg = STRBUF_INIT;
	const unsigned long b1[] = { 100, 300, 200 };
	char hash[41];
	char *pdir = xstrfmt("%s/dd/0123456789ab/virtio-rawread/bs_kb=128",
			     tmpdir);
	char *fifo = xstrfmt("%s/boot-5-sample-0.json", pdir);
	char *big = xstrfmt("%s/boot-6-sample-0.json", pdir);

	machine(&m, "tcg");
	results_spec_hash(&job, &job.points[0], hash);
	store(1, "key-a", &m, b1, 3, 1, 1);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(write_file_atomic(big, "{}", 2), 0);
	ck_assert_int_eq(truncate(big, 2 * RESULTS_DOC_MAX), 0);
	error_capture(&msg);
	ck_assert_int_eq(results_load_samples(tmpdir, "dd", commit, "key-a",
					      hash, &m, "bs_kb=128", "read",
					      &set),
			 0);
	error_capture(NULL);
	ck_assert_uint_eq(set.nr, 1);
	ck_assert(set.values[0] == 200);
	ck_assert_uint_eq(set.nr_ignored, 2);
	ck_assert_msg(strstr(msg.buf, fifo) && strstr(msg.buf, big), "%s",
		      msg.buf);
	sample_set_release(&set);
	results_machine_release(&m);
	strbuf_release(&msg);
	free(pdir);
	free(fifo);
	free(big);
}
END_TEST

/*
 * A stored document whose values have the wrong type or an impossible
 * value is named in a warning and never pooled: bw_bytes -5 was averaged
 * into the evidence, and a string bw_bytes was dropped without a word.
 */
static const struct {
	const char *from, *to, *why;
} spoiled[] = {
	{ "\"bw_bytes\": 200", "\"bw_bytes\": -5", "not a byte rate" },
	{ "\"bw_bytes\": 200", "\"bw_bytes\": \"200\"", "not an integer" },
	{ "\"bw_bytes\": 200", "\"bw_bytes\": 200.5", "not an integer" },
	{ "\"bw_bytes\": 200", "\"bw_bytes\": 9223372036854775807",
	  "not a byte rate" },
	{ "\"verified\": true", "\"verified\": \"yes\"", "not true or false" },
	{ "\"cpu_pct\": 30.5", "\"cpu_pct\": \"x\"", "not a percentage" },
	/* The rule a frame is read by (sample_check.h), the same values. */
	{ "\"cpu_pct\": 30.5", "\"cpu_pct\": -1",
	  "read.cpu_pct is -1, not a percentage" },
	{ "\"cpu_pct\": 30.5", "\"cpu_pct\": 1e300", "not a percentage" },
	{ "\"bw_bytes\": 200", "\"bw_bytes\": 2000",
	  "read.bw_bytes is 2000, but io_bytes 200 in runtime_ns 1000000000 "
	  "make 200" },
	{ "\"io_bytes\": 200", "\"io_bytes\": -1",
	  "read.io_bytes is -1, not a count" },
	{ "\"complete\": true", "\"complete\": 1", "not true or false" },
	{ "\"build_key\": \"key-a\"", "\"build_key\": 7", "not a string" },
	{ "\"clock\": \"wall\"", "\"clock\": \"sundial\"",
	  "machine.clock is not" },
	{ "\"clock\": \"wall\"", "\"clock\": \"virtual\"",
	  "machine.clock is not" }, /* virtual with no shift */
};

static void replace_in(struct strbuf *sb, const char *from, const char *to)
{
	char *at = strstr(sb->buf, from);
	struct strbuf out = STRBUF_INIT;
	ck_assert_msg(at, "'%s' not in the document", from);
	strbuf_add(&out, sb->buf, (size_t)(at - sb->buf));
	strbuf_addstr(&out, to);
	strbuf_addstr(&out, at + strlen(from));
	strbuf_release(sb);
	*sb = out;
}

START_TEST(spoiled_document_is_named_and_never_pooled)
{
	struct machine_id m;
	struct sample_set set = SAMPLE_SET_INIT;
	struct strbuf doc = STRBUF_INIT, msg = STRBUF_INIT, flat = STRBUF_INIT;
	const unsigned long b1[] = { 100, 300, 200 };
	char hash[41];
	char *pdir = xstrfmt("%s/dd/0123456789ab/virtio-rawread/bs_kb=128",
			     tmpdir);
	char *good = xstrfmt("%s/boot-1-sample-2.json", pdir);
	char *bad = xstrfmt("%s/boot-2-sample-0.json", pdir);

	machine(&m, "tcg");
	results_spec_hash(&job, &job.points[0], hash);
	store(1, "key-a", &m, b1, 3, 1, 1);
	/* Boot 1's third sample, one compact line, one value spoiled. */
	ck_assert_int_eq(read_file(good, &doc), 0);
	json_t *j = json_loads(doc.buf, 0, NULL);
	char *text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	for (char *p = text; *p; p++)
		if (*p == ':' || (*p == ',' && p[1] == '"')) {
			strbuf_addch(&flat, *p);
			strbuf_addch(&flat, ' ');
		} else {
			strbuf_addch(&flat, *p);
		}
	free(text);
	replace_in(&flat, "\"boot\": 1", "\"boot\": 2");
	replace_in(&flat, spoiled[_i].from, spoiled[_i].to);
	ck_assert_int_eq(write_file_atomic(bad, flat.buf, flat.len), 0);

	error_capture(&msg);
	ck_assert_int_eq(results_load_samples(tmpdir, "dd", commit, "key-a",
					      hash, &m, "bs_kb=128", "read",
					      &set),
			 0);
	error_capture(NULL);
	ck_assert_uint_eq(set.nr, 1);
	ck_assert_uint_eq(set.boots[0], 1);
	ck_assert_uint_eq(set.nr_ignored, 1);
	ck_assert_msg(strstr(msg.buf, bad) && strstr(msg.buf, spoiled[_i].why),
		      "%s: warning: '%s'", spoiled[_i].to, msg.buf);
	sample_set_release(&set);
	/*
	 * Loaded again, as after every boot, it is refused again but not
	 * said again: a bisection printed 459 such lines.
	 */
	strbuf_reset(&msg);
	error_capture(&msg);
	ck_assert_int_eq(results_load_samples(tmpdir, "dd", commit, "key-a",
					      hash, &m, "bs_kb=128", "read",
					      &set),
			 0);
	error_capture(NULL);
	ck_assert_uint_eq(set.nr_ignored, 1);
	ck_assert_msg(!strstr(msg.buf, bad), "said again: %s", msg.buf);
	sample_set_release(&set);
	results_machine_release(&m);
	strbuf_release(&doc);
	strbuf_release(&flat);
	strbuf_release(&msg);
	free(pdir);
	free(good);
	free(bad);
}
END_TEST

/* The spec hash follows what is measured, not how often. */
START_TEST(spec_hash_covers_the_definition)
{
	char a[41], b[41], c[41], d[41];
	results_spec_hash(&job, &job.points[0], a);
	results_spec_hash(&job, &job.points[1], b);
	ck_assert_str_ne(a, b);
	job.samples = 10;
	results_spec_hash(&job, &job.points[0], c);
	ck_assert_str_eq(a, c);
	job.warmup = 0;
	results_spec_hash(&job, &job.points[0], c);
	ck_assert_str_ne(a, c);
	job.warmup = 1;
	uint64_t lat = job.topologies[0].disks[0].latency_ns;
	job.topologies[0].disks[0].latency_ns = 100000;
	results_spec_hash(&job, &job.points[0], d);
	ck_assert_str_ne(a, d);
	job.topologies[0].disks[0].latency_ns = lat;
	results_spec_hash(&job, &job.points[0], c);
	ck_assert_str_eq(a, c);
	/* A write latency files results apart; none keeps the old hash. */
	job.topologies[0].disks[0].write_latency_ns = 8000000;
	results_spec_hash(&job, &job.points[0], d);
	ck_assert_str_ne(a, d);
	job.topologies[0].disks[0].write_latency_ns = 0;
	results_spec_hash(&job, &job.points[0], c);
	ck_assert_str_eq(a, c);
}
END_TEST

/*
 * Every document says which clock timed it, and samples of two clocks
 * (or two shifts) are never pooled; a document written before clocks
 * were recorded was timed by the wall clock and pools with its samples.
 */
START_TEST(clocks_are_recorded_and_never_pooled)
{
	struct machine_id wall, v3, v4;
	struct sample_set set = SAMPLE_SET_INIT;
	struct strbuf sb = STRBUF_INIT;
	const struct clock c3 = { CLOCK_VIRTUAL, 3 }, c4 = { CLOCK_VIRTUAL, 4 };
	const unsigned long b1[] = { 100, 300, 200 }, b2[] = { 40, 50, 60 },
			    b3[] = { 7, 8, 9 };
	char hash[41];
	char *pdir = xstrfmt("%s/dd/0123456789ab/virtio-rawread/bs_kb=128",
			     tmpdir);
	char *path = xstrfmt("%s/boot-2-sample-0.json", pdir);

	machine(&wall, "tcg");
	results_machine_fill(&v3, &job, 0, "tcg", "7.2.0", &c3);
	results_machine_fill(&v4, &job, 0, "tcg", "7.2.0", &c4);
	ck_assert(!results_machine_equal(&wall, &v3));
	ck_assert(!results_machine_equal(&v3, &v4));
	results_spec_hash(&job, &job.points[0], hash);
	store(1, "key-a", &wall, b1, 3, 1, 1);
	store(2, "key-a", &v3, b2, 3, 1, 1);
	store(3, "key-a", &v4, b3, 3, 1, 1);

	ck_assert_int_eq(read_file(path, &sb), 0);
	json_t *doc = json_loads(sb.buf, 0, NULL), *mj;
	mj = json_object_get(doc, "machine");
	ck_assert_str_eq(json_string_value(json_object_get(mj, "clock")),
			 "virtual");
	ck_assert_int_eq(json_integer_value(json_object_get(mj, "icount_shift")),
			 3);
	json_decref(doc);
	/* Boot 1 as an old run wrote it: no clock at all. */
	free(path);
	path = xstrfmt("%s/boot-1-sample-0.json", pdir);
	strbuf_reset(&sb);
	ck_assert_int_eq(read_file(path, &sb), 0);
	doc = json_loads(sb.buf, 0, NULL);
	mj = json_object_get(doc, "machine");
	ck_assert_str_eq(json_string_value(json_object_get(mj, "clock")),
			 "wall");
	ck_assert_ptr_null(json_object_get(mj, "icount_shift"));
	json_object_del(mj, "clock");
	json_object_set_new(doc, "boot", json_integer(4));
	char *old = json_dumps(doc, 0);
	json_decref(doc);
	free(path);
	path = xstrfmt("%s/boot-4-sample-0.json", pdir);
	ck_assert_int_eq(write_file_atomic(path, old, strlen(old)), 0);
	free(old);

	ck_assert_int_eq(results_load_samples(tmpdir, "dd", commit, "key-a",
					      hash, &wall, "bs_kb=128", "read",
					      &set),
			 0);
	ck_assert_uint_eq(set.nr, 2);
	ck_assert_uint_eq(set.boots[0], 1);
	ck_assert_uint_eq(set.boots[1], 4);
	ck_assert(set.values[0] == 200);
	sample_set_release(&set);
	ck_assert_int_eq(results_load_samples(tmpdir, "dd", commit, "key-a",
					      hash, &v3, "bs_kb=128", "read",
					      &set),
			 0);
	ck_assert_uint_eq(set.nr, 1);
	ck_assert_uint_eq(set.boots[0], 2);
	ck_assert(set.values[0] == 50);
	sample_set_release(&set);
	ck_assert_int_eq(results_load_samples(tmpdir, "dd", commit, "key-a",
					      hash, &v4, "bs_kb=128", "read",
					      &set),
			 0);
	ck_assert_uint_eq(set.nr, 1);
	ck_assert(set.values[0] == 8);
	sample_set_release(&set);
	results_machine_release(&wall);
	results_machine_release(&v3);
	results_machine_release(&v4);
	strbuf_release(&sb);
	free(pdir);
	free(path);
}
END_TEST

START_TEST(machine_identity)
{
	struct machine_id a, b;
	machine(&a, "tcg");
	machine(&b, "tcg");
	ck_assert(results_machine_equal(&a, &b));
	ck_assert_str_ne(a.cpu_model, "");
	free(b.qemu_version);
	b.qemu_version = xstrdup("8.0.0");
	ck_assert(!results_machine_equal(&a, &b));
	results_machine_release(&b);
	machine(&b, "tcg");
	b.cpus = 4;
	ck_assert(!results_machine_equal(&a, &b));
	results_machine_release(&a);
	results_machine_release(&b);

	char c12[13];
	results_commit_abbrev(commit, c12);
	ck_assert_str_eq(c12, "0123456789ab");
	results_commit_abbrev("v6.1/x", c12);
	ck_assert_str_eq(c12, "v6.1_x");
}
END_TEST

/*
 * A commit, topology or point folder that is a link to a folder outside
 * had a boot's documents and console written there; the store refuses
 * it by name and writes nothing outside.
 */
static const char *const linked[] = {
	"dd/0123456789ab",
	"dd/0123456789ab/virtio-rawread",
	"dd/0123456789ab/virtio-rawread/bs_kb=128",
};

/*
 * A copy of a commit's series keeps what each boot was: its id and CPU
 * beside its value (a Slurm task's document writes all three), and no
 * array where the original kept none.
 */
START_TEST(a_copy_keeps_each_boot)
{
	struct sample_set a = SAMPLE_SET_INIT, b = SAMPLE_SET_INIT;

	sample_set_push(&a, 3, 100e6, 12.5);
	sample_set_push(&a, 7, 90e6, 13.5);
	a.nr_ignored = 2;
	sample_set_copy(&b, &a);
	ck_assert_uint_eq(b.nr, 2);
	ck_assert_uint_eq(b.boots[1], 7);
	ck_assert_double_eq(b.values[1], 90e6);
	ck_assert_double_eq(b.cpu_pct[0], 12.5);
	ck_assert_uint_eq(b.nr_samples, 2);
	ck_assert_uint_eq(b.nr_ignored, 2);
	sample_set_copy_values(&a, b.values, b.nr);
	sample_set_copy(&b, &a);
	ck_assert_uint_eq(b.nr, 2);
	ck_assert_ptr_null(b.boots);
	ck_assert_ptr_null(b.cpu_pct);
	sample_set_release(&a);
	sample_set_release(&b);
}
END_TEST

START_TEST(linked_folder_in_the_store_is_refused)
{
	struct machine_id m;
	struct strbuf err = STRBUF_INIT;
	const unsigned long bw[] = { 100, 300, 200 };
	char *out = xstrfmt("%s-outside", tmpdir);
	char *link = xstrfmt("%s/%s", tmpdir, linked[_i]);
	char *parent = xstrndup(link, (size_t)(strrchr(link, '/') - link));
	DIR *d;
	struct dirent *e;

	machine(&m, "tcg");
	ck_assert_int_eq(mkdir_p(out, 0755), 0);
	ck_assert_int_eq(mkdir_p(parent, 0755), 0);
	ck_assert_int_eq(symlink(out, link), 0);
	error_capture(&err);
	ck_assert_int_eq(store_rc(1, "key-a", &m, bw, 3, 1, 1), -1);
	error_capture(NULL);
	ck_assert_msg(strstr(err.buf, link) && strstr(err.buf, "symbolic link"),
		      "got '%s'", err.buf);
	d = opendir(out);
	while ((e = readdir(d)))
		ck_assert_msg(e->d_name[0] == '.', "wrote '%s' outside",
			      e->d_name);
	closedir(d);
	remove_tree(out);
	strbuf_release(&err);
	results_machine_release(&m);
	free(parent);
	free(link);
	free(out);
}
END_TEST

static Suite *results_suite(void)
{
	Suite *s = suite_create("results");
	TCase *tc = tcase_create("results");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, stores_in_the_documented_layout);
	tcase_add_test(tc, boot_ids_are_reserved_once);
	tcase_add_test(tc, loads_one_median_per_boot_and_never_pools);
	tcase_add_test(tc, loads_past_what_is_not_a_document);
	tcase_add_loop_test(tc, spoiled_document_is_named_and_never_pooled, 0,
			    ARRAY_SIZE(spoiled));
	tcase_add_test(tc, spec_hash_covers_the_definition);
	tcase_add_test(tc, clocks_are_recorded_and_never_pooled);
	tcase_add_test(tc, machine_identity);
	tcase_add_test(tc, a_copy_keeps_each_boot);
	tcase_add_loop_test(tc, linked_folder_in_the_store_is_refused, 0,
			    ARRAY_SIZE(linked));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(results_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
