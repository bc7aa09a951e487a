/*
 * check_profile.c: a profile's parts, on plain data: System.map read
 * and counts folded into functions (ksyms.c), the plugin's file read
 * (tbcount.c), the figures per MB and per request taken from the
 * guest's samples (profile.c), and two profiles' difference
 * (profile_table.c): its order, its total, and rows that add up to it.
 */
#include "ksyms.h"
#include "profile.h"
#include "profile_table.h"
#include "tbcount.h"
#include "util.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A map as the kernel writes it, with data and aliases mixed in. */
static const char map_text[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81001000 t local_helper\n"
	"ffffffff81001000 T global_alias\n"
	"ffffffff81002000 T page_cache_ra_unbounded\n"
	"ffffffff81002ff0 T __pfx_blk_mq_submit_bio\n"
	"ffffffff81003000 T blk_mq_submit_bio\n"
	"ffffffff81004000 W weak_fn\n"
	"ffffffff81005000 T _etext\n"
	"ffffffff82000000 D some_data\n"
	"ffffffff82000100 b a_bss\n"
	"this line is not a symbol\n"
	"0000000000000000 A __per_cpu_start\n";

static struct ksyms parsed(void)
{
	struct ksyms k = KSYMS_INIT;
	ck_assert_int_eq(ksyms_parse(&k, map_text, strlen(map_text), "map"),
			 0);
	return k;
}

START_TEST(parse_keeps_text_one_name_per_address)
{
	struct ksyms k = parsed();
	/* _stext/startup_64, global_alias, ra, submit_bio, weak_fn, _etext */
	ck_assert_uint_eq(k.nr, 6);
	ck_assert_str_eq(k.syms[0].name, "_stext");
	/* The global name wins over the local one at one address. */
	ck_assert_str_eq(k.syms[1].name, "global_alias");
	/* The text ends just before _etext. */
	ck_assert_uint_eq(k.last, 0xffffffff81004fffull);
	ksyms_release(&k);
}
END_TEST

START_TEST(lookup_finds_the_holder_and_refuses_outside)
{
	struct ksyms k = parsed();
	ck_assert_str_eq(ksyms_lookup(&k, 0xffffffff81002abcull)->name,
			 "page_cache_ra_unbounded");
	/* The __pfx_ padding belongs to no one but the function before. */
	ck_assert_str_eq(ksyms_lookup(&k, 0xffffffff81002ff4ull)->name,
			 "page_cache_ra_unbounded");
	ck_assert_str_eq(ksyms_lookup(&k, 0xffffffff81003000ull)->name,
			 "blk_mq_submit_bio");
	ck_assert_ptr_null(ksyms_lookup(&k, 0xffffffff80000000ull));
	/* Past _etext: a module's address. */
	ck_assert_ptr_null(ksyms_lookup(&k, 0xffffffffa0001000ull));
	ksyms_release(&k);
}
END_TEST

START_TEST(parse_refuses_a_map_without_text)
{
	struct ksyms k = KSYMS_INIT;
	const char *t = "ffffffff82000000 D data\n";
	struct strbuf msg = STRBUF_INIT;
	struct strbuf *prev = error_capture(&msg);
	ck_assert_int_eq(ksyms_parse(&k, t, strlen(t), "x.map"), -1);
	error_capture(prev);
	ck_assert_ptr_nonnull(strstr(msg.buf, "'x.map'"));
	strbuf_release(&msg);
}
END_TEST

START_TEST(fold_sums_per_function_most_first)
{
	struct ksyms k = parsed();
	const struct addr_count c[] = {
		{0xffffffff81003000ull, 100}, /* blk_mq_submit_bio */
		{0xffffffff81002010ull, 300}, /* readahead */
		{0xffffffff81003100ull, 50},  /* blk_mq_submit_bio again */
		{0xffffffffa0000000ull, 7},   /* a module */
		{0xffffffff81002020ull, 1},   /* readahead */
	};
	struct func_count *f;
	size_t nr;
	uint64_t unknown, sum = 0;
	ksyms_fold(&k, c, ARRAY_SIZE(c), &f, &nr, &unknown);
	ck_assert_uint_eq(nr, 2);
	ck_assert_str_eq(f[0].name, "page_cache_ra_unbounded");
	ck_assert_uint_eq(f[0].insns, 301);
	ck_assert_str_eq(f[1].name, "blk_mq_submit_bio");
	ck_assert_uint_eq(f[1].insns, 150);
	ck_assert_uint_eq(unknown, 7);
	for (size_t i = 0; i < nr; i++)
		sum += f[i].insns;
	ck_assert_uint_eq(sum + unknown, 458);
	free(f);
	ksyms_release(&k);
}
END_TEST

START_TEST(tbcount_reads_the_plugins_file)
{
	struct tbcount t = TBCOUNT_INIT;
	const char *text = "iobisect-tbcount 1\nwindows 3\nuser 42\n"
			   "ffffffff81003000 100\nffffffff81002010 300\n";
	ck_assert_int_eq(tbcount_parse(&t, text, strlen(text), "c"), 0);
	ck_assert_uint_eq(t.windows, 3);
	ck_assert_uint_eq(t.user_insns, 42);
	ck_assert_uint_eq(t.nr, 2);
	ck_assert_uint_eq(t.kernel_insns, 400);
	tbcount_release(&t);
}
END_TEST

/* Files the plugin never writes: each refused, the file named. */
static const char *const bad_counts[] = {
	"",
	"something else\nwindows 1\nuser 0\n",
	"iobisect-tbcount 1\nuser 0\n",
	"iobisect-tbcount 1\nwindows 1\nuser 0\nffffffff8100 x\n",
	"iobisect-tbcount 1\nwindows 1\nuser 0\n0000000000401000 5\n",
	"iobisect-tbcount 1\nwindows 1\nuser 99999999999999999999999\n",
	"iobisect-tbcount 1\nwindows 1\nuser 0\nffffffff81000000\n",
};

START_TEST(tbcount_refuses_what_the_plugin_never_writes)
{
	struct tbcount t = TBCOUNT_INIT;
	struct strbuf msg = STRBUF_INIT;
	struct strbuf *prev = error_capture(&msg);
	const char *text = bad_counts[_i];
	ck_assert_int_eq(tbcount_parse(&t, text, strlen(text), "c.txt"), -1);
	error_capture(prev);
	ck_assert_ptr_nonnull(strstr(msg.buf, "'c.txt'"));
	strbuf_release(&msg);
	tbcount_release(&t);
}
END_TEST

/* A report of two measured samples and a warmup, with disk counters. */
static void add_sample(struct proto_report *r, int warmup, uint64_t bytes,
		       long long reads)
{
	ALLOC_GROW(r->samples, r->nr_samples + 1, r->alloc_samples);
	struct proto_sample *s = &r->samples[r->nr_samples++];
	memset(s, 0, sizeof(*s));
	s->warmup = warmup;
	s->io_bytes = bytes;
	s->runtime_ns = 1000000000;
	s->block = json_pack(
		"{s:[{s:s, s:{s:I, s:I}}, {s:s, s:{s:I, s:I}}]}", "devices",
		"kind", "disk", "stat", "reads", reads, "writes", 0LL, "kind",
		"md", "stat", "reads", reads, "writes", 0LL);
}

static void release_report(struct proto_report *r)
{
	for (size_t i = 0; i < r->nr_samples; i++)
		json_decref(r->samples[i].block);
	free(r->samples);
}

START_TEST(compute_counts_measured_samples_and_disks_only)
{
	struct ksyms k = parsed();
	struct tbcount t = TBCOUNT_INIT;
	struct proto_report r;
	struct profile p = PROFILE_INIT;
	const char *text = "iobisect-tbcount 1\nwindows 2\nuser 10\n"
			   "ffffffff81002010 3000000\n"
			   "ffffffff81003000 1000000\n"
			   "ffffffffa0000000 1000000\n";
	memset(&r, 0, sizeof(r));
	add_sample(&r, 1, 999000000, 9999);
	add_sample(&r, 0, 2000000, 100);
	add_sample(&r, 0, 3000000, 150);
	ck_assert_int_eq(tbcount_parse(&t, text, strlen(text), "c"), 0);
	ck_assert_int_eq(profile_compute(&p, &t, &k, &r), 0);
	ck_assert_uint_eq(p.samples, 2);
	ck_assert_uint_eq(p.io_bytes, 5000000);
	/* The md device passes its requests on: the disk's only. */
	ck_assert_uint_eq(p.requests, 250);
	ck_assert_uint_eq(p.unknown_insns, 1000000);
	ck_assert_double_eq_tol(profile_per_mb(&p, p.kernel_insns), 1e6, 1e-6);
	ck_assert_double_eq_tol(profile_per_request(&p, p.fns[0].insns),
				12000, 1e-6);
	/* Through JSON and back, the same. */
	json_t *j = profile_to_json(&p);
	struct profile q = PROFILE_INIT;
	ck_assert_int_eq(profile_from_json(&q, j, "j"), 0);
	ck_assert_uint_eq(q.nr, p.nr);
	ck_assert_str_eq(q.fns[0].name, "page_cache_ra_unbounded");
	ck_assert_uint_eq(q.requests, 250);
	json_decref(j);
	profile_release(&q);
	profile_release(&p);
	tbcount_release(&t);
	release_report(&r);
	ksyms_release(&k);
}
END_TEST

START_TEST(compute_refuses_counts_without_a_window)
{
	struct ksyms k = parsed();
	struct tbcount t = TBCOUNT_INIT;
	struct proto_report r;
	struct profile p = PROFILE_INIT;
	memset(&r, 0, sizeof(r));
	struct strbuf msg = STRBUF_INIT;
	struct strbuf *prev = error_capture(&msg);
	ck_assert_int_eq(profile_compute(&p, &t, &k, &r), -1);
	error_capture(prev);
	ck_assert_ptr_nonnull(strstr(msg.buf, "no window"));
	strbuf_release(&msg);
	profile_release(&p);
	ksyms_release(&k);
}
END_TEST

static void fill(struct profile *p, const char *label, uint64_t mb,
		 const char *const *names, const uint64_t *insns, size_t nr,
		 uint64_t unknown)
{
	memset(p, 0, sizeof(*p));
	p->label = xstrdup(label);
	p->io_bytes = mb * 1000000;
	p->unknown_insns = unknown;
	p->kernel_insns = unknown;
	for (size_t i = 0; i < nr; i++) {
		ALLOC_GROW(p->fns, p->nr + 1, p->alloc);
		p->fns[p->nr++] = (struct profile_fn){xstrdup(names[i]), insns[i]};
		p->kernel_insns += insns[i];
	}
}

START_TEST(diff_orders_by_change_per_mb_and_adds_up)
{
	struct profile a, b;
	struct profile_diff d;
	/* Base moved 10 MB, head 20 MB: per MB is what is compared. */
	const char *an[] = {"copy", "ra_unbounded", "submit_bio", "gone"};
	const uint64_t ai[] = {1000, 100, 200, 50};
	const char *bn[] = {"copy", "ra_unbounded", "submit_bio", "newfn"};
	const uint64_t bi[] = {2000, 1200, 500, 80};
	fill(&a, "parent", 10, an, ai, 4, 10);
	fill(&b, "culprit", 20, bn, bi, 4, 40);
	ck_assert_int_eq(profile_diff(&d, &a, &b), 0);
	/* ra: 10 -> 60 per MB; submit: 20 -> 25; copy 100 -> 100. */
	ck_assert_str_eq(d.rows[0].name, "ra_unbounded");
	ck_assert_double_eq_tol(d.rows[0].a, 10, 1e-9);
	ck_assert_double_eq_tol(d.rows[0].b, 60, 1e-9);
	ck_assert_double_eq_tol(d.rows[0].change_pct, 500, 1e-9);
	ck_assert_str_eq(d.rows[d.nr - 1].name, "copy");
	/* A function only head has: no %change, "new". */
	int seen_new = 0;
	for (size_t i = 0; i < d.nr; i++)
		if (!strcmp(d.rows[i].name, "newfn")) {
			ck_assert(isnan(d.rows[i].change_pct));
			seen_new = 1;
		}
	ck_assert(seen_new);
	/* The rows, outside-the-map one included, add up to the total. */
	ck_assert_double_eq_tol(d.rows_sum, d.total.b - d.total.a, 1e-9);
	ck_assert_double_eq_tol(d.total.a, 136, 1e-9);
	ck_assert_double_eq_tol(d.total.b, 191, 1e-9);

	struct strbuf sb = STRBUF_INIT;
	profile_diff_render(&d, "parent", "culprit", 2, "  ", &sb);
	ck_assert_ptr_nonnull(strstr(sb.buf, "not cycles"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "[all kernel]"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "+500.0%"));
	/* The total before any function. */
	ck_assert(strstr(sb.buf, "[all kernel]") <
		  strstr(sb.buf, "ra_unbounded"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "4 more function(s)"));
	strbuf_release(&sb);
	profile_diff_release(&d);
	profile_release(&a);
	profile_release(&b);
}
END_TEST

START_TEST(diff_refuses_a_profile_without_bytes)
{
	struct profile a, b;
	struct profile_diff d;
	const char *n[] = {"f"};
	const uint64_t i[] = {1};
	fill(&a, "parent", 0, n, i, 1, 0);
	fill(&b, "culprit", 1, n, i, 1, 0);
	struct strbuf msg = STRBUF_INIT;
	struct strbuf *prev = error_capture(&msg);
	ck_assert_int_eq(profile_diff(&d, &a, &b), -1);
	error_capture(prev);
	ck_assert_ptr_nonnull(strstr(msg.buf, "parent"));
	strbuf_release(&msg);
	profile_diff_release(&d);
	profile_release(&a);
	profile_release(&b);
}
END_TEST

/* No byte of `s` works a terminal: no control, no invalid UTF-8. */
static void assert_terminal_safe(const char *s)
{
	for (const char *l = s; *l;) {
		size_t n = strcspn(l, "\n");
		char *line = xstrndup(l, n);
		l += n + (l[n] != 0);
		ck_assert_msg(utf8_valid(line), "invalid UTF-8 in '%s'", line);
		for (const unsigned char *c = (const unsigned char *)line; *c; c++)
			ck_assert_msg(*c >= 0x20 && *c != 0x7f,
				      "control byte %#x in a line", *c);
		free(line);
	}
}

/*
 * Names from a System.map and labels from a profile.json reach the
 * terminal and report.txt as text: escapes and invalid UTF-8 as \xNN.
 */
START_TEST(tables_escape_names_and_labels)
{
	static const char map[] = "ffffffff81000000 T evil\x1b]0;owned\x07\n"
				  "ffffffff81001000 T bad\xff\xc0utf8\n"
				  "ffffffff81002000 T _etext\n";
	struct ksyms k = KSYMS_INIT;
	struct profile a, b;
	struct profile_diff d;
	ck_assert_int_eq(ksyms_parse(&k, map, strlen(map), "map"), 0);
	const char *names[] = {k.syms[0].name, k.syms[1].name};
	const uint64_t ai[] = {100, 10}, bi[] = {300, 20};
	fill(&a, "par\x1b[2Jent", 1, names, ai, 2, 0);
	fill(&b, "\x9b" "31m\xfe", 1, names, bi, 2, 0);

	struct strbuf sb = STRBUF_INIT;
	profile_render(&a, 10, &sb);
	assert_terminal_safe(sb.buf);
	ck_assert_ptr_nonnull(strstr(sb.buf, "evil\\x1b]0;owned\\x07"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "bad\\xff\\xc0utf8"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "profile of par\\x1b[2Jent"));
	strbuf_reset(&sb);
	ck_assert_int_eq(profile_diff(&d, &a, &b), 0);
	profile_diff_render(&d, a.label, b.label, 10, "  ", &sb);
	assert_terminal_safe(sb.buf);
	ck_assert_ptr_nonnull(strstr(sb.buf, "evil\\x1b]0;owned\\x07"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "\\xfe"));
	strbuf_release(&sb);
	profile_diff_release(&d);
	profile_release(&a);
	profile_release(&b);
	ksyms_release(&k);
}
END_TEST

/*
 * A symbol at the top of the address space: its end is not one past it
 * (that was 0, and every count went to "[outside System.map]").
 */
START_TEST(symbol_at_the_top_address_keeps_the_counts)
{
	struct ksyms k = KSYMS_INIT;
	const char *t = "ffffffff81000000 T first\n"
			"ffffffff81001000 T second\n"
			"ffffffffffffffff T top\n";
	const struct addr_count c[] = {
		{ 0xffffffff81000010ull, 10 },
		{ 0xffffffff81001010ull, 20 },
		{ 0xffffffffffffffffull, 3 },
	};
	struct func_count *f;
	size_t nr;
	uint64_t unknown;

	ck_assert_int_eq(ksyms_parse(&k, t, strlen(t), "map"), 0);
	ck_assert_uint_eq(k.last, UINT64_MAX);
	ck_assert_str_eq(ksyms_lookup(&k, 0xffffffff81000010ull)->name,
			 "first");
	ck_assert_str_eq(ksyms_lookup(&k, UINT64_MAX)->name, "top");
	ksyms_fold(&k, c, ARRAY_SIZE(c), &f, &nr, &unknown);
	ck_assert_uint_eq(unknown, 0);
	ck_assert_uint_eq(nr, 3);
	ck_assert_str_eq(f[0].name, "second");
	free(f);
	ksyms_release(&k);
}
END_TEST

/* Counts folded into one function, or outside the map, saturate. */
START_TEST(fold_saturates_rather_than_wraps)
{
	struct ksyms k = parsed();
	const struct addr_count c[] = {
		{ 0xffffffff81003000ull, UINT64_MAX - 1 },
		{ 0xffffffff81003100ull, 5 },
		{ 0xffffffffa0000000ull, UINT64_MAX },
		{ 0xffffffffa0001000ull, 1 },
	};
	struct func_count *f;
	size_t nr;
	uint64_t unknown;

	ksyms_fold(&k, c, ARRAY_SIZE(c), &f, &nr, &unknown);
	ck_assert_uint_eq(nr, 1);
	ck_assert_uint_eq(f[0].insns, UINT64_MAX);
	ck_assert_uint_eq(unknown, UINT64_MAX);
	free(f);
	ksyms_release(&k);
}
END_TEST

/*
 * The plugin's counts past what profile.json keeps (2^63-1), one by one
 * or added up, are refused naming the file and the line: the sum wrapped
 * (a total of 2^64-2 printed as 45812984.49G).
 */
static const char *const huge_counts[] = {
	"iobisect-tbcount 1\nwindows 1\nuser 0\n"
	"ffffffff81000000 9223372036854775808\n",
	"iobisect-tbcount 1\nwindows 1\nuser 0\n"
	"ffffffff81000000 9223372036854775807\n"
	"ffffffff81001000 9223372036854775807\n",
	"iobisect-tbcount 1\nwindows 1\nuser 0\n"
	"ffffffff81000000 18446744073709551615\nffffffff81001000 1\n",
	"iobisect-tbcount 1\nwindows 1\nuser 9223372036854775808\n",
};

START_TEST(tbcount_refuses_counts_past_what_json_keeps)
{
	struct tbcount t = TBCOUNT_INIT;
	struct strbuf msg = STRBUF_INIT;
	struct strbuf *prev = error_capture(&msg);
	const char *text = huge_counts[_i];
	ck_assert_int_eq(tbcount_parse(&t, text, strlen(text), "c.txt"), -1);
	error_capture(prev);
	ck_assert_msg(strstr(msg.buf, "'c.txt' line ") &&
			      strstr(msg.buf, "2^63-1"),
		      "%s", msg.buf);
	strbuf_release(&msg);
	tbcount_release(&t);
}
END_TEST

/*
 * A count past 2^63-1 is never written as a negative number: saving
 * refuses it, naming the file and the key, and the JSON caps it.
 */
START_TEST(save_refuses_a_count_json_cannot_keep)
{
	struct profile p;
	const char *n[] = { "f" };
	const uint64_t i[] = { 1 };
	char dir[] = "/tmp/check_profile.XXXXXX";
	struct strbuf msg = STRBUF_INIT;

	fill(&p, "x", 1, n, i, 1, 0);
	p.kernel_insns = (uint64_t)1 << 63;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char *path = xstrfmt("%s/profile.json", dir);
	struct strbuf *prev = error_capture(&msg);
	ck_assert_int_eq(profile_save(&p, path), -1);
	error_capture(prev);
	ck_assert_msg(strstr(msg.buf, path) &&
			      strstr(msg.buf, "kernel_insns is "
					      "9223372036854775808"),
		      "%s", msg.buf);
	ck_assert(!file_exists(path));
	json_t *j = profile_to_json(&p);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "kernel_insns")),
			 INT64_MAX);
	json_decref(j);

	/* A function's count too. */
	p.kernel_insns = 1;
	p.fns[0].insns = UINT64_MAX;
	strbuf_reset(&msg);
	prev = error_capture(&msg);
	ck_assert_int_eq(profile_save(&p, path), -1);
	error_capture(prev);
	ck_assert_msg(strstr(msg.buf, "functions[0].insns"), "%s", msg.buf);
	rmdir(dir);
	free(path);
	strbuf_release(&msg);
	profile_release(&p);
}
END_TEST

