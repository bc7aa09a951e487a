/*
 * check_guest_counters.c: the guest's reading of the block layer's
 * counters (workloads/counters.c), built with the host compiler: the stat
 * file and /proc/diskstats as old and new kernels write them, the
 * scheduler's word, counters that wrap, and the "block_v1" object of a
 * sample frame, where a file that could not be read is named as missing
 * and never sent as zero.
 */
#include "counters.h"
#include "layers.h"
#include "report.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

START_TEST(stat_reads_eleven_fields_of_any_kernel)
{
	uint64_t f[COUNTERS_NR_STAT];
	/* 6.1: 17 fields (discard and flush after the eleven). */
	ck_assert_int_eq(counters_parse_stat(
				 "     8192        0    65536    13912        0"
				 "        0        0        0        3      "
				 "112    13912        0        0        0    "
				 "    0        0        0",
				 f),
			 0);
	ck_assert_uint_eq(f[COUNTERS_reads], 8192);
	ck_assert_uint_eq(f[COUNTERS_read_sectors], 65536);
	ck_assert_uint_eq(f[COUNTERS_in_flight], 3);
	ck_assert_uint_eq(f[COUNTERS_time_in_queue_ms], 13912);
	/* 2.6: exactly eleven. */
	ck_assert_int_eq(counters_parse_stat("1 2 3 4 5 6 7 8 9 10 11", f), 0);
	ck_assert_uint_eq(f[COUNTERS_io_ticks_ms], 10);
	/* Fewer, or not numbers: refused, so nothing is read as zero. */
	ck_assert_int_eq(counters_parse_stat("1 2 3 4", f), -1);
	ck_assert_int_eq(counters_parse_stat("", f), -1);
	ck_assert_int_eq(counters_parse_stat("1 2 3 4 5 x 7 8 9 10 11", f), -1);
	ck_assert_int_eq(counters_parse_stat("1 2 3 4 5 6 7 8 9 10 "
					     "99999999999999999999999",
					     f),
			 -1);
}
END_TEST

START_TEST(diskstats_finds_the_device_by_name)
{
	static const char text[] =
		" 253       0 vda 10 0 80 5 0 0 0 0 0 7 5 0 0 0 0 0 0\n"
		" 253       1 vda1 1 2 3 4 5 6 7 8 9 10 11 0 0 0 0\n"
		"   8       1 sda1 4 8 2 16\n"
		"   9       0 md0 7 0 56 0 0 0 0 0 0 0 0\n";
	uint64_t f[COUNTERS_NR_STAT];
	ck_assert_int_eq(counters_parse_diskstats(text, "vda1", f), 0);
	ck_assert_uint_eq(f[COUNTERS_reads], 1);
	ck_assert_uint_eq(f[COUNTERS_time_in_queue_ms], 11);
	/* "vda" is not "vda1"'s prefix match. */
	ck_assert_int_eq(counters_parse_diskstats(text, "vda", f), 0);
	ck_assert_uint_eq(f[COUNTERS_reads], 10);
	ck_assert_int_eq(counters_parse_diskstats(text, "md0", f), 0);
	ck_assert_uint_eq(f[COUNTERS_read_sectors], 56);
	/* A partition of a kernel before 2.6.25 has four fields: missing. */
	ck_assert_int_eq(counters_parse_diskstats(text, "sda1", f), -1);
	ck_assert_int_eq(counters_parse_diskstats(text, "sdb", f), -1);
	ck_assert_int_eq(counters_parse_diskstats("", "vda", f), -1);
}
END_TEST

START_TEST(scheduler_is_the_word_in_brackets)
{
	char s[32];
	ck_assert_int_eq(counters_parse_scheduler("[mq-deadline] kyber none", s,
						  sizeof(s)),
			 0);
	ck_assert_str_eq(s, "mq-deadline");
	ck_assert_int_eq(
		counters_parse_scheduler("mq-deadline [none]", s, sizeof(s)),
		0);
	ck_assert_str_eq(s, "none");
	ck_assert_int_eq(counters_parse_scheduler("none", s, sizeof(s)), 0);
	ck_assert_str_eq(s, "none");
	ck_assert_int_eq(
		counters_parse_scheduler("noop deadline [cfq]", s, sizeof(s)),
		0);
	ck_assert_str_eq(s, "cfq");
	ck_assert_int_eq(counters_parse_scheduler("", s, sizeof(s)), -1);
	ck_assert_int_eq(counters_parse_scheduler("[]", s, sizeof(s)), -1);
	ck_assert_int_eq(counters_parse_scheduler("[a-very-long-name]", s, 8),
			 -1);
}
END_TEST

START_TEST(delta_survives_a_32_bit_wrap)
{
	ck_assert_uint_eq(counters_delta(5, 12), 7);
	ck_assert_uint_eq(counters_delta(0xfffffff0ull, 0x10), 0x20);
	/* A 64-bit counter that went back was reset, not run round. */
	ck_assert_uint_eq(counters_delta(1ull << 40, 5), 0);
}
END_TEST

