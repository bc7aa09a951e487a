/*
 * check_proto.c: the result-port parser (proto.c). A frame is believed
 * only when magic, seq, length, CRC and JSON all check out; a lost,
 * corrupt, truncated or replayed frame breaks the stream, so nothing after
 * it becomes a sample; noise without the magic is ignored.
 */
#include "proto.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* A well-formed frame line for `payload`, with its '\n'. */
/* The report's error of `stage` (NULL: the first), or NULL. */
static const struct proto_error *report_error(const struct proto_report *r,
					      const char *stage)
{
	for (size_t i = 0; i < r->nr_errors; i++)
		if (!stage || !strcmp(r->errors[i].stage, stage))
			return &r->errors[i];
	return NULL;
}

/* The report's point `id`, as the guest announced it, or NULL. */
static json_t *report_point(const struct proto_report *r, const char *id)
{
	size_t i;
	json_t *p;

	json_array_foreach(r->points, i, p) {
		const char *pid = json_string_value(json_object_get(p, "id"));
		if (pid && !strcmp(pid, id))
			return p;
	}
	return NULL;
}

static char *frame(unsigned seq, const char *payload)
{
	return xstrfmt("%s %u %zu %08x %s\n", PROTO_MAGIC, seq, strlen(payload),
		       proto_crc32(payload, strlen(payload)), payload);
}

static const char *hello =
	"{\"type\":\"hello\",\"kernel\":\"6.1.0\",\"version\":\"#1 SMP\","
	"\"machine\":\"x86_64\",\"mem_total_kb\":500000,\"cpus\":2,\"boot\":3}";
static const char *topology =
	"{\"type\":\"topology\",\"layers\":[{\"name\":\"md0\",\"kind\":\"md\","
	"\"dev\":\"md0\",\"level\":0,\"chunk_kb\":64,\"raid_disks\":4}]}";
static const char *point =
	"{\"type\":\"point\",\"id\":\"bs_kb=128\",\"engine\":\"rawread\","
	"\"target\":\"md0\",\"ra_kb\":128}";

static char *sample(int index, int warmup, unsigned long bw)
{
	return xstrfmt("{\"type\":\"sample\",\"point\":\"bs_kb=128\","
		       "\"index\":%d,\"warmup\":%s,\"metric\":\"read\","
		       "\"io_bytes\":%lu,\"runtime_ns\":2000000000,"
		       "\"bw_bytes\":%lu,\"usr_ns\":1000,\"sys_ns\":900000000,"
		       "\"cpu_pct\":45.5,\"verified\":true}",
		       index, warmup ? "true" : "false", 2 * bw, bw);
}

/* A whole good boot: hello, topology, point, warmup + 3 samples, done. */
static void good_stream(struct strbuf *out)
{
	const char *fixed[] = { hello, topology, point };
	unsigned seq = 0;
	for (size_t i = 0; i < 3; i++) {
		char *f = frame(seq++, fixed[i]);
		strbuf_addstr(out, f);
		free(f);
	}
	for (int i = -1; i < 3; i++) {
		char *s = sample(i < 0 ? 0 : i, i < 0, 130000000ul + (unsigned)i);
		char *f = frame(seq++, s);
		strbuf_addstr(out, f);
		free(f);
		free(s);
	}
	char *f = frame(seq, "{\"type\":\"done\",\"samples\":3}");
	strbuf_addstr(out, f);
	free(f);
}

START_TEST(parses_a_good_line)
{
	struct proto_frame f = PROTO_FRAME_INIT;
	char *line = frame(7, hello);
	size_t n = strlen(line) - 1;
	ck_assert_int_eq(proto_parse_line(line, n, &f), PROTO_OK);
	ck_assert_uint_eq(f.seq, 7);
	ck_assert_str_eq(f.type, "hello");
	ck_assert_str_eq(json_string_value(json_object_get(f.payload, "kernel")),
			 "6.1.0");
	proto_frame_release(&f);
	/* A serial line may end in "\r\n". */
	line[n] = '\r';
	ck_assert_int_eq(proto_parse_line(line, n + 1, &f), PROTO_OK);
	proto_frame_release(&f);
	free(line);
}
END_TEST

