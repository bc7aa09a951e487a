/*
 * check_counters.c: the block layer's counters on the host (counters.c):
 * what is derived from a sample's raw differences (and what is left out
 * when it cannot be known), and the table of what differs most between
 * two commits: its order, its %change, its settings and its text.
 */
#include "block_counters.h"
#include "util.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One device's raw "block_v1" entry as the guest sends it. */
static json_t *raw_dev(const char *dev, long long reads, long long rsect,
		       long long rticks, long long writes, long long tiq,
		       long long io_ticks, int max_sectors_kb, int ra_kb,
		       const char *sched)
{
	return json_pack(
		"{s:s, s:s, s:s, s:s, s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I, "
		"s:I, s:I, s:I, s:I}, s:{s:i, s:i, s:i, s:i, s:s}, s:[]}",
		"dev", dev, "layer", "d0", "kind", "disk", "stat_from", "sysfs",
		"stat", "reads", reads, "read_merges", 0LL, "read_sectors",
		rsect, "read_ticks_ms", rticks, "writes", writes,
		"write_merges", 0LL, "write_sectors", writes * 8,
		"write_ticks_ms", writes, "in_flight", 0LL, "io_ticks_ms",
		io_ticks, "time_in_queue_ms", tiq, "queue", "max_sectors_kb",
		max_sectors_kb, "max_hw_sectors_kb", 2048, "read_ahead_kb",
		ra_kb, "nr_requests", 256, "scheduler", sched, "missing");
}

/* A stored sample: the raw block derived for io_bytes. */
static json_t *stored(json_t *dev, long long interval_ns, uint64_t io_bytes)
{
	json_t *raw = json_pack("{s:I, s:I, s:[o]}", "interval_ns", interval_ns,
				"read_ns", 150000LL, "devices", dev);
	json_t *d = block_counters_derive(raw, io_bytes);
	json_decref(raw);
	ck_assert_ptr_nonnull(d);
	return d;
}

static json_t *derived_of(json_t *block)
{
	return json_object_get(
		json_array_get(json_object_get(block, "devices"), 0),
		"derived");
}

START_TEST(derive_gives_averages_with_units)
{
	/* 32 MiB in 32 reads of 1 MiB, 40 ms of wait, 100 ms interval. */
	json_t *b = stored(
		raw_dev("vda", 32, 65536, 40, 0, 40, 90, 1280, 128, "none"),
		100000000, 32 << 20);
	json_t *d = derived_of(b);
	ck_assert_int_eq(json_integer_value(json_object_get(d, "reads")), 32);
	ck_assert_double_eq_tol(
		json_number_value(json_object_get(d, "avg_read_request_bytes")),
		1048576, 1e-6);
	ck_assert_double_eq_tol(
		json_number_value(json_object_get(d, "avg_read_wait_ms")), 1.25,
		1e-9);
	ck_assert_double_eq_tol(
		json_number_value(json_object_get(d, "avg_in_flight")), 0.4,
		1e-9);
	ck_assert_double_eq_tol(
		json_number_value(json_object_get(d, "busy_pct")), 90, 1e-9);
	/* 32 requests for 33.55 MB moved. */
	ck_assert_double_eq_tol(
		json_number_value(json_object_get(d, "requests_per_mb")),
		32 / 33.554432, 1e-9);
	ck_assert_int_eq(
		json_integer_value(json_object_get(d, "read_ahead_kb")), 128);
	ck_assert_str_eq(json_string_value(json_object_get(d, "scheduler")),
			 "none");
	/* No write: no write average, not a zero one. */
	ck_assert_ptr_null(json_object_get(d, "avg_write_request_bytes"));
	ck_assert_ptr_null(json_object_get(d, "avg_write_wait_ms"));
	json_decref(b);
}
END_TEST