/*
 * A profile.json whose counts are no counts is refused, naming the file
 * and the key: a string or negative insns read as 0 without a word.
 */
static const struct {
	const char *from, *to, *why;
} bad_json[] = {
	{ "\"insns\": 7", "\"insns\": \"7\"",
	  "functions[0].insns is a string, not a count" },
	{ "\"insns\": 7", "\"insns\": -7",
	  "functions[0].insns is -7, not a count" },
	{ "\"insns\": 7", "\"insns\": 7.5",
	  "functions[0].insns is a real number, not a count" },
	{ "\"insns\": 7", "\"insns_x\": 7", "functions[0].insns is missing" },
	{ "\"kernel_insns\": 7", "\"kernel_insns\": -1",
	  "kernel_insns is -1, not a count" },
	{ "\"windows\": 1", "\"windows\": 4294967296",
	  "windows is 4294967296, not a count" },
};

START_TEST(load_refuses_counts_that_are_no_counts)
{
	struct profile p = PROFILE_INIT;
	struct strbuf msg = STRBUF_INIT;
	const char *text = "{\"type\": \"profile_v1\", \"label\": \"x\", "
			   "\"kernel_insns\": 7, \"windows\": 1, "
			   "\"functions\": [{\"name\": \"f\", \"insns\": 7}]}";
	const char *at = strstr(text, bad_json[_i].from);
	ck_assert_ptr_nonnull(at);
	char *spoiled = xstrfmt("%.*s%s%s", (int)(at - text), text,
				bad_json[_i].to,
				at + strlen(bad_json[_i].from));
	json_t *good = json_loads(text, 0, NULL), *bad = json_loads(spoiled, 0, NULL);
	ck_assert_ptr_nonnull(bad);
	ck_assert_int_eq(profile_from_json(&p, good, "good.json"), 0);
	ck_assert_uint_eq(p.fns[0].insns, 7);
	struct strbuf *prev = error_capture(&msg);
	ck_assert_int_eq(profile_from_json(&p, bad, "p/profile.json"), -1);
	error_capture(prev);
	ck_assert_msg(strstr(msg.buf, "'p/profile.json'") &&
			      strstr(msg.buf, bad_json[_i].why),
		      "%s", msg.buf);
	json_decref(good);
	json_decref(bad);
	free(spoiled);
	strbuf_release(&msg);
	profile_release(&p);
}
END_TEST