/* Lines that must be refused, each for its reason. */
static const struct {
	const char *line;
	int status;
} bad_lines[] = {
	{ "[    1.234] md0: detected capacity change", PROTO_NOT_FRAME },
	{ "", PROTO_NOT_FRAME },
	{ "@IOB", PROTO_NOT_FRAME },
	{ "@IOB1", PROTO_BAD_HEADER },
	{ "@IOB1 0 2 9e1ab7c1 {}", PROTO_BAD_CRC },
	{ "@IOB1 x 2 00000000 {}", PROTO_BAD_HEADER },
	{ "@IOB1 -1 2 00000000 {}", PROTO_BAD_HEADER },
	{ "@IOB1 01 2 00000000 {}", PROTO_BAD_HEADER },
	{ "@IOB1 0  2 00000000 {}", PROTO_BAD_HEADER },
	{ "@IOB1 0 2 0000000 {}", PROTO_BAD_HEADER },
	{ "@IOB1 0 2 0000000G {}", PROTO_BAD_HEADER },
	{ "@IOB1 0 2 ABCDEF01 {}", PROTO_BAD_HEADER },
	{ "@IOB1 0 2 00000000{}", PROTO_BAD_HEADER },
	{ "@IOB1 0 99999999999999999999 00000000 {}", PROTO_BAD_HEADER },
	{ "@IOB1 0 70000 00000000 {}", PROTO_TOO_LONG },
	{ "@IOB1 0 3 00000000 {}", PROTO_BAD_LEN },
	{ "@IOB1 0 1 00000000 {}", PROTO_BAD_LEN },
	{ "@IOB10 2 00000000 {}", PROTO_BAD_HEADER },
};

START_TEST(refuses_bad_lines)
{
	struct proto_frame f = PROTO_FRAME_INIT;
	const char *l = bad_lines[_i].line;
	int st = proto_parse_line(l, strlen(l), &f);
	ck_assert_msg(st == bad_lines[_i].status, "'%s': %s, want %s", l,
		      proto_strerror(st), proto_strerror(bad_lines[_i].status));
	ck_assert_ptr_null(f.payload);
}
END_TEST

/* Right framing, wrong content: CRC over a flipped byte, bad JSON, no type. */
START_TEST(refuses_bad_payloads)
{
	struct proto_frame f = PROTO_FRAME_INIT;
	char *line = frame(0, hello);
	char *brace = strrchr(line, '}');
	brace[-1] ^= 1; /* one bit flipped on the wire */
	ck_assert_int_eq(proto_parse_line(line, strlen(line) - 1, &f),
			 PROTO_BAD_CRC);
	free(line);

	const char *payloads[] = { "{\"type\":\"hello\"", "[1,2]",
				   "{\"kernel\":\"6.1\"}", "{\"type\":7}",
				   "{\"type\":\"\"}", "\"hello\"" };
	for (size_t i = 0; i < sizeof(payloads) / sizeof(*payloads); i++) {
		line = frame(0, payloads[i]);
		ck_assert_msg(proto_parse_line(line, strlen(line) - 1, &f) ==
				      PROTO_BAD_JSON,
			      "%s", payloads[i]);
		free(line);
	}
}
END_TEST

START_TEST(report_from_a_good_stream_fed_byte_by_byte)
{
	struct strbuf s = STRBUF_INIT;
	struct proto_report r;
	int accepted = 0;
	good_stream(&s);
	proto_report_init(&r);
	for (size_t i = 0; i < s.len; i++)
		accepted += proto_report_feed(&r, s.buf + i, 1);
	proto_report_finish(&r);
	ck_assert_int_eq(accepted, 8);
	ck_assert_uint_eq(r.nr_frames, 8);
	ck_assert_uint_eq(r.nr_rejected, 0);
	ck_assert(!r.broken);
	ck_assert(r.done);
	ck_assert(proto_report_complete(&r));
	ck_assert_str_eq(r.kernel, "6.1.0");
	ck_assert_uint_eq(json_array_size(r.topology), 1);
	ck_assert_ptr_nonnull(report_point(&r, "bs_kb=128"));
	ck_assert_ptr_null(report_point(&r, "bs_kb=4"));
	ck_assert_uint_eq(r.nr_samples, 4);
	ck_assert(r.samples[0].warmup);
	const struct proto_sample *x = &r.samples[3];
	ck_assert(!x->warmup);
	ck_assert_int_eq(x->index, 2);
	ck_assert_str_eq(x->point, "bs_kb=128");
	ck_assert_str_eq(x->metric, "read");
	ck_assert_uint_eq(x->bw_bytes, 130000002ul);
	ck_assert_uint_eq(x->io_bytes, 2 * x->bw_bytes);
	ck_assert_uint_eq(x->runtime_ns, 2000000000ul);
	ck_assert_uint_eq(x->sys_ns, 900000000ul);
	ck_assert(x->cpu_pct > 45.4 && x->cpu_pct < 45.6);
	ck_assert(x->verified);
	proto_report_release(&r);
	strbuf_release(&s);
}
END_TEST