START_TEST(derive_leaves_out_what_is_missing)
{
	/* An old kernel: no stat file, no nr_requests. */
	json_t *dev = json_pack("{s:s, s:{s:i}, s:[s, s]}", "dev", "hda",
				"queue", "max_sectors_kb", 128, "missing",
				"stat", "nr_requests");
	json_t *b = stored(dev, 0, 1 << 20), *d = derived_of(b);
	const char *never[] = {
		"reads",	 "writes",   "avg_read_request_bytes",
		"avg_in_flight", "busy_pct", "requests_per_mb",
		"nr_requests"};
	for (size_t i = 0; i < ARRAY_SIZE(never); i++)
		ck_assert_msg(!json_object_get(d, never[i]), "%s derived",
			      never[i]);
	ck_assert_int_eq(
		json_integer_value(json_object_get(d, "max_sectors_kb")), 128);
	json_decref(b);

	/* Not counters at all: nothing derived, no crash. */
	json_t *bad = json_pack("{s:s}", "devices", "vda");
	ck_assert_ptr_null(block_counters_derive(bad, 1));
	ck_assert_ptr_null(block_counters_derive(NULL, 1));
	json_decref(bad);
}
END_TEST

/* Samples of one commit: n alike. */
static json_t *commit_samples(int n, long long reads, long long rsect,
			      long long tiq, int msk, int ra, const char *sched)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(
			a, stored(raw_dev("vda", reads, rsect, reads, 0, tiq,
					  90, msk, ra, sched),
				  100000000, (uint64_t)rsect * 512));
	return a;
}

START_TEST(compare_puts_request_size_first_and_settings_last)
{
	/* 1 MiB requests against 4 KiB ones, for the same 32 MiB. */
	json_t *a = commit_samples(3, 32, 65536, 90, 1280, 128, "none");
	json_t *b = commit_samples(3, 8192, 65536, 13000, 4, 128, "none");
	struct block_counters_table t;

	block_counters_compare(a, b, &t);
	ck_assert_uint_eq(t.a_samples, 3);
	ck_assert_uint_eq(t.b_samples, 3);
	ck_assert_uint_ge(t.nr, 4);
	ck_assert_str_eq(t.rows[0].dev, "vda");
	ck_assert_str_eq(t.rows[0].label, "avg read request");
	ck_assert_double_eq_tol(t.rows[0].a, 1024, 1e-9);
	ck_assert_double_eq_tol(t.rows[0].b, 4, 1e-9);
	ck_assert_double_eq_tol(t.rows[0].change_pct, -99.609375, 1e-6);
	/* Equally far (256x), it follows from the request size. */
	ck_assert_str_eq(t.rows[1].label, "requests per MB moved");
	ck_assert_str_eq(t.rows[t.nr - 1].label, "max_sectors_kb");
	ck_assert(t.rows[t.nr - 1].setting);
	for (size_t i = 0; i < t.nr; i++) {
		ck_assert_msg(t.rows[i].a != t.rows[i].b, "%s did not change",
			      t.rows[i].label);
		/* read_ahead_kb and the scheduler did not change: no row. */
		ck_assert_str_ne(t.rows[i].label, "read_ahead_kb");
		ck_assert_str_ne(t.rows[i].label, "scheduler");
		if (i && !t.rows[i].setting)
			ck_assert_double_le(t.rows[i].rank, t.rows[i - 1].rank);
	}

	struct strbuf out = STRBUF_INIT;
	block_counters_render(&t, 8, "", &out);
	ck_assert_ptr_nonnull(strstr(out.buf, "      1024 KiB    -99.6"
					      "%          4 KiB  vda: avg read "
					      "request\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "settings that differ:\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "1280 KiB    -99.7%          "
					      "4 KiB  vda: max_sectors_kb\n"));
	strbuf_reset(&out);
	/* One measured row, and the settings still. */
	block_counters_render(&t, 1, "", &out);
	ck_assert_ptr_null(strstr(out.buf, "requests per MB"));
	ck_assert_ptr_nonnull(strstr(out.buf, "max_sectors_kb"));
	strbuf_release(&out);
	block_counters_table_release(&t);
	json_decref(a);
	json_decref(b);
}
END_TEST

/* One sample a side, alike but for what a test then changes. */
struct two {
	json_t *a, *b;	 /* the sides' samples */
	json_t *ad, *bd; /* their device's "derived" */
	struct block_counters_table t;
};

static void two_init(struct two *w, long long b_time_in_queue,
		     const char *a_sched)
{
	w->a = commit_samples(1, 100, 800, 300, 1280, 128, a_sched);
	w->b = commit_samples(1, 100, 800, b_time_in_queue, 1280, 128, "none");
	w->ad = derived_of(json_array_get(w->a, 0));
	w->bd = derived_of(json_array_get(w->b, 0));
}