static Suite *profile_suite(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, parse_keeps_text_one_name_per_address);
	tcase_add_test(tc, lookup_finds_the_holder_and_refuses_outside);
	tcase_add_test(tc, parse_refuses_a_map_without_text);
	tcase_add_test(tc, fold_sums_per_function_most_first);
	tcase_add_test(tc, tbcount_reads_the_plugins_file);
	tcase_add_loop_test(tc, tbcount_refuses_what_the_plugin_never_writes,
			    0, ARRAY_SIZE(bad_counts));
	tcase_add_test(tc, compute_counts_measured_samples_and_disks_only);
	tcase_add_test(tc, compute_refuses_counts_without_a_window);
	tcase_add_test(tc, diff_orders_by_change_per_mb_and_adds_up);
	tcase_add_test(tc, diff_refuses_a_profile_without_bytes);
	tcase_add_test(tc, tables_escape_names_and_labels);
	tcase_add_test(tc, symbol_at_the_top_address_keeps_the_counts);
	tcase_add_test(tc, fold_saturates_rather_than_wraps);
	tcase_add_loop_test(tc, tbcount_refuses_counts_past_what_json_keeps, 0,
			    ARRAY_SIZE(huge_counts));
	tcase_add_test(tc, save_refuses_a_count_json_cannot_keep);
	tcase_add_loop_test(tc, load_refuses_counts_that_are_no_counts, 0,
			    ARRAY_SIZE(bad_json));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	int failed;
	SRunner *sr = srunner_create(profile_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