/*
 * A sample's block-layer counters are kept with it; a guest that sends
 * none, or a garbled object, still gives the sample, without them.
 */
START_TEST(report_keeps_block_counters_when_well_formed)
{
	static const char *const tails[] = {
		",\"block_v1\":{\"interval_ns\":5,\"devices\":[{\"dev\":\"vda\"}]}}",
		"}",
		",\"block_v1\":{\"devices\":\"vda\"}}",
		",\"block_v1\":[1,2]}",
	};
	struct proto_report r;
	proto_report_init(&r);
	for (size_t i = 0; i < sizeof(tails) / sizeof(*tails); i++) {
		char *s = sample((int)i, 0, 100), *f;
		s[strlen(s) - 1] = '\0';
		char *full = xstrfmt("%s%s", s, tails[i]);
		f = frame((unsigned)i, full);
		ck_assert_int_eq(proto_report_feed(&r, f, strlen(f)), 1);
		free(f);
		free(full);
		free(s);
	}
	ck_assert_uint_eq(r.nr_samples, 4);
	ck_assert_ptr_nonnull(r.samples[0].block);
	ck_assert_int_eq(json_integer_value(json_object_get(
				 r.samples[0].block, "interval_ns")),
			 5);
	for (size_t i = 1; i < 4; i++)
		ck_assert_ptr_null(r.samples[i].block);
	proto_report_release(&r);
}
END_TEST

/*
 * A sample's point name is the guest's: it reaches `run`'s lines, its
 * table and report.txt escaped, as its error messages do (a metric is
 * one of the names the rule of a sample holds: sample_check.h).
 */
START_TEST(report_escapes_the_guests_names)
{
	static const char payload[] =
		"{\"type\":\"sample\",\"point\":\"bs\\u001b[31m\\u0007\","
		"\"index\":0,\"warmup\":false,\"metric\":\"read\","
		"\"io_bytes\":1000,\"runtime_ns\":1000000000,\"bw_bytes\":1000,\"usr_ns\":1,"
		"\"sys_ns\":1,\"cpu_pct\":1,\"verified\":true}";
	struct proto_report r;
	char *f = frame(0, payload);
	proto_report_init(&r);
	ck_assert_int_eq(proto_report_feed(&r, f, strlen(f)), 1);
	ck_assert_uint_eq(r.nr_samples, 1);
	ck_assert_str_eq(r.samples[0].point, "bs\\x1b[31m\\x07");
	proto_report_release(&r);
	free(f);
}
END_TEST

/* Kernel noise on the port between (and in front of) frames is ignored. */
START_TEST(report_ignores_noise)
{
	struct strbuf s = STRBUF_INIT, noisy = STRBUF_INIT;
	struct proto_report r;
	good_stream(&s);
	struct strvec lines = STRVEC_INIT;
	strvec_split(&lines, s.buf, '\n');
	for (size_t i = 0; i < lines.nr; i++) {
		strbuf_addf(&noisy, "[  %zu.000] random: crng init done\r\n", i);
		if (i == 2)
			strbuf_addstr(&noisy, "\x01\x02"); /* glued garbage */
		strbuf_addf(&noisy, "%s\n", lines.v[i]);
	}
	strbuf_addstr(&noisy, "reboot: Restarting system\n");
	proto_report_init(&r);
	proto_report_feed(&r, noisy.buf, noisy.len);
	proto_report_finish(&r);
	ck_assert_uint_eq(r.nr_frames, 8);
	ck_assert_uint_eq(r.nr_noise, lines.nr + 1);
	ck_assert(proto_report_complete(&r));
	proto_report_release(&r);
	strvec_clear(&lines);
	strbuf_release(&s);
	strbuf_release(&noisy);
}
END_TEST