static void two_release(struct two *w)
{
	block_counters_table_release(&w->t);
	json_decref(w->a);
	json_decref(w->b);
}

START_TEST(compare_weighs_a_halving_as_a_doubling)
{
	/*
	 * The wait triples down (-66.7%) while requests in flight double
	 * up (+100%): by %change the rise looks larger, but the fall is
	 * the larger change, and ranks first.
	 */
	struct two w;
	two_init(&w, 600, "none");
	json_object_set_new(w.ad, "avg_read_wait_ms", json_real(3));
	json_object_set_new(w.bd, "avg_read_wait_ms", json_real(1));
	block_counters_compare(w.a, w.b, &w.t);
	ck_assert_uint_eq(w.t.nr, 2);
	ck_assert_str_eq(w.t.rows[0].label, "avg read wait");
	ck_assert_str_eq(w.t.rows[1].label, "avg requests in flight");
	ck_assert_double_eq_tol(w.t.rows[1].change_pct, 100, 1e-9);
	two_release(&w);
}
END_TEST

START_TEST(compare_counts_events_from_one)
{
	struct two w;
	struct block_counters_table *t = &w.t;
	two_init(&w, 300, "mq-deadline");

	/* 0 -> 3 writes is ln 4 away, not infinitely; a device idle in the
	   base and busy in the head is. */
	json_object_set_new(w.bd, "writes", json_integer(3));
	json_object_set_new(w.ad, "busy_pct", json_real(0));
	block_counters_compare(w.a, w.b, t);
	ck_assert_uint_eq(t->nr, 3);
	ck_assert_str_eq(t->rows[0].label, "busy");
	ck_assert(isinf(t->rows[0].change_pct));
	ck_assert_str_eq(t->rows[1].label, "writes");
	ck_assert_double_eq_tol(t->rows[1].rank, log(4), 1e-12);
	ck_assert(isinf(t->rows[1].change_pct));
	/* A choice is a setting and shows both words. */
	ck_assert_str_eq(t->rows[2].label, "scheduler");
	ck_assert(t->rows[2].setting);
	ck_assert_str_eq(t->rows[2].a_text, "mq-deadline");
	ck_assert_str_eq(t->rows[2].b_text, "none");

	struct strbuf out = STRBUF_INIT;
	block_counters_render(t, 8, "  ", &out);
	ck_assert_ptr_nonnull(strstr(out.buf, "from 0"));
	ck_assert_ptr_nonnull(strstr(out.buf, "mq-deadline"));
	strbuf_release(&out);
	two_release(&w);
}
END_TEST

START_TEST(compare_skips_what_one_side_lacks_or_garbles)
{
	json_t *a = commit_samples(2, 32, 65536, 90, 1280, 128, "none");
	json_t *b = json_pack(
		"[{s:s}, {s:[i, {s:i}, {s:s, s:[]}, {s:s, s:{s:s, s:n}}]}, n]",
		"devices", "x", "devices", 3, "dev", 4, "dev", "vda", "derived",
		"dev", "vdb", "derived", "reads", "many", "busy_pct");
	struct block_counters_table t;

	block_counters_compare(a, b, &t);
	ck_assert_uint_eq(t.nr, 0);
	ck_assert_uint_eq(t.b_samples, 1);
	struct strbuf out = STRBUF_INIT;
	block_counters_render(&t, 8, "", &out);
	ck_assert_uint_eq(out.len, 0);
	strbuf_release(&out);
	block_counters_table_release(&t);
	/* Old documents: no counters at all. */
	block_counters_compare(NULL, a, &t);
	ck_assert_uint_eq(t.nr, 0);
	block_counters_table_release(&t);
	json_decref(a);
	json_decref(b);
}
END_TEST

static Suite *counters_suite(void)
{
	Suite *s = suite_create("counters");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, derive_gives_averages_with_units);
	tcase_add_test(tc, derive_leaves_out_what_is_missing);
	tcase_add_test(tc, compare_puts_request_size_first_and_settings_last);
	tcase_add_test(tc, compare_weighs_a_halving_as_a_doubling);
	tcase_add_test(tc, compare_counts_events_from_one);
	tcase_add_test(tc, compare_skips_what_one_side_lacks_or_garbles);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	int failed;
	SRunner *sr = srunner_create(counters_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