/* A disk and an md array whose files were read in part. */
START_TEST(frame_names_what_is_missing)
{
	static struct counters_snap a, b;
	static struct spec_line md_line;
	static struct json j;

	nr_layers = 3;
	memset(layers, 0, 3 * sizeof(*layers));
	strcpy(layers[0].name, "d0");
	strcpy(layers[0].kind, "disk");
	strcpy(layers[0].dev, "vda");
	strcpy(layers[1].name, "f");
	strcpy(layers[1].kind, "fs");
	strcpy(layers[2].name, "md0");
	strcpy(layers[2].kind, "md");
	strcpy(layers[2].dev, "md0");
	md_line.nr = 2;
	strcpy(md_line.kv[0].key, "level");
	strcpy(md_line.kv[0].val, "5");
	strcpy(md_line.kv[1].key, "bitmap");
	strcpy(md_line.kv[1].val, "1");
	layers[2].line = &md_line;

	a.nr = b.nr = 2;
	a.dev[0].layer = b.dev[0].layer = 0;
	a.dev[0].have = b.dev[0].have =
		COUNTERS_HAVE_STAT | COUNTERS_HAVE_SCHEDULER |
		(COUNTERS_HAVE_QUEUE << COUNTERS_Q_max_sectors_kb) |
		(COUNTERS_HAVE_QUEUE << COUNTERS_Q_read_ahead_kb);
	a.dev[0].stat[COUNTERS_reads] = 100;
	b.dev[0].stat[COUNTERS_reads] = 356;
	b.dev[0].stat[COUNTERS_in_flight] = 2;
	a.dev[0].queue[COUNTERS_Q_read_ahead_kb] = 128;
	b.dev[0].queue[COUNTERS_Q_read_ahead_kb] = 16;
	strcpy(a.dev[0].scheduler, "none");
	strcpy(b.dev[0].scheduler, "none");
	/* md0: no stat before, its stripe cache only after. */
	a.dev[1].layer = b.dev[1].layer = 2;
	a.dev[1].have = COUNTERS_HAVE_SYNC_ACTION | COUNTERS_HAVE_BITMAP;
	b.dev[1].have = COUNTERS_HAVE_STAT | COUNTERS_HAVE_SYNC_ACTION |
			COUNTERS_HAVE_BITMAP | COUNTERS_HAVE_STRIPE_CACHE;
	strcpy(a.dev[1].sync_action, "idle");
	strcpy(b.dev[1].sync_action, "idle");
	b.dev[1].bitmap_pages = 3;
	a.at_ns = 1000;
	b.took_ns = 200;
	b.at_ns = 5200;

	json_begin(&j, "sample");
	counters_json(&j, &a, &b);
	json_end(&j);
	ck_assert(!j.overflow);
	const char *p = j.buf;
	ck_assert_ptr_nonnull(strstr(p, "\"block_v1\":{\"interval_ns\":4000,"
					"\"read_ns\":200,"));
	ck_assert_ptr_nonnull(strstr(p, "\"dev\":\"vda\",\"layer\":\"d0\""));
	ck_assert_ptr_nonnull(strstr(p, "\"reads\":256,"));
	ck_assert_ptr_nonnull(strstr(p, "\"in_flight\":2,"));
	ck_assert_ptr_nonnull(strstr(p, "\"queue_before\":{\"read_ahead_kb\""
					":128}"));
	ck_assert_ptr_nonnull(strstr(p, "\"missing\":[\"max_hw_sectors_kb\","
					"\"nr_requests\"]"));
	/* The file system is no device. */
	ck_assert_ptr_null(strstr(p, "\"layer\":\"f\""));
	/* md0's stat and stripe cache were not read both times. */
	const char *md = strstr(p, "\"dev\":\"md0\"");
	ck_assert_ptr_nonnull(md);
	ck_assert_ptr_null(strstr(md, "\"stat\":"));
	ck_assert_ptr_null(strstr(md, "\"stripe_cache_active\":"));
	ck_assert_ptr_nonnull(strstr(md, "\"bitmap_pages\":3,"
					 "\"bitmap_pages_before\":0"));
	ck_assert_ptr_nonnull(strstr(md, "\"stat\",\"max_sectors_kb\""));
	ck_assert_ptr_nonnull(strstr(md, "\"stripe_cache_active\"]"));
}
END_TEST

static Suite *counters_suite(void)
{
	Suite *s = suite_create("guest_counters");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, stat_reads_eleven_fields_of_any_kernel);
	tcase_add_test(tc, diskstats_finds_the_device_by_name);
	tcase_add_test(tc, scheduler_is_the_word_in_brackets);
	tcase_add_test(tc, delta_survives_a_32_bit_wrap);
	tcase_add_test(tc, frame_names_what_is_missing);
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