/* How a good stream is damaged, and the samples that must survive it. */
enum damage { GAP, REPEAT, CORRUPT, TRUNCATE_MIDDLE, TRUNCATE_END, NO_DONE };
static const struct {
	enum damage how;
	size_t samples; /* samples accepted */
} damages[] = {
	{ GAP, 2 }, { REPEAT, 2 }, { CORRUPT, 2 },
	{ TRUNCATE_MIDDLE, 2 }, { TRUNCATE_END, 4 }, { NO_DONE, 4 },
};

START_TEST(report_refuses_everything_after_a_lost_frame)
{
	struct strbuf s = STRBUF_INIT, d = STRBUF_INIT;
	struct strvec lines = STRVEC_INIT;
	struct proto_report r;
	good_stream(&s);
	strvec_split(&lines, s.buf, '\n');
	ck_assert_uint_eq(lines.nr, 8);
	/* Line 5 is sample index 1 (after hello, topology, point, warmup, 0). */
	for (size_t i = 0; i < lines.nr; i++) {
		const char *l = lines.v[i];
		if (i == 5 && damages[_i].how == GAP)
			continue;
		if (i == 5 && damages[_i].how == REPEAT)
			l = lines.v[4];
		if (i == 5 && damages[_i].how == CORRUPT) {
			char *c = xstrdup(l);
			strstr(c, "\"index\":1")[8] = '7';
			strbuf_addf(&d, "%s\n", c);
			free(c);
			continue;
		}
		if (i == 5 && damages[_i].how == TRUNCATE_MIDDLE) {
			strbuf_add(&d, l, strlen(l) / 2);
			strbuf_addch(&d, '\n');
			continue;
		}
		if (i == 7 && damages[_i].how == NO_DONE)
			continue;
		if (i == 7 && damages[_i].how == TRUNCATE_END) {
			strbuf_add(&d, l, strlen(l) - 3); /* QEMU died */
			continue;
		}
		strbuf_addf(&d, "%s\n", l);
	}
	proto_report_init(&r);
	proto_report_feed(&r, d.buf, d.len);
	proto_report_finish(&r);
	ck_assert_uint_eq(r.nr_samples, damages[_i].samples);
	ck_assert(!r.done);
	ck_assert(!proto_report_complete(&r));
	if (damages[_i].how != NO_DONE) {
		ck_assert(r.broken);
		ck_assert_uint_ge(r.nr_rejected, 1);
		ck_assert_uint_ge(r.rejects.nr, 1);
	}
	if (damages[_i].how == GAP)
		ck_assert_ptr_nonnull(strstr(r.rejects.v[0], "expected 5"));
	if (damages[_i].how == CORRUPT)
		ck_assert_ptr_nonnull(strstr(r.rejects.v[0], "bad crc"));
	proto_report_release(&r);
	strvec_clear(&lines);
	strbuf_release(&s);
	strbuf_release(&d);
}
END_TEST

START_TEST(report_keeps_errors_and_refuses_incomplete_samples)
{
	struct strbuf s = STRBUF_INIT;
	struct proto_report r;
	const char *p[] = {
		hello,
		"{\"type\":\"error\",\"stage\":\"verify\",\"message\":\"block "
		"4096: read 0xff, wrote 0x5a\"}",
		/* A guest's escapes are kept as text, never sent raw on. */
		"{\"type\":\"error\",\"stage\":\"md\\u001b[2J\","
		"\"message\":\"\\u001b]0;owned\\u0007x\\ny\"}",
		"{\"type\":\"done\",\"samples\":0}",
	};
	for (unsigned i = 0; i < 4; i++) {
		char *f = frame(i, p[i]);
		strbuf_addstr(&s, f);
		free(f);
	}
	proto_report_init(&r);
	proto_report_feed(&r, s.buf, s.len);
	ck_assert(r.done);
	ck_assert(!proto_report_complete(&r));
	ck_assert_str_eq(report_error(&r, "verify")->message,
			 "block 4096: read 0xff, wrote 0x5a");
	ck_assert_ptr_nonnull(report_error(&r, "md\\x1b[2J"));
	ck_assert_str_eq(report_error(&r, "md\\x1b[2J")->message,
			 "\\x1b]0;owned\\x07x\\x0ay");
	proto_report_release(&r);

	/* A sample without bw_bytes is a protocol violation, not a sample. */
	strbuf_reset(&s);
	char *f = frame(0, "{\"type\":\"sample\",\"point\":\"x\",\"index\":0,"
			   "\"warmup\":false,\"metric\":\"read\"}");
	strbuf_addstr(&s, f);
	free(f);
	proto_report_init(&r);
	proto_report_feed(&r, s.buf, s.len);
	ck_assert_uint_eq(r.nr_samples, 0);
	ck_assert_uint_eq(r.nr_rejected, 1);
	ck_assert(r.broken);
	proto_report_release(&r);

	/* done says 5, 3 came: a sample went missing without a trace. */
	strbuf_reset(&s);
	good_stream(&s);
	char *at = strstr(s.buf, "\"samples\":3}");
	ck_assert_ptr_nonnull(at);
	struct strbuf t = STRBUF_INIT;
	strbuf_add(&t, s.buf, (size_t)(strrchr(s.buf, '@') - s.buf));
	f = frame(7, "{\"type\":\"done\",\"samples\":5}");
	strbuf_addstr(&t, f);
	free(f);
	proto_report_init(&r);
	proto_report_feed(&r, t.buf, t.len);
	ck_assert(r.done);
	ck_assert(!proto_report_complete(&r));
	proto_report_release(&r);
	strbuf_release(&t);
	strbuf_release(&s);
}
END_TEST

/* An endless line without '\n' must not grow without bound. */
START_TEST(report_bounds_a_runaway_line)
{
	struct proto_report r;
	char *junk = xmalloc(1 << 16);
	memset(junk, 'x', 1 << 16);
	proto_report_init(&r);
	for (int i = 0; i < 64; i++)
		proto_report_feed(&r, junk, 1 << 16);
	ck_assert_uint_le(r.partial.len, PROTO_MAX_PAYLOAD + 64);
	proto_report_feed(&r, "\n", 1);
	char *f = frame(0, hello);
	proto_report_feed(&r, f, strlen(f));
	ck_assert_uint_eq(r.nr_frames, 1);
	ck_assert_uint_eq(r.nr_noise, 1);
	free(f);
	free(junk);
	proto_report_release(&r);
}
END_TEST

/*
 * A guest that sends more than its spec asked for (3 samples and one
 * warmup of one point) is in error: the extra samples are dropped, one
 * error says so, and the boot is no evidence. 20,000 samples for 3 were
 * stored as "ok".
 */
START_TEST(report_refuses_samples_the_spec_did_not_ask_for)
{
	struct proto_report r;
	struct strbuf in = STRBUF_INIT;
	const struct proto_error *e;
	unsigned seq = 0;

	proto_report_init(&r);
	r.expect_samples = 3;
	r.expect_warmups = 1;
	r.expect_points = 1;
	const char *fixed[] = { hello, topology, point };
	for (size_t i = 0; i < 3; i++) {
		char *f = frame(seq++, fixed[i]);
		strbuf_addstr(&in, f);
		free(f);
	}
	/* Indexes 0..2 are asked for; 3..999 are not; and 0 again, 30 times. */
	for (int i = 0; i < 1000 + 30; i++) {
		char *s = sample(i < 1000 ? i : 0, 0, 130000000ul);
		char *f = frame(seq++, s);
		strbuf_addstr(&in, f);
		free(f);
		free(s);
	}
	proto_report_feed(&r, in.buf, in.len);
	ck_assert_uint_le(r.nr_samples, 3 * 4 * PROTO_METRICS_MAX);
	ck_assert_uint_eq(r.nr_errors, 1);
	e = report_error(&r, "samples");
	ck_assert_ptr_nonnull(e);
	ck_assert_msg(strstr(e->message, "sample 3, but the spec asked for 3"),
		      "%s", e->message);
	ck_assert(!proto_report_complete(&r));
	proto_report_release(&r);
	strbuf_release(&in);
}
END_TEST

/*
 * A sample the store would refuse (results_doc_read) is refused as the
 * frame is read, by the same rule, with its reason, said once however
 * many come: `run` took cpu_pct -1 and bw_bytes 2^63-1 as "ok", and a
 * bisection then booted 17 times to throw each away.
 */
static const struct {
	const char *from, *to, *why;
} spoiled[] = {
	{ "\"cpu_pct\":45.5", "\"cpu_pct\":-1",
	  "cpu_pct is -1, not a percentage" },
	{ "\"cpu_pct\":45.5", "\"cpu_pct\":1e300", "not a percentage" },
	{ "\"cpu_pct\":45.5", "\"cpu_pct\":\"45\"",
	  "cpu_pct is a string, not a percentage" },
	{ "\"bw_bytes\":130000000", "\"bw_bytes\":9223372036854775807",
	  "bw_bytes is 9223372036854775807, not a byte rate" },
	{ "\"bw_bytes\":130000000", "\"bw_bytes\":-1",
	  "bw_bytes is -1, not a byte rate" },
	{ "\"bw_bytes\":130000000", "\"bw_bytes\":1300000000",
	  "bw_bytes is 1300000000, but io_bytes 260000000 in runtime_ns "
	  "2000000000 make 130000000" },
	{ "\"io_bytes\":260000000", "\"io_bytes\":-1",
	  "io_bytes is -1, not a count" },
	{ "\"sys_ns\":900000000", "\"sys_ns\":1.5",
	  "sys_ns is a real number, not a count" },
	{ "\"verified\":true", "\"verified\":\"yes\"",
	  "verified is a string, not true or false" },
	{ "\"metric\":\"read\"", "\"metric\":\"machine\"",
	  "metric 'machine', not read, write, rewrite or trim" },
};

static char *spoil(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	ck_assert_msg(at, "'%s' not in '%s'", from, text);
	return xstrfmt("%.*s%s%s", (int)(at - text), text, to,
		       at + strlen(from));
}

START_TEST(report_refuses_a_sample_the_store_would)
{
	struct proto_report r;
	struct strbuf in = STRBUF_INIT;
	const struct proto_error *e;
	unsigned seq = 0;
	char *f;

	f = frame(seq++, hello);
	strbuf_addstr(&in, f);
	free(f);
	/* Sample 0 as it should be; 1 and 2 spoiled. */
	for (int i = 0; i < 3; i++) {
		char *good = sample(i, 0, 130000000ul);
		char *s = i ? spoil(good, spoiled[_i].from, spoiled[_i].to)
			    : xstrdup(good);
		f = frame(seq++, s);
		strbuf_addstr(&in, f);
		free(f);
		free(s);
		free(good);
	}
	f = frame(seq++, "{\"type\":\"done\",\"samples\":3}");
	strbuf_addstr(&in, f);
	free(f);
	proto_report_init(&r);
	proto_report_feed(&r, in.buf, in.len);
	proto_report_finish(&r);
	/* Frames are not lost: the good sample stays, done is read. */
	ck_assert_msg(!r.broken, "%s: %s", spoiled[_i].to,
		      r.rejects.nr ? r.rejects.v[0] : "");
	ck_assert(r.done);
	ck_assert_uint_eq(r.nr_samples, 1);
	/* Two refused, one error with the reason. */
	ck_assert_uint_eq(r.nr_errors, 1);
	e = report_error(&r, "samples");
	ck_assert_ptr_nonnull(e);
	ck_assert_msg(strstr(e->message, spoiled[_i].why), "%s", e->message);
	ck_assert(!proto_report_complete(&r));
	proto_report_release(&r);
	strbuf_release(&in);
}
END_TEST

/* hello, then each payload, then done counting `n` samples. */
static void feed_stream(struct proto_report *r, const char *const *payloads,
			size_t nr, unsigned n)
{
	struct strbuf in = STRBUF_INIT;
	unsigned seq = 0;
	char *f = frame(seq++, hello), *d;

	strbuf_addstr(&in, f);
	free(f);
	for (size_t i = 0; i < nr; i++) {
		f = frame(seq++, payloads[i]);
		strbuf_addstr(&in, f);
		free(f);
	}
	d = xstrfmt("{\"type\":\"done\",\"samples\":%u}", n);
	f = frame(seq, d);
	strbuf_addstr(&in, f);
	free(f);
	free(d);
	proto_report_feed(r, in.buf, in.len);
	proto_report_finish(r);
	strbuf_release(&in);
}

/*
 * Points the spec does not hold: their samples are refused, naming the
 * point, since no document can be filed for them (the store dropped them
 * without a word while `run` said "ok").
 */
START_TEST(report_refuses_a_point_the_spec_does_not_hold)
{
	struct proto_report r;
	char *good = sample(0, 0, 130000000ul);
	char *other = spoil(good, "bs_kb=128", "bs_kb=4");
	const char *p[] = { good, other };

	proto_report_init(&r);
	strvec_push(&r.expect_ids, "bs_kb=128");
	feed_stream(&r, p, 2, 2);
	ck_assert(!r.broken);
	ck_assert_uint_eq(r.nr_samples, 1);
	ck_assert_str_eq(r.samples[0].point, "bs_kb=128");
	ck_assert_uint_eq(r.nr_errors, 1);
	ck_assert_msg(strstr(r.errors[0].message,
			     "point 'bs_kb=4', which the spec does not hold"),
		      "%s", r.errors[0].message);
	ck_assert(!proto_report_complete(&r));
	proto_report_release(&r);
	free(good);
	free(other);
}
END_TEST

/*
 * A boot that measured nothing is no evidence: no sample at all, or none
 * of a point the spec holds, or only warmups.
 */
START_TEST(report_without_a_sample_is_incomplete)
{
	struct proto_report r;
	char *warm = sample(0, 1, 130000000ul), *good = sample(0, 0, 1000ul);
	const char *p[] = { warm, good };

	proto_report_init(&r);
	feed_stream(&r, p, 0, 0);
	ck_assert(r.done && !r.nr_errors && !r.broken);
	ck_assert_ptr_nonnull(proto_report_unmeasured(&r));
	ck_assert_str_eq(proto_report_unmeasured(&r), "");
	ck_assert(!proto_report_complete(&r));
	proto_report_release(&r);

	proto_report_init(&r);
	feed_stream(&r, p, 1, 1);
	ck_assert_str_eq(proto_report_unmeasured(&r), "");
	ck_assert(!proto_report_complete(&r));
	proto_report_release(&r);

	/* bs_kb=128 measured; bs_kb=4 did not. */
	proto_report_init(&r);
	strvec_push(&r.expect_ids, "bs_kb=128");
	strvec_push(&r.expect_ids, "bs_kb=4");
	feed_stream(&r, p, 2, 2);
	ck_assert_str_eq(proto_report_unmeasured(&r), "bs_kb=4");
	ck_assert(!proto_report_complete(&r));
	proto_report_release(&r);

	proto_report_init(&r);
	strvec_push(&r.expect_ids, "bs_kb=128");
	feed_stream(&r, p, 2, 2);
	ck_assert_ptr_null(proto_report_unmeasured(&r));
	ck_assert(proto_report_complete(&r));
	proto_report_release(&r);
	free(warm);
	free(good);
}
END_TEST

static Suite *proto_suite(void)
{
	Suite *s = suite_create("proto");
	TCase *tc = tcase_create("proto");
	tcase_add_test(tc, parses_a_good_line);
	tcase_add_loop_test(tc, refuses_bad_lines, 0,
			    (int)(sizeof(bad_lines) / sizeof(*bad_lines)));
	tcase_add_test(tc, refuses_bad_payloads);
	tcase_add_test(tc, report_from_a_good_stream_fed_byte_by_byte);
	tcase_add_test(tc, report_ignores_noise);
	tcase_add_loop_test(tc, report_refuses_everything_after_a_lost_frame, 0,
			    (int)(sizeof(damages) / sizeof(*damages)));
	tcase_add_test(tc, report_keeps_errors_and_refuses_incomplete_samples);
	tcase_add_test(tc, report_bounds_a_runaway_line);
	tcase_add_test(tc, report_refuses_samples_the_spec_did_not_ask_for);
	tcase_add_loop_test(tc, report_refuses_a_sample_the_store_would, 0,
			    sizeof(spoiled) / sizeof(*spoiled));
	tcase_add_test(tc, report_refuses_a_point_the_spec_does_not_hold);
	tcase_add_test(tc, report_without_a_sample_is_incomplete);
	tcase_add_test(tc, report_keeps_block_counters_when_well_formed);
	tcase_add_test(tc, report_escapes_the_guests_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(proto_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
